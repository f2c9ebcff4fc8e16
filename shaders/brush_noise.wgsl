// Noise: each dab adds amount x weight x fBm gradient noise at the cell's world position.
// tool[0]: seed, scale in elmos, octaves. CPU twin: `edit::tools::noise` (`fbm`, `cpu_twin`).

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    let seed = u32(stroke.tool[0].x);
    let scale = stroke.tool[0].y;
    let octaves = u32(stroke.tool[0].z);
    let epc = stroke.elmos_per_cell;
    let p = vec2<f32>(f32(i.x) * epc, f32(i.y) * epc);
    return v + dab.amount * w * fbm(p, scale, octaves, seed);
}
