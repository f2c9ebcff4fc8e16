// The texture layers' rules, as `map::ground_layers::layer_weight` evaluates them (its CPU
// twin, the same f32 arithmetic in the same order): slope and curvature from central
// differences of the vertex heights, bilinear between vertices; height bilinear; the shore
// distance (a chamfer transform the CPU makes) bilinear; metal and the painted mask bilinear
// between cell centres; value noise from the same integer hash. Put in front of the rule
// evaluation pass (`gpu::ground_layers`) and the export bake (`gpu::bake`), which bind
// group 1 as below and their own outputs in group 0.

struct LayerRule {
    // bit 0 slope, 1 height, 2 curvature, 3 near water, 4 under metal, 5 noise, 6 painted mask,
    // 7 curvature picks valleys
    flags: u32,
    noise_seed: u32,
    // the layer's slice of `rule_masks` (when bit 6 is set)
    mask_slice: u32,
    _pad: u32,
    // min, max, soft, unused
    slope_deg: vec4<f32>,
    height_elmos: vec4<f32>,
    // min, soft
    curvature_elmos: vec4<f32>,
    // within, soft
    near_water_elmos: vec4<f32>,
    // scale in elmos, amount
    noise: vec4<f32>,
};

struct RuleGlobals {
    // heightmap vertices along x and z
    vertices: vec2<u32>,
    // 1 when the map has water (the shore texture holds distances), 0 otherwise
    has_shore: u32,
    layer_count: u32,
};

// the vertex heights in elmos
@group(1) @binding(0) var rule_heights: texture_2d<f32>;
// metal cells, bytes as floats (0..255)
@group(1) @binding(1) var rule_metal: texture_2d<f32>;
// the painted masks at metal-cell resolution, bytes as floats (128 leaves the rules alone)
@group(1) @binding(2) var rule_masks: texture_2d_array<f32>;
// elmos from each vertex to the nearest vertex under water
@group(1) @binding(3) var rule_shore: texture_2d<f32>;
@group(1) @binding(4) var<storage, read> rule_layers: array<LayerRule>;
@group(1) @binding(5) var<uniform> rule_globals: RuleGlobals;

const RULE_SLOPE: u32 = 1u;
const RULE_HEIGHT: u32 = 2u;
const RULE_CURVATURE: u32 = 4u;
const RULE_NEAR_WATER: u32 = 8u;
const RULE_UNDER_METAL: u32 = 16u;
const RULE_NOISE: u32 = 32u;
const RULE_MASK: u32 = 64u;
const RULE_VALLEYS: u32 = 128u;
const RULE_MASK_NEUTRAL: f32 = 128.0;
const RULE_CELL_ELMOS: f32 = 16.0;
const RULE_SQUARE_ELMOS: f32 = 8.0;

