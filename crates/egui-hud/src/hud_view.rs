use std::sync::Arc;
use std::time::Duration;

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, Galley, Sense, Stroke, WidgetText, pos2, vec2};
use profiler_core::Snapshot;

use crate::MainReadout;
use crate::hud_palette::HudPalette;
use crate::readout_row::{ReadoutRow, format_duration};

/// Width of the HUD's content, in points.
const CONTENT_WIDTH: f32 = 196.0;
/// Height of the frame-time plot, in points.
const PLOT_HEIGHT: f32 = 40.0;
/// Characters of the name column: the rows use a monospace font so the values line up.
const NAME_COLUMN_CHARS: usize = 9;
/// Width of a GPU pass's budget bar at 100 % of the budget.
const BAR_WIDTH: f32 = 24.0;

/// What the HUD shows between ticks: the readouts formatted at the last refresh, laid out once
/// per refresh (or theme / scale change), so a frame between ticks only paints.
#[derive(Default)]
pub(crate) struct HudView {
    pub(crate) mode: MainReadout,
    pub(crate) collapsed: bool,
    rows: Vec<ReadoutRow>,
    max_fps: Option<f64>,
    fps: Option<f64>,
    hover: String,
    /// Retained draw times in ms, oldest first, and the budget, at the last refresh.
    plot_millis: Vec<f32>,
    plot_budget_millis: f32,
    /// The plot's top in ms: fits the samples, so a fast UI still shows its variation.
    plot_top_millis: f32,
    layout: Option<Layout>,
    /// A one-glyph galley laid out through egui's galley cache every pass. egui empties that
    /// cache exactly when galleys stop being valid (the font atlas was full and cleared, text
    /// options or fonts changed); a different `Arc` back means the kept layout points into an
    /// old atlas and must be redone before it is painted.
    atlas_sentinel: Option<Arc<Galley>>,
}

/// Galleys for the current readouts, valid for one theme and scale.
struct Layout {
    dark_mode: bool,
    pixels_per_point: f32,
    mode: MainReadout,
    collapsed: bool,
    number: Arc<Galley>,
    label: Arc<Galley>,
    rows: Vec<Arc<Galley>>,
    /// The plot's top value, e.g. "0.31 ms", drawn in its corner.
    plot_scale: Arc<Galley>,
}

impl HudView {
    /// The main readout's widget id on `viewport`: clicks on it are read before the HUD is laid
    /// out, so the HUD is drawn at its new size in the pass that saw the click.
    pub(crate) fn readout_id(viewport: egui::ViewportId) -> egui::Id {
        egui::Id::unique(("egui_hud_main_readout", viewport))
    }

    /// Applies a right-click (switch MAX FPS / FPS) or left-click (collapse / expand) on the
    /// main readout. Returns whether the HUD changed size.
    pub(crate) fn apply_clicks(&mut self, readout: &egui::Response) -> bool {
        if readout.secondary_clicked() {
            self.mode = self.mode.toggled();
        }
        if readout.clicked() {
            self.collapsed = !self.collapsed;
        }
        readout.secondary_clicked() || readout.clicked()
    }

    pub(crate) fn clear_readouts(&mut self) {
        self.rows.clear();
        self.max_fps = None;
        self.fps = None;
        self.plot_millis.clear();
        self.layout = None;
    }

