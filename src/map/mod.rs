//! The document: what a map is. Every layer at engine resolution, the settings `mapinfo.lua`
//! carries, features and teams. No files, no GPU, no UI.

pub mod bar;
pub mod float;
pub mod grass;
pub mod grid;
pub mod ground_bake;
pub mod ground_layers;
pub mod lua_value;
pub mod materials;
pub mod metal;
pub mod recipe;
pub mod resize;
pub mod settings;
pub mod size;
pub mod start_boxes;
pub mod symmetry;
pub mod texture;
pub mod water;

pub use grid::Grid;
pub use lua_value::{LuaKey, LuaTable, LuaValue};
pub use metal::{BarSpot, MetalReport, MetalWarning};
pub use settings::{
    AtmosphereSettings, FeaturePlacement, LightingSettings, MapSettings, MoveSpeeds, TerrainType,
    WaterSettings,
};
pub use size::{ELMOS_PER_MAP_UNIT, ELMOS_PER_SQUARE, MAX_MAP_UNITS, MapSize, MapSizeError};
pub use symmetry::SymmetryMode;
pub use texture::GroundTexture;

/// Heights in elmos on the (mapx + 1) x (mapy + 1) vertex grid.
pub type HeightGrid = Grid<f32>;
/// Metal bytes at (mapx / 2) x (mapy / 2); metal = byte x `max_metal`.
type MetalMap = Grid<u8>;
/// Terrain type indices at (mapx / 2) x (mapy / 2), into `MapSettings::terrain_types`.
type TypeMap = Grid<u8>;
/// Grass patch sizes at (mapx / 4) x (mapy / 4); 0 is none, 255 is reserved.
pub type GrassMap = Grid<u8>;

/// The height word the engine decodes as `min + word * (max - min) / 65536` (not 65535).
pub const HEIGHT_WORD_DIVISOR: f64 = 65536.0;

/// A map feature placed on the ground: a tree, a rock, a geothermal vent.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    /// The feature definition's name (31 characters at most reach the engine).
    pub name: String,
    pub x_elmos: f32,
    pub z_elmos: f32,
    /// Heading in degrees.
    pub rotation_deg: f32,
}

/// The colour each team is shown in (start markers in the view and on the minimap), in team
/// order; [`team_colour`] repeats them.
const TEAM_COLOURS: [[f32; 3]; 8] = [
    [0.95, 0.2, 0.15],
    [0.15, 0.45, 1.0],
    [0.2, 0.85, 0.25],
    [1.0, 0.85, 0.1],
    [0.8, 0.3, 0.95],
    [0.1, 0.9, 0.9],
    [1.0, 0.55, 0.1],
    [0.95, 0.95, 0.95],
];

/// Team `i`'s colour (RGB, 0..1), the list repeating past its end.
pub fn team_colour(i: usize) -> [f32; 3] {
    TEAM_COLOURS[i % TEAM_COLOURS.len()]
}

/// One team (player slot) and where it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Team {
    pub start_x_elmos: f32,
    pub start_z_elmos: f32,
}

/// A file the map's archive carries as it is: feature models, textures, Lua gadgets,
/// `mapconfig/` overrides. Its path uses `/` and is relative to the archive root.
///
/// Small files are held in `data`. A large one read from an archive (over
/// [`BundledFile::SPILL_BYTES`]) is streamed into a scratch file instead, and a compiled one
/// may share its bytes with the compile cache; then `data` stays empty: read it with
/// [`BundledFile::bytes`], copy it with [`BundledFile::write_to`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledFile {
    pub path: String,
    pub data: Vec<u8>,
    /// Where the bytes are when they are not in `data`.
    elsewhere: Option<Elsewhere>,
}

/// A bundled file's bytes held outside its `data`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Elsewhere {
    /// In a scratch file.
    Spill(std::sync::Arc<Spill>),
    /// In parts shared with another owner (the compile cache): the file is their
    /// concatenation.
    Parts(Vec<std::sync::Arc<Vec<u8>>>),
}

