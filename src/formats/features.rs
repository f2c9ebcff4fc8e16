//! Feature definitions and the names they define: a map's own `features/*.lua` (each returns
//! `{defName = {...}}`), and an installed game's, read from its data folder (a `games/*.sdd`
//! checkout, or BAR's game package (`formats::rapid`): `packages/*.sdp` lists files by MD5, `pool/` holds
//! them gzipped). Every file runs in the Lua sandbox; one that fails is skipped and named.
//! Names are compared case-blind, as the engine does. [`GameFileIndex`] lists the game's
//! files once and reads one when asked (a feature's model and texture).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::mapinfo::{LuaLimits, Vfs, eval_lua_table};
use crate::map::{BundledFile, LuaKey, LuaTable, LuaValue};

/// The feature names a set of definition files defines (lowercased), and the files that could
/// not be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FeatureNames {
    pub names: BTreeSet<String>,
    pub failed: Vec<String>,
}

impl FeatureNames {
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(&name.to_ascii_lowercase())
    }
}

/// One feature definition: the keys the editor uses, with the engine's defaults for those the
/// table leaves out.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureDef {
    /// Its table key, lower-cased (the name placements use).
    pub name: String,
    /// The model file under `objects3d/` (`object`); `None` for an invisible feature.
    pub object: Option<String>,
    /// Its footprint in squares (`footprintX`, `footprintZ`; 1 when absent, at least 1).
    pub footprint_x_squares: u32,
    pub footprint_z_squares: u32,
    /// Whether units are blocked by it (`blocking`, default true).
    pub blocking: bool,
    /// What reclaiming it yields (`metal`, `energy`, default 0).
    pub metal: f32,
    pub energy: f32,
    /// Whether it can be reclaimed (`reclaimable`, default true).
    pub reclaimable: bool,
    /// `description`, when given.
    pub description: Option<String>,
    /// The definition file it came from.
    pub file: String,
}

impl FeatureDef {
    /// The definition `table` gives `name` (in `file`), defaults filled in as the engine does.
    pub fn from_table(name: &str, table: &LuaTable, file: &str) -> FeatureDef {
        let squares = |key: &str| {
            table
                .get_number(key)
                .filter(|n| n.is_finite())
                .map_or(1, |n| n.clamp(1.0, 1e6) as u32)
        };
        let flag = |key: &str, default: bool| match table.get(key) {
            Some(LuaValue::Bool(b)) => *b,
            Some(LuaValue::Number(n)) => *n != 0.0,
            Some(LuaValue::String(s)) => !matches!(s.trim(), "0" | "false" | ""),
            _ => default,
        };
        let amount = |key: &str| {
            table
                .get_number(key)
                .filter(|n| n.is_finite())
                .map_or(0.0, |n| n as f32)
        };
        let text = |key: &str| {
            table
                .get(key)
                .and_then(LuaValue::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        FeatureDef {
            name: name.to_ascii_lowercase(),
            object: text("object"),
            footprint_x_squares: squares("footprintx"),
            footprint_z_squares: squares("footprintz"),
            blocking: flag("blocking", true),
            metal: amount("metal"),
            energy: amount("energy"),
            reclaimable: flag("reclaimable", true),
            description: text("description"),
            file: file.to_string(),
        }
    }
}

/// The feature definitions a set of files holds, by lower-cased name, and the files that could
/// not be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FeatureDefs {
    pub defs: BTreeMap<String, FeatureDef>,
    pub failed: Vec<String>,
}

impl FeatureDefs {
    /// The definition called `name`, in any case.
    pub fn get(&self, name: &str) -> Option<&FeatureDef> {
        self.defs.get(&name.to_ascii_lowercase())
    }

    /// Just the names.
    pub fn names(&self) -> FeatureNames {
        FeatureNames {
            names: self.defs.keys().cloned().collect(),
            failed: self.failed.clone(),
        }
    }
}

/// Files in memory, seen by the definitions' `VFS.Include`.
struct Files<'a>(&'a [BundledFile]);

impl Vfs for Files<'_> {
    fn paths(&self) -> Vec<String> {
        self.0.iter().map(|f| f.path.clone()).collect()
    }
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        let want = path.replace('\\', "/");
        self.0
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case(&want))
            .and_then(|f| f.bytes().ok())
            .map(|b| b.into_owned())
    }
}

