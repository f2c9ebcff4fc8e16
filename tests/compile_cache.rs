//! The compile cache: a compile after an edit, through the cache (in memory, as the editor
//! holds it, and on disk, as the next `groundwork compile` finds it), gives the bytes of a
//! cold compile of the edited map, for `.sdd` and `.sd7`; it encodes only the tiles whose
//! texels changed and packs only the blocks of the one `.smt` (a map unit of rows each) they
//! are in;
//! damaged cache files are ignored; a `.sdd` re-export rewrites only the files whose bytes
//! changed. The engine's unitsync loads what came through the cache.

mod common;

use std::path::Path;
use std::sync::Arc;

use groundwork::compile::{CompileCache, CompileOptions, Progress, compile_map};
use groundwork::map::{Map, MapSettings, MapSize, Team};

/// A 4x4 map (2048 x 2048 texels, 4096 tiles) with noisy ground, so no two tiles are alike.
fn noisy_map() -> Map {
    let settings = MapSettings {
        name: "Cache Test".into(),
        version: "1.0".into(),
        ..MapSettings::default()
    };
    let mut m = Map::new(MapSize::new(4, 4).unwrap(), settings);
    let mut state = 0x9e37_79b9_u32;
    for px in m.texture.rgba_mut().chunks_exact_mut(4) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        px.copy_from_slice(&[state as u8, (state >> 8) as u8, (state >> 16) as u8, 255]);
    }
    let (hw, hh) = m.heights.dims();
    for z in 0..hh {
        for x in 0..hw {
            m.heights.set(
                x,
                z,
                50.0 + 30.0 * (x as f32 * 0.1).sin() * (z as f32 * 0.07).cos(),
            );
        }
    }
    m.teams = vec![
        Team {
            start_x_elmos: 300.0,
            start_z_elmos: 300.0,
        },
        Team {
            start_x_elmos: 1700.0,
            start_z_elmos: 1700.0,
        },
    ];
    m
}

/// Paints a 512 x 512 texel square (16 x 16 tiles) and raises the ground under it.
fn edit(m: &mut Map) {
    let w = m.texture.width();
    for y in 608..1120 {
        for x in 896..1408 {
            let px = &mut m.texture.rgba_mut()[(y * w + x) * 4..][..4];
            px[0] = px[0].wrapping_add(40);
        }
    }
    for z in 80..100 {
        for x in 120..150 {
            let h = m.heights.get(x, z);
            m.heights.set(x, z, h + 25.0);
        }
    }
}

fn compile(map: &Map, out: &Path, cache: Option<&Arc<CompileCache>>) {
    let options = CompileOptions {
        cache: cache.cloned(),
        ..Default::default()
    };
    compile_map(map, out, &options, &Progress::none()).unwrap();
}

/// Every file of an archive (a `.sdd` folder's files by path, or the one file), to compare.
fn contents(path: &Path) -> Vec<(String, Vec<u8>)> {
    if path.is_dir() {
        let mut files: Vec<(String, Vec<u8>)> =
            groundwork::formats::archive::read_folder(path, "test")
                .unwrap()
                .into_iter()
                .map(|f| (f.path.clone(), f.bytes().unwrap().into_owned()))
                .collect();
        files.sort();
        files
    } else {
        vec![(String::new(), std::fs::read(path).unwrap())]
    }
}

fn assert_same(a: &Path, b: &Path) {
    let (ca, cb) = (contents(a), contents(b));
    assert_eq!(ca.len(), cb.len(), "{} vs {}", a.display(), b.display());
    for ((pa, ba), (pb, bb)) in ca.iter().zip(&cb) {
        assert_eq!(pa, pb);
        assert!(
            ba == bb,
            "{} differs between {} and {}",
            pa,
            a.display(),
            b.display()
        );
    }
}

