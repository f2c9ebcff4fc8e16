//! Finding an engine to try a map in, and the game installed beside it: an explicit binary
//! (`--engine`, or `$GROUNDWORK_ENGINE`), else BAR's newest `engine/<version>/spring` with
//! BAR's newest game from its rapid packages, else `spring` / `spring-headless` on the `PATH`
//! or in Debian's `/usr/games`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::install::HomeEnv;

/// The variable naming an engine binary to use instead of searching (a fake one in tests).
pub const ENGINE_VARIABLE: &str = "GROUNDWORK_ENGINE";

/// Which build of the engine: the one with a window, or the one without.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// `spring`: a window, rendering (play, screenshots).
    Gl,
    /// `spring-headless`: no window, no rendering (load checks, CI).
    Headless,
}

impl Flavour {
    /// The binary's file name on this system (`spring`, `spring-headless.exe`).
    pub fn binary_name(self) -> String {
        let stem = match self {
            Flavour::Gl => "spring",
            Flavour::Headless => "spring-headless",
        };
        format!("{stem}{}", std::env::consts::EXE_SUFFIX)
    }
}

/// Where an engine was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSource {
    /// Given by the caller (`--engine`).
    Explicit,
    /// Named by `$GROUNDWORK_ENGINE`.
    Variable,
    /// BAR's install (`engine/<version>/` in its data folder).
    Bar,
    /// Found on the `PATH` or in one of the usual folders (`/usr/games`).
    System,
}

/// A game installed for the engine: the name a start script's `GameType` gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstalledGame {
    /// `Beyond All Reason test-27634-8d8f3ab`: the rapid package's name from `versions.gz`.
    pub name: String,
    /// The rapid tag it was installed under (`byar:test`).
    pub tag: String,
}

/// An engine binary and what it must see to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engine {
    pub binary: PathBuf,
    pub source: EngineSource,
    /// Folders for `SPRING_DATADIR` besides the sandbox's: the engine's base content (its own
    /// folder when it holds `base/`, or `share/games/spring` beside its `games` folder).
    pub data_dirs: Vec<PathBuf>,
    /// BAR's data folder, when the engine is BAR's: its `packages/`, `pool/` and `rapid/`
    /// hold the game.
    pub bar_data_dir: Option<PathBuf>,
    /// The game to play with it (BAR's), when one is installed.
    pub game: Option<InstalledGame>,
}

impl Engine {
    /// An engine at `binary` found by `source`, with the base content folders around it.
    fn at(binary: PathBuf, source: EngineSource) -> Engine {
        let mut engine = Engine {
            data_dirs: base_content_dirs(&binary),
            binary,
            source,
            bar_data_dir: None,
            game: None,
        };
        // a binary inside BAR's `engine/<version>/` plays BAR's game
        if let Some(data) = bar_data_dir_of(&engine.binary) {
            engine.game = bar_game(&data);
            engine.bar_data_dir = Some(data);
        }
        engine
    }
}

/// What the search reads from the computer; [`EngineSearch::current`] reads it, tests fake it.
#[derive(Clone, Debug)]
pub struct EngineSearch {
    pub home: HomeEnv,
    /// `$PATH`.
    pub path_var: Option<OsString>,
    /// `$GROUNDWORK_ENGINE`.
    pub engine_var: Option<PathBuf>,
    /// Folders searched after the `PATH` (Debian installs Spring in `/usr/games`, which a
    /// user's `PATH` may lack).
    pub usual_dirs: Vec<PathBuf>,
}

impl EngineSearch {
    /// This computer's.
    pub fn current() -> EngineSearch {
        EngineSearch {
            home: HomeEnv::current(),
            path_var: std::env::var_os("PATH"),
            engine_var: std::env::var_os(ENGINE_VARIABLE)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            usual_dirs: if cfg!(unix) {
                vec![
                    PathBuf::from("/usr/games"),
                    PathBuf::from("/usr/local/games"),
                ]
            } else {
                Vec::new()
            },
        }
    }

    /// The engine to use: `explicit`, else `$GROUNDWORK_ENGINE`, else BAR's newest engine of
    /// this flavour, else the flavour's binary on the `PATH` or in the usual folders. The error
    /// says where it looked.
    pub fn find(&self, flavour: Flavour, explicit: Option<&Path>) -> Result<Engine, String> {
        if let Some(p) = explicit {
            return checked(p, EngineSource::Explicit, "--engine");
        }
        if let Some(p) = &self.engine_var {
            return checked(p, EngineSource::Variable, ENGINE_VARIABLE);
        }
        let bar_dirs = crate::install::bar_data_dirs(&self.home);
        for data in &bar_dirs {
            if let Some(binary) = newest_bar_engine(data, flavour) {
                return Ok(Engine::at(binary, EngineSource::Bar));
            }
        }
        let name = flavour.binary_name();
        let path_dirs: Vec<PathBuf> = self
            .path_var
            .as_ref()
            .map(|p| std::env::split_paths(p).collect())
            .unwrap_or_default();
        for dir in path_dirs.iter().chain(&self.usual_dirs) {
            let p = dir.join(&name);
            if is_executable(&p) {
                return Ok(Engine::at(p, EngineSource::System));
            }
        }
        let mut looked: Vec<String> = bar_dirs
            .iter()
            .map(|d| format!("{}", d.join("engine").display()))
            .collect();
        looked.push("the PATH".into());
        looked.extend(self.usual_dirs.iter().map(|d| d.display().to_string()));
        Err(format!(
            "no {name} found (looked in {}); install Beyond All Reason or Spring, or give --engine PATH",
            looked.join(", ")
        ))
    }
}

