//! What the editor ships with, built into the binary: the starter map it opens on.

use crate::map::Map;

/// The starter map: 8x8, hills, a sea, metal spots and two start positions.
pub fn starter_map() -> Result<Map, String> {
    Ok(crate::edit::procedural::starter_map())
}
