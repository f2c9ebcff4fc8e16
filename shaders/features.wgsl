// Map features (trees, rocks) as their models (`gpu/features.rs`): one instanced draw per
// model. Each instance stands on the ground read here from the height texture, bilinear at its
// place, so the models ride a stroke while it sculpts the ground on the GPU. Lit with the
// ground's sun, ambient and diffuse. Texture alpha (S3O: the team colour mask) is not drawn.

@group(0) @binding(1) var heights: texture_2d<f32>;

@group(1) @binding(0) var model_texture: texture_2d<f32>;
@group(1) @binding(1) var model_sampler: sampler;

struct ModelIn {
    // model space, elmos, y up, origin on the ground
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    // x, z in elmos; the heading's sine and cosine
    @location(3) place: vec4<f32>,
};

struct ModelOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

fn height_texel(v: vec2<i32>) -> f32 {
    let last = vec2<i32>(textureDimensions(heights)) - vec2<i32>(1, 1);
    return textureLoad(heights, clamp(v, vec2<i32>(0, 0), last), 0).r;
}

// The ground at (x, z) elmos, bilinear between the four heightmap vertices around it, as
// `Grid::sample_bilinear` (`Map::height_at`) computes it (R32Float is not filterable
// everywhere, so by hand).
fn ground_at(xz: vec2<f32>) -> f32 {
    let last = vec2<f32>(textureDimensions(heights)) - vec2<f32>(1.0, 1.0);
    let g = clamp(xz / 8.0, vec2<f32>(0.0, 0.0), last);
    let g0 = floor(g);
    let f = g - g0;
    let i = vec2<i32>(g0);
    let a = height_texel(i);
    let b = height_texel(i + vec2<i32>(1, 0));
    let c = height_texel(i + vec2<i32>(0, 1));
    let d = height_texel(i + vec2<i32>(1, 1));
    let top = a + (b - a) * f.x;
    let bottom = c + (d - c) * f.x;
    return top + (bottom - top) * f.y;
}

// Turned about +y by the heading (sine s, cosine c): the model's +z goes to (s, 0, c) and its
// +x to (c, 0, -s), as `features::model_to_world` does.
fn turn(v: vec3<f32>, s: f32, c: f32) -> vec3<f32> {
    return vec3<f32>(v.x * c + v.z * s, v.y, v.z * c - v.x * s);
}

@vertex
fn vs_main(in: ModelIn) -> ModelOut {
    let s = in.place.z;
    let c = in.place.w;
    let base = vec3<f32>(in.place.x, ground_at(in.place.xy), in.place.y);
    let world = base + turn(in.pos, s, c);
    var out: ModelOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    out.normal = turn(in.normal, s, c);
    out.uv = in.uv;
    return out;
}

@fragment
fn fs_main(in: ModelOut) -> @location(0) vec4<f32> {
    let base = textureSample(model_texture, model_sampler, in.uv).rgb;
    var n = in.normal;
    if (dot(n, n) < 1e-12) {
        n = vec3<f32>(0.0, 1.0, 0.0);
    }
    n = normalize(n);
    // faces are drawn from both sides (leaf cards): light the side the eye sees
    if (dot(n, frame.camera_pos.xyz - in.world) < 0.0) {
        n = -n;
    }
    let ndl = max(dot(n, normalize(frame.sun_dir.xyz)), 0.0);
    let col = base * (frame.ambient.rgb + frame.diffuse.rgb * ndl);
    // the water's debug view: everything but the water is black
    if (frame.viewport.w > 0.5) {
        return vec4<f32>(0.0, 0.0, 0.0, 1.0);
    }
    return vec4<f32>(min(col, vec3<f32>(1.0, 1.0, 1.0)), 1.0);
}