#[test]
fn a_recompile_through_the_cache_gives_the_bytes_of_a_cold_one() {
    let dir = tempfile::tempdir().unwrap();
    let total_tiles = 64 * 64;
    for ext in ["sdd", "sd7"] {
        let cache_dir = dir.path().join(format!("cache-{ext}"));
        let mut map = noisy_map();
        let cache = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
        let first = dir.path().join(format!("first.{ext}"));
        compile(&map, &first, Some(&cache));
        let cold_first = dir.path().join(format!("cold_first.{ext}"));
        compile(&map, &cold_first, None);
        assert_same(&first, &cold_first);

        edit(&mut map);
        // the editor's case: the same cache, in memory
        let again = dir.path().join(format!("again.{ext}"));
        compile(&map, &again, Some(&cache));
        let s = cache.stats();
        assert_eq!(s.tiles_encoded, 16 * 16, "{ext}: {s:?}");
        assert_eq!(s.tiles_from_memory, total_tiles - s.tiles_encoded, "{s:?}");
        if ext == "sd7" {
            // the paint lies in the second and third of the .smt's four blocks (a map unit of
            // rows each): those and the .smf are packed again; the other two blocks and the
            // .smt's header (the tile count is the same) are not
            assert_eq!((s.packs_made, s.packs_reused), (3, 3), "{s:?}");
        }
        let cold = dir.path().join(format!("cold.{ext}"));
        compile(&map, &cold, None);
        assert_same(&again, &cold);

        // the next process's case: nothing in memory, all of it on disk
        let fresh = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
        let from_disk = dir.path().join(format!("from_disk.{ext}"));
        compile(&map, &from_disk, Some(&fresh));
        let s = fresh.stats();
        assert_eq!(s.tiles_encoded, 0, "{s:?}");
        assert_eq!(s.tiles_from_disk, total_tiles, "{s:?}");
        if ext == "sd7" {
            // every part of the edited map's large entries was packed once, in `first` or
            // `again`: the .smf, and the .smt's header and four blocks
            assert_eq!(s.packs_reused, 6, "{s:?}");
            assert_eq!(s.packs_made, 0, "{s:?}");
        }
        assert_same(&from_disk, &cold);
    }
    let Some(_) = common::referee_or_skip() else {
        return;
    };
    let map = {
        let mut m = noisy_map();
        edit(&mut m);
        m
    };
    for ext in ["sdd", "sd7"] {
        let v = common::validate_map(
            &dir.path().join(format!("from_disk.{ext}")),
            Some(&common::engine_expectation(&map)),
            None,
        );
        assert_eq!(v["lint_ok"], true, "lint: {}", v["lint"]);
    }
}

/// Flips bytes (`xor` with them) all through every file of the cache folder.
fn damage(dir: &Path, xor: u8) {
    for sub in ["tiles", "packs"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap().flatten() {
            let mut bytes = std::fs::read(e.path()).unwrap();
            let n = bytes.len();
            for at in (n / 3..n).step_by(997) {
                bytes[at] ^= xor;
            }
            std::fs::write(e.path(), bytes).unwrap();
        }
    }
}

#[test]
fn damaged_cache_files_are_ignored_and_the_bytes_stay_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let cache_dir = dir.path().join("cache");
    let map = noisy_map();
    for ext in ["sdd", "sd7"] {
        let warm = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
        compile(&map, &dir.path().join(format!("warm.{ext}")), Some(&warm));
    }
    damage(&cache_dir, 0x5a);
    for ext in ["sdd", "sd7"] {
        let cold = dir.path().join(format!("cold.{ext}"));
        compile(&map, &cold, None);
        let damaged = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
        let out = dir.path().join(format!("through_damage.{ext}"));
        compile(&map, &out, Some(&damaged));
        let s = damaged.stats();
        assert!(s.entries_rejected > 0, "{ext}: {s:?}");
        assert_same(&out, &cold);
        if ext == "sdd" {
            // the tiles were encoded again and kept anew: a clean segment now serves them
            damage(&cache_dir, 0x33);
        }
    }
    // a file that is not a cache file at all, under a segment's name and a pack's
    std::fs::write(
        cache_dir.join("tiles").join("junk.gwt"),
        b"GWTILES1 not really",
    )
    .unwrap();
    let packs: Vec<_> = std::fs::read_dir(cache_dir.join("packs"))
        .unwrap()
        .flatten()
        .collect();
    for p in packs {
        std::fs::write(p.path(), b"7z\xbc\xaf\x27\x1c junk").unwrap();
    }
    let junk = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
    let out = dir.path().join("through_junk.sd7");
    compile(&map, &out, Some(&junk));
    assert_same(&out, &dir.path().join("cold.sd7"));
}

