//! Fuzz entry points: one function per reader, taking raw bytes, run by the cargo-fuzz targets
//! in `fuzz/` and by `tests/fuzz_regressions.rs` on every input kept in `fuzz/regressions/`.
//! A reader may refuse any input with an error; it must never panic, hang or allocate without
//! bound. Readers that take a path get the bytes as a file in a private scratch folder.

use std::path::PathBuf;

use crate::formats::archive::ArchiveContents;
use crate::formats::{sc2, wz2100};

/// A fuzz entry point: any bytes in, nothing out; it must not panic, hang or run away.
pub type Target = fn(&[u8]);

/// Every target, by the name its cargo-fuzz binary and regression folder carry.
pub const TARGETS: &[(&str, Target)] = &[
    ("smf", smf),
    ("smt", smt),
    ("mapinfo", mapinfo),
    ("sdz", sdz),
    ("sd7", sd7),
    ("project_toml", project_toml),
    ("project_image", project_image),
    ("wz_map", wz_map),
    ("wz_ttypes", wz_ttypes),
    ("wz_gam", wz_gam),
    ("wz_objects", wz_objects),
    ("wz_lev", wz_lev),
    ("sc2_mpq", sc2_mpq),
    ("sc2_files", sc2_files),
    ("s3o", s3o),
    ("sd7_roundtrip", sd7_roundtrip),
    ("dds", dds),
    ("recipe_toml", recipe_toml),
    ("ops_toml", ops_toml),
    ("texture_section", texture_section),
    ("tile_cache", tile_cache),
    ("bake_cache", bake_cache),
    ("pack_cache", pack_cache),
];

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// A `.smf` opened as a map, every tile file it lists a small real `.smt` of 16 tiles: the
/// heights, layers, minimap and features, and the tile path, so the tile counts it claims meet
/// tile files (reading the `.smf` alone never reached them).
pub fn smf(data: &[u8]) {
    let mut smt = crate::formats::smt::smt_header(16);
    smt.resize(smt.len() + 16 * crate::formats::smt::SMT_TILE_BYTES, 0x55);
    let _ = crate::formats::map_reader::read_smf_with_tiles(data, &smt);
}

/// A `.smt` on its own, every tile decoded.
pub fn smt(data: &[u8]) {
    if let Ok(tiles) = crate::formats::smt::read_smt(data, "fuzz.smt") {
        for n in 0..tiles.len().min(64) {
            let _ = tiles.decode_tile(n);
        }
    }
}

/// A `mapinfo.lua` through the sandbox, then read as the map's settings.
pub fn mapinfo(data: &[u8]) {
    let vfs = ArchiveContents::default();
    let limits = crate::formats::mapinfo::LuaLimits::default();
    if let Ok(table) = crate::formats::mapinfo::eval_mapinfo(data, &vfs, limits) {
        let _ = crate::formats::mapinfo::mapinfo_from_table(&table);
    }
}

/// A `.sdz`, read as a map (the archive, then the `.smf`, `.smt` and `mapinfo.lua` in it).
pub fn sdz(data: &[u8]) {
    read_map_file(data, "fuzz.sdz");
}

/// A `.sd7`, read as a map.
pub fn sd7(data: &[u8]) {
    read_map_file(data, "fuzz.sd7");
}

fn read_map_file(data: &[u8], name: &str) {
    let dir = scratch();
    let path = dir.join(name);
    if std::fs::write(&path, data).is_ok() {
        let _ = crate::formats::map_reader::read_map(&path);
    }
    let _ = std::fs::remove_file(&path);
}

/// A project folder whose `map.toml` is `data`, beside a small project's real layer images.
pub fn project_toml(data: &[u8]) {
    let dir = project_copy();
    let toml = dir.join(crate::formats::project::PROJECT_FILE);
    if std::fs::write(&toml, data).is_ok() {
        let _ = crate::formats::load_project(&dir);
    }
}

