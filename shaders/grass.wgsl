// Grass as BAR's grass widget (map_grass_gl4) grows it: one patch per 32-elmo grass cell, at the
// cell centre jittered by up to a third of a cell each way and turned at random, sized
// min + byte / 254 * (max - min) (random sizes on a legacy map whose highest byte is 1),
// standing (vertex.y + 0.5) * size above the ground, coloured toward the ground colour under it
// (the minimap) and faded out between the fade distances. One instance per cell of the window
// around the eye that the fade leaves visible; cells without grass become degenerate.
//
// Bindings 1 (heights) and 3 (grass bytes) of group 0 are the scene's layers.

@group(0) @binding(1) var heights: texture_2d<f32>;
@group(0) @binding(3) var grass_map: texture_2d<f32>;

struct Grass {
    // x: size for byte 0+ (grassMinSize), y: grassMaxSize, z: 1 for a legacy yes/no map,
    // w: elmos per grass cell
    size: vec4<f32>,
    // x, y: fade start and end in elmos from the eye (the widget's distances x its 0.45);
    // z: MAPCOLORFACTOR; w: MAPCOLORBASE
    fade: vec4<f32>,
    // x, y: the window's first cell; z: its width in cells; w: the jitter as a share of a cell
    window: vec4<f32>,
};

@group(1) @binding(0) var<uniform> grass: Grass;
@group(1) @binding(1) var blade_tex: texture_2d<f32>;
@group(1) @binding(2) var ground_colour: texture_2d<f32>;
@group(1) @binding(3) var grass_sampler: sampler;

struct VertexIn {
    // the blade vertex at size 1, y up, around the patch centre
    @location(0) pos: vec3<f32>,
    // u across the blade texture, v from the root (0) to the tip (1)
    @location(1) uv: vec2<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) map_colour: vec3<f32>,
    @location(2) fade: f32,
};

// Three repeatable numbers in [0, 1) for a cell.
fn cell_random(c: vec2<u32>) -> vec3<f32> {
    var h = (c.x * 73856093u) ^ (c.y * 19349663u);
    h = (h ^ (h >> 16u)) * 0x45d9f3bu;
    h = (h ^ (h >> 16u)) * 0x45d9f3bu;
    h = h ^ (h >> 16u);
    let a = f32(h & 0x3ffu) / 1024.0;
    let b = f32((h >> 10u) & 0x3ffu) / 1024.0;
    let c2 = f32((h >> 20u) & 0x3ffu) / 1024.0;
    return vec3<f32>(a, b, c2);
}

fn height_at(v: vec2<i32>) -> f32 {
    let last = vec2<i32>(textureDimensions(heights)) - vec2<i32>(1, 1);
    return textureLoad(heights, clamp(v, vec2<i32>(0, 0), last), 0).r;
}

// The ground height at a point (elmos), bilinear between the four vertices around it.
fn ground_at(xz: vec2<f32>) -> f32 {
    let g = xz / 8.0;
    let i = vec2<i32>(floor(g));
    let f = g - floor(g);
    let top = mix(height_at(i), height_at(i + vec2<i32>(1, 0)), f.x);
    let bottom = mix(height_at(i + vec2<i32>(0, 1)), height_at(i + vec2<i32>(1, 1)), f.x);
    return mix(top, bottom, f.y);
}

fn culled() -> VertexOut {
    var out: VertexOut;
    out.clip = vec4<f32>(2.0, 2.0, 2.0, 1.0);
    out.uv = vec2<f32>(0.0);
    out.map_colour = vec3<f32>(0.0);
    out.fade = 0.0;
    return out;
}

@vertex
fn vs_main(in: VertexIn, @builtin(instance_index) instance: u32) -> VertexOut {
    let width = u32(grass.window.z);
    let cell = vec2<u32>(u32(grass.window.x) + instance % width, u32(grass.window.y) + instance / width);
    let dims = textureDimensions(grass_map);
    if (cell.x >= dims.x || cell.y >= dims.y) {
        return culled();
    }
    let byte = round(textureLoad(grass_map, vec2<i32>(cell), 0).r);
    if (byte < 0.5) {
        return culled();
    }
    let r = cell_random(cell);
    let cell_elmos = grass.size.w;
    let centre = (vec2<f32>(cell) + 0.5 + (r.xy - 0.5) * grass.window.w) * cell_elmos;
    var t = clamp(byte, 0.0, 254.0) / 254.0;
    if (grass.size.z > 0.5) {
        t = fract(r.z * 7.0);
    }
    let size = grass.size.x + t * (grass.size.y - grass.size.x);
    let turn = r.z * 6.2831853;
    let s = sin(turn);
    let c = cos(turn);
    let p = in.pos * size;
    let xz = centre + vec2<f32>(c * p.x - s * p.z, s * p.x + c * p.z);
    let edge = vec2<f32>(8.0);
    let ground = ground_at(clamp(xz, edge, frame.map_size.xy - edge));
    let world = vec3<f32>(xz.x, (in.pos.y + 0.5) * size + ground, xz.y);

    let dist = length(world - frame.camera_pos.xyz);
    let fade = clamp((grass.fade.y - dist) / max(grass.fade.y - grass.fade.x, 1.0), 0.0, 1.0);
    if (fade <= 0.0) {
        return culled();
    }
    var out: VertexOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.uv = in.uv;
    out.map_colour = textureSampleLevel(ground_colour, grass_sampler, xz / frame.map_size.xy, 0.0).rgb;
    out.fade = fade;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    // the blade texture's root is its bottom row
    let blade = textureSample(blade_tex, grass_sampler, vec2<f32>(in.uv.x, 1.0 - in.uv.y));
    var rgb = mix(blade.rgb, blade.rgb * in.map_colour * 2.0, grass.fade.z);
    rgb = mix(rgb, in.map_colour, (1.0 - in.uv.y) * grass.fade.w);
    let a = clamp((blade.a * in.fade - 0.5) * 1.5 + 0.5, 0.0, 1.0);
    if (a < 0.01) {
        discard;
    }
    return vec4<f32>(rgb, a);
}
