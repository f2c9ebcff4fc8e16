// Thermal erosion, one iteration: each cell sheds half its largest excess over the talus
// (times weight and strength) to its lower neighbours in proportion to their excess, and
// gathers what its higher neighbours shed toward it. tool[0].x: strength; tool[0].y: the talus
// as height per cell. CPU twin: `edit::tools::erosion_thermal::cpu_twin`.

@group(0) @binding(3) var source: texture_2d<f32>;

const DIAGONAL: f32 = 1.41421356237;

fn src(x: i32, z: i32) -> f32 {
    return textureLoad(source, copy_index(vec2<i32>(x, z)), 0).r;
}

fn inside(x: i32, z: i32) -> bool {
    return x >= 0 && z >= 0 && x < i32(stroke.layer_size.x) && z < i32(stroke.layer_size.y);
}

fn weight_at(x: i32, z: i32) -> f32 {
    return group_weight(vec2<f32>(f32(x), f32(z))) * stroke.tool[0].x;
}

// x: the largest excess over the 8 neighbours; y: their total
fn stats(x: i32, z: i32, talus: f32) -> vec2<f32> {
    let h = src(x, z);
    var dmax = 0.0;
    var dtot = 0.0;
    for (var k = 0; k < 9; k = k + 1) {
        if (k == 4) {
            continue;
        }
        let dx = k % 3 - 1;
        let dz = k / 3 - 1;
        if (!inside(x + dx, z + dz)) {
            continue;
        }
        var dist = 1.0;
        if (dx != 0 && dz != 0) {
            dist = DIAGONAL;
        }
        let d = h - src(x + dx, z + dz) - talus * dist;
        if (d > 0.0) {
            dtot = dtot + d;
            dmax = max(dmax, d);
        }
    }
    return vec2<f32>(dmax, dtot);
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let x = i32(i.x);
    let z = i32(i.y);
    let talus = stroke.tool[0].y;
    let h = src(x, z);
    let st = stats(x, z, talus);
    var out = 0.0;
    if (st.y > 0.0) {
        out = 0.5 * weight_at(x, z) * st.x;
    }
    var gain = 0.0;
    for (var k = 0; k < 9; k = k + 1) {
        if (k == 4) {
            continue;
        }
        let dx = k % 3 - 1;
        let dz = k / 3 - 1;
        let qx = x + dx;
        let qz = z + dz;
        if (!inside(qx, qz)) {
            continue;
        }
        var dist = 1.0;
        if (dx != 0 && dz != 0) {
            dist = DIAGONAL;
        }
        let d = src(qx, qz) - h - talus * dist;
        if (d > 0.0) {
            let q = stats(qx, qz, talus);
            gain = gain + 0.5 * weight_at(qx, qz) * q.x * d / q.y;
        }
    }
    store(i, h - out + gain);
}
