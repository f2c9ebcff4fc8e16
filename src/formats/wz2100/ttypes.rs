//! `ttypes.ttp`: the terrain type (sand, water, cliff, ...) of every tile number in the tileset.

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;

/// Warzone 2100's terrain types (`TYPE_OF_TERRAIN`).
pub const TER_SAND: u8 = 0;
pub const TER_WATER: u8 = 7;
pub const TER_CLIFFFACE: u8 = 8;
/// How many terrain types the game knows (`TER_MAX`).
const TER_MAX: u8 = 12;
/// The most tile numbers a tileset can have (`MAX_TERRAIN_TILES`, the 9-bit tile field).
const MAX_TILE_TYPES: u32 = 512;

/// The terrain type names, indexed by type.
pub const TERRAIN_NAMES: [&str; TER_MAX as usize] = [
    "sand",
    "sandy brush",
    "baked earth",
    "green mud",
    "red brush",
    "pink rock",
    "road",
    "water",
    "cliff face",
    "rubble",
    "sheet ice",
    "slush",
];

/// A parsed `ttypes.ttp`.
#[derive(Clone, Debug, PartialEq)]
pub struct TileTypes {
    pub version: u32,
    /// Terrain type per tile number, as stored (may hold values >= [`TER_MAX`]).
    pub types: Vec<u16>,
}

impl TileTypes {
    /// The terrain type of a tile number; `None` when the file does not cover it or holds an
    /// unknown type.
    pub fn type_of(&self, tile_number: u16) -> Option<u8> {
        self.types
            .get(tile_number as usize)
            .and_then(|&t| (t < TER_MAX as u16).then_some(t as u8))
    }
}

pub fn parse(bytes: &[u8]) -> Result<TileTypes, FormatError> {
    let what = "ttypes.ttp";
    if bytes.len() < 12 {
        return Err(FormatError::invalid(
            what,
            format!("{} bytes, too short for a header", bytes.len()),
        ));
    }
    let mut r = ByteReader::new(bytes, what);
    let magic = r.take(4, "magic")?;
    if magic != b"ttyp" {
        return Err(FormatError::invalid(
            what,
            format!(
                "wrong magic {:?} (expected \"ttyp\")",
                String::from_utf8_lossy(magic)
            ),
        ));
    }
    let version = r.u32("version")?;
    let count = r.u32("type count")?;
    if count > MAX_TILE_TYPES {
        return Err(FormatError::invalid(
            what,
            format!("{count} tile types, more than the {MAX_TILE_TYPES} a tileset can have"),
        ));
    }
    let need = 12 + count as usize * 2;
    if bytes.len() < need {
        return Err(FormatError::invalid(
            what,
            format!(
                "truncated: {count} types need {need} bytes, the file has {}",
                bytes.len()
            ),
        ));
    }
    let types = (0..count)
        .map(|_| r.u16("tile type"))
        .collect::<Result<_, _>>()?;
    Ok(TileTypes { version, types })
}

/// Writes a `ttypes.ttp` (for tests and tools).
pub fn write(t: &TileTypes) -> Vec<u8> {
    let mut out = b"ttyp".to_vec();
    out.extend_from_slice(&t.version.to_le_bytes());
    out.extend_from_slice(&(t.types.len() as u32).to_le_bytes());
    for v in &t.types {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_lookup() {
        let t = TileTypes {
            version: 8,
            types: vec![0, 7, 8, 99],
        };
        let back = parse(&write(&t)).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.type_of(1), Some(TER_WATER));
        assert_eq!(back.type_of(3), None);
        assert_eq!(back.type_of(40), None);
    }

    #[test]
    fn bad_input() {
        let good = write(&TileTypes {
            version: 8,
            types: vec![1; 10],
        });
        assert!(
            parse(&good[..20])
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        assert!(parse(b"tty").unwrap_err().to_string().contains("too short"));
        let mut m = good.clone();
        m[0] = b'x';
        assert!(parse(&m).unwrap_err().to_string().contains("magic"));
        let mut big = good;
        big[8..12].copy_from_slice(&100_000u32.to_le_bytes());
        assert!(parse(&big).unwrap_err().to_string().contains("more than"));
    }
}