#[test]
fn a_sdd_reexport_rewrites_only_the_files_that_changed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("map.sdd");
    let cache = Arc::new(CompileCache::memory_only());
    let mut map = noisy_map();
    compile(&map, &out, Some(&cache));
    let stray = out.join("maps").join("stray.txt");
    std::fs::write(&stray, b"left from an older export").unwrap();
    let modified = |rel: &str| {
        std::fs::metadata(out.join(rel))
            .unwrap()
            .modified()
            .unwrap()
    };
    let stem = map.settings.file_stem();
    let smf = format!("maps/{stem}.smf");
    let smt = format!("maps/{stem}.smt");
    let before = (modified("mapinfo.lua"), modified(&smf), modified(&smt));
    std::thread::sleep(std::time::Duration::from_millis(50));
    // heights only: the .smf changes, the .smt and mapinfo.lua do not
    for z in 10..20 {
        for x in 10..20 {
            let h = map.heights.get(x, z);
            map.heights.set(x, z, h + 10.0);
        }
    }
    compile(&map, &out, Some(&cache));
    assert_eq!(modified("mapinfo.lua"), before.0);
    assert_ne!(modified(&smf), before.1);
    assert_eq!(modified(&smt), before.2);
    // texels in the third map unit of rows: the .smt changes, mapinfo.lua does not
    std::thread::sleep(std::time::Duration::from_millis(50));
    let w = map.texture.width();
    for y in 1100..1200 {
        map.texture.rgba_mut()[(y * w + 40) * 4] ^= 0x80;
    }
    compile(&map, &out, Some(&cache));
    assert_ne!(modified(&smt), before.2);
    assert_eq!(modified("mapinfo.lua"), before.0);
    let smts = std::fs::read_dir(out.join("maps"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".smt"))
        .count();
    assert_eq!(smts, 1, "one .smt, as BAR's lobby reads");
    assert!(!stray.exists(), "a file the map no longer has stays");
    let cold = dir.path().join("cold.sdd");
    compile(&map, &cold, None);
    assert_same(&out, &cold);
    // nothing of the update is left beside the files
    let leftovers: Vec<_> = std::fs::read_dir(out.join("maps"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn repeated_tiles_come_back_from_disk_at_every_place() {
    // a flat ground with one noisy square: thousands of places share one tile
    let mut map = noisy_map();
    let w = map.texture.width();
    for (i, px) in map.texture.rgba_mut().chunks_exact_mut(4).enumerate() {
        let (x, y) = (i % w, i / w);
        if !(256..768).contains(&x) || !(256..768).contains(&y) {
            px.copy_from_slice(&[90, 120, 60, 255]);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let cache_dir = dir.path().join("cache");
    let warm = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
    compile(&map, &dir.path().join("warm.sdd"), Some(&warm));
    let fresh = Arc::new(CompileCache::on_disk(cache_dir, 1 << 30).without_memory());
    let out = dir.path().join("from_disk.sdd");
    compile(&map, &out, Some(&fresh));
    let s = fresh.stats();
    assert_eq!((s.tiles_encoded, s.tiles_from_disk), (0, 64 * 64), "{s:?}");
    let cold = dir.path().join("cold.sdd");
    compile(&map, &cold, None);
    assert_same(&out, &cold);
}

/// [`noisy_map`] with texture layers over it: rules of every kind (slope, height, shore,
/// curvature, noise), a painted mask and ambient occlusion, over hills that dip under water.
fn layered_map() -> Map {
    use groundwork::map::ground_layers::{
        AmbientOcclusion, Band, Bend, Breakup, Curvature, Material, TextureLayer,
    };
    use groundwork::map::materials::BuiltinMaterial;
    let mut m = noisy_map();
    let (hw, hh) = m.heights.dims();
    for z in 0..hh {
        for x in 0..hw {
            let h = 90.0 * (x as f32 * 0.05).sin() * (z as f32 * 0.04).cos() + 20.0;
            m.heights.set(x, z, h);
        }
    }
    let builtin = |kind| Material::Builtin {
        kind,
        scale_elmos: 256.0,
        tint: [1.0, 1.0, 1.0],
    };
    let mut grass = TextureLayer::new("Grass", builtin(BuiltinMaterial::Grass));
    grass.rules.slope_deg = Some(Band {
        min: 0.0,
        max: 12.0,
        soft: 8.0,
    });
    grass.rules.noise = Some(Breakup {
        seed: 1,
        scale_elmos: 300.0,
        amount: 0.4,
    });
    let mut sand = TextureLayer::new("Sand", builtin(BuiltinMaterial::Sand));
    sand.rules.near_water = Some(Band {
        min: 0.0,
        max: 48.0,
        soft: 48.0,
    });
    let mut rock = TextureLayer::new("Rock", builtin(BuiltinMaterial::Rock));
    rock.rules.slope_deg = Some(Band {
        min: 24.0,
        max: 90.0,
        soft: 8.0,
    });
    let mut snow = TextureLayer::new("Snow", builtin(BuiltinMaterial::Snow));
    snow.rules.height_elmos = Some(Band {
        min: 80.0,
        max: 400.0,
        soft: 20.0,
    });
    let mut dirt = TextureLayer::new("Dirt", builtin(BuiltinMaterial::Dirt));
    dirt.rules.curvature = Some(Curvature {
        bend: Bend::Valleys,
        min_elmos: 1.0,
        soft_elmos: 1.0,
    });
    let mut mud = TextureLayer::new("Mud", builtin(BuiltinMaterial::Mud));
    mud.rules.slope_deg = Some(Band {
        min: 90.0,
        max: 90.0,
        soft: 0.0,
    });
    let (mw, mh) = m.metal.dims();
    mud.mask = Some(groundwork::map::Grid::filled(mw, mh, 128));
    m.texture_layers = vec![grass, sand, rock, snow, dirt, mud];
    m.texture_ao = Some(AmbientOcclusion {
        strength: 0.5,
        radius_elmos: 96.0,
    });
    m
}

#[test]
fn a_layered_map_bakes_only_the_blocks_an_edit_reaches_and_the_bytes_stay_cold() {
    let dir = tempfile::tempdir().unwrap();
    let cache_dir = dir.path().join("cache");
    // 2048 x 2048 texels: 8 x 8 blocks of 256
    let blocks = 64;
    let mut map = layered_map();
    let cold = |map: &Map, name: &str| {
        let p = dir.path().join(format!("{name}.sd7"));
        compile(map, &p, None);
        p
    };
    let cache = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
    let through = |map: &Map, cache: &Arc<CompileCache>, name: &str| {
        let p = dir.path().join(format!("{name}.sd7"));
        compile(map, &p, Some(cache));
        (p, cache.stats())
    };
    let (first, s) = through(&map, &cache, "first");
    assert_eq!(
        (s.bake_blocks_baked, s.bake_blocks_reused),
        (blocks, 0),
        "{s:?}"
    );
    let reference = cold(&map, "cold_first");
    assert_same(&first, &reference);

    // nothing changed: nothing baked, no tile encoded
    let (same, s) = through(&map, &cache, "same");
    assert_eq!(
        (s.bake_blocks_baked, s.bake_blocks_reused),
        (0, blocks),
        "{s:?}"
    );
    assert_eq!(s.tiles_encoded, 0, "{s:?}");
    assert_same(&same, &reference);

    // a raise of 160 x 160 elmos: the blocks under it and around it, no others
    for z in 100..120 {
        for x in 60..80 {
            let h = map.heights.get(x, z);
            map.heights.set(x, z, h + 40.0);
        }
    }
    let (raised, s) = through(&map, &cache, "raised");
    assert!(
        (1..=9).contains(&s.bake_blocks_baked),
        "a raise baked {} blocks",
        s.bake_blocks_baked
    );
    assert_eq!(s.bake_blocks_baked + s.bake_blocks_reused, blocks);
    assert_same(&raised, &cold(&map, "cold_raised"));

    // a stroke of mask paint
    let mask = map.texture_layers[5].mask.as_mut().unwrap();
    for z in 20..30 {
        for x in 90..100 {
            mask.set(x, z, 255);
        }
    }
    let (painted, s) = through(&map, &cache, "painted");
    assert!((1..=4).contains(&s.bake_blocks_baked), "{s:?}");
    let reference = cold(&map, "cold_painted");
    assert_same(&painted, &reference);

    // the next process: everything from disk
    let fresh = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
    let (from_disk, s) = through(&map, &fresh, "from_disk");
    assert_eq!(
        (s.bake_blocks_baked, s.bake_blocks_reused),
        (0, blocks),
        "{s:?}"
    );
    assert_eq!(s.tiles_encoded, 0, "{s:?}");
    assert_same(&from_disk, &reference);

    // the tiles lost, the bakes kept: the blocks are baked again for their texels
    std::fs::remove_dir_all(cache_dir.join("tiles")).unwrap();
    let lost = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
    let (after_loss, s) = through(&map, &lost, "after_loss");
    assert_eq!(s.bake_blocks_baked, blocks, "{s:?}");
    assert_same(&after_loss, &reference);

    // damaged bake segments are ignored
    for e in std::fs::read_dir(cache_dir.join("bakes"))
        .unwrap()
        .flatten()
    {
        let mut bytes = std::fs::read(e.path()).unwrap();
        for at in (100..bytes.len()).step_by(331) {
            bytes[at] ^= 0x5a;
        }
        std::fs::write(e.path(), bytes).unwrap();
    }
    let damaged = Arc::new(CompileCache::on_disk(cache_dir.clone(), 1 << 30));
    let (through_damage, s) = through(&map, &damaged, "through_damage");
    assert!(s.entries_rejected > 0, "{s:?}");
    assert_same(&through_damage, &reference);

    let Some(_) = common::referee_or_skip() else {
        return;
    };
    let v = common::validate_map(&from_disk, Some(&common::engine_expectation(&map)), None);
    assert_eq!(v["lint_ok"], true, "lint: {}", v["lint"]);
}