fn is_definition(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    p.starts_with("features/") && p.ends_with(".lua")
}

/// The names the `features/**/*.lua` files among `files` define.
pub fn defined_feature_names(files: &[BundledFile]) -> FeatureNames {
    defined_features(files).names()
}

/// The definitions the `features/**/*.lua` files among `files` give (a later file's definition
/// of a name replaces an earlier one's; entries that are not tables are no definitions).
pub fn defined_features(files: &[BundledFile]) -> FeatureDefs {
    let vfs = Files(files);
    let limits = LuaLimits {
        max_instructions: 20_000_000,
        max_memory_bytes: 32 << 20,
    };
    let mut out = FeatureDefs::default();
    for f in files.iter().filter(|f| is_definition(&f.path)) {
        let Ok(bytes) = f.bytes() else {
            out.failed.push(format!("{}: unreadable", f.path));
            continue;
        };
        match eval_lua_table(&bytes, &f.path, &vfs, limits) {
            Ok(t) => {
                for (k, v) in t.iter() {
                    if let (LuaKey::Str(name), LuaValue::Table(def)) = (k, v) {
                        let def = FeatureDef::from_table(name, def, &f.path);
                        out.defs.insert(def.name.clone(), def);
                    }
                }
            }
            Err(e) => out.failed.push(format!("{}: {e}", f.path)),
        }
    }
    out
}

/// The feature names of the game installed in `data_dir` (BAR's data folder): every
/// `games/*.sdd` checkout, and BAR's rapid game package. `None` when neither is there.
pub fn game_feature_names(data_dir: &Path) -> Option<FeatureNames> {
    game_features(data_dir).map(|defs| defs.names())
}

/// The feature definitions of the game installed in `data_dir`. `None` when no game is there.
pub fn game_features(data_dir: &Path) -> Option<FeatureDefs> {
    game_files(data_dir, is_definition).map(|files| defined_features(&files))
}

/// Where one of the game's files is.
#[derive(Clone, Debug, PartialEq)]
enum GameFileAt {
    /// A file of a `games/*.sdd` checkout.
    Disk(PathBuf),
    /// A gzipped file in the rapid pool, named by its MD5.
    Pool([u8; 16]),
}

/// The installed game's files listed by archive path (lower-cased), read one at a time: a
/// model and its textures without loading the game's hundreds of megabytes.
#[derive(Clone, Debug)]
pub struct GameFileIndex {
    data_dir: PathBuf,
    files: BTreeMap<String, GameFileAt>,
}

/// The most files one checkout may list.
const MAX_CHECKOUT_FILES: usize = 500_000;
/// The largest game file [`GameFileIndex::read`] returns.
pub const MAX_GAME_FILE_BYTES: u64 = 64 << 20;

