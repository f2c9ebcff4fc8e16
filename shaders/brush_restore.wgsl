// Restore: each dab pulls the value toward the layer as it was opened, by its amount (the
// strength) times its weight. CPU twin: `edit::tools::restore::cpu_twin`.

@group(0) @binding(3) var original: texture_2d<f32>;

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    let o = textureLoad(original, vec2<i32>(i), 0).r;
    return v + (o - v) * (dab.amount * w);
}
