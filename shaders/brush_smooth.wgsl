// Smooth: each cell moves toward the mean of a (2k+1)^2 box of the source copy, by the
// largest dab weight times the strength. tool[0].x: strength; tool[0].y: k.
// CPU twin: `edit::tools::smooth::cpu_twin`.

@group(0) @binding(3) var source: texture_2d<f32>;

fn src(x: i32, z: i32) -> f32 {
    return textureLoad(source, copy_index(vec2<i32>(x, z)), 0).r;
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let w = group_weight(vec2<f32>(i)) * stroke.tool[0].x;
    if (w <= 0.0) {
        return;
    }
    let k = i32(stroke.tool[0].y);
    let x = i32(i.x);
    let z = i32(i.y);
    var sum = 0.0;
    for (var dz = -k; dz <= k; dz = dz + 1) {
        for (var dx = -k; dx <= k; dx = dx + 1) {
            sum = sum + src(x + dx, z + dz);
        }
    }
    let n = f32((2 * k + 1) * (2 * k + 1));
    let mean = sum / n;
    let v = src(x, z);
    store(i, v + (mean - v) * w);
}
