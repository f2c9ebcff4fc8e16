// Hydraulic erosion, the pipe model of Mei et al. (2007), in four entry points: `init` marks
// the dab's domain (water 0 inside, -1 outside), `flow` moves the sediment along the last
// velocity, evaporates, rains and works out the pipes' fluxes, `erode` applies the fluxes to
// the water and trades sediment with the ground against the capacity, `finish` lets every
// grain still carried settle where it is. State per cell: (water depth, sediment,
// flux across the +x edge, flux across the +z edge). Every cell works from copies made before
// the pass (source: heights; state_copy: the state), so no pass reads what it writes.
// tool[0]: strength, rain, capacity, evaporation; tool[1]: 1 / (2 x elmos per cell), the
// reach in radii, the reach's extra cells, the angle of repose as a step (elmos).
// CPU twin: `edit::tools::erosion_hydraulic::cpu_twin` (the same functions, the same order).

@group(0) @binding(3) var source: texture_2d<f32>;
@group(0) @binding(4) var state: texture_storage_2d<rgba32float, write>;
@group(0) @binding(5) var state_copy: texture_2d<f32>;

const PIPE: f32 = 0.2;
const FLUX_KEEP: f32 = 0.9;
const MIN_SIN_TILT: f32 = 0.05;
const EROSION_RATE: f32 = 0.3;
const DEPOSITION_RATE: f32 = 0.3;
const FILM_ELMOS: f32 = 0.5;
const MAX_SPEED: f32 = 1.0;
const REACH_RADII: f32 = 1.5;
const BEND_ELMOS: f32 = 0.25;
const SETTLE_SPREAD: f32 = 0.25;

fn ground(x: i32, z: i32) -> f32 {
    return textureLoad(source, copy_index(vec2<i32>(x, z)), 0).r;
}

fn in_write_rect(x: i32, z: i32) -> bool {
    return x >= i32(stroke.origin.x) && z >= i32(stroke.origin.y)
        && x < i32(stroke.origin.x + stroke.size.x) && z < i32(stroke.origin.y + stroke.size.y);
}

// The state copy at layer cell (x, z); zero outside the written rectangle.
fn st(x: i32, z: i32) -> vec4<f32> {
    if (!in_write_rect(x, z)) {
        return vec4<f32>(0.0);
    }
    return textureLoad(state_copy, vec2<i32>(x, z) - vec2<i32>(stroke.src_origin), 0);
}

fn reached(x: i32, z: i32) -> bool {
    if (!in_write_rect(x, z)) {
        return false;
    }
    let px = f32(x);
    let pz = f32(z);
    for (var k = 0u; k < stroke.dab_count; k = k + 1u) {
        let d = stroke.dabs[k];
        let dx = px - d.center.x;
        let dz = pz - d.center.y;
        if (sqrt(dx * dx + dz * dz) <= d.radius * stroke.tool[1].y + stroke.tool[1].z) {
            return true;
        }
    }
    return false;
}

// 1 within the brush, falling linearly to 0 at the domain's edge (see the twin's `storm`).
fn storm(x: i32, z: i32) -> f32 {
    let px = f32(x);
    let pz = f32(z);
    var best = 0.0;
    for (var k = 0u; k < stroke.dab_count; k = k + 1u) {
        let d = stroke.dabs[k];
        let dx = px - d.center.x;
        let dz = pz - d.center.y;
        let dist = sqrt(dx * dx + dz * dz);
        let inner = d.radius * (stroke.tool[1].y / REACH_RADII);
        let outer = d.radius * stroke.tool[1].y + stroke.tool[1].z;
        best = max(best, clamp((outer - dist) / (outer - inner), 0.0, 1.0));
    }
    return best;
}

fn in_domain(x: i32, z: i32) -> bool {
    return in_write_rect(x, z) && st(x, z).x >= 0.0;
}

// Water on a domain cell this step: the last step's after evaporation, and the rain.
fn water(x: i32, z: i32) -> f32 {
    let w = group_weight(vec2<f32>(f32(x), f32(z))) * stroke.tool[0].x;
    let keep = (1.0 - stroke.tool[0].w) * storm(x, z);
    return st(x, z).x * keep + stroke.tool[0].y * w;
}

fn tentative(x: i32, z: i32, axis: u32) -> f32 {
    var qx = x;
    var qz = z;
    if (axis == 0u) {
        qx = x + 1;
    } else {
        qz = z + 1;
    }
    if (!in_domain(x, z) || !in_domain(qx, qz)) {
        return 0.0;
    }
    let a = ground(x, z) + water(x, z);
    let b = ground(qx, qz) + water(qx, qz);
    return st(x, z)[2u + axis] * FLUX_KEEP + PIPE * (a - b);
}

