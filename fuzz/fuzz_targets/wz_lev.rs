//! Fuzzes the `wz_lev` reader: see `groundwork::fuzz::wz_lev`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::wz_lev(data));
