//! The `MapInfo` file (map size in cells, the playable bounds, tileset) and the map's name and
//! description from `GameStrings.txt`.
//!
//! `MapInfo` is `"IpaM"`, a u32 version, 8 more bytes when the version is above 0x17, then u32
//! width and height in cells. After that come two preview records (u32 type, a path string when
//! the type is 2), from version 0x1f a string, from version 0x26 another string, from version
//! 0x1f two u32s, then the fog and tileset strings and four u32: left, bottom, right, top. Only
//! version 39 files have been seen, so the bounds are checked for sense; when they make none, the
//! tileset name from `t3Terrain.xml` is searched for and the four numbers after it tried, and
//! failing that the whole map is taken as playable and the report says so.

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;

const WHAT: &str = "SC2Map MapInfo";

/// The playable rectangle in cells, SC2 world coordinates (Y points north, origin bottom-left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub left: u32,
    pub bottom: u32,
    pub right: u32,
    pub top: u32,
}

impl Bounds {
    pub fn width(&self) -> u32 {
        self.right - self.left
    }
    pub fn height(&self) -> u32 {
        self.top - self.bottom
    }
    /// Whether the point (SC2 world units) is inside.
    pub fn contains(&self, x: f32, y: f32) -> bool {
        x >= self.left as f32
            && x <= self.right as f32
            && y >= self.bottom as f32
            && y <= self.top as f32
    }
}

/// What `MapInfo` says.
#[derive(Clone, Debug, PartialEq)]
pub struct MapInfo {
    pub version: u32,
    pub width_cells: u32,
    pub height_cells: u32,
    /// `None` when the bounds could not be read with confidence.
    pub bounds: Option<Bounds>,
    pub tileset: String,
    pub fog: String,
}

/// The largest map side SC2 allows, in cells.
const MAX_SC2_CELLS: u32 = 256;

/// The longest string `MapInfo` holds that we read (names of tilesets and fog settings).
const MAX_STRING_BYTES: usize = 4096;

fn sane(b: Bounds, w: u32, h: u32) -> bool {
    b.left < b.right && b.bottom < b.top && b.right <= w && b.top <= h
}

/// Parses `MapInfo`; `tileset_hint` (from `t3Terrain.xml`) helps when the layout is unexpected.
pub fn parse(bytes: &[u8], tileset_hint: Option<&str>) -> Result<MapInfo, FormatError> {
    let bad = |d: &str| FormatError::invalid(WHAT, d.to_string());
    if bytes.len() < 16 || &bytes[0..4] != b"IpaM" {
        return Err(bad("no `IpaM` signature"));
    }
    let mut c = ByteReader::at(bytes, 4, WHAT, "version")?;
    let version = c
        .u32("a MapInfo field")
        .ok()
        .ok_or_else(|| bad("truncated"))?;
    if version > 0x17 {
        c.take(8, "the MapInfo header")
            .ok()
            .ok_or_else(|| bad("truncated"))?;
    }
    let w = c
        .u32("a MapInfo field")
        .ok()
        .ok_or_else(|| bad("truncated before the map size"))?;
    let h = c
        .u32("a MapInfo field")
        .ok()
        .ok_or_else(|| bad("truncated before the map size"))?;
    if w == 0 || h == 0 || w > MAX_SC2_CELLS || h > MAX_SC2_CELLS {
        return Err(FormatError::invalid(
            WHAT,
            format!(
                "map size {w} x {h} cells is not a StarCraft II map size (1..={MAX_SC2_CELLS})"
            ),
        ));
    }
    let mut info = MapInfo {
        version,
        width_cells: w,
        height_cells: h,
        bounds: None,
        tileset: String::new(),
        fog: String::new(),
    };
    let tail = |c: &mut ByteReader| -> Option<(String, String, Bounds)> {
        for _ in 0..2 {
            if c.u32("a MapInfo field").ok()? == 2 {
                c.c_string(MAX_STRING_BYTES, "a MapInfo string").ok()?;
            }
        }
        if version >= 0x1f {
            c.c_string(MAX_STRING_BYTES, "a MapInfo string").ok()?;
        }
        if version >= 0x26 {
            c.c_string(MAX_STRING_BYTES, "a MapInfo string").ok()?;
        }
        if version >= 0x1f {
            c.u32("a MapInfo field").ok()?;
            c.u32("a MapInfo field").ok()?;
        }
        let fog = c.c_string(MAX_STRING_BYTES, "a MapInfo string").ok()?;
        let tileset = c.c_string(MAX_STRING_BYTES, "a MapInfo string").ok()?;
        let b = Bounds {
            left: c.u32("a MapInfo field").ok()?,
            bottom: c.u32("a MapInfo field").ok()?,
            right: c.u32("a MapInfo field").ok()?,
            top: c.u32("a MapInfo field").ok()?,
        };
        Some((fog, tileset, b))
    };
    if let Some((fog, tileset, b)) = tail(&mut c)
        && sane(b, w, h)
    {
        info.fog = fog;
        info.tileset = tileset;
        info.bounds = Some(b);
        return Ok(info);
    }
    // The layout was not what we expected: find the tileset name and try the numbers after it.
    if let Some(ts) = tileset_hint.filter(|t| !t.is_empty()) {
        let needle: Vec<u8> = ts.bytes().chain([0]).collect();
        if let Some(p) = bytes.windows(needle.len()).position(|win| win == needle) {
            let mut c = ByteReader::at(bytes, p + needle.len(), WHAT, "the bounds")?;
            if let (Some(left), Some(bottom), Some(right), Some(top)) = (
                c.u32("a MapInfo field").ok(),
                c.u32("a MapInfo field").ok(),
                c.u32("a MapInfo field").ok(),
                c.u32("a MapInfo field").ok(),
            ) {
                let b = Bounds {
                    left,
                    bottom,
                    right,
                    top,
                };
                info.tileset = ts.to_string();
                if sane(b, w, h) {
                    info.bounds = Some(b);
                }
            }
        }
    }
    Ok(info)
}

