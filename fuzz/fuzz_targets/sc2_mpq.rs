//! Fuzzes the `sc2_mpq` reader: see `groundwork::fuzz::sc2_mpq`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::sc2_mpq(data));
