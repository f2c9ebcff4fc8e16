// The ground: a chunk of the heightmap grid, displaced in the vertex shader from the height
// texture (textureLoad: R32Float is not filterable everywhere), textured from one tile of the
// ground texture, lit as the engine lights the ground, with the overlays blended on top.

@group(0) @binding(1) var heights: texture_2d<f32>;
@group(0) @binding(2) var metal_map: texture_2d<f32>;
@group(0) @binding(3) var grass_map: texture_2d<f32>;
// the editable layers hold their bytes as floats (0..255), as the brush kernels write them
@group(0) @binding(4) var type_map: texture_2d<f32>;
@group(0) @binding(5) var<uniform> palette: array<vec4<f32>, 256>;
@group(0) @binding(6) var ground_sampler: sampler;
// the pathing overlay: each square's speed for one move class (0 too steep, -1 water it may
// not enter), and the flooded region of a start (1 inside)
@group(0) @binding(7) var pathing_codes: texture_2d<f32>;
@group(0) @binding(8) var pathing_flood: texture_2d<f32>;

@group(1) @binding(0) var ground_tile: texture_2d<f32>;
// x, y: the tile's corner in elmos; z, w: its size in elmos
@group(1) @binding(1) var<uniform> tile: vec4<f32>;

// The texture layers (`gpu::ground_layers`), drawn over the tile from their weights.
struct LayerLook {
    // rgb: a solid colour or a picture's tint; a: 1 for a picture
    colour: vec4<f32>,
    // x: repeats per elmo; y: opacity as drawn; z: the splat channel or -1
    params: vec4<f32>,
};
struct GroundLook {
    // x: layers; y: 1 when a layer is on a splat channel
    counts: vec4<u32>,
    layers: array<LayerLook, 16>,
};
// each layer's weight at each vertex, four layers a slice
@group(2) @binding(0) var layer_weights: texture_2d_array<f32>;
@group(2) @binding(1) var layer_materials: texture_2d_array<f32>;
// the splat channels' detail normals (rgb normal, a diffuse detail), one slice a channel
@group(2) @binding(2) var layer_normals: texture_2d_array<f32>;
@group(2) @binding(3) var<uniform> ground_look: GroundLook;
@group(2) @binding(4) var repeat_sampler: sampler;

struct VertexIn {
    // the vertex within its chunk, in heightmap vertices
    @location(0) local: vec2<u32>,
    // 1 for the skirt hanging below the chunk's rim (hides cracks between levels of detail)
    @location(1) skirt: u32,
    // x, y: the chunk's first vertex; z: the step between vertices at this level of detail
    @location(2) chunk: vec3<u32>,
    // the height skirts hang down to
    @location(3) skirt_floor: f32,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    // 0 on the ground, rising to 1 down a skirt (the map's border wall)
    @location(2) wall: f32,
};

fn height_at(v: vec2<i32>) -> f32 {
    let last = vec2<i32>(textureDimensions(heights)) - vec2<i32>(1, 1);
    return textureLoad(heights, clamp(v, vec2<i32>(0, 0), last), 0).r;
}

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let v = vec2<i32>(in.chunk.xy + in.local);
    let s = i32(in.chunk.z);
    var h = height_at(v);
    let hl = height_at(v - vec2<i32>(s, 0));
    let hr = height_at(v + vec2<i32>(s, 0));
    let hn = height_at(v - vec2<i32>(0, s));
    let hs = height_at(v + vec2<i32>(0, s));
    let span = 16.0 * f32(s);
    let normal = normalize(vec3<f32>(hl - hr, span, hn - hs));
    if (in.skirt == 1u) {
        h = min(h, in.skirt_floor);
    }
    let world = vec3<f32>(f32(v.x) * 8.0, h, f32(v.y) * 8.0);
    var out: VertexOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    if (frame.viewport.z > 0.5) {
        // the water's reflection picture: the terrain mirrored in the plane y = 0. Ground
        // under the water is flattened onto the plane first (its fragments are discarded):
        // mirrored as it stands, a sea floor becomes a ceiling over a low eye, whose huge
        // clipped triangles made one 1152x648 grazing frame take 90 s on llvmpipe
        out.clip = frame.view_proj * vec4<f32>(world.x, -max(world.y, 0.0), world.z, 1.0);
    }
    out.world = world;
    out.normal = normal;
    out.wall = f32(in.skirt);
    return out;
}

// The metal overlay's colour for a metal fraction t = byte / 255 (mirrored by
// `gpu::view::metal_overlay_rgba` for the legend).
fn metal_colour(t: f32) -> vec4<f32> {
    if (t <= 0.0) {
        return vec4<f32>(0.0);
    }
    let c = mix(vec3<f32>(0.15, 0.35, 1.0), vec3<f32>(1.0, 0.85, 0.1), t);
    return vec4<f32>(c, 0.4 + 0.6 * t);
}

