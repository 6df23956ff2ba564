// A deliberately expensive fragment shader: `iterations` rounds of trigonometry per pixel, so the
// GPU cost is a dial. Rendered offscreen in its own timed pass, then shown by a cheap blit.

struct Params {
    time_secs: f32,
    iterations: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

struct VsOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

// One triangle that covers the viewport.
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VsOut {
    let x = f32((index << 1u) & 2u);
    let y = f32(index & 2u);
    var out: VsOut;
    out.position = vec4<f32>(x * 2.0 - 1.0, 1.0 - y * 2.0, 0.0, 1.0);
    out.uv = vec2<f32>(x, y);
    return out;
}

@fragment
fn fs_scene(in: VsOut) -> @location(0) vec4<f32> {
    var p = in.uv * 3.0 - vec2<f32>(1.5, 1.5);
    var colour = vec3<f32>(0.0);
    let n = max(params.iterations, 1u);
    for (var i = 0u; i < n; i = i + 1u) {
        p = vec2<f32>(sin(p.y * 1.7 + params.time_secs), cos(p.x * 1.3 - params.time_secs * 0.7)) + p * 0.55;
        colour = colour + 0.5 + 0.5 * cos(vec3<f32>(0.0, 2.0, 4.0) + p.x * 3.0 + length(p) * 2.0);
    }
    // Mix the running average with the final point so the pattern stays visible at any load.
    let last = 0.5 + 0.5 * cos(vec3<f32>(0.0, 2.0, 4.0) + p.x * 4.0 + p.y * 3.0);
    return vec4<f32>(mix(colour / f32(n), last, 0.6), 1.0);
}

@group(0) @binding(0) var scene_texture: texture_2d<f32>;
@group(0) @binding(1) var scene_sampler: sampler;

@fragment
fn fs_blit(in: VsOut) -> @location(0) vec4<f32> {
    return textureSample(scene_texture, scene_sampler, in.uv);
}