fn rule_rise(v: f32, a: f32, b: f32) -> f32 {
    if (b <= a) {
        return select(0.0, 1.0, v >= b);
    }
    let t = clamp((v - a) / (b - a), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

fn rule_fall(v: f32, a: f32, b: f32) -> f32 {
    if (b <= a) {
        return select(0.0, 1.0, v <= a);
    }
    return 1.0 - rule_rise(v, a, b);
}

fn rule_band(band: vec4<f32>, v: f32) -> f32 {
    return rule_rise(v, band.x - band.z, band.x) * rule_fall(v, band.y, band.y + band.z);
}

fn rule_height(i: i32, j: i32) -> f32 {
    let last = vec2<i32>(rule_globals.vertices) - vec2<i32>(1, 1);
    return textureLoad(rule_heights, clamp(vec2<i32>(i, j), vec2<i32>(0, 0), last), 0).r;
}

// The slope in degrees (x) and curvature in elmos (y) at vertex (i, j), clamped to the grid.
fn rule_fields_at(vi: i32, vj: i32) -> vec2<f32> {
    let last = vec2<i32>(rule_globals.vertices) - vec2<i32>(1, 1);
    let i = clamp(vi, 0, last.x);
    let j = clamp(vj, 0, last.y);
    let l = rule_height(i - 1, j);
    let r = rule_height(i + 1, j);
    let u = rule_height(i, j - 1);
    let d = rule_height(i, j + 1);
    // one-sided at the edges: the clamped neighbour is the vertex itself
    let sx = select(2.0 * RULE_SQUARE_ELMOS, RULE_SQUARE_ELMOS, i == 0 || i == last.x);
    let sz = select(2.0 * RULE_SQUARE_ELMOS, RULE_SQUARE_ELMOS, j == 0 || j == last.y);
    let gx = (r - l) / sx;
    let gz = (d - u) / sz;
    let slope = degrees(atan(sqrt(gx * gx + gz * gz)));
    let curv = rule_height(i, j) - (l + r + u + d) * 0.25;
    return vec2<f32>(slope, curv);
}

// Where a bilinear sample at (x, z) vertices falls: the corner and the fractions, clamped as
// `Grid::sample_bilinear` clamps.
fn rule_corner(x: f32, z: f32) -> vec4<f32> {
    let last = vec2<f32>(rule_globals.vertices) - vec2<f32>(1.0, 1.0);
    let cx = clamp(x, 0.0, last.x);
    let cz = clamp(z, 0.0, last.y);
    let x0 = floor(cx);
    let z0 = floor(cz);
    return vec4<f32>(x0, z0, cx - x0, cz - z0);
}

fn rule_lerp4(a: f32, b: f32, c: f32, d: f32, fx: f32, fz: f32) -> f32 {
    let top = a + (b - a) * fx;
    let bottom = c + (d - c) * fx;
    return top + (bottom - top) * fz;
}

// Slope (x), curvature (y) and height (z) bilinear at (u, v) vertices.
fn rule_fields(u: f32, v: f32) -> vec3<f32> {
    let c = rule_corner(u, v);
    let i = i32(c.x);
    let j = i32(c.y);
    let a = rule_fields_at(i, j);
    let b = rule_fields_at(i + 1, j);
    let e = rule_fields_at(i, j + 1);
    let f = rule_fields_at(i + 1, j + 1);
    let h = rule_lerp4(
        rule_height(i, j),
        rule_height(i + 1, j),
        rule_height(i, j + 1),
        rule_height(i + 1, j + 1),
        c.z,
        c.w,
    );
    return vec3<f32>(
        rule_lerp4(a.x, b.x, e.x, f.x, c.z, c.w),
        rule_lerp4(a.y, b.y, e.y, f.y, c.z, c.w),
        h,
    );
}

fn rule_shore_at(u: f32, v: f32) -> f32 {
    let c = rule_corner(u, v);
    let last = vec2<i32>(rule_globals.vertices) - vec2<i32>(1, 1);
    let p = vec2<i32>(i32(c.x), i32(c.y));
    let q = min(p + vec2<i32>(1, 1), last);
    return rule_lerp4(
        textureLoad(rule_shore, p, 0).r,
        textureLoad(rule_shore, vec2<i32>(q.x, p.y), 0).r,
        textureLoad(rule_shore, vec2<i32>(p.x, q.y), 0).r,
        textureLoad(rule_shore, q, 0).r,
        c.z,
        c.w,
    );
}

// Metal cells' "holds metal" (1 or 0), bilinear between cell centres at (x, z) cells.
fn rule_metal_at(x: f32, z: f32) -> f32 {
    let dims = vec2<f32>(textureDimensions(rule_metal));
    let cx = clamp(x, 0.0, dims.x - 1.0);
    let cz = clamp(z, 0.0, dims.y - 1.0);
    let p = vec2<i32>(i32(floor(cx)), i32(floor(cz)));
    let q = min(p + vec2<i32>(1, 1), vec2<i32>(dims) - vec2<i32>(1, 1));
    let fx = cx - f32(p.x);
    let fz = cz - f32(p.y);
    let a = select(0.0, 1.0, textureLoad(rule_metal, p, 0).r > 0.0);
    let b = select(0.0, 1.0, textureLoad(rule_metal, vec2<i32>(q.x, p.y), 0).r > 0.0);
    let c = select(0.0, 1.0, textureLoad(rule_metal, vec2<i32>(p.x, q.y), 0).r > 0.0);
    let d = select(0.0, 1.0, textureLoad(rule_metal, q, 0).r > 0.0);
    let top = a * (1.0 - fx) + b * fx;
    let bottom = c * (1.0 - fx) + d * fx;
    return top * (1.0 - fz) + bottom * fz;
}

fn rule_paint(b: f32) -> f32 {
    return clamp((b - RULE_MASK_NEUTRAL) / 127.0, -1.0, 1.0);
}

// The painted mask's push (-1..1), bilinear between cell centres at (x, z) cells.
fn rule_mask_at(slice: u32, x: f32, z: f32) -> f32 {
    let dims = vec2<f32>(textureDimensions(rule_masks));
    let cx = clamp(x, 0.0, dims.x - 1.0);
    let cz = clamp(z, 0.0, dims.y - 1.0);
    let p = vec2<i32>(i32(floor(cx)), i32(floor(cz)));
    let q = min(p + vec2<i32>(1, 1), vec2<i32>(dims) - vec2<i32>(1, 1));
    let fx = cx - f32(p.x);
    let fz = cz - f32(p.y);
    let s = i32(slice);
    let a = rule_paint(textureLoad(rule_masks, p, s, 0).r);
    let b = rule_paint(textureLoad(rule_masks, vec2<i32>(q.x, p.y), s, 0).r);
    let c = rule_paint(textureLoad(rule_masks, vec2<i32>(p.x, q.y), s, 0).r);
    let d = rule_paint(textureLoad(rule_masks, q, s, 0).r);
    let top = a * (1.0 - fx) + b * fx;
    let bottom = c * (1.0 - fx) + d * fx;
    return top * (1.0 - fz) + bottom * fz;
}

fn rule_lattice(seed: u32, x: i32, z: i32) -> f32 {
    var v = seed * 0x9E3779B9u + u32(x) * 0x85EBCA6Bu + u32(z) * 0xC2B2AE35u;
    v = v ^ (v >> 15u);
    v = v * 0x2C1B3C6Du;
    v = v ^ (v >> 12u);
    v = v * 0x297A2D39u;
    v = v ^ (v >> 15u);
    return f32(v >> 8u) / 16777216.0;
}

fn rule_octave(seed: u32, x: f32, z: f32) -> f32 {
    let x0 = floor(x);
    let z0 = floor(z);
    let fx = x - x0;
    let fz = z - z0;
    let sx = fx * fx * (3.0 - 2.0 * fx);
    let sz = fz * fz * (3.0 - 2.0 * fz);
    let i = i32(x0);
    let j = i32(z0);
    let top = rule_lattice(seed, i, j) * (1.0 - sx) + rule_lattice(seed, i + 1, j) * sx;
    let bottom = rule_lattice(seed, i, j + 1) * (1.0 - sx) + rule_lattice(seed, i + 1, j + 1) * sx;
    return top * (1.0 - sz) + bottom * sz;
}

fn rule_value_noise(seed: u32, x: f32, z: f32) -> f32 {
    return (rule_octave(seed, x, z) * 2.0 + rule_octave(seed ^ 0x5bd1e995u, x * 2.0, z * 2.0)) / 3.0;
}

// Layer `k`'s weight at (x, z) elmos from its rules and mask, before its opacity: 0..1.
fn layer_weight(k: u32, x_elmos: f32, z_elmos: f32) -> f32 {
    let r = rule_layers[k];
    let u = x_elmos / RULE_SQUARE_ELMOS;
    let v = z_elmos / RULE_SQUARE_ELMOS;
    var w = 1.0;
    if ((r.flags & (RULE_SLOPE | RULE_HEIGHT | RULE_CURVATURE)) != 0u) {
        let f = rule_fields(u, v);
        if ((r.flags & RULE_SLOPE) != 0u) {
            w = w * rule_band(r.slope_deg, f.x);
        }
        if ((r.flags & RULE_HEIGHT) != 0u) {
            w = w * rule_band(r.height_elmos, f.z);
        }
        if ((r.flags & RULE_CURVATURE) != 0u) {
            let k = select(f.y, -f.y, (r.flags & RULE_VALLEYS) != 0u);
            w = w * rule_rise(k, r.curvature_elmos.x - r.curvature_elmos.y, r.curvature_elmos.x);
        }
    }
    if ((r.flags & RULE_NEAR_WATER) != 0u) {
        if (rule_globals.has_shore != 0u) {
            let within = r.near_water_elmos.x;
            w = w * rule_fall(rule_shore_at(u, v), within, within + r.near_water_elmos.y);
        } else {
            w = 0.0;
        }
    }
    if ((r.flags & RULE_UNDER_METAL) != 0u) {
        w = w * rule_metal_at(x_elmos / RULE_CELL_ELMOS - 0.5, z_elmos / RULE_CELL_ELMOS - 0.5);
    }
    if ((r.flags & RULE_NOISE) != 0u) {
        let scale = max(r.noise.x, 1.0);
        w = w * (1.0 - clamp(r.noise.y, 0.0, 1.0) * rule_value_noise(r.noise_seed, x_elmos / scale, z_elmos / scale));
    }
    if ((r.flags & RULE_MASK) != 0u) {
        w = w + rule_mask_at(r.mask_slice, x_elmos / RULE_CELL_ELMOS - 0.5, z_elmos / RULE_CELL_ELMOS - 0.5);
    }
    return clamp(w, 0.0, 1.0);
}
