//! Fuzzes the `s3o` reader: see `groundwork::fuzz::s3o`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::s3o(data));
