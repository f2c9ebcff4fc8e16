//! Fuzzes the `smt` reader: see `groundwork::fuzz::smt`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| groundwork::fuzz::smt(data));
