// Start positions and features: round billboards of a fixed size on screen, drawn at their
// place on the ground and hidden by hills in front of them.

struct MarkerIn {
    // xyz: position in elmos; w: radius in pixels
    @location(0) pos_size: vec4<f32>,
    @location(1) colour: vec4<f32>,
};

struct MarkerOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) corner: vec2<f32>,
    @location(1) colour: vec4<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32, m: MarkerIn) -> MarkerOut {
    let corner = vec2<f32>(f32(i & 1u), f32(i >> 1u)) * 2.0 - vec2<f32>(1.0, 1.0);
    // slide the marker 3% of the way towards the eye, along its own line of sight (so it stays
    // where it is on screen), so the slope it stands on does not cut it in half
    var towards = frame.camera_pos.xyz - m.pos_size.xyz;
    if (frame.camera_pos.w > 0.5) {
        towards = vec3<f32>(0.0, 1000.0, 0.0);
    }
    let pos = m.pos_size.xyz + towards * 0.03;
    var clip = frame.view_proj * vec4<f32>(pos, 1.0);
    let px = 2.0 / max(frame.viewport.xy, vec2<f32>(1.0, 1.0));
    clip = vec4<f32>(clip.xy + corner * m.pos_size.w * px * clip.w, clip.z, clip.w);
    var out: MarkerOut;
    out.clip = clip;
    out.corner = corner;
    out.colour = m.colour;
    return out;
}

@fragment
fn fs_main(in: MarkerOut) -> @location(0) vec4<f32> {
    let r = length(in.corner);
    if (r > 1.0) {
        discard;
    }
    let rim = smoothstep(0.62, 0.75, r);
    return vec4<f32>(mix(in.colour.rgb, vec3<f32>(0.05, 0.05, 0.05), rim), in.colour.a);
}