/// A project folder with one layer image replaced by `data[1..]`; `data[0]` picks the layer.
pub fn project_image(data: &[u8]) {
    let Some((&pick, image)) = data.split_first() else {
        return;
    };
    let dir = project_copy();
    let layers = project_layers();
    if layers.is_empty() {
        return;
    }
    let name = &layers[pick as usize % layers.len()];
    let path = dir.join(name);
    let original = std::fs::read(&path).ok();
    if std::fs::write(&path, image).is_ok() {
        let _ = crate::formats::load_project(&dir);
    }
    if let Some(original) = original {
        let _ = std::fs::write(&path, original);
    }
}

/// Warzone 2100's `game.map`.
pub fn wz_map(data: &[u8]) {
    let _ = wz2100::map_file::read_header(data);
    let _ = wz2100::map_file::parse(data);
}

/// Warzone 2100's `ttypes.ttp`.
pub fn wz_ttypes(data: &[u8]) {
    let _ = wz2100::ttypes::parse(data);
}

/// Warzone 2100's `.gam`, binary and JSON.
pub fn wz_gam(data: &[u8]) {
    let _ = wz2100::gam::parse_binary(data);
    let _ = wz2100::gam::parse_json(data);
}

/// Warzone 2100's object JSON (`struct.json`, `feature.json`, `droid.json`).
pub fn wz_objects(data: &[u8]) {
    use wz2100::objects::ObjectKind;
    for kind in [
        ObjectKind::Structure,
        ObjectKind::Feature,
        ObjectKind::Droid,
    ] {
        let _ = wz2100::objects::parse(data, kind);
    }
}

/// Warzone 2100's `.lev` and `level.json`.
pub fn wz_lev(data: &[u8]) {
    let _ = wz2100::level::parse_lev(&String::from_utf8_lossy(data));
    let _ = wz2100::level::parse_level_json(data);
}

