// Metal dome: each dab raises the cells to amount x (1 - d^2)^2 (d: distance over radius), the
// brighter value winning. CPU twin: `edit::tools::metal_dome::cpu_twin`.

fn dome(d: f32) -> f32 {
    if (d >= 1.0) {
        return 0.0;
    }
    let t = 1.0 - d * d;
    return t * t;
}

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    let l = dab_local(dab, vec2<f32>(i));
    let d = sqrt(l.x * l.x + l.y * l.y);
    return max(v, dab.amount * dome(d));
}