    pub(crate) fn set_readouts(
        &mut self,
        snapshot: &Snapshot,
        unavailable_passes: &[&'static str],
    ) {
        self.rows = ReadoutRow::from_snapshot(snapshot, unavailable_passes);
        self.max_fps = snapshot.max_fps;
        self.fps = snapshot.fps;
        self.hover = hover_text(snapshot);
        self.layout = None;
    }

    pub(crate) fn set_plot(&mut self, draws: impl Iterator<Item = Duration>, budget: Duration) {
        self.plot_millis.clear();
        #[expect(
            clippy::cast_possible_truncation,
            reason = "milliseconds for a 40-point plot"
        )]
        self.plot_millis
            .extend(draws.map(|d| (d.as_secs_f64() * 1e3) as f32));
        #[expect(
            clippy::cast_possible_truncation,
            reason = "milliseconds for a 40-point plot"
        )]
        let budget_millis = (budget.as_secs_f64() * 1e3) as f32;
        self.plot_budget_millis = budget_millis;
        let max_sample = self.plot_millis.iter().copied().fold(0.0, f32::max);
        // Headroom above the slowest frame; never so small that noise fills the plot.
        self.plot_top_millis = (max_sample * 1.25).max(budget_millis * 0.05).max(0.01);
        self.layout = None;
    }

    /// The big number for the current mode.
    fn main_value(&self) -> Option<f64> {
        match self.mode {
            MainReadout::MaxFps => self.max_fps,
            MainReadout::Fps => self.fps,
        }
    }

    /// Draws the HUD into `ui` and reports clicks on the main readout.
    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, readout_id: egui::Id) {
        let dark_mode = ui.visuals().dark_mode;
        let palette = HudPalette::for_theme(dark_mode);
        self.ensure_layout(ui, dark_mode, &palette);
        let Some(layout) = &self.layout else {
            return;
        };
        egui::Frame::new()
            .fill(palette.backdrop)
            .stroke(Stroke::new(1.0, palette.border))
            .corner_radius(6)
            .inner_margin(8)
            .show(ui, |ui| {
                ui.spacing_mut().item_spacing = vec2(4.0, 1.0);
                main_readout_ui(
                    ui,
                    readout_id,
                    layout,
                    self.mode,
                    self.main_value(),
                    &self.hover,
                );
                if layout.collapsed {
                    return;
                }
                ui.set_width(CONTENT_WIDTH);
                for (row, galley) in self.rows.iter().zip(&layout.rows) {
                    row_ui(ui, row, galley, &palette);
                }
                plot_ui(
                    ui,
                    &PlotData {
                        millis: &self.plot_millis,
                        budget_millis: self.plot_budget_millis,
                        top_millis: self.plot_top_millis,
                        scale: &layout.plot_scale,
                    },
                    &palette,
                );
            });
    }

    fn ensure_layout(&mut self, ui: &egui::Ui, dark_mode: bool, palette: &HudPalette) {
        let pixels_per_point = ui.pixels_per_point();
        let sentinel =
            ui.painter()
                .layout_no_wrap("0".to_owned(), FontId::monospace(10.0), palette.dim);
        let atlas_kept = self
            .atlas_sentinel
            .as_ref()
            .is_some_and(|kept| Arc::ptr_eq(kept, &sentinel));
        self.atlas_sentinel = Some(sentinel);
        if atlas_kept
            && self.layout.as_ref().is_some_and(|l| {
                l.dark_mode == dark_mode
                    && l.pixels_per_point == pixels_per_point
                    && l.mode == self.mode
                    && l.collapsed == self.collapsed
            })
        {
            return;
        }
        let painter = ui.painter();
        let number_size = if self.collapsed { 14.0 } else { 26.0 };
        let number = painter.layout_no_wrap(
            self.main_value()
                .map_or_else(|| "--".to_owned(), format_fps),
            FontId::monospace(number_size),
            palette.text,
        );
        let label = painter.layout_no_wrap(
            self.mode.label().to_owned(),
            FontId::monospace(10.0),
            palette.dim,
        );
        let rows = self
            .rows
            .iter()
            .map(|row| painter.layout_job(row_job(row, palette)))
            .collect();
        let plot_scale = painter.layout_no_wrap(
            Duration::try_from_secs_f64(f64::from(self.plot_top_millis) / 1e3)
                .map(format_duration)
                .unwrap_or_default(),
            FontId::monospace(9.0),
            palette.dim,
        );
        self.layout = Some(Layout {
            dark_mode,
            pixels_per_point,
            mode: self.mode,
            collapsed: self.collapsed,
            number,
            label,
            rows,
            plot_scale,
        });
    }
}

