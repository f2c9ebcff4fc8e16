//! Fuzzes `groundwork::fuzz::dds`: see there.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::dds(data));
