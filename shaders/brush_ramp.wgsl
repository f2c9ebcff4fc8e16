// Ramp: each dab is one ramp, its local x running from A to B (its centre is the midpoint).
// A cell between the ends moves toward mix(tool[0].x, tool[0].y, f) by the strength times the
// falloff of its distance from the ramp's line over the half width.
// tool[0]: height at A, height at B, half length and half width in cells; tool[1].x: strength.
// CPU twin: `edit::tools::ramp::cpu_twin`.

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let p = vec2<f32>(i);
    let ha = stroke.tool[0].x;
    let hb = stroke.tool[0].y;
    let half_len = stroke.tool[0].z;
    let half_w = stroke.tool[0].w;
    let strength = stroke.tool[1].x;
    var v = textureLoad(target_layer, i).r;
    for (var k = 0u; k < stroke.dab_count; k = k + 1u) {
        let dab = stroke.dabs[k];
        let l = dab_local(dab, p);
        let along = l.x * dab.radius;
        let across = l.y * dab.radius;
        var f = 0.5;
        if (half_len > 0.0) {
            f = along / (2.0 * half_len) + 0.5;
        }
        if (f < 0.0 || f > 1.0) {
            continue;
        }
        let w = falloff_curve(stroke.falloff, abs(across) / half_w) * strength;
        if (w <= 0.0) {
            continue;
        }
        let target_h = ha + (hb - ha) * f;
        v = v + (target_h - v) * w;
    }
    store(i, v);
}