/// A bundled file's bytes in a scratch file, removed when the last copy of the map drops it.
#[derive(Debug, PartialEq, Eq)]
struct Spill {
    path: std::path::PathBuf,
    len: u64,
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl BundledFile {
    /// Bundled files bigger than this are kept on disk when read from an archive.
    pub const SPILL_BYTES: u64 = 16 << 20;

    /// A file held in memory.
    pub fn new(path: String, data: Vec<u8>) -> BundledFile {
        BundledFile {
            path,
            data,
            elsewhere: None,
        }
    }

    /// A file made of `parts` one after another, shared, not copied (a compiled `.smt`: its
    /// header, then its blocks of tiles, which the compile cache also holds). The `.sd7`
    /// packer packs each part on its own.
    pub fn in_parts(path: String, parts: Vec<std::sync::Arc<Vec<u8>>>) -> BundledFile {
        BundledFile {
            path,
            data: Vec::new(),
            elsewhere: Some(Elsewhere::Parts(parts)),
        }
    }

    /// The parts of a file made [`BundledFile::in_parts`]; `None` for any other.
    pub fn parts(&self) -> Option<&[std::sync::Arc<Vec<u8>>]> {
        match &self.elsewhere {
            Some(Elsewhere::Parts(p)) => Some(p),
            _ => None,
        }
    }

    /// A file streamed from `reader` into a scratch file, checked to be `len` bytes long.
    pub fn spilled(
        path: String,
        reader: &mut dyn std::io::Read,
        len: u64,
    ) -> std::io::Result<BundledFile> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let scratch = std::env::temp_dir().join(format!(
            "groundwork-bundled-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let spill = Spill { path: scratch, len };
        let mut file = std::fs::File::create(&spill.path)?;
        let copied = std::io::copy(&mut std::io::Read::take(reader, len + 1), &mut file)?;
        if copied != len {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("unpacks to {copied} bytes, not the {len} it declares"),
            ));
        }
        Ok(BundledFile {
            path,
            data: Vec::new(),
            elsewhere: Some(Elsewhere::Spill(std::sync::Arc::new(spill))),
        })
    }

    /// Its size in bytes.
    pub fn len(&self) -> u64 {
        match &self.elsewhere {
            Some(Elsewhere::Spill(s)) => s.len,
            Some(Elsewhere::Parts(p)) => p.iter().map(|b| b.len() as u64).sum(),
            None => self.data.len() as u64,
        }
    }

    /// Whether it has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its bytes (read from the scratch file when spilled).
    pub fn bytes(&self) -> std::io::Result<std::borrow::Cow<'_, [u8]>> {
        match &self.elsewhere {
            Some(Elsewhere::Spill(s)) => std::fs::read(&s.path).map(std::borrow::Cow::Owned),
            Some(Elsewhere::Parts(p)) => match p.as_slice() {
                [one] => Ok(std::borrow::Cow::Borrowed(one)),
                parts => {
                    let mut all = Vec::with_capacity(self.len() as usize);
                    for p in parts {
                        all.extend_from_slice(p);
                    }
                    Ok(std::borrow::Cow::Owned(all))
                }
            },
            None => Ok(std::borrow::Cow::Borrowed(&self.data)),
        }
    }

    /// Writes it to `dest`, a spilled file by copying on disk.
    pub fn write_to(&self, dest: &std::path::Path) -> std::io::Result<()> {
        match &self.elsewhere {
            Some(Elsewhere::Spill(s)) => std::fs::copy(&s.path, dest).map(|_| ()),
            Some(Elsewhere::Parts(p)) => {
                let mut out = std::io::BufWriter::new(std::fs::File::create(dest)?);
                for part in p {
                    std::io::Write::write_all(&mut out, part)?;
                }
                std::io::Write::flush(&mut out)
            }
            None => std::fs::write(dest, &self.data),
        }
    }
}

