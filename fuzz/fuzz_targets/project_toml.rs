//! Fuzzes the `project_toml` reader: see `groundwork::fuzz::project_toml`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::project_toml(data));