/// A StarCraft II map archive: the MPQ opened, every file it lists read.
pub fn sc2_mpq(data: &[u8]) {
    let dir = scratch();
    let path = dir.join("fuzz.SC2Map");
    if std::fs::write(&path, data).is_ok()
        && let Ok(mut archive) = sc2::mpq::Sc2Archive::open(&path)
    {
        for name in archive.list().into_iter().take(64) {
            let _ = archive.read(&name);
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// A file embedded in a StarCraft II map: `data[0]` picks the parser, the rest is the file.
pub fn sc2_files(data: &[u8]) {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    match pick % 9 {
        0 => drop(sc2::map_info::parse(file, None)),
        1 => drop(sc2::heights::parse_terrain_xml(file)),
        2 => {
            // the height map is read with its t3Terrain.xml: a u16 length, the XML, the map
            if file.len() >= 2 {
                let xml_len = u16::from_le_bytes([file[0], file[1]]) as usize;
                let rest = &file[2..];
                if let Ok(xml) = sc2::heights::parse_terrain_xml(&rest[..xml_len.min(rest.len())]) {
                    let _ = sc2::heights::parse_height_map(&rest[xml_len.min(rest.len())..], &xml);
                }
            }
        }
        3 => drop(sc2::heights::parse_sync_height_map(file)),
        4 => drop(sc2::heights::parse_cliff_levels(file)),
        5 => drop(sc2::objects::parse(file)),
        6 => drop(sc2::texture::parse_masks(file)),
        7 => drop(sc2::texture::decode_minimap(file)),
        _ => drop(sc2::map_info::parse_game_strings(file)),
    }
}

/// An S3O model read, flattened, and written and read back: the flat mesh's indices must all
/// be in range, and what the writer makes of a model must read back as the same model.
pub fn s3o(data: &[u8]) {
    use crate::formats::s3o::{read_s3o, write_s3o};
    let Ok(model) = read_s3o(data, "fuzz.s3o") else {
        return;
    };
    let mesh = model.mesh();
    assert_eq!(mesh.indices.len() % 3, 0, "a partial triangle");
    assert!(
        mesh.indices
            .iter()
            .all(|&i| (i as usize) < mesh.positions.len()),
        "an index past the mesh's vertices"
    );
    let _ = (
        model.effective_radius_elmos(&mesh),
        model.effective_height_elmos(&mesh),
    );
    let again = read_s3o(&write_s3o(&model), "fuzz-again.s3o");
    assert_eq!(
        again.ok().as_ref(),
        Some(&model),
        "the writer's copy reads back differently"
    );
}

/// This process's scratch folder.
/// Files made from `data` (up to 8: a name of safe characters, then up to 64 KiB of bytes,
/// each with its length from the input), written as a `.sd7` by our writer and read back by our
/// reader: what we write, we must read back the same, path for path and byte for byte.
pub fn sd7_roundtrip(data: &[u8]) {
    use crate::formats::archive::{ArchiveContents, ArchiveFile, write_archive};
    const NAME_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789_./";
    let mut files: Vec<ArchiveFile> = Vec::new();
    let mut at = 0usize;
    while files.len() < 8 && at < data.len() {
        let name_len = usize::from(data[at] % 24) + 1;
        let Some(name) = data.get(at + 1..at + 1 + name_len) else {
            break;
        };
        at += 1 + name_len;
        let Some(len) = data.get(at..at + 2) else {
            break;
        };
        let len = usize::from(u16::from_le_bytes([len[0], len[1]])).min(data.len() - at - 2);
        let bytes = data[at + 2..at + 2 + len].to_vec();
        at += 2 + len;
        let name: String = name
            .iter()
            .map(|&c| NAME_CHARS[usize::from(c) % NAME_CHARS.len()] as char)
            .collect();
        // a name the archive layer refuses, or one already taken, is no file
        let Ok(path) = crate::formats::archive::normalize_entry_path(&name, "fuzz") else {
            continue;
        };
        let taken = |f: &ArchiveFile| {
            let (a, b) = (f.path.to_ascii_lowercase(), path.to_ascii_lowercase());
            a == b || a.starts_with(&format!("{b}/")) || b.starts_with(&format!("{a}/"))
        };
        if files.iter().any(taken) {
            continue;
        }
        files.push(ArchiveFile::new(path, bytes));
    }
    if files.is_empty() {
        return;
    }
    let out = scratch().join("roundtrip.sd7");
    let _ = std::fs::remove_file(&out);
    write_archive(&out, &files, &mut |_, _| true).expect("our writer takes any safe files");
    let back = ArchiveContents::read(&out).expect("our reader reads what our writer wrote");
    let mut want: Vec<(String, &[u8])> = files
        .iter()
        .map(|f| (f.path.clone(), f.data.as_slice()))
        .collect();
    want.sort();
    let mut got: Vec<(String, Vec<u8>)> = back
        .files()
        .iter()
        .map(|f| {
            (
                f.path.clone(),
                f.bytes().expect("an entry read").into_owned(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(got.len(), want.len(), "the file count read back");
    for ((gp, gb), (wp, wb)) in got.iter().zip(&want) {
        assert_eq!(gp, wp, "a path read back");
        assert!(gb == wb, "the bytes of {wp} read back");
    }
    let _ = std::fs::remove_file(&out);
}

/// A DDS file (uncompressed or BC1/2/3), decoded as a picture from a map's archive is.
pub fn dds(data: &[u8]) {
    if let Ok((rgba, w, h)) = crate::formats::image_file::decode_rgba(data, "fuzz.dds", 4096) {
        assert_eq!(rgba.len(), w * h * 4, "the decoded size");
    }
}

/// A generator recipe (`map.toml`'s `[generator]`, a recipe file): read, checked, and what it
/// writes reads back as the same recipe.
pub fn recipe_toml(data: &[u8]) {
    use crate::map::recipe::Recipe;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(recipe) = Recipe::from_toml(text) {
        let _ = recipe.check();
        let again = Recipe::from_toml(&recipe.to_toml()).expect("a recipe we wrote reads back");
        assert_eq!(again, recipe, "a recipe's TOML round trip");
    }
}

/// An ops file (scripted strokes) read for a small map; its mask images are refused.
pub fn ops_toml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    static MAP: std::sync::OnceLock<crate::map::Map> = std::sync::OnceLock::new();
    let map = MAP.get_or_init(|| {
        crate::map::Map::new(
            crate::map::MapSize::new(2, 2).expect("2 x 2 is a map size"),
            crate::map::MapSettings::default(),
        )
    });
    let _ = crate::edit::ops::parse(text, map, &|p| Err(format!("no image {p} here")));
}

/// `map.toml`'s `[texture]` section (the texture layers): read, turned into layers, and the
/// layers written and read back the same.
pub fn texture_section(data: &[u8]) {
    use crate::formats::project::texture_section::TextureSection;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(section) = toml::from_str::<TextureSection>(text) else {
        return;
    };
    if let Ok(layers) = section.to_layers() {
        let _ = layers.len();
    }
}

/// A tile segment of the compile cache on disk (`tiles/*.gwt`), damaged any way: `data[0]`'s
/// low bit puts the segment magic in front of the rest. The tiles looked up are the keys the
/// file holds where a segment's keys would be, so entries are found and checked.
pub fn tile_cache(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let file = cache_file(pick, b"GWTILES2", rest);
    let key_at = |at: usize| -> Option<[u8; 16]> { file.get(at..at + 16)?.try_into().ok() };
    let tag = key_at(8).unwrap_or_default();
    let keys: Vec<[u8; 16]> = (0..64).map_while(|k| key_at(32 + k * 16)).collect();
    let Some(cache) = fresh_cache("tiles", "fuzz.gwt", &file) else {
        return;
    };
    let (tiles, found) = cache.lookup(&tag, &keys);
    assert_eq!(found.len(), keys.len(), "one answer per key");
    assert_eq!(
        tiles.len(),
        keys.len() * crate::formats::smt::SMT_TILE_BYTES,
        "one tile per key"
    );
}

/// A bake segment of the compile cache (`bakes/*.gwb`), as [`tile_cache`]: the entries asked
/// for are the keys the file holds where its first entries' keys would be.
pub fn bake_cache(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let file = cache_file(pick, b"GWBAKES1", rest);
    let keys: Vec<[u8; 16]> = (0..8)
        .filter_map(|k| file.get(16 + k * 24..32 + k * 24)?.try_into().ok())
        .collect();
    let Some(cache) = fresh_cache("bakes", "fuzz.gwb", &file) else {
        return;
    };
    let entries = cache.bake_entries(&keys);
    assert_eq!(entries.len(), keys.len(), "one answer per key");
}

/// A packed part of the compile cache (`packs/*.lzma2`: LZMA2 chunks) that passes the cache's
/// own checks, made into the one-entry `.sd7` a compile would write with it, and read back.
pub fn pack_cache(data: &[u8]) {
    use crate::formats::archive::lzma2_parts::{chunks_unpacked_len, one_entry_7z};
    let Some(len) = chunks_unpacked_len(data) else {
        return;
    };
    if len > 1 << 22 {
        return;
    }
    let archive = one_entry_7z("fuzz.bin", &[data], len, 0);
    let path = scratch().join("pack.sd7");
    if std::fs::write(&path, &archive).is_ok()
        && let Ok(read) = crate::formats::archive::ArchiveContents::read(&path)
    {
        for f in read.files() {
            let _ = f.bytes();
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// A cache file's bytes: `rest`, after `magic` when `pick`'s low bit is set.
fn cache_file(pick: u8, magic: &[u8], rest: &[u8]) -> Vec<u8> {
    if pick & 1 == 1 {
        [magic, rest].concat()
    } else {
        rest.to_vec()
    }
}

/// A compile cache in a fresh scratch folder whose `kind` folder holds `file` as `name`.
fn fresh_cache(kind: &str, name: &str, file: &[u8]) -> Option<crate::compile::CompileCache> {
    let dir = scratch().join("cache");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(kind)).ok()?;
    std::fs::write(dir.join(kind).join(name), file).ok()?;
    Some(crate::compile::CompileCache::on_disk(dir, 1 << 30).without_memory())
}

fn scratch() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("groundwork-fuzz-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir
    })
    .clone()
}

/// A fresh copy of a small project (2 x 2, every layer), made once and rewritten for each input.
fn project_copy() -> PathBuf {
    let scratch = scratch();
    let original = scratch.join("original");
    static MADE: std::sync::Once = std::sync::Once::new();
    MADE.call_once(|| {
        let mut map = crate::edit::procedural::relief_map(
            crate::map::MapSize::new(2, 2).expect("2 x 2 is a map size"),
            1,
            "Fuzz",
        );
        map.metal.set(3, 3, 200);
        map.grass.set(1, 1, 100);
        let _ = crate::formats::save_project(&map, &original);
    });
    let copy = scratch.join("copy");
    let _ = std::fs::create_dir_all(&copy);
    for name in project_layers()
        .into_iter()
        .chain([crate::formats::project::PROJECT_FILE.to_string()])
    {
        let _ = std::fs::copy(original.join(&name), copy.join(&name));
    }
    copy
}

/// The layer images of the small project, sorted.
fn project_layers() -> Vec<String> {
    let original = scratch().join("original");
    let mut names: Vec<String> = std::fs::read_dir(&original)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != crate::formats::project::PROJECT_FILE)
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_target_takes_empty_and_junk_input() {
        for (name, f) in super::TARGETS {
            f(&[]);
            f(b"\0\0\0\0junk that is no format at all \xff\xfe");
            assert!(super::target(name).is_some());
        }
        assert!(super::target("nope").is_none());
    }

    /// A small xorshift generator: the mutation loop's randomness, the same every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// One to four random edits of `input`: bit flips, bytes and whole words set to values
    /// that matter to binary formats (0, -1, the largest, the file's length, another word of
    /// the file: an offset it holds), infinities and NaNs, truncation, a chunk cut or copied,
    /// or a splice with `other`.
    fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
        let mut b = input.to_vec();
        for _ in 0..1 + rng.below(4) {
            let len = b.len();
            let word_at = (rng.below(len.max(4)) & !3).min(len.saturating_sub(4));
            match rng.below(9) {
                0 if len > 0 => {
                    let at = rng.below(len);
                    b[at] ^= 1 << rng.below(8);
                }
                1 if len > 0 => {
                    let at = rng.below(len);
                    b[at] = [0, 0xff, 0x7f, 0x80, 1, rng.next() as u8][rng.below(6)];
                }
                2 | 3 if len >= 4 => {
                    let from = (rng.below(len) & !3).min(len - 4);
                    let values = [
                        0,
                        1,
                        2,
                        -1,
                        i32::MAX,
                        i32::MIN,
                        len as i32,
                        len as i32 - 4,
                        rng.below(len) as i32,
                        rng.below(64) as i32,
                        1 << rng.below(31),
                        f32::NAN.to_bits() as i32,
                        f32::INFINITY.to_bits() as i32,
                        f32::MAX.to_bits() as i32,
                        i32::from_le_bytes(b[from..from + 4].try_into().unwrap()),
                    ];
                    let v = values[rng.below(values.len())];
                    b[word_at..word_at + 4].copy_from_slice(&v.to_le_bytes());
                }
                4 => b.truncate(rng.below(len + 1)),
                5 if len > 0 => {
                    let at = rng.below(len);
                    let n = rng.below((len - at).min(256) + 1);
                    b.drain(at..at + n);
                }
                6 if len > 0 => {
                    let at = rng.below(len);
                    let n = rng.below((len - at).min(256) + 1);
                    let chunk = b[at..at + n].to_vec();
                    let to = rng.below(b.len() + 1);
                    b.splice(to..to, chunk);
                }
                7 if !other.is_empty() => {
                    let cut = rng.below(len + 1);
                    let from = rng.below(other.len());
                    b.truncate(cut);
                    b.extend_from_slice(&other[from..]);
                }
                _ if len > 0 => {
                    let at = rng.below(len);
                    b[at] = rng.next() as u8;
                }
                _ => b.push(rng.next() as u8),
            }
        }
        b
    }

    /// Feeds `iterations` mutated copies of `seeds` to `target`; a copy that `keep` accepts (it
    /// reads) joins the pool mutated from, up to 2000. Returns the inputs that panicked (16 at
    /// most) and how many inputs `keep` accepted.
    fn mutation_loop(
        target: super::Target,
        keep: fn(&[u8]) -> bool,
        seeds: Vec<Vec<u8>>,
        iterations: usize,
    ) -> (Vec<Vec<u8>>, usize) {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut pool = seeds;
        let mut crashes: Vec<Vec<u8>> = Vec::new();
        let mut kept = 0;
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        for _ in 0..iterations {
            let a = rng.below(pool.len());
            let b = rng.below(pool.len());
            let input = mutate(&mut rng, &pool[a], &pool[b]);
            if std::panic::catch_unwind(|| target(&input)).is_err() {
                if crashes.len() < 16 {
                    crashes.push(input);
                }
                continue;
            }
            if keep(&input) {
                kept += 1;
                if pool.len() < 2000 {
                    pool.push(input);
                }
            }
        }
        std::panic::set_hook(hook);
        (crashes, kept)
    }

    /// The stable compiler's stand-in for cargo-fuzz on the `s3o` target: 200,000 mutated
    /// copies (`GROUNDWORK_FUZZ_ITERATIONS` for more or fewer) of models written here and the
    /// fixtures' trees. Crashing inputs are written to `fuzz/artifacts/s3o/` and fail the test.
    /// `cargo test --lib s3o_mutations -- --ignored --nocapture`
    #[test]
    #[ignore = "a fuzzing run, minutes long"]
    fn s3o_mutations() {
        use crate::formats::s3o::{example_model, read_s3o, write_s3o};
        let iterations = std::env::var("GROUNDWORK_FUZZ_ITERATIONS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(200_000);
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seeds: Vec<Vec<u8>> = ["corpus", "regressions"]
            .iter()
            .flat_map(|d| std::fs::read_dir(root.join("fuzz").join(d).join("s3o")).into_iter())
            .flatten()
            .flatten()
            .filter_map(|e| std::fs::read(e.path()).ok())
            .collect();
        let tree = root.join(
            "../shared/fixtures/bar/Map_Blueprint_V1.sdd/objects3d/fir_tree_small_1()tree_fir_tall_5.s3o",
        );
        seeds.extend(std::fs::read(tree).ok());
        seeds.push(write_s3o(&example_model()));
        let mut wide = example_model();
        for i in 0..6 {
            let mut p = wide.pieces[2].clone();
            p.parent = Some(i % 3);
            wide.pieces.push(p);
        }
        // children listed after their parents, as the reader returns them
        let wide = read_s3o(&write_s3o(&wide), "wide").expect("the wide seed reads");
        seeds.push(write_s3o(&wide));
        let (crashes, read) = mutation_loop(
            super::s3o,
            |b| read_s3o(b, "kept").is_ok(),
            seeds,
            iterations,
        );
        let out = root.join("fuzz/artifacts/s3o");
        for c in &crashes {
            let _ = std::fs::create_dir_all(&out);
            let name: u64 = c.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
                (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
            });
            let _ = std::fs::write(out.join(format!("crash-{name:016x}")), c);
        }
        eprintln!(
            "s3o: {iterations} mutated inputs, {read} of them read as models, {} crashes",
            crashes.len()
        );
        assert!(crashes.is_empty(), "crashing inputs in {}", out.display());
    }
}
