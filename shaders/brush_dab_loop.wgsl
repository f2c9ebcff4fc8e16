// The shared entry point of point-wise kernels: each cell of the rectangle takes every dab
// with weight above 0, in order, through the kernel's `apply(value, cell, dab, weight)`.
// CPU twin: `CpuPass::dab_loop`.

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let p = vec2<f32>(i);
    var v = textureLoad(target_layer, i).r;
    for (var k = 0u; k < stroke.dab_count; k = k + 1u) {
        let dab = stroke.dabs[k];
        let w = dab_weight(dab, p);
        if (w > 0.0) {
            v = apply(v, i, dab, w);
        }
    }
    store(i, v);
}
