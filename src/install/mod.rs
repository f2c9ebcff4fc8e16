//! Where the games keep their maps, and putting a compiled map there: the maps folders of BAR
//! and of plain Spring on this computer (Linux, Windows, macOS: the data folders the engine
//! searches, checked against the engine), BAR's archive names (`My Map` 1.0 -> `my_map_1.0.sd7`), the next free version when a
//! name is taken, and the clean-up of temporary files a killed export left behind. The archive
//! itself is written through a temporary name and renamed into place by `formats::archive`, so
//! the game never sees half a map.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::compile::{CompileOptions, CompileReport, Progress, compile_map};
use crate::formats::archive::ArchiveKind;
use crate::map::{Map, MapSettings};

/// The games whose maps folders we know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    BeyondAllReason,
    Spring,
}

impl Game {
    pub fn label(self) -> &'static str {
        match self {
            Game::BeyondAllReason => "Beyond All Reason",
            Game::Spring => "Spring",
        }
    }
}

/// The operating systems whose folder rules differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    Linux,
    Windows,
    MacOs,
}

/// What folder detection reads from the computer; [`HomeEnv::current`] reads it, tests fake it.
#[derive(Clone, Debug, PartialEq)]
pub struct HomeEnv {
    pub platform: Platform,
    pub home: Option<PathBuf>,
    /// `$XDG_STATE_HOME` (Linux).
    pub xdg_state_home: Option<PathBuf>,
    /// `%LOCALAPPDATA%` (Windows).
    pub local_app_data: Option<PathBuf>,
}

impl HomeEnv {
    /// This computer's.
    pub fn current() -> HomeEnv {
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let platform = if cfg!(windows) {
            Platform::Windows
        } else if cfg!(target_os = "macos") {
            Platform::MacOs
        } else {
            Platform::Linux
        };
        HomeEnv {
            platform,
            home: if cfg!(windows) {
                var("USERPROFILE").or_else(|| var("HOME"))
            } else {
                var("HOME")
            },
            xdg_state_home: var("XDG_STATE_HOME"),
            local_app_data: var("LOCALAPPDATA"),
        }
    }
}

/// A game's maps folder: where it is, and whether the game's data folder above it is there
/// (the maps folder itself is made on the first export).
#[derive(Clone, Debug, PartialEq)]
pub struct MapsFolder {
    pub game: Game,
    pub path: PathBuf,
    pub found: bool,
}

impl MapsFolder {
    /// The game's data folder (the maps folder's parent): BAR keeps `games/`, `packages/` and
    /// `pool/` there.
    pub fn data_dir(&self) -> &Path {
        self.path.parent().unwrap_or(&self.path)
    }
}

/// Every maps folder the rules name for this computer, BAR's first, each marked found or not.
pub fn maps_folders(env: &HomeEnv) -> Vec<MapsFolder> {
    let mut out = Vec::new();
    let mut add = |game: Game, data: PathBuf| {
        let found = data.is_dir();
        out.push(MapsFolder {
            game,
            path: data.join("maps"),
            found,
        });
    };
    let home = env.home.clone();
    match env.platform {
        Platform::Linux => {
            if let Some(h) = &home {
                // ~/Documents/Beyond All Reason when it exists, else the XDG state folder
                let documents = h.join("Documents").join("Beyond All Reason");
                let state = env
                    .xdg_state_home
                    .clone()
                    .unwrap_or_else(|| h.join(".local").join("state"))
                    .join("Beyond All Reason");
                add(
                    Game::BeyondAllReason,
                    if documents.is_dir() { documents } else { state },
                );
                add(Game::Spring, h.join(".spring"));
            }
        }
        Platform::Windows => {
            let local = env
                .local_app_data
                .clone()
                .or_else(|| home.as_ref().map(|h| h.join("AppData").join("Local")));
            if let Some(l) = local {
                add(
                    Game::BeyondAllReason,
                    l.join("Programs").join("Beyond-All-Reason").join("data"),
                );
            }
            if let Some(h) = &home {
                add(
                    Game::Spring,
                    h.join("Documents").join("My Games").join("Spring"),
                );
            }
        }
        Platform::MacOs => {
            // not verified against a Mac: BAR ships no macOS build; these follow Spring's rules
            if let Some(h) = &home {
                add(
                    Game::BeyondAllReason,
                    h.join("Library")
                        .join("Application Support")
                        .join("Beyond All Reason"),
                );
                add(Game::Spring, h.join(".spring"));
            }
        }
    }
    out
}

/// The maps folders whose game is installed here.
pub fn found_maps_folders(env: &HomeEnv) -> Vec<MapsFolder> {
    maps_folders(env).into_iter().filter(|f| f.found).collect()
}