fn format_fps(fps: f64) -> String {
    if fps < 10.0 {
        format!("{fps:.1}")
    } else {
        format!("{fps:.0}")
    }
}

fn row_job(row: &ReadoutRow, palette: &HudPalette) -> LayoutJob {
    let font = FontId::monospace(11.0);
    let mut job = LayoutJob::default();
    let indent = if row.indented { "  " } else { "" };
    let name_chars = NAME_COLUMN_CHARS
        .saturating_sub(indent.len())
        .max(row.name.len() + 1);
    let name = format!("{indent}{:<name_chars$}", row.name);
    job.append(&name, 0.0, TextFormat::simple(font.clone(), palette.dim));
    job.append(
        &row.value,
        0.0,
        TextFormat::simple(font, palette.grade(row.grade)),
    );
    job
}

fn main_readout_ui(
    ui: &mut egui::Ui,
    id: egui::Id,
    layout: &Layout,
    mode: MainReadout,
    value: Option<f64>,
    hover: &str,
) {
    let gap = 6.0;
    let size = vec2(
        layout.number.size().x + gap + layout.label.size().x,
        layout.number.size().y,
    );
    let (_, rect) = ui.allocate_space(size);
    let response = ui.interact(rect, id, Sense::click());
    let painter = ui.painter();
    painter.galley(rect.min, Arc::clone(&layout.number), Color32::PLACEHOLDER);
    let label_pos = pos2(
        rect.min.x + layout.number.size().x + gap,
        rect.max.y - layout.label.size().y - 3.0,
    );
    painter.galley(label_pos, Arc::clone(&layout.label), Color32::PLACEHOLDER);
    response.widget_info(|| {
        let mut info = egui::WidgetInfo::labeled(egui::Role::Button, true, mode.label());
        info.value = value;
        info
    });
    // A closure, not `on_hover_text`: the text is only built into a widget while hovered.
    response.on_hover_ui(|ui| {
        ui.label(hover);
    });
}

fn row_ui(ui: &mut egui::Ui, row: &ReadoutRow, galley: &Arc<Galley>, palette: &HudPalette) {
    let label = egui::Label::new(WidgetText::Galley(Arc::clone(galley))).selectable(false);
    let Some(fraction) = row.budget_fraction else {
        ui.add(label);
        return;
    };
    let row_size = vec2(CONTENT_WIDTH, galley.size().y);
    ui.allocate_ui_with_layout(
        row_size,
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.add(label);
            let (rect, _) =
                ui.allocate_exact_size(vec2(BAR_WIDTH * 1.5, galley.size().y), Sense::hover());
            let bar = egui::Rect::from_min_size(
                pos2(rect.min.x, rect.center().y - 2.0),
                vec2(BAR_WIDTH * fraction.clamp(0.0, 1.5), 4.0),
            );
            let colour = if fraction <= 1.0 {
                palette.within
            } else {
                palette.far_over
            };
            ui.painter().rect_filled(bar, 1.0, colour);
            let budget_x = rect.min.x + BAR_WIDTH;
            ui.painter()
                .vline(budget_x, rect.y_range(), Stroke::new(1.0, palette.dim));
        },
    );
}

/// What the plot shows, fixed at the last refresh.
struct PlotData<'a> {
    millis: &'a [f32],
    budget_millis: f32,
    top_millis: f32,
    scale: &'a Arc<Galley>,
}

