//! The CPU bake of the texture layers, made fast: row by row and a layer at a time. Each
//! texel row interpolates the vertex fields (heights, slope, curvature, shore, occlusion), the
//! mask cells, the noise lattice and each material's picture once along the row, then every
//! texel is a lerp of two neighbours; a layer's material is read only where its weight is not
//! 0. Any set of 256x256 blocks can be baked alone (the compile cache bakes only the blocks
//! whose inputs changed), and a block's texels are the same whether baked alone or with the
//! whole map. [`super::ground_layers::bake_per_texel`] is the plain definition it follows,
//! within a level a channel (the lerps are taken in another order).

use crate::map::float::floor;
use rayon::prelude::*;

use super::ground_layers::{
    AmbientOcclusion, Bend, MASK_NEUTRAL, MASK_TEXEL_ELMOS, Material, MaterialImage, OCTAVE_2_SEED,
    TEXELS_PER_SQUARE, TerrainFields, ambient_occlusion, fall, lattice, rise,
};
use super::{ELMOS_PER_SQUARE, Grid, GroundTexture, Map};

/// The ground texture the engine gets: the map's picture with every layer composited over it,
/// bottom first (`images` from [`super::ground_layers::material_images`]), then darkened by the ambient occlusion
/// when the map asks for it. No layers and no occlusion: the picture itself. Fast
/// ([`Baking`]); within a level a channel of [`super::ground_layers::bake_per_texel`].
pub fn bake(map: &Map, images: &[Option<MaterialImage>]) -> GroundTexture {
    if map.texture_layers.is_empty() && map.texture_ao.is_none() {
        return map.texture.clone();
    }
    Baking::new(map, images).bake()
}

/// Bakes the texture layers over the picture (`images`: the layers' pictures).
pub type BakeFn = fn(&Map, &[Option<MaterialImage>]) -> Result<GroundTexture, String>;

/// A bake other than the CPU's own ([`bake`]): the GPU's, which the compile takes
/// (`compile::CompileOptions::baker`) and the GPU module makes.
#[derive(Clone, Debug)]
pub struct Baker {
    /// What bakes (the adapter and its driver): the compile cache keeps its texels apart
    /// from another baker's, which may differ by a level.
    pub name: String,
    pub bake: BakeFn,
}

/// Texels a side of the blocks [`Baking::bake_blocks`] bakes (8 tiles of 32).
pub const BAKE_BLOCK_TEXELS: usize = 256;

/// Everything a bake reads, prepared once: the terrain's fields and each texel column's place
/// among the vertices, the mask cells and each material's texels.
pub struct Baking<'a> {
    map: &'a Map,
    images: &'a [Option<MaterialImage>],
    fields: TerrainFields,
    /// The ambient occlusion at each vertex and its strength, when the map asks for it.
    occlusion: Option<(Grid<f32>, f32)>,
    /// Per texel column: the vertex to its left and how far across to the next (0..1).
    vertex_cols: Vec<(u32, f32)>,
    /// Per texel column: the mask cells either side and how far across (0..1).
    cell_cols: Vec<(u32, u32, f32)>,
    /// Per layer with a picture, per texel column: its texels either side and how far across.
    material_cols: Vec<Option<Vec<(u32, u32, f32)>>>,
    /// Which vertex fields some layer reads: heights, slope, curvature, shore.
    reads: [bool; 4],
}

/// Elmos a baked texel covers.
const TEXEL_ELMOS: f32 = ELMOS_PER_SQUARE as f32 / TEXELS_PER_SQUARE;

/// The centre of texel `t` in elmos.
fn texel_centre_elmos(t: usize) -> f32 {
    (t as f32 + 0.5) * TEXEL_ELMOS
}

/// Where `x_elmos` falls among `n` vertices 8 elmos apart: the one below and the fraction.
fn vertex_place(x_elmos: f32, n: usize) -> (u32, f32) {
    let u = (x_elmos / ELMOS_PER_SQUARE as f32).clamp(0.0, (n - 1) as f32);
    let i = floor(u);
    (i as u32, u - i)
}

/// Where `x_elmos` falls among `n` mask cells (bilinear between cell centres, clamped).
fn cell_place(x_elmos: f32, n: usize) -> (u32, u32, f32) {
    let x = (x_elmos / MASK_TEXEL_ELMOS - 0.5).clamp(0.0, (n - 1) as f32);
    let c = floor(x);
    let c0 = c as usize;
    (c0 as u32, (c0 + 1).min(n - 1) as u32, x - c)
}

