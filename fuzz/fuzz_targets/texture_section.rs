//! Fuzzes `groundwork::fuzz::texture_section`: see there.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::texture_section(data));
