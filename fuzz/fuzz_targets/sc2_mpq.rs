//! Fuzzes the `sc2_mpq` reader: see `groundwork::fuzz::sc2_mpq`.
//!
//! The MPQ crate's decoders can panic on corrupt sectors (a shift overflow in PKWARE's
//! implode, found here); the reader catches that (`sc2::mpq::guarded`) and reports the
//! archive as corrupt. libFuzzer's panic hook would abort even on a caught panic, so this
//! target takes it out: a panic the reader does not catch still aborts the run (libfuzzer-sys
//! aborts when the input's call unwinds), so it is still found.
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: {
        std::panic::set_hook(Box::new(|_| {}));
    },
    |data: &[u8]| groundwork::fuzz::sc2_mpq(data)
);