/// BAR's data folder on this computer (where its games and packages are), when BAR is installed
/// where the games' folders are looked for ([`maps_folders`]).
pub fn bar_data_dir() -> Option<PathBuf> {
    bar_data_dirs(&HomeEnv::current()).into_iter().next()
}

/// Every folder where BAR is installed under `env`, in [`maps_folders`]' order.
pub fn bar_data_dirs(env: &HomeEnv) -> Vec<PathBuf> {
    found_maps_folders(env)
        .into_iter()
        .filter(|f| f.game == Game::BeyondAllReason)
        .map(|f| f.data_dir().to_path_buf())
        .collect()
}

/// `name` lowercased with every run of other characters than letters and digits as one `_`.
fn slug(name: &str, keep: &[char]) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() || keep.contains(&c) {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// BAR's archive name for a map: the name lowercased, spaces and other non-alphanumerics as
/// `_`, then `_` and the version ("My Map" 1.0 -> `my_map_1.0`), plus the container's
/// extension.
pub fn archive_file_name(name: &str, version: &str, kind: ArchiveKind) -> String {
    let mut stem = slug(name, &[]);
    if stem.is_empty() {
        stem = "map".into();
    }
    let version = slug(version, &['.', '-']);
    if !version.is_empty() {
        stem.push('_');
        stem.push_str(&version);
    }
    format!("{stem}.{}", kind.extension())
}

/// The version after `version`: its last number counted up ("1.0" -> "1.1", "v9" -> "v10"), or
/// ".1" added when it has none ("" -> "1").
pub fn next_version(version: &str) -> String {
    let digits_end = version
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_ascii_digit())
        .map(|(i, _)| i + 1);
    let Some(end) = digits_end else {
        return if version.is_empty() {
            "1".into()
        } else {
            format!("{version}.1")
        };
    };
    let start = version[..end]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit())
        .last()
        .map_or(end, |(i, _)| i);
    let n: u128 = version[start..end].parse().unwrap_or(0);
    format!("{}{}{}", &version[..start], n + 1, &version[end..])
}

/// Whether a map of this name and version is in `dir` in any container.
pub fn taken(dir: &Path, name: &str, version: &str) -> Option<PathBuf> {
    [ArchiveKind::Sd7, ArchiveKind::Sdz, ArchiveKind::Sdd]
        .into_iter()
        .map(|k| dir.join(archive_file_name(name, version, k)))
        .find(|p| p.exists())
}

/// The first version from `settings.version` on that no archive in `dir` uses.
pub fn next_free_version(dir: &Path, settings: &MapSettings) -> String {
    let mut v = settings.version.clone();
    for _ in 0..10_000 {
        if taken(dir, &settings.name, &v).is_none() {
            return v;
        }
        v = next_version(&v);
    }
    v
}

/// Removes what an export killed midway left in `dir`: archives' temporary siblings
/// (`*.sd7.partial-PID` and the like) whose process is gone. Returns what it removed.
fn clean_stale_partials(dir: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return removed;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let Some((stem, pid)) = ["partial", "old"]
            .iter()
            .find_map(|tag| name.rsplit_once(&format!(".{tag}-")))
        else {
            continue;
        };
        let is_map = ArchiveKind::from_path(Path::new(stem)).is_some();
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if !is_map || process_alive(pid) {
            continue;
        }
        let p = e.path();
        let gone = if p.is_dir() {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
        if gone.is_ok() {
            removed.push(p);
        }
    }
    removed
}

/// Whether a process with this id runs (on systems without `/proc`, only our own counts).
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc_dir = Path::new("/proc");
    proc_dir.is_dir() && proc_dir.join(pid.to_string()).exists()
}

/// Why an install did not happen.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// A map of this name and version is there already, and overwriting was not asked for.
    #[error(
        "{} is already there; the next free version is {next_version} (or overwrite it)",
        existing.display()
    )]
    Exists {
        existing: PathBuf,
        next_version: String,
    },
    #[error("cancelled; the maps folder is as it was")]
    Cancelled,
    #[error("{0}")]
    Failed(String),
}

/// What an install did.
#[derive(Clone, Debug)]
pub struct Installed {
    pub path: PathBuf,
    pub bytes: u64,
    pub elapsed: Duration,
    pub compile: CompileReport,
    /// Temporary files of earlier, killed exports that were removed.
    pub cleaned: Vec<PathBuf>,
    /// Other containers of the same name and version that an overwrite removed.
    pub replaced: Vec<PathBuf>,
}

