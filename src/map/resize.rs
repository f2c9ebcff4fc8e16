//! Map > Resize: a map of another size made from this one, every layer moved with it. The
//! canvas changes (crop or extend, anchored at a side, a corner or the centre) or the whole map
//! scales. Heights, metal, grass, types, the ground picture, the texture layers' masks,
//! features and start positions all follow; metal spots keep their shape and yield.

use rayon::prelude::*;

use super::{Grid, Map, MapSize, ground_layers::MASK_NEUTRAL};
use crate::map::size::ELMOS_PER_SQUARE;

/// Where the old map sits along one axis of the new canvas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// At the low edge (x = 0 or z = 0): the canvas grows or shrinks at the far side.
    Start,
    /// In the middle: the canvas changes equally at both sides.
    #[default]
    Centre,
    /// At the far edge.
    End,
}

impl Anchor {
    pub const ALL: [Anchor; 3] = [Anchor::Start, Anchor::Centre, Anchor::End];

    /// The old map's offset in the new one along this axis, in squares.
    fn offset_squares(self, old_squares: u32, new_squares: u32) -> i64 {
        let grow = new_squares as i64 - old_squares as i64;
        match self {
            Anchor::Start => 0,
            // both sides are whole even units, so half the change is whole units
            Anchor::Centre => grow / 2,
            Anchor::End => grow,
        }
    }
}

impl std::str::FromStr for Anchor {
    type Err = String;
    fn from_str(s: &str) -> Result<Anchor, String> {
        match s {
            "start" => Ok(Anchor::Start),
            "centre" | "center" => Ok(Anchor::Centre),
            "end" => Ok(Anchor::End),
            _ => Err(format!("no anchor `{s}`: start, centre or end")),
        }
    }
}

/// How the map becomes its new size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResizeHow {
    /// Crop or extend the canvas; the ground keeps its scale. Extended ground continues the
    /// edge (heights, types, the picture, layer masks); metal and grass are empty there.
    Canvas { x: Anchor, z: Anchor },
    /// Stretch or shrink the whole map to the new size; heights keep their elmos, so slopes
    /// change with the scale. Metal spots move with the map but keep their shape and yield.
    Scale,
}

/// A resize request: the new size and how to get there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resize {
    pub size: MapSize,
    pub how: ResizeHow,
}

/// The resized map and what the mapmaker should know about it.
pub struct Resized {
    pub map: Map,
    /// One line each: features dropped, starts moved onto the map, symmetry given up.
    pub notes: Vec<String>,
}

