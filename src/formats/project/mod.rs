//! The project folder, the editable form of a map and the CLI's input: `map.toml` (settings,
//! teams, terrain types, features) beside optional layer images, and `archive/` for files the
//! map's archive carries unchanged.
//!
//! ```text
//! MyMap/
//!   map.toml      settings
//!   height.png    16-bit grey, (64W+1) x (64H+1): each pixel is the raw engine height word
//!   texture.png   RGB or RGBA, 512W x 512H (texture.bmp/.tga/.jpg are read too)
//!   metal.png     8-bit grey, 32W x 32H (metal = byte x max_metal)
//!   grass.png     8-bit grey, 16W x 16H
//!   type.png      8-bit grey, 32W x 32H (index into terrain_types)
//!   archive/      extra files packed as they are (features, textures, mapconfig/, LuaGaia/)
//! ```

mod images;
mod png_strips;

pub use images::{MAX_GREY_SIDE, read_grey_unit, write_height_words};
mod schema;
pub mod texture_section;

use std::path::{Path, PathBuf};

use super::FormatError;
use super::map_reader::LoadedMap;
use crate::map::{BundledFile, Grid, GroundTexture, Map, word_to_height};
use schema::ProjectToml;

pub const PROJECT_FILE: &str = "map.toml";
const BUNDLED_DIR: &str = "archive";
/// Texture file names tried in order.
const TEXTURE_FILES: [&str; 4] = ["texture.png", "texture.bmp", "texture.tga", "texture.jpg"];

/// True when `dir` is a project folder (it has a `map.toml`).
pub fn is_project(dir: &Path) -> bool {
    dir.join(PROJECT_FILE).is_file()
}

/// Where a project's files are read from.
enum ProjectFiles<'a> {
    Folder(&'a Path),
    /// Files built into the binary, by name, and what errors call their folder.
    BuiltIn(&'a [(&'a str, &'static [u8])], &'a str),
}

impl ProjectFiles<'_> {
    fn path(&self, name: &str) -> PathBuf {
        match self {
            ProjectFiles::Folder(dir) => dir.join(name),
            ProjectFiles::BuiltIn(_, label) => Path::new(label).join(name),
        }
    }
    fn built_in(&self, name: &str) -> Option<&'static [u8]> {
        match self {
            ProjectFiles::Folder(_) => None,
            ProjectFiles::BuiltIn(files, _) => {
                files.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
            }
        }
    }
    fn has(&self, name: &str) -> bool {
        match self {
            ProjectFiles::Folder(dir) => dir.join(name).is_file(),
            ProjectFiles::BuiltIn(..) => self.built_in(name).is_some(),
        }
    }
    fn open(&self, name: &str) -> Result<images::LayerFile, FormatError> {
        match self.built_in(name) {
            Some(bytes) => Ok(images::LayerFile::in_memory(self.path(name), bytes)),
            None => images::LayerFile::open(&self.path(name)),
        }
    }
    fn text(&self, name: &str) -> Result<String, FormatError> {
        let path = self.path(name);
        match self {
            ProjectFiles::Folder(_) => {
                std::fs::read_to_string(&path).map_err(|e| FormatError::io(&path, e))
            }
            ProjectFiles::BuiltIn(..) => {
                let bytes = self
                    .built_in(name)
                    .ok_or_else(|| FormatError::io(&path, std::io::ErrorKind::NotFound.into()))?;
                String::from_utf8(bytes.to_vec())
                    .map_err(|_| FormatError::invalid(path.display().to_string(), "is not UTF-8"))
            }
        }
    }
    fn bundled(&self) -> Result<Vec<BundledFile>, FormatError> {
        match self {
            ProjectFiles::Folder(dir) => read_bundled(&dir.join(BUNDLED_DIR)),
            ProjectFiles::BuiltIn(..) => Ok(Vec::new()),
        }
    }
}

/// Reads a project folder. Missing images mean flat ground, a default texture, no metal, no
/// grass and type 0; a present image of the wrong size is an error naming the file and the size
/// it should be.
pub fn load_project(dir: &Path) -> Result<LoadedMap, FormatError> {
    let recovered = recover_interrupted_save(dir);
    load_from(&ProjectFiles::Folder(dir), recovered)
}

