//! Corrupted SC2 maps: truncated archives, absurd header and table sizes, files missing or
//! broken inside, random byte flips. Each must give a clear error (or a clearly reported
//! import), never a panic, and never a huge allocation: this test binary's allocator refuses
//! (and so aborts the run on) any single allocation over [`ALLOC_LIMIT`].

mod common;
mod sc2_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use groundwork::formats::sc2::{heights, map_info, mpq::Sc2Archive, objects, texture};
use groundwork::import::sc2::Sc2Options;

/// The largest single allocation any import here may make (Simple64's texture is 16 MiB).
const ALLOC_LIMIT: usize = 256 << 20;
static LARGEST: AtomicUsize = AtomicUsize::new(0);

struct Guarded;

// SAFETY: every call goes to System unchanged, or fails with null as GlobalAlloc allows
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        if layout.size() > ALLOC_LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller keeps GlobalAlloc's contract, which System takes as it is
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller keeps GlobalAlloc's contract, which System takes as it is
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        if layout.size() > ALLOC_LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller keeps GlobalAlloc's contract, which System takes as it is
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        if new_size > ALLOC_LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller keeps GlobalAlloc's contract, which System takes as it is
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Guarded = Guarded;

fn import_bytes(dir: &Path, name: &str, bytes: &[u8]) -> Result<String, String> {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    // 16 elmos a cell: a small map, so the imports that do succeed are quick
    let opt = Sc2Options {
        cell_elmos: 16,
        ..Sc2Options::default()
    };
    let r = groundwork::import::sc2::import(&p, &opt)
        .map(|(_, report)| report.to_text())
        .map_err(|e| e.to_string());
    if let Err(e) = &r {
        assert!(
            !e.trim().is_empty() && !e.contains('\n'),
            "an error must be one clear line: {e:?}"
        );
    }
    r
}

/// A small deterministic random number generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn simple64() -> Option<(PathBuf, Vec<u8>)> {
    let p = sc2_support::fixture("Simple64")?;
    let b = std::fs::read(&p).unwrap();
    Some((p, b))
}

#[test]
fn truncated_archives_give_clear_errors() {
    let Some((_, full)) = simple64() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut lengths = vec![
        0, 1, 3, 4, 16, 31, 32, 33, 64, 100, 207, 208, 209, 512, 4096,
    ];
    lengths.extend((1..60).map(|k| full.len() * k / 60));
    lengths.extend([full.len() - 16, full.len() - 1]);
    for n in lengths {
        let r = import_bytes(dir.path(), "t.SC2Map", &full[..n]);
        assert!(
            r.is_err(),
            "truncated to {n} of {} bytes, it still imported",
            full.len()
        );
    }
    assert!(LARGEST.load(Ordering::Relaxed) <= ALLOC_LIMIT);
}

fn put_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}
fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn absurd_header_fields_are_rejected_before_reading() {
    let Some((_, full)) = simple64() else { return };
    let dir = tempfile::tempdir().unwrap();
    let len = full.len() as u64;
    type Patch = Box<dyn Fn(&mut [u8])>;
    let cases: Vec<(&str, Patch)> = vec![
        ("header size", Box::new(|b| put_u32(b, 4, u32::MAX))),
        ("format version", Box::new(|b| put_u16(b, 12, 7))),
        ("sector size", Box::new(|b| put_u16(b, 14, 0xffff))),
        (
            "hash table position",
            Box::new(|b| put_u32(b, 16, 0xffff_fff0)),
        ),
        (
            "block table position",
            Box::new(|b| put_u32(b, 20, 0xffff_fff0)),
        ),
        (
            "hash table entries",
            Box::new(|b| put_u32(b, 24, 0x7fff_ffff)),
        ),
        (
            "block table entries",
            Box::new(|b| put_u32(b, 28, 0x7fff_ffff)),
        ),
        ("high position bits", Box::new(|b| put_u16(b, 40, 0xffff))),
        ("BET position", Box::new(move |b| put_u64(b, 52, len - 4))),
        ("HET position", Box::new(|b| put_u64(b, 60, u64::MAX - 8))),
        ("hash table size", Box::new(|b| put_u64(b, 68, 1 << 40))),
        ("block table size", Box::new(|b| put_u64(b, 76, u64::MAX))),
        ("HET size", Box::new(|b| put_u64(b, 92, 1 << 33))),
        ("BET size", Box::new(move |b| put_u64(b, 100, len))),
        (
            "HET data size",
            Box::new(|b| {
                let het = u64::from_le_bytes(b[60..68].try_into().unwrap()) as usize;
                put_u32(b, het + 8, 0xffff_fff0);
            }),
        ),
        (
            "BET data size",
            Box::new(|b| {
                let bet = u64::from_le_bytes(b[52..60].try_into().unwrap()) as usize;
                put_u32(b, bet + 8, 0x7fff_fff0);
            }),
        ),
    ];
    for (what, patch) in cases {
        let mut b = full.clone();
        patch(&mut b);
        let r = import_bytes(dir.path(), "h.SC2Map", &b);
        assert!(r.is_err(), "{what}: a patched header still imported");
    }
    assert!(LARGEST.load(Ordering::Relaxed) <= ALLOC_LIMIT);
}

