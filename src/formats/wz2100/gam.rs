//! The map's `.gam` (binary, beside the map folder) or `gam.json` (inside it): game type and the
//! scroll limits, the part of the map the camera may show.

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;

/// What the importer uses from a `.gam`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamInfo {
    pub version: u32,
    pub scroll_min_x: i32,
    pub scroll_min_y: i32,
    pub scroll_max_x: u32,
    pub scroll_max_y: u32,
}

impl GamInfo {
    /// The scroll limits as a tile rectangle (x0, y0, x1, y1); zero maxima mean "the whole map".
    pub fn scroll_rect(&self, width: u32, height: u32) -> (u32, u32, u32, u32) {
        let x1 = if self.scroll_max_x == 0 {
            width
        } else {
            self.scroll_max_x.min(width)
        };
        let y1 = if self.scroll_max_y == 0 {
            height
        } else {
            self.scroll_max_y.min(height)
        };
        (
            self.scroll_min_x.clamp(0, x1 as i32) as u32,
            self.scroll_min_y.clamp(0, y1 as i32) as u32,
            x1,
            y1,
        )
    }
}

/// Parses the binary `.gam`: `"game"`, version (little-endian up to 34, big-endian from 35),
/// game time, game type, then the four scroll limits.
pub fn parse_binary(bytes: &[u8]) -> Result<GamInfo, FormatError> {
    let what = ".gam";
    if bytes.len() < 32 {
        return Err(FormatError::invalid(
            what,
            format!("{} bytes, too short (32 needed)", bytes.len()),
        ));
    }
    let mut r = ByteReader::new(bytes, what);
    let magic = r.take(4, "magic")?;
    if magic != b"game" {
        return Err(FormatError::invalid(
            what,
            format!(
                "wrong magic {:?} (expected \"game\")",
                String::from_utf8_lossy(magic)
            ),
        ));
    }
    let mut version = r.u32("version")?;
    let big_endian = version > 34;
    if big_endian {
        version = version.swap_bytes();
    }
    r.skip(8, "game time and game type")?;
    let mut word = |field: &str| {
        r.u32(field)
            .map(|v| if big_endian { v.swap_bytes() } else { v })
    };
    Ok(GamInfo {
        version,
        scroll_min_x: word("scroll min x")? as i32,
        scroll_min_y: word("scroll min y")? as i32,
        scroll_max_x: word("scroll max x")?,
        scroll_max_y: word("scroll max y")?,
    })
}

/// Parses `gam.json` (newer maps).
pub fn parse_json(bytes: &[u8]) -> Result<GamInfo, FormatError> {
    let what = "gam.json";
    let v: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| FormatError::invalid(what, format!("not valid JSON: {e}")))?;
    let num = |k: &str| v.get(k).and_then(|x| x.as_i64()).unwrap_or(0);
    Ok(GamInfo {
        version: num("version").clamp(0, u32::MAX as i64) as u32,
        scroll_min_x: num("ScrollMinX").clamp(0, i32::MAX as i64) as i32,
        scroll_min_y: num("ScrollMinY").clamp(0, i32::MAX as i64) as i32,
        scroll_max_x: num("ScrollMaxX").clamp(0, u32::MAX as i64) as u32,
        scroll_max_y: num("ScrollMaxY").clamp(0, u32::MAX as i64) as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gam(version: u32, max: (u32, u32), big: bool) -> Vec<u8> {
        let f = |v: u32| {
            if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        };
        let mut b = b"game".to_vec();
        for v in [version, 0, 0, 0, 0, max.0, max.1] {
            b.extend_from_slice(&f(v));
        }
        b.extend_from_slice(&[0; 20]);
        b
    }

    #[test]
    fn reads_both_byte_orders() {
        let g = parse_binary(&gam(8, (92, 92), false)).unwrap();
        assert_eq!((g.version, g.scroll_max_x, g.scroll_max_y), (8, 92, 92));
        let g = parse_binary(&gam(36, (64, 128), true)).unwrap();
        assert_eq!((g.version, g.scroll_max_x, g.scroll_max_y), (36, 64, 128));
        assert_eq!(g.scroll_rect(64, 128), (0, 0, 64, 128));
        let zero = parse_binary(&gam(8, (0, 0), false)).unwrap();
        assert_eq!(zero.scroll_rect(95, 95), (0, 0, 95, 95));
    }

    #[test]
    fn bad_gam() {
        assert!(parse_binary(b"game").is_err());
        let mut g = gam(8, (1, 1), false);
        g[0] = b'G';
        assert!(parse_binary(&g).unwrap_err().to_string().contains("magic"));
        assert!(parse_json(b"{oops").is_err());
        let j = parse_json(br#"{"version":7,"ScrollMaxX":10,"ScrollMaxY":12}"#).unwrap();
        assert_eq!((j.scroll_max_x, j.scroll_max_y), (10, 12));
    }
}