/// Where `x_elmos` falls in a picture `n` texels across repeating every `scale_elmos`.
fn picture_place(x_elmos: f32, scale_elmos: f32, n: usize) -> (u32, u32, f32) {
    let x = (x_elmos / scale_elmos).rem_euclid(1.0) * n as f32 - 0.5;
    let x0 = floor(x);
    let wrap = |i: f32| (i as i64).rem_euclid(n as i64) as u32;
    (wrap(x0), wrap(x0 + 1.0), x - x0)
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// One texel row's working buffers, reused from row to row.
#[derive(Default)]
struct Scratch {
    acc: Vec<[f32; 3]>,
    weight: Vec<f32>,
    /// A vertex or cell row, interpolated between the two rows around the texel row.
    line: Vec<f32>,
    /// Per texel of the span: heights, slope, curvature, shore (those read).
    fields: [Vec<f32>; 4],
    image_row: Vec<[f32; 3]>,
}

impl<'a> Baking<'a> {
    /// Prepares the bake of `map`'s layers (`images` from
    /// [`super::ground_layers::material_images`]).
    pub fn new(map: &'a Map, images: &'a [Option<MaterialImage>]) -> Baking<'a> {
        let layers = &map.texture_layers;
        let need_shore = layers.iter().any(|l| l.rules.near_water.is_some());
        let fields = TerrainFields::new(map, need_shore);
        let occlusion = map.texture_ao.map(|ao: AmbientOcclusion| {
            (
                ambient_occlusion(&map.heights, ao.radius_elmos),
                ao.strength.clamp(0.0, 1.0),
            )
        });
        let tw = map.texture.width();
        let (vw, mw) = (map.heights.width(), map.metal.width());
        let vertex_cols = (0..tw)
            .map(|t| vertex_place(texel_centre_elmos(t), vw))
            .collect();
        let cell_cols = (0..tw)
            .map(|t| cell_place(texel_centre_elmos(t), mw))
            .collect();
        let material_cols = layers
            .iter()
            .zip(images)
            .map(|(l, img)| match (&l.material, img) {
                (
                    Material::Builtin { scale_elmos, .. } | Material::Picture { scale_elmos, .. },
                    Some(img),
                ) => Some(
                    (0..tw)
                        .map(|t| picture_place(texel_centre_elmos(t), *scale_elmos, img.width))
                        .collect(),
                ),
                _ => None,
            })
            .collect();
        let reads = [
            layers.iter().any(|l| l.rules.height_elmos.is_some()),
            layers.iter().any(|l| l.rules.slope_deg.is_some()),
            layers.iter().any(|l| l.rules.curvature.is_some()),
            layers.iter().any(|l| l.rules.near_water.is_some()),
        ];
        Baking {
            map,
            images,
            fields,
            occlusion,
            vertex_cols,
            cell_cols,
            material_cols,
            reads,
        }
    }

    /// A key per block ([`block_grid`] order) that changes whenever anything its texels come
    /// from changes, and only then (but by a 2^-128 chance): `baker` (what bakes), the stack
    /// (materials and their pictures, rules, opacities, the occlusion's settings), the block's
    /// place and picture texels, and the values of the fields, masks and metal cells its texels
    /// read, around the block. A distance to the shore beyond every shore rule's reach (12
    /// elmos more, so no cell spans it) is hashed as that reach: raising ground far from a
    /// block leaves it alone, though the distance changes.
    pub fn block_keys(&self, baker: &str) -> Vec<[u8; 16]> {
        use xxhash_rust::xxh3::Xxh3;
        let map = self.map;
        let (tw, th) = (map.texture.width(), map.texture.height());
        let (bx, by) = block_grid(tw, th);
        let mut stack = Xxh3::new();
        stack.update(b"groundwork bake v1\0");
        stack.update(baker.as_bytes());
        for v in [
            tw,
            th,
            map.heights.width(),
            map.heights.height(),
            map.metal.width(),
            map.metal.height(),
        ] {
            stack.update(&(v as u64).to_le_bytes());
        }
        for (l, img) in map.texture_layers.iter().zip(self.images) {
            // everything of the layer but its name and its mask (hashed per block)
            let text = format!(
                "{:?} {:?} {} {:?} {}\0",
                l.material,
                l.rules,
                l.opacity,
                l.splat_channel,
                l.mask.is_some()
            );
            stack.update(text.as_bytes());
            if let Some(img) = img {
                stack.update(&(img.width as u64).to_le_bytes());
                stack.update(&(img.height as u64).to_le_bytes());
                stack.update(&img.rgba);
            }
        }
        stack.update(
            format!(
                "{:?} {}",
                map.texture_ao,
                self.fields.shore_distance_elmos.is_some()
            )
            .as_bytes(),
        );
        let stack = stack.digest128().to_le_bytes();
        let shore_reach = map
            .texture_layers
            .iter()
            .filter_map(|l| l.rules.near_water)
            .map(|b| b.max.max(b.max + b.soft))
            .fold(f32::NEG_INFINITY, f32::max)
            + 12.0;
        let grids = [
            Some(&map.heights),
            Some(&self.fields.slope_deg),
            Some(&self.fields.curvature_elmos),
            self.fields.shore_distance_elmos.as_ref(),
        ];
        let under_metal = map.texture_layers.iter().any(|l| l.rules.under_metal);
        (0..bx * by)
            .into_par_iter()
            .map(|b| {
                let mut h = Xxh3::new();
                h.update(&stack);
                h.update(&(b as u64).to_le_bytes());
                let (x0, y0) = ((b % bx) * BAKE_BLOCK_TEXELS, (b / bx) * BAKE_BLOCK_TEXELS);
                let (x1, y1) = (
                    (x0 + BAKE_BLOCK_TEXELS).min(tw),
                    (y0 + BAKE_BLOCK_TEXELS).min(th),
                );
                let rgba = map.texture.rgba();
                for y in y0..y1 {
                    h.update(&rgba[(y * tw + x0) * 4..(y * tw + x1) * 4]);
                }
                // the vertices the block's texels lerp between
                let (vw, vh) = map.heights.dims();
                let i0 = self.vertex_cols[x0].0 as usize;
                let i1 = (self.vertex_cols[x1 - 1].0 as usize + 1).min(vw - 1);
                let j0 = vertex_place(texel_centre_elmos(y0), vh).0 as usize;
                let j1 = (vertex_place(texel_centre_elmos(y1 - 1), vh).0 as usize + 1).min(vh - 1);
                // the values gathered, then hashed in one update (an update per value cost
                // more than the hashing)
                let mut bytes = Vec::with_capacity((j1 + 1 - j0) * (i1 + 1 - i0) * 4);
                let mut window = |g: &Grid<f32>, clamp: f32| {
                    bytes.clear();
                    for j in j0..=j1 {
                        for &v in &g.data()[j * vw + i0..=j * vw + i1] {
                            bytes.extend_from_slice(&v.min(clamp).to_bits().to_le_bytes());
                        }
                    }
                    h.update(&bytes);
                };
                for (k, g) in grids.iter().enumerate() {
                    if let (true, Some(g)) = (self.reads[k], g) {
                        window(g, if k == 3 { shore_reach } else { f32::INFINITY });
                    }
                }
                if let Some((occ, _)) = &self.occlusion {
                    window(occ, f32::INFINITY);
                }
                // the mask cells they lerp between
                let (mw, mh) = map.metal.dims();
                let c0 = self.cell_cols[x0].0 as usize;
                let c1 = self.cell_cols[x1 - 1].1 as usize;
                let r0 = cell_place(texel_centre_elmos(y0), mh).0 as usize;
                let r1 = cell_place(texel_centre_elmos(y1 - 1), mh).1 as usize;
                let masks = map
                    .texture_layers
                    .iter()
                    .filter_map(|l| l.mask.as_ref())
                    .chain(under_metal.then_some(&map.metal));
                for g in masks {
                    for r in r0..=r1 {
                        h.update(&g.data()[r * mw + c0..=r * mw + c1]);
                    }
                }
                h.digest128().to_le_bytes()
            })
            .collect()
    }

    /// The whole texture baked.
    pub fn bake(&self) -> GroundTexture {
        let tex = &self.map.texture;
        let mut rgba = tex.rgba().to_vec();
        let blocks = block_grid(tex.width(), tex.height());
        self.bake_blocks(&mut rgba, &vec![true; blocks.0 * blocks.1], &|| true);
        GroundTexture::from_rgba(tex.width(), tex.height(), rgba).expect("the picture's own size")
    }

    /// Bakes the [`BAKE_BLOCK_TEXELS`] blocks marked in `wanted` (row-major over
    /// [`block_grid`]) into `rgba`, which holds the map's picture there (the texture's size);
    /// the other texels are left as they are. `row_done` is told of each row of texels
    /// baked; once it answers false the rows not yet begun are left (a cancelled compile).
    pub fn bake_blocks(
        &self,
        rgba: &mut [u8],
        wanted: &[bool],
        row_done: &(dyn Fn() -> bool + Sync),
    ) {
        let (tw, th) = (self.map.texture.width(), self.map.texture.height());
        let (bx, by) = block_grid(tw, th);
        assert_eq!(wanted.len(), bx * by, "one flag per block");
        assert_eq!(rgba.len(), tw * th * 4, "the texture's size");
        rgba.par_chunks_mut(tw * 4).enumerate().for_each_init(
            Scratch::default,
            |scratch, (ty, row)| {
                let flags = &wanted[(ty / BAKE_BLOCK_TEXELS) * bx..][..bx];
                if !flags.contains(&true) || !row_done() {
                    return;
                }
                let mut b = 0;
                while b < bx {
                    if !flags[b] {
                        b += 1;
                        continue;
                    }
                    // a run of wanted blocks is one span
                    let first = b;
                    while b < bx && flags[b] {
                        b += 1;
                    }
                    let tx0 = first * BAKE_BLOCK_TEXELS;
                    let tx1 = (b * BAKE_BLOCK_TEXELS).min(tw);
                    self.bake_span(ty, tx0, &mut row[tx0 * 4..tx1 * 4], scratch);
                }
            },
        );
    }

    /// Bakes texels `tx0..` of row `ty`: `span` holds their picture texels (RGBA) and gets
    /// the baked ones.
    fn bake_span(&self, ty: usize, tx0: usize, span: &mut [u8], s: &mut Scratch) {
        let n = span.len() / 4;
        let tx1 = tx0 + n;
        let z = texel_centre_elmos(ty);
        s.acc.clear();
        s.acc.extend(
            span.chunks_exact(4)
                .map(|p| [p[0] as f32, p[1] as f32, p[2] as f32]),
        );
        s.weight.resize(n, 0.0);
        let vcols = &self.vertex_cols[tx0..tx1];
        // the vertex fields along the row, those some layer reads
        let grids = [
            Some(&self.map.heights),
            Some(&self.fields.slope_deg),
            Some(&self.fields.curvature_elmos),
            self.fields.shore_distance_elmos.as_ref(),
        ];
        for (k, grid) in grids.iter().enumerate() {
            if let (true, Some(g)) = (self.reads[k], grid) {
                let mut out = std::mem::take(&mut s.fields[k]);
                vertex_row(g, z, vcols, &mut s.line, &mut out);
                s.fields[k] = out;
            }
        }
        for (li, (layer, image)) in self.map.texture_layers.iter().zip(self.images).enumerate() {
            if layer.opacity <= 0.0 {
                continue;
            }
            let r = &layer.rules;
            let w = &mut s.weight;
            w.fill(1.0);
            if let Some(b) = r.slope_deg {
                for (w, &v) in w.iter_mut().zip(&s.fields[1]) {
                    *w *= b.weight(v);
                }
            }
            if let Some(b) = r.height_elmos {
                for (w, &v) in w.iter_mut().zip(&s.fields[0]) {
                    *w *= b.weight(v);
                }
            }
            if let Some(c) = r.curvature {
                let sign = match c.bend {
                    Bend::Ridges => 1.0,
                    Bend::Valleys => -1.0,
                };
                let (a, b) = (c.min_elmos - c.soft_elmos, c.min_elmos);
                for (w, &v) in w.iter_mut().zip(&s.fields[2]) {
                    *w *= rise(v * sign, a, b);
                }
            }
            if let Some(b) = r.near_water {
                if self.fields.shore_distance_elmos.is_some() {
                    for (w, &v) in w.iter_mut().zip(&s.fields[3]) {
                        *w *= fall(v, b.max, b.max + b.soft);
                    }
                } else {
                    w.fill(0.0);
                }
            }
            if r.under_metal {
                cell_row(
                    &self.map.metal,
                    z,
                    &self.cell_cols[tx0..tx1],
                    &mut s.line,
                    |b| if b > 0 { 1.0 } else { 0.0 },
                    |w, v| *w *= v,
                    w,
                );
            }
            if let Some(nz) = r.noise
                && w.iter().any(|&v| v != 0.0)
            {
                noise_row(
                    nz.seed,
                    nz.scale_elmos.max(1.0),
                    nz.amount.clamp(0.0, 1.0),
                    z,
                    tx0,
                    &mut s.line,
                    w,
                );
            }
            if let Some(mask) = &layer.mask {
                cell_row(
                    mask,
                    z,
                    &self.cell_cols[tx0..tx1],
                    &mut s.line,
                    |b| ((b as f32 - MASK_NEUTRAL as f32) / 127.0).clamp(-1.0, 1.0),
                    |w, v| *w += v,
                    w,
                );
            }
            let opacity = layer.opacity;
            let mut any = false;
            for w in w.iter_mut() {
                *w = w.clamp(0.0, 1.0) * opacity;
                any |= *w > 0.0;
            }
            if !any {
                continue;
            }
            match (&layer.material, image, &self.material_cols[li]) {
                (
                    Material::Builtin {
                        scale_elmos, tint, ..
                    }
                    | Material::Picture {
                        scale_elmos, tint, ..
                    },
                    Some(img),
                    Some(cols),
                ) => {
                    picture_row(img, *scale_elmos, z, &mut s.image_row);
                    let row = &s.image_row;
                    for ((acc, &w), &(xa, xb, fx)) in
                        s.acc.iter_mut().zip(w.iter()).zip(&cols[tx0..tx1])
                    {
                        if w <= 0.0 {
                            continue;
                        }
                        let (a, b) = (row[xa as usize], row[xb as usize]);
                        for k in 0..3 {
                            let m = (a[k] * (1.0 - fx) + b[k] * fx) * tint[k];
                            acc[k] += (m - acc[k]) * w;
                        }
                    }
                }
                (material, _, _) => {
                    let m = match material {
                        Material::Solid { color } => color.map(|c| c as f32),
                        // a picture that could not be had: the caller reported it
                        _ => [128.0; 3],
                    };
                    for (acc, &w) in s.acc.iter_mut().zip(w.iter()) {
                        if w > 0.0 {
                            for k in 0..3 {
                                acc[k] += (m[k] - acc[k]) * w;
                            }
                        }
                    }
                }
            }
        }
        for (p, acc) in span.chunks_exact_mut(4).zip(&s.acc) {
            for k in 0..3 {
                p[k] = acc[k].round().clamp(0.0, 255.0) as u8;
            }
        }
        if let Some((occ, strength)) = &self.occlusion {
            let mut f = std::mem::take(&mut s.weight);
            vertex_row(occ, z, vcols, &mut s.line, &mut f);
            for (p, &o) in span.chunks_exact_mut(4).zip(&f) {
                let f = 1.0 - strength * o;
                for c in &mut p[..3] {
                    *c = (*c as f32 * f).round().clamp(0.0, 255.0) as u8;
                }
            }
            s.weight = f;
        }
    }
}

