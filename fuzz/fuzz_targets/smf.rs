//! Fuzzes the `smf` reader: see `groundwork::fuzz::smf`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::smf(data));
