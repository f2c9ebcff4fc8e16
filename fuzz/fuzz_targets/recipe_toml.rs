//! Fuzzes `groundwork::fuzz::recipe_toml`: see there.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::recipe_toml(data));
