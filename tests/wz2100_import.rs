//! The Warzone 2100 importer against Debian's real game data (`warzone2100-data`): listing,
//! importing, start positions, metal spots and sea share checked against values read from the
//! source files here, independently of the importer; bad input; both file-format generations.

use std::io::Read;
use std::path::{Path, PathBuf};

use groundwork::formats::wz2100::{self, MapStatus};
use groundwork::import::wz2100::Wz2100Options;
use groundwork::map::Map;

/// Debian's `mp.wz`, or `$GROUNDWORK_WZ_DATA/mp.wz`.
fn mp_wz() -> Option<PathBuf> {
    let dir = std::env::var_os("GROUNDWORK_WZ_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(wz2100::SYSTEM_DATA_DIR));
    let p = dir.join("mp.wz");
    if p.is_file() {
        Some(p)
    } else {
        groundwork::test_support::skip("Warzone 2100 data (mp.wz) not found");
        None
    }
}

fn read_zip(archive: &Path, name: &str) -> Vec<u8> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(archive).unwrap()).unwrap();
    let mut f = z.by_name(name).unwrap();
    let mut v = Vec::new();
    f.read_to_end(&mut v).unwrap();
    v
}

fn json(archive: &Path, name: &str) -> serde_json::Value {
    serde_json::from_slice(&read_zip(archive, name)).unwrap()
}

/// The water tile count, read the plain way: ttypes.ttp gives the type of each tile number,
/// game.map (version 10, 3 bytes a tile) the tile number of each tile.
fn water_tiles(archive: &Path, folder: &str) -> (usize, u32, u32) {
    let t = read_zip(archive, &format!("multiplay/maps/{folder}/ttypes.ttp"));
    let n = u32::from_le_bytes(t[8..12].try_into().unwrap()) as usize;
    let types: Vec<u16> = (0..n)
        .map(|i| u16::from_le_bytes([t[12 + 2 * i], t[13 + 2 * i]]))
        .collect();
    let m = read_zip(archive, &format!("multiplay/maps/{folder}/game.map"));
    let w = u32::from_le_bytes(m[8..12].try_into().unwrap());
    let h = u32::from_le_bytes(m[12..16].try_into().unwrap());
    let water = (0..(w * h) as usize)
        .filter(|i| {
            let tex = u16::from_le_bytes([m[16 + 3 * i], m[17 + 3 * i]]);
            types[(tex & 0x1ff) as usize] == 7
        })
        .count();
    (water, w, h)
}

/// (player, x, y) of every command centre, in world units.
fn hq_positions(archive: &Path, folder: &str) -> Vec<(i64, f64, f64)> {
    let s = json(archive, &format!("multiplay/maps/{folder}/struct.json"));
    let mut v: Vec<(i64, f64, f64)> = s
        .as_object()
        .unwrap()
        .values()
        .filter(|o| o["name"] == "A0CommandCentre")
        .map(|o| {
            (
                o["startpos"].as_i64().unwrap(),
                o["position"][0].as_f64().unwrap(),
                o["position"][1].as_f64().unwrap(),
            )
        })
        .collect();
    v.sort_by_key(|p| p.0);
    v
}

/// Oil resources plus derricks not standing on one.
fn oil_count(archive: &Path, folder: &str) -> usize {
    let pos = |o: &serde_json::Value| {
        (
            o["position"][0].as_f64().unwrap(),
            o["position"][1].as_f64().unwrap(),
        )
    };
    let f = json(archive, &format!("multiplay/maps/{folder}/feature.json"));
    let oil: Vec<(f64, f64)> = f
        .as_object()
        .unwrap()
        .values()
        .filter(|o| o["name"] == "OilResource")
        .map(pos)
        .collect();
    let s = json(archive, &format!("multiplay/maps/{folder}/struct.json"));
    let lone_derricks = s
        .as_object()
        .unwrap()
        .values()
        .filter(|o| o["name"] == "A0ResourceExtractor")
        .map(pos)
        .filter(|d| !oil.iter().any(|o| o.0 == d.0 && o.1 == d.1))
        .count();
    oil.len() + lone_derricks
}

