// Reads one texel of the view's depth (the cursor's), so the editor knows which ground point
// the user sees under the cursor while a stroke is changing it on the GPU.

@group(0) @binding(0) var view_depth: texture_depth_2d;
@group(0) @binding(1) var<storage, read_write> probed: array<f32, 1>;
// x, y: the pixel
@group(0) @binding(2) var<uniform> pixel: vec4<u32>;

@compute @workgroup_size(1, 1, 1)
fn main() {
    probed[0] = textureLoad(view_depth, vec2<i32>(pixel.xy), 0);
}