/// A whole map, the truth that export is a pure function of.
#[derive(Clone, Debug)]
pub struct Map {
    pub size: MapSize,
    pub heights: HeightGrid,
    pub metal: MetalMap,
    pub types: TypeMap,
    pub grass: GrassMap,
    pub texture: GroundTexture,
    pub features: Vec<Feature>,
    pub teams: Vec<Team>,
    /// The lobby's start boxes, one arrangement per team count (`map.toml`'s
    /// `[[start_boxes]]`; BAR reads them from maps-metadata, so they are not compiled).
    pub start_boxes: Vec<start_boxes::StartBoxSet>,
    pub settings: MapSettings,
    /// Other files packed into the archive unchanged, sorted by path.
    pub bundled_files: Vec<BundledFile>,
    /// How the map repeats for its teams; every editing tool follows it (`map.toml` only,
    /// the engine never sees it).
    pub symmetry: SymmetryMode,
    /// The mapmaker's own water looks, kept in `map.toml` beside the built-in ones (the engine
    /// never sees them).
    pub water_presets: Vec<water::WaterPreset>,
    /// Material layers over `texture` (the bottom layer, "Original"), bottom first; empty
    /// when the picture is the whole ground texture. Compiling bakes them in.
    pub texture_layers: Vec<ground_layers::TextureLayer>,
    /// Ambient occlusion baked over the stack at compile; `None` (the default) bakes no light.
    pub texture_ao: Option<ground_layers::AmbientOcclusion>,
    /// The generator recipe the map was made from (`[generator]` in `map.toml`), kept so it
    /// can be run again with other settings.
    pub generator: Option<recipe::Recipe>,
}

/// A layer handed to [`Map`] whose size does not match the map.
#[derive(Debug, thiserror::Error)]
#[error("{layer} is {got_w}x{got_h}, but a {units_w}x{units_h} map needs {want_w}x{want_h}")]
pub struct LayerSizeError {
    pub layer: &'static str,
    pub got_w: usize,
    pub got_h: usize,
    pub want_w: usize,
    pub want_h: usize,
    pub units_w: u32,
    pub units_h: u32,
}

impl Map {
    /// A flat map at height 0 (or just above the water when the height range allows), no metal,
    /// no grass, type 0 everywhere and a plain default texture.
    pub fn new(size: MapSize, settings: MapSettings) -> Map {
        let (hw, hh) = size.height_vertices();
        let (mw, mh) = size.metal_cells();
        let (gw, gh) = size.grass_cells();
        let flat = 0.0f32.clamp(settings.min_height_elmos, settings.max_height_elmos);
        let heights = Grid::filled(hw, hh, flat);
        let texture = GroundTexture::default_for_heights(size, &heights, &settings);
        Map {
            size,
            heights,
            metal: Grid::filled(mw, mh, 0),
            types: Grid::filled(mw, mh, 0),
            grass: Grid::filled(gw, gh, 0),
            texture,
            features: Vec::new(),
            teams: Vec::new(),
            start_boxes: Vec::new(),
            settings,
            bundled_files: Vec::new(),
            symmetry: SymmetryMode::None,
            water_presets: Vec::new(),
            texture_layers: Vec::new(),
            texture_ao: None,
            generator: None,
        }
    }

    /// Checks that every layer has the size this map's [`MapSize`] needs.
    pub fn check_layers(&self) -> Result<(), LayerSizeError> {
        let s = self.size;
        let check = |layer, got: (usize, usize), want: (usize, usize)| {
            if got == want {
                Ok(())
            } else {
                Err(LayerSizeError {
                    layer,
                    got_w: got.0,
                    got_h: got.1,
                    want_w: want.0,
                    want_h: want.1,
                    units_w: s.width_units(),
                    units_h: s.height_units(),
                })
            }
        };
        check("heights", self.heights.dims(), s.height_vertices())?;
        check("metal", self.metal.dims(), s.metal_cells())?;
        check("types", self.types.dims(), s.metal_cells())?;
        check("grass", self.grass.dims(), s.grass_cells())?;
        check(
            "texture",
            (self.texture.width(), self.texture.height()),
            s.texture_texels(),
        )
    }

    /// The height word (0..=65535) the engine stores for `height_elmos` with this map's range.
    pub fn height_word(&self, height_elmos: f32) -> u16 {
        height_to_word(
            height_elmos,
            self.settings.min_height_elmos,
            self.settings.max_height_elmos,
        )
    }

    /// Every height as the engine's 16-bit word.
    pub fn height_words(&self) -> Vec<u16> {
        let (lo, hi) = (
            self.settings.min_height_elmos,
            self.settings.max_height_elmos,
        );
        self.heights
            .data()
            .iter()
            .map(|&h| height_to_word(h, lo, hi))
            .collect()
    }

