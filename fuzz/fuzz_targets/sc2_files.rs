//! Fuzzes the `sc2_files` reader: see `groundwork::fuzz::sc2_files`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::sc2_files(data));
