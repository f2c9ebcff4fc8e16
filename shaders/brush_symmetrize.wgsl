// Symmetrize: every cell of the rectangle within reach of a dab and outside the fundamental
// sector takes the value of its image inside the sector (the nearest cell to it). It reads
// only cells of the sector and writes only cells outside it, so it works in place.
// tool[0]: mode code, cos and sin of one turn, reach scale; tool[1]: reach in cells, turn count.
// CPU twin: `edit::symmetry::symmetrize_cpu` (and `canonical`).

fn canonical(code: u32, n: u32, cs: vec2<f32>, e: vec2<f32>, p: vec2<f32>) -> vec2<f32> {
    let c = e * 0.5;
    var x = p.x;
    var z = p.y;
    switch code {
        case 1u: {
            if (x > c.x) { x = e.x - x; }
        }
        case 2u: {
            if (z > c.y) { z = e.y - z; }
        }
        case 3u: {
            if (x > c.x) { x = e.x - x; }
            if (z > c.y) { z = e.y - z; }
        }
        case 4u: {
            if (x > z) {
                let t = x;
                x = z;
                z = t;
            }
        }
        case 5u: {
            if (x + z > e.x) {
                let nx = e.x - z;
                let nz = e.x - x;
                x = nx;
                z = nz;
            }
        }
        case 6u: {
            let vx = x - c.x;
            let vz = z - c.y;
            if (vz > 0.0 || (vz == 0.0 && vx > 0.0)) {
                x = e.x - x;
                z = e.y - z;
            }
        }
        case 7u, 8u: {
            var vx = x - c.x;
            var vz = z - c.y;
            if (vx != 0.0 || vz != 0.0) {
                for (var k = 0u; k < n; k = k + 1u) {
                    if (vz >= 0.0 && vx * cs.y - vz * cs.x > 0.0) {
                        break;
                    }
                    let rx = vx * cs.x + vz * cs.y;
                    let rz = vz * cs.x - vx * cs.y;
                    vx = rx;
                    vz = rz;
                }
            }
            x = c.x + vx;
            z = c.y + vz;
        }
        default: {}
    }
    return vec2<f32>(x, z);
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!in_rect(id)) {
        return;
    }
    let i = cell_of(id);
    let pf = vec2<f32>(i);
    let code = u32(stroke.tool[0].x);
    let cs = stroke.tool[0].yz;
    let scale = stroke.tool[0].w;
    let add = stroke.tool[1].x;
    let n = u32(stroke.tool[1].y);
    var near = false;
    for (var k = 0u; k < stroke.dab_count; k = k + 1u) {
        let d = stroke.dabs[k];
        let dx = pf.x - d.center.x;
        let dz = pf.y - d.center.y;
        if (sqrt(dx * dx + dz * dz) <= d.radius * scale + add) {
            near = true;
            break;
        }
    }
    if (!near) {
        return;
    }
    let e = vec2<f32>(stroke.layer_size) - vec2<f32>(1.0, 1.0);
    let c = canonical(code, n, cs, e, pf);
    let q = floor(c + vec2<f32>(0.5, 0.5));
    if (all(q == pf)) {
        return;
    }
    if (any(canonical(code, n, cs, e, q) != q)) {
        return;
    }
    if (q.x < 0.0 || q.y < 0.0 || q.x > e.x || q.y > e.y) {
        return;
    }
    let v = textureLoad(target_layer, vec2<u32>(q)).r;
    store(i, v);
}
