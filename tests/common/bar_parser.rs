//! BAR's own map reader as a referee: `tests/referee/map_parser.js` runs spring-map-parser
//! (npm; `$SPRING_MAP_PARSER_DIR` names the `node_modules` folder it is installed in) on an
//! archive, as BAR's lobby and the maps-metadata service do to draw a map's preview, and the
//! pictures it read are compared with ours, decoded from the same archive by our readers.

use std::path::{Path, PathBuf};
use std::process::Command;

use groundwork::formats::archive::ArchiveContents;
use groundwork::formats::bc1::decode_bc1;
use groundwork::formats::smf::read_smf;
use groundwork::formats::smt::{SMT_TILE_BYTES, read_smt};

/// The folder holding `spring-map-parser`, when it and node are there.
pub fn installed() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("SPRING_MAP_PARSER_DIR")?);
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    (node && dir.join("spring-map-parser/package.json").is_file()).then_some(dir)
}

/// Whether the parser can run; says why a test skips (fails, in CI) when it cannot.
pub fn installed_or_skip() -> bool {
    let found = installed().is_some();
    if !found {
        groundwork::test_support::skip(
            "BAR's map parser not found (npm install --prefix DIR spring-map-parser, then SPRING_MAP_PARSER_DIR=DIR/node_modules)",
        );
    }
    found
}

/// What the parser read: its summary and its pictures (raw RGBA files).
pub struct Parsed {
    pub summary: serde_json::Value,
    dir: tempfile::TempDir,
}

impl Parsed {
    /// A picture by name (`texture`, `texture_wet`, `height`, `metal`, `type`, `minimap`): its
    /// RGBA bytes and size.
    pub fn picture(&self, name: &str) -> Option<(Vec<u8>, usize, usize)> {
        let size = &self.summary["pictures"][name];
        let (w, h) = (size[0].as_u64()? as usize, size[1].as_u64()? as usize);
        let bytes = std::fs::read(self.dir.path().join(format!("{name}.rgba"))).ok()?;
        (bytes.len() == w * h * 4).then_some((bytes, w, h))
    }
}

/// Runs the parser on `archive`; its error output when it fails.
pub fn parse(archive: &Path) -> Result<Parsed, String> {
    let modules = installed().ok_or("BAR's map parser is not installed")?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/referee/map_parser.js");
    let out = Command::new("node")
        .arg(script)
        .arg(archive)
        .arg(dir.path())
        .env("SPRING_MAP_PARSER_DIR", modules)
        // its scratch folder, made and removed by the parser
        .env("TMPDIR", dir.path())
        .output()
        .map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let summary = std::fs::read(dir.path().join("summary.json")).map_err(|e| e.to_string())?;
    let summary = serde_json::from_slice(&summary).map_err(|e| e.to_string())?;
    Ok(Parsed { summary, dir })
}

/// Peak signal to noise of `b` against `a` over the RGB channels, in dB (infinite when equal).
pub fn psnr_rgb(a: &[u8], b: &[u8]) -> f64 {
    assert_eq!(a.len(), b.len(), "pictures of different sizes");
    let (mut sum, mut n) = (0f64, 0u64);
    for (pa, pb) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for c in 0..3 {
            let d = pa[c] as f64 - pb[c] as f64;
            sum += d * d;
            n += 1;
        }
    }
    let mse = sum / n.max(1) as f64;
    if mse == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (255.0f64 * 255.0 / mse).log10()
    }
}

/// A DXT1 image decoded by the parser's rule, not the spec's: 5 and 6 bit colours widened by
/// a shift alone (no low bits repeated), thirds and halves rounded down, the fourth colour of
/// a three-colour block transparent black. With it, every texel of ours must equal the
/// parser's: any tile read from the wrong place or file shows.
pub fn decode_dxt1_as_bar(blocks: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut out = vec![0u8; width * height * 4];
    let bw = width / 4;
    for (i, b) in blocks.chunks_exact(8).take(bw * (height / 4)).enumerate() {
        let c0 = u16::from_le_bytes([b[0], b[1]]) as u32;
        let c1 = u16::from_le_bytes([b[2], b[3]]) as u32;
        let rgb = |c: u32| [(c & 0xF800) >> 8, (c & 0x07E0) >> 3, (c & 0x1F) << 3];
        let (p0, p1) = (rgb(c0), rgb(c1));
        let mix = |w0: u32, w1: u32, d: u32| -> [u32; 3] {
            std::array::from_fn(|k| (p0[k] * w0 + p1[k] * w1) / d)
        };
        let palette: [[u32; 4]; 4] = if c0 > c1 {
            let (a, b) = (mix(2, 1, 3), mix(1, 2, 3));
            [
                [p0[0], p0[1], p0[2], 255],
                [p1[0], p1[1], p1[2], 255],
                [a[0], a[1], a[2], 255],
                [b[0], b[1], b[2], 255],
            ]
        } else {
            let h = mix(1, 1, 2);
            [
                [p0[0], p0[1], p0[2], 255],
                [p1[0], p1[1], p1[2], 255],
                [h[0], h[1], h[2], 255],
                [0, 0, 0, 0],
            ]
        };
        let bits = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        let (bx, by) = (i % bw * 4, i / bw * 4);
        for t in 0..16 {
            let c = palette[((bits >> (2 * t)) & 3) as usize];
            let at = ((by + t / 4) * width + bx + t % 4) * 4;
            for k in 0..4 {
                out[at + k] = c[k] as u8;
            }
        }
    }
    out
}