    /// Replaces the heights with the engine's decoding of `words`.
    pub fn set_height_words(&mut self, words: &[u16]) {
        let (lo, hi) = (
            self.settings.min_height_elmos,
            self.settings.max_height_elmos,
        );
        for (h, &w) in self.heights.data_mut().iter_mut().zip(words) {
            *h = word_to_height(w, lo, hi);
        }
    }

    /// The ground height under (x, z) elmos, bilinear between vertices, clamped to the map.
    pub fn height_at(&self, x_elmos: f32, z_elmos: f32) -> f32 {
        let s = ELMOS_PER_SQUARE as f32;
        self.heights.sample_bilinear(x_elmos / s, z_elmos / s)
    }

    /// The metal an extractor sees in a cell: byte x `max_metal`.
    pub fn metal_amount(&self, x: usize, z: usize) -> f32 {
        self.metal.get(x, z) as f32 * self.settings.max_metal
    }
}

/// The engine's height encoding: `word = round((h - min) * 65536 / (max - min))`, clamped.
fn height_to_word(height_elmos: f32, min_elmos: f32, max_elmos: f32) -> u16 {
    let range = (max_elmos as f64 - min_elmos as f64).max(f64::MIN_POSITIVE);
    let w = ((height_elmos as f64 - min_elmos as f64) * HEIGHT_WORD_DIVISOR / range).round();
    w.clamp(0.0, 65535.0) as u16
}

/// The engine's height decoding, in the engine's own float order
/// (`min + word * ((max - min) / 65536)`, all f32).
pub fn word_to_height(word: u16, min_elmos: f32, max_elmos: f32) -> f32 {
    min_elmos + word as f32 * ((max_elmos - min_elmos) / HEIGHT_WORD_DIVISOR as f32)
}

/// A greyscale image (values 0..1, any size) as heights over `dims` vertices in the range
/// `min_elmos..max_elmos`: resampled bilinearly when its size differs, each value rounded to the
/// 16-bit word the map saves.
pub fn heights_from_unit_image(
    image: &Grid<f32>,
    dims: (usize, usize),
    min_elmos: f32,
    max_elmos: f32,
) -> Grid<f32> {
    let (w, h) = dims;
    let (iw, ih) = image.dims();
    let sx = (iw as f32 - 1.0) / (w as f32 - 1.0).max(1.0);
    let sz = (ih as f32 - 1.0) / (h as f32 - 1.0).max(1.0);
    let mut heights = Vec::with_capacity(w * h);
    for z in 0..h {
        for x in 0..w {
            let v = if (iw, ih) == (w, h) {
                image.get(x, z)
            } else {
                image.sample_bilinear(x as f32 * sx, z as f32 * sz)
            };
            let word = (v.clamp(0.0, 1.0) * 65535.0).round() as u16;
            heights.push(word_to_height(word, min_elmos, max_elmos));
        }
    }
    Grid::from_vec(w, h, heights).expect("sized")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn height_words_round_trip_exactly() {
        for (lo, hi) in [(-100.0f32, 400.0f32), (-50.0, 250.0), (-340.0, 760.0)] {
            for w in (0..=65535u32).step_by(7).chain([65535]) {
                let h = word_to_height(w as u16, lo, hi);
                assert_eq!(height_to_word(h, lo, hi), w as u16, "{lo}..{hi} word {w}");
            }
        }
    }

    #[test]
    fn engine_divisor_is_65536() {
        // The engine fact: min -50, max 250, word 49151 gives 174.995422.
        let h = word_to_height(49151, -50.0, 250.0);
        assert!((h - 174.995_42).abs() < 1e-4, "{h}");
    }

    #[test]
    fn new_map_layers_have_engine_resolution() {
        let size = MapSize::new(4, 2).unwrap();
        let map = Map::new(size, MapSettings::default());
        map.check_layers().unwrap();
        assert_eq!(map.heights.dims(), (257, 129));
        assert_eq!(map.metal.dims(), (128, 64));
        assert_eq!(map.grass.dims(), (64, 32));
        assert_eq!((map.texture.width(), map.texture.height()), (2048, 1024));
    }
}
