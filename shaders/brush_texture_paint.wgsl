// The texture brush: each dab moves a texture layer's mask toward tool[1].x (255 paints the
// layer on, 0 erases it) by its amount (the strength) times its weight, where the ground
// passes the filters: the heights (binding 3, the ground as the stroke started) bilinear at the
// cell's centre, the slope from central differences one cell (two vertices, 16 elmos) apart,
// compared as the squared gradient against squared tangents the CPU worked out (no
// trigonometry here, so the twin matches exactly). Filters are hard: a cell outside them keeps
// its value. CPU twin: `edit::tools::texture_paint::cpu_twin`.
//
// tool[0]: x 1 = avoid water (height < 0); y: tan^2 of the steepest slope allowed; z, w: tan^2
// of the slope band's ends. tool[1]: x the target byte; y, z: the height band in elmos.

@group(0) @binding(3) var original: texture_2d<f32>;

fn ground_passes(i: vec2<u32>) -> bool {
    let size = textureDimensions(original);
    let u = (f32(i.x) + 0.5) * 2.0;
    let v = (f32(i.y) + 0.5) * 2.0;
    let h = bilinear(original, size, u, v);
    let gx = (bilinear(original, size, u + 1.0, v) - bilinear(original, size, u - 1.0, v)) / 16.0;
    let gz = (bilinear(original, size, u, v + 1.0) - bilinear(original, size, u, v - 1.0)) / 16.0;
    let g2 = gx * gx + gz * gz;
    if (stroke.tool[0].x > 0.5 && h < 0.0) {
        return false;
    }
    if (g2 > stroke.tool[0].y || g2 < stroke.tool[0].z || g2 > stroke.tool[0].w) {
        return false;
    }
    return h >= stroke.tool[1].y && h <= stroke.tool[1].z;
}

fn apply(v: f32, i: vec2<u32>, dab: Dab, w: f32) -> f32 {
    if (!ground_passes(i)) {
        return v;
    }
    return v + (stroke.tool[1].x - v) * min(dab.amount * w, 1.0);
}
