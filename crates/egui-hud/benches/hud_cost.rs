//! What the HUD adds to a frame: a typical UI with and without the HUD, and the same UI after
//! the HUD was shown and then hidden, measured in one run, `run_ui` alone and with
//! tessellation. Targets: shown ≤ +4 µs `run_ui` and ≤ +8 µs with tessellation; hidden
//! ≤ +0.5 µs.
//!
//! `cargo bench -p egui-hud --bench hud_cost` prints the table. Under `cargo test` (no `--bench`
//! argument) it runs a few frames only, as a smoke test.
#![expect(clippy::print_stdout, reason = "a bench binary prints its figures")]
#![expect(
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    reason = "plot coordinates in a benchmark"
)]

use std::time::{Duration, Instant};

#[path = "support/typical_ui.rs"]
mod typical_ui;
use typical_ui::typical_ui;

/// Which HUD behaviour a context is measured with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Without,
    Shown,
    /// Shown, with every row the app can turn on: two CPU phases (through a kept handle) and
    /// a known refresh rate (MISS).
    ShownAllRows,
    /// Shown, with its details window open (an interactive egui_plot of the retained frames).
    ShownDetails,
    Hidden,
}

/// The app UI around the HUD.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AppUi {
    /// A settings panel: heading, 40 labels, two buttons, a slider.
    Typical,
    /// Nothing at all: egui's fixed per-frame cost only, so a sub-microsecond difference shows.
    Empty,
}

struct Bench {
    ctx: egui::Context,
    variant: Variant,
    app_ui: AppUi,
    time_secs: f64,
    slider: f32,
    phases: Option<egui_hud::CpuPhases>,
}

impl Bench {
    fn new(variant: Variant, app_ui: AppUi) -> Self {
        let mut bench = Self {
            ctx: egui::Context::default(),
            variant,
            app_ui,
            time_secs: 0.0,
            slider: 0.5,
            phases: None,
        };
        if variant == Variant::ShownAllRows {
            egui_hud::set_refresh_rate(&bench.ctx, Some(60.0));
            bench.phases = Some(egui_hud::cpu_phases(&bench.ctx));
        }
        if variant == Variant::ShownDetails {
            egui_hud::show_details(&bench.ctx, true);
        }
        if variant == Variant::Hidden {
            // Shown for two seconds, then not called for two: the HUD has gone quiet.
            for _ in 0..120 {
                bench.frame(true);
            }
            for _ in 0..120 {
                bench.frame(false);
            }
        }
        bench
    }

    /// One frame of a typical settings-panel UI: a heading, 40 labels, buttons, a slider.
    /// Returns the time of `run_ui` and of the tessellation.
    fn frame(&mut self, show_hud: bool) -> (Duration, Duration) {
        self.time_secs += 1.0 / 60.0;
        let input = egui::RawInput {
            time: Some(self.time_secs),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 720.0),
            )),
            ..Default::default()
        };
        let slider = &mut self.slider;
        let app_ui = self.app_ui;
        let phases = self.phases.as_ref();
        let start = Instant::now();
        let mut output = self.ctx.run_ui(input, |ui| {
            if app_ui == AppUi::Typical {
                {
                    let _settings = phases.map(|p| p.start("settings"));
                    typical_ui(ui, slider);
                }
                let _repaint = phases.map(|p| p.start("repaint"));
                // An animating app: its frames are its own, so the HUD counts them (frames only
                // the HUD's tick asked for would be left out of its readouts).
                #[expect(clippy::disallowed_methods, reason = "the benchmark app animates")]
                ui.ctx().request_repaint();
            }
            if show_hud {
                egui_hud::FpsMonitor::new().show(ui.ctx());
            }
        });
        let ran = Instant::now();
        std::hint::black_box(
            self.ctx
                .tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point),
        );
        let tessellated = ran.elapsed();
        // Nothing uploads textures here: dropping undelivered deltas is a debug assertion.
        output.textures_delta.clear();
        (ran - start, tessellated)
    }
}

/// Median per-frame times of `frames` frames, over `rounds` interleaved rounds: `run_ui`
/// alone, and `run_ui` plus tessellation.
fn measure(benches: &mut [Bench], frames: u32, rounds: u32) -> Vec<(Duration, Duration)> {
    let mut samples: Vec<(Vec<Duration>, Vec<Duration>)> =
        vec![(Vec::new(), Vec::new()); benches.len()];
    for _ in 0..rounds {
        for (bench, (run_ui, total)) in benches.iter_mut().zip(&mut samples) {
            let show = matches!(
                bench.variant,
                Variant::Shown | Variant::ShownAllRows | Variant::ShownDetails
            );
            let (mut ui_sum, mut tess_sum) = (Duration::ZERO, Duration::ZERO);
            for _ in 0..frames {
                let (ui, tess) = bench.frame(show);
                ui_sum += ui;
                tess_sum += tess;
            }
            run_ui.push(ui_sum / frames);
            total.push((ui_sum + tess_sum) / frames);
        }
    }
    let median = |mut s: Vec<Duration>| {
        s.sort_unstable();
        s[s.len() / 2]
    };
    samples
        .into_iter()
        .map(|(run_ui, total)| (median(run_ui), median(total)))
        .collect()
}

