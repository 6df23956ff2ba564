//! What the HUD adds to a frame: a typical UI without the HUD, with each preset, with egui's own
//! frame-time panel instead (the workload of its demo's `FrameHistory`), and after the HUD was
//! shown and then hidden, measured in one run, `run_ui` alone and with tessellation, as the mean
//! of all frames and as the median frame (between refreshes). Targets: number only ≤ 1.5 µs
//! `run_ui` between refreshes; the full HUD ≤ ⅓ of the `FrameHistory` panel with tessellation;
//! hidden ≤ +0.5 µs.
//!
//! `cargo bench -p egui-hud --bench hud_cost` prints the table. Under `cargo test` (no `--bench`
//! argument) it runs a few frames only, as a smoke test.
//!
//! Here every context runs its frames back to back, so the HUD finds its state in the CPU's
//! caches; in a real window the app's drawing, the driver and the compositor run between two
//! frames and push it out (why the demo's own measure on llvmpipe or lavapipe is about twice
//! this bench's). `EGUI_HUD_BENCH_EVICT_KB=4096` writes over that many KB between frames,
//! outside the timed part, so the figures are those of a HUD whose state is cold: the
//! memory a frame touches, not only its instructions.
//!
//! Figures that drift far less: run one context alone under callgrind (see
//! [`run_one_for_a_profiler`]), counting only inside the HUD's entry points, for two frame
//! counts; the difference over the extra frames is a frame's instructions and cache misses.
//! They are not identical between runs: the HUD measures real time, and the text it lays out
//! follows what it measured (two runs of the full HUD's 700 frames, December 2026: 140
//! instructions a frame apart of some 19,400; while the other contexts were made and warmed up
//! too, their warm-up added 2,000 to 2,500 a frame of noise to the difference); compare two
//! runs or more of each build over the same frame counts. With a simulated last-level cache
//! the size of a core's L2 and the evictor on, its misses stand for what the HUD fetches in a
//! real window, where the app's drawing empties that cache between two frames:
//!
//! ```text
//! EGUI_HUD_BENCH_ONLY=8 EGUI_HUD_BENCH_FRAMES=200 EGUI_HUD_BENCH_EVICT_KB=2048 \
//!   valgrind --tool=callgrind --cache-sim=yes --LL=1048576,16,64 \
//!   --toggle-collect='egui_hud::api::monitor::FpsMonitor::show' \
//!   --toggle-collect='*FramePlugin as egui::plugin::Plugin*' \
//!   target/release/deps/hud_cost-<hash> --bench    # then again with 1200 frames
//! ```
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
    /// No HUD: the workload of egui's own frame-time panel instead (see [`HistoryPanel`]).
    FrameHistory,
    /// The HUD with a preset.
    Shown(egui_hud::HudPreset),
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
    history: HistoryPanel,
    last_frame_secs: f32,
}

/// The workload of egui's own frame-time panel (`FrameHistory` in egui's demo app), written
/// from its description: an `egui::util::History` of the last second (at most 300 samples),
/// two labels (frames painted, mean CPU time), and an open collapsing section with a framed
/// graph of one line segment and one dot per sample.
struct HistoryPanel {
    history: egui::util::History<f32>,
}

impl HistoryPanel {
    fn new() -> Self {
        Self {
            history: egui::util::History::new(0..300, 1.0),
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, last_frame_secs: f32) {
        let now = ui.input(|i| i.time);
        self.history.add(now, last_frame_secs);
        ui.label(format!("{} frames painted", self.history.total_count()));
        ui.label(format!(
            "{:.2} ms CPU per frame",
            1e3 * self.history.average().unwrap_or_default()
        ));
        egui::CollapsingHeader::new("CPU per frame")
            .default_open(true)
            .show(ui, |ui| {
                let size = egui::vec2(ui.available_width(), ui.spacing().slider_width);
                let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                let stroke = egui::Stroke::new(1.0, ui.visuals().text_color());
                let mut shapes = Vec::with_capacity(1 + 2 * self.history.len());
                shapes.push(egui::Shape::rect_filled(
                    rect,
                    2.0,
                    ui.visuals().extreme_bg_color,
                ));
                let inner = rect.shrink(4.0);
                for (time, secs) in self.history.iter() {
                    let age = (now - time) as f32;
                    let x = inner.right() - inner.width() * (age / self.history.max_age());
                    let y = inner.bottom() - inner.height() * (secs / 0.010).clamp(0.0, 1.0);
                    let top = egui::pos2(x.clamp(inner.left(), inner.right()), y);
                    shapes.push(egui::Shape::line_segment(
                        [egui::pos2(top.x, inner.bottom()), top],
                        stroke,
                    ));
                    shapes.push(egui::Shape::circle_filled(top, 2.0, stroke.color));
                }
                ui.painter().extend(shapes);
            });
    }
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
            history: HistoryPanel::new(),
            last_frame_secs: 0.0,
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
        let variant = self.variant;
        let (history, last_frame_secs) = (&mut self.history, self.last_frame_secs);
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
            if variant == Variant::FrameHistory {
                history.ui(ui, last_frame_secs);
            }
            if show_hud {
                let preset = match variant {
                    Variant::Shown(preset) => preset,
                    _ => egui_hud::HudPreset::Full,
                };
                egui_hud::FpsMonitor::new().preset(preset).show(ui.ctx());
            }
        });
        let ran = Instant::now();
        std::hint::black_box(
            self.ctx
                .tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point),
        );
        let tessellated = ran.elapsed();
        self.last_frame_secs = (ran - start + tessellated).as_secs_f32();
        // Nothing uploads textures here: dropping undelivered deltas is a debug assertion.
        output.textures_delta.clear();
        (ran - start, tessellated)
    }
}

