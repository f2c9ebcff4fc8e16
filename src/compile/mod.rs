//! The export pipeline: document to archive, in stages (quantise heights, tiles, minimap,
//! assemble `.smf`/`.smt`/`mapinfo.lua`, pack), each reporting progress and checking cancel.
//! The same document always gives the same bytes, and nothing appears at the output path
//! unless the whole archive was written.

mod bake_cache;
pub mod cache;
mod cached;
pub mod featureplacer;
mod progress;
pub mod splats;
mod tiles;

pub use cache::{CacheStats, CompileCache};
pub use progress::{Progress, Stage};
pub use tiles::{TileSet, build_tiles, build_tiles_cached};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::formats::FormatError;
use crate::formats::archive::{ArchiveFile, ArchiveKind, PackStore, write_archive_cached};
use crate::formats::bc1::Bc1Quality;
use crate::formats::mapinfo::{mapinfo_table, write_mapinfo};
use crate::formats::minimap::{encode_minimap, encode_minimap_pixels};
use crate::formats::smf::{
    MAX_FEATURE_NAME_CHARS, SmfFeature, SmfFile, SmfTileFile, builtin_feature_types, write_smf,
};
use crate::map::{FeaturePlacement, Map};

pub use crate::map::ground_bake::{BakeFn, Baker};

/// How to compile.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    pub quality: Bc1Quality,
    /// Where the texture layers are baked (the GPU's `gpu::bake::bake_with_headless_gpu`);
    /// `None`: on the CPU. Either gives the same texture within a level a channel.
    pub baker: Option<Baker>,
    /// The tiles and packed streams of earlier compiles ([`CompileCache`]); `None`: everything
    /// is encoded and packed anew. The bytes are the same either way.
    pub cache: Option<std::sync::Arc<CompileCache>>,
}

/// The files of a compiled map, before packing.
pub struct CompiledMap {
    /// Archive path of the `.smf` (`maps/<stem>.smf`).
    pub smf_path: String,
    pub smf: Vec<u8>,
    /// Archive path of the one `.smt` (`maps/<stem>.smt`).
    pub smt_path: String,
    /// Its bytes in parts: the header, then a block of tiles per map unit of rows (shared with
    /// the compile cache). Their concatenation is the file.
    pub smt_parts: Vec<std::sync::Arc<Vec<u8>>>,
    pub mapinfo: String,
    /// Further files the map needs (the splat distribution and detail normals), by archive path.
    pub extra_files: Vec<(String, Vec<u8>)>,
    pub tiles_total: usize,
    pub tiles_distinct: usize,
    pub warnings: Vec<String>,
    pub stage_times: Vec<(Stage, Duration)>,
}

/// What a compile made.
#[derive(Clone, Debug)]
pub struct CompileReport {
    pub archive: PathBuf,
    pub archive_bytes: u64,
    pub tiles_total: usize,
    pub tiles_distinct: usize,
    pub warnings: Vec<String>,
    pub stage_times: Vec<(Stage, Duration)>,
}

/// A deterministic non-zero map id from the map's name.
fn map_id(name: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    (h | 1) as i32 & i32::MAX
}

/// Checks what the engine would choke on, and says what the compile changes (clamped heights).
fn check_document(map: &Map) -> Result<Vec<String>, FormatError> {
    let bad = |d: String| FormatError::invalid("map", d);
    map.check_layers().map_err(|e| bad(e.to_string()))?;
    let s = &map.settings;
    let range_ok = s.max_height_elmos > s.min_height_elmos;
    if !range_ok {
        return Err(bad(format!(
            "max height {} must be above min height {}",
            s.max_height_elmos, s.min_height_elmos
        )));
    }
    for f in &map.features {
        if f.name.is_empty() {
            return Err(bad(
                "a feature has an empty name (an empty feature type has crashed the engine)".into(),
            ));
        }
        if f.name.len() > MAX_FEATURE_NAME_CHARS
            && map.settings.feature_placement == FeaturePlacement::Smf
        {
            return Err(bad(format!(
                "feature name {:?} is longer than the {MAX_FEATURE_NAME_CHARS} characters the .smf block keeps (feature_placement = \"featureplacer\" in map.toml's [map] takes it)",
                f.name
            )));
        }
    }
    // what a mapmaker should know is the lint's (`crate::lint`), which callers run with the
    // installed game in view; here only what the compile itself changes
    let mut warnings = Vec::new();
    let (lo, hi) = (s.min_height_elmos, s.max_height_elmos);
    let clipped = map
        .heights
        .data()
        .iter()
        .filter(|&&h| h < lo || h > hi)
        .count();
    if clipped > 0 {
        warnings.push(format!(
            "{clipped} heights lie outside {lo}..{hi} elmos and were clamped; widen min/max height"
        ));
    }
    Ok(warnings)
}

