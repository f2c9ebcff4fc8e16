// Gradient noise and fBm, shared by the noise brush and the generator (put in front of their
// kernels). CPU twins: `edit::tools::noise` (`gradient_noise`, `fbm`).

fn hash(x: u32) -> u32 {
    var h = x;
    h = h ^ (h >> 16u);
    h = h * 0x7feb352du;
    h = h ^ (h >> 15u);
    h = h * 0x846ca68bu;
    h = h ^ (h >> 16u);
    return h;
}

fn gradient(ix: i32, iz: i32, seed: u32) -> vec2<f32> {
    let h = hash((u32(ix) * 0x8da6b343u) ^ (u32(iz) * 0xd8163841u) ^ seed);
    return vec2<f32>(f32(h & 0xffffu) / 32767.5 - 1.0, f32(h >> 16u) / 32767.5 - 1.0);
}

fn corner(ix: i32, iz: i32, dx: i32, dz: i32, fx: f32, fz: f32, seed: u32) -> f32 {
    let g = gradient(ix + dx, iz + dz, seed);
    return g.x * (fx - f32(dx)) + g.y * (fz - f32(dz));
}

fn gradient_noise(p: vec2<f32>, seed: u32) -> f32 {
    let x0 = floor(p.x);
    let z0 = floor(p.y);
    let fx = p.x - x0;
    let fz = p.y - z0;
    let ix = i32(x0);
    let iz = i32(z0);
    let ux = fx * fx * (3.0 - 2.0 * fx);
    let uz = fz * fz * (3.0 - 2.0 * fz);
    let a = corner(ix, iz, 0, 0, fx, fz, seed);
    let b = corner(ix, iz, 1, 0, fx, fz, seed);
    let c = corner(ix, iz, 0, 1, fx, fz, seed);
    let d = corner(ix, iz, 1, 1, fx, fz, seed);
    let top = a + (b - a) * ux;
    let bottom = c + (d - c) * ux;
    return top + (bottom - top) * uz;
}

fn fbm(p: vec2<f32>, scale: f32, octaves: u32, seed: u32) -> f32 {
    var sum = 0.0;
    var norm = 0.0;
    var amp = 1.0;
    var freq = 1.0 / scale;
    for (var o = 0u; o < octaves; o = o + 1u) {
        let n = gradient_noise(vec2<f32>(p.x * freq, p.y * freq), seed + o * 0x9e3779b9u);
        sum = sum + n * amp;
        norm = norm + amp;
        amp = amp * 0.5;
        freq = freq * 2.0;
    }
    return 1.4 * sum / norm;
}
