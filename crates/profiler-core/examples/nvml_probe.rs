//! Samples this process's GPU use with [`GpuUsageProbe`] while it loads the GPU itself with a
//! heavy fragment shader (wgpu, Vulkan), phase by phase: idle, full, about half, idle.
//!
//! ```sh
//! cargo run --release -p profiler-core --features nvml --example nvml_probe [-- SECONDS_PER_PHASE]
//! ```
//!
//! Each line compares the probe with the share of wall time this process spent waiting for its
//! own GPU work (a host-side estimate). Used to check the NVML source on an NVIDIA GPU; on a DRM
//! driver (amdgpu, i915, …) the same example checks the fdinfo source.
#![expect(
    clippy::print_stdout,
    reason = "an example whose output is the measurement"
)]

use std::error::Error;
use std::time::{Duration, Instant};

use profiler_core::GpuUsageProbe;

const SHADER: &str = r"
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4f {
    let corner = vec2f(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
}

struct Params { turns: u32 }
@group(0) @binding(0) var<uniform> params: Params;

@fragment
fn fs_main(@builtin(position) position: vec4f) -> @location(0) vec4f {
    var a = position.x * 0.0013;
    var b = position.y * 0.0017;
    for (var turn = 0u; turn < params.turns; turn++) {
        a = fract(sin(a * 91.3458 + b) * 47453.5453);
        b = fract(b + a * 0.618);
    }
    return vec4f(a, b, 0.5, 1.0);
}
";
const TARGET_SIZE: u32 = 2048;
const SAMPLE_PERIOD: Duration = Duration::from_millis(500);
/// GPU time aimed at per submission, so the half-load phase can alternate work and rest.
const SUBMISSION_TARGET: Duration = Duration::from_millis(20);

struct Load {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::RenderPipeline,
    bind_group: wgpu::BindGroup,
    params: wgpu::Buffer,
    target: wgpu::TextureView,
}

impl Load {
    fn new() -> Result<(Self, wgpu::AdapterInfo), Box<dyn Error>> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))?;
        let (device, queue) =
            pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))?;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("load"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("load"),
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
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("turns"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("turns"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        let target = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("load target"),
                size: wgpu::Extent3d {
                    width: TARGET_SIZE,
                    height: TARGET_SIZE,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
            .create_view(&wgpu::TextureViewDescriptor::default());
        let load = Self {
            device,
            queue,
            pipeline,
            bind_group,
            params,
            target,
        };
        Ok((load, adapter.get_info()))
    }

    /// Draws one full-target pass with `turns` loop turns per pixel and waits for the GPU;
    /// returns how long that took.
    fn run(&self, turns: u32) -> Result<Duration, Box<dyn Error>> {
        let started = Instant::now();
        let mut params = [0_u8; 16];
        params[..4].copy_from_slice(&turns.to_le_bytes());
        self.queue.write_buffer(&self.params, 0, &params);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("load"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind_group, &[]);
            pass.draw(0..3, 0..1);
        }
        self.queue.submit([encoder.finish()]);
        self.device.poll(wgpu::PollType::wait_indefinitely())?;
        Ok(started.elapsed())
    }

    /// The loop turns for which one submission takes about [`SUBMISSION_TARGET`].
    fn calibrate(&self) -> Result<u32, Box<dyn Error>> {
        let mut turns = 64_u32;
        self.run(turns)?; // pipeline creation and first-use costs
        loop {
            let took = self.run(turns)?;
            if took >= SUBMISSION_TARGET / 2 || turns >= 1 << 24 {
                let scaled =
                    u128::from(turns) * SUBMISSION_TARGET.as_nanos() / took.as_nanos().max(1);
                return Ok(u32::try_from(scaled).unwrap_or(u32::MAX).max(1));
            }
            turns = turns.saturating_mul(4);
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    Idle,
    Full,
    Half,
}

fn main() -> Result<(), Box<dyn Error>> {
    let phase_length = std::env::args()
        .nth(1)
        .and_then(|seconds| seconds.parse::<u64>().ok())
        .map_or(Duration::from_secs(4), Duration::from_secs);
    let (load, adapter) = Load::new()?;
    println!(
        "pid {} | adapter {} ({:?}, driver {} {})",
        std::process::id(),
        adapter.name,
        adapter.backend,
        adapter.driver,
        adapter.driver_info
    );
    let turns = load.calibrate()?;
    println!("calibrated: {turns} turns per pixel ≈ {SUBMISSION_TARGET:?} per submission");

    let clock = Instant::now();
    let now_nanos = || u64::try_from(clock.elapsed().as_nanos()).unwrap_or(u64::MAX);
    let mut probe = GpuUsageProbe::new();
    let sample_started = Instant::now();
    let first = probe.sample(now_nanos());
    println!(
        "first sample: {first:?} (took {:.2} ms, includes loading NVML)",
        sample_started.elapsed().as_secs_f64() * 1e3
    );

    let phases = [Phase::Idle, Phase::Full, Phase::Half, Phase::Idle];
    let mut next_sample = clock.elapsed() + SAMPLE_PERIOD;
    let mut gpu_wait_since_sample = Duration::ZERO;
    let mut sample_costs = Vec::new();
    for phase in phases {
        let phase_end = clock.elapsed() + phase_length;
        while clock.elapsed() < phase_end {
            match phase {
                Phase::Idle => std::thread::sleep(Duration::from_millis(5)),
                Phase::Full => gpu_wait_since_sample += load.run(turns)?,
                Phase::Half => {
                    let took = load.run(turns)?;
                    gpu_wait_since_sample += took;
                    std::thread::sleep(took);
                }
            }
            if clock.elapsed() >= next_sample {
                let sample_started = Instant::now();
                let reading = probe.sample(now_nanos());
                sample_costs.push(sample_started.elapsed());
                let host_percent =
                    100.0 * gpu_wait_since_sample.as_secs_f64() / SAMPLE_PERIOD.as_secs_f64();
                let shown = reading.map_or_else(
                    || "unavailable".to_owned(),
                    |r| format!("{:5.1} % ({})", r.busy_percent, r.source.name()),
                );
                println!(
                    "t={:5.1}s {:<5} probe {shown:<22} host-side wait {host_percent:5.1} %",
                    clock.elapsed().as_secs_f64(),
                    format!("{phase:?}").to_lowercase(),
                );
                gpu_wait_since_sample = Duration::ZERO;
                next_sample += SAMPLE_PERIOD;
            }
        }
    }
    sample_costs.sort();
    if let (Some(median), Some(max)) = (
        sample_costs.get(sample_costs.len() / 2),
        sample_costs.last(),
    ) {
        println!(
            "sample() cost after the first: median {:.1} µs, max {:.1} µs over {} samples",
            median.as_secs_f64() * 1e6,
            max.as_secs_f64() * 1e6,
            sample_costs.len()
        );
    }
    Ok(())
}
