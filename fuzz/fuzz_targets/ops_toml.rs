//! Fuzzes `groundwork::fuzz::ops_toml`: see there.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::ops_toml(data));
