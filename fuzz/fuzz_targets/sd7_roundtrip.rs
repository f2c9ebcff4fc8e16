//! Fuzzes `groundwork::fuzz::sd7_roundtrip`: see there.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::sd7_roundtrip(data));