/// Finds the engine on this computer; see [`EngineSearch::find`].
pub fn find_engine(flavour: Flavour, explicit: Option<&Path>) -> Result<Engine, String> {
    EngineSearch::current().find(flavour, explicit)
}

/// `path` as an engine, when it is a file.
fn checked(path: &Path, source: EngineSource, what: &str) -> Result<Engine, String> {
    if !path.is_file() {
        return Err(format!("{what} {}: no such file", path.display()));
    }
    Ok(Engine::at(path.to_path_buf(), source))
}

/// Whether `p` is a file we may run.
fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// The folders holding the engine's own content (`base/springcontent.sdz` and the cursors the
/// minimal game depends on): the binary's folder when it has `base/` (BAR's and Recoil's
/// builds), and `../share/games/spring` beside a `games` or `bin` folder (Debian's packages).
fn base_content_dirs(binary: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Some(dir) = binary.parent() else {
        return out;
    };
    if dir.join("base").is_dir() {
        out.push(dir.to_path_buf());
    }
    if let Some(prefix) = dir.parent() {
        let share = prefix.join("share").join("games").join("spring");
        if share.is_dir() {
            out.push(share);
        }
    }
    out
}

/// BAR's data folder when `binary` is in its `engine/<version>/`.
fn bar_data_dir_of(binary: &Path) -> Option<PathBuf> {
    let engines = binary.parent()?.parent()?;
    let named_engine = engines
        .file_name()
        .is_some_and(|n| n.eq_ignore_ascii_case("engine"));
    let data = engines.parent()?;
    (named_engine && data.join("packages").is_dir()).then(|| data.to_path_buf())
}

/// The flavour's binary in the most recently written `engine/*/` folder of BAR's data folder
/// `data_dir` that has one (the launcher adds each new engine as a folder; the name breaks ties).
pub fn newest_bar_engine(data_dir: &Path, flavour: Flavour) -> Option<PathBuf> {
    let name = flavour.binary_name();
    std::fs::read_dir(data_dir.join("engine"))
        .ok()?
        .flatten()
        .map(|e| e.path().join(&name))
        .filter(|p| is_executable(p))
        .max_by_key(|p| {
            let dir = p.parent().unwrap_or(p);
            let modified = std::fs::metadata(dir).and_then(|m| m.modified()).ok();
            (modified, dir.file_name().map(|n| n.to_os_string()))
        })
}

pub use crate::formats::rapid::{RapidVersion, read_rapid_versions};

