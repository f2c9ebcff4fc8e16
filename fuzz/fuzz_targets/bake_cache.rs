//! Fuzzes `groundwork::fuzz::bake_cache`: see there.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::bake_cache(data));