// The pathing overlay's colour for a square's code (mirrored by `gpu::pathing::pathing_rgba`
// for the legend): water it may not enter blue, too steep red, else orange (slow) to green.
fn pathing_colour(code: f32) -> vec4<f32> {
    if (code < -0.5) {
        return vec4<f32>(0.1, 0.35, 1.0, 0.65);
    }
    if (code <= 0.0) {
        return vec4<f32>(1.0, 0.08, 0.05, 0.75);
    }
    let t = clamp(code, 0.0, 1.0);
    return mix(vec4<f32>(1.0, 0.55, 0.05, 0.6), vec4<f32>(0.15, 0.85, 0.3, 0.3), t);
}

fn cell(world: vec2<f32>, size_elmos: f32, dims: vec2<u32>) -> vec2<i32> {
    let c = vec2<i32>(floor(world / size_elmos));
    return clamp(c, vec2<i32>(0, 0), vec2<i32>(dims) - vec2<i32>(1, 1));
}

// 1 on a line every `interval` of `value`, fading over about a pixel.
fn line(value: f32, interval: f32, width_px: f32) -> f32 {
    let f = value / interval;
    let w = max(fwidth(f), 1e-6);
    let d = abs(fract(f - 0.5) - 0.5) / w;
    return 1.0 - clamp(d / width_px, 0.0, 1.0);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    // everything needing derivatives first, in uniform control flow
    let uv = (in.world.xz - tile.xy) / tile.zw;
    var base = textureSample(ground_tile, ground_sampler, uv).rgb;
    // the texture layers over the picture, bottom first, as the bake composites them; layers on
    // splat channels also bend the normal and add their detail as SMFFragProg's DNTS does
    let wdims = vec2<f32>(textureDimensions(layer_weights).xy);
    let wuv = (in.world.xz / 8.0 + vec2<f32>(0.5)) / wdims;
    // every layer's material (and detail normal) sampled in uniform control flow, with the
    // implicit derivatives: skipping unweighted layers needs explicit gradients, and on
    // llvmpipe those made a frame with 8 layers take 384 s instead of 5.7 s
    var splat_sum = 0.0;
    var dn = vec4<f32>(0.0);
    var wv = vec4<f32>(0.0);
    for (var k = 0u; k < ground_look.counts.x; k = k + 1u) {
        if (k % 4u == 0u) {
            // one sample gives four layers' weights
            wv = textureSampleLevel(layer_weights, ground_sampler, wuv, i32(k / 4u), 0.0);
        }
        let look = ground_look.layers[k];
        let w = max(wv[k % 4u] * look.params.y, 0.0);
        let rep = look.params.x;
        var m = look.colour.rgb;
        if (look.colour.a > 0.5) {
            m = textureSample(layer_materials, repeat_sampler, in.world.xz * rep, i32(k)).rgb * look.colour.rgb;
        }
        base = base + (m - base) * w;
        if (look.params.z >= 0.0) {
            let t = textureSample(layer_normals, repeat_sampler, in.world.xz * rep, i32(look.params.z));
            dn = dn + (t * 2.0 - vec4<f32>(1.0)) * w;
            splat_sum = splat_sum + w;
        }
    }
    var n = normalize(in.normal);
    if (ground_look.counts.y > 0u) {
        // the channel sum at most 1, as the export writes the distribution
        if (splat_sum > 1.0) {
            dn = dn / splat_sum;
        }
        let strength = min(1.0, splat_sum);
        if (strength > 0.0 && length(dn.xyz) > 1e-5) {
            // tangent space of the ground: R along +x, G along +z, B up
            let t_axis = normalize(cross(n, vec3<f32>(0.0, 0.0, 1.0)));
            let b_axis = cross(t_axis, n);
            let bent = normalize(t_axis * dn.x + b_axis * dn.y + n * dn.z);
            n = normalize(mix(n, bent, strength));
        }
        base = base + vec3<f32>(clamp(dn.a, -1.0, 1.0));
    }
    let contour = line(in.world.y, max(frame.overlay_params.y, 1.0), 1.0);
    let grid = max(line(in.world.x, 1024.0, 1.0), line(in.world.z, 1024.0, 1.0));
    let cursor_d = length(in.world.xz - frame.cursor.xy);
    let cursor_w = max(fwidth(cursor_d), 1e-4);

    // the engine's ground lighting: texture x (ambient + diffuse x N.L) + specular
    let l = normalize(frame.sun_dir.xyz);
    let ndl = max(dot(n, l), 0.0);
    let view_dir = normalize(frame.camera_pos.xyz - in.world);
    let half_v = normalize(l + view_dir);
    let spec = pow(max(dot(n, half_v), 0.0), frame.specular.w) * frame.specular.rgb;
    // the engine's ground light (SMFFragProg): (ambient + diffuse x N.L) x SMF_INTENSITY_MULT
    let intensity = 0.8235;
    var light = (frame.ambient.rgb + frame.diffuse.rgb * ndl) * intensity;
    if (frame.overlay_params.w < 0.5 && in.world.y < 0.0) {
        // the engine's sea bed: from 10 elmos down the light is the water's colours, losing
        // `absorb` an elmo of depth from `baseColor`, never below `minColor`
        let depth = -in.world.y;
        let water_light = min(ndl * 2.0 + 0.4, 1.0);
        let under = max(frame.water_min.rgb, frame.water_base.rgb - frame.water_absorb.rgb * min(depth, 1023.0));
        light = mix(light, under * intensity * water_light, min(depth / 10.0, 1.0));
    }
    var col = base * light + spec;
    let shade = 0.55 + 0.45 * ndl;

    if (frame.overlay.x > 0.0) {
        let m = textureLoad(metal_map, cell(in.world.xz, 16.0, textureDimensions(metal_map)), 0).r;
        let mc = metal_colour(clamp(round(m), 0.0, 255.0) / 255.0);
        col = mix(col, mc.rgb * shade, mc.a * frame.overlay.x);
    }
    if (frame.overlay.y > 0.0) {
        let g = textureLoad(grass_map, cell(in.world.xz, 32.0, textureDimensions(grass_map)), 0).r;
        if (g >= 0.5) {
            col = mix(col, vec3<f32>(0.2, 0.95, 0.25) * shade, 0.6 * frame.overlay.y);
        }
    }
    if (frame.overlay.z > 0.0) {
        let tf = textureLoad(type_map, cell(in.world.xz, 16.0, textureDimensions(type_map)), 0).r;
        let t = u32(clamp(round(tf), 0.0, 255.0));
        col = mix(col, palette[t].rgb * shade, 0.6 * frame.overlay.z);
    }
    if (frame.overlay.w > 0.0) {
        let slope = 1.0 - n.y;
        let thr = max(frame.overlay_params.x, 1e-4);
        if (slope > thr) {
            col = mix(col, vec3<f32>(1.0, 0.1, 0.05), 0.7 * frame.overlay.w);
        } else {
            let f = slope / thr;
            let ramp = mix(vec3<f32>(0.1, 0.75, 0.3), vec3<f32>(1.0, 0.85, 0.1), f);
            col = mix(col, ramp * shade, (0.25 + 0.35 * f) * frame.overlay.w);
        }
    }
    if (frame.pathing.x > 0.0) {
        let sq = cell(in.world.xz, 8.0, textureDimensions(pathing_codes));
        let pc = pathing_colour(textureLoad(pathing_codes, sq, 0).r);
        col = mix(col, pc.rgb * shade, pc.a * frame.pathing.x);
        if (frame.pathing.y > 0.5 && textureLoad(pathing_flood, sq, 0).r > 0.5) {
            col = mix(col, vec3<f32>(0.35, 0.95, 1.0), 0.55);
        }
    }
    if (frame.overlay_params.y > 0.0) {
        col = mix(col, vec3<f32>(0.25, 0.12, 0.02), 0.7 * contour);
    }
    if (frame.overlay_params.z > 0.5) {
        col = mix(col, vec3<f32>(1.0, 1.0, 1.0), 0.45 * grid);
    }
    if (frame.cursor.w > 0.5) {
        let ring = 1.0 - clamp(abs(cursor_d - frame.cursor.z) / (1.5 * cursor_w), 0.0, 1.0);
        let inside = select(0.0, 0.12, cursor_d < frame.cursor.z);
        col = mix(col, vec3<f32>(1.0, 0.95, 0.4), max(ring, inside));
    }
    if (in.wall > 0.001) {
        // the border wall: plain earth, darker further down
        col = vec3<f32>(0.33, 0.27, 0.2) * (0.9 - 0.4 * in.wall) * (0.6 + 0.4 * ndl);
    }
    if (frame.overlay_params.w > 0.5 && in.world.y < 0.0) {
        discard;
    }
    // the reflection shows only what stands above the water
    if (frame.viewport.z > 0.5 && in.world.y < 0.0) {
        discard;
    }
    // the water's debug view: everything but the water is black
    if (frame.viewport.w > 0.5) {
        return vec4<f32>(0.0, 0.0, 0.0, 1.0);
    }
    return vec4<f32>(col, 1.0);
}
