//! What the editor ships with, built into the binary: the starter map it opens on, a project
//! folder made by `examples/make_starter_map.rs` (in `assets/starter/`, without `texture.png`:
//! the loader colours the ground from the heights, as that example did), read from memory.

use crate::map::Map;

/// The starter project's files, as `save_project` wrote them.
const STARTER_FILES: [(&str, &[u8]); 5] = [
    ("map.toml", include_bytes!("../assets/starter/map.toml")),
    ("height.png", include_bytes!("../assets/starter/height.png")),
    ("metal.png", include_bytes!("../assets/starter/metal.png")),
    ("grass.png", include_bytes!("../assets/starter/grass.png")),
    ("type.png", include_bytes!("../assets/starter/type.png")),
];

/// The starter map: 8x8, hills, a sea, metal spots and two start positions. Read by the
/// project loader straight from the built-in files.
pub fn starter_map() -> Result<Map, String> {
    crate::formats::project::load_built_in_project(&STARTER_FILES, "(built-in starter map)")
        .map(|l| l.map)
        .map_err(|e| format!("the built-in starter map: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_starter_is_what_the_generator_makes() {
        let shipped = starter_map().unwrap();
        let made = crate::edit::procedural::starter_map();
        assert_eq!(shipped.size, made.size);
        assert_eq!(shipped.metal, made.metal);
        assert_eq!(shipped.teams.len(), 2);
        assert_eq!(shipped.settings.name, "Groundwork Starter");
        // heights went through the engine's 16-bit words
        let step = (made.settings.max_height_elmos - made.settings.min_height_elmos) / 65536.0;
        for (a, b) in shipped.heights.data().iter().zip(made.heights.data()) {
            assert!((a - b).abs() <= step, "{a} vs {b}");
        }
        assert!(shipped.settings.playability_warnings(2).is_empty());
    }
}