/// BAR's game installed in `data_dir` ([`crate::formats::rapid::bar_package`]: the newest
/// package whose rapid tag is BAR's), with its name and tag. `None` when there is none.
pub fn bar_game(data_dir: &Path) -> Option<InstalledGame> {
    let (_, v) = crate::formats::rapid::bar_package(data_dir)?;
    let v = v?;
    Some(InstalledGame {
        name: v.name,
        tag: v.tag,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::Platform;
    use std::io::Write as _;
    use std::time::{Duration, SystemTime};

    fn gz(text: &str) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    fn executable(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b"#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    fn age(p: &Path, seconds_ago: u64) {
        let t = SystemTime::now() - Duration::from_secs(seconds_ago);
        std::fs::File::open(p).unwrap().set_modified(t).unwrap();
    }

    fn search(home: &Path) -> EngineSearch {
        EngineSearch {
            home: HomeEnv {
                platform: Platform::Linux,
                home: Some(home.to_path_buf()),
                xdg_state_home: None,
                local_app_data: None,
            },
            path_var: None,
            engine_var: None,
            usual_dirs: Vec::new(),
        }
    }

    /// BAR's layout: engines, rapid packages and `versions.gz`, the lobby's package newest.
    fn fake_bar(home: &Path) -> PathBuf {
        let data = home.join(".local/state/Beyond All Reason");
        let exe = std::env::consts::EXE_SUFFIX;
        let engines = [("105.1.1-2511-g747f18b bar", 300), ("2025.04.01", 100)];
        for (v, _) in engines {
            executable(&data.join(format!("engine/{v}/spring{exe}")));
            std::fs::create_dir_all(data.join(format!("engine/{v}/base"))).unwrap();
        }
        // only the older engine has a headless build
        executable(&data.join(format!(
            "engine/105.1.1-2511-g747f18b bar/spring-headless{exe}"
        )));
        for (v, ago) in engines {
            age(&data.join(format!("engine/{v}")), ago);
        }
        let (old, new, lobby) = ("a".repeat(32), "b".repeat(32), "c".repeat(32));
        std::fs::create_dir_all(data.join("packages")).unwrap();
        for (md5, ago) in [(&old, 500), (&new, 200), (&lobby, 50)] {
            let p = data.join(format!("packages/{md5}.sdp"));
            std::fs::write(&p, b"").unwrap();
            age(&p, ago);
        }
        let repo = data.join("rapid/repos.springrts.com/byar");
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::write(
            repo.join("versions.gz"),
            gz(&format!(
                "byar:test,{old},,Beyond All Reason test-1-aaa\n\
                 byar:test,{new},,Beyond All Reason test-2-bbb\n\
                 byar:test,{},,Beyond All Reason test-3-not-downloaded\n\
                 broken line\n",
                "d".repeat(32)
            )),
        )
        .unwrap();
        let lobby_repo = data.join("rapid/repos.springrts.com/byar-chobby");
        std::fs::create_dir_all(&lobby_repo).unwrap();
        std::fs::write(
            lobby_repo.join("versions.gz"),
            gz(&format!("byar-chobby:test,{lobby},,BYAR Chobby test-9\n")),
        )
        .unwrap();
        data
    }

    #[test]
    fn rapid_versions_are_read_and_bad_lines_skipped() {
        let v = read_rapid_versions(&gz(&format!(
            "byar:test,{},,Beyond All Reason test-1, with a comma\nshort,line\n",
            "A".repeat(32)
        )));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].md5, "a".repeat(32));
        assert_eq!(v[0].name, "Beyond All Reason test-1, with a comma");
        assert!(read_rapid_versions(b"not gzip").is_empty());
    }

    #[test]
    fn bars_newest_engine_and_game_are_found() {
        let home = tempfile::tempdir().unwrap();
        let data = fake_bar(home.path());
        let s = search(home.path());
        let e = s.find(Flavour::Gl, None).unwrap();
        assert_eq!(e.source, EngineSource::Bar);
        assert_eq!(
            e.binary,
            data.join(format!("engine/2025.04.01/{}", Flavour::Gl.binary_name()))
        );
        assert_eq!(e.data_dirs, vec![data.join("engine/2025.04.01")]);
        assert_eq!(e.bar_data_dir.as_deref(), Some(data.as_path()));
        let game = e.game.unwrap();
        assert_eq!(game.name, "Beyond All Reason test-2-bbb");
        assert_eq!(game.tag, "byar:test");
        // headless: the newest engine that has the headless build
        let h = s.find(Flavour::Headless, None).unwrap();
        assert!(h.binary.to_string_lossy().contains("105.1.1"), "{h:?}");
    }

    #[test]
    fn plain_spring_is_found_on_the_path_then_in_the_usual_folders() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let mut s = search(h);
        let err = s.find(Flavour::Headless, None).unwrap_err();
        assert!(
            err.contains("no spring-headless") && err.contains("--engine"),
            "{err}"
        );
        // Debian's layout: /usr/games/spring-headless and /usr/share/games/spring
        let games = h.join("usr/games");
        executable(&games.join(Flavour::Headless.binary_name()));
        std::fs::create_dir_all(h.join("usr/share/games/spring/base")).unwrap();
        s.usual_dirs = vec![games.clone()];
        let e = s.find(Flavour::Headless, None).unwrap();
        assert_eq!(e.source, EngineSource::System);
        assert_eq!(e.binary, games.join(Flavour::Headless.binary_name()));
        assert_eq!(e.data_dirs, vec![h.join("usr/share/games/spring")]);
        assert_eq!(e.game, None);
        // the PATH comes first
        let bin = h.join("opt/spring");
        executable(&bin.join(Flavour::Headless.binary_name()));
        s.path_var = Some(std::env::join_paths([h.join("nothing"), bin.clone()]).unwrap());
        assert_eq!(
            s.find(Flavour::Headless, None).unwrap().binary,
            bin.join(Flavour::Headless.binary_name())
        );
    }

    #[test]
    fn an_explicit_engine_or_the_variable_wins() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let data = fake_bar(h);
        let fake = h.join("fake.sh");
        executable(&fake);
        let mut s = search(h);
        s.engine_var = Some(fake.clone());
        let e = s.find(Flavour::Gl, None).unwrap();
        assert_eq!(
            (e.binary.clone(), e.source),
            (fake.clone(), EngineSource::Variable)
        );
        assert!(e.game.is_none() && e.data_dirs.is_empty());
        // an explicit BAR binary still finds BAR's game
        let bar = data.join(format!("engine/2025.04.01/{}", Flavour::Gl.binary_name()));
        let e = s.find(Flavour::Gl, Some(&bar)).unwrap();
        assert_eq!(e.source, EngineSource::Explicit);
        assert_eq!(e.game.unwrap().name, "Beyond All Reason test-2-bbb");
        let err = s.find(Flavour::Gl, Some(&h.join("missing"))).unwrap_err();
        assert!(
            err.starts_with("--engine ") && err.ends_with("no such file"),
            "{err}"
        );
    }
}