fn outflow_scale(x: i32, z: i32) -> f32 {
    let out = max(tentative(x, z, 0u), 0.0)
        + max(tentative(x, z, 1u), 0.0)
        + max(-tentative(x - 1, z, 0u), 0.0)
        + max(-tentative(x, z - 1, 1u), 0.0);
    let w = water(x, z);
    if (out > w) {
        return w / out;
    }
    return 1.0;
}

fn flux(x: i32, z: i32, axis: u32) -> f32 {
    let g = tentative(x, z, axis);
    if (g > 0.0) {
        return g * outflow_scale(x, z);
    } else if (g < 0.0) {
        var qx = x;
        var qz = z;
        if (axis == 0u) {
            qx = x + 1;
        } else {
            qz = z + 1;
        }
        return g * outflow_scale(qx, qz);
    }
    return 0.0;
}

fn edge(x: i32, z: i32, axis: u32) -> f32 {
    return st(x, z)[2u + axis];
}

fn net_inflow(x: i32, z: i32) -> f32 {
    return edge(x - 1, z, 0u) - edge(x, z, 0u) + edge(x, z - 1, 1u) - edge(x, z, 1u);
}

fn velocity(x: i32, z: i32, depth: f32) -> vec2<f32> {
    let mean = max(depth - 0.5 * net_inflow(x, z), FILM_ELMOS);
    let u = 0.5 * (edge(x - 1, z, 0u) + edge(x, z, 0u)) / mean;
    let v = 0.5 * (edge(x, z - 1, 1u) + edge(x, z, 1u)) / mean;
    return vec2<f32>(clamp(u, -MAX_SPEED, MAX_SPEED), clamp(v, -MAX_SPEED, MAX_SPEED));
}

// How far a cell may fall and rise (x: down, y: up) so no step to a neighbour grows beyond
// the angle of repose or beyond what it is (each side of a pair takes half the room).
fn slack(h: f32, n: vec4<f32>, repose_step: f32) -> vec2<f32> {
    var down = 3.4e38;
    var up = 3.4e38;
    for (var k = 0u; k < 4u; k = k + 1u) {
        let room = max(abs(h - n[k]), repose_step);
        up = min(up, 0.5 * (room - (h - n[k])));
        down = min(down, 0.5 * (room - (n[k] - h)));
    }
    return vec2<f32>(down, up);
}

fn hat(d: f32) -> f32 {
    return max(1.0 - abs(d), 0.0);
}

// The sediment a domain cell holds after it moves along the velocity (see the twin).
fn advected(x: i32, z: i32) -> f32 {
    let here = st(x, z);
    let v = velocity(x, z, here.x);
    var s = 0.0;
    var kept = 0.0;
    for (var dz = -1; dz <= 1; dz = dz + 1) {
        for (var dx = -1; dx <= 1; dx = dx + 1) {
            let jx = x + dx;
            let jz = z + dz;
            if (in_domain(jx, jz)) {
                let sj = st(jx, jz);
                if (sj.y != 0.0) {
                    let vj = velocity(jx, jz, sj.x);
                    s = s + sj.y * (hat(f32(dx) + vj.x) * hat(f32(dz) + vj.y));
                }
            } else {
                kept = kept + hat(v.x - f32(dx)) * hat(v.y - f32(dz));
            }
        }
    }
    return s + here.y * kept;
}

// The ground of the four neighbours: -x, +x, -z, +z.
fn around(x: i32, z: i32) -> vec4<f32> {
    return vec4<f32>(ground(x - 1, z), ground(x + 1, z), ground(x, z - 1), ground(x, z + 1));
}

// (height, lowest neighbour, fall, rise) of a cell this step: no step grows past the angle of
// repose or what it is, and no cell moves further than BEND_ELMOS from its neighbours' mean
// (or than it already is); `erode` and `settle` both keep to it
fn room(x: i32, z: i32) -> vec4<f32> {
    let h = ground(x, z);
    let n = around(x, z);
    let sl = slack(h, n, stroke.tool[1].w);
    let mean = 0.25 * (n.x + n.y + n.z + n.w);
    let lowest = min(min(n.x, n.y), min(n.z, n.w));
    return vec4<f32>(h, lowest, min(sl.x, h - min(mean - BEND_ELMOS, h)), min(sl.y, max(mean + BEND_ELMOS, h) - h));
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
    var w = -1.0;
    if (reached(i32(i.x), i32(i.y))) {
        w = 0.0;
    }
    put_state(i, vec4<f32>(w, 0.0, 0.0, 0.0));
}

