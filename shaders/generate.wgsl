// The generator's height steps, one entry each, over the whole heights layer (8x8 threads a
// group). `noise_lib.wgsl` is put in front. Binding 3: the heights copied before the pass;
// binding 4: the table: row 0 the start count and the starts in elmos (n, x0, z0, x1, z1, ...),
// row 1 the symmetry's copy count and copies (m, a00, a01, a10, a11, b0, b1, ...: p' = a p + b).
// Every noise is averaged over the copies of its point, so it is symmetric and has no seam
// where the sectors meet.
// CPU twin: `edit::generate::kernel`, in the same f32 order.

@group(0) @binding(3) var source: texture_2d<f32>;
@group(0) @binding(4) var starts_table: texture_2d<f32>;

fn src(x: i32, z: i32) -> f32 {
    return textureLoad(source, copy_index(vec2<i32>(x, z)), 0).r;
}

// The nearest cell (halves up, as the CPU twin rounds).
fn near_cell(v: f32) -> i32 {
    return i32(floor(v + 0.5));
}

fn table(col: u32, row: i32) -> f32 {
    return textureLoad(starts_table, vec2<i32>(i32(col), row), 0).r;
}

fn start_at(k: u32) -> vec2<f32> {
    return vec2<f32>(table(1u + 2u * k, 0), table(2u + 2u * k, 0));
}

fn start_count() -> u32 {
    return u32(table(0u, 0));
}

fn copy_count() -> u32 {
    return max(u32(table(0u, 1)), 1u);
}

// Copy k of point p.
fn copy_of(k: u32, p: vec2<f32>) -> vec2<f32> {
    let c = 1u + 6u * k;
    let x = table(c, 1) * p.x + table(c + 1u, 1) * p.y + table(c + 4u, 1);
    let z = table(c + 2u, 1) * p.x + table(c + 3u, 1) * p.y + table(c + 5u, 1);
    return vec2<f32>(x, z);
}

// The noise fields: 0 the base shape's, 1 the canyon's, 2 the noise step's (warped).
fn field(which: u32, q: vec2<f32>) -> f32 {
    let t0 = stroke.tool[0];
    let t1 = stroke.tool[1];
    switch which {
        case 0u: {
            return fbm(q, t1.z, 4u, u32(t0.y));
        }
        case 1u: {
            return fbm(vec2<f32>(q.x + 1733.0, q.y - 911.0), t1.z, 3u, u32(t0.y) ^ 0x51u);
        }
        default: {
            let seed = u32(t0.y);
            let wl = t0.w;
            let warp = t1.y;
            let wx = fbm(q, wl * 1.7, 3u, seed ^ 0x1234u);
            let wz = fbm(q, wl * 1.7, 3u, seed ^ 0x4321u);
            return fbm(vec2<f32>(q.x + warp * wx, q.y + warp * wz), wl, u32(t1.x), seed);
        }
    }
}

// A field averaged over the copies of p, its contrast kept by the fourth root of their count.
fn orbit(which: u32, p: vec2<f32>) -> f32 {
    let m = copy_count();
    var sum = 0.0;
    for (var k = 0u; k < m; k = k + 1u) {
        sum = sum + field(which, copy_of(k, p));
    }
    return sum / f32(m) * sqrt(sqrt(f32(m)));
}

