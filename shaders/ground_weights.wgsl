// The live rule evaluation: each texture layer's weight (rules and painted mask, before its
// opacity) at every heightmap vertex of a rectangle, four layers to a texel of one slice of
// an rgba8unorm array. `shaders/ground_rules.wgsl` (the rules, bound in group 1) comes first;
// the CPU twin is `gpu::ground_layers::weights_cpu`.

@group(0) @binding(0) var weights_out: texture_storage_2d_array<rgba8unorm, write>;
// x0, z0, w, h: the vertices to evaluate
@group(0) @binding(1) var<uniform> eval_rect: vec4<u32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= eval_rect.z || id.y >= eval_rect.w) {
        return;
    }
    let v = eval_rect.xy + id.xy;
    let x = f32(v.x) * RULE_SQUARE_ELMOS;
    let z = f32(v.y) * RULE_SQUARE_ELMOS;
    let slices = (rule_globals.layer_count + 3u) / 4u;
    for (var s = 0u; s < slices; s = s + 1u) {
        var w = vec4<f32>(0.0);
        for (var c = 0u; c < 4u; c = c + 1u) {
            let k = s * 4u + c;
            if (k < rule_globals.layer_count) {
                w[c] = layer_weight(k, x, z);
            }
        }
        textureStore(weights_out, vec2<i32>(v), i32(s), w);
    }
}