/// The ground texture with the map's material layers baked in: pictures are the map's own
/// bundled files, decoded here.
pub fn bake_texture(map: &Map) -> Result<crate::map::GroundTexture, FormatError> {
    bake_texture_with(map, None)
}

/// [`bake_texture`] through `baker` (the CPU when `None`).
pub fn bake_texture_with(
    map: &Map,
    baker: Option<&Baker>,
) -> Result<crate::map::GroundTexture, FormatError> {
    let images = layer_images(map)?;
    bake_whole(map, &images, baker)
}

/// The whole texture baked through `baker` (the CPU when `None`), with the occlusion.
fn bake_whole(
    map: &Map,
    images: &[Option<crate::map::ground_layers::MaterialImage>],
    baker: Option<&Baker>,
) -> Result<crate::map::GroundTexture, FormatError> {
    Ok(match baker {
        Some(b) => {
            let mut baked =
                (b.bake)(map, images).map_err(|e| FormatError::invalid("texture layers", e))?;
            if let Some(ao) = map.texture_ao {
                crate::map::ground_layers::apply_ambient_occlusion(&mut baked, map, ao);
            }
            baked
        }
        // the CPU's bake darkens by the occlusion itself
        None => crate::map::ground_bake::bake(map, images),
    })
}

/// The stack checked, and each layer's picture: the built-ins made, the map's bundled
/// pictures decoded.
fn layer_images(
    map: &Map,
) -> Result<Vec<Option<crate::map::ground_layers::MaterialImage>>, FormatError> {
    use crate::map::ground_layers::{MaterialImage, check_stack, material_images};
    check_stack(&map.texture_layers, map.size.metal_cells())
        .map_err(|e| FormatError::invalid("texture layers", e))?;
    let picture = |file: &str| -> Result<MaterialImage, String> {
        let f = map
            .bundled_files
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case(file))
            .ok_or_else(|| format!("the picture {file} is not among the map's files (archive/)"))?;
        let bytes = f.bytes().map_err(|e| format!("{file}: {e}"))?;
        let (rgba, width, height) = crate::formats::image_file::decode_rgba(&bytes, file, 4096)
            .map_err(|e| e.to_string())?;
        Ok(MaterialImage {
            width,
            height,
            rgba,
        })
    };
    material_images(&map.texture_layers, &picture)
        .map_err(|e| FormatError::invalid("texture layers", e))
}

/// The tiles of the baked texture and the texture (baked where its texels were needed) through
/// the compile cache: only the blocks whose inputs changed are baked ([`bake_cache`]); the
/// minimap's largest level comes from the blocks' sums.
fn bake_and_tile_cached<'m>(
    map: &'m Map,
    options: &CompileOptions,
    cache: &CompileCache,
    progress: &Progress,
    bake_done: &mut dyn FnMut(),
) -> Result<
    (
        TileSet,
        std::borrow::Cow<'m, crate::map::GroundTexture>,
        Vec<u8>,
    ),
    FormatError,
