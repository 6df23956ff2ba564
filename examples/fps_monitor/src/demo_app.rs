use std::f32::consts::TAU;
use std::time::{Duration, Instant};

use egui::{Pos2, Stroke, pos2, vec2};

use crate::demo_args::{Backend, DemoArgs};
use crate::gpu_scene::{SceneCallback, SceneResources};

/// Curves added or removed by one click on `+ load` / `− load`.
const LOAD_STEP: u32 = 10;
/// Points per animated curve.
const CURVE_POINTS: usize = 240;

/// How the demo asks for frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RepaintMode {
    /// A new frame every frame, like a game.
    Continuous,
    /// Frames only on input, like a form: the HUD's FPS drops, MAX FPS does not.
    Reactive,
}

/// How much longer `--seconds` waits for the HUD's first readings on a slow machine (software
/// rendering on a loaded CI runner can take seconds to reach the end of the warm-up).
const READINGS_GRACE: Duration = Duration::from_mins(1);

pub(crate) struct DemoApp {
    args: DemoArgs,
    started: Instant,
    /// When the first frame was drawn: `--seconds` counts from here, not from process start, so
    /// device and pipeline creation do not eat into the measured run.
    first_frame: Option<Instant>,
    hud_shown: bool,
    repaint: RepaintMode,
    curves: u32,
    gpu_iterations: u32,
    stall_next_frame: bool,
    /// `--benchmark`: when the run was started.
    benchmark_started: Option<Instant>,
    has_wgpu: bool,
    adapter: String,
    /// What the platform probes answered at start (with `--seconds`).
    probes: serde_json::Value,
}