fn step01(e0: f32, e1: f32, x: f32) -> f32 {
    let t = clamp((x - e0) / (e1 - e0), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

fn dist2(a: vec2<f32>, b: vec2<f32>) -> f32 {
    let dx = a.x - b.x;
    let dz = a.y - b.y;
    return sqrt(dx * dx + dz * dz);
}

// From p to the segment a..b.
fn segment_dist(p: vec2<f32>, a: vec2<f32>, b: vec2<f32>) -> f32 {
    let abx = b.x - a.x;
    let abz = b.y - a.y;
    let len2 = max(abx * abx + abz * abz, 1e-6);
    let t = clamp(((p.x - a.x) * abx + (p.y - a.y) * abz) / len2, 0.0, 1.0);
    return dist2(p, vec2<f32>(a.x + abx * t, a.y + abz * t));
}

fn world(i: vec2<u32>) -> vec2<f32> {
    let epc = stroke.elmos_per_cell;
    return vec2<f32>(f32(i.x) * epc, f32(i.y) * epc);
}

// The preset's shape at p, 0..1.
fn shape(preset: u32, p: vec2<f32>, w: f32, d: f32) -> f32 {
    let u = p.x / w;
    let v = p.y / d;
    let c = vec2<f32>(0.5 * w, 0.5 * d);
    let side = min(w, d);
    let n = clamp(0.5 + 0.5 * orbit(0u, p), 0.0, 1.0);
    switch preset {
        case 1u: {
            // continental
            let e = min(min(u, 1.0 - u), min(v, 1.0 - v)) * 2.0;
            let land = step01(0.0, 0.2, e + 0.25 * (n - 0.5));
            return 0.1 + 0.45 * land + 0.25 * land * n;
        }
        case 2u: {
            // islands
            let r = 0.2 * side;
            var near = 1e9;
            for (var k = 0u; k < start_count(); k = k + 1u) {
                near = min(near, dist2(p, start_at(k)) / r);
            }
            let wobble = 0.3 * (n - 0.5);
            let own = 1.0 - step01(0.45, 1.1, near + wobble);
            let middle = 0.85 * (1.0 - step01(0.3, 0.9, dist2(p, c) / r + wobble));
            let isl = max(own, middle);
            return 0.08 + 0.55 * isl + 0.2 * isl * n;
        }
        case 3u: {
            // canyon
            let q = abs(orbit(1u, p));
            let cut = 1.0 - step01(0.04, 0.14, q);
            return 0.85 - 0.6 * cut + 0.08 * (n - 0.5);
        }
        case 4u: {
            // hills
            return 0.2 + 0.55 * n;
        }
        case 5u: {
            // plateaus
            let q = n * 3.0;
            let lv = min(floor(q), 2.0);
            let f = q - lv;
            return 0.15 + 0.25 * (lv + step01(0.35, 0.65, f));
        }
        case 6u: {
            // valley-lane
            let lane = 0.09 * side;
            var near = 1e9;
            for (var k = 0u; k < start_count(); k = k + 1u) {
                near = min(near, segment_dist(p, start_at(k), c) / lane);
            }
            return 0.2 + 0.55 * step01(1.0, 3.0, near + 0.8 * (n - 0.5)) + 0.1 * n;
        }
        default: {
            return 0.33;
        }
    }
}

// tool: preset, seed, low, high | width, depth, feature (elmos)
@compute @workgroup_size(8, 8, 1)
fn base(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let t0 = stroke.tool[0];
    let t1 = stroke.tool[1];
    let s = shape(u32(t0.x), world(i), t1.x, t1.y);
    store(i, t0.z + (t0.w - t0.z) * s);
}

// tool: kind (0 fbm, 1 ridged, 2 billow), seed, amplitude, wavelength | octaves, warp (elmos)
@compute @workgroup_size(8, 8, 1)
fn noise(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let t0 = stroke.tool[0];
    var n = orbit(2u, world(i));
    let kind = u32(t0.x);
    if (kind == 1u) {
        n = 1.0 - 2.0 * abs(n);
    } else if (kind == 2u) {
        n = 2.0 * abs(n) - 1.0;
    }
    let h = textureLoad(target_layer, i).r;
    store(i, h + t0.z * n);
}

// tool: step height, sharpness
@compute @workgroup_size(8, 8, 1)
fn terrace(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let s = stroke.tool[0].x;
    let k = 1.0 - 0.95 * stroke.tool[0].y;
    let h = textureLoad(target_layer, i).r;
    let q = h / s;
    let fl = floor(q);
    let f = q - fl;
    let g = step01(1.0 - k, 1.0, f);
    store(i, (fl + g) * s);
}

// tool: level, softness
@compute @workgroup_size(8, 8, 1)
fn plateau(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let level = stroke.tool[0].x;
    let soft = stroke.tool[0].y;
    let h = textureLoad(target_layer, i).r;
    if (h > level) {
        store(i, level + soft * (1.0 - exp(-(h - level) / soft)));
    }
}

// tool: min, max
@compute @workgroup_size(8, 8, 1)
fn clamp_heights(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let h = textureLoad(target_layer, i).r;
    store(i, clamp(h, stroke.tool[0].x, stroke.tool[0].y));
}

// tool: sea level, beach height
@compute @workgroup_size(8, 8, 1)
fn coast(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let b = stroke.tool[0].y;
    var h = textureLoad(target_layer, i).r - stroke.tool[0].x;
    if (b > 0.0 && h > 0.0 && h < 2.0 * b) {
        h = h * step01(0.0, 2.0 * b, h);
    }
    store(i, h);
}

// The ground a start's base levels to: the mean of five points around it, at least min_land.
fn base_level(s: vec2<f32>, r: f32, min_land: f32) -> f32 {
    let epc = stroke.elmos_per_cell;
    let q = 0.25 * r / epc;
    let cx = s.x / epc;
    let cz = s.y / epc;
    var sum = 0.0;
    sum = sum + src(near_cell(cx), near_cell(cz));
    sum = sum + src(near_cell(cx + q), near_cell(cz));
    sum = sum + src(near_cell(cx - q), near_cell(cz));
    sum = sum + src(near_cell(cx), near_cell(cz + q));
    sum = sum + src(near_cell(cx), near_cell(cz - q));
    return max(sum / 5.0, min_land);
}

// tool: radius, min land
@compute @workgroup_size(8, 8, 1)
fn starts(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let r = stroke.tool[0].x;
    let min_land = stroke.tool[0].y;
    let p = world(i);
    var h = src(i32(i.x), i32(i.y));
    for (var k = 0u; k < start_count(); k = k + 1u) {
        let s = start_at(k);
        let d = dist2(p, s);
        if (d < r) {
            let w = 1.0 - step01(0.5 * r, r, d);
            let level = base_level(s, r, min_land);
            h = h + (level - h) * w;
        }
    }
    store(i, h);
}