/// Metal peaks: connected groups of cells that hold the largest value in their 3x3 block.
fn metal_peaks(map: &Map) -> usize {
    let m = &map.metal;
    let (w, h) = m.dims();
    let is_peak = |x: usize, z: usize| {
        let v = m.get(x, z);
        if v == 0 {
            return false;
        }
        for dz in -1i64..=1 {
            for dx in -1i64..=1 {
                if m.get_clamped(x as i64 + dx, z as i64 + dz) > v {
                    return false;
                }
            }
        }
        true
    };
    let mut seen = vec![false; w * h];
    let mut groups = 0;
    for z in 0..h {
        for x in 0..w {
            if seen[z * w + x] || !is_peak(x, z) {
                continue;
            }
            groups += 1;
            let mut stack = vec![(x, z)];
            seen[z * w + x] = true;
            while let Some((cx, cz)) = stack.pop() {
                for (dx, dz) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                    let (nx, nz) = (cx as i64 + dx, cz as i64 + dz);
                    if nx < 0 || nz < 0 || nx >= w as i64 || nz >= h as i64 {
                        continue;
                    }
                    let (nx, nz) = (nx as usize, nz as usize);
                    if !seen[nz * w + nx] && m.get(nx, nz) == m.get(cx, cz) && is_peak(nx, nz) {
                        seen[nz * w + nx] = true;
                        stack.push((nx, nz));
                    }
                }
            }
        }
    }
    groups
}

#[test]
fn lists_every_map_in_mp_wz() {
    let Some(mp) = mp_wz() else { return };
    let maps = wz2100::list_maps(&mp).unwrap();
    assert_eq!(maps.len(), 44);
    let importable = maps
        .iter()
        .filter(|m| m.status == MapStatus::Importable)
        .count();
    let scripts: Vec<&str> = maps
        .iter()
        .filter(|m| m.status == MapStatus::ScriptGenerated)
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(importable, 39);
    assert_eq!(scripts.len(), 5, "{scripts:?}");
    let rush = maps.iter().find(|m| m.name == "4c-rush").unwrap();
    assert_eq!(rush.title, "Sk-Rush");
    assert_eq!(rush.players, Some(4));
    assert_eq!(rush.size_tiles, Some((92, 92)));
    assert_eq!(rush.tileset, Some(wz2100::Tileset::Arizona));
    let startup = maps.iter().find(|m| m.name == "2c-startup").unwrap();
    assert_eq!(startup.size_tiles, Some((64, 128)));
}

#[test]
fn script_generated_maps_are_refused_clearly() {
    let Some(mp) = mp_wz() else { return };
    let err =
        groundwork::import::wz2100::import(&mp, Some("6c-Entropy"), &Wz2100Options::default())
            .unwrap_err()
            .to_string();
    assert!(err.contains("script-generated"), "{err}");
    let err =
        groundwork::import::wz2100::import(&mp, Some("no-such-map"), &Wz2100Options::default())
            .unwrap_err()
            .to_string();
    assert!(
        err.contains("no map named") && err.contains("4c-rush"),
        "{err}"
    );
}

