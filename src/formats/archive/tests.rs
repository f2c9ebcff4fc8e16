//! Round trips through all three containers, determinism, hostile names, cancellation.

use super::*;

fn sample() -> Vec<ArchiveFile> {
    vec![
        ArchiveFile {
            path: "maps/Big_Map.smt".into(),
            data: (0..300_000u32).map(|i| (i % 251) as u8).collect(),
        },
        ArchiveFile {
            path: "mapinfo.lua".into(),
            data: b"return {}".to_vec(),
        },
        ArchiveFile {
            path: "maps/Big_Map.smf".into(),
            data: vec![7; 1000],
        },
    ]
}

fn no_progress() -> impl FnMut(u64, u64) -> bool {
    |_, _| true
}

#[test]
fn every_container_round_trips_and_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["sdd", "sdz", "sd7"] {
        let out = dir.path().join(format!("m.{ext}"));
        write_archive(&out, &sample(), &mut no_progress()).unwrap();
        let back = ArchiveContents::read(&out).unwrap();
        let mut want = sample();
        want.sort_by(|a, b| a.path.cmp(&b.path));
        assert_eq!(back.files(), &want[..], "{ext}");
        // the engine resolves names case-insensitively, and so do we
        assert!(back.find("MAPS\\big_map.SMT").is_some());
        if ext != "sdd" {
            let first = std::fs::read(&out).unwrap();
            write_archive(&out, &sample(), &mut no_progress()).unwrap();
            assert_eq!(
                first,
                std::fs::read(&out).unwrap(),
                "{ext} is not deterministic"
            );
        } else {
            // rewriting a folder replaces it
            write_archive(&out, &sample()[1..2], &mut no_progress()).unwrap();
            assert_eq!(ArchiveContents::read(&out).unwrap().files().len(), 1);
        }
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 3, "temporary files left behind: {left:?}");
}

#[test]
fn cancelling_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["sdd", "sdz", "sd7"] {
        let out = dir.path().join(format!("c.{ext}"));
        let mut calls = 0;
        let r = write_archive(&out, &sample(), &mut |_, _| {
            calls += 1;
            calls < 2
        });
        assert!(matches!(r, Err(FormatError::Cancelled)), "{ext}: {r:?}");
        assert!(!out.exists(), "{ext}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn hostile_entry_names_are_refused() {
    for name in ["../../x", "/etc/passwd", "a/../../b", "C:/x", "..\\evil"] {
        assert!(normalize_entry_path(name, "t").is_err(), "{name}");
    }
    assert_eq!(
        normalize_entry_path("./maps//a.smf", "t").unwrap(),
        "maps/a.smf"
    );
    // a real zip holding ../../x
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("evil.sdz");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
    z.start_file("../../x", zip::write::SimpleFileOptions::default())
        .unwrap();
    z.write_all(b"boom").unwrap();
    z.finish().unwrap();
    let e = ArchiveContents::read(&p).unwrap_err().to_string();
    assert!(e.contains("\"../../x\" points outside the archive"), "{e}");
}

#[test]
fn broken_archives_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["sdz", "sd7"] {
        let out = dir.path().join(format!("t.{ext}"));
        write_archive(&out, &sample(), &mut no_progress()).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        for cut in [0, 10, bytes.len() / 2, bytes.len() - 3] {
            let p = dir.path().join(format!("cut{cut}.{ext}"));
            std::fs::write(&p, &bytes[..cut]).unwrap();
            assert!(ArchiveContents::read(&p).is_err(), "{ext} cut at {cut}");
        }
    }
    assert!(ArchiveContents::read(&dir.path().join("none.sd7")).is_err());
    assert!(ArchiveContents::read(&dir.path().join("x.zip")).is_err());
}
