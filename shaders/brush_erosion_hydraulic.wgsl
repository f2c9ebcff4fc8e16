// Hydraulic erosion on a grid, in three entry points: `init` sets the state (r: water,
// g: sediment, b: the height before the dab), `flow` moves water and sediment one step and
// trades sediment with the ground, `finish` settles the sediment still carried and blends the
// result in by the brush's weight times the strength. Every cell works from copies made before
// the pass (source: heights; state_copy: the state), so no pass reads what it writes.
// tool[0]: strength, rain, capacity, evaporation; tool[1].x: 1 / (2 x elmos per cell).
// CPU twin: `edit::tools::erosion_hydraulic::cpu_twin`.

@group(0) @binding(3) var source: texture_2d<f32>;
@group(0) @binding(4) var state: texture_storage_2d<rgba32float, write>;
@group(0) @binding(5) var state_copy: texture_2d<f32>;

const EXCHANGE_RATE: f32 = 0.3;
const MIN_SLOPE: f32 = 0.05;
const FLOW_SHARE: f32 = 0.2;

fn src(x: i32, z: i32) -> f32 {
    return textureLoad(source, copy_index(vec2<i32>(x, z)), 0).r;
}

fn in_write_rect(x: i32, z: i32) -> bool {
    return x >= i32(stroke.origin.x) && z >= i32(stroke.origin.y)
        && x < i32(stroke.origin.x + stroke.size.x) && z < i32(stroke.origin.y + stroke.size.y);
}

fn inside(x: i32, z: i32) -> bool {
    return x >= 0 && z >= 0 && x < i32(stroke.layer_size.x) && z < i32(stroke.layer_size.y);
}

// The state copy at layer cell (x, z); zero outside the written rectangle.
fn state_at(x: i32, z: i32) -> vec4<f32> {
    if (!in_write_rect(x, z)) {
        return vec4<f32>(0.0);
    }
    return textureLoad(state_copy, vec2<i32>(x, z) - vec2<i32>(stroke.src_origin), 0);
}

// Water on a cell after this step's rain (none outside the rectangle).
fn water(x: i32, z: i32) -> f32 {
    if (!in_write_rect(x, z)) {
        return 0.0;
    }
    return state_at(x, z).x + stroke.tool[0].y;
}

fn surface(x: i32, z: i32) -> f32 {
    return src(x, z) + water(x, z);
}

fn dir(k: u32) -> vec2<i32> {
    switch k {
        case 0u: { return vec2<i32>(-1, 0); }
        case 1u: { return vec2<i32>(1, 0); }
        case 2u: { return vec2<i32>(0, -1); }
        default: { return vec2<i32>(0, 1); }
    }
}

fn outflows(x: i32, z: i32) -> vec4<f32> {
    let s = surface(x, z);
    let wa = water(x, z);
    var f = vec4<f32>(0.0);
    var total = 0.0;
    for (var k = 0u; k < 4u; k = k + 1u) {
        let d = dir(k);
        if (inside(x + d.x, z + d.y)) {
            f[k] = max(s - surface(x + d.x, z + d.y), 0.0);
            total = total + f[k];
        }
    }
    if (total <= 0.0 || wa <= 0.0) {
        return vec4<f32>(0.0);
    }
    let scale = min(wa, FLOW_SHARE * total) / total;
    return vec4<f32>(f[0] * scale, f[1] * scale, f[2] * scale, f[3] * scale);
}

fn put_state(i: vec2<u32>, s: vec4<f32>) {
    textureStore(state, vec2<i32>(i) - vec2<i32>(stroke.src_origin), s);
}

@compute @workgroup_size(8, 8, 1)
fn init(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let v = textureLoad(target_layer, i).r;
    put_state(i, vec4<f32>(0.0, 0.0, v, 0.0));
}

@compute @workgroup_size(8, 8, 1)
fn flow(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let x = i32(i.x);
    let z = i32(i.y);
    let here = state_at(x, z);
    let o = outflows(x, z);
    let out = o[0] + o[1] + o[2] + o[3];
    let wa = water(x, z);
    var in_w = 0.0;
    var in_s = 0.0;
    for (var k = 0u; k < 4u; k = k + 1u) {
        let d = dir(k);
        let qx = x + d.x;
        let qz = z + d.y;
        if (!inside(qx, qz)) {
            continue;
        }
        let f = outflows(qx, qz)[k ^ 1u];
        in_w = in_w + f;
        let wq = water(qx, qz);
        if (wq > 0.0) {
            in_s = in_s + state_at(qx, qz).y * f / wq;
        }
    }
    var s_out = 0.0;
    if (wa > 0.0) {
        s_out = here.y * out / wa;
    }
    var w_new = wa - out + in_w;
    var s_new = here.y - s_out + in_s;
    var h = src(x, z);
    // the flow carries more down steeper ground; never digs below its lowest neighbour nor
    // piles above its highest
    let hl = src(x - 1, z);
    let hr = src(x + 1, z);
    let hn = src(x, z - 1);
    let hs = src(x, z + 1);
    let gx = (hr - hl) * stroke.tool[1].x;
    let gz = (hs - hn) * stroke.tool[1].x;
    let slope = max(sqrt(gx * gx + gz * gz), MIN_SLOPE);
    let cap = stroke.tool[0].z * (out + in_w) * slope;
    if (s_new > cap) {
        let highest = max(max(hl, hr), max(hn, hs));
        let dep = min(EXCHANGE_RATE * (s_new - cap), max(highest - h, 0.0));
        h = h + dep;
        s_new = s_new - dep;
    } else {
        let lowest = min(min(hl, hr), min(hn, hs));
        let ero = min(EXCHANGE_RATE * (cap - s_new), max(0.5 * (h - lowest), 0.0));
        h = h - ero;
        s_new = s_new + ero;
    }
    w_new = w_new * (1.0 - stroke.tool[0].w);
    store(i, h);
    put_state(i, vec4<f32>(w_new, s_new, here.z, 0.0));
}

@compute @workgroup_size(8, 8, 1)
fn finish(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let v = textureLoad(target_layer, i).r;
    let st = state_at(i32(i.x), i32(i.y));
    let w = group_weight(vec2<f32>(i)) * stroke.tool[0].x;
    store(i, st.z + (v + st.y - st.z) * w);
}
