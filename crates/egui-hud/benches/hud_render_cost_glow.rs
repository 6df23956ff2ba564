//! What the HUD costs through egui's glow renderer, as an eframe app on glow pays it: egui, the
//! HUD and `egui_glow::Painter` (texture upload, vertex upload, draw calls) drawing a typical UI
//! into an offscreen framebuffer on a headless OpenGL context (EGL device platform, surfaceless:
//! Mesa's llvmpipe here, any EGL driver elsewhere), then `glFinish` as a vsynced swap waits. No
//! GPU timer on glow. Four columns, run interleaved in one process:
//!
//! - `without`: no HUD;
//! - `shown (full)`, `compact` (the default preset) and `number only`.
//!
//! Each column's CPU time per frame is split into `run_ui` (its `fps_monitor` call apart),
//! tessellation and the painter's work; refresh frames (the 500 ms tick's) are apart from the
//! frames between them; allocations are counted per frame and inside `fps_monitor`; and the
//! HUD's own measure of itself (the demo's `hud_cost_us`) over the whole run.
//!
//! `cargo bench -p egui-hud --bench hud_render_cost_glow` prints the table (Linux with an EGL
//! driver; `EGUI_HUD_BENCH_SIZE=WxH` sets the target size, default 860x520). Elsewhere it says
//! why it did not run.
#![expect(clippy::print_stdout, reason = "a bench binary prints its figures")]

#[cfg(target_os = "linux")]
#[path = "support/counting_allocator.rs"]
mod counting_allocator;
#[cfg(target_os = "linux")]
#[path = "support/own_measure.rs"]
mod own_measure;
#[cfg(target_os = "linux")]
#[path = "support/render_bench_setup.rs"]
mod render_bench_setup;
#[cfg(target_os = "linux")]
#[path = "support/typical_ui.rs"]
mod typical_ui;

#[cfg(target_os = "linux")]
#[global_allocator]
static GLOBAL: counting_allocator::CountingAllocator = counting_allocator::CountingAllocator;

#[cfg(target_os = "linux")]
fn main() {
    if let Err(error) = glow_bench::run() {
        println!("hud_render_cost_glow: no headless OpenGL context: {error}");
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    println!("hud_render_cost_glow: needs Linux with an EGL driver (EGL device platform)");
}

#[cfg(target_os = "linux")]
#[expect(
    unsafe_code,
    reason = "EGL and GL calls on the bench's own headless context"
)]
mod glow_bench {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use glow::HasContext as _;
    use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
    use glutin::context::{ContextApi, ContextAttributesBuilder, Version};
    use glutin::display::{GetGlDisplay as _, GlDisplay as _};

    use egui_hud::profiler_core::Snapshot;

    use crate::counting_allocator::allocations;
    use crate::own_measure::OwnMeasure;
    use crate::render_bench_setup::{frames_and_rounds, idle_between_frames, micros, target_size};
    use crate::typical_ui::typical_ui;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Column {
        Without,
        Shown,
        Compact,
        NumberOnly,
    }

    impl Column {
        const ALL: [Self; 4] = [Self::Without, Self::Shown, Self::Compact, Self::NumberOnly];

        fn name(self) -> &'static str {
            match self {
                Self::Without => "without",
                Self::Shown => "shown (full)",
                Self::Compact => "compact",
                Self::NumberOnly => "number only",
            }
        }

