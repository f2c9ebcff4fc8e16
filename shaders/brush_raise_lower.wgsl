// The raise/lower brush: adds each dab's height, weighted by its falloff, to every heightmap
// vertex of the rectangle, clamping to the map's height range after each dab.
// Its CPU twin is `edit::brush::apply_raise_lower`; `StrokeParams` there is this uniform.

struct Dab {
    center: vec2<f32>,
    radius: f32,
    amount: f32,
    hardness: f32,
    pad0: f32,
    pad1: f32,
    pad2: f32,
};

struct Stroke {
    origin: vec2<u32>,
    size: vec2<u32>,
    min_height: f32,
    max_height: f32,
    dab_count: u32,
    pad: u32,
    dabs: array<Dab, 64>,
};

@group(0) @binding(0) var heights: texture_storage_2d<r32float, read_write>;
@group(0) @binding(1) var<uniform> stroke: Stroke;

fn falloff(d: f32, hardness: f32) -> f32 {
    if (d >= 1.0) {
        return 0.0;
    }
    let edge0 = min(hardness, 0.999);
    let t = clamp((d - edge0) / (1.0 - edge0), 0.0, 1.0);
    return 1.0 - t * t * (3.0 - 2.0 * t);
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= stroke.size.x || id.y >= stroke.size.y) {
        return;
    }
    let p = stroke.origin + id.xy;
    var h = textureLoad(heights, p).r;
    for (var i = 0u; i < stroke.dab_count; i = i + 1u) {
        let dab = stroke.dabs[i];
        let dx = f32(p.x) - dab.center.x;
        let dz = f32(p.y) - dab.center.y;
        let dist = sqrt(dx * dx + dz * dz) / dab.radius;
        let w = falloff(dist, dab.hardness);
        h = clamp(h + dab.amount * w, stroke.min_height, stroke.max_height);
    }
    textureStore(heights, p, vec4<f32>(h, 0.0, 0.0, 0.0));
}
