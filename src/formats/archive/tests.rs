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

/// BC1 blocks of a photographic-like ground, `side` x `side` texels: a smooth colour field with
/// per-texel noise of +-15 levels, drawn for each channel (`independent`) or one for all.
pub(super) fn noisy_ground_bc1(side: usize, independent: bool) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let rgba: Vec<u8> = (0..side * side)
        .flat_map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = |c: u32| {
                let shift = if independent { 8 * c } else { 0 };
                ((x >> shift) & 0xFF) as f32 / 8.0 - 16.0
            };
            let (u, v) = ((i % side) as f32, (i / side) as f32);
            [
                (120.0 + 60.0 * (u * 0.013).sin() + d(0)) as u8,
                (110.0 + 50.0 * (v * 0.009).cos() + d(1)) as u8,
                (90.0 + 40.0 * ((u + v) * 0.011).cos() + d(2)) as u8,
                255,
            ]
        })
        .collect();
    crate::formats::bc1::encode_bc1(&rgba, side, side, Default::default())
}

/// The size of `data` packed as LZMA2 with the noisy settings, as the sampler tries it.
fn lzma2_bytes(data: &[u8]) -> usize {
    let mut o = lzma_rust2::Lzma2Options::with_preset(SD7_LEVEL);
    o.lzma_options.dict_size = SD7_NOISY.0;
    o.lzma_options.nice_len = SD7_NOISY.1;
    let mut w = lzma_rust2::Lzma2Writer::new(Vec::new(), o);
    std::io::Write::write_all(&mut w, data).unwrap();
    w.finish().unwrap().len()
}

#[test]
fn noisy_tiles_are_packed_as_literals_only_where_that_costs_little() {
    // noise in each channel: the BC1 indices are noise and matches find little
    let independent = noisy_ground_bc1(1024, true);
    assert!(matches!(sd7_method(&independent), Sd7Method::Literals));
    let literals = lzma_literals::encode(&independent).len();
    let lzma2 = lzma2_bytes(&independent);
    assert!(
        literals < lzma2,
        "noisy tiles: literals {literals} bytes, LZMA2 {lzma2}"
    );
    // one noise for all channels: LZMA2 finds enough repeats to be worth its time
    let shared = noisy_ground_bc1(1024, false);
    let literals = lzma_literals::encode(&shared).len();
    let lzma2 = lzma2_bytes(&shared);
    assert!(literals as f64 > lzma2 as f64 + SD7_LITERALS_SLACK * shared.len() as f64);
    assert!(matches!(sd7_method(&shared), Sd7Method::Lzma2(_)));
    // a smooth picture (a ramp) packs far better with matches
    let ramp: Vec<u8> = (0..1u32 << 20).map(|i| (i / 4096) as u8).collect();
    assert!(matches!(sd7_method(&ramp), Sd7Method::Lzma2(_)));
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

#[test]
fn a_small_entry_declares_a_dictionary_no_bigger_than_itself() {
    assert_eq!(small_entry_dict_bytes(0), 4096);
    assert_eq!(small_entry_dict_bytes(9), 4096);
    assert_eq!(small_entry_dict_bytes(5000), 8192);
    assert_eq!(small_entry_dict_bytes(1 << 20), 1 << 20);
    assert_eq!(small_entry_dict_bytes(usize::MAX), SD7_PACKABLE.0);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.sd7");
    write_archive(&out, &sample(), &mut no_progress()).unwrap();
    let reader = sevenz_rust2::ArchiveReader::new(
        std::fs::File::open(&out).unwrap(),
        sevenz_rust2::Password::empty(),
    )
    .unwrap();
    let archive = reader.archive();
    // LZMA2's property byte is 0 for a 4 KiB dictionary, 16 for 1 MiB
    let mapinfo = archive
        .files
        .iter()
        .position(|f| f.name() == "mapinfo.lua")
        .unwrap();
    let block = archive.stream_map.file_block_index[mapinfo].unwrap();
    assert_eq!(archive.blocks[block].coders[0].properties(), [0]);
    // and what it declares it reads back
    let back = ArchiveContents::read(&out).unwrap();
    assert_eq!(back.find("mapinfo.lua").unwrap().data, b"return {}");
}