/// Reads a project held in memory, `files` by name as [`save_project`] writes them (no
/// `archive/`); `label` is what errors call its folder.
pub fn load_built_in_project(
    files: &[(&str, &'static [u8])],
    label: &str,
) -> Result<LoadedMap, FormatError> {
    load_from(&ProjectFiles::BuiltIn(files, label), None)
}

/// Reads a project from `files`; `recovered` names where an interrupted save was put back from.
fn load_from(files: &ProjectFiles, recovered: Option<PathBuf>) -> Result<LoadedMap, FormatError> {
    let toml_path = files.path(PROJECT_FILE);
    let text = files.text(PROJECT_FILE)?;
    let parsed: ProjectToml = toml::from_str(&text).map_err(|e| {
        FormatError::invalid(
            toml_path.display().to_string(),
            e.to_string().trim_end().to_string(),
        )
    })?;
    let parts = parsed
        .into_parts()
        .map_err(|e| FormatError::invalid(toml_path.display().to_string(), e))?;
    let mut warnings = Vec::new();
    if let Some(from) = recovered {
        warnings.push(format!(
            "a save was interrupted: the project was put back from {}",
            from.display()
        ));
    }
    let size = parts.size;
    let settings = parts.settings;
    let (hw, hh) = size.height_vertices();
    let flat = 0.0f32.clamp(settings.min_height_elmos, settings.max_height_elmos);
    let mut heights = Grid::filled(hw, hh, flat);
    if files.has("height.png") {
        let words = images::read_height_words(
            files.open("height.png")?,
            size.height_vertices(),
            &mut warnings,
        )?;
        for (h, w) in heights.data_mut().iter_mut().zip(words) {
            *h = word_to_height(w, settings.min_height_elmos, settings.max_height_elmos);
        }
    }
    let (mw, mh) = size.metal_cells();
    let (gw, gh) = size.grass_cells();
    let mut metal = Grid::filled(mw, mh, 0u8);
    let mut grass = Grid::filled(gw, gh, 0u8);
    let mut types = Grid::filled(mw, mh, 0u8);
    // (file, size, why that size, colour allowed (red channel), layer)
    type ByteLayer<'a> = (&'a str, (usize, usize), &'a str, bool, &'a mut Grid<u8>);
    let layers: [ByteLayer; 3] = [
        (
            "metal.png",
            size.metal_cells(),
            "32 x map units per side: one pixel per 16 elmos",
            true,
            &mut metal,
        ),
        (
            "grass.png",
            size.grass_cells(),
            "16 x map units per side: one pixel per 32 elmos",
            false,
            &mut grass,
        ),
        (
            "type.png",
            size.metal_cells(),
            "32 x map units per side: one pixel per 16 elmos",
            false,
            &mut types,
        ),
    ];
    for (name, want, why, red, grid) in layers {
        if files.has(name) {
            let bytes = images::read_byte_layer(files.open(name)?, want, why, red, &mut warnings)?;
            *grid = Grid::from_vec(want.0, want.1, bytes).expect("size checked");
        }
    }
    let textures: Vec<&str> = TEXTURE_FILES
        .iter()
        .copied()
        .filter(|n| files.has(n))
        .collect();
    if textures.len() > 1 {
        warnings.push(format!(
            "several textures ({}); using {}",
            textures.join(", "),
            textures[0]
        ));
    }
    let texture = match textures.first() {
        Some(name) => {
            let (w, h) = size.texture_texels();
            let rgba = images::read_texture(files.open(name)?, (w, h))?;
            GroundTexture::from_rgba(w, h, rgba).expect("size checked")
        }
        None => GroundTexture::default_for_heights(size, &heights, &settings),
    };
    let mut texture_layers = parts.texture_layers;
    for layer in &mut texture_layers {
        let name = texture_section::mask_file(&layer.name);
        if files.has(&name) {
            let want = size.metal_cells();
            let bytes = images::read_byte_layer(
                files.open(&name)?,
                want,
                "32 x map units per side: one pixel per 16 elmos, 128 leaving the rules alone",
                false,
                &mut warnings,
            )?;
            layer.mask = Some(Grid::from_vec(want.0, want.1, bytes).expect("size checked"));
        }
    }
    crate::map::ground_layers::check_stack(&texture_layers, size.metal_cells())
        .map_err(|e| FormatError::invalid(toml_path.display().to_string(), e))?;
    let map = Map {
        size,
        heights,
        metal,
        types,
        grass,
        texture,
        features: parts.features,
        teams: parts.teams,
        start_boxes: parts.start_boxes,
        settings,
        bundled_files: files.bundled()?,
        symmetry: parts.symmetry,
        water_presets: parts.water_presets,
        texture_layers,
        texture_ao: parts.texture_ao,
        generator: parts.generator,
    };
    let undefined_types: Vec<u8> = {
        let mut seen = [false; 256];
        map.types
            .data()
            .iter()
            .for_each(|&t| seen[t as usize] = true);
        (0..=255u8)
            .filter(|t| seen[*t as usize] && !map.settings.terrain_types.contains_key(t))
            .collect()
    };
    if !undefined_types.is_empty() {
        warnings.push(format!(
            "type.png uses terrain types {undefined_types:?} that map.toml does not define"
        ));
    }
    Ok(LoadedMap {
        map,
        warnings,
        minimap_rgba: None,
        tile_counts: None,
        tile_problem: None,
        tile_files: Vec::new(),
    })
}

fn read_bundled(dir: &Path) -> Result<Vec<BundledFile>, FormatError> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut files = super::archive::read_folder(dir, &dir.display().to_string())?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Writes `map` as a project folder (created if needed). Every layer image is written, so the
/// folder always says exactly what the document holds. Atomic as a whole: the new project is
/// written beside the old one (`NAME.saving-PID`), then the old folder is renamed away
/// (`NAME.old-PID`), the new one renamed into place and the old one removed; files in the old
/// folder that a project does not write (notes, reports) are carried over. A save killed
/// midway leaves the old folder untouched, or, between the two renames, beside the path, where
/// [`load_project`] finds it.
pub fn save_project(map: &Map, dir: &Path) -> Result<(), FormatError> {
    map.check_layers()
        .map_err(|e| FormatError::invalid(dir.display().to_string(), e.to_string()))?;
    remove_dead_saves(dir);
    let tmp = sibling(dir, "saving");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| FormatError::io(&tmp, e))?;
    let written = write_project_files(map, &tmp);
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if !dir.exists() {
        return std::fs::rename(&tmp, dir).map_err(|e| FormatError::io(dir, e));
    }
    carry_over_other_files(dir, &tmp)?;
    let old = sibling(dir, "old");
    let _ = std::fs::remove_dir_all(&old);
    std::fs::rename(dir, &old).map_err(|e| FormatError::io(dir, e))?;
    if let Err(e) = std::fs::rename(&tmp, dir) {
        let _ = std::fs::rename(&old, dir);
        return Err(FormatError::io(dir, e));
    }
    std::fs::remove_dir_all(&old).map_err(|e| FormatError::io(&old, e))
}