/// Grey RGBA from bytes.
fn grey(values: impl Iterator<Item = u8>) -> Vec<u8> {
    values.flat_map(|v| [v, v, v, 255]).collect()
}

/// Our pictures of `archive`, as the parser draws them: the texture from each tile's 4x4
/// mip (4 px a tile), the height map as `word * 255 / 65536` grey, the metal and type bytes
/// grey, the minimap's top level decoded.
pub fn ours(archive: &Path) -> Vec<(&'static str, Vec<u8>, usize, usize)> {
    let contents = ArchiveContents::read(archive).expect("our reader reads the archive");
    let smf_file = contents
        .files()
        .iter()
        .find(|f| f.path.to_ascii_lowercase().ends_with(".smf"))
        .expect("an .smf");
    let smf_bytes = smf_file.bytes().unwrap();
    let smf = read_smf(&smf_bytes, &smf_file.path).expect("our .smf reader");
    let (mx, my) = (smf.mapx as usize, smf.mapy as usize);
    let mut out = Vec::new();
    // the texture: tile by tile, the 4x4 mip, as the parser reads the first .smt
    let smt_name = format!("maps/{}", smf.tile_files[0].name);
    let smt_file = contents.find(&smt_name).expect("the .smt the .smf names");
    let smt_bytes = smt_file.bytes().unwrap();
    let smt = read_smt(&smt_bytes, &smt_name).expect("our .smt reader");
    let (tx, ty) = (mx / 4, my / 4);
    let texture = |decode: fn(&[u8], usize, usize) -> Vec<u8>| {
        let mut texture = vec![0u8; tx * 4 * ty * 4 * 4];
        for (i, &n) in smf.tile_index.iter().enumerate() {
            let tile = smt.tile(n as usize).expect("every tile index in the file");
            let px = decode(&tile[SMT_TILE_BYTES - 8..], 4, 4);
            let (x0, y0) = (i % tx * 4, i / tx * 4);
            for y in 0..4 {
                let at = ((y0 + y) * tx * 4 + x0) * 4;
                texture[at..at + 16].copy_from_slice(&px[y * 16..y * 16 + 16]);
            }
        }
        texture
    };
    out.push(("texture", texture(decode_bc1), tx * 4, ty * 4));
    out.push((
        "texture by BAR's decoding",
        texture(decode_dxt1_as_bar),
        tx * 4,
        ty * 4,
    ));
    let height = grey(
        smf.heights
            .iter()
            .map(|&w| (w as f64 * 255.0 / 65536.0) as u8),
    );
    out.push(("height", height, mx + 1, my + 1));
    out.push(("metal", grey(smf.metal.iter().copied()), mx / 2, my / 2));
    out.push(("type", grey(smf.types.iter().copied()), mx / 2, my / 2));
    let top = &smf.minimap[..1024 * 1024 / 2];
    out.push(("minimap", decode_bc1(top, 1024, 1024), 1024, 1024));
    out.push((
        "minimap by BAR's decoding",
        decode_dxt1_as_bar(top, 1024, 1024),
        1024,
        1024,
    ));
    out
}

/// The least PSNR each picture must reach against ours: the byte maps, and the DXT1 pictures
/// decoded by the parser's rule, exactly; decoded by the spec's, 30 dB (the parser widens
/// 5-bit colours by a shift alone, up to 7 levels darker: about 37-38 dB on real ground).
fn least_psnr_db(picture: &str) -> f64 {
    match picture {
        "texture" | "minimap" => 30.0,
        _ => f64::INFINITY,
    }
}

/// Runs BAR's parser on `archive` and checks that it reads it, as ours at the PSNR each
/// picture must reach; returns each picture's PSNR. Panics with the parser's words when it
/// cannot read the map.
pub fn check(archive: &Path) -> Vec<(&'static str, f64)> {
    let parsed = parse(archive)
        .unwrap_or_else(|e| panic!("BAR's map parser cannot read {}: {e}", archive.display()));
    let mut psnrs = Vec::new();
    for (name, ours, w, h) in ours(archive) {
        let file = name.trim_end_matches(" by BAR's decoding");
        let (theirs, tw, th) = parsed
            .picture(file)
            .unwrap_or_else(|| panic!("the parser drew no {name} picture"));
        assert_eq!((tw, th), (w, h), "{name}: the parser's size against ours");
        let db = psnr_rgb(&ours, &theirs);
        assert!(
            db >= least_psnr_db(name),
            "{}: BAR's parser reads the {name} picture at {db:.1} dB PSNR against ours (at least {} wanted)",
            archive.display(),
            least_psnr_db(name)
        );
        psnrs.push((name, db));
    }
    eprintln!(
        "BAR's map parser read {}: {}",
        archive.display(),
        psnrs
            .iter()
            .map(|(n, db)| format!("{n} {db:.1} dB"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    psnrs
}
