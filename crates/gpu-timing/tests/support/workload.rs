//! A GPU workload whose cost is set per draw, shared by the tests, the benchmark and the
//! `gpu_probe` example (each includes this file with `#[path]`).

/// A full-screen triangle whose fragment shader loops `iterations` times per pixel; the count
/// travels as the draw's first instance, so passes in one submission can differ.
const SHADER: &str = r"
struct VertexOut {
    @builtin(position) position: vec4f,
    @location(0) @interpolate(flat) iterations: u32,
}

@vertex
fn vs_main(@builtin(vertex_index) vertex: u32, @builtin(instance_index) iterations: u32) -> VertexOut {
    let uv = vec2f(f32((vertex << 1u) & 2u), f32(vertex & 2u));
    return VertexOut(vec4f(uv * 2.0 - 1.0, 0.0, 1.0), iterations);
}

@fragment
fn fs_main(input: VertexOut) -> @location(0) vec4f {
    var x = input.position.x * 0.001;
    var y = input.position.y * 0.001;
    for (var i = 0u; i < input.iterations; i++) {
        x = fract(sin(x * 12.9898 + y) * 43758.5453);
        y = y + x * 0.5;
    }
    return vec4f(x, fract(y), 0.0, 1.0);
}
";

/// A GPU with its device and queue.
pub(crate) struct Gpu {
    pub(crate) adapter: wgpu::Adapter,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
}

/// The first Vulkan adapter (lavapipe in CI, the real GPU elsewhere), with the timestamp
/// features it offers when `with_timestamps`. `None` (after printing why) when there is none,
/// unless `EGUI_HUD_REQUIRE_GPU=1`, where a missing adapter is a failure.
#[expect(clippy::print_stderr, reason = "a skipped GPU run must say why")]
pub(crate) fn request_gpu(with_timestamps: bool) -> Option<Gpu> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = match pollster::block_on(
        instance.request_adapter(&wgpu::RequestAdapterOptions::default()),
    ) {
        Ok(adapter) => adapter,
        Err(error) => {
            assert!(
                std::env::var("EGUI_HUD_REQUIRE_GPU").as_deref() != Ok("1"),
                "EGUI_HUD_REQUIRE_GPU=1 but no Vulkan adapter: {error} (install mesa-vulkan-drivers)"
            );
            eprintln!(
                "skipped: no Vulkan adapter ({error}); install mesa-vulkan-drivers for lavapipe"
            );
            return None;
        }
    };
    let base = wgpu::DeviceDescriptor {
        label: Some("gpu-timing test device"),
        ..Default::default()
    };
    let desc = if with_timestamps {
        gpu_timing::with_timestamp_features(base, &adapter)
    } else {
        base
    };
    let (device, queue) = match pollster::block_on(adapter.request_device(&desc)) {
        Ok(pair) => pair,
        Err(error) => panic!("the adapter refused a device: {error}"),
    };
    Some(Gpu {
        adapter,
        device,
        queue,
    })
}

/// The render target and pipeline of the workload.
pub(crate) struct Workload {
    pipeline: wgpu::RenderPipeline,
    target: wgpu::TextureView,
}

impl Workload {
    /// A `size`×`size` RGBA8 target and the looping pipeline.
    pub(crate) fn new(device: &wgpu::Device, size: u32) -> Self {
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("workload"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("workload"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("workload target"),
            size: wgpu::Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let target = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self { pipeline, target }
    }

    /// Begins a render pass on the target (with `timestamp_writes`) and draws the workload with
    /// `iterations` loop turns per pixel; the pass is returned open so callers can stamp inside it.
    pub(crate) fn begin_pass<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        iterations: u32,
        timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) -> wgpu::RenderPass<'e> {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("workload"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            timestamp_writes,
            ..Default::default()
        });
        pass.set_pipeline(&self.pipeline);
        pass.draw(0..3, iterations..iterations + 1);
        pass
    }
}

/// Blocks until the GPU is idle.
pub(crate) fn wait_idle(device: &wgpu::Device) {
    if let Err(error) = device.poll(wgpu::PollType::wait_indefinitely()) {
        panic!("device poll failed: {error}");
    }
}
