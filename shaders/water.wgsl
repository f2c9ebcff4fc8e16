// The water as Recoil's BumpWater draws it, from the map's water and lighting settings (see
// src/gpu/water.rs for the uniform block and the CPU twin of `terms`). Order, as the engine:
// four-octave normal; fresnel, specular, diffuse, ambient; the surface colour over the
// refracted sea bed; caustics; shore foam; the mirrored terrain and sky by fresnel x shallow
// scale; specular. Outside the map: the water plane when the map has one, else nothing.
// With a debug term set, the normal is flat and each water pixel is that term as grey.

@group(0) @binding(1) var heights: texture_2d<f32>;
@group(0) @binding(6) var screen_sampler: sampler;

struct Water {
    surface: vec4<f32>,
    plane: vec4<f32>,
    diffuse: vec4<f32>,
    specular: vec4<f32>,
    // ambient factor, specular factor, reflection distortion, caustics strength
    factors: vec4<f32>,
    // fresnel min, max, power; perlin amplitude
    fresnel: vec4<f32>,
    // perlin start frequency, lacunarity, blur base, blur exponent
    perlin: vec4<f32>,
    // xyz towards the sun; w the engine's water clock
    sun: vec4<f32>,
    // debug term, shore waves on, wave foam intensity, reflection drawn
    mode: vec4<f32>,
    // xyz the map's middle; w caustics resolution
    map_mid: vec4<f32>,
};

@group(1) @binding(0) var<uniform> water: Water;
@group(1) @binding(1) var normal_tex: texture_2d<f32>;
@group(1) @binding(2) var reflection_tex: texture_2d<f32>;
@group(1) @binding(3) var refraction_tex: texture_2d<f32>;
@group(1) @binding(4) var coast_tex: texture_2d<f32>;
@group(1) @binding(5) var wrap_sampler: sampler;

const FULL_DEPTH: f32 = 25.5;
const CAUSTIC_DEPTH: f32 = 0.5;
const CAUSTIC_RANGE: f32 = 0.45;
const WAVE_LENGTH: f32 = 0.15;

struct WaterOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> WaterOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 1.0), vec2<f32>(0.0, 1.0)
    );
    // the map and as much again on every side, for the water plane beyond its edge
    let c = (corners[i] * 3.0 - 1.0) * frame.map_size.xy;
    let world = vec3<f32>(c.x, 0.0, c.y);
    var out: WaterOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    return out;
}

fn height_at(v: vec2<i32>) -> f32 {
    let last = vec2<i32>(textureDimensions(heights)) - vec2<i32>(1, 1);
    return textureLoad(heights, clamp(v, vec2<i32>(0, 0), last), 0).r;
}

fn ground_at(xz: vec2<f32>) -> f32 {
    let g = xz / 8.0;
    let i = vec2<i32>(floor(g));
    let f = g - floor(g);
    let top = mix(height_at(i), height_at(i + vec2<i32>(1, 0)), f.x);
    let bottom = mix(height_at(i + vec2<i32>(0, 1)), height_at(i + vec2<i32>(1, 1)), f.x);
    return mix(top, bottom, f.y);
}

// The terms, as `gpu::water::terms` computes them on the CPU.
struct Terms {
    angle: f32,
    fresnel: f32,
    specular: f32,
    diffuse: f32,
    ambient: f32,
    surface_mix: f32,
};

fn terms(eye_dir: vec3<f32>, world: vec3<f32>, n: vec3<f32>, shallow: f32) -> Terms {
    let sun = water.sun.xyz;
    let sun_vec = normalize(sun * 20000.0 + water.map_mid.xyz - world);
    let reflected = reflect(-sun_vec, n);
    let c = dot(-eye_dir, n);
    var t: Terms;
    t.angle = 1.0 - abs(c);
    t.fresnel = water.fresnel.x + water.fresnel.y * pow(t.angle, water.fresnel.z);
    t.diffuse = pow(max(dot(n, sun * vec3<f32>(1.0, 0.1, 1.0)), 0.0), 3.0) * water.diffuse.a;
    t.ambient = smoothstep(-1.3, 0.0, c) * water.factors.x;
    t.specular = t.angle * pow(max(dot(reflected, eye_dir), 0.0), water.specular.a)
        * water.factors.y * shallow;
    t.surface_mix = (water.surface.a + t.diffuse) * shallow;
    return t;
}

// One octave of the normal texture, as a signed vector weighted by `w`.
fn octave(uv: vec2<f32>, w: f32) -> vec3<f32> {
    return (textureSample(normal_tex, wrap_sampler, uv).rgb * 2.0 - 1.0) * w;
}

// A moving web of bright lines on the sea bed, cells about a unit across.
fn caustic(p: vec2<f32>, time: f32) -> f32 {
    let a = sin(p.x * 6.2831853 + sin(p.y * 4.1 + time * 300.0) * 1.3);
    let b = sin(p.y * 6.2831853 + sin(p.x * 3.7 - time * 260.0) * 1.3);
    let web = 1.0 - abs(a * b);
    return pow(web, 6.0);
}

// The leading edge of a foam band, brightest at 0.85 of its travel.
fn wave_front(v: vec4<f32>) -> vec4<f32> {
    let front = vec4<f32>(1.0) - abs(v - vec4<f32>(0.85)) / vec4<f32>(0.15);
    return max(front, select(vec4<f32>(0.0), v * 0.5, v < vec4<f32>(0.85)));
}

