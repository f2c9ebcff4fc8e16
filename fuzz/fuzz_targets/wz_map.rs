//! Fuzzes the `wz_map` reader: see `groundwork::fuzz::wz_map`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::wz_map(data));