/// Start positions, metal spots and sea share of one map against the source files.
fn check_against_source(mp: &Path, folder: &str) {
    let (map, report) =
        groundwork::import::wz2100::import(mp, Some(folder), &Wz2100Options::default()).unwrap();
    map.check_layers().unwrap();
    let text = report.to_text();
    eprintln!("{text}");
    // start positions: HQ world position / 128 tiles, x 64 elmos, plus the centring offset
    let (water, w, h) = water_tiles(mp, folder);
    let off_x = ((map.size.width_elmos() - (w * 64) as f32) / 2.0 / 8.0).floor() * 8.0;
    let off_z = ((map.size.depth_elmos() - (h * 64) as f32) / 2.0 / 8.0).floor() * 8.0;
    let hqs = hq_positions(mp, folder);
    assert_eq!(map.teams.len(), hqs.len());
    for (team, (p, x, y)) in map.teams.iter().zip(&hqs) {
        let (ex, ez) = (off_x + *x as f32 / 2.0, off_z + *y as f32 / 2.0);
        assert!(
            (team.start_x_elmos - ex).abs() < 0.01 && (team.start_z_elmos - ez).abs() < 0.01,
            "player {p}: {team:?} vs ({ex}, {ez})"
        );
    }

    // metal: one peak and one standard dome (2000 bytes) per oil resource
    let spots = oil_count(mp, folder);
    assert_eq!(metal_peaks(&map), spots, "metal peaks");
    // and BAR's finder sees each dome as its own spot: none touch
    let bar = map.metal_report();
    assert!(bar.spots.iter().all(|p| p.domes == 1), "{:?}", bar.spots);
    let sum: u64 = map.metal.data().iter().map(|&b| b as u64).sum();
    let per = sum as f64 / spots as f64;
    assert!((per - 2000.0).abs() < 40.0, "{per} bytes per spot");
    assert_eq!(map.settings.max_metal, 1.0);
    assert_eq!(map.settings.extractor_radius_elmos, 90.0);

    // sea: the type map marks exactly the water tiles (16 cells each at 64 elmos per tile),
    // and the ground below y = 0 covers about the same share of the Warzone area
    let cells_water = map.types.data().iter().filter(|&&t| t == 7).count();
    let padded_extra = {
        // padding repeats edge tiles, so count only cells inside the Warzone area
        let (mw, mh) = map.types.dims();
        let (cx0, cz0) = ((off_x / 16.0) as usize, (off_z / 16.0) as usize);
        let mut n = 0;
        for z in 0..mh {
            for x in 0..mw {
                let inside =
                    x >= cx0 && x < cx0 + 4 * w as usize && z >= cz0 && z < cz0 + 4 * h as usize;
                if !inside && map.types.get(x, z) == 7 {
                    n += 1;
                }
            }
        }
        n
    };
    assert_eq!(cells_water - padded_extra, water * 16, "water cells");
    let (gx0, gz0) = ((off_x / 8.0) as usize, (off_z / 8.0) as usize);
    let (gw, gh) = (8 * w as usize, 8 * h as usize);
    let mut below = 0;
    for z in gz0..gz0 + gh {
        for x in gx0..gx0 + gw {
            if map.heights.get(x, z) < 0.0 {
                below += 1;
            }
        }
    }
    let sea_share = below as f64 / (gw * gh) as f64;
    let tile_share = water as f64 / (w * h) as f64;
    eprintln!("{folder}: water tiles {water} ({tile_share:.4}), ground below 0 {sea_share:.4}");
    assert!(
        (sea_share - tile_share).abs() < 0.02 + 0.1 * tile_share,
        "{sea_share} vs {tile_share}"
    );
    // dry land never sits at or below the water plane
    for z in gz0..gz0 + gh {
        for x in gx0..gx0 + gw {
            let tx = ((x - gx0) / 8).min(w as usize - 1);
            let tz = ((z - gz0) / 8).min(h as usize - 1);
            let t = map.types.get(gx0 / 2 + tx * 4 + 1, gz0 / 2 + tz * 4 + 1);
            if t != 7 && (x - gx0) % 8 == 4 && (z - gz0) % 8 == 4 {
                assert!(
                    map.heights.get(x, z) > 0.0,
                    "land at ({x}, {z}) is not above water"
                );
            }
        }
    }
}

#[test]
fn rush_matches_its_source_files() {
    let Some(mp) = mp_wz() else { return };
    check_against_source(&mp, "4c-rush");
}

#[test]
fn manhattan_matches_its_source_files() {
    let Some(mp) = mp_wz() else { return };
    check_against_source(&mp, "8c-manhattan");
}

/// With `GROUNDWORK_WZ_DUMP=DIR`, writes the ground texture (full and a quarter-size preview)
/// and a height preview of a few maps, to look at.
#[test]
fn dump_textures_when_asked() {
    let Some(dir) = std::env::var_os("GROUNDWORK_WZ_DUMP").map(PathBuf::from) else {
        return;
    };
    let Some(mp) = mp_wz() else { return };
    std::fs::create_dir_all(&dir).unwrap();
    for folder in ["4c-rush", "8c-manhattan", "2c-startup", "4c-mountain"] {
        let (map, _) =
            groundwork::import::wz2100::import(&mp, Some(folder), &Wz2100Options::default())
                .unwrap();
        let t = &map.texture;
        let img =
            image::RgbaImage::from_raw(t.width() as u32, t.height() as u32, t.rgba().to_vec())
                .unwrap();
        img.save(dir.join(format!("{folder}-texture.png"))).unwrap();
        let small = image::imageops::resize(
            &img,
            img.width() / 4,
            img.height() / 4,
            image::imageops::FilterType::Triangle,
        );
        small
            .save(dir.join(format!("{folder}-texture-quarter.png")))
            .unwrap();
        let (lo, hi) = map.heights.min_max();
        let (w, h) = map.heights.dims();
        let hm = image::GrayImage::from_fn(w as u32, h as u32, |x, z| {
            let v = map.heights.get(x as usize, z as usize);
            if v < 0.0 {
                image::Luma([0])
            } else {
                image::Luma([(40.0 + 215.0 * (v - lo.max(0.0)) / (hi - lo.max(0.0))) as u8])
            }
        });
        hm.save(dir.join(format!("{folder}-height.png"))).unwrap();
    }
}