impl DemoApp {
    pub(crate) fn new(cc: &eframe::CreationContext<'_>, args: DemoArgs) -> Self {
        egui_hud::install(cc);
        let (has_wgpu, adapter) = match &cc.wgpu_render_state {
            Some(render_state) => {
                SceneResources::install(render_state);
                let info = render_state.adapter.get_info();
                (true, format!("{:?} {}", info.backend, info.name))
            }
            None => (false, "glow".to_owned()),
        };
        let probes = if args.run_for.is_some() {
            crate::probe_report::probe_report(cc)
        } else {
            serde_json::Value::Null
        };
        Self {
            probes,
            curves: args.curves,
            args,
            started: Instant::now(),
            first_frame: None,
            hud_shown: true,
            repaint: RepaintMode::Continuous,
            benchmark_started: None,
            gpu_iterations: 24,
            stall_next_frame: false,
            has_wgpu,
            adapter,
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("+ load").clicked() {
                self.curves += LOAD_STEP;
            }
            if ui.button("− load").clicked() {
                self.curves = self.curves.saturating_sub(LOAD_STEP);
            }
            ui.label(format!("{} curves", self.curves));
            ui.separator();
            if ui
                .button("stall")
                .on_hover_text("The next frame takes 100 ms longer")
                .clicked()
            {
                self.stall_next_frame = true;
            }
            ui.separator();
            ui.selectable_value(&mut self.repaint, RepaintMode::Continuous, "continuous");
            ui.selectable_value(&mut self.repaint, RepaintMode::Reactive, "reactive");
            ui.separator();
            ui.checkbox(&mut self.hud_shown, "HUD (F12)");
        });
        if self.has_wgpu {
            ui.horizontal(|ui| {
                ui.label("GPU load");
                ui.add(egui::Slider::new(&mut self.gpu_iterations, 1..=2_000).logarithmic(true));
            });
        } else {
            ui.label("GPU workload needs the wgpu backend (running on glow).");
        }
    }

    /// The CPU load: `curves` animated sine curves, recomputed every frame.
    fn curves_ui(&self, ui: &mut egui::Ui, time_secs: f32) {
        let size = vec2(
            ui.available_width(),
            (ui.available_height() - 8.0).max(80.0),
        );
        let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 4.0, ui.visuals().extreme_bg_color);
        for curve in 0..self.curves {
            #[expect(clippy::cast_precision_loss, reason = "a few hundred curves")]
            let phase = curve as f32 * 0.37;
            let points: Vec<Pos2> = (0..CURVE_POINTS)
                .map(|i| {
                    #[expect(clippy::cast_precision_loss, reason = "240 points")]
                    let t = i as f32 / (CURVE_POINTS - 1) as f32;
                    let y =
                        (t * TAU * 2.0 + time_secs * 1.5 + phase).sin() * (0.3 + 0.1 * phase.sin());
                    pos2(
                        rect.left() + t * rect.width(),
                        rect.center().y + y * rect.height(),
                    )
                })
                .collect();
            let hue = (phase * 0.13).fract();
            painter.add(egui::Shape::line(
                points,
                Stroke::new(1.0, egui::ecolor::Hsva::new(hue, 0.6, 0.9, 1.0)),
            ));
        }
    }

    fn scene_ui(&self, ui: &mut egui::Ui, time_secs: f32) {
        let (rect, _) = ui.allocate_exact_size(vec2(160.0, 160.0), egui::Sense::hover());
        ui.painter().add(egui_wgpu::Callback::new_paint_callback(
            rect,
            SceneCallback {
                time_secs,
                iterations: self.gpu_iterations,
                timer: egui_hud::gpu_timer(ui.ctx()),
            },
        ));
    }

    /// `--benchmark S --json PATH`: starts the run once the HUD has readings (a second's
    /// countdown lets the window settle), then writes its summary to PATH and its frames to
    /// PATH with `.csv`, and closes.
    fn benchmark_if_asked(&mut self, ctx: &egui::Context) {
        let Some((length, path)) = &self.args.benchmark else {
            return;
        };
        if self.benchmark_started.is_none() {
            if egui_hud::snapshot(ctx).is_some_and(|s| s.samples > 0) {
                egui_hud::benchmark_after(ctx, Duration::from_secs(1), *length);
                self.benchmark_started = Some(Instant::now());
            }
            return;
        }
        let Some(summary) = egui_hud::benchmark_summary(ctx) else {
            return;
        };
        let written = summary
            .to_json()
            .map_err(|error| error.to_string())
            .and_then(|json| std::fs::write(path, json).map_err(|error| error.to_string()))
            .and_then(|()| {
                let mut csv = Vec::new();
                summary
                    .write_csv(&mut csv)
                    .and_then(|()| std::fs::write(path.with_extension("csv"), csv))
                    .map_err(|error| error.to_string())
            });
        match written {
            #[expect(clippy::print_stdout, reason = "--benchmark says where it wrote")]
            Ok(()) => println!(
                "benchmark: {} frames in {:.1} s, AVG {:.1} FPS, saved to {}",
                summary.frames,
                summary.seconds,
                summary.avg_fps.unwrap_or_default(),
                path.display()
            ),
            #[expect(clippy::print_stderr, reason = "--benchmark failures go to stderr")]
            Err(error) => eprintln!("fps_monitor: cannot write {}: {error}", path.display()),
        }
        self.args.benchmark = None;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// `--seconds S`: after S seconds of frames, print the snapshot once it has readings (or
    /// after [`READINGS_GRACE`] more, whatever it has then) and close.
    fn finish_if_due(&mut self, ctx: &egui::Context) {
        let Some(run_for) = self.args.run_for else {
            return;
        };
        let first_frame = *self.first_frame.get_or_insert_with(Instant::now);
        let elapsed = first_frame.elapsed();
        if elapsed < run_for {
            return;
        }
        let snapshot = egui_hud::snapshot(ctx);
        let has_readings = snapshot
            .as_ref()
            .is_some_and(|s| s.samples > 0 && s.fps.is_some());
        if !has_readings && elapsed < run_for + READINGS_GRACE {
            return;
        }
        self.args.run_for = None; // print once
        let run = crate::snapshot_json::RunFacts {
            backend: self.args.backend,
            adapter: &self.adapter,
            frames: ctx.cumulative_frame_nr(),
            pixels_per_point: ctx.pixels_per_point(),
            ran_secs: elapsed.as_secs_f64(),
            startup_secs: first_frame.duration_since(self.started).as_secs_f64(),
        };
        let mut json = crate::snapshot_json::to_json(snapshot.as_ref(), &run);
        if let Some(object) = json.as_object_mut() {
            object.insert(
                "why".to_owned(),
                crate::snapshot_json::why_json(egui_hud::why(ctx).as_ref()),
            );
            object.insert("probes".to_owned(), self.probes.clone());
        }
        for (path, format) in [
            (&self.args.csv, egui_hud::ExportFormat::Csv),
            (&self.args.trace, egui_hud::ExportFormat::ChromeTrace),
        ] {
            let Some(path) = path else {
                continue;
            };
            let written = std::fs::File::create(path)
                .map_err(|error| error.to_string())
                .and_then(|file| {
                    let mut file = std::io::BufWriter::new(file);
                    egui_hud::export(ctx, format, &mut file).map_err(|error| error.to_string())
                });
            if let Err(error) = written {
                #[expect(clippy::print_stderr, reason = "--csv / --trace failures go to stderr")]
                {
                    eprintln!("fps_monitor: cannot write {}: {error}", path.display());
                }
            }
        }
        #[expect(
            clippy::print_stdout,
            reason = "--seconds prints the snapshot for scripts"
        )]
        {
            println!("{json}");
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

impl eframe::App for DemoApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if ctx.input(|i| i.key_pressed(egui::Key::F12)) {
            self.hud_shown = !self.hud_shown;
        }
        if std::mem::take(&mut self.stall_next_frame) {
            std::thread::sleep(Duration::from_millis(100));
        }
        let time_secs = self.started.elapsed().as_secs_f32();
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("egui-hud demo");
            self.controls(ui);
            ui.separator();
            ui.horizontal_top(|ui| {
                if self.has_wgpu {
                    let _scene = egui_hud::cpu_phase(ui.ctx(), "scene");
                    self.scene_ui(ui, time_secs);
                }
                let _curves = egui_hud::cpu_phase(ui.ctx(), "curves");
                ui.vertical(|ui| self.curves_ui(ui, time_secs));
            });
        });
        if self.hud_shown {
            // eframe's frame gives the HUD the `ui` and `render` phases.
            // F8 starts the readouts over; F9 records a 10 s benchmark (its summary saved
            // beside the exports); F10 cycles the presets (number only, compact,
            // full); F11 saves the retained frames (CSV and Chrome trace) next to the
            // executable. The demo opens on the full HUD, to show everything it measures,
            // unless `--preset` names another.
            let hud = egui_hud::FpsMonitor::new()
                .eframe_frame(frame)
                .preset(self.args.preset)
                .gpu_sampling(self.args.gpu_sampling)
                .cycle_preset_on_key(egui::Key::F10)
                .reset_on_key(egui::Key::F8)
                .benchmark_on_key(egui::Key::F9, Duration::from_secs(10));
            // `--benchmark` writes its summary where it was told: no second copy beside the
            // executable, which the export key's directory would give (`args.benchmark` is
            // taken once written; `benchmark_started` stays).
            if self.args.benchmark.is_some() || self.benchmark_started.is_some() {
                hud.show(&ctx);
            } else {
                hud.export_on_key(egui::Key::F11, None).show(&ctx);
            }
        }
        if self.repaint == RepaintMode::Continuous {
            #[expect(
                clippy::disallowed_methods,
                reason = "the demo's continuous mode animates every frame"
            )]
            ctx.request_repaint();
        }
        if self.args.run_for.is_some() && self.repaint == RepaintMode::Reactive {
            // Keep the exit timer alive in reactive mode.
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        self.finish_if_due(&ctx);
        self.benchmark_if_asked(&ctx);
    }
}

/// eframe options for the chosen backend; on wgpu the device asks for timestamp queries.
pub(crate) fn native_options(backend: Backend, window_size: [f32; 2]) -> eframe::NativeOptions {
    let mut options = egui_hud::native_options_with_gpu_timing();
    options.viewport = egui::ViewportBuilder::default()
        .with_title("egui-hud demo")
        .with_inner_size(window_size);
    options.renderer = match backend {
        Backend::Wgpu => eframe::Renderer::Wgpu,
        Backend::Glow => eframe::Renderer::Glow,
    };
    options
}
