// Fill: where a dab's weight reaches tool[0].y the cell takes tool[0].x; elsewhere it keeps its
// value. CPU twin: `edit::tools::fill::cpu_twin`.

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    if (w >= stroke.tool[0].y) {
        return stroke.tool[0].x;
    }
    return v;
}