/// `map` at the new size. Errors (one line) when nothing would change or the map's symmetry
/// mode does not allow the size.
pub fn resize(map: &Map, request: Resize) -> Result<Resized, String> {
    let (old, new) = (map.size, request.size);
    if new == old {
        return Err(format!("the map is already {new}"));
    }
    map.symmetry
        .check_map(new.width_units(), new.height_units())?;
    let mut notes = Vec::new();
    let mut out = map.clone();
    out.size = new;
    match request.how {
        ResizeHow::Canvas { x, z } => {
            let dx = x.offset_squares(old.squares_x(), new.squares_x());
            let dz = z.offset_squares(old.squares_z(), new.squares_z());
            let shift = |g: &Grid<u8>, dims: (usize, usize), squares_per_cell: i64, edge: bool| {
                canvas(
                    g,
                    dims,
                    dx / squares_per_cell,
                    dz / squares_per_cell,
                    edge,
                    0,
                )
            };
            out.heights = resize_heights(&map.heights, old, request);
            out.metal = shift(&map.metal, new.metal_cells(), 2, false);
            out.types = shift(&map.types, new.metal_cells(), 2, true);
            out.grass = shift(&map.grass, new.grass_cells(), 4, false);
            for layer in &mut out.texture_layers {
                if let Some(m) = &layer.mask {
                    layer.mask = Some(canvas(
                        m,
                        new.metal_cells(),
                        dx / 2,
                        dz / 2,
                        false,
                        MASK_NEUTRAL,
                    ));
                }
            }
            let (tw, th) = new.texture_texels();
            out.texture = super::GroundTexture::from_rgba(
                tw,
                th,
                canvas_rgba(
                    map.texture.rgba(),
                    (map.texture.width(), map.texture.height()),
                    (tw, th),
                    dx * 8,
                    dz * 8,
                ),
            )
            .expect("sized");
            let (ox, oz) = (
                (dx * ELMOS_PER_SQUARE as i64) as f32,
                (dz * ELMOS_PER_SQUARE as i64) as f32,
            );
            let (w, d) = (new.width_elmos(), new.depth_elmos());
            let before = out.features.len();
            out.features = map
                .features
                .iter()
                .map(|f| super::Feature {
                    x_elmos: f.x_elmos + ox,
                    z_elmos: f.z_elmos + oz,
                    ..f.clone()
                })
                .filter(|f| (0.0..=w).contains(&f.x_elmos) && (0.0..=d).contains(&f.z_elmos))
                .collect();
            let dropped = before - out.features.len();
            if dropped > 0 {
                notes.push(format!(
                    "{dropped} feature{} fell outside the new map and were removed",
                    if dropped == 1 { "" } else { "s" }
                ));
            }
            for (i, t) in out.teams.iter_mut().enumerate() {
                let (sx, sz) = (t.start_x_elmos + ox, t.start_z_elmos + oz);
                t.start_x_elmos = sx.clamp(0.0, w);
                t.start_z_elmos = sz.clamp(0.0, d);
                if (t.start_x_elmos, t.start_z_elmos) != (sx, sz) {
                    notes.push(format!(
                        "team {i}'s start fell outside the new map; it is at its edge now ({:.0}, {:.0}): move it",
                        t.start_x_elmos, t.start_z_elmos
                    ));
                }
            }
            let (old_w, old_d) = (old.width_elmos(), old.depth_elmos());
            for set in &mut out.start_boxes {
                for b in &mut set.boxes {
                    let e = super::start_boxes::box_to_elmos(*b, old_w, old_d);
                    *b = super::start_boxes::box_from_elmos(
                        [e[0] + ox, e[1] + oz, e[2] + ox, e[3] + oz],
                        w,
                        d,
                    );
                }
            }
            let centred = (x == Anchor::Centre || new.squares_x() == old.squares_x())
                && (z == Anchor::Centre || new.squares_z() == old.squares_z());
            if !centred && map.symmetry != super::SymmetryMode::None {
                notes.push(format!(
                    "the map was not resized about its centre, so it is no longer {} about it",
                    map.symmetry.label()
                ));
            }
        }
        ResizeHow::Scale => {
            let fx = new.squares_x() as f32 / old.squares_x() as f32;
            let fz = new.squares_z() as f32 / old.squares_z() as f32;
            out.heights = resize_heights(&map.heights, old, request);
            out.metal = scale_metal(&map.metal, new.metal_cells(), fx, fz);
            out.types = scale_nearest(&map.types, new.metal_cells());
            out.grass = scale_nearest(&map.grass, new.grass_cells());
            for layer in &mut out.texture_layers {
                if let Some(m) = &layer.mask {
                    layer.mask = Some(scale_bytes_bilinear(m, new.metal_cells()));
                }
            }
            let (tw, th) = new.texture_texels();
            out.texture = super::GroundTexture::from_rgba(
                tw,
                th,
                scale_rgba(
                    map.texture.rgba(),
                    (map.texture.width(), map.texture.height()),
                    (tw, th),
                ),
            )
            .expect("sized");
            for f in &mut out.features {
                f.x_elmos *= fx;
                f.z_elmos *= fz;
            }
            for t in &mut out.teams {
                t.start_x_elmos *= fx;
                t.start_z_elmos *= fz;
            }
            if (fx - fz).abs() > 1e-6 {
                notes.push(format!(
                    "scaled by {fx:.2} across and {fz:.2} down: round things are oval now"
                ));
            }
        }
    }
    out.check_layers().map_err(|e| e.to_string())?;
    Ok(Resized { map: out, notes })
}

