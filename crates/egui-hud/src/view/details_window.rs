use std::time::Duration;

use egui_plot::{Bar, BarChart, HLine, Legend, Line, Plot, PlotPoints, Points};

use profiler_core::record::frame_trace::FrameTrace;
use profiler_core::record::spike::Spike;

/// What the details window shows, copied from the HUD while the window is open (and only
/// then): the retained frames' times, the spikes and the budget.
pub(crate) struct DetailsData {
    frames: Vec<DetailsFrame>,
    spikes: Vec<Spike>,
    budget: Duration,
    /// The last two benchmark runs compared (the earlier as A), as a table.
    pub(crate) benchmark_comparison: Option<std::sync::Arc<str>>,
}

struct DetailsFrame {
    start_secs: f64,
    draw_ms: f64,
    handoff_ms: Option<f64>,
    gpu_ms: Option<f64>,
}

impl DetailsData {
    pub(crate) fn copy<'a>(
        frames: impl Iterator<Item = &'a FrameTrace>,
        spikes: impl Iterator<Item = &'a Spike>,
        budget: Duration,
    ) -> Self {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        Self {
            frames: frames
                .filter_map(|trace| {
                    Some(DetailsFrame {
                        start_secs: trace.marks.frame_start?.as_secs_f64(),
                        draw_ms: ms(trace.draw),
                        handoff_ms: trace.handoff_interval.map(ms),
                        gpu_ms: trace.gpu.as_ref().map(|(total, _)| ms(*total)),
                    })
                })
                .collect(),
            spikes: spikes.cloned().collect(),
            budget,
            benchmark_comparison: None,
        }
    }
}

/// The details window of `viewport`'s HUD: the retained frames as an interactive plot (draw
/// time, hand-off interval and GPU time; the budget and twice the budget; spikes as markers
/// whose hover shows their anatomy), histograms of frame times and hand-off intervals, and the
/// spikes as a list. `open` turns false when the user closes it.
pub(crate) fn show(
    ctx: &egui::Context,
    viewport: egui::ViewportId,
    data: &DetailsData,
    open: &mut bool,
) {
    egui::Window::new("egui-hud details")
        .id(egui::Id::unique(("egui_hud_details", viewport)))
        .open(open)
        .default_size([560.0, 460.0])
        .show(ctx, |ui| {
            ui.label(format!(
                "{} retained frames, {} spikes, budget {:.2} ms. Drag to pan, scroll to zoom, \
                 double-click to reset; hover a red marker for its frame.",
                data.frames.len(),
                data.spikes.len(),
                data.budget.as_secs_f64() * 1e3
            ));
            frame_plot(ui, viewport, data);
            ui.columns(2, |columns| {
                if let [left, right] = columns {
                    histogram(
                        left,
                        viewport,
                        "frame time (ms)",
                        data.frames.iter().map(|f| f.draw_ms),
                    );
                    histogram(
                        right,
                        viewport,
                        "hand-off interval (ms)",
                        data.frames.iter().filter_map(|f| f.handoff_ms),
                    );
                }
            });
            egui::CollapsingHeader::new(format!("Spikes ({})", data.spikes.len()))
                .id_salt(("egui_hud_details_spikes", viewport))
                .default_open(true)
                .show(ui, |ui| {
                    if data.spikes.is_empty() {
                        ui.label("none so far");
                    }
                    for spike in data.spikes.iter().rev() {
                        ui.label(format!(
                            "at {:.2} s: {}",
                            spike.at.as_secs_f64(),
                            spike.summary()
                        ));
                    }
                });
            if let Some(table) = &data.benchmark_comparison {
                egui::CollapsingHeader::new("The last two benchmarks (B against A)")
                    .id_salt(("egui_hud_details_benchmarks", viewport))
                    .default_open(true)
                    .show(ui, |ui| {
                        ui.label(egui::RichText::new(&**table).monospace());
                    });
            }
        });
}

fn frame_plot(ui: &mut egui::Ui, viewport: egui::ViewportId, data: &DetailsData) {
    let budget_ms = data.budget.as_secs_f64() * 1e3;
    let series = |pick: fn(&DetailsFrame) -> Option<f64>| -> PlotPoints<'static> {
        data.frames
            .iter()
            .filter_map(|f| Some([f.start_secs, pick(f)?]))
            .collect()
    };
    let spikes = &data.spikes;
    Plot::new(("egui_hud_details_plot", viewport))
        .height(200.0)
        .legend(Legend::default())
        .x_axis_label("s")
        .y_axis_label("ms")
        .label_formatter(move |hover| match hover {
            egui_plot::HoverPosition::NearDataPoint {
                plot_name: "spikes",
                index,
                ..
            } => spikes.get(*index).map(Spike::summary),
            egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}\n{:.3} s: {:.2} ms",
                position.x, position.y
            )),
            egui_plot::HoverPosition::Elsewhere { .. } => None,
        })
        .show(ui, |plot| {
            plot.line(Line::new("draw", series(|f| Some(f.draw_ms))));
            plot.line(Line::new("hand-off interval", series(|f| f.handoff_ms)));
            plot.line(Line::new("GPU", series(|f| f.gpu_ms)));
            plot.add(HLine::new("budget", budget_ms));
            plot.add(HLine::new("2× budget", 2.0 * budget_ms));
            let markers: PlotPoints<'_> = spikes
                .iter()
                .map(|s| [s.at.as_secs_f64(), s.worst.as_secs_f64() * 1e3])
                .collect();
            plot.points(
                Points::new("spikes", markers)
                    .radius(4.0)
                    .color(egui::Color32::from_rgb(255, 90, 90)),
            );
        });
}

/// A bar per bin of 1/20 of the largest value (at least 0.25 ms).
fn histogram(
    ui: &mut egui::Ui,
    viewport: egui::ViewportId,
    title: &str,
    values: impl Iterator<Item = f64> + Clone,
) {
    ui.label(title);
    let max = values.clone().fold(0.0_f64, f64::max);
    let width = (max / 20.0).max(0.25);
    let mut counts = [0_u32; 21];
    for value in values {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a bin index in 0..=20"
        )]
        let bin = ((value / width) as usize).min(20);
        if let Some(count) = counts.get_mut(bin) {
            *count += 1;
        }
    }
    let bars = counts
        .iter()
        .enumerate()
        .filter(|(_, count)| **count > 0)
        .map(|(bin, &count)| {
            #[expect(clippy::cast_precision_loss, reason = "a bin index")]
            let center = (bin as f64 + 0.5) * width;
            Bar::new(center, f64::from(count)).width(width * 0.9)
        })
        .collect();
    Plot::new(("egui_hud_details_histogram", title, viewport))
        .height(110.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.add(BarChart::new(title, bars).color(egui::Color32::from_rgb(110, 170, 240)));
        });
}
