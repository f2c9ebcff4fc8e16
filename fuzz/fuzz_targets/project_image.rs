//! Fuzzes the `project_image` reader: see `groundwork::fuzz::project_image`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::project_image(data));
