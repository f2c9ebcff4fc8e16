//! Rapid, the engine's download system, as BAR installs it: `rapid/<host>/<repo>/versions.gz`
//! names each version's package (`packages/<md5>.sdp`). The one rule for which package is BAR's
//! game, used by every reader of BAR's files and by the engine search.

use std::io::Read;
use std::path::{Path, PathBuf};

/// One line of a rapid `versions.gz`: `tag,md5,depends,name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RapidVersion {
    pub tag: String,
    pub md5: String,
    pub name: String,
}

/// Reads a rapid `versions.gz` (gzipped text, one `tag,md5,depends,name` a line; lines that
/// do not have four fields are skipped). At most 16 MiB of text is read.
pub fn read_rapid_versions(gz: &[u8]) -> Vec<RapidVersion> {
    let mut text = String::new();
    let read = flate2::read::GzDecoder::new(gz)
        .take(16 << 20)
        .read_to_string(&mut text);
    if read.is_err() {
        return Vec::new();
    }
    text.lines()
        .filter_map(|l| {
            let mut f = l.trim().splitn(4, ',');
            let (tag, md5, _depends, name) = (f.next()?, f.next()?, f.next()?, f.next()?);
            (!tag.is_empty() && md5.len() == 32 && !name.trim().is_empty()).then(|| RapidVersion {
                tag: tag.to_string(),
                md5: md5.to_ascii_lowercase(),
                name: name.trim().to_string(),
            })
        })
        .collect()
}

/// BAR's game package in `data_dir`: of the rapid versions whose package is there and whose
/// tag is BAR's (`byar:...`, not the lobby's `byar-chobby:...`), the one whose package was
/// written last, with its version. A folder with packages and no rapid index at all (copied by
/// hand) gives its newest package, without a version.
pub fn bar_package(data_dir: &Path) -> Option<(PathBuf, Option<RapidVersion>)> {
    let mut versions = Vec::new();
    let mut indexed = false;
    if let Ok(repos) = std::fs::read_dir(data_dir.join("rapid")) {
        for repo in repos.flatten() {
            let Ok(entries) = std::fs::read_dir(repo.path()) else {
                continue;
            };
            for e in entries.flatten() {
                if let Ok(gz) = std::fs::read(e.path().join("versions.gz")) {
                    indexed = true;
                    versions.extend(read_rapid_versions(&gz));
                }
            }
        }
    }
    if !indexed {
        return newest_package(data_dir).map(|p| (p, None));
    }
    versions
        .into_iter()
        .filter(|v| v.tag.split(':').next() == Some("byar"))
        .filter_map(|v| {
            let sdp = data_dir.join("packages").join(format!("{}.sdp", v.md5));
            let written = std::fs::metadata(&sdp).and_then(|m| m.modified()).ok()?;
            Some((written, sdp, v))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, sdp, v)| (sdp, Some(v)))
}

/// The most recently written `packages/*.sdp`.
fn newest_package(data_dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(data_dir.join("packages"))
        .ok()?
        .flatten()
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("sdp"))
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn gz(text: &str) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    /// The lobby's package, written after the game's, is not BAR's game; a folder with no
    /// rapid index gives its newest package.
    #[test]
    fn bars_package_is_the_newest_with_bars_tag() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let (game, lobby) = ("a".repeat(32), "b".repeat(32));
        std::fs::create_dir_all(d.join("packages")).unwrap();
        std::fs::write(d.join(format!("packages/{game}.sdp")), b"game").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(d.join(format!("packages/{lobby}.sdp")), b"lobby").unwrap();
        assert_eq!(
            bar_package(d).unwrap().0,
            d.join(format!("packages/{lobby}.sdp")),
            "no index: the newest"
        );
        for (repo, line) in [
            (
                "byar",
                format!("byar:test,{game},,Beyond All Reason test-1\n"),
            ),
            (
                "byar-chobby",
                format!("byar-chobby:test,{lobby},,BYAR Chobby test-9\n"),
            ),
        ] {
            let r = d.join("rapid/repos.springrts.com").join(repo);
            std::fs::create_dir_all(&r).unwrap();
            std::fs::write(r.join("versions.gz"), gz(&line)).unwrap();
        }
        let (sdp, version) = bar_package(d).unwrap();
        assert_eq!(sdp, d.join(format!("packages/{game}.sdp")));
        assert_eq!(version.unwrap().name, "Beyond All Reason test-1");
    }
}
