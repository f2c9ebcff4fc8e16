//! Fuzzes the `sdz` reader: see `groundwork::fuzz::sdz`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::sdz(data));