        fn preset(self) -> Option<egui_hud::HudPreset> {
            match self {
                Self::Without => None,
                Self::Shown => Some(egui_hud::HudPreset::Full),
                Self::Compact => Some(egui_hud::HudPreset::Compact),
                Self::NumberOnly => Some(egui_hud::HudPreset::NumberOnly),
            }
        }
    }

    /// The CPU time of one frame, by stage, and its allocations.
    #[derive(Clone, Copy, Default, Debug)]
    struct FrameCost {
        run_ui: Duration,
        /// Inside `run_ui`: the `fps_monitor` call.
        show: Duration,
        tessellate: Duration,
        /// `Painter::paint_and_update_textures`: uploads and draw calls.
        paint: Duration,
        allocations: u64,
        show_allocations: u64,
        refresh: bool,
    }

    impl FrameCost {
        fn total(&self) -> Duration {
            self.run_ui + self.tessellate + self.paint
        }
    }

    struct Target {
        ctx: egui::Context,
        column: Column,
        time_secs: f64,
        slider: f32,
        last_snapshot: Option<Snapshot>,
        /// The HUD's own measure over the run's frames (reset after the warm-up).
        own: OwnMeasure,
    }

    /// The headless GL state every column draws with: one context, one framebuffer.
    struct Headless {
        gl: Arc<glow::Context>,
        painter: egui_glow::Painter,
        size: [u32; 2],
        // Kept alive while drawing.
        _context: glutin::api::egl::context::PossiblyCurrentContext,
    }

    /// A surfaceless OpenGL (ES) context on the first EGL device, current on this thread, with
    /// a framebuffer of `size` bound.
    fn headless_gl(size: [u32; 2]) -> Result<Headless, String> {
        let device = glutin::api::egl::device::Device::query_devices()
            .map_err(|e| format!("EGL devices: {e}"))?
            .next()
            .ok_or("no EGL device")?;
        // SAFETY: no native display is passed; the display lives as long as the context,
        // which `Headless` keeps.
        let display = unsafe { glutin::api::egl::display::Display::with_device(&device, None) }
            .map_err(|e| format!("EGL display: {e}"))?;
        let template = ConfigTemplateBuilder::new()
            .with_surface_type(ConfigSurfaceTypes::empty())
            .build();
        // SAFETY: the template asks for no surface.
        let config = unsafe { display.find_configs(template) }
            .map_err(|e| format!("EGL configs: {e}"))?
            .next()
            .ok_or("no EGL config")?;
        let attributes = ContextAttributesBuilder::new()
            .with_context_api(ContextApi::Gles(Some(Version::new(3, 0))))
            .build(None);
        // SAFETY: the config is the display's own.
        let context = unsafe { display.create_context(&config, &attributes) }
            .map_err(|e| format!("EGL context: {e}"))?
            .make_current_surfaceless()
            .map_err(|e| format!("make current: {e}"))?;
        let gl_display = config.display();
        // SAFETY: the context is current on this thread.
        let gl = Arc::new(unsafe {
            glow::Context::from_loader_function_cstr(|name| gl_display.get_proc_address(name))
        });
        // SAFETY: plain GL calls on the current context; the objects live as long as it.
        unsafe {
            let framebuffer = gl.create_framebuffer()?;
            let color = gl.create_renderbuffer()?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(color));
            let [w, h] = size.map(|v| i32::try_from(v).unwrap_or(i32::MAX));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, w, h);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(color),
            );
        }
        let painter = egui_glow::Painter::new(Arc::clone(&gl), "", None, false)
            .map_err(|e| format!("egui_glow painter: {e}"))?;
        Ok(Headless {
            gl,
            painter,
            size,
            _context: context,
        })
    }

    impl Target {
        fn new(column: Column) -> Self {
            Self {
                ctx: egui::Context::default(),
                column,
                time_secs: 0.0,
                slider: 0.5,
                last_snapshot: None,
                own: OwnMeasure::default(),
            }
        }

        /// One frame of the app (and the HUD in the shown columns), drawn and waited for.
        fn frame(&mut self, gl: &mut Headless) -> FrameCost {
            let mut cost = FrameCost::default();
            self.time_secs += 1.0 / 60.0;
            let points = egui::vec2(gl.size[0] as f32, gl.size[1] as f32);
            let input = egui::RawInput {
                time: Some(self.time_secs),
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, points)),
                ..Default::default()
            };
            let (slider, preset) = (&mut self.slider, self.column.preset());
            let allocations_at_start = allocations();
            let start = Instant::now();
            let mut output = self.ctx.run_ui(input, |ui| {
                typical_ui(ui, slider);
                #[expect(clippy::disallowed_methods, reason = "the benchmark app animates")]
                ui.ctx().request_repaint();
                if let Some(preset) = preset {
                    let (before, allocated) = (Instant::now(), allocations());
                    egui_hud::FpsMonitor::new()
                        .sample_resources(false)
                        .preset(preset)
                        .show(ui.ctx());
                    cost.show = before.elapsed();
                    cost.show_allocations = allocations() - allocated;
                }
            });
            let ran = Instant::now();
            cost.run_ui = ran - start;
            let primitives = self
                .ctx
                .tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
            let tessellated = Instant::now();
            cost.tessellate = tessellated - ran;
            gl.painter.paint_and_update_textures(
                gl.size,
                output.pixels_per_point,
                &primitives,
                &mut output.textures_delta,
            );
            cost.paint = tessellated.elapsed();
            cost.allocations = allocations() - allocations_at_start;
            // What a vsynced swap does: the frame is finished before the next begins.
            // SAFETY: a plain GL call on the current context.
            unsafe { gl.gl.finish() };
            if preset.is_some() {
                let snapshot = egui_hud::snapshot(&self.ctx);
                cost.refresh = snapshot.is_some() && snapshot != self.last_snapshot;
                self.last_snapshot = snapshot;
                self.own
                    .after_frame(self.last_snapshot.as_ref().filter(|_| cost.refresh));
            }
            cost
        }
    }

    /// The mean of `frames`' costs, by stage.
    fn mean(frames: &[FrameCost]) -> FrameCost {
        let n = u32::try_from(frames.len().max(1)).unwrap_or(u32::MAX);
        let sum = |f: fn(&FrameCost) -> Duration| frames.iter().map(f).sum::<Duration>() / n;
        FrameCost {
            run_ui: sum(|c| c.run_ui),
            show: sum(|c| c.show),
            tessellate: sum(|c| c.tessellate),
            paint: sum(|c| c.paint),
            allocations: frames.iter().map(|c| c.allocations).sum::<u64>() / u64::from(n),
            show_allocations: frames.iter().map(|c| c.show_allocations).sum::<u64>() / u64::from(n),
            refresh: false,
        }
    }

    pub(crate) fn run() -> Result<(), String> {
        let (frames_per_round, rounds) = frames_and_rounds();
        let idle = idle_between_frames();
        let size = target_size();
        let mut gl = headless_gl(size)?;
        // SAFETY: a plain GL query on the current context.
        let renderer = unsafe { gl.gl.get_parameter_string(glow::RENDERER) };
        let mut targets: Vec<Target> = Column::ALL.iter().map(|&c| Target::new(c)).collect();
        for target in &mut targets {
            for _ in 0..60 {
                target.frame(&mut gl); // warm-up: caches, the HUD's own warm-up
            }
            target.own = OwnMeasure::default();
        }
        let mut costs: Vec<Vec<FrameCost>> = vec![Vec::new(); targets.len()];
        for _ in 0..rounds {
            for (target, costs) in targets.iter_mut().zip(&mut costs) {
                for _ in 0..frames_per_round {
                    costs.push(target.frame(&mut gl));
                    if !idle.is_zero() {
                        std::thread::sleep(idle);
                    }
                }
            }
        }
        println!(
            "hud_render_cost_glow: {renderer} (EGL surfaceless, egui_glow), {}x{} target, \
             {rounds} rounds x {frames_per_round} frames per column, {} µs idle after each, CPU µs \
             per frame (mean)",
            size[0],
            size[1],
            idle.as_micros()
        );
        println!(
            "  {:<14} {:>8} {:>8} {:>8} {:>8} {:>8} | {:>7} {:>6} | {:>9} {:>9}",
            "column",
            "run_ui",
            "(show)",
            "tess",
            "paint",
            "total",
            "allocs",
            "(show)",
            "refresh",
            "max"
        );
        let without = mean(&costs[0]);
        for (target, costs) in targets.iter().zip(&costs) {
            let between: Vec<FrameCost> = costs.iter().filter(|c| !c.refresh).copied().collect();
            let refreshes: Vec<FrameCost> = costs.iter().filter(|c| c.refresh).copied().collect();
            let m = mean(&between);
            let refresh = (!refreshes.is_empty()).then(|| mean(&refreshes).total());
            let refresh_max = refreshes.iter().map(FrameCost::total).max();
            let text = |d: Option<Duration>| {
                d.map_or_else(|| "-".to_owned(), |d| format!("{:.1}", micros(d)))
            };
            println!(
                "  {:<14} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} | {:>7} {:>6} | {:>9} {:>9}",
                target.column.name(),
                micros(m.run_ui),
                micros(m.show),
                micros(m.tessellate),
                micros(m.paint),
                micros(m.total()),
                m.allocations,
                m.show_allocations,
                text(refresh),
                text(refresh_max),
            );
            if target.column != Column::Without {
                println!(
                    "  {:<14} share: total {:+7.1} µs = run_ui {:+6.1} (fps_monitor {:.1}, hooks \
                     and egui {:+.1}) tess {:+5.1} paint {:+5.1}; allocations {:+}; refresh \
                     frames {:+.1} over `without`",
                    "",
                    micros(m.total()) - micros(without.total()),
                    micros(m.run_ui) - micros(without.run_ui),
                    micros(m.show),
                    micros(m.run_ui) - micros(without.run_ui) - micros(m.show),
                    micros(m.tessellate) - micros(without.tessellate),
                    micros(m.paint) - micros(without.paint),
                    i128::from(m.allocations) - i128::from(without.allocations),
                    refresh.map_or(f64::NAN, |r| micros(r) - micros(without.total())),
                );
            }
        }
        println!(
            "  the HUD's own measure (hud_cost_us), the mean of the run's windows \
             (lowest–highest):"
        );
        for target in &targets {
            if let Some(summary) = target.own.summary() {
                println!("  {:<14} {summary}", target.column.name());
            }
        }
        gl.painter.destroy();
        Ok(())
    }
}