@fragment
fn fs_main(in: WaterOut) -> @location(0) vec4<f32> {
    let size = frame.map_size.xy;
    let screen_uv = in.clip.xy / frame.viewport.xy;
    let inside = all(in.world.xz >= vec2<f32>(0.0)) && all(in.world.xz <= size);
    // everything sampled with derivatives first, in uniform control flow
    let t0 = in.world.xz / 8192.0;
    let time = water.sun.w;
    let wind = vec2<f32>(15.0, 15.0) * time;
    let f0 = water.perlin.x;
    let l = water.perlin.y;
    let a = water.fresnel.w;
    let o1 = octave((vec2<f32>(-1.0, -1.0) + t0 + 0.75) * f0 + wind, a);
    let o2 = octave((vec2<f32>(-1.0, 1.0) + t0 + 0.50) * f0 * l - wind, a * a);
    let o3 = octave((vec2<f32>(1.0, -1.0) + t0 + 0.25) * f0 * l * l + wind, a * a * a);
    let o4 = octave((vec2<f32>(1.0, 1.0) + t0) * f0 * l * l * l + wind, a * a * a * a);
    let foam_a = textureSample(normal_tex, wrap_sampler, t0 * 160.0 + time * 2.5).r;
    let foam_b = textureSample(normal_tex, wrap_sampler, t0 * 90.0 - time * 2.0).g;
    let rands = textureSample(normal_tex, wrap_sampler, t0 * 6.0 + time * 0.37);
    let coast_dims = vec2<f32>(textureDimensions(coast_tex));
    let coast = textureSample(coast_tex, wrap_sampler, (in.world.xz / 8.0 + 0.5) / coast_dims).r;

    if (!inside) {
        if (water.plane.a > 0.5) {
            return vec4<f32>(water.plane.rgb, 1.0);
        }
        discard;
    }
    let depth = -ground_at(in.world.xz);
    let waterdepth = clamp(depth / FULL_DEPTH, 0.0, 1.0);
    let shallow = waterdepth;

    let debug = water.mode.x;
    var n = vec3<f32>(0.0, 1.0, 0.0);
    if (debug < 0.5) {
        // texture B is up: (x, z, up) -> (x, up, z)
        n = normalize(o1 + o2 + o3 + o4).xzy;
    }
    var eye_dir = normalize(frame.camera_pos.xyz - in.world);
    if (frame.camera_pos.w > 0.5) {
        eye_dir = vec3<f32>(0.0, 1.0, 0.0);
    }
    let t = terms(eye_dir, in.world, n, shallow);
    if (debug > 0.5) {
        var v = t.fresnel;
        if (debug > 1.5) { v = t.specular; }
        if (debug > 2.5) { v = t.diffuse; }
        if (debug > 3.5) { v = t.surface_mix; }
        let g = round(255.0 * clamp(v / 2.0, 0.0, 1.0)) / 255.0;
        return vec4<f32>(g, g, g, 1.0);
    }

    let surface = water.surface.rgb + water.diffuse.rgb * t.diffuse + vec3<f32>(t.ambient);
    // the sea bed, pushed about by the waves, fading in from the shore
    let zgl = 1.0 - in.clip.z;
    let distort = 60.0 * (1.0 - pow(zgl, 80.0)) * shallow;
    let refr_uv = clamp(screen_uv + n.xz * distort / frame.viewport.xy, vec2<f32>(0.0), vec2<f32>(1.0));
    let refracted = textureSampleLevel(refraction_tex, screen_sampler, refr_uv, 0.0).rgb;
    var rgb = mix(refracted, surface, 0.1 + 0.1 * t.surface_mix);

    if (waterdepth > 0.0) {
        let blend = smoothstep(CAUSTIC_RANGE, 0.0, abs(waterdepth - CAUSTIC_DEPTH));
        rgb += vec3<f32>(caustic(t0 * water.map_mid.w, time)) * blend * water.factors.w;
    }

    if (water.mode.y > 0.5) {
        let coastdist = coast + o3.x * 0.1;
        if (coastdist > 0.0 && depth > 0.0) {
            let wavefoam = vec3<f32>((foam_a + foam_b) * 0.5);
            var f = fract(vec4<f32>(0.25, 0.5, 0.75, 1.0) + time * 50.0);
            f = clamp(vec4<f32>(1.0) - (f * 1.4 - vec4<f32>(coastdist)) / WAVE_LENGTH, vec4<f32>(0.0), vec4<f32>(1.0));
            let intensity = dot(wave_front(f), rands) * coastdist * min(1.0 - waterdepth, 0.8) * 1.5;
            rgb += wavefoam * intensity * water.mode.z;
        }
    }

    var reflected = frame.sky.rgb;
    if (water.mode.w > 0.5) {
        let base = clamp(screen_uv + n.xz * 0.09 * water.factors.z, vec2<f32>(0.0), vec2<f32>(1.0));
        let step_uv = vec2<f32>(0.0, water.perlin.z / frame.viewport.y);
        var sum = textureSampleLevel(reflection_tex, screen_sampler, base, 0.0).rgb;
        var s = 1.0;
        for (var k = 0; k < 7; k = k + 1) {
            sum += textureSampleLevel(reflection_tex, screen_sampler, clamp(base + step_uv * s, vec2<f32>(0.0), vec2<f32>(1.0)), 0.0).rgb;
            s = s * water.perlin.w;
        }
        reflected = sum * 0.125;
    }
    rgb = mix(rgb, reflected, t.fresnel * shallow);
    rgb += t.specular * water.specular.rgb;
    return vec4<f32>(rgb, 1.0);
}
