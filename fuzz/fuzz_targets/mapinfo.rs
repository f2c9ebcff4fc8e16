//! Fuzzes the `mapinfo` reader: see `groundwork::fuzz::mapinfo`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::mapinfo(data));
