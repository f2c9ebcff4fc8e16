// The pathing overlay: every square's speed for one move class, as the engine's
// `CMoveMath::GetPosSpeedMod` gives it without the terrain-type speeds. Written as one float a
// square: the speed (0 < s <= 1), 0 too steep, -1 water it may not enter. Its CPU twin is
// `analyze::passability::codes_rect`; one invocation per square of the dispatched rectangle.

struct PathClass {
    // x: kind (0 tank, 1 bot, 2 hover, 3 ship); y: height rule (0 the highest corner, Recoil;
    // 1 the half-resolution cell's mean, Spring 106); z: 1 when hovers may not cross water
    flags: vec4<u32>,
    // x: maxSlope (1 - cos); y: max water depth; z: min water depth; w: slopeMod
    limits: vec4<f32>,
    // depthModParams: x minHeight, y maxHeight, z maxScale, w quadraticCoeff
    depth: vec4<f32>,
    // x: linearCoeff; y: constantCoeff; z: ground units' speed factor under water
    depth_more: vec4<f32>,
};

@group(0) @binding(0) var heights: texture_2d<f32>;
@group(0) @binding(1) var<uniform> class_def: PathClass;
@group(0) @binding(2) var codes: texture_storage_2d<r32float, write>;
// x, y: the rectangle's first square; z, w: its size in squares
@group(1) @binding(0) var<uniform> rect: vec4<u32>;

fn h_at(x: u32, z: u32) -> f32 {
    return textureLoad(heights, vec2<i32>(i32(x), i32(z)), 0).r;
}

// The y of a face normal with x and z components (nx, 8, nz), normalised as the engine does.
fn normal_y(nx: f32, nz: f32) -> f32 {
    let sq = nx * nx + 64.0 + nz * nz;
    return 8.0 * (1.0 / sqrt(sq));
}

// The slope of the half-resolution cell (hx, hz): 1 - mix(min, avg, min / avg) over the
// face normals' y of its four squares, in the engine's order.
fn cell_slope(hx: u32, hz: u32) -> f32 {
    var ys: array<f32, 8>;
    let offsets = array<vec2<u32>, 4>(vec2<u32>(0u, 0u), vec2<u32>(1u, 0u), vec2<u32>(0u, 1u), vec2<u32>(1u, 1u));
    for (var k = 0u; k < 4u; k = k + 1u) {
        let x = hx * 2u + offsets[k].x;
        let z = hz * 2u + offsets[k].y;
        let tl = h_at(x, z);
        let tr = h_at(x + 1u, z);
        let bl = h_at(x, z + 1u);
        let br = h_at(x + 1u, z + 1u);
        ys[k * 2u] = normal_y(-(tr - tl), -(bl - tl));
        ys[k * 2u + 1u] = normal_y(bl - br, tr - br);
    }
    var avg = 0.0;
    var mn = ys[0];
    for (var k = 0u; k < 8u; k = k + 1u) {
        avg = avg + ys[k];
        mn = min(mn, ys[k]);
    }
    avg = avg * 0.125;
    let t = mn / avg;
    return 1.0 - (mn + (avg - mn) * t);
}

fn mean_corner(x: u32, z: u32) -> f32 {
    return (h_at(x, z) + h_at(x + 1u, z) + h_at(x, z + 1u) + h_at(x + 1u, z + 1u)) * 0.25;
}

fn square_height(x: u32, z: u32) -> f32 {
    if (class_def.flags.y == 1u) {
        let cx = (x / 2u) * 2u;
        let cz = (z / 2u) * 2u;
        return (mean_corner(cx, cz) + mean_corner(cx, cz + 1u) + mean_corner(cx + 1u, cz) + mean_corner(cx + 1u, cz + 1u)) * 0.25;
    }
    return max(max(h_at(x, z), h_at(x + 1u, z)), max(h_at(x, z + 1u), h_at(x + 1u, z + 1u)));
}

// MoveDef::GetDepthMod: the speed factor water of `height` gives a ground unit.
fn depth_factor(height: f32) -> f32 {
    let p = class_def.depth;
    if (height > -p.x) {
        return 1.0;
    }
    if (height < -p.y) {
        return 0.0;
    }
    let d = -height;
    let scale = clamp(p.w * d * d + class_def.depth_more.x * d + class_def.depth_more.y, 0.01, p.z);
    return 1.0 / scale;
}

fn square_code(height: f32, slope: f32) -> f32 {
    let kind = class_def.flags.x;
    let lim = class_def.limits;
    if (kind <= 1u) {
        if (slope > lim.x) {
            return 0.0;
        }
        if (-height > lim.y) {
            return -1.0;
        }
        var speed = 1.0 / (1.0 + slope * lim.w);
        if (height < 0.0) {
            speed = speed * class_def.depth_more.z;
        }
        speed = speed * depth_factor(height);
        return select(-1.0, speed, speed > 0.0);
    }
    if (kind == 2u) {
        if (height < 0.0) {
            return select(1.0, -1.0, class_def.flags.z == 1u);
        }
        if (slope > lim.x) {
            return 0.0;
        }
        return 1.0 / (1.0 + slope * lim.w);
    }
    return select(1.0, -1.0, -height < lim.z);
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= rect.z || id.y >= rect.w) {
        return;
    }
    let x = rect.x + id.x;
    let z = rect.y + id.y;
    let dims = textureDimensions(codes);
    if (x >= dims.x || z >= dims.y) {
        return;
    }
    let code = square_code(square_height(x, z), cell_slope(x / 2u, z / 2u));
    textureStore(codes, vec2<i32>(i32(x), i32(z)), vec4<f32>(code, 0.0, 0.0, 0.0));
}