/// Per-frame times of one context: the median over `rounds` interleaved rounds of each round's
/// mean (every frame, refreshes included), and the median single frame (a frame between
/// refreshes: a refresh is every 30th frame), each as `run_ui` alone and with tessellation.
#[derive(Clone, Copy)]
struct Figures {
    mean: (Duration, Duration),
    between_refreshes: (Duration, Duration),
}

fn shows_the_hud(variant: Variant) -> bool {
    matches!(
        variant,
        Variant::Shown(_) | Variant::ShownAllRows | Variant::ShownDetails
    )
}

/// Memory written over between frames (see the module's documentation); empty: none.
struct Evictor {
    buffer: Vec<u8>,
    pass: u8,
}

impl Evictor {
    fn from_env() -> Self {
        let kilobytes: usize = std::env::var("EGUI_HUD_BENCH_EVICT_KB")
            .ok()
            .and_then(|kb| kb.trim().parse().ok())
            .unwrap_or(0);
        Self {
            buffer: vec![0; kilobytes.saturating_mul(1024)],
            pass: 0,
        }
    }

    /// One write per cache line: the lines are the app's now.
    fn evict(&mut self) {
        self.pass = self.pass.wrapping_add(1);
        for line in self.buffer.chunks_mut(64) {
            line[0] = self.pass;
        }
        std::hint::black_box(&mut self.buffer);
    }
}