/// How many [`BAKE_BLOCK_TEXELS`] blocks a texture of `width` x `height` texels has across and
/// down (the last ones cut short when the size is no multiple).
pub fn block_grid(width: usize, height: usize) -> (usize, usize) {
    (
        width.div_ceil(BAKE_BLOCK_TEXELS),
        height.div_ceil(BAKE_BLOCK_TEXELS),
    )
}

/// `g` (on the vertex grid) at each texel of a row at `z_elmos`, the texels' columns
/// `cols`: the two vertex rows around it blended into `line` once, then a lerp per texel.
fn vertex_row(
    g: &Grid<f32>,
    z_elmos: f32,
    cols: &[(u32, f32)],
    line: &mut Vec<f32>,
    out: &mut Vec<f32>,
) {
    let (w, h) = g.dims();
    let (j0, fz) = vertex_place(z_elmos, h);
    let j0 = j0 as usize;
    let j1 = (j0 + 1).min(h - 1);
    let lo = cols.first().map_or(0, |c| c.0 as usize);
    let hi = cols.last().map_or(0, |c| c.0 as usize);
    let (r0, r1) = (&g.data()[j0 * w..][..w], &g.data()[j1 * w..][..w]);
    line.clear();
    line.extend((lo..=hi + 1).map(|i| {
        // the vertex past the last is the last (clamped, as the grid's own sampling)
        let i = i.min(w - 1);
        r0[i] + (r1[i] - r0[i]) * fz
    }));
    out.clear();
    out.extend(cols.iter().map(|&(i, fx)| {
        let i = i as usize - lo;
        let (a, b) = (line[i], line[i + 1]);
        a + (b - a) * fx
    }));
}