/// The map's name and descriptions from a `GameStrings.txt` (`key=value` lines).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameStrings {
    pub name: Option<String>,
    pub description: Option<String>,
    pub short_description: Option<String>,
}

pub fn parse_game_strings(bytes: &[u8]) -> GameStrings {
    let text = String::from_utf8_lossy(bytes);
    let mut g = GameStrings::default();
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}');
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let v = v.trim().to_string();
        if v.is_empty() {
            continue;
        }
        match k.trim() {
            "DocInfo/Name" => g.name = Some(v),
            "DocInfo/DescLong" => g.description = Some(v),
            "DocInfo/DescShort" => g.short_description = Some(v),
            _ => {}
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(bounds: [u32; 4]) -> Vec<u8> {
        let mut b = b"IpaM".to_vec();
        b.extend(39u32.to_le_bytes());
        b.extend([0u8; 8]);
        b.extend(88u32.to_le_bytes());
        b.extend(96u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend(2u32.to_le_bytes());
        b.extend(b"preview.tga\0");
        b.extend(b"\0\0");
        b.extend(1u32.to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(b"Dark\0ShakurasTemple\0");
        for v in bounds {
            b.extend(v.to_le_bytes());
        }
        b.extend([0u8; 40]);
        b
    }

    #[test]
    fn reads_size_bounds_and_tileset() {
        let i = parse(&sample([12, 12, 76, 76]), None).unwrap();
        assert_eq!((i.width_cells, i.height_cells), (88, 96));
        assert_eq!(i.tileset, "ShakurasTemple");
        assert_eq!(
            i.bounds,
            Some(Bounds {
                left: 12,
                bottom: 12,
                right: 76,
                top: 76
            })
        );
    }

    #[test]
    fn nonsense_bounds_are_not_trusted() {
        let i = parse(&sample([50, 12, 20, 76]), Some("ShakurasTemple")).unwrap();
        assert_eq!(i.bounds, None);
    }

    #[test]
    fn truncation_and_bad_sizes_are_errors_not_panics() {
        let s = sample([12, 12, 76, 76]);
        for n in 0..s.len() {
            let _ = parse(&s[..n], Some("ShakurasTemple"));
        }
        assert!(parse(&s[..10], None).is_err());
        let mut big = s.clone();
        big[16..20].copy_from_slice(&100_000u32.to_le_bytes());
        assert!(parse(&big, None).is_err());
    }

    #[test]
    fn game_strings_give_the_name() {
        let g = parse_game_strings(
            "\u{feff}DocInfo/DescLong=Long one\r\nDocInfo/Name=Simple Test Map\r\nX=y\r\n"
                .as_bytes(),
        );
        assert_eq!(g.name.as_deref(), Some("Simple Test Map"));
        assert_eq!(g.description.as_deref(), Some("Long one"));
    }
}