/// The heights alone as [`resize`] moves them: a map of size `old`'s heights at the new size
/// (the restore tool's target follows a resize with this).
pub fn resize_heights(heights: &Grid<f32>, old: MapSize, request: Resize) -> Grid<f32> {
    let new = request.size;
    match request.how {
        ResizeHow::Canvas { x, z } => canvas(
            heights,
            new.height_vertices(),
            x.offset_squares(old.squares_x(), new.squares_x()),
            z.offset_squares(old.squares_z(), new.squares_z()),
            true,
            0.0,
        ),
        ResizeHow::Scale => scale_heights(heights, new.height_vertices()),
    }
}

/// `src` on a canvas of `dims` with its (0, 0) at (`dx`, `dz`) cells; cells off the old grid
/// take its nearest edge (`edge`) or `fill`.
fn canvas<T: Copy + Send + Sync>(
    src: &Grid<T>,
    dims: (usize, usize),
    dx: i64,
    dz: i64,
    edge: bool,
    fill: T,
) -> Grid<T> {
    let (w, h) = dims;
    let (sw, sh) = (src.width() as i64, src.height() as i64);
    let mut data = vec![fill; w * h];
    data.par_chunks_mut(w).enumerate().for_each(|(z, row)| {
        let oz = z as i64 - dz;
        for (x, v) in row.iter_mut().enumerate() {
            let ox = x as i64 - dx;
            if (0..sw).contains(&ox) && (0..sh).contains(&oz) {
                *v = src.get(ox as usize, oz as usize);
            } else if edge {
                *v = src.get_clamped(ox, oz);
            }
        }
    });
    Grid::from_vec(w, h, data).expect("sized")
}

/// The RGBA picture on a canvas, its (0, 0) at (`dx`, `dz`) texels; new ground continues the
/// nearest edge texel.
fn canvas_rgba(
    src: &[u8],
    (sw, sh): (usize, usize),
    (w, h): (usize, usize),
    dx: i64,
    dz: i64,
) -> Vec<u8> {
    let mut out = vec![0u8; w * h * 4];
    out.par_chunks_mut(w * 4).enumerate().for_each(|(z, row)| {
        let oz = (z as i64 - dz).clamp(0, sh as i64 - 1) as usize;
        let src_row = &src[oz * sw * 4..(oz + 1) * sw * 4];
        for x in 0..w {
            let ox = (x as i64 - dx).clamp(0, sw as i64 - 1) as usize;
            row[x * 4..x * 4 + 4].copy_from_slice(&src_row[ox * 4..ox * 4 + 4]);
        }
    });
    out
}

/// Heights on the vertex grid of `dims`: the map's corners stay its corners, bilinear between.
fn scale_heights(src: &Grid<f32>, (w, h): (usize, usize)) -> Grid<f32> {
    let sx = (src.width() - 1) as f32 / (w - 1) as f32;
    let sz = (src.height() - 1) as f32 / (h - 1) as f32;
    let mut data = vec![0.0f32; w * h];
    data.par_chunks_mut(w).enumerate().for_each(|(z, row)| {
        for (x, v) in row.iter_mut().enumerate() {
            *v = src.sample_bilinear(x as f32 * sx, z as f32 * sz);
        }
    });
    Grid::from_vec(w, h, data).expect("sized")
}

/// The source cell under each new cell's centre.
fn nearest_index(i: usize, new_len: usize, old_len: usize) -> usize {
    (((i as f64 + 0.5) * old_len as f64 / new_len as f64) as usize).min(old_len - 1)
}

/// A cell layer (types, grass) scaled by taking the cell under each new cell's centre.
fn scale_nearest(src: &Grid<u8>, (w, h): (usize, usize)) -> Grid<u8> {
    let mut data = vec![0u8; w * h];
    for z in 0..h {
        let oz = nearest_index(z, h, src.height());
        for x in 0..w {
            data[z * w + x] = src.get(nearest_index(x, w, src.width()), oz);
        }
    }
    Grid::from_vec(w, h, data).expect("sized")
}

