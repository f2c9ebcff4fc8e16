//! Round trips through all three containers, determinism, hostile names, cancellation.

use super::*;

fn sample() -> Vec<ArchiveFile> {
    vec![
        ArchiveFile::new(
            "maps/Big_Map.smt".into(),
            (0..300_000u32).map(|i| (i % 251) as u8).collect(),
        ),
        ArchiveFile::new("mapinfo.lua".into(), b"return {}".to_vec()),
        ArchiveFile::new("maps/Big_Map.smf".into(), vec![7; 1000]),
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

/// An archive of one entry of `mib` MiB of zeros, and a small real one beside it.
fn bomb(ext: &str, mib: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(format!("bomb.{ext}"));
    let files = vec![
        ArchiveFile::new("mapinfo.lua".into(), b"return {}".to_vec()),
        ArchiveFile::new("maps/zeros.smt".into(), vec![0; mib << 20]),
    ];
    write_archive(&out, &files, &mut no_progress()).unwrap();
    (dir, out)
}

#[test]
fn archive_bombs_are_refused_naming_the_entry() {
    for ext in ["sdz", "sd7"] {
        let (_dir, out) = bomb(ext, 80);
        let packed = std::fs::metadata(&out).unwrap().len();
        assert!(packed < 1 << 20, "{ext}: {packed} bytes");
        let e = ArchiveContents::read(&out).unwrap_err().to_string();
        assert!(e.contains("archive bomb"), "{ext}: {e}");
        if ext == "sdz" {
            assert!(e.contains("maps/zeros.smt"), "{e}");
        }
    }
    // a real archive of the same size that does not pack away is read
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("noise.sdz");
    let mut x = 0x2545_f491u32;
    let noise: Vec<u8> = (0..(70usize << 20))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    let files = vec![ArchiveFile::new("maps/noise.smt".into(), noise)];
    write_archive(&out, &files, &mut no_progress()).unwrap();
    assert_eq!(ArchiveContents::read(&out).unwrap().files().len(), 1);
}

#[test]
fn an_entry_over_the_per_entry_limit_is_refused_before_it_is_read() {
    let mut b = Budget {
        what: "x.sdz",
        bytes: 0,
        entries: 0,
    };
    let e = b
        .take("maps/huge.smt", MAX_ENTRY_BYTES + 1, Some(MAX_ENTRY_BYTES))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("maps/huge.smt") && e.contains("one entry"),
        "{e}"
    );
    assert!(b.take("maps/ok.smt", 10 << 20, Some(8 << 20)).is_ok());
}

/// A file that takes `room` bytes and then reports a full disk, as a real one does.
struct FullAfter {
    inner: std::io::Cursor<Vec<u8>>,
    room: usize,
}

impl Write for FullAfter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let left = self.room.saturating_sub(self.inner.get_ref().len());
        if left == 0 {
            return Err(std::io::Error::from(std::io::ErrorKind::StorageFull));
        }
        self.inner.write(&buf[..buf.len().min(left)])
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Seek for FullAfter {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[test]
fn a_full_disk_while_packing_is_one_line_in_words() {
    let files = sample();
    let sorted: Vec<&ArchiveFile> = files.iter().collect();
    // the whole archive's size, to cut it off at points inside it
    let mut whole = std::io::Cursor::new(Vec::new());
    write_sd7_to(
        &mut whole,
        Path::new("m.sd7"),
        &sorted,
        &mut no_progress(),
        None,
        &mut Vec::new(),
    )
    .unwrap();
    let size = whole.into_inner().len();
    for room in [0, 100, size / 2, size - 1] {
        let out = FullAfter {
            inner: std::io::Cursor::new(Vec::new()),
            room,
        };
        let e = write_sd7_to(
            out,
            Path::new("m.sd7.partial-1"),
            &sorted,
            &mut no_progress(),
            None,
            &mut Vec::new(),
        )
        .unwrap_err()
        .disk_full_as(Path::new("maps/My_Map_1.0.sd7"));
        assert_eq!(
            e.to_string(),
            "no space left on device while writing maps/My_Map_1.0.sd7",
            "room {room}"
        );
    }
    // the same for the other containers' writes, through the one I/O error
    let e = FormatError::io(
        Path::new("maps/x.smt"),
        std::io::Error::from(std::io::ErrorKind::StorageFull),
    );
    assert_eq!(
        e.to_string(),
        "no space left on device while writing maps/x.smt"
    );
}
