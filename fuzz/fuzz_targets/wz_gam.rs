//! Fuzzes the `wz_gam` reader: see `groundwork::fuzz::wz_gam`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::wz_gam(data));
