// The brush prelude, put in front of every brush kernel: the target layer, the parameter block
// and the brush mask (bindings 0-2), the falloff curves, a dab's weight, bilinear sampling.
// `edit::kernel` mirrors every function here in Rust, in the same f32 order (the CPU twins).
// A kernel declares its own further bindings from binding 3 (`edit::kernel::Extra`).

struct Dab {
    // the dab's centre and radius in the layer's cells
    center: vec2<f32>,
    radius: f32,
    // the tool's per-dab number
    amount: f32,
    // local coordinates: (dot(p - center, axis_x), dot(p - center, axis_z)) / radius
    axis_x: vec2<f32>,
    axis_z: vec2<f32>,
};

struct Stroke {
    // the cells written: origin and size
    origin: vec2<u32>,
    size: vec2<u32>,
    // the rectangle the source copy and the state cover
    src_origin: vec2<u32>,
    src_size: vec2<u32>,
    layer_size: vec2<u32>,
    dab_count: u32,
    // 0 smooth, 1 linear, 2 sharp, 3 flat
    falloff: u32,
    // 0 circle, 1 square, 2 mask
    shape: u32,
    elmos_per_cell: f32,
    mask_size: vec2<u32>,
    // the tool's own numbers
    tool: array<vec4<f32>, 4>,
    dabs: array<Dab, 64>,
};

@group(0) @binding(0) var target_layer: texture_storage_2d<r32float, read_write>;
@group(0) @binding(1) var<uniform> stroke: Stroke;
@group(0) @binding(2) var brush_mask: texture_2d<f32>;

fn falloff_curve(kind: u32, d: f32) -> f32 {
    if (d >= 1.0) {
        return 0.0;
    }
    switch kind {
        case 0u: {
            return 1.0 - d * d * (3.0 - 2.0 * d);
        }
        case 1u: {
            return 1.0 - d;
        }
        case 2u: {
            let u = 1.0 - d;
            return u * u;
        }
        default: {
            return 1.0;
        }
    }
}

// An image's value at fractional texel (x, y), clamped to its edges (Grid::sample_bilinear).
fn bilinear(t: texture_2d<f32>, size: vec2<u32>, x_in: f32, y_in: f32) -> f32 {
    let x = clamp(x_in, 0.0, f32(size.x - 1u));
    let y = clamp(y_in, 0.0, f32(size.y - 1u));
    let x0 = floor(x);
    let y0 = floor(y);
    let fx = x - x0;
    let fy = y - y0;
    let last = vec2<i32>(size) - vec2<i32>(1, 1);
    let i0 = vec2<i32>(i32(x0), i32(y0));
    let a = textureLoad(t, clamp(i0, vec2<i32>(0, 0), last), 0).r;
    let b = textureLoad(t, clamp(i0 + vec2<i32>(1, 0), vec2<i32>(0, 0), last), 0).r;
    let c = textureLoad(t, clamp(i0 + vec2<i32>(0, 1), vec2<i32>(0, 0), last), 0).r;
    let d = textureLoad(t, clamp(i0 + vec2<i32>(1, 1), vec2<i32>(0, 0), last), 0).r;
    let top = a + (b - a) * fx;
    let bottom = c + (d - c) * fx;
    return top + (bottom - top) * fy;
}

// An image spread over local coordinates -1..1, texel centres at (i + 0.5) / size.
fn sample_unit(t: texture_2d<f32>, size: vec2<u32>, l: vec2<f32>) -> f32 {
    let x = (l.x * 0.5 + 0.5) * f32(size.x) - 0.5;
    let y = (l.y * 0.5 + 0.5) * f32(size.y) - 0.5;
    return bilinear(t, size, x, y);
}

fn dab_local(dab: Dab, p: vec2<f32>) -> vec2<f32> {
    let dx = p.x - dab.center.x;
    let dz = p.y - dab.center.y;
    return vec2<f32>(
        (dx * dab.axis_x.x + dz * dab.axis_x.y) / dab.radius,
        (dx * dab.axis_z.x + dz * dab.axis_z.y) / dab.radius,
    );
}

fn dab_weight(dab: Dab, p: vec2<f32>) -> f32 {
    let l = dab_local(dab, p);
    var d: f32;
    if (stroke.shape == 0u) {
        d = sqrt(l.x * l.x + l.y * l.y);
    } else {
        d = max(abs(l.x), abs(l.y));
    }
    var w = falloff_curve(stroke.falloff, d);
    if (stroke.shape == 2u && w > 0.0) {
        w = w * sample_unit(brush_mask, stroke.mask_size, l);
    }
    return w;
}

// The largest weight any dab of the dispatch gives p.
fn group_weight(p: vec2<f32>) -> f32 {
    var w = 0.0;
    for (var k = 0u; k < stroke.dab_count; k = k + 1u) {
        w = max(w, dab_weight(stroke.dabs[k], p));
    }
    return w;
}

// The cell the invocation writes, or false when it lies outside the rectangle.
fn cell_of(id: vec3<u32>) -> vec2<u32> {
    return stroke.origin + id.xy;
}

fn in_rect(id: vec3<u32>) -> bool {
    return id.x < stroke.size.x && id.y < stroke.size.y;
}

// A copy (source or state) at layer cell v: clamped to the layer, then placed in the copy.
fn copy_index(v: vec2<i32>) -> vec2<i32> {
    let last = vec2<i32>(stroke.layer_size) - vec2<i32>(1, 1);
    let c = clamp(v, vec2<i32>(0, 0), last) - vec2<i32>(stroke.src_origin);
    return clamp(c, vec2<i32>(0, 0), vec2<i32>(stroke.src_size) - vec2<i32>(1, 1));
}

fn store(i: vec2<u32>, v: f32) {
    textureStore(target_layer, i, vec4<f32>(v, 0.0, 0.0, 0.0));
}
