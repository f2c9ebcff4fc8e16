// Stamp: inside each dab's square (local -1..1), the stamp image (bilinear) times the dab's
// amount and weight is added, or (mode 1) the value is raised to base + that.
// tool[0].x: mode (0 add, 1 max); tool[0].y: base height. CPU twin: `edit::tools::stamp`.

@group(0) @binding(3) var stamp_image: texture_2d<f32>;

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    let l = dab_local(dab, vec2<f32>(i));
    if (abs(l.x) > 1.0 || abs(l.y) > 1.0) {
        return v;
    }
    let s = sample_unit(stamp_image, textureDimensions(stamp_image), l);
    let add = dab.amount * w * s;
    if (u32(stroke.tool[0].x) == 1u) {
        return max(v, stroke.tool[0].y + add);
    }
    return v + add;
}