/// Decrypts the HET or BET table at `pos` (after its 12-byte header), lets `edit` change the
/// plain words, and encrypts it back: the table claims what `edit` says, checksums aside.
fn edit_ext_table(
    b: &mut [u8],
    pos: usize,
    disk: usize,
    key_name: &str,
    edit: &dyn Fn(&mut [u32]),
) {
    let data_size = u32::from_le_bytes(b[pos + 8..pos + 12].try_into().unwrap()) as usize;
    assert!(
        data_size + 12 <= disk,
        "the fixture's table is packed; this test expects it plain"
    );
    let key = wow_mpq::hash_string(key_name, wow_mpq::hash_type::FILE_KEY);
    let body = &mut b[pos + 12..pos + disk];
    let words = body.len() / 4;
    let mut w: Vec<u32> = (0..words)
        .map(|i| u32::from_le_bytes(body[i * 4..i * 4 + 4].try_into().unwrap()))
        .collect();
    wow_mpq::decrypt_block(&mut w, key);
    edit(&mut w);
    wow_mpq::encrypt_block(&mut w, key);
    for (i, v) in w.iter().enumerate() {
        body[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
}

#[test]
fn absurd_het_and_bet_contents_are_rejected() {
    let Some((_, full)) = simple64() else { return };
    let dir = tempfile::tempdir().unwrap();
    let bet = u64::from_le_bytes(full[52..60].try_into().unwrap()) as usize;
    let het = u64::from_le_bytes(full[60..68].try_into().unwrap()) as usize;
    let het_disk = u64::from_le_bytes(full[92..100].try_into().unwrap()) as usize;
    let bet_disk = u64::from_le_bytes(full[100..108].try_into().unwrap()) as usize;
    // word offsets in the decrypted body: BET file count 1, entry bits 3, hash array 17,
    // flag count 18; HET max files 1, hash table bytes 2, index bits 6
    let cases: Vec<(&str, usize, usize, &str, usize, u32)> = vec![
        (
            "BET file count",
            bet,
            bet_disk,
            "(block table)",
            1,
            0x0fff_ffff,
        ),
        (
            "BET entry bits",
            bet,
            bet_disk,
            "(block table)",
            3,
            0xffff_ff00,
        ),
        (
            "BET hash array",
            bet,
            bet_disk,
            "(block table)",
            17,
            0xffff_fff0,
        ),
        (
            "BET flag count",
            bet,
            bet_disk,
            "(block table)",
            18,
            0x7fff_ffff,
        ),
        (
            "HET max files",
            het,
            het_disk,
            "(hash table)",
            1,
            0x7fff_ffff,
        ),
        (
            "HET hash bytes",
            het,
            het_disk,
            "(hash table)",
            2,
            0xffff_0000,
        ),
        ("HET index bits", het, het_disk, "(hash table)", 6, 200),
    ];
    // first: decrypting and re-encrypting unchanged keeps the map importable
    let mut same = full.clone();
    edit_ext_table(&mut same, bet, bet_disk, "(block table)", &|_| {});
    assert!(
        import_bytes(dir.path(), "same.SC2Map", &same).is_ok(),
        "the round trip itself broke the map"
    );
    for (what, pos, disk, key, word, value) in cases {
        let mut b = full.clone();
        edit_ext_table(&mut b, pos, disk, key, &|w| w[word] = value);
        let r = import_bytes(dir.path(), "t.SC2Map", &b);
        let e = r.expect_err(what);
        assert!(e.contains("table"), "{what}: {e}");
    }
    assert!(LARGEST.load(Ordering::Relaxed) <= ALLOC_LIMIT);
}

/// Simple64's files, by name.
fn simple64_files(path: &Path) -> Vec<(String, Vec<u8>)> {
    let mut ar = Sc2Archive::open(path).unwrap();
    ar.list()
        .into_iter()
        .filter(|n| !n.starts_with('('))
        .map(|n| {
            let b = ar.read_required(&n).unwrap();
            (n, b)
        })
        .collect()
}

/// An MPQ v4 archive (HET/BET, zlib) of `files`, as SC2 writes them.
fn build_archive(dir: &Path, name: &str, files: &[(String, Vec<u8>)]) -> PathBuf {
    let p = dir.join(name);
    let mut b = wow_mpq::ArchiveBuilder::new().version(wow_mpq::FormatVersion::V4);
    for (n, data) in files {
        b = b.add_file_data(data.clone(), n);
    }
    b.build(&p).unwrap();
    p
}

#[test]
fn missing_or_broken_files_inside_are_reported_or_refused() {
    let Some((path, _)) = simple64() else { return };
    let dir = tempfile::tempdir().unwrap();
    let files = simple64_files(&path);
    let without = |names: &[&str]| -> Vec<(String, Vec<u8>)> {
        files
            .iter()
            .filter(|(n, _)| !names.contains(&n.as_str()))
            .cloned()
            .collect()
    };
    let replaced = |name: &str, data: Vec<u8>| -> Vec<(String, Vec<u8>)> {
        files
            .iter()
            .map(|(n, d)| (n.clone(), if n == name { data.clone() } else { d.clone() }))
            .collect()
    };
    let import = |p: &Path| {
        groundwork::import::sc2::import(p, &Sc2Options::default())
            .map(|(m, r)| (m, r.to_text()))
            .map_err(|e| e.to_string())
    };

    // a rebuilt archive with every file imports like the original
    let all = build_archive(dir.path(), "all.SC2Map", &files);
    let (m, _) = import(&all).unwrap();
    assert_eq!(m.teams.len(), 2);

    let e = import(&build_archive(
        dir.path(),
        "a.SC2Map",
        &without(&["MapInfo"]),
    ))
    .unwrap_err();
    assert!(e.contains("MapInfo"), "{e}");
    let e = import(&build_archive(
        dir.path(),
        "b.SC2Map",
        &without(&["t3HeightMap", "t3SyncHeightMap"]),
    ))
    .unwrap_err();
    assert!(e.contains("no usable heights"), "{e}");
    let e = import(&build_archive(
        dir.path(),
        "c.SC2Map",
        &replaced("MapInfo", b"IpaM\x27\0\0\0junk".to_vec()),
    ))
    .unwrap_err();
    assert!(e.contains("MapInfo"), "{e}");

    let (m, r) = import(&build_archive(
        dir.path(),
        "d.SC2Map",
        &without(&["Objects"]),
    ))
    .unwrap();
    assert!(
        r.contains("Objects: missing") && m.metal.data().iter().all(|&v| v == 0),
        "{r}"
    );
    let (_, r) = import(&build_archive(
        dir.path(),
        "e.SC2Map",
        &without(&["t3SyncCliffLevel"]),
    ))
    .unwrap();
    assert!(r.contains("t3SyncCliffLevel is missing"), "{r}");
    let (_, r) = import(&build_archive(
        dir.path(),
        "f.SC2Map",
        &without(&["t3HeightMap"]),
    ))
    .unwrap();
    assert!(r.contains("from t3SyncHeightMap"), "{r}");
    let (_, r) = import(&build_archive(
        dir.path(),
        "g.SC2Map",
        &without(&["t3Terrain.xml"]),
    ))
    .unwrap();
    assert!(r.contains("t3Terrain.xml is missing"), "{r}");
    let (_, r) = import(&build_archive(
        dir.path(),
        "h.SC2Map",
        &without(&["t3TextureMasks"]),
    ))
    .unwrap();
    assert!(r.contains("main colour"), "{r}");
    let (_, r) = import(&build_archive(
        dir.path(),
        "i.SC2Map",
        &replaced("Objects", b"<PlacedObjects><oops".to_vec()),
    ))
    .unwrap();
    assert!(r.contains("not valid XML"), "{r}");
    let (_, r) = import(&build_archive(
        dir.path(),
        "j.SC2Map",
        &replaced("t3HeightMap", b"HMAP\x65\0\0\0\x59\0\0\0".to_vec()),
    ))
    .unwrap();
    assert!(
        r.contains("t3HeightMap") && r.contains("from t3SyncHeightMap"),
        "{r}"
    );
    let (_, r) = import(&build_archive(
        dir.path(),
        "k.SC2Map",
        &replaced("t3TextureMasks", vec![7u8; 5000]),
    ))
    .unwrap();
    assert!(r.contains("MASK"), "{r}");
    // a layer file the importer does not know is listed, not a problem
    let mut extra = files.clone();
    extra.push(("t3SomethingNew".into(), vec![1, 2, 3]));
    let (_, r) = import(&build_archive(dir.path(), "l.SC2Map", &extra)).unwrap();
    assert!(r.contains("t3SomethingNew"), "{r}");
    assert!(LARGEST.load(Ordering::Relaxed) <= ALLOC_LIMIT);
}

#[test]
fn random_byte_flips_give_results_not_crashes() {
    let Some((_, full)) = simple64() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5c2_f1ee);
    let (mut ok, mut err) = (0, 0);
    for round in 0..240 {
        let mut b = full.clone();
        let flips = 1 + rng.below(8);
        for _ in 0..flips {
            // half the rounds aim at the header and the tables at the end
            let at = if round % 2 == 0 {
                rng.below(b.len())
            } else if rng.below(2) == 0 {
                rng.below(208)
            } else {
                b.len() - 1 - rng.below(4096)
            };
            b[at] ^= 1 << rng.below(8);
        }
        match import_bytes(dir.path(), "f.SC2Map", &b) {
            Ok(_) => ok += 1,
            Err(_) => err += 1,
        }
    }
    eprintln!("random flips: {ok} imported, {err} refused");
    assert!(err > 0);
    assert!(LARGEST.load(Ordering::Relaxed) <= ALLOC_LIMIT);
}

#[test]
fn the_layer_parsers_survive_truncation_and_flips() {
    let Some((path, _)) = simple64() else { return };
    let files = simple64_files(&path);
    let get = |n: &str| files.iter().find(|(f, _)| f == n).unwrap().1.clone();
    let xml = heights::parse_terrain_xml(&get("t3Terrain.xml")).unwrap();
    let parse_all = |name: &str, b: &[u8]| {
        let _ = match name {
            "MapInfo" => map_info::parse(b, Some("ShakurasTemple")).map(|_| ()),
            "t3HeightMap" => heights::parse_height_map(b, &xml).map(|_| ()),
            "t3SyncHeightMap" => heights::parse_sync_height_map(b).map(|_| ()),
            "t3SyncCliffLevel" => heights::parse_cliff_levels(b).map(|_| ()),
            "t3TextureMasks" => texture::parse_masks(b).map(|_| ()),
            "t3Terrain.xml" => heights::parse_terrain_xml(b).map(|_| ()),
            "Objects" => objects::parse(b).map(|_| ()),
            "Minimap.tga" => texture::decode_minimap(b).map(|_| ()),
            _ => Ok(()),
        };
    };
    let mut rng = Rng(42);
    for name in [
        "MapInfo",
        "t3HeightMap",
        "t3SyncHeightMap",
        "t3SyncCliffLevel",
        "t3TextureMasks",
        "t3Terrain.xml",
        "Objects",
        "Minimap.tga",
    ] {
        let b = get(name);
        for k in 0..40 {
            parse_all(name, &b[..b.len() * k / 40]);
        }
        for _ in 0..40 {
            let mut c = b.clone();
            for _ in 0..1 + rng.below(6) {
                let at = rng.below(c.len().min(256));
                c[at] = rng.next() as u8;
            }
            parse_all(name, &c);
        }
    }
    assert!(LARGEST.load(Ordering::Relaxed) <= ALLOC_LIMIT);
}
