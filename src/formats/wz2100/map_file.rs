//! `game.map`: the tile grid (texture field and height per tile corner) and the gateways.
//! Versions 10..=39 store heights as a byte (world height = byte x 2); version 40 as a u16.
//! Old editors left bytes after the gateways; they are counted and ignored.

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;

/// World units per tile, and the unit heights are measured in.
pub const WORLD_UNITS_PER_TILE: u32 = 128;
/// The largest side Warzone 2100 itself accepts (`MAP_MAXWIDTH`).
const MAX_SIDE_TILES: u32 = 256;
/// Height byte to world units for versions up to 39 (`ELEVATION_SCALE`).
const ELEVATION_SCALE: u16 = 2;
/// The highest tile height the game accepts in version 40 (`TILE_MAX_HEIGHT`).
const TILE_MAX_HEIGHT: u16 = 255 * 64;

/// One tile: its packed texture field and the height of its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapTile {
    /// Tile number (bits 0-8), triangle flip (0x0800: which diagonal the game's renderer splits
    /// the tile on; not needed here), rotation (0x3000), y flip (0x4000), x flip (0x8000).
    pub texture: u16,
    /// World units (128 per tile).
    pub height: u16,
}

impl MapTile {
    /// The tile number in the tileset (`texture & 0x01FF`).
    pub fn tile_number(self) -> u16 {
        self.texture & 0x01FF
    }
    pub fn x_flip(self) -> bool {
        self.texture & 0x8000 != 0
    }
    pub fn y_flip(self) -> bool {
        self.texture & 0x4000 != 0
    }
    /// Clockwise quarter turns, 0..=3.
    pub fn rotation(self) -> u8 {
        ((self.texture & 0x3000) >> 12) as u8
    }
}

/// A gateway: a line of tiles the game's pathfinder uses as a zone boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gateway {
    pub x1: u8,
    pub y1: u8,
    pub x2: u8,
    pub y2: u8,
}

/// A parsed `game.map`.
#[derive(Clone, Debug)]
pub struct GameMap {
    pub version: u32,
    pub width: u32,
    pub height: u32,
    /// Row-major, `width * height`, y pointing south.
    pub tiles: Vec<MapTile>,
    pub gateways: Vec<Gateway>,
    /// Bytes after the gateways (old maps carry editor leftovers).
    pub trailing_bytes: usize,
}

impl GameMap {
    pub fn tile(&self, x: u32, y: u32) -> MapTile {
        self.tiles[(y * self.width + x) as usize]
    }

    /// Height of grid vertex (x, y), 0 <= x <= width, 0 <= y <= height, in world units. The game
    /// draws and plays the outermost ring of vertices at height 0 whatever the file says.
    pub fn vertex_height(&self, x: u32, y: u32) -> u16 {
        if x == 0 || y == 0 || x >= self.width || y >= self.height {
            0
        } else {
            self.tile(x, y).height
        }
    }
}

/// Reads the header only: (version, width, height). Enough for listing maps.
pub fn read_header(bytes: &[u8]) -> Result<(u32, u32, u32), FormatError> {
    let what = "game.map";
    if bytes.len() < 16 {
        return Err(FormatError::invalid(
            what,
            format!("{} bytes, too short for a header", bytes.len()),
        ));
    }
    let mut r = ByteReader::new(bytes, what);
    let magic = r.take(4, "magic")?;
    if &magic[0..3] != b"map" {
        return Err(FormatError::invalid(
            what,
            format!(
                "wrong magic {:?} (expected \"map \")",
                String::from_utf8_lossy(magic)
            ),
        ));
    }
    let version = r.u32("version")?;
    let width = r.u32("width")?;
    let height = r.u32("height")?;
    if version <= 9 {
        return Err(FormatError::invalid(
            what,
            format!("version {version} is too old (the game reads 10 and later)"),
        ));
    }
    if version > 40 {
        return Err(FormatError::invalid(
            what,
            format!("version {version} is newer than we know (up to 40)"),
        ));
    }
    if width < 2 || height < 2 || width > MAX_SIDE_TILES || height > MAX_SIDE_TILES {
        return Err(FormatError::invalid(
            what,
            format!("size {width}x{height} tiles is not valid (2..={MAX_SIDE_TILES} each side)"),
        ));
    }
    Ok((version, width, height))
}

/// The header's length in bytes.
const HEADER_BYTES: usize = 16;

