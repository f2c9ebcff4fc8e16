// Shared by the terrain, water and marker pipelines: the per-frame uniform block.
// Prepended to each pipeline's file when its shader module is built (gpu/renderer.rs).
// Must match `FrameUniform` in src/gpu/renderer.rs field for field.

struct Frame {
    view_proj: mat4x4<f32>,
    // xyz: eye in elmos; w: 1 when orthographic
    camera_pos: vec4<f32>,
    // xyz: unit vector towards the sun
    sun_dir: vec4<f32>,
    ambient: vec4<f32>,
    diffuse: vec4<f32>,
    // rgb: ground specular colour; w: specular exponent
    specular: vec4<f32>,
    // x: width elmos, y: depth elmos, z: maxMetal, w: 0
    map_size: vec4<f32>,
    // rgb: water colour; a: surface alpha
    water: vec4<f32>,
    sky: vec4<f32>,
    // opacity of the metal, grass, type and slope overlays (0: off)
    overlay: vec4<f32>,
    // x: slope threshold as 1 - cos(angle); y: contour interval in elmos (0: off);
    // z: 128-square grid on (1) or off (0); w: void water (1)
    overlay_params: vec4<f32>,
    // x, y: brush centre (world x, z) in elmos; z: radius in elmos; w: 1 when shown
    cursor: vec4<f32>,
    // x, y: view size in pixels; z: 1 while drawing the water's mirrored reflection picture;
    // w: 1 in the water's debug view (all but the water black)
    viewport: vec4<f32>,
    // the ground shader's sea bed tint (mapinfo water.absorb, baseColor, minColor)
    water_absorb: vec4<f32>,
    water_base: vec4<f32>,
    water_min: vec4<f32>,
    // x: the pathing overlay's opacity (0: off); y: 1 when a start's region is flooded
    pathing: vec4<f32>,
};

@group(0) @binding(0) var<uniform> frame: Frame;