/// The plot alone: 120 retained draw times as egui_plot (every interaction off) or as one
/// painter line, each in a small area, as the HUD would draw it. Median µs per frame.
fn plot_costs(frames: u32, rounds: u32) -> (Duration, Duration) {
    let millis: Vec<f64> = (0..120).map(|i| 4.0 + f64::from(i % 17) * 0.3).collect();
    let points: Vec<[f64; 2]> = millis
        .iter()
        .enumerate()
        .map(|(i, &y)| [i as f64, y])
        .collect();
    let run = |ctx: &egui::Context, time: &mut f64, with_plot: bool| {
        *time += 1.0 / 60.0;
        let input = egui::RawInput {
            time: Some(*time),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            egui::Area::new(egui::Id::unique("plot_bench")).show(ui.ctx(), |ui| {
                if with_plot {
                    egui_plot::Plot::new("frame_times")
                        .width(196.0)
                        .height(40.0)
                        .show_axes(false)
                        .show_grid(false)
                        .show_x(false)
                        .show_y(false)
                        .allow_zoom(false)
                        .allow_drag(false)
                        .allow_scroll(false)
                        .allow_boxed_zoom(false)
                        .allow_double_click_reset(false)
                        .show(ui, |plot| {
                            plot.line(egui_plot::Line::new(
                                "draw",
                                egui_plot::PlotPoints::from(points.clone()),
                            ));
                        });
                } else {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(196.0, 40.0), egui::Sense::hover());
                    let line: Vec<egui::Pos2> = millis
                        .iter()
                        .enumerate()
                        .map(|(i, &y)| {
                            egui::pos2(rect.left() + i as f32 * 1.6, rect.bottom() - y as f32)
                        })
                        .collect();
                    ui.painter().add(egui::Shape::line(
                        line,
                        egui::Stroke::new(1.0, egui::Color32::WHITE),
                    ));
                }
            });
        });
        std::hint::black_box(
            ctx.tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point),
        );
        output.textures_delta.clear();
    };
    let (plot_ctx, painter_ctx) = (egui::Context::default(), egui::Context::default());
    let (mut t_plot, mut t_painter) = (0.0, 0.0);
    let (mut plot_samples, mut painter_samples) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let start = Instant::now();
        for _ in 0..frames {
            run(&plot_ctx, &mut t_plot, true);
        }
        plot_samples.push(start.elapsed() / frames);
        let start = Instant::now();
        for _ in 0..frames {
            run(&painter_ctx, &mut t_painter, false);
        }
        painter_samples.push(start.elapsed() / frames);
    }
    plot_samples.sort_unstable();
    painter_samples.sort_unstable();
    (
        plot_samples[plot_samples.len() / 2],
        painter_samples[painter_samples.len() / 2],
    )
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let (frames, rounds) = if benchmarking { (200, 41) } else { (2, 1) };
    let mut benches = vec![
        Bench::new(Variant::Without, AppUi::Typical),
        Bench::new(Variant::Shown, AppUi::Typical),
        Bench::new(Variant::Hidden, AppUi::Typical),
        Bench::new(Variant::ShownAllRows, AppUi::Typical),
        Bench::new(Variant::ShownDetails, AppUi::Typical),
        Bench::new(Variant::Without, AppUi::Empty),
        Bench::new(Variant::Hidden, AppUi::Empty),
    ];
    for bench in &mut benches {
        let show = matches!(
            bench.variant,
            Variant::Shown | Variant::ShownAllRows | Variant::ShownDetails
        );
        for _ in 0..60 {
            bench.frame(show); // warm caches (galleys, the HUD's warm-up)
        }
    }
    let medians = measure(&mut benches, frames, rounds);
    println!(
        "hud_cost: median per-frame CPU time, {rounds} rounds x {frames} frames \
         (run_ui | run_ui + tessellate)"
    );
    let row = |name: &str, index: usize, base: Option<usize>, target: &str| {
        let (ui, total) = medians[index];
        let added = base.map_or_else(String::new, |base| {
            let (base_ui, base_total) = medians[base];
            format!(
                "  HUD adds {:+6.2} | {:+6.2} µs{target}",
                micros(ui) - micros(base_ui),
                micros(total) - micros(base_total)
            )
        });
        println!(
            "  {name:<34} {:>8.2} | {:>8.2} µs{added}",
            micros(ui),
            micros(total)
        );
    };
    row("typical UI without the HUD", 0, None, "");
    row(
        "typical UI with the HUD shown",
        1,
        Some(0),
        "  (target <= 4 | 8)",
    );
    row(
        "typical UI, HUD hidden after use",
        2,
        Some(0),
        "  (target <= 0.5)",
    );
    row(
        "typical UI, HUD shown, all rows",
        3,
        Some(1),
        "  over shown (target <= 5)",
    );
    row(
        "typical UI, HUD shown, details open",
        4,
        Some(1),
        "  over shown (closed: none)",
    );
    row("empty UI without the HUD", 5, None, "");
    row(
        "empty UI, HUD hidden after use",
        6,
        Some(5),
        "  (target <= 0.5)",
    );
    let (plot, painter) = plot_costs(frames, rounds);
    println!(
        "  plot alone: egui_plot {:.2} µs, painter line {:.2} µs per frame",
        micros(plot),
        micros(painter)
    );
    if let Some(snapshot) = egui_hud::snapshot(&benches[1].ctx)
        && let Some(cost) = snapshot.overlay_cost
    {
        println!(
            "  the HUD's own measure of its drawing: {:.2} µs per frame",
            micros(cost)
        );
    }
}
