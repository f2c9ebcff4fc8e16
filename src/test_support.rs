//! What the tests share with the library's own unit tests: the one place a test that lacks
//! something (a GPU adapter, Spring, the fixtures, Warzone 2100's data) says it is skipped, or,
//! with `GROUNDWORK_REQUIRE_ALL=1` (CI sets it), fails, so a broken lavapipe or a missing
//! package never passes silently.

/// The variable that turns every skip into a failure.
const REQUIRE_ALL: &str = "GROUNDWORK_REQUIRE_ALL";

/// Says why a test is skipped; panics instead when [`REQUIRE_ALL`] is set to anything but 0.
pub fn skip(why: &str) {
    let required = std::env::var(REQUIRE_ALL).is_ok_and(|v| !v.is_empty() && v != "0");
    if required {
        panic!("{REQUIRE_ALL} is set, but this test lacks what it needs: {why}");
    }
    eprintln!("skipped: {why}");
}