@compute @workgroup_size(8, 8, 1)
fn flow(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let x = i32(i.x);
    let z = i32(i.y);
    if (!in_domain(x, z)) {
        put_state(i, vec4<f32>(-1.0, 0.0, 0.0, 0.0));
        return;
    }
    let s = advected(x, z);
    let w = water(x, z);
    put_state(i, vec4<f32>(w, s, flux(x, z, 0u), flux(x, z, 1u)));
}

@compute @workgroup_size(8, 8, 1)
fn erode(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let x = i32(i.x);
    let z = i32(i.y);
    if (!in_domain(x, z)) {
        put_state(i, vec4<f32>(-1.0, 0.0, 0.0, 0.0));
        return;
    }
    let here = st(x, z);
    let depth = max(here.x + net_inflow(x, z), 0.0);
    let vel = velocity(x, z, depth);
    let speed = sqrt(vel.x * vel.x + vel.y * vel.y);
    let r = room(x, z);
    var h = r.x;
    let lowest = r.y;
    let down = r.z;
    let up = r.w;
    // the tilt down to the lowest neighbour (one-sided: a one-cell bump is seen)
    let drop = max(h - lowest, 0.0) * 2.0 * stroke.tool[1].x;
    let sin_tilt = max(sqrt(drop * drop / (1.0 + drop * drop)), MIN_SIN_TILT);
    let cap = stroke.tool[0].z * sin_tilt * speed * depth * storm(x, z);
    var s = here.y;
    if (cap > s) {
        let ero = min(min(EROSION_RATE * (cap - s), 0.5 * max(h - lowest, 0.0)), down);
        h = h - ero;
        s = s + ero;
    } else {
        let dep = min(DEPOSITION_RATE * (s - cap), up);
        h = h + dep;
        s = s - dep;
    }
    store(i, h);
    put_state(i, vec4<f32>(depth, s, here.z, here.w));
}

// How far a cell may rise in `settle`, where no cell falls (see the twin's settle_room): the
// whole of a pair's room, the bend limit, and no higher than its highest neighbour.
fn settle_up(x: i32, z: i32, h: f32) -> f32 {
    let n = around(x, z);
    let sl = slack(h, n, stroke.tool[1].w);
    let mean = 0.25 * (n.x + n.y + n.z + n.w);
    let highest = max(max(n.x, n.y), max(n.z, n.w));
    return max(min(min(2.0 * sl.y, max(mean + BEND_ELMOS, h) - h), highest - h), 0.0);
}

// the load spreads (an exchange with the cells k away in the domain, the same share both
// ways) and is laid where settle_up lets the ground rise
fn settle_k(id: vec3<u32>, k: i32) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let x = i32(i.x);
    let z = i32(i.y);
    if (!in_domain(x, z)) {
        put_state(i, vec4<f32>(-1.0, 0.0, 0.0, 0.0));
        return;
    }
    let here = st(x, z);
    var s = here.y;
    let offsets = array<vec2<i32>, 4>(vec2<i32>(-k, 0), vec2<i32>(k, 0), vec2<i32>(0, -k), vec2<i32>(0, k));
    for (var n = 0u; n < 4u; n = n + 1u) {
        let o = offsets[n];
        if (in_domain(x + o.x, z + o.y)) {
            s = s + SETTLE_SPREAD * (st(x + o.x, z + o.y).y - here.y);
        }
    }
    let h = ground(x, z);
    let dep = max(min(s, settle_up(x, z, h)), 0.0);
    store(i, h + dep);
    put_state(i, vec4<f32>(here.x, s - dep, here.z, here.w));
}

@compute @workgroup_size(8, 8, 1)
fn settle_1(@builtin(global_invocation_id) id: vec3<u32>) {
    settle_k(id, 1);
}

@compute @workgroup_size(8, 8, 1)
fn settle_2(@builtin(global_invocation_id) id: vec3<u32>) {
    settle_k(id, 2);
}

@compute @workgroup_size(8, 8, 1)
fn settle_4(@builtin(global_invocation_id) id: vec3<u32>) {
    settle_k(id, 4);
}

@compute @workgroup_size(8, 8, 1)
fn finish(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let x = i32(i.x);
    let z = i32(i.y);
    if (!in_domain(x, z)) {
        return;
    }
    let v = textureLoad(target_layer, i).r;
    store(i, v + st(x, z).y);
}
