//! Fuzzes the `wz_objects` reader: see `groundwork::fuzz::wz_objects`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::wz_objects(data));
