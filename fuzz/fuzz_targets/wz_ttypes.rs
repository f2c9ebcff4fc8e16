//! Fuzzes the `wz_ttypes` reader: see `groundwork::fuzz::wz_ttypes`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::wz_ttypes(data));