/// The retained draw times as a line, newest on the right, scaled to fit them, with the budget
/// as a horizontal line when it is in range and the scale's top value in the corner. Painted
/// directly: egui_plot costs 11.6 µs per frame here against 6.4 µs for the painter (measured by
/// `benches/hud_cost.rs`), allocates and senses input every frame, and puts its box zoom on the
/// right button the HUD uses.
fn plot_ui(ui: &mut egui::Ui, plot: &PlotData<'_>, palette: &HudPalette) {
    let (rect, _) = ui.allocate_exact_size(vec2(CONTENT_WIDTH, PLOT_HEIGHT), Sense::hover());
    let painter = ui.painter_at(rect);
    let y_of = |ms: f32| rect.bottom() - (ms / plot.top_millis).clamp(0.0, 1.0) * rect.height();
    painter.hline(
        rect.x_range(),
        rect.bottom(),
        Stroke::new(1.0, palette.border),
    );
    if plot.budget_millis <= plot.top_millis {
        painter.hline(
            rect.x_range(),
            y_of(plot.budget_millis),
            Stroke::new(1.0, palette.over),
        );
    }
    painter.galley(
        rect.left_top(),
        Arc::clone(plot.scale),
        Color32::PLACEHOLDER,
    );
    if plot.millis.len() < 2 {
        return;
    }
    #[expect(
        clippy::cast_precision_loss,
        reason = "at most a few thousand plot points"
    )]
    let step = rect.width() / (plot.millis.len() - 1) as f32;
    let points = plot
        .millis
        .iter()
        .enumerate()
        .map(|(i, &ms)| {
            #[expect(
                clippy::cast_precision_loss,
                reason = "at most a few thousand plot points"
            )]
            let x = rect.left() + step * i as f32;
            pos2(x, y_of(ms))
        })
        .collect();
    painter.add(egui::Shape::line(
        points,
        Stroke::new(1.0, palette.plot_line),
    ));
}

fn hover_text(snapshot: &Snapshot) -> String {
    let mut lines = Vec::with_capacity(6);
    if let Some(cost) = snapshot.overlay_cost {
        lines.push(format!(
            "HUD {} per frame (left out of FRAME)",
            format_duration(cost)
        ));
    }
    lines.push(format!(
        "budget {} ({})",
        format_duration(snapshot.budget),
        snapshot.refresh_hz.map_or_else(
            || "no refresh rate: 60 Hz".to_owned(),
            |hz| format!("{hz:.2} Hz display")
        ),
    ));
    lines.push(format!(
        "{} draw samples, {} HUD tick frames excluded",
        snapshot.samples, snapshot.self_induced_frames
    ));
    let rejected = snapshot.rejected.total();
    if rejected > 0 {
        lines.push(format!(
            "{rejected} impossible timestamps rejected (time went back)"
        ));
    }
    if let Some(counter) = snapshot.memory_counter {
        lines.push(format!("MEM counter: {}", counter.name()));
    }
    lines.push("Right-click: MAX FPS / FPS. Left-click: collapse.".to_owned());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number's galley after one pass that draws `view`.
    fn drawn_number(ctx: &egui::Context, view: &mut HudView) -> Arc<Galley> {
        let id = egui::Id::unique("readout");
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| view.ui(ui, id));
        output.textures_delta.clear(); // nothing paints here
        let layout = view.layout.as_ref().expect("laid out");
        Arc::clone(&layout.number)
    }

    #[test]
    fn the_layout_is_kept_between_passes_and_redone_when_egui_drops_its_galleys() {
        let ctx = egui::Context::default();
        let mut view = HudView::default();
        let first = drawn_number(&ctx, &mut view);
        let second = drawn_number(&ctx, &mut view);
        assert!(Arc::ptr_eq(&first, &second), "kept while nothing changed");
        // New text options: egui clears the atlas and drops every cached galley, the same path
        // as a full atlas (`Fonts::begin_pass`).
        ctx.all_styles_mut(|style| {
            style.visuals.text_options.font_hinting = !style.visuals.text_options.font_hinting;
        });
        let after = drawn_number(&ctx, &mut view);
        assert!(!Arc::ptr_eq(&first, &after), "laid out again");
    }
}
