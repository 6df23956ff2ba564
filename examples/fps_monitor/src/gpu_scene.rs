//! The demo's GPU workload: a heavy fragment shader rendered offscreen in its own render pass,
//! timed as the pass "scene" through the HUD's shared GPU timer, then blitted into egui's pass.

use egui_hud::EguiGpuTimer;

/// Side of the offscreen texture, in pixels.
const SCENE_SIZE: u32 = 256;
const SCENE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// Pipelines and the offscreen target, created once and kept in egui-wgpu's callback resources.
pub(crate) struct SceneResources {
    scene_pipeline: wgpu::RenderPipeline,
    params: wgpu::Buffer,
    params_bind_group: wgpu::BindGroup,
    scene_view: wgpu::TextureView,
    blit_pipeline: wgpu::RenderPipeline,
    blit_bind_group: wgpu::BindGroup,
}

impl SceneResources {
    /// Creates the resources and hands them to egui-wgpu.
    pub(crate) fn install(render_state: &egui_wgpu::RenderState) {
        let device = &render_state.device;
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("fps_monitor scene"),
            source: wgpu::ShaderSource::Wgsl(include_str!("scene.wgsl").into()),
        });
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("scene params"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene params"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let params_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene params"),
            layout: &params_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        let scene_pipeline = pipeline(device, &shader, &params_layout, "fs_scene", SCENE_FORMAT);

        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("scene target"),
            size: wgpu::Extent3d {
                width: SCENE_SIZE,
                height: SCENE_SIZE,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: SCENE_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let scene_view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let (blit_layout, blit_bind_group) = blit_bindings(device, &scene_view);
        let blit_pipeline = pipeline(
            device,
            &shader,
            &blit_layout,
            "fs_blit",
            render_state.target_format,
        );
        render_state
            .renderer
            .write()
            .callback_resources
            .insert(Self {
                scene_pipeline,
                params,
                params_bind_group,
                scene_view,
                blit_pipeline,
                blit_bind_group,
            });
    }
}

/// The blit's texture and sampler bindings for the offscreen target.
fn blit_bindings(
    device: &wgpu::Device,
    scene_view: &wgpu::TextureView,
) -> (wgpu::BindGroupLayout, wgpu::BindGroup) {
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
    let blit_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("scene blit"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    });
    let blit_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("scene blit"),
        layout: &blit_layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(scene_view),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(&sampler),
            },
        ],
    });
    (blit_layout, blit_bind_group)
}

fn pipeline(
    device: &wgpu::Device,
    shader: &wgpu::ShaderModule,
    layout: &wgpu::BindGroupLayout,
    fragment_entry: &str,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(fragment_entry),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(fragment_entry),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: shader,
            entry_point: Some("vs_main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: shader,
            entry_point: Some(fragment_entry),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(format.into())],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// One frame's scene: rendered in `prepare`, shown in `paint`.
pub(crate) struct SceneCallback {
    pub(crate) time_secs: f32,
    pub(crate) iterations: u32,
    pub(crate) timer: Option<EguiGpuTimer>,
}

impl egui_wgpu::CallbackTrait for SceneCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(scene) = resources.get::<SceneResources>() else {
            return Vec::new();
        };
        let mut params = [0_u8; 16];
        params[..4].copy_from_slice(&self.time_secs.to_le_bytes());
        params[4..8].copy_from_slice(&self.iterations.to_le_bytes());
        queue.write_buffer(&scene.params, 0, &params);
        let stamps = self.timer.as_ref().and_then(|t| t.pass_timestamps("scene"));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &scene.scene_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: stamps.as_ref().map(|s| s.render_pass_writes()),
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&scene.scene_pipeline);
        pass.set_bind_group(0, &scene.params_bind_group, &[]);
        pass.draw(0..3, 0..1);
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        render_pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        if let Some(scene) = resources.get::<SceneResources>() {
            render_pass.set_pipeline(&scene.blit_pipeline);
            render_pass.set_bind_group(0, &scene.blit_bind_group, &[]);
            render_pass.draw(0..3, 0..1);
        }
    }
}
