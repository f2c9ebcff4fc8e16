// Flatten (and set): each dab pulls the value toward tool[0].x by its amount (the strength)
// times its weight. tool[0].y: 0 both ways, 1 only down, 2 only up.
// CPU twin: `edit::tools::flatten::cpu_twin`.

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    let t = stroke.tool[0].x;
    let mode = u32(stroke.tool[0].y);
    if ((mode == 1u && v <= t) || (mode == 2u && v >= t)) {
        return v;
    }
    return v + (t - v) * (dab.amount * w);
}