/// `f` of a byte grid (one per mask cell) at each texel of a row, bilinear between cell
/// centres, handed to `apply` with each texel's weight.
fn cell_row(
    g: &Grid<u8>,
    z_elmos: f32,
    cols: &[(u32, u32, f32)],
    line: &mut Vec<f32>,
    f: impl Fn(u8) -> f32,
    apply: impl Fn(&mut f32, f32),
    weights: &mut [f32],
) {
    let (w, h) = g.dims();
    let (r0, r1, fz) = cell_place(z_elmos, h);
    let lo = cols.first().map_or(0, |c| c.0 as usize);
    let hi = cols.last().map_or(0, |c| c.1 as usize);
    let (r0, r1) = (
        &g.data()[r0 as usize * w..][..w],
        &g.data()[r1 as usize * w..][..w],
    );
    line.clear();
    line.extend((lo..=hi).map(|c| f(r0[c]) * (1.0 - fz) + f(r1[c]) * fz));
    for (wt, &(c0, c1, fx)) in weights.iter_mut().zip(cols) {
        let v = line[c0 as usize - lo] * (1.0 - fx) + line[c1 as usize - lo] * fx;
        apply(wt, v);
    }
}

/// Multiplies each non-zero weight of a row by `1 - amount * noise` (the layer's value noise,
/// two octaves, features `scale_elmos` across), texels from `tx0`.
fn noise_row(
    seed: u32,
    scale_elmos: f32,
    amount: f32,
    z_elmos: f32,
    tx0: usize,
    line: &mut Vec<f32>,
    weights: &mut [f32],
) {
    let n = weights.len();
    let zs = z_elmos / scale_elmos;
    let x_first = texel_centre_elmos(tx0) / scale_elmos;
    let x_last = texel_centre_elmos(tx0 + n - 1) / scale_elmos;
    // each octave's lattice columns blended between the two lattice rows, then per texel
    let octave = |seed: u32, freq: f32, line: &mut Vec<f32>| -> i32 {
        let z = zs * freq;
        let z0 = floor(z);
        let sz = smooth(z - z0);
        let j = z0 as i32;
        let lo = floor(x_first * freq) as i32;
        let hi = floor(x_last * freq) as i32 + 1;
        line.clear();
        line.extend(
            (lo..=hi).map(|i| lattice(seed, i, j) * (1.0 - sz) + lattice(seed, i, j + 1) * sz),
        );
        lo
    };
    let mut second = Vec::new();
    let lo1 = octave(seed, 1.0, line);
    let lo2 = octave(seed ^ OCTAVE_2_SEED, 2.0, &mut second);
    let at = |line: &[f32], lo: i32, x: f32| {
        let x0 = floor(x);
        let sx = smooth(x - x0);
        let i = (x0 as i32 - lo) as usize;
        line[i] * (1.0 - sx) + line[i + 1] * sx
    };
    for (t, w) in weights.iter_mut().enumerate() {
        if *w == 0.0 {
            continue;
        }
        let x = texel_centre_elmos(tx0 + t) / scale_elmos;
        let v = (at(line, lo1, x) * 2.0 + at(&second, lo2, x * 2.0)) / 3.0;
        *w *= 1.0 - amount * v;
    }
}

