//! egui-hud in an app that drives egui itself, as engines and custom apps do: a winit event
//! loop that redraws every iteration, egui-winit for input and egui-wgpu to render. The HUD
//! gets the window's refresh rate (`install_window`) and GPU timing (`install_wgpu`).
//!
//! `cargo run --release -p winit_wgpu`; `--seconds S` prints the HUD's snapshot as JSON after
//! S seconds and exits (for the smoke test).

use std::sync::Arc;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

/// Everything that needs the window: made when the event loop resumes.
struct Gpu {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    renderer: egui_wgpu::Renderer,
    input: egui_winit::State,
}

struct App {
    ctx: egui::Context,
    gpu: Option<Gpu>,
    started: Instant,
    run_for: Option<Duration>,
    error: Option<String>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gpu.is_some() {
            return;
        }
        match Gpu::new(event_loop, &self.ctx) {
            Ok(gpu) => {
                // The two lines an integration adds for the HUD's refresh rate and GPU row.
                egui_hud::install_window(&self.ctx, &*gpu.window);
                egui_hud::install_wgpu(&self.ctx, &gpu.device, &gpu.queue);
                self.gpu = Some(gpu);
            }
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(gpu) = &mut self.gpu else {
            return;
        };
        let _ = gpu.input.on_window_event(&gpu.window, &event);
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => gpu.resize(size.width, size.height),
            WindowEvent::RedrawRequested => {
                gpu.frame(&self.ctx, self.started);
                if self
                    .run_for
                    .is_some_and(|run_for| self.started.elapsed() >= run_for)
                {
                    print_snapshot(&self.ctx);
                    event_loop.exit();
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _: &ActiveEventLoop) {
        // An engine-style loop: a frame every iteration, whatever egui asked for.
        if let Some(gpu) = &self.gpu {
            gpu.window.request_redraw();
        }
    }
}

impl Gpu {
    fn new(event_loop: &ActiveEventLoop, ctx: &egui::Context) -> Result<Self, String> {
        let attributes = Window::default_attributes()
            .with_title("egui-hud without eframe")
            .with_inner_size(winit::dpi::LogicalSize::new(720.0, 480.0));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| e.to_string())?,
        );
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle(
            Box::new(event_loop.owned_display_handle()),
        ));
        let surface = instance
            .create_surface(Arc::clone(&window))
            .map_err(|e| e.to_string())?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            compatible_surface: Some(&surface),
            ..Default::default()
        }))
        .map_err(|e| format!("no GPU adapter: {e}"))?;
        // The timestamp features the HUD's GPU row needs, where the adapter has them.
        let descriptor =
            gpu_timing::with_timestamp_features(wgpu::DeviceDescriptor::default(), &adapter);
        let (device, queue) =
            pollster::block_on(adapter.request_device(&descriptor)).map_err(|e| e.to_string())?;
        let size = window.inner_size();
        let config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .ok_or("the surface does not suit the adapter")?;
        surface.configure(&device, &config);
        let renderer = egui_wgpu::Renderer::new(
            &device,
            config.format,
            egui_wgpu::RendererOptions::default(),
        );
        let input = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            // Native pixels per point: egui's zoom is 1 until the user changes it.
            Some(egui_winit::pixels_per_point(ctx, &window) / ctx.zoom_factor()),
            window.theme(),
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        Ok(Self {
            window,
            surface,
            device,
            queue,
            config,
            renderer,
            input,
        })
    }

    fn resize(&mut self, width: u32, height: u32) {
        if width > 0 && height > 0 {
            self.config.width = width;
            self.config.height = height;
            self.surface.configure(&self.device, &self.config);
        }
    }

    /// One frame: egui's input, the app's UI and the HUD, then tessellation and rendering.
    fn frame(&mut self, ctx: &egui::Context, started: Instant) {
        let raw_input = self.input.take_egui_input(&self.window);
        let seconds = started.elapsed().as_secs_f32();
        let mut output = ctx.run_ui(raw_input, |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                ui.heading("egui-hud without eframe");
                ui.label("egui-winit for input, egui-wgpu for rendering, a frame every loop.");
                {
                    let _layout = egui_hud::cpu_phase(ui.ctx(), "layout");
                    for row in 0..20 {
                        ui.label(format!("row {row}: {:.2}", (seconds + row as f32).sin()));
                    }
                }
            });
            egui_hud::fps_monitor(ui.ctx());
        });
        self.input
            .handle_platform_output(&self.window, std::mem::take(&mut output.platform_output));
        let paint_jobs =
            ctx.tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [self.config.width, self.config.height],
            pixels_per_point: output.pixels_per_point,
        };
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                self.renderer
                    .update_texture(&self.device, &self.queue, *id, delta);
            }
        }
        let (wgpu::CurrentSurfaceTexture::Success(texture)
        | wgpu::CurrentSurfaceTexture::Suboptimal(texture)) = self.surface.get_current_texture()
        else {
            // Lost or outdated (a resize in flight): configure again, skip this frame.
            self.surface.configure(&self.device, &self.config);
            Self::free_textures(&mut self.renderer, &mut output.textures_delta);
            return;
        };
        let view = texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let mut buffers = self.renderer.update_buffers(
            &self.device,
            &self.queue,
            &mut encoder,
            &paint_jobs,
            &screen,
        );
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("egui"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                .forget_lifetime();
            self.renderer.render(&mut pass, &paint_jobs, &screen);
        }
        buffers.push(encoder.finish());
        self.queue.submit(buffers);
        self.queue.present(texture);
        Self::free_textures(&mut self.renderer, &mut output.textures_delta);
    }

    /// Frees the textures egui is done with; the delta is handled (uploads came first).
    fn free_textures(renderer: &mut egui_wgpu::Renderer, delta: &mut egui::TexturesDelta) {
        for id in &delta.free {
            renderer.free_texture(id);
        }
        delta.clear();
    }
}