> {
    use crate::formats::minimap::MINIMAP_TEXELS;
    use crate::map::ground_bake::{Baking, block_grid};
    use bake_cache::{block_tiles, copy_blocks, entries_after};
    use std::sync::atomic::{AtomicU64, Ordering};
    let images = layer_images(map)?;
    let baking = Baking::new(map, &images);
    let (w, h) = (map.texture.width(), map.texture.height());
    let (bx, by) = block_grid(w, h);
    let blocks = bx * by;
    let baker_name = options
        .baker
        .as_ref()
        .map_or_else(|| "cpu".to_string(), |b| format!("gpu {}", b.name));
    let keys = baking.block_keys(&baker_name);
    let tiles_of: Vec<Vec<usize>> = (0..blocks).map(|b| block_tiles(b, w, h)).collect();
    // an entry that does not fit its block (another size) is no entry
    let entries: Vec<Option<std::sync::Arc<bake_cache::BakeEntry>>> = cache
        .bake_entries(&keys)
        .into_iter()
        .enumerate()
        .map(|(b, e)| {
            e.filter(|e| {
                e.tile_keys.len() == tiles_of[b].len()
                    && e.minimap_sums.len()
                        == bake_cache::block_minimap_count(b, w, h, MINIMAP_TEXELS)
            })
        })
        .collect();
    let wanted: Vec<bool> = entries.iter().map(Option::is_none).collect();
    let rows_wanted =
        (wanted.iter().filter(|&&w| w).count() * bake_cache_rows(h, by)).max(1) as u64;
    let rows_done = AtomicU64::new(0);
    let bake_blocks =
        |tex: &mut crate::map::GroundTexture, which: &[bool]| -> Result<(), FormatError> {
            match &options.baker {
                None => baking.bake_blocks(tex.rgba_mut(), which, &|| {
                    let n = rows_done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(64) {
                        progress.report(Stage::Bake, n.min(rows_wanted), rows_wanted);
                    }
                    !progress.is_cancelled()
                }),
                Some(_) => {
                    let whole = bake_whole(map, &images, options.baker.as_ref())?;
                    copy_blocks(tex, &whole, which);
                }
            }
            progress.check()
        };
    // the document's texture as it is until a block must be baked into it (a copy then)
    let mut texture = std::borrow::Cow::Borrowed(&map.texture);
    if wanted.contains(&true) {
        bake_blocks(texture.to_mut(), &wanted)?;
    }
    progress.report(Stage::Bake, rows_wanted, rows_wanted);
    bake_done();
    // the tiles of the blocks not baked are known by key; should the tile cache have lost
    // some, their blocks are baked now
    let tiles_x = w / crate::formats::smt::TILE_TEXELS;
    let tile_count = tiles_x * (h / crate::formats::smt::TILE_TEXELS);
    let mut known = vec![None; tile_count];
    let mut block_of = vec![0u32; tile_count];
    for (b, tiles) in tiles_of.iter().enumerate() {
        for (n, &t) in tiles.iter().enumerate() {
            block_of[t] = b as u32;
            if let Some(e) = &entries[b] {
                known[t] = Some(e.tile_keys[n]);
            }
        }
    }
    let filled = std::sync::Mutex::new(vec![false; blocks]);
    let fill = |tex: &mut crate::map::GroundTexture, lost: &[bool]| -> Result<(), FormatError> {
        let mut which = vec![false; blocks];
        for (t, _) in lost.iter().enumerate().filter(|(_, l)| **l) {
            which[block_of[t] as usize] = true;
        }
        bake_blocks(tex, &which)?;
        let mut f = filled.lock().unwrap_or_else(|e| e.into_inner());
        for (f, w) in f.iter_mut().zip(&which) {
            *f |= *w;
        }
        Ok(())
    };
    let known = tiles::KnownTiles {
        keys: known,
        fill: &fill,
    };
    let tiles = tiles::build_tiles_known(
        &mut texture,
        options.quality,
        progress,
        Some(cache),
        Some(&known),
    )?;
    let filled = filled.into_inner().unwrap_or_else(|e| e.into_inner());
    let baked: Vec<bool> = wanted.iter().zip(&filled).map(|(a, b)| *a || *b).collect();
    let kept = entries_after(
        &texture,
        &tiles.tile_keys,
        &keys,
        entries,
        &baked,
        MINIMAP_TEXELS,
    );
    let sums: Vec<&[[u32; 4]]> = kept
        .iter()
        .map(|(_, e, _)| e.minimap_sums.as_slice())
        .collect();
    let level = bake_cache::minimap_from_sums(&sums, w, h, MINIMAP_TEXELS)
        .unwrap_or_else(|| texture.box_filtered_square(MINIMAP_TEXELS));
    cache.keep_bake_entries(kept);
    Ok((tiles, texture, level))
}

/// Texel rows in one block row of a texture `height` texels down with `blocks_down` rows of
/// blocks.
fn bake_cache_rows(height: usize, blocks_down: usize) -> usize {
    height.div_ceil(blocks_down.max(1))
}

