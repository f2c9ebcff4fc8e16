//! Writes seed inputs for every fuzz target into `fuzz/corpus/<target>/`: small maps and models
//! written by Groundwork itself, the real fixtures (`../shared/fixtures`), and Warzone 2100's
//! own maps (Debian's `warzone2100-data`) where they are installed. `fuzz/run.sh` runs it first.
//!
//! `cargo run --example fuzz_seeds -- [OUT] [FIXTURES] [WZ_DATA]`

use std::io::Read;
use std::path::{Path, PathBuf};

use groundwork::compile::{CompileOptions, Progress, build_map_files, compile_map};
use groundwork::edit::procedural::relief_map;
use groundwork::map::MapSize;

struct Seeds {
    out: PathBuf,
    count: usize,
}

impl Seeds {
    fn put(&mut self, target: &str, name: &str, bytes: &[u8]) {
        let dir = self.out.join(target);
        std::fs::create_dir_all(&dir).expect("the corpus folder can be made");
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        std::fs::write(dir.join(safe), bytes).expect("a seed can be written");
        self.count += 1;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = PathBuf::from(args.first().map(String::as_str).unwrap_or("fuzz/corpus"));
    let fixtures = PathBuf::from(
        args.get(1)
            .map(String::as_str)
            .unwrap_or("../shared/fixtures"),
    );
    let wz = PathBuf::from(
        args.get(2)
            .map(String::as_str)
            .unwrap_or("/usr/share/games/warzone2100"),
    );
    let mut seeds = Seeds { out, count: 0 };
    own_maps(&mut seeds);
    own_models(&mut seeds);
    own_documents(&mut seeds);
    own_cache(&mut seeds);
    fixture_files(&mut seeds, &fixtures);
    warzone(&mut seeds, &wz);
    println!("{} seeds in {}", seeds.count, seeds.out.display());
}

/// `smf` claiming 2^31 - 1 tiles, in numTiles and in its one tile file's count: a reader that
/// makes room for the claim before checking the tile file aborts on it.
fn huge_tile_count(smf: &[u8]) -> Vec<u8> {
    let mut b = smf.to_vec();
    let tiles_at = i32::from_le_bytes(b[60..64].try_into().unwrap()) as usize;
    for at in [tiles_at + 4, tiles_at + 8] {
        b[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    }
    b
}

/// A 2 x 2 map with metal and grass, compiled to every container, and its project.
fn own_maps(seeds: &mut Seeds) {
    let mut map = relief_map(MapSize::new(2, 2).unwrap(), 7, "Seed");
    map.metal.set(10, 10, 200);
    map.grass.set(3, 3, 120);
    let options = CompileOptions::default();
    let files = build_map_files(&map, &options, &Progress::none()).expect("the seed compiles");
    seeds.put("smf", "seed.smf", &files.smf);
    seeds.put(
        "smf",
        "seed_huge_tile_count.smf",
        &huge_tile_count(&files.smf),
    );
    seeds.put(
        "smt",
        "seed.smt",
        &files
            .smt_parts
            .iter()
            .flat_map(|p| p.iter().copied())
            .collect::<Vec<u8>>(),
    );
    seeds.put("mapinfo", "seed_mapinfo.lua", files.mapinfo.as_bytes());
    let tmp = std::env::temp_dir().join(format!("groundwork-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for ext in ["sdz", "sd7"] {
        let path = tmp.join(format!("Seed.{ext}"));
        compile_map(&map, &path, &options, &Progress::none()).expect("the seed archive");
        seeds.put(ext, &format!("seed.{ext}"), &std::fs::read(&path).unwrap());
    }
    let project = tmp.join("Seed");
    groundwork::formats::save_project(&map, &project).unwrap();
    for entry in std::fs::read_dir(&project).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        if name == "map.toml" {
            seeds.put("project_toml", &name, &bytes);
        }
    }
    // project_image picks the layer by its first byte, in the sorted order the target uses
    let mut layers: Vec<String> = std::fs::read_dir(&project)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "map.toml")
        .collect();
    layers.sort();
    for (i, name) in layers.iter().enumerate() {
        let bytes = std::fs::read(project.join(name)).unwrap();
        if bytes.len() < 512 << 10 {
            let mut seed = vec![i as u8];
            seed.extend_from_slice(&bytes);
            seeds.put("project_image", name, &seed);
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Groundwork's own text documents and pictures: every preset's recipe, an ops file of every
/// kind of stroke, a texture section of several layers, BC1 and BC3 DDS files, and an input
/// for the `.sd7` round trip.
fn own_documents(seeds: &mut Seeds) {
    use groundwork::map::recipe::{Preset, Recipe};
    for preset in Preset::ALL {
        let text = Recipe::preset(preset, 7).to_toml();
        seeds.put("recipe_toml", &format!("{preset}.toml"), text.as_bytes());
    }
    seeds.put("ops_toml", "strokes.toml", OPS.as_bytes());
    let spec = groundwork::edit::new_map::NewMap {
        width_units: 2,
        depth_units: 2,
        recipe: Some(Recipe::preset(Preset::Continental, 7)),
        ..Default::default()
    };
    if let Ok((map, _)) = groundwork::edit::new_map::new_map_generated(&spec) {
        let section = groundwork::formats::project::texture_section::TextureSection::from_layers(
            &map.texture_layers,
            map.texture_ao,
        );
        let text = toml::to_string(&section).expect("a section writes as TOML");
        seeds.put("texture_section", "generated.toml", text.as_bytes());
    }
    let rgba: Vec<u8> = (0..32 * 32 * 4).map(|i| (i * 37 % 251) as u8).collect();
    use groundwork::formats::dds::{write_dds_bc1, write_dds_bc3};
    seeds.put(
        "dds",
        "seed_bc1.dds",
        &write_dds_bc1(&rgba, 32, 32).unwrap(),
    );
    seeds.put(
        "dds",
        "seed_bc3.dds",
        &write_dds_bc3(&rgba, 32, 32).unwrap(),
    );
    // the round trip's input: per file a name length, the name, a u16 length, the bytes
    let mut roundtrip = Vec::new();
    for (name, bytes) in [
        ("mapinfo.lua", b"return { name = 'Seed' }".as_slice()),
        ("maps/seed.smf", &rgba[..3000]),
        ("maps/seed.smt", &[0u8; 700]),
    ] {
        roundtrip.push(name.len() as u8 - 1);
        roundtrip.extend(name.bytes().map(|c| {
            b"abcdefghijklmnopqrstuvwxyz0123456789_./"
                .iter()
                .position(|&n| n == c)
                .unwrap() as u8
        }));
        roundtrip.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
        roundtrip.extend_from_slice(bytes);
    }
    seeds.put("sd7_roundtrip", "three_files", &roundtrip);
}

/// One stroke of every tool, the file `tests/edit_ops.rs` runs.
const OPS: &str = include_str!("../tests/data/every_tool.ops.toml");

/// The compile cache's files after a compile of a small generated map (a tile segment, a bake
/// segment, packed parts), each whole, behind the pick byte that leaves it as it is.
fn own_cache(seeds: &mut Seeds) {
    use groundwork::map::recipe::{Preset, Recipe};
    let tmp = std::env::temp_dir().join(format!("groundwork-seed-cache-{}", std::process::id()));
    let spec = groundwork::edit::new_map::NewMap {
        width_units: 2,
        depth_units: 2,
        recipe: Some(Recipe::preset(Preset::Continental, 7)),
        ..Default::default()
    };
    let Ok((map, _)) = groundwork::edit::new_map::new_map_generated(&spec) else {
        return;
    };
    let cache = groundwork::compile::CompileCache::on_disk(tmp.join("cache"), 1 << 30);
    let options = CompileOptions {
        cache: Some(std::sync::Arc::new(cache)),
        ..CompileOptions::default()
    };
    if compile_map(&map, &tmp.join("Seed.sd7"), &options, &Progress::none()).is_ok() {
        for (kind, target) in [
            ("tiles", "tile_cache"),
            ("bakes", "bake_cache"),
            ("packs", "pack_cache"),
        ] {
            for path in walk(&tmp.join("cache").join(kind)) {
                let mut bytes = std::fs::read(&path).unwrap_or_default();
                if target != "pack_cache" {
                    bytes.insert(0, 0);
                }
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                seeds.put(target, &name, &bytes);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// S3O models written by Groundwork: two pieces, a quad list under the root and a strip with
/// a restart in the child; and the same with the child's children pointing back at the root.
fn own_models(seeds: &mut Seeds) {
    use groundwork::formats::s3o::{S3O_HEADER_BYTES, S3O_PIECE_BYTES, example_model, write_s3o};
    let model = example_model();
    let bytes = write_s3o(&model);
    seeds.put("s3o", "seed.s3o", &bytes);
    // the tip's children: the root's array (which holds the top), so the top is reached twice
    let mut looped = bytes.clone();
    let field = |piece: usize, at: usize| S3O_HEADER_BYTES + piece * S3O_PIECE_BYTES + at;
    let root_children = looped[field(0, 8)..field(0, 12)].to_vec();
    looped[field(2, 4)..field(2, 8)].copy_from_slice(&1i32.to_le_bytes());
    looped[field(2, 8)..field(2, 12)].copy_from_slice(&root_children);
    seeds.put("s3o", "seed_looped.s3o", &looped);
}

/// The fixtures' `mapinfo.lua` and Lua files, `.smf`, and StarCraft II maps with their files.
fn fixture_files(seeds: &mut Seeds, fixtures: &Path) {
    for path in walk(&fixtures.join("bar")) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let lower = name.to_ascii_lowercase();
        let bytes = std::fs::read(&path).unwrap_or_default();
        if lower.ends_with(".lua") && bytes.len() < 256 << 10 {
            seeds.put("mapinfo", &name, &bytes);
        }
        if lower.ends_with(".s3o") && bytes.len() < 1 << 20 {
            seeds.put("s3o", &name, &bytes);
        }
        if lower.ends_with(".dds") && bytes.len() < 1 << 20 {
            seeds.put("dds", &name, &bytes);
        }
    }
    for path in walk(&fixtures.join("sc2")) {
        let bytes = std::fs::read(&path).unwrap_or_default();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        seeds.put("sc2_mpq", &name, &bytes);
        let Ok(mut archive) = groundwork::formats::sc2::mpq::Sc2Archive::open(&path) else {
            continue;
        };
        // the parser sc2_files picks by its first byte, as the target numbers them
        let parsers: [(&str, u8); 8] = [
            ("MapInfo", 0),
            ("t3Terrain.xml", 1),
            ("t3SyncHeightMap", 3),
            ("t3SyncCliffLevel", 4),
            ("Objects", 5),
            ("t3TextureMasks", 6),
            ("Minimap.tga", 7),
            ("GameStrings.txt", 8),
        ];
        let names = archive.list();
        let xml = archive.read("t3Terrain.xml").ok().flatten();
        for file in &names {
            let base = file.rsplit(['\\', '/']).next().unwrap_or(file);
            let Ok(Some(data)) = archive.read(file) else {
                continue;
            };
            if data.len() > 1 << 20 {
                continue;
            }
            for (want, pick) in parsers {
                if base.eq_ignore_ascii_case(want) {
                    let mut seed = vec![pick];
                    seed.extend_from_slice(&data);
                    seeds.put("sc2_files", &format!("{name}_{base}"), &seed);
                }
            }
            if base.eq_ignore_ascii_case("t3HeightMap")
                && let Some(xml) = &xml
            {
                let mut seed = vec![2];
                seed.extend_from_slice(&(xml.len() as u16).to_le_bytes());
                seed.extend_from_slice(xml);
                seed.extend_from_slice(&data);
                seeds.put("sc2_files", &format!("{name}_{base}"), &seed);
            }
        }
    }
    if let Ok(bytes) = std::fs::read(fixtures.join("bar/Great_Divide.smf")) {
        // whole, it is megabytes: the fuzzer mutates the header and the first tables
        seeds.put(
            "smf",
            "Great_Divide_head.smf",
            &bytes[..bytes.len().min(1 << 20)],
        );
    }
}

/// Warzone 2100's maps from its data archives: a few of each file the importer reads.
fn warzone(seeds: &mut Seeds, data: &Path) {
    for wz in ["mp.wz", "base.wz"] {
        let Ok(file) = std::fs::File::open(data.join(wz)) else {
            continue;
        };
        let Ok(mut zip) = zip::ZipArchive::new(file) else {
            continue;
        };
        let mut taken = std::collections::HashMap::<&str, usize>::new();
        for i in 0..zip.len() {
            let Ok(mut entry) = zip.by_index(i) else {
                continue;
            };
            let Ok(name) = entry.name().map(|n| n.to_string()) else {
                continue;
            };
            let lower = name.to_ascii_lowercase();
            let target = if lower.ends_with("game.map") {
                "wz_map"
            } else if lower.ends_with(".ttp") {
                "wz_ttypes"
            } else if lower.ends_with(".gam") {
                "wz_gam"
            } else if lower.ends_with("struct.json")
                || lower.ends_with("feature.json")
                || lower.ends_with("droid.json")
            {
                "wz_objects"
            } else if lower.ends_with(".lev") || lower.ends_with("level.json") {
                "wz_lev"
            } else {
                continue;
            };
            let n = taken.entry(target).or_default();
            if *n >= 8 || entry.size() > 256 << 10 {
                continue;
            }
            *n += 1;
            let mut bytes = Vec::new();
            if entry.read_to_end(&mut bytes).is_ok() {
                seeds.put(target, &format!("{wz}_{name}"), &bytes);
            }
        }
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