/// The HUD's snapshot as one JSON line, for the smoke test.
fn print_snapshot(ctx: &egui::Context) {
    let snapshot = egui_hud::snapshot(ctx);
    let ms = |d: Option<Duration>| d.map(|d| d.as_secs_f64() * 1e3);
    let json = snapshot.map_or(serde_json::Value::Null, |s| {
        serde_json::json!({
            "samples": s.samples,
            "fps": s.fps,
            "frame_ms": ms(s.frame),
            "gpu_frame_ms": ms(s.gpu_frame),
            "gpu_passes": s.gpu_passes.iter().map(|p| p.label.clone()).collect::<Vec<_>>(),
            "cpu_phases": s.cpu_phases.iter().map(|p| p.label.clone()).collect::<Vec<_>>(),
            "refresh_hz": s.refresh_hz,
            "latency_stages_read": s.latency.iter().filter(|r| r.frames > 0).map(|r| r.stage.name()).collect::<Vec<_>>(),
        })
    });
    #[expect(
        clippy::print_stdout,
        reason = "--seconds prints the snapshot for scripts"
    )]
    {
        println!("{json}");
    }
}

fn usage() -> std::process::ExitCode {
    #[expect(clippy::print_stderr, reason = "command-line errors go to stderr")]
    {
        eprintln!("usage: winit_wgpu [--seconds S]");
    }
    std::process::ExitCode::from(2)
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run_for = match args.as_slice() {
        [] => None,
        [flag, secs] if flag == "--seconds" => {
            match secs
                .parse()
                .ok()
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
            {
                Some(run_for) => Some(run_for),
                None => return usage(),
            }
        }
        _ => return usage(),
    };
    let event_loop = match EventLoop::new() {
        Ok(event_loop) => event_loop,
        Err(error) => {
            #[expect(clippy::print_stderr, reason = "no window system")]
            {
                eprintln!("winit_wgpu: {error}");
            }
            return std::process::ExitCode::FAILURE;
        }
    };
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        ctx: egui::Context::default(),
        gpu: None,
        started: Instant::now(),
        run_for,
        error: None,
    };
    let result = event_loop.run_app(&mut app);
    match (result, app.error) {
        (Ok(()), None) => exit_without_c_exit_handlers(),
        (Err(error), _) => {
            #[expect(clippy::print_stderr, reason = "the event loop failed")]
            {
                eprintln!("winit_wgpu: {error}");
            }
            std::process::ExitCode::FAILURE
        }
        (Ok(()), Some(error)) => {
            #[expect(
                clippy::print_stderr,
                reason = "the window or the GPU could not be set up"
            )]
            {
                eprintln!("winit_wgpu: {error}");
            }
            std::process::ExitCode::FAILURE
        }
    }
}

/// Ends the process once the window has closed and the output is written, without running the
/// C libraries' exit handlers: with lavapipe on a loaded machine a run crashed (SIGSEGV) in
/// them after `main` returned, as the demo's did (see its `main.rs`): the handler's code lay in
/// a library of the Vulkan driver unloaded when wgpu let go of its instance. Nothing else is
/// owed at exit.
#[cfg(unix)]
fn exit_without_c_exit_handlers() -> std::process::ExitCode {
    use std::io::Write as _;
    // Nothing can be reported if these fail: the streams are the report.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[expect(unsafe_code, reason = "`_exit` has no safe wrapper in std")]
    // SAFETY: `_exit` ends the process at once; no Rust code runs after it, so no invariant
    // can be observed broken.
    unsafe {
        libc::_exit(0)
    }
}

/// Elsewhere the process ends as usual.
#[cfg(not(unix))]
fn exit_without_c_exit_handlers() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