/// The `.smf`, `.smt` and `mapinfo.lua` for a document.
pub fn build_map_files(
    map: &Map,
    options: &CompileOptions,
    progress: &Progress,
) -> Result<CompiledMap, FormatError> {
    let mut stage_times = Vec::new();
    let mut timer = Instant::now();
    let lap = |stage: Stage, times: &mut Vec<(Stage, Duration)>, timer: &mut Instant| {
        times.push((stage, timer.elapsed()));
        *timer = Instant::now();
    };

    progress.report(Stage::Heights, 0, 1);
    let warnings = check_document(map)?;
    let heights = map.height_words();
    progress.report(Stage::Heights, 1, 1);
    lap(Stage::Heights, &mut stage_times, &mut timer);
    progress.check()?;

    // the material layers baked over the picture; none: the picture itself, untouched
    if let Some(c) = &options.cache {
        c.reset_stats();
    }
    let plain = map.texture_layers.is_empty() && map.texture_ao.is_none();
    let (tiles, texture, level) = match (&options.cache, plain) {
        (_, true) => {
            // nothing to bake: the stage passes at once, so progress still runs through it
            progress.report(Stage::Bake, 1, 1);
            lap(Stage::Bake, &mut stage_times, &mut timer);
            let tiles = build_tiles_cached(
                &map.texture,
                options.quality,
                progress,
                options.cache.as_deref(),
            )?;
            (tiles, std::borrow::Cow::Borrowed(&map.texture), None)
        }
        (Some(c), false) => {
            let mut baked_at = None;
            let (tiles, texture, level) =
                bake_and_tile_cached(map, options, c, progress, &mut || {
                    baked_at = Some(Instant::now())
                })?;
            // the bake's time, then the tiles' from its end
            let baked_at = baked_at.unwrap_or(timer);
            stage_times.push((Stage::Bake, baked_at - timer));
            stage_times.push((Stage::Tiles, baked_at.elapsed()));
            timer = Instant::now();
            (tiles, texture, Some(level))
        }
        (None, false) => {
            progress.report(Stage::Bake, 0, 1);
            let baked = bake_texture_with(map, options.baker.as_ref())?;
            progress.report(Stage::Bake, 1, 1);
            progress.check()?;
            lap(Stage::Bake, &mut stage_times, &mut timer);
            let tiles = build_tiles_cached(&baked, options.quality, progress, None)?;
            (tiles, std::borrow::Cow::Owned(baked), None)
        }
    };
    if !matches!((&options.cache, plain), (Some(_), false)) {
        lap(Stage::Tiles, &mut stage_times, &mut timer);
    }
    let texture: &crate::map::GroundTexture = &texture;

    progress.report(Stage::Minimap, 0, 1);
    let encode = || match level {
        Some(level) => encode_minimap_pixels(level, options.quality),
        None => encode_minimap(texture, options.quality),
    };
    let minimap = match (&options.cache, &tiles.texture_key) {
        (Some(c), Some(key)) => c.minimap(key, encode).to_vec(),
        _ => encode(),
    };
    progress.report(Stage::Minimap, 1, 1);
    lap(Stage::Minimap, &mut stage_times, &mut timer);
    progress.check()?;

    progress.report(Stage::Assemble, 0, 1);
    let stem = map.settings.file_stem();
    let smf_path = format!("maps/{stem}.smf");
    // one .smt, as the engine's own tools write: BAR's lobby reads the first one alone
    let smt_name = format!("{stem}.smt");
    let smt_path = format!("maps/{smt_name}");
    let smt_parts = tiles.smt_parts();
    let mut feature_types = builtin_feature_types();
    // BAR's feature placer places them at game start instead: the block stays empty
    let in_smf = map.settings.feature_placement == FeaturePlacement::Smf;
    let features = map
        .features
        .iter()
        .filter(|_| in_smf)
        .map(|f| {
            let type_index = match feature_types.iter().position(|n| *n == f.name) {
                Some(i) => i,
                None => {
                    feature_types.push(f.name.clone());
                    feature_types.len() - 1
                }
            };
            SmfFeature {
                type_index: type_index as u32,
                x_elmos: f.x_elmos,
                y_elmos: 0.0,
                z_elmos: f.z_elmos,
                heading: SmfFeature::heading_from_deg(f.rotation_deg),
                relative_size: 1.0,
            }
        })
        .collect();
    let distinct = tiles.distinct_count();
    let smf = SmfFile {
        map_id: map_id(&map.settings.versioned_name()),
        mapx: map.size.squares_x(),
        mapy: map.size.squares_z(),
        min_height_elmos: map.settings.min_height_elmos,
        max_height_elmos: map.settings.max_height_elmos,
        heights,
        types: map.types.data().to_vec(),
        minimap,
        metal: map.metal.data().to_vec(),
        grass: Some(map.grass.data().to_vec()),
        tile_files: vec![SmfTileFile {
            tile_count: distinct as u32,
            name: smt_name,
        }],
        tile_index: tiles.index,
        feature_types,
        features,
    };
    let smf_bytes = write_smf(&smf);
    let mut table = mapinfo_table(
        &map.settings,
        &map.teams,
        &smf_path,
        std::slice::from_ref(&smt_path),
    );
    let splats = splats::build_splats(map)?;
    if let Some(s) = &splats {
        splats::add_to_mapinfo(&mut table, s);
    }
    let mapinfo = write_mapinfo(&table);
    let mut extra_files = splats.map(|s| s.files).unwrap_or_default();
    if !in_smf {
        extra_files.extend(featureplacer::files(map));
    }
    progress.report(Stage::Assemble, 1, 1);
    lap(Stage::Assemble, &mut stage_times, &mut timer);
    Ok(CompiledMap {
        smf_path,
        smf: smf_bytes,
        smt_path,
        smt_parts,
        mapinfo,
        extra_files,
        tiles_total: smf.tile_index.len(),
        tiles_distinct: distinct,
        warnings,
        stage_times,
    })
}