impl GameFileIndex {
    /// Lists BAR's rapid game package's files and every `games/*.sdd` checkout's in `data_dir`
    /// (a checkout's file wins over the package's of the same path). `None` when neither is
    /// there.
    pub fn open(data_dir: &Path) -> Option<GameFileIndex> {
        let mut files = BTreeMap::new();
        let mut found = false;
        if let Some(pkg) = game_package(data_dir) {
            found = true;
            if let Ok(list) = std::fs::read(&pkg) {
                for e in read_rapid_package(&list) {
                    files.insert(e.path.to_ascii_lowercase(), GameFileAt::Pool(e.md5));
                }
            }
        }
        if let Ok(games) = std::fs::read_dir(data_dir.join("games")) {
            for g in games.flatten() {
                let p = g.path();
                if p.is_dir() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sdd")) {
                    found = true;
                    list_dir(&p, &mut files);
                }
            }
        }
        found.then(|| GameFileIndex {
            data_dir: data_dir.to_path_buf(),
            files,
        })
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Whether the game has a file at `path` (any case, `\` read as `/`).
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(&key(path))
    }

    /// Every path listed, lower-cased, in order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// The bytes of the file at `path` (any case); `None` when it is not there, unreadable or
    /// over [`MAX_GAME_FILE_BYTES`].
    pub fn read(&self, path: &str) -> Option<Vec<u8>> {
        let mut data = Vec::new();
        match self.files.get(&key(path))? {
            GameFileAt::Disk(p) => {
                std::fs::File::open(p)
                    .ok()?
                    .take(MAX_GAME_FILE_BYTES + 1)
                    .read_to_end(&mut data)
                    .ok()?;
            }
            GameFileAt::Pool(md5) => {
                let hex: String = md5.iter().map(|b| format!("{b:02x}")).collect();
                let file = self
                    .data_dir
                    .join("pool")
                    .join(&hex[..2])
                    .join(format!("{}.gz", &hex[2..]));
                let gz = std::fs::read(&file).ok()?;
                flate2::read::GzDecoder::new(&gz[..])
                    .take(MAX_GAME_FILE_BYTES + 1)
                    .read_to_end(&mut data)
                    .ok()?;
            }
        }
        (data.len() as u64 <= MAX_GAME_FILE_BYTES).then_some(data)
    }
}

/// A path as the index keys it.
fn key(path: &str) -> String {
    path.replace('\\', "/")
        .trim_start_matches("./")
        .to_ascii_lowercase()
}

/// Lists the files under the checkout `root` (symbolic links not followed), without recursion.
fn list_dir(root: &Path, out: &mut BTreeMap<String, GameFileAt>) {
    let mut stack = vec![root.to_path_buf()];
    let mut listed = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else {
                continue;
            };
            let p = e.path();
            if kind.is_dir() {
                stack.push(p);
            } else if kind.is_file()
                && let Ok(rel) = p.strip_prefix(root)
            {
                listed += 1;
                if listed > MAX_CHECKOUT_FILES {
                    return;
                }
                out.insert(key(&rel.to_string_lossy()), GameFileAt::Disk(p));
            }
        }
    }
}

/// The game's files whose archive paths `want` accepts, from every `games/*.sdd` checkout in
/// `data_dir` and BAR's rapid game package (64 MiB in all). `None` when neither is there.
pub fn game_files(data_dir: &Path, want: fn(&str) -> bool) -> Option<Vec<BundledFile>> {
    let mut files = Vec::new();
    let mut found = false;
    if let Ok(games) = std::fs::read_dir(data_dir.join("games")) {
        for g in games.flatten() {
            let p = g.path();
            if p.is_dir() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sdd")) {
                found = true;
                collect_dir(&p, &p, want, &mut files);
            }
        }
    }
    if let Some(pkg) = game_package(data_dir) {
        found = true;
        files.extend(rapid_files(data_dir, &pkg, want));
    }
    found.then_some(files)
}

/// The files under `dir` that `want` accepts, as archive paths relative to `root`, at most
/// 64 MiB in all.
fn collect_dir(root: &Path, dir: &Path, want: fn(&str) -> bool, out: &mut Vec<BundledFile>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_dir(root, &p, want, out);
            continue;
        }
        let Ok(rel) = p.strip_prefix(root) else {
            continue;
        };
        let path = rel.to_string_lossy().replace('\\', "/");
        let total: usize = out.iter().map(|f| f.len() as usize).sum();
        if !want(&path) || total > 64 << 20 {
            continue;
        }
        if let Ok(data) = std::fs::read(&p) {
            out.push(BundledFile::new(path, data));
        }
    }
}

/// BAR's game package ([`super::rapid::bar_package`]).
fn game_package(data_dir: &Path) -> Option<PathBuf> {
    super::rapid::bar_package(data_dir).map(|(p, _)| p)
}

/// One rapid package entry: a file's path and the MD5 that names it in the pool.
#[derive(Debug, PartialEq)]
struct RapidEntry {
    pub path: String,
    pub md5: [u8; 16],
}

/// Reads a gzipped rapid package list: per file a length byte, the name, its MD5 (16), CRC32
/// (4) and size (4, big-endian). Stops at the first truncated record.
fn read_rapid_package(gz: &[u8]) -> Vec<RapidEntry> {
    let mut raw = Vec::new();
    let limit = 64u64 << 20;
    if flate2::read::GzDecoder::new(gz)
        .take(limit)
        .read_to_end(&mut raw)
        .is_err()
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut at = 0;
    while at < raw.len() {
        let n = raw[at] as usize;
        let end = at + 1 + n + 16 + 4 + 4;
        if end > raw.len() {
            break;
        }
        let path = String::from_utf8_lossy(&raw[at + 1..at + 1 + n]).replace('\\', "/");
        let mut md5 = [0u8; 16];
        md5.copy_from_slice(&raw[at + 1 + n..at + 1 + n + 16]);
        out.push(RapidEntry { path, md5 });
        at = end;
    }
    out
}

/// The package's files that `want` accepts, read from the pool (each gzipped, at most 4 MiB).
fn rapid_files(data_dir: &Path, package: &Path, want: fn(&str) -> bool) -> Vec<BundledFile> {
    let Ok(list) = std::fs::read(package) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in read_rapid_package(&list)
        .into_iter()
        .filter(|e| want(&e.path))
    {
        let hex: String = e.md5.iter().map(|b| format!("{b:02x}")).collect();
        let file = data_dir
            .join("pool")
            .join(&hex[..2])
            .join(format!("{}.gz", &hex[2..]));
        let Ok(gz) = std::fs::read(&file) else {
            continue;
        };
        let mut data = Vec::new();
        if flate2::read::GzDecoder::new(&gz[..])
            .take(4 << 20)
            .read_to_end(&mut data)
            .is_ok()
        {
            out.push(BundledFile::new(e.path, data));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn file(path: &str, text: &str) -> BundledFile {
        BundledFile::new(path.into(), text.as_bytes().to_vec())
    }

    #[test]
    fn a_maps_definitions_name_its_features() {
        let files = [
            file(
                "features/trees.lua",
                "local d = {} d.BigTree = {object = 'tree.s3o'} d['bush_1'] = {} return d",
            ),
            file(
                "features/more/rocks.lua",
                "return VFS.Include('features/shared.lua')",
            ),
            file("features/shared.lua", "return { Boulder = {} }"),
            file("features/broken.lua", "return {"),
            file("mapinfo.lua", "return { NotAFeature = {} }"),
        ];
        let n = defined_feature_names(&files);
        assert!(n.contains("bigtree") && n.contains("BUSH_1") && n.contains("boulder"));
        assert!(!n.contains("notafeature"));
        assert_eq!(n.failed.len(), 1, "{:?}", n.failed);
        assert!(n.failed[0].starts_with("features/broken.lua"));
    }

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn an_installed_games_rapid_package_and_checkouts_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert!(game_feature_names(d).is_none());
        // a rapid package listing one definition file and one other file
        let md5 = [0xab; 16];
        let mut list = Vec::new();
        for (name, sum) in [("features/rocks30.lua", md5), ("units/x.lua", [1; 16])] {
            list.push(name.len() as u8);
            list.extend_from_slice(name.as_bytes());
            list.extend_from_slice(&sum);
            list.extend_from_slice(&[0; 8]);
        }
        std::fs::create_dir_all(d.join("packages")).unwrap();
        std::fs::write(d.join("packages/abc.sdp"), gz(&list)).unwrap();
        let pool = d.join("pool/ab");
        std::fs::create_dir_all(&pool).unwrap();
        let def = b"return { rocks30_def_08 = {}, rocks30_def_16 = {} }";
        std::fs::write(pool.join(format!("{}.gz", "ab".repeat(15))), gz(def)).unwrap();
        // and a development checkout
        let checkout = d.join("games/bar.sdd/features/trees");
        std::fs::create_dir_all(&checkout).unwrap();
        std::fs::write(checkout.join("pines.lua"), "return { pine_1 = {} }").unwrap();
        let n = game_feature_names(d).unwrap();
        let names: Vec<&str> = n.names.iter().map(String::as_str).collect();
        assert_eq!(names, ["pine_1", "rocks30_def_08", "rocks30_def_16"]);
    }

    #[test]
    fn truncated_packages_stop_cleanly() {
        let mut list = vec![200u8];
        list.extend_from_slice(b"short");
        assert!(read_rapid_package(&gz(&list)).is_empty());
        assert!(read_rapid_package(b"not gzip").is_empty());
    }
}