/// Compiles `map` into `dir` under BAR's name for it, in container `kind`: refuses a name that
/// is taken unless `overwrite` (which also removes the map's other containers), cleans up what
/// killed exports left, and checks the written archive with our own reader.
pub fn install_map(
    map: &Map,
    dir: &Path,
    kind: ArchiveKind,
    overwrite: bool,
    options: &CompileOptions,
    progress: &Progress,
) -> Result<Installed, InstallError> {
    let started = Instant::now();
    let s = &map.settings;
    let path = dir.join(archive_file_name(&s.name, &s.version, kind));
    let others: Vec<PathBuf> = [ArchiveKind::Sd7, ArchiveKind::Sdz, ArchiveKind::Sdd]
        .into_iter()
        .map(|k| dir.join(archive_file_name(&s.name, &s.version, k)))
        .filter(|p| p.exists())
        .collect();
    if let Some(existing) = others.first()
        && !overwrite
    {
        return Err(InstallError::Exists {
            existing: existing.clone(),
            next_version: next_free_version(dir, s),
        });
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| InstallError::Failed(format!("cannot make {}: {e}", dir.display())))?;
    let cleaned = clean_stale_partials(dir);
    let compile = compile_map(map, &path, options, progress).map_err(|e| match e {
        crate::formats::FormatError::Cancelled => InstallError::Cancelled,
        other => InstallError::Failed(other.to_string()),
    })?;
    let mut replaced = Vec::new();
    for p in others.into_iter().filter(|p| *p != path) {
        let gone = if p.is_dir() {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
        if gone.is_ok() {
            replaced.push(p);
        }
    }
    verify_archive(&path, map, &compile).map_err(InstallError::Failed)?;
    Ok(Installed {
        bytes: compile.archive_bytes,
        path,
        elapsed: started.elapsed(),
        compile,
        cleaned,
        replaced,
    })
}

/// Reads a written archive back with our own reader and checks it against the document: the
/// size, every height word, the tile count, the name and the start positions.
fn verify_archive(path: &Path, map: &Map, report: &CompileReport) -> Result<(), String> {
    let bad = |what: String| {
        format!(
            "{} was written but reads back wrong: {what}",
            path.display()
        )
    };
    let back = crate::formats::read_map(path).map_err(|e| bad(e.to_string()))?;
    let b = &back.map;
    if b.size != map.size {
        return Err(bad(format!("size {} instead of {}", b.size, map.size)));
    }
    if b.height_words() != map.height_words() {
        return Err(bad("the heights differ".into()));
    }
    if back.tile_counts.map(|t| t.1) != Some(report.tiles_distinct) {
        return Err(bad(format!(
            "{:?} distinct tiles instead of {}",
            back.tile_counts, report.tiles_distinct
        )));
    }
    if b.settings.name != map.settings.name || b.teams.len() != map.teams.len() {
        return Err(bad("mapinfo.lua's name or start positions differ".into()));
    }
    if b.metal.data() != map.metal.data() {
        return Err(bad("the metal differs".into()));
    }
    Ok(())
}

/// BAR's feature definitions and files, when BAR is installed here, read once (the palette
/// and the view's models share them).
pub fn installed_game_features() -> &'static Option<(
    crate::formats::features::FeatureDefs,
    crate::formats::features::GameFileIndex,
)> {
    static GAME: std::sync::OnceLock<
        Option<(
            crate::formats::features::FeatureDefs,
            crate::formats::features::GameFileIndex,
        )>,
    > = std::sync::OnceLock::new();
    GAME.get_or_init(|| {
        let folders = maps_folders(&HomeEnv::current());
        let bar = folders
            .iter()
            .find(|f| f.found && f.game == Game::BeyondAllReason)?;
        let defs = crate::formats::features::game_features(bar.data_dir())?;
        let index = crate::formats::features::GameFileIndex::open(bar.data_dir())?;
        Some((defs, index))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linux(home: &Path) -> HomeEnv {
        HomeEnv {
            platform: Platform::Linux,
            home: Some(home.to_path_buf()),
            xdg_state_home: None,
            local_app_data: None,
        }
    }

    #[test]
    fn bar_names_archives_by_name_and_version() {
        let n = |name, v| archive_file_name(name, v, ArchiveKind::Sd7);
        assert_eq!(n("My Map", "1.0"), "my_map_1.0.sd7");
        assert_eq!(n("  Red Rock's Ridge!! ", "V2"), "red_rock_s_ridge_v2.sd7");
        assert_eq!(n("Dunes", ""), "dunes.sd7");
        assert_eq!(n("???", "1"), "map_1.sd7");
        assert_eq!(
            archive_file_name("My Map", "1.0", ArchiveKind::Sdd),
            "my_map_1.0.sdd"
        );
    }

    #[test]
    fn versions_count_up() {
        assert_eq!(next_version("1.0"), "1.1");
        assert_eq!(next_version("1.9"), "1.10");
        assert_eq!(next_version("v9"), "v10");
        assert_eq!(next_version("2.0-beta"), "2.1-beta");
        assert_eq!(next_version("beta"), "beta.1");
        assert_eq!(next_version(""), "1");
    }

    #[test]
    fn the_next_free_version_skips_every_container() {
        let dir = tempfile::tempdir().unwrap();
        let s = MapSettings {
            name: "My Map".into(),
            version: "1.0".into(),
            ..MapSettings::default()
        };
        assert_eq!(next_free_version(dir.path(), &s), "1.0");
        std::fs::write(dir.path().join("my_map_1.0.sd7"), b"x").unwrap();
        std::fs::create_dir(dir.path().join("my_map_1.1.sdd")).unwrap();
        assert_eq!(next_free_version(dir.path(), &s), "1.2");
    }

    #[test]
    fn linux_prefers_documents_then_the_state_folder() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        // nothing installed: the rules still name the folders, none found
        let f = maps_folders(&linux(h));
        assert_eq!(f[0].path, h.join(".local/state/Beyond All Reason/maps"));
        assert_eq!(f[1].path, h.join(".spring/maps"));
        assert!(found_maps_folders(&linux(h)).is_empty());
        // BAR in the XDG state folder, and XDG_STATE_HOME moved
        std::fs::create_dir_all(h.join("state/Beyond All Reason")).unwrap();
        let mut env = linux(h);
        env.xdg_state_home = Some(h.join("state"));
        let f = found_maps_folders(&env);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].game, Game::BeyondAllReason);
        assert_eq!(f[0].path, h.join("state/Beyond All Reason/maps"));
        assert_eq!(f[0].data_dir(), h.join("state/Beyond All Reason"));
        // ~/Documents/Beyond All Reason wins when it exists; Spring beside it
        std::fs::create_dir_all(h.join("Documents/Beyond All Reason")).unwrap();
        std::fs::create_dir_all(h.join(".spring")).unwrap();
        let f = found_maps_folders(&env);
        assert_eq!(f[0].path, h.join("Documents/Beyond All Reason/maps"));
        assert_eq!(
            (f[1].game, f[1].path.clone()),
            (Game::Spring, h.join(".spring/maps"))
        );
    }

    #[test]
    fn windows_and_macos_rules() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let local = h.join("AppData/Local");
        std::fs::create_dir_all(local.join("Programs/Beyond-All-Reason/data")).unwrap();
        std::fs::create_dir_all(h.join("Documents/My Games/Spring")).unwrap();
        let win = HomeEnv {
            platform: Platform::Windows,
            home: Some(h.to_path_buf()),
            xdg_state_home: None,
            local_app_data: Some(local.clone()),
        };
        let f = found_maps_folders(&win);
        assert_eq!(
            f[0].path,
            local.join("Programs/Beyond-All-Reason/data/maps")
        );
        assert_eq!(f[1].path, h.join("Documents/My Games/Spring/maps"));
        // without %LOCALAPPDATA% the default under the profile
        let mut no_local = win.clone();
        no_local.local_app_data = None;
        assert_eq!(found_maps_folders(&no_local)[0].path, f[0].path);
        let mac = HomeEnv {
            platform: Platform::MacOs,
            ..win
        };
        std::fs::create_dir_all(h.join("Library/Application Support/Beyond All Reason")).unwrap();
        let f = found_maps_folders(&mac);
        assert_eq!(
            f[0].path,
            h.join("Library/Application Support/Beyond All Reason/maps")
        );
    }

    #[test]
    fn stale_partials_of_dead_exports_go() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // a pid that cannot be running, ours, a directory one, and unrelated files
        std::fs::write(d.join("a_1.0.sd7.partial-4294967295"), b"half").unwrap();
        std::fs::create_dir(d.join("b_1.0.sdd.partial-4294967294")).unwrap();
        let ours = format!("c_1.0.sd7.partial-{}", std::process::id());
        std::fs::write(d.join(&ours), b"running").unwrap();
        std::fs::write(d.join("notes.txt.partial-4294967295"), b"not a map").unwrap();
        std::fs::write(d.join("d_1.0.sd7"), b"a map").unwrap();
        let removed = clean_stale_partials(d);
        assert_eq!(removed.len(), 2, "{removed:?}");
        assert!(d.join(&ours).exists() && d.join("d_1.0.sd7").exists());
        assert!(d.join("notes.txt.partial-4294967295").exists());
    }
}
