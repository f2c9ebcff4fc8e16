//! Round trips, the real fixtures, and every way a file can be broken.

use super::*;
use crate::formats::bytes::PutLe;

fn sample() -> SmfFile {
    let (mx, my) = (128usize, 256usize);
    SmfFile {
        map_id: 1234,
        mapx: mx as u32,
        mapy: my as u32,
        min_height_elmos: -50.0,
        max_height_elmos: 250.0,
        heights: (0..(mx + 1) * (my + 1)).map(|i| (i * 7) as u16).collect(),
        types: (0..mx / 2 * my / 2).map(|i| (i % 3) as u8).collect(),
        minimap: vec![0x55; MINIMAP_BYTES],
        metal: (0..mx / 2 * my / 2).map(|i| (i % 251) as u8).collect(),
        grass: Some((0..mx / 4 * my / 4).map(|i| (i % 5) as u8).collect()),
        tile_files: vec![SmfTileFile {
            tile_count: 3,
            name: "x.smt".into(),
        }],
        tile_index: (0..mx / 4 * my / 4).map(|i| (i % 3) as u32).collect(),
        feature_types: builtin_feature_types(),
        features: vec![SmfFeature {
            type_index: 16,
            x_elmos: 100.0,
            y_elmos: 0.0,
            z_elmos: 200.0,
            heading: 16384.0,
            relative_size: 1.0,
        }],
    }
}

#[test]
fn write_then_read_is_identity() {
    let s = sample();
    let bytes = write_smf(&s);
    assert_eq!(read_smf(&bytes, "t.smf").unwrap(), s);
    let mut no_grass = s;
    no_grass.grass = None;
    assert_eq!(read_smf(&write_smf(&no_grass), "t.smf").unwrap(), no_grass);
}

#[test]
fn every_truncation_is_a_clear_error() {
    let bytes = write_smf(&sample());
    // every section boundary and a spread of points inside them
    let mut cuts: Vec<usize> = (0..bytes.len()).step_by(997).collect();
    cuts.extend([0, 1, 15, 16, 79, 80, 91, 92, bytes.len() - 1]);
    for cut in cuts {
        let e = read_smf(&bytes[..cut], "t.smf").unwrap_err().to_string();
        assert!(e.starts_with("t.smf: "), "cut {cut}: {e}");
    }
}

fn patch_i32(bytes: &mut [u8], at: usize, v: i32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn lies_in_the_header_are_rejected() {
    let good = write_smf(&sample());
    let cases: &[(usize, i32, &str)] = &[
        (16, 2, "version"),
        (24, 100, "multiple of 128"),
        (24, i32::MAX, "multiple of 128"),
        (28, -128, "negative"),
        (32, 16, "8/8/32"),
        (52, 1 << 30, "truncated"),
        (52, -4, "header"),
        (76, 1 << 30, "numExtraHeaders"),
    ];
    for &(at, v, want) in cases {
        let mut b = good.clone();
        patch_i32(&mut b, at, v);
        let e = read_smf(&b, "t.smf").unwrap_err().to_string();
        assert!(e.contains(want), "patch @{at}={v}: {e}");
    }
    let mut b = good.clone();
    b[0] = b'S';
    assert!(
        read_smf(&b, "t.smf")
            .unwrap_err()
            .to_string()
            .contains("magic")
    );
}

#[test]
fn absurd_counts_do_not_allocate() {
    let s = sample();
    let good = write_smf(&s);
    let tiles_ptr = i32::from_le_bytes(good[60..64].try_into().unwrap()) as usize;
    let feature_ptr = i32::from_le_bytes(good[72..76].try_into().unwrap()) as usize;
    for (at, v, want) in [
        (tiles_ptr, i32::MAX, "numTileFiles"),
        (tiles_ptr + 4, 99, "numTiles"),
        (feature_ptr, i32::MAX, "numFeatureTypes"),
        (feature_ptr + 4, i32::MAX, "numFeatures"),
        (feature_ptr + 4, -1, "negative"),
    ] {
        let mut b = good.clone();
        patch_i32(&mut b, at, v);
        let e = read_smf(&b, "t.smf").unwrap_err().to_string();
        assert!(e.contains(want), "patch @{at}={v}: {e}");
    }
}

#[test]
fn tile_indices_out_of_range_are_named() {
    let mut s = sample();
    s.tile_index[5] = 3;
    let e = read_smf(&write_smf(&s), "t.smf").unwrap_err().to_string();
    assert!(
        e.contains("tile index at (5, 0) is 3, but the map has only 3 tiles"),
        "{e}"
    );
}

#[test]
fn feature_types_out_of_range_are_named() {
    let mut s = sample();
    s.features[0].type_index = 17;
    let e = read_smf(&write_smf(&s), "t.smf").unwrap_err().to_string();
    assert!(e.contains("feature 0 has type 17"), "{e}");
}

#[test]
fn headings_convert_from_degrees() {
    assert_eq!(SmfFeature::heading_from_deg(90.0), 16384.0);
    assert_eq!(SmfFeature::heading_from_deg(270.0), -16384.0);
    assert_eq!(SmfFeature::heading_from_deg(180.0), -32768.0);
    let f = SmfFeature {
        type_index: 0,
        x_elmos: 0.0,
        y_elmos: 0.0,
        z_elmos: 0.0,
        heading: 16384.0,
        relative_size: 1.0,
    };
    assert_eq!(f.rotation_deg(), 90.0);
}

#[test]
fn extra_headers_of_unknown_type_are_skipped_by_size() {
    let s = sample();
    let mut b = write_smf(&s);
    // turn the vegetation header into an unknown type: the grass disappears, nothing else changes
    patch_i32(&mut b, 84, 77);
    let r = read_smf(&b, "t.smf").unwrap();
    assert_eq!(r.grass, None);
    assert_eq!(r.heights, s.heights);
    let mut tiny = vec![];
    tiny.put_i32(4);
    b[80..84].copy_from_slice(&tiny);
    assert!(read_smf(&b, "t.smf").is_err());
    // the vegetation header is read however small its size claims to be (mapcompile writes 4)
    let mut b = write_smf(&s);
    b[80..84].copy_from_slice(&tiny);
    assert_eq!(read_smf(&b, "t.smf").unwrap().grass, s.grass);
}

fn fixture(rel: &str) -> Option<Vec<u8>> {
    let shared = std::env::var_os("GROUNDWORK_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    std::fs::read(shared.join("fixtures").join(rel)).ok()
}

#[test]
fn real_maps_read() {
    let Some(gd) = fixture("bar/Great_Divide.smf") else {
        crate::test_support::skip("fixtures not found");
        return;
    };
    let s = read_smf(&gd, "Great_Divide.smf").unwrap();
    assert_eq!((s.mapx, s.mapy), (384, 512));
    assert_eq!(s.heights.len(), 385 * 513);
    assert!(s.tile_count() > 0);
    let bp = fixture("bar/Map_Blueprint_V1.sdd/maps/Map_Blueprint_V1.smf").unwrap();
    let s = read_smf(&bp, "Map_Blueprint_V1.smf").unwrap();
    assert_eq!((s.mapx, s.mapy), (128, 128));
    // writing what we read gives a file that reads back the same
    assert_eq!(read_smf(&write_smf(&s), "again").unwrap(), s);
}