fn measure(
    benches: &mut [Bench],
    (frames, rounds): (u32, u32),
    evictor: &mut Evictor,
) -> Vec<Figures> {
    #[derive(Default, Clone)]
    struct Samples {
        round_ui: Vec<Duration>,
        round_total: Vec<Duration>,
        frame_ui: Vec<Duration>,
        frame_total: Vec<Duration>,
    }
    let mut samples = vec![Samples::default(); benches.len()];
    for _ in 0..rounds {
        for (bench, samples) in benches.iter_mut().zip(&mut samples) {
            let show = shows_the_hud(bench.variant);
            let (mut ui_sum, mut tess_sum) = (Duration::ZERO, Duration::ZERO);
            for _ in 0..frames {
                evictor.evict();
                let (ui, tess) = bench.frame(show);
                ui_sum += ui;
                tess_sum += tess;
                samples.frame_ui.push(ui);
                samples.frame_total.push(ui + tess);
            }
            samples.round_ui.push(ui_sum / frames);
            samples.round_total.push((ui_sum + tess_sum) / frames);
        }
    }
    let median = |mut s: Vec<Duration>| {
        s.sort_unstable();
        s[s.len() / 2]
    };
    samples
        .into_iter()
        .map(|s| Figures {
            mean: (median(s.round_ui), median(s.round_total)),
            between_refreshes: (median(s.frame_ui), median(s.frame_total)),
        })
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

fn print_plot_costs(frames: u32, rounds: u32) {
    let (plot, painter) = plot_costs(frames, rounds);
    println!(
        "  plot alone: egui_plot {:.2} µs, painter line {:.2} µs per frame",
        micros(plot),
        micros(painter)
    );
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The contexts measured, in the order `main` indexes them.
const CONTEXTS: [(Variant, AppUi); 10] = {
    use egui_hud::HudPreset;
    [
        (Variant::Without, AppUi::Typical),
        (Variant::Shown(HudPreset::Compact), AppUi::Typical),
        (Variant::Hidden, AppUi::Typical),
        (Variant::ShownAllRows, AppUi::Typical),
        (Variant::ShownDetails, AppUi::Typical),
        (Variant::Without, AppUi::Empty),
        (Variant::Hidden, AppUi::Empty),
        (Variant::Shown(HudPreset::NumberOnly), AppUi::Typical),
        (Variant::Shown(HudPreset::Full), AppUi::Typical),
        (Variant::FrameHistory, AppUi::Typical),
    ]
};

/// A context of [`CONTEXTS`], made and warmed up: 60 frames fill egui's galley cache and pass
/// the HUD's warm-up.
fn warmed_up((variant, app_ui): (Variant, AppUi)) -> Bench {
    let mut bench = Bench::new(variant, app_ui);
    let show = shows_the_hud(variant);
    for _ in 0..60 {
        bench.frame(show);
    }
    bench
}

/// `EGUI_HUD_BENCH_ONLY=<index>` (the context's place in [`CONTEXTS`]: 8 is the full HUD,
/// 7 number only, 0 the UI without the HUD) with `EGUI_HUD_BENCH_FRAMES=<n>` (default 1000):
/// makes and warms up that context alone, runs it for `n` frames, the evictor between them, and
/// prints nothing, for a profiler. Under callgrind it counts what a frame of the HUD executes and
/// misses, to within a few percent between runs (see the module's documentation); the other
/// contexts are not made, so their warm-up (the details window's plot, text egui shapes anew)
/// does not vary the difference between two frame counts. Returns whether it ran.
fn run_one_for_a_profiler() -> bool {
    let Some(index) = std::env::var("EGUI_HUD_BENCH_ONLY")
        .ok()
        .and_then(|index| index.trim().parse::<usize>().ok())
    else {
        return false;
    };
    let frames: u32 = std::env::var("EGUI_HUD_BENCH_FRAMES")
        .ok()
        .and_then(|frames| frames.trim().parse().ok())
        .unwrap_or(1000);
    let Some(context) = CONTEXTS.get(index) else {
        println!(
            "EGUI_HUD_BENCH_ONLY={index}: there are {} contexts, 0 to {}",
            CONTEXTS.len(),
            CONTEXTS.len() - 1
        );
        return true;
    };
    let mut bench = warmed_up(*context);
    let mut evictor = Evictor::from_env();
    let show = shows_the_hud(bench.variant);
    for _ in 0..frames {
        evictor.evict();
        bench.frame(show);
    }
    true
}

fn main() {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let (frames, rounds) = if benchmarking { (200, 41) } else { (2, 1) };
    if run_one_for_a_profiler() {
        return;
    }
    let mut benches: Vec<Bench> = CONTEXTS.into_iter().map(warmed_up).collect();
    let mut evictor = Evictor::from_env();
    let figures = measure(&mut benches, (frames, rounds), &mut evictor);
    let evicted_kb = evictor.buffer.len() / 1024;
    println!(
        "hud_cost: per-frame CPU time, {rounds} rounds x {frames} frames (run_ui | run_ui + \
         tessellate); mean of all frames, and [the median frame: between refreshes]; {evicted_kb} \
         KB written over between frames"
    );
    let added = |index: usize, base: usize| {
        let (f, b) = (figures[index], figures[base]);
        (
            micros(f.mean.0) - micros(b.mean.0),
            micros(f.mean.1) - micros(b.mean.1),
            micros(f.between_refreshes.0) - micros(b.between_refreshes.0),
            micros(f.between_refreshes.1) - micros(b.between_refreshes.1),
        )
    };
    let row = |name: &str, index: usize, base: Option<usize>, target: &str| {
        let f = figures[index];
        let adds = base.map_or_else(String::new, |base| {
            let (ui, total, ui_between, total_between) = added(index, base);
            format!(
                "  adds {ui:+6.2} | {total:+6.2} [{ui_between:+6.2} | {total_between:+6.2}] µs{target}"
            )
        });
        println!(
            "  {name:<36} {:>8.2} | {:>8.2} [{:>8.2} | {:>8.2}] µs{adds}",
            micros(f.mean.0),
            micros(f.mean.1),
            micros(f.between_refreshes.0),
            micros(f.between_refreshes.1),
        );
    };
    row("typical UI without the HUD", 0, None, "");
    row("typical UI, HUD compact (default)", 1, Some(0), "");
    row(
        "typical UI, HUD number only",
        7,
        Some(0),
        "  (target [<= 1.5])",
    );
    row("typical UI, HUD full", 8, Some(0), "");
    row(
        "typical UI, HUD full, all rows",
        3,
        Some(8),
        "  over full (target <= 5)",
    );
    row(
        "typical UI, HUD full, details open",
        4,
        Some(8),
        "  over full (closed: none)",
    );
    row("typical UI, egui's FrameHistory panel", 9, Some(0), "");
    row(
        "typical UI, HUD hidden after use",
        2,
        Some(0),
        "  (target <= 0.5)",
    );
    row("empty UI without the HUD", 5, None, "");
    row(
        "empty UI, HUD hidden after use",
        6,
        Some(5),
        "  (target <= 0.5)",
    );
    let (_, full_total, _, _) = added(8, 0);
    let (_, history_total, _, _) = added(9, 0);
    println!(
        "  full HUD / FrameHistory, with tessellation: {:.2} (target <= 0.33)",
        full_total / history_total
    );
    print_plot_costs(frames, rounds);
    if let Some(snapshot) = egui_hud::snapshot(&benches[8].ctx)
        && let Some(cost) = snapshot.overlay_cost
    {
        // The last snapshot's: a sample of the run (the render benches take the whole run's).
        println!(
            "  the full HUD's own measure of itself (drawing and hooks), its last {} frames: \
             {:.2} µs per frame",
            snapshot.samples,
            micros(cost)
        );
    }
}