/// Parses a whole `game.map`.
pub fn parse(bytes: &[u8]) -> Result<GameMap, FormatError> {
    let what = "game.map";
    let (version, width, height) = read_header(bytes)?;
    let count = (width * height) as usize;
    let tile_bytes = if version >= 40 { 4 } else { 3 };
    // the whole tile grid and the gateway header, checked at once for a message that says so
    let need = HEADER_BYTES + count * tile_bytes + 8;
    if bytes.len() < need {
        return Err(FormatError::invalid(
            what,
            format!(
                "truncated: {width}x{height} tiles of version {version} need {need} bytes, the file has {}",
                bytes.len()
            ),
        ));
    }
    let mut r = ByteReader::at(bytes, HEADER_BYTES, what, "tiles")?;
    let mut tiles = Vec::with_capacity(count);
    for _ in 0..count {
        let texture = r.u16("tile texture")?;
        let height = if version >= 40 {
            let h = r.u16("tile height")?;
            if h > TILE_MAX_HEIGHT {
                return Err(FormatError::invalid(
                    what,
                    format!("tile height {h} exceeds the game's limit {TILE_MAX_HEIGHT}"),
                ));
            }
            h
        } else {
            r.u8("tile height")? as u16 * ELEVATION_SCALE
        };
        tiles.push(MapTile { texture, height });
    }
    let gw_version = r.u32("gateway version")?;
    if gw_version != 1 {
        return Err(FormatError::invalid(
            what,
            format!("gateway section version {gw_version} (expected 1)"),
        ));
    }
    let gw_count = r.u32("gateway count")? as usize;
    if gw_count > r.remaining() / 4 {
        return Err(FormatError::invalid(
            what,
            format!(
                "truncated: {gw_count} gateways need {} bytes, {} are left",
                gw_count.saturating_mul(4),
                r.remaining()
            ),
        ));
    }
    let gateways = (0..gw_count)
        .map(|_| {
            let b = r.take(4, "gateway")?;
            Ok(Gateway {
                x1: b[0],
                y1: b[1],
                x2: b[2],
                y2: b[3],
            })
        })
        .collect::<Result<_, FormatError>>()?;
    Ok(GameMap {
        version,
        width,
        height,
        tiles,
        gateways,
        trailing_bytes: r.remaining(),
    })
}

/// Writes a `game.map` (for tests and tools): version 40 writes u16 heights, older byte heights.
pub fn write(map: &GameMap) -> Vec<u8> {
    let mut out = b"map ".to_vec();
    out.extend_from_slice(&map.version.to_le_bytes());
    out.extend_from_slice(&map.width.to_le_bytes());
    out.extend_from_slice(&map.height.to_le_bytes());
    for t in &map.tiles {
        out.extend_from_slice(&t.texture.to_le_bytes());
        if map.version >= 40 {
            out.extend_from_slice(&t.height.to_le_bytes());
        } else {
            out.push((t.height / ELEVATION_SCALE).min(255) as u8);
        }
    }
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(map.gateways.len() as u32).to_le_bytes());
    for g in &map.gateways {
        out.extend_from_slice(&[g.x1, g.y1, g.x2, g.y2]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(version: u32) -> GameMap {
        let (w, h) = (3, 2);
        GameMap {
            version,
            width: w,
            height: h,
            tiles: (0..w * h)
                .map(|i| MapTile {
                    texture: (i as u16) | 0x9000,
                    height: if version >= 40 {
                        1000 + i as u16
                    } else {
                        2 * i as u16
                    },
                })
                .collect(),
            gateways: vec![Gateway {
                x1: 1,
                y1: 0,
                x2: 1,
                y2: 1,
            }],
            trailing_bytes: 0,
        }
    }

    #[test]
    fn both_height_encodings_round_trip() {
        for v in [10, 39, 40] {
            let m = sample(v);
            let mut bytes = write(&m);
            bytes.extend_from_slice(&[7; 13]); // old-editor leftovers
            let back = parse(&bytes).unwrap();
            assert_eq!(back.tiles, m.tiles, "version {v}");
            assert_eq!(back.gateways, m.gateways);
            assert_eq!(back.trailing_bytes, 13);
        }
    }

    #[test]
    fn texture_bits_decode() {
        let t = MapTile {
            texture: 0x8000 | 0x4000 | 0x2000 | 0x0800 | 0x01FF,
            height: 0,
        };
        assert_eq!(t.tile_number(), 511);
        assert!(t.x_flip() && t.y_flip());
        assert_eq!(t.rotation(), 2);
    }

    #[test]
    fn edge_vertices_are_zero() {
        let m = sample(40);
        assert_eq!(m.vertex_height(0, 1), 0);
        assert_eq!(m.vertex_height(1, 1), 1004);
        assert_eq!(m.vertex_height(3, 1), 0);
        assert_eq!(m.vertex_height(1, 2), 0);
    }

    #[test]
    fn bad_input_gives_clear_errors() {
        let good = write(&sample(10));
        let err = |b: &[u8]| parse(b).unwrap_err().to_string();
        assert!(err(&good[..good.len() - 6]).contains("truncated"));
        assert!(err(&good[..40]).contains("truncated"));
        assert!(err(&good[..10]).contains("too short"));
        let mut wrong = good.clone();
        wrong[0..4].copy_from_slice(b"MAP\0");
        assert!(err(&wrong).contains("wrong magic"));
        let mut absurd = good.clone();
        absurd[8..12].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
        assert!(err(&absurd).contains("not valid"));
        let mut old = good.clone();
        old[4..8].copy_from_slice(&9u32.to_le_bytes());
        assert!(err(&old).contains("too old"));
        let mut many_gw = good;
        let off = 16 + 6 * 3 + 4;
        many_gw[off..off + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(err(&many_gw).contains("gateways"));
    }
}