/// A byte layer (a painted mask) scaled bilinearly between cell centres.
fn scale_bytes_bilinear(src: &Grid<u8>, (w, h): (usize, usize)) -> Grid<u8> {
    let f = Grid::from_vec(
        src.width(),
        src.height(),
        src.data().iter().map(|&b| b as f32).collect(),
    )
    .expect("sized");
    let (sx, sz) = (
        src.width() as f32 / w as f32,
        src.height() as f32 / h as f32,
    );
    let mut data = vec![0u8; w * h];
    for z in 0..h {
        for x in 0..w {
            let v = f.sample_bilinear((x as f32 + 0.5) * sx - 0.5, (z as f32 + 0.5) * sz - 0.5);
            data[z * w + x] = v.round().clamp(0.0, 255.0) as u8;
        }
    }
    Grid::from_vec(w, h, data).expect("sized")
}

/// The metal map scaled: each patch of metal (8-connected cells above 0) moves so its centre
/// lands where the scale puts it, keeping its shape, so every spot keeps its yield.
fn scale_metal(src: &Grid<u8>, (w, h): (usize, usize), fx: f32, fz: f32) -> Grid<u8> {
    let (sw, sh) = src.dims();
    let mut seen = vec![false; sw * sh];
    let mut out = Grid::filled(w, h, 0u8);
    for start in 0..sw * sh {
        if seen[start] || src.data()[start] == 0 {
            continue;
        }
        // one patch, by flood fill
        let mut patch = Vec::new();
        let mut todo = vec![start];
        seen[start] = true;
        while let Some(c) = todo.pop() {
            let (i, j) = (c % sw, c / sw);
            patch.push((i, j));
            for dj in -1i64..=1 {
                for di in -1i64..=1 {
                    let (ni, nj) = (i as i64 + di, j as i64 + dj);
                    if ni < 0 || nj < 0 || ni >= sw as i64 || nj >= sh as i64 {
                        continue;
                    }
                    let n = nj as usize * sw + ni as usize;
                    if !seen[n] && src.data()[n] != 0 {
                        seen[n] = true;
                        todo.push(n);
                    }
                }
            }
        }
        let n = patch.len() as f32;
        let (cx, cz) = patch.iter().fold((0.0f32, 0.0f32), |(a, b), &(i, j)| {
            (a + i as f32 + 0.5, b + j as f32 + 0.5)
        });
        let (cx, cz) = (cx / n, cz / n);
        let (ox, oz) = ((cx * fx - cx).round() as i64, (cz * fz - cz).round() as i64);
        for (i, j) in patch {
            let (ni, nj) = (i as i64 + ox, j as i64 + oz);
            if (0..w as i64).contains(&ni) && (0..h as i64).contains(&nj) {
                let (ni, nj) = (ni as usize, nj as usize);
                let v = out.get(ni, nj).max(src.get(i, j));
                out.set(ni, nj, v);
            }
        }
    }
    out
}