/// Compiles `map` into the archive `out` (`.sd7`, `.sdz` or `.sdd`, by extension).
pub fn compile_map(
    map: &Map,
    out: &Path,
    options: &CompileOptions,
    progress: &Progress,
) -> Result<CompileReport, FormatError> {
    if ArchiveKind::from_path(out).is_none() {
        return Err(FormatError::invalid(
            out.display().to_string(),
            "the output must end in .sd7, .sdz or .sdd",
        ));
    }
    let compiled = build_map_files(map, options, progress)?;
    let CompiledMap {
        smf_path,
        smf,
        smt_path,
        smt_parts,
        mapinfo,
        extra_files,
        tiles_total,
        tiles_distinct,
        mut warnings,
        mut stage_times,
    } = compiled;
    let started = Instant::now();
    let mut ours = vec![
        "mapinfo.lua".to_string(),
        smf_path.clone(),
        smt_path.clone(),
    ];
    // BAR's map parser unpacks only maps/ from a zip: it reads its settings from an .smd
    // there (the engine reads mapinfo.lua)
    let smd = (ArchiveKind::from_path(out) == Some(ArchiveKind::Sdz)).then(|| {
        let path = format!("{}.smd", smf_path.trim_end_matches(".smf"));
        let text = crate::formats::smd::write_smd(&map.settings, &map.teams);
        ArchiveFile::new(path, text.into_bytes())
    });
    ours.extend(smd.iter().map(|f| f.path.clone()));
    ours.extend(extra_files.iter().map(|(p, _)| p.clone()));
    let mut files = vec![
        ArchiveFile::new("mapinfo.lua".into(), mapinfo.into_bytes()),
        ArchiveFile::new(smf_path, smf),
    ];
    files.push(ArchiveFile::in_parts(smt_path, smt_parts));
    files.extend(smd);
    files.extend(extra_files.into_iter().map(|(p, b)| ArchiveFile::new(p, b)));
    for f in &map.bundled_files {
        if ours.iter().any(|o| o.eq_ignore_ascii_case(&f.path)) {
            warnings.push(format!(
                "the bundled file {} is replaced by the compiled one",
                f.path
            ));
        } else {
            files.push(f.clone());
        }
    }
    let mut pack_progress = |done: u64, total: u64| {
        progress.report(Stage::Pack, done, total);
        !progress.is_cancelled()
    };
    let packs = options.cache.as_deref().map(|c| c as &dyn PackStore);
    write_archive_cached(out, &files, &mut pack_progress, packs)?;
    stage_times.push((Stage::Pack, started.elapsed()));
    let archive_bytes = archive_size(out);
    Ok(CompileReport {
        archive: out.to_path_buf(),
        archive_bytes,
        tiles_total,
        tiles_distinct,
        warnings,
        stage_times,
    })
}

fn archive_size(path: &Path) -> u64 {
    if path.is_dir() {
        let mut total = 0;
        let mut stack = vec![path.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                match e.file_type() {
                    Ok(t) if t.is_dir() => stack.push(e.path()),
                    _ => total += e.metadata().map_or(0, |m| m.len()),
                }
            }
        }
        total
    } else {
        std::fs::metadata(path).map_or(0, |m| m.len())
    }
}
