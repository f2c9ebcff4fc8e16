// Raise and lower: each dab adds its amount (elmos, negative lowers) times its weight.
// CPU twin: `edit::tools::raise::cpu_twin`.

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    return v + dab.amount * w;
}
