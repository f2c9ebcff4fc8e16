//! The `.smf` (Spring map file): header, vegetation extra header, heightmap, type map, minimap,
//! metal, grass, tile index and features. Reader and writer side by side.

mod reader;
mod writer;

pub use reader::read_smf;
pub use writer::write_smf;

/// The 16-byte magic at the start of every `.smf`.
pub const SMF_MAGIC: &[u8; 16] = b"spring map file\0";
/// The fixed header size.
pub const SMF_HEADER_BYTES: usize = 80;
/// The extra-header type of the grass (vegetation) block.
pub const MEH_VEGETATION: i32 = 1;
/// The minimap: 1024x1024 DXT1 with exactly 9 mips.
pub const MINIMAP_BYTES: usize = 699_048;
/// Feature names the engine keeps (a `char[32]` table).
pub const MAX_FEATURE_NAME_CHARS: usize = 31;
/// The engine's fixed feature-type table size.
pub const MAX_FEATURE_TYPES: usize = 16_384;
/// Heading units per full turn (`SPRING_CIRCLE_DIVS`): the file's "rotation" is cast to a short.
const HEADING_UNITS_PER_TURN: f32 = 65536.0;

/// The 17 built-in feature types maps list first, so every map numbers them alike.
pub fn builtin_feature_types() -> Vec<String> {
    let mut v: Vec<String> = (0..16).map(|i| format!("TreeType{i}")).collect();
    v.push("GeoVent".into());
    v
}

/// One tile file the tile index counts into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmfTileFile {
    pub tile_count: u32,
    /// The `.smt` name, resolved case-insensitively next to the `.smf`.
    pub name: String,
}

/// One placed feature as the file stores it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmfFeature {
    pub type_index: u32,
    pub x_elmos: f32,
    /// Ignored by the engine: features sit on the ground.
    pub y_elmos: f32,
    pub z_elmos: f32,
    /// A heading: the engine casts it to a short, 65536 units per turn (not degrees).
    pub heading: f32,
    /// Ignored by the engine.
    pub relative_size: f32,
}

impl SmfFeature {
    /// The heading in degrees, as the document keeps it.
    pub fn rotation_deg(&self) -> f32 {
        self.heading * 360.0 / HEADING_UNITS_PER_TURN
    }

    /// A heading from degrees, wrapped into the short range the engine casts to.
    pub fn heading_from_deg(rotation_deg: f32) -> f32 {
        let wrapped = (rotation_deg + 180.0).rem_euclid(360.0) - 180.0;
        (wrapped * HEADING_UNITS_PER_TURN / 360.0)
            .round()
            .clamp(-32768.0, 32767.0)
    }
}

/// A whole `.smf` in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct SmfFile {
    pub map_id: i32,
    /// Width in squares (a multiple of 128).
    pub mapx: u32,
    /// Depth in squares (a multiple of 128).
    pub mapy: u32,
    pub min_height_elmos: f32,
    pub max_height_elmos: f32,
    /// (mapx + 1) x (mapy + 1) height words.
    pub heights: Vec<u16>,
    /// (mapx / 2) x (mapy / 2) terrain type bytes.
    pub types: Vec<u8>,
    /// The 1024x1024 DXT1 minimap with 9 mips, [`MINIMAP_BYTES`] long.
    pub minimap: Vec<u8>,
    /// (mapx / 2) x (mapy / 2) metal bytes.
    pub metal: Vec<u8>,
    /// (mapx / 4) x (mapy / 4) grass bytes, when the vegetation header is present.
    pub grass: Option<Vec<u8>>,
    pub tile_files: Vec<SmfTileFile>,
    /// (mapx / 4) x (mapy / 4) tile numbers, counted across `tile_files` in order.
    pub tile_index: Vec<u32>,
    pub feature_types: Vec<String>,
    pub features: Vec<SmfFeature>,
}

impl SmfFile {
    /// The total tile count across all tile files.
    pub fn tile_count(&self) -> u64 {
        self.tile_files.iter().map(|f| f.tile_count as u64).sum()
    }
}

#[cfg(test)]
mod tests;