/// Removes `NAME.saving-PID` folders beside `dir` left by saves that were killed while
/// writing (their process is gone; where there is no `/proc` to ask, only finished ones with
/// the old folder in place are removed).
fn remove_dead_saves(dir: &Path) {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    let prefix = format!("{}.saving-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().to_string();
        let Some(pid) = n.strip_prefix(&prefix).and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let proc_dir = Path::new("/proc");
        let dead = if proc_dir.is_dir() {
            !proc_dir.join(pid.to_string()).exists()
        } else {
            dir.exists()
        };
        if dead && pid != std::process::id() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// `NAME.TAG-PID` beside `dir`.
fn sibling(dir: &Path, tag: &str) -> std::path::PathBuf {
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{tag}-{}", std::process::id()));
    dir.with_file_name(name)
}

/// The files of a project folder that a save writes; anything else in it is the user's.
fn written_by_save(name: &str) -> bool {
    name == PROJECT_FILE
        || name == BUNDLED_DIR
        || TEXTURE_FILES.contains(&name)
        || ["height.png", "metal.png", "grass.png", "type.png"].contains(&name)
}

/// Hard-links (or copies) the old folder's other files into the new one.
fn carry_over_other_files(old: &Path, new: &Path) -> Result<(), FormatError> {
    let entries = std::fs::read_dir(old).map_err(|e| FormatError::io(old, e))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let to = new.join(&name);
        if written_by_save(&name) || to.exists() {
            continue;
        }
        let from = e.path();
        if from.is_dir() {
            copy_dir(&from, &to)?;
        } else if std::fs::hard_link(&from, &to).is_err() {
            std::fs::copy(&from, &to).map_err(|err| FormatError::io(&from, err))?;
        }
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), FormatError> {
    std::fs::create_dir_all(to).map_err(|e| FormatError::io(to, e))?;
    for e in std::fs::read_dir(from)
        .map_err(|e| FormatError::io(from, e))?
        .flatten()
    {
        let (f, t) = (e.path(), to.join(e.file_name()));
        if f.is_dir() {
            copy_dir(&f, &t)?;
        } else if e.file_type().is_ok_and(|ft| ft.is_file()) {
            std::fs::copy(&f, &t).map_err(|err| FormatError::io(&f, err))?;
        }
    }
    Ok(())
}

/// After a save was killed between its two renames, the project is beside its path as
/// `NAME.old-PID` (and perhaps a finished `NAME.saving-PID`, which lacks nothing but the
/// rename): puts the newest complete one back. Returns what it restored.
fn recover_interrupted_save(dir: &Path) -> Option<std::path::PathBuf> {
    if dir.exists() {
        return None;
    }
    let parent = dir.parent()?;
    let name = dir.file_name()?.to_string_lossy().to_string();
    let mut found: Vec<(u8, std::time::SystemTime, std::path::PathBuf)> = Vec::new();
    for e in std::fs::read_dir(parent).ok()?.flatten() {
        let n = e.file_name().to_string_lossy().to_string();
        let rank = if n.starts_with(&format!("{name}.saving-")) {
            0
        } else if n.starts_with(&format!("{name}.old-")) {
            1
        } else {
            continue;
        };
        // a folder is complete when its map.toml is there (written last)
        if e.path().join(PROJECT_FILE).is_file() {
            let t = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            found.push((rank, t, e.path()));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let (_, _, best) = found.into_iter().next()?;
    std::fs::rename(&best, dir).ok()?;
    Some(best)
}

/// The generator recipe beside `map.toml` (`groundwork new --recipe` reads such a file).
pub const GENERATOR_FILE: &str = "generator.toml";

/// Every file of the project, `map.toml` last (a folder without it is not a finished save).
fn write_project_files(map: &Map, dir: &Path) -> Result<(), FormatError> {
    let (hw, hh) = map.heights.dims();
    images::write_height_words(&dir.join("height.png"), hw, hh, &map.height_words())?;
    let t = &map.texture;
    images::write_rgb(&dir.join("texture.png"), t.width(), t.height(), t.rgba())?;
    for (name, grid) in [
        ("metal.png", &map.metal),
        ("grass.png", &map.grass),
        ("type.png", &map.types),
    ] {
        images::write_byte_layer(&dir.join(name), grid.width(), grid.height(), grid.data())?;
    }
    for layer in &map.texture_layers {
        if let Some(mask) = &layer.mask {
            let p = dir.join(texture_section::mask_file(&layer.name));
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent).map_err(|e| FormatError::io(parent, e))?;
            }
            images::write_byte_layer(&p, mask.width(), mask.height(), mask.data())?;
        }
    }
    write_bundled(&dir.join(BUNDLED_DIR), &map.bundled_files)?;
    let recipe_path = dir.join(GENERATOR_FILE);
    match &map.generator {
        Some(r) => std::fs::write(&recipe_path, r.to_toml())
            .map_err(|e| FormatError::io(&recipe_path, e))?,
        None if recipe_path.exists() => {
            std::fs::remove_file(&recipe_path).map_err(|e| FormatError::io(&recipe_path, e))?
        }
        None => {}
    }
    let toml_path = dir.join(PROJECT_FILE);
    std::fs::write(&toml_path, schema::project_toml_text(map))
        .map_err(|e| FormatError::io(&toml_path, e))
}

fn write_bundled(dir: &Path, files: &[BundledFile]) -> Result<(), FormatError> {
    if files.is_empty() {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| FormatError::io(dir, e))?;
        }
        return Ok(());
    }
    let tmp = dir.with_extension("partial");
    let _ = std::fs::remove_dir_all(&tmp);
    for f in files {
        let rel = super::archive::normalize_entry_path(&f.path, "bundled file")?;
        let p = tmp.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| FormatError::io(parent, e))?;
        }
        f.write_to(&p).map_err(|e| FormatError::io(&p, e))?;
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| FormatError::io(dir, e))?;
    }
    std::fs::rename(&tmp, dir).map_err(|e| FormatError::io(dir, e))
}

/// Writes the decoded minimap beside a decompiled project, for reference (compiling makes a new
/// one from the texture).
pub fn write_reference_minimap(dir: &Path, rgba: &[u8]) -> Result<(), FormatError> {
    images::write_rgb(&dir.join("minimap.png"), 1024, 1024, rgba)
}

#[cfg(test)]
mod tests;