/// The picture's row at `z_elmos` (repeating every `scale_elmos`): its two texel rows around
/// it blended, RGB, one entry per texel across.
fn picture_row(img: &MaterialImage, scale_elmos: f32, z_elmos: f32, out: &mut Vec<[f32; 3]>) {
    let (ya, yb, fy) = picture_place(z_elmos, scale_elmos, img.height);
    let w = img.width;
    let (ra, rb) = (
        &img.rgba[ya as usize * w * 4..][..w * 4],
        &img.rgba[yb as usize * w * 4..][..w * 4],
    );
    out.clear();
    out.extend(
        ra.chunks_exact(4)
            .zip(rb.chunks_exact(4))
            .map(|(a, b)| [0, 1, 2].map(|c| a[c] as f32 * (1.0 - fy) + b[c] as f32 * fy)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::ground_layers::{
        Band, Breakup, Curvature, Rules, TextureLayer, bake_per_texel, material_images,
    };
    use crate::map::materials::BuiltinMaterial;
    use crate::map::{MapSettings, MapSize};

    /// A 2x2 map with hills, a lake, metal, and every kind of rule, mask and material.
    fn rich_map() -> (Map, Vec<Option<MaterialImage>>) {
        let mut m = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        let (w, d) = m.heights.dims();
        for j in 0..d {
            for i in 0..w {
                let (x, z) = (i as f32, j as f32);
                let h = 120.0 * (x * 0.09).sin() * (z * 0.07).cos() + 0.02 * x * x - 40.0;
                m.heights.set(i, j, h);
            }
        }
        let (mw, mh) = m.metal.dims();
        for j in 20..26 {
            for i in 30..37 {
                m.metal.set(i, j, 200);
            }
        }
        let mut mask = Grid::filled(mw, mh, MASK_NEUTRAL);
        for j in 0..mh {
            for i in 0..mw {
                if (i as i32 - 40).pow(2) + (j as i32 - 12).pow(2) < 60 {
                    mask.set(i, j, 255);
                } else if i < 6 {
                    mask.set(i, j, 0);
                }
            }
        }
        let builtin = |kind, scale| Material::Builtin {
            kind,
            scale_elmos: scale,
            tint: [1.0, 0.9, 0.8],
        };
        let mut layers = vec![
            TextureLayer::new("Grass", builtin(BuiltinMaterial::Grass, 256.0)),
            TextureLayer::new("Rock", builtin(BuiltinMaterial::Rock, 97.0)),
            TextureLayer::new(
                "Snow",
                Material::Solid {
                    color: [240, 240, 250],
                },
            ),
            TextureLayer::new("Mud", builtin(BuiltinMaterial::Mud, 300.0)),
            TextureLayer::new(
                "Tiles",
                Material::Picture {
                    file: "tiles.png".into(),
                    scale_elmos: 77.0,
                    tint: [1.0, 1.0, 1.0],
                },
            ),
            TextureLayer::new(
                "Ore",
                Material::Solid {
                    color: [200, 40, 30],
                },
            ),
        ];
        layers[0].rules = Rules {
            slope_deg: Some(Band {
                min: 0.0,
                max: 14.0,
                soft: 6.0,
            }),
            noise: Some(Breakup {
                seed: 3,
                scale_elmos: 150.0,
                amount: 0.5,
            }),
            ..Rules::default()
        };
        layers[1].rules.slope_deg = Some(Band {
            min: 30.0,
            max: 90.0,
            soft: 8.0,
        });
        layers[2].rules.height_elmos = Some(Band {
            min: 60.0,
            max: 400.0,
            soft: 20.0,
        });
        layers[2].opacity = 0.7;
        layers[3].rules.curvature = Some(Curvature {
            bend: Bend::Valleys,
            min_elmos: 0.5,
            soft_elmos: 0.5,
        });
        layers[3].rules.near_water = Some(Band {
            min: 0.0,
            max: 40.0,
            soft: 30.0,
        });
        layers[4].mask = Some(mask);
        layers[4].rules.height_elmos = Some(Band {
            min: 500.0,
            max: 600.0,
            soft: 0.0,
        });
        layers[5].rules.under_metal = true;
        m.texture_layers = layers;
        m.texture_ao = Some(AmbientOcclusion {
            strength: 0.6,
            radius_elmos: 64.0,
        });
        // a picture of an odd size, so its texels fall anywhere between the baked ones
        let (pw, ph) = (37, 23);
        let tiles = MaterialImage {
            width: pw,
            height: ph,
            rgba: (0..pw * ph)
                .flat_map(|i| {
                    [
                        (i * 7 % 256) as u8,
                        (i * 13 % 256) as u8,
                        (i % 97) as u8,
                        255,
                    ]
                })
                .collect(),
        };
        let images = material_images(&m.texture_layers, &|_| Ok(tiles.clone())).unwrap();
        (m, images)
    }

    #[test]
    fn the_fast_bake_is_the_plain_definition_within_a_level() {
        let (m, images) = rich_map();
        let fast = Baking::new(&m, &images).bake();
        let plain = bake_per_texel(&m, &images);
        let mut differ = 0;
        for (a, b) in fast.rgba().iter().zip(plain.rgba()) {
            assert!(a.abs_diff(*b) <= 1, "{a} against {b}");
            differ += (a != b) as usize;
        }
        // rounding alone: a few texels in a thousand
        assert!(differ * 200 < fast.rgba().len(), "{differ} channels differ");
        // and every layer shows somewhere: the map is not the picture
        let changed = fast
            .rgba()
            .iter()
            .zip(m.texture.rgba())
            .filter(|(a, b)| a != b)
            .count();
        assert!(changed * 2 > fast.rgba().len(), "{changed}");
    }

    #[test]
    fn blocks_baked_alone_are_those_of_the_whole_bake() {
        let (m, images) = rich_map();
        let baking = Baking::new(&m, &images);
        let whole = baking.bake();
        let (bx, by) = block_grid(m.texture.width(), m.texture.height());
        let wanted: Vec<bool> = (0..bx * by).map(|b| b % 3 == 1).collect();
        let mut some = m.texture.rgba().to_vec();
        baking.bake_blocks(&mut some, &wanted, &|| true);
        let w = m.texture.width();
        for (i, (p, (a, b))) in some
            .chunks_exact(4)
            .zip(
                whole
                    .rgba()
                    .chunks_exact(4)
                    .zip(m.texture.rgba().chunks_exact(4)),
            )
            .enumerate()
        {
            let block = (i / w / BAKE_BLOCK_TEXELS) * bx + (i % w) / BAKE_BLOCK_TEXELS;
            assert_eq!(p, if wanted[block] { a } else { b }, "texel {i}");
        }
        // told to stop, it bakes no further rows
        let mut none = m.texture.rgba().to_vec();
        baking.bake_blocks(&mut none, &vec![true; bx * by], &|| false);
        assert!(none == m.texture.rgba());
    }

    /// The blocks whose texels differ between two bakes, and those whose keys do.
    fn changes(a: &Map, b: &Map, images: &[Option<MaterialImage>]) -> (Vec<bool>, Vec<bool>) {
        let (ka, kb) = (
            Baking::new(a, images).block_keys("cpu"),
            Baking::new(b, images).block_keys("cpu"),
        );
        let (ta, tb) = (Baking::new(a, images).bake(), Baking::new(b, images).bake());
        let w = a.texture.width();
        let bx = block_grid(w, a.texture.height()).0;
        let mut texels = vec![false; ka.len()];
        for (i, (p, q)) in ta
            .rgba()
            .chunks_exact(4)
            .zip(tb.rgba().chunks_exact(4))
            .enumerate()
        {
            if p != q {
                texels[(i / w / BAKE_BLOCK_TEXELS) * bx + (i % w) / BAKE_BLOCK_TEXELS] = true;
            }
        }
        let keys = ka.iter().zip(&kb).map(|(x, y)| x != y).collect();
        (texels, keys)
    }

    #[test]
    fn a_block_keeps_its_key_exactly_when_its_texels_cannot_change() {
        let (m, images) = rich_map();
        // a raise far from the lake: only the blocks around it change key, and every block
        // whose texels changed did
        let mut raised = m.clone();
        for j in 90..100 {
            for i in 100..110 {
                let h = raised.heights.get(i, j);
                raised.heights.set(i, j, h + 30.0);
            }
        }
        let (texels, keys) = changes(&m, &raised, &images);
        assert!(texels.contains(&true));
        for (b, (t, k)) in texels.iter().zip(&keys).enumerate() {
            assert!(!t || *k, "block {b} changed under an unchanged key");
        }
        assert!(keys.iter().filter(|&&k| k).count() <= 4, "{keys:?}");
        // a mask cell painted, a metal spot moved, the picture touched: the same
        let mut painted = m.clone();
        painted.texture_layers[4]
            .mask
            .as_mut()
            .unwrap()
            .set(10, 50, 255);
        let mut metal = m.clone();
        metal.metal.set(60, 60, 255);
        let mut picture = m.clone();
        for y in 512..768 {
            for x in 256..512 {
                picture.texture.rgba_mut()[4 * (y * 1024 + x)] ^= 0x40;
            }
        }
        for (what, other) in [("mask", &painted), ("metal", &metal), ("picture", &picture)] {
            let (texels, keys) = changes(&m, other, &images);
            assert!(texels.contains(&true), "{what}");
            assert!(texels.iter().zip(&keys).all(|(t, k)| !t || *k));
            assert!(keys.iter().filter(|&&k| k).count() <= 2, "{keys:?}");
        }
        // a rule changed, the baker changed: every block
        let mut ruled = m.clone();
        ruled.texture_layers[1].rules.slope_deg = Some(Band {
            min: 31.0,
            max: 90.0,
            soft: 8.0,
        });
        let (_, keys) = changes(&m, &ruled, &images);
        assert!(keys.iter().all(|&k| k));
        let baking = Baking::new(&m, &images);
        let (a, b) = (baking.block_keys("cpu"), baking.block_keys("gpu x"));
        assert!(a.iter().zip(&b).all(|(x, y)| x != y));
    }
}