/// The RGBA picture scaled: each new texel averages the old texels whose centres fall in its
/// footprint when shrinking, bilinear between old texels when growing.
fn scale_rgba(src: &[u8], (sw, sh): (usize, usize), (w, h): (usize, usize)) -> Vec<u8> {
    let (rx, rz) = (sw as f64 / w as f64, sh as f64 / h as f64);
    let mut out = vec![0u8; w * h * 4];
    let texel = |x: usize, z: usize, c: usize| src[(z * sw + x) * 4 + c] as f64;
    // footprint [lo, hi) of new index i along an axis, at least one old texel
    let span = |i: usize, r: f64, len: usize| {
        let lo = ((i as f64 * r).round() as usize).min(len - 1);
        let hi = (((i + 1) as f64 * r).round() as usize).clamp(lo + 1, len);
        (lo, hi)
    };
    out.par_chunks_mut(w * 4).enumerate().for_each(|(z, row)| {
        for x in 0..w {
            let px = &mut row[x * 4..x * 4 + 4];
            if rx >= 1.0 && rz >= 1.0 {
                let ((x0, x1), (z0, z1)) = (span(x, rx, sw), span(z, rz, sh));
                let count = ((x1 - x0) * (z1 - z0)) as f64;
                for (c, p) in px.iter_mut().enumerate() {
                    let mut sum = 0.0;
                    for zz in z0..z1 {
                        for xx in x0..x1 {
                            sum += texel(xx, zz, c);
                        }
                    }
                    *p = (sum / count).round() as u8;
                }
            } else {
                let fx = ((x as f64 + 0.5) * rx - 0.5).clamp(0.0, (sw - 1) as f64);
                let fz = ((z as f64 + 0.5) * rz - 0.5).clamp(0.0, (sh - 1) as f64);
                let (x0, z0) = (fx.floor() as usize, fz.floor() as usize);
                let (x1, z1) = ((x0 + 1).min(sw - 1), (z0 + 1).min(sh - 1));
                let (tx, tz) = (fx - x0 as f64, fz - z0 as f64);
                for (c, p) in px.iter_mut().enumerate() {
                    let top = texel(x0, z0, c) * (1.0 - tx) + texel(x1, z0, c) * tx;
                    let bottom = texel(x0, z1, c) * (1.0 - tx) + texel(x1, z1, c) * tx;
                    *p = (top * (1.0 - tz) + bottom * tz).round() as u8;
                }
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Feature, MapSettings, SymmetryMode, Team, metal};

    /// A 4x4 map with a hill, a metal dome, grass, a type patch, a feature and two starts.
    fn sample() -> Map {
        let size = MapSize::new(4, 4).unwrap();
        let mut map = Map::new(size, MapSettings::default());
        let (w, h) = map.heights.dims();
        for z in 0..h {
            for x in 0..w {
                let (dx, dz) = (x as f32 - 100.0, z as f32 - 80.0);
                map.heights
                    .set(x, z, 200.0 * (-(dx * dx + dz * dz) / 800.0).exp());
            }
        }
        metal::paint_dome(&mut map.metal, 600.0, 500.0, 48.0, 200.0);
        map.grass.set(10, 12, 3);
        map.types.set(40, 40, 1);
        map.features.push(Feature {
            name: "tree".into(),
            x_elmos: 1900.0,
            z_elmos: 300.0,
            rotation_deg: 30.0,
        });
        map.teams = vec![
            Team {
                start_x_elmos: 300.0,
                start_z_elmos: 300.0,
            },
            Team {
                start_x_elmos: 1700.0,
                start_z_elmos: 1700.0,
            },
        ];
        map
    }

    fn canvas_to(map: &Map, wu: u32, hu: u32, x: Anchor, z: Anchor) -> Resized {
        resize(
            map,
            Resize {
                size: MapSize::new(wu, hu).unwrap(),
                how: ResizeHow::Canvas { x, z },
            },
        )
        .unwrap()
    }

    #[test]
    fn extending_then_cropping_back_gives_the_same_map() {
        let map = sample();
        for (x, z) in [
            (Anchor::Start, Anchor::Start),
            (Anchor::Centre, Anchor::End),
            (Anchor::End, Anchor::Centre),
        ] {
            let big = canvas_to(&map, 8, 6, x, z);
            assert!(big.notes.is_empty(), "{:?}", big.notes);
            big.map.check_layers().unwrap();
            let back = canvas_to(&big.map, 4, 4, x, z).map;
            assert_eq!(back.heights, map.heights);
            assert_eq!(back.metal, map.metal);
            assert_eq!(back.grass, map.grass);
            assert_eq!(back.types, map.types);
            assert_eq!(back.texture, map.texture);
            assert_eq!(back.features, map.features);
            assert_eq!(back.teams, map.teams);
        }
    }

    #[test]
    fn a_centred_extension_moves_everything_by_half_the_growth() {
        let map = sample();
        let big = canvas_to(&map, 8, 4, Anchor::Centre, Anchor::Centre).map;
        // 2 units (1024 elmos, 128 squares) on the left
        assert_eq!(big.features[0].x_elmos, 1900.0 + 1024.0);
        assert_eq!(big.teams[1].start_x_elmos, 1700.0 + 1024.0);
        assert_eq!(big.heights.get(100 + 128, 80), map.heights.get(100, 80));
        assert_eq!(
            big.metal.get(600 / 16 + 64, 500 / 16),
            map.metal.get(37, 31)
        );
        // the new ground continues the edge; no metal or grass appears there
        assert_eq!(big.heights.get(0, 80), map.heights.get(0, 80));
        assert!(big.metal.data().iter().map(|&b| b as u64).sum::<u64>() > 0);
        assert_eq!(
            big.metal.data().iter().map(|&b| b as u64).sum::<u64>(),
            map.metal.data().iter().map(|&b| b as u64).sum::<u64>()
        );
    }

    #[test]
    fn cropping_drops_features_and_keeps_starts_on_the_map() {
        let map = sample();
        let small = canvas_to(&map, 2, 4, Anchor::Start, Anchor::Start);
        assert!(small.map.features.is_empty());
        assert_eq!(small.map.teams.len(), 2);
        assert_eq!(small.map.teams[1].start_x_elmos, 1024.0);
        assert_eq!(small.notes.len(), 2, "{:?}", small.notes);
    }

    #[test]
    fn scaling_keeps_every_spot_and_its_yield_and_moves_it_with_the_map() {
        let map = sample();
        let spots = |m: &Map| metal::bar_spots(&m.metal, m.settings.max_metal, 32.0);
        let before = spots(&map);
        for (wu, hu) in [(8, 8), (2, 2), (6, 4)] {
            let scaled = resize(
                &map,
                Resize {
                    size: MapSize::new(wu, hu).unwrap(),
                    how: ResizeHow::Scale,
                },
            )
            .unwrap()
            .map;
            scaled.check_layers().unwrap();
            let (fx, fz) = (wu as f32 / 4.0, hu as f32 / 4.0);
            let after = spots(&scaled);
            assert_eq!(after.len(), before.len());
            let sum = |m: &Map| m.metal.data().iter().map(|&b| b as u64).sum::<u64>();
            assert_eq!(sum(&scaled), sum(&map), "{wu}x{hu}");
            let (a, b) = (&after[0], &before[0]);
            assert!((a.x_elmos - b.x_elmos * fx).abs() <= 16.0, "{a:?} {b:?}");
            assert!((a.z_elmos - b.z_elmos * fz).abs() <= 16.0, "{a:?} {b:?}");
            // the hill's top moves with the map and keeps its height
            let peak = scaled.height_at(100.0 * 8.0 * fx, 80.0 * 8.0 * fz);
            assert!((peak - 200.0).abs() < 10.0, "{wu}x{hu}: {peak}");
            assert_eq!(scaled.features[0].x_elmos, 1900.0 * fx);
            assert_eq!(scaled.teams[1].start_z_elmos, 1700.0 * fz);
        }
    }

    #[test]
    fn halving_the_picture_averages_each_two_by_two() {
        let src: Vec<u8> = (0..16u8).flat_map(|v| [v * 10, 0, 255, 255]).collect();
        let out = scale_rgba(&src, (4, 4), (2, 2));
        // texels 0, 1, 4, 5 -> 0, 10, 40, 50: 25
        assert_eq!(&out[0..4], &[25, 0, 255, 255]);
    }

    #[test]
    fn symmetry_and_no_change_are_refused() {
        let mut map = sample();
        assert!(
            resize(
                &map,
                Resize {
                    size: map.size,
                    how: ResizeHow::Scale
                }
            )
            .is_err()
        );
        map.symmetry = SymmetryMode::Rotate(4);
        let e = resize(
            &map,
            Resize {
                size: MapSize::new(6, 4).unwrap(),
                how: ResizeHow::Scale,
            },
        )
        .err()
        .unwrap();
        assert!(e.contains("square"), "{e}");
        let off = canvas_to(&map, 6, 6, Anchor::Start, Anchor::Centre);
        assert!(
            off.notes.iter().any(|n| n.contains("no longer")),
            "{:?}",
            off.notes
        );
    }
}
