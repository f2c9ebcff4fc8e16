// The export bake: the texture layers composited over the map's picture, one invocation per
// texel of a chunk of rows, as `map::ground_layers::bake` (its CPU twin) does: each layer's
// weight (`layer_weight` of `shaders/ground_rules.wgsl`, bound in group 1) times its opacity,
// bottom first, `c += (m - c) * w`, rounded at the end; materials sampled bilinear and
// wrapping as `MaterialImage::sample` does.

struct BakeMaterial {
    // the first texel in `material_texels`
    offset: u32,
    width: u32,
    height: u32,
    // 0 solid, 1 a picture, 2 a picture that could not be had (grey)
    kind: u32,
    // rgb: a solid colour (0..255) or a picture's tint
    colour: vec4<f32>,
    // x: scale_elmos, y: opacity
    params: vec4<f32>,
};

struct BakeChunk {
    // texels a row
    width: u32,
    // the chunk's first row in the whole texture
    first_row: u32,
    rows: u32,
    layers: u32,
};

// the chunk's texels, RGBA8 packed little-endian; overwritten with the result
@group(0) @binding(0) var<storage, read_write> bake_texels: array<u32>;
@group(0) @binding(1) var<storage, read> material_texels: array<u32>;
@group(0) @binding(2) var<storage, read> bake_materials: array<BakeMaterial>;
@group(0) @binding(3) var<uniform> bake_chunk: BakeChunk;

fn bake_texel(m: BakeMaterial, x: u32, y: u32, c: u32) -> f32 {
    let p = material_texels[m.offset + y * m.width + x];
    return f32((p >> (8u * c)) & 255u);
}

fn bake_wrap(i: f32, n: u32) -> u32 {
    let k = i32(i) % i32(n);
    return u32(select(k, k + i32(n), k < 0));
}

// The material's colour at (u, v) repeats, RGB 0..255.
fn bake_sample(m: BakeMaterial, u: f32, v: f32) -> vec3<f32> {
    let x = fract(u) * f32(m.width) - 0.5;
    let y = fract(v) * f32(m.height) - 0.5;
    let x0 = floor(x);
    let y0 = floor(y);
    let fx = x - x0;
    let fy = y - y0;
    let xa = bake_wrap(x0, m.width);
    let xb = bake_wrap(x0 + 1.0, m.width);
    let ya = bake_wrap(y0, m.height);
    let yb = bake_wrap(y0 + 1.0, m.height);
    var out = vec3<f32>(0.0);
    for (var c = 0u; c < 3u; c = c + 1u) {
        let top = bake_texel(m, xa, ya, c) * (1.0 - fx) + bake_texel(m, xb, ya, c) * fx;
        let bottom = bake_texel(m, xa, yb, c) * (1.0 - fx) + bake_texel(m, xb, yb, c) * fx;
        out[c] = top * (1.0 - fy) + bottom * fy;
    }
    return out;
}

fn bake_material_colour(m: BakeMaterial, x: f32, z: f32) -> vec3<f32> {
    if (m.kind == 0u) {
        return m.colour.rgb;
    }
    if (m.kind == 2u) {
        return vec3<f32>(128.0);
    }
    let c = bake_sample(m, x / m.params.x, z / m.params.x);
    return vec3<f32>(c.x * m.colour.r, c.y * m.colour.g, c.z * m.colour.b);
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= bake_chunk.width || id.y >= bake_chunk.rows) {
        return;
    }
    let i = id.y * bake_chunk.width + id.x;
    let p = bake_texels[i];
    // 8 texels a square of 8 elmos: one elmo a texel, sampled at its centre
    let x = f32(id.x) + 0.5;
    let z = f32(bake_chunk.first_row + id.y) + 0.5;
    var c = vec3<f32>(f32(p & 255u), f32((p >> 8u) & 255u), f32((p >> 16u) & 255u));
    for (var k = 0u; k < bake_chunk.layers; k = k + 1u) {
        let m = bake_materials[k];
        let w = layer_weight(k, x, z) * m.params.y;
        if (w <= 0.0) {
            continue;
        }
        let mc = bake_material_colour(m, x, z);
        c = c + (mc - c) * w;
    }
    let r = u32(clamp(round(c.x), 0.0, 255.0));
    let g = u32(clamp(round(c.y), 0.0, 255.0));
    let b = u32(clamp(round(c.z), 0.0, 255.0));
    bake_texels[i] = r | (g << 8u) | (b << 16u) | (p & 0xff000000u);
}
