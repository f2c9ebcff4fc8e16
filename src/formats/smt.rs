//! The `.smt` (Spring tile file): a 32-byte header, then 680-byte tiles, each a 32x32 DXT1
//! image with its 16, 8 and 4 texel mips.

use super::FormatError;
use super::bc1::decode_bc1;
use super::bytes::{ByteReader, PutLe};

const SMT_MAGIC: &[u8; 16] = b"spring tilefile\0";
pub const SMT_HEADER_BYTES: usize = 32;
/// Texels per tile side.
pub const TILE_TEXELS: usize = 32;
/// One tile with its mips: 512 + 128 + 32 + 8 bytes.
pub const SMT_TILE_BYTES: usize = 680;
/// Bytes of each mip of a tile, largest first.
pub const TILE_MIP_BYTES: [usize; 4] = [512, 128, 32, 8];

/// The 32-byte header for `num_tiles` DXT1 tiles.
pub fn smt_header(num_tiles: u32) -> Vec<u8> {
    let mut h = Vec::with_capacity(SMT_HEADER_BYTES);
    h.extend_from_slice(SMT_MAGIC);
    h.put_i32(1); // version
    h.put_i32(num_tiles as i32);
    h.put_i32(TILE_TEXELS as i32);
    h.put_i32(1); // compression: DXT1
    h
}

/// The tiles of a parsed `.smt`, borrowed from its bytes.
#[derive(Clone, Copy, Debug)]
pub struct SmtTiles<'a> {
    data: &'a [u8],
}

impl<'a> SmtTiles<'a> {
    pub fn len(&self) -> usize {
        self.data.len() / SMT_TILE_BYTES
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// The 680 bytes of tile `n`, or `None` past the end.
    pub fn tile(&self, n: usize) -> Option<&'a [u8]> {
        self.data.get(n * SMT_TILE_BYTES..(n + 1) * SMT_TILE_BYTES)
    }
    /// Tile `n`'s full-size level as 32x32 RGBA texels.
    pub fn decode_tile(&self, n: usize) -> Option<Vec<u8>> {
        self.tile(n)
            .map(|t| decode_bc1(&t[..TILE_MIP_BYTES[0]], TILE_TEXELS, TILE_TEXELS))
    }
}

/// Parses an `.smt`. The tile count that matters is the `.smf`'s (the engine reads that many
/// tiles and ignores the header's, which Spring's own `mapcompile` leaves at 0), so every whole
/// tile after the header is offered and the caller checks the count it needs.
pub fn read_smt<'a>(bytes: &'a [u8], what: &str) -> Result<SmtTiles<'a>, FormatError> {
    let mut r = ByteReader::new(bytes, what);
    let magic = r.take(16, "magic")?;
    if magic != SMT_MAGIC {
        return Err(FormatError::invalid(
            what,
            "not a Spring tile file: the magic is not \"spring tilefile\"",
        ));
    }
    let version = r.i32("version")?;
    let _header_count = r.i32("numTiles")?;
    let tile_size = r.i32("tileSize")?;
    let compression = r.i32("compressionType")?;
    if version != 1 || tile_size != 32 || compression != 1 {
        return Err(FormatError::invalid(
            what,
            format!(
                "version/tileSize/compression are {version}/{tile_size}/{compression}; the engine needs 1/32/1 (DXT1)"
            ),
        ));
    }
    let whole = r.remaining() / SMT_TILE_BYTES * SMT_TILE_BYTES;
    let data = r.take(whole, "tiles")?;
    Ok(SmtTiles { data })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_then_tiles_read_back() {
        let mut f = smt_header(2);
        f.extend(std::iter::repeat_n(0u8, 2 * SMT_TILE_BYTES));
        let t = read_smt(&f, "a.smt").unwrap();
        assert_eq!(t.len(), 2);
        assert!(t.tile(2).is_none());
        assert_eq!(t.decode_tile(1).unwrap().len(), 32 * 32 * 4);
        // a cut tile is not offered; the header's count is not trusted (mapcompile writes 0)
        assert_eq!(read_smt(&f[..f.len() - 1], "a.smt").unwrap().len(), 1);
        let mut zero = f.clone();
        zero[20..24].copy_from_slice(&0i32.to_le_bytes());
        assert_eq!(read_smt(&zero, "a.smt").unwrap().len(), 2);
        assert!(read_smt(&f[..20], "a.smt").is_err());
        let mut bad = f.clone();
        bad[3] = b'X';
        assert!(read_smt(&bad, "a.smt").is_err());
    }
}
