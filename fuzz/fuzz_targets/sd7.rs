//! Fuzzes the `sd7` reader: see `groundwork::fuzz::sd7`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::sd7(data));
