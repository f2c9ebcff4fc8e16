// A plain water plane at y = 0 over the map (the real water is its own pipeline, later):
// the surface colour, more opaque at grazing angles, with a glint of sun.

struct WaterOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> WaterOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 1.0), vec2<f32>(0.0, 1.0)
    );
    let c = corners[i] * frame.map_size.xy;
    let world = vec3<f32>(c.x, 0.0, c.y);
    var out: WaterOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    return out;
}

@fragment
fn fs_main(in: WaterOut) -> @location(0) vec4<f32> {
    var view_dir = normalize(frame.camera_pos.xyz - in.world);
    if (frame.camera_pos.w > 0.5) {
        view_dir = vec3<f32>(0.0, 1.0, 0.0);
    }
    let l = normalize(frame.sun_dir.xyz);
    let glint = pow(max(dot(reflect(-l, vec3<f32>(0.0, 1.0, 0.0)), view_dir), 0.0), 60.0);
    let grazing = pow(1.0 - abs(view_dir.y), 4.0);
    let alpha = mix(frame.water.a, 0.92, grazing);
    let col = frame.water.rgb * (0.6 + 0.4 * l.y) + vec3<f32>(0.6) * glint;
    return vec4<f32>(col, alpha);
}
