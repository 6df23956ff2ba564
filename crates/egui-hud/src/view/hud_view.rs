use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use egui::{FontId, Galley, Role, Sense, Stroke, pos2, vec2};
use profiler_core::{LatencyStage, Snapshot};

use crate::repaint::why_reading::WhyReading;
use crate::view::benchmark_status::BenchmarkStatus;
use crate::view::formatted_rows::FormattedRows;
use crate::view::hud_ids::HudIds;
use crate::view::hud_palette::HudPalette;
use crate::view::hud_row::HudRow;
use crate::view::layer_widgets::LayerWidgets;
use crate::view::main_readout::MainReadout;
use crate::view::placed_text::PlacedText;
use crate::view::plot_line::PlotLine;
use crate::view::readout_row::ReadoutRow;
use crate::view::row_list::RowList;
use crate::view::text_cache::{CharacterSet, Shaping, TextCache};
use crate::view::text_quads::TextQuads;
use crate::view::value_text::{DurationText, FpsText, format_percent};
use profiler_core::record::frame_log::{FrameLog, MAX_SPIKES};

/// Width of the HUD's content, in points.
const CONTENT_WIDTH: f32 = 196.0;
/// Height of the frame-time plot, in points.
const PLOT_HEIGHT: f32 = 40.0;
/// Characters of the name column: the rows use a monospace font so the values line up.
const NAME_COLUMN_CHARS: usize = 9;
/// Width of a GPU pass's budget bar at 100 % of the budget.
const BAR_WIDTH: f32 = 24.0;

/// What the HUD shows between ticks: the readouts set at the last refresh, formatted and laid
/// out once per refresh (or theme / scale change) by the layout that shows them, so a frame
/// between ticks only paints.
#[derive(Default)]
pub(crate) struct HudView {
    pub(crate) mode: MainReadout,
    pub(crate) collapsed: bool,
    /// The rows chosen (a preset or the app's list), in display order.
    shown: RowList,
    rows: FormattedRows,
    /// Readouts and notes set since `rows` were last formatted: formatted by the next layout,
    /// on whichever thread makes it ([`Self::format_rows`]), so that a refresh laid out off the
    /// UI thread is formatted there too.
    to_format: Option<ToFormat>,
    max_fps: Option<f64>,
    fps: Option<f64>,
    /// The readout's hover text for the last refresh; `None` until the pointer comes over the readout
    /// after it (see [`Self::set_hover`]).
    hover: Option<String>,
    /// Where the main readout was last drawn, on the screen, widened by egui's interaction
    /// radius (egui's hover also counts a pointer that close to the nearest widget): whether
    /// the pointer is over it is then a comparison (see [`Self::pointer_over_readout`]).
    readout_reach: Option<egui::Rect>,
    /// egui's `interact_radius` in points, read with the theme each pass (default 5).
    interact_radius: f32,
    /// Retained draw times in ms, oldest first, and the budget, at the last refresh.
    plot_millis: Vec<f32>,
    plot_budget_millis: f32,
    /// The plot's top in ms: fits the samples, so a fast UI still shows its variation.
    plot_top_millis: f32,
    /// Plot indices of the frames kept as spikes.
    spike_marks: Vec<usize>,
    /// The rows the readouts were set for (those shown at the last [`Self::set_readouts`]),
    /// which `rows` holds once the next layout formatted them.
    readouts_for: RowList,
    /// The details control was clicked in this pass.
    pub(crate) details_clicked: bool,
    /// The latency bar: the median of each stage from the request to LATENCY's end that has
    /// frames, path order (a breakdown: its width is not the LATENCY row's value).
    latency_p50: Vec<(LatencyStage, Duration)>,
    layout: Option<Layout>,
    /// The readouts changed since `layout` was made (a refresh): it is made again before it is
    /// drawn, or, with [`Relayout::OffThread`], drawn once more while the new one is made.
    outdated: bool,
    /// A new layout to make off the UI thread ([`Self::lay_out_due`]), with what the UI thread
    /// read for it; `layout` is the last refresh's until the view is handed over, when a
    /// stand-in takes it.
    due_off_thread: Option<LayoutLook>,
    /// Where the last layout was drawn, and its size, while a stand-in draws it (see
    /// [`Self::stand_in_for`]): the new layout is moved there.
    last_place: Option<(egui::Pos2, egui::Vec2)>,
    /// Whether this view stands in for another while a worker lays that one out (see
    /// [`Self::stand_in_for`]).
    role: ViewRole,
    /// An empty galley laid out through egui's galley cache every pass. egui empties that
    /// cache exactly when galleys stop being valid (the font atlas was full and cleared, text
    /// options or fonts changed); a different `Arc` back means the kept layout points into an
    /// old atlas and must be redone before it is painted.
    atlas_sentinel: Option<Arc<Galley>>,
    /// Words and characters laid out once, placed again at every refresh.
    text: TextCache,
    /// What the kept galleys were laid out for: theme, scale and font atlas size.
    look: Option<(bool, f32, [usize; 2])>,
    /// The last layout's vertices and indices, reserved by the next one (a refresh drops the
    /// layout before it is redone): its meshes grow once, not by doubling.
    mesh_size: (usize, usize),
    /// What a refresh reuses from the last one, so that it allocates only what changed.
    scratch: LayoutScratch,
}

/// What the rows are formatted from at the next layout (see [`HudView::format_rows`]).
struct ToFormat {
    /// The refresh's snapshot, shared with its owner, who keeps it for the hover and the API.
    snapshot: Arc<Snapshot>,
    /// WHY's reading, if its row is shown.
    why: Option<WhyReading>,
    /// The rows to format.
    rows: RowList,
    /// The notes under the rows (see [`HudView::set_notes`]).
    notes: Option<Notes>,
}

/// The rows set by [`HudView::set_notes`], as read then.
struct Notes {
    benchmark: Option<BenchmarkStatus>,
    /// SPIKES: the spikes seen and the worst of them.
    spikes: Option<(u64, Duration)>,
    export_note: Option<String>,
}

/// Whether a view is one of its own or stands in for another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ViewRole {
    #[default]
    Own,
    /// It draws the layout it was given and never lays out.
    StandIn,
    /// A stand-in that found what it draws must be laid out again (a click, another set of
    /// rows, a new look): it drew its layout as it was, and the view it stands for is needed.
    OutdatedStandIn,
}

/// Kept from one layout to the next: the tessellator and the backdrop it made, the list of
/// shapes to tessellate (emptied, not dropped), the size of the rows' text, the line
/// written for placing (see [`Pen::line`]) and the two meshes' buffers. A refresh writes its
/// layout into buffers a past layout used instead of allocating new ones (four allocations
/// and four frees a refresh fewer: a number-only refresh frame's `fps_monitor` 50 → 42 µs in
/// `benches/hud_render_cost.rs` on lavapipe): the last one's in the pass; off the UI thread,
/// where a stand-in draws the last layout meanwhile, the one's before it (two meshes take
/// turns).
#[derive(Default)]
struct LayoutScratch {
    tessellator: Option<KeptTessellator>,
    shapes: Vec<egui::Shape>,
    rows_text_bytes: usize,
    line: String,
    /// The buffers of the last layout's mesh, emptied, taken back when the layout is dropped
    /// (see [`HudView::forget_layout`]); empty when egui still held that mesh.
    mesh: egui::Mesh,
    /// A dropped layout's mesh that egui still held (the mesh a stand-in drew, given back when
    /// the view is taken back, before egui tessellated that pass): its buffers are taken back
    /// at the next layout, by when egui has let go of it.
    retired_mesh: Option<Arc<egui::Mesh>>,
    /// The buffers the last layout placed its text in before appending it to the mesh.
    text_mesh: egui::Mesh,
    /// The plot's line, its points' room kept.
    plot_line: PlotLine,
}

/// A tessellator (its path buffers grow once, not at every refresh), made again when the
/// scale, options or atlas size change, and the last backdrop it tessellated: the rounded,
/// bordered rectangle is the costliest shape of a layout, and it changes only with the HUD's
/// size or theme, so a refresh that keeps both copies its vertices instead.
struct KeptTessellator {
    made_for: TessellatorFor,
    tessellator: egui::epaint::Tessellator,
    backdrop: Option<(egui::epaint::RectShape, egui::Mesh)>,
}

impl KeptTessellator {
    /// The feathering its tessellator paints with, in points (0 when off).
    fn feathering_points(&self) -> f32 {
        let (pixels_per_point, options, _) = self.made_for;
        feathering_points(pixels_per_point, &options)
    }

    /// Appends `backdrop`'s mesh to the empty `mesh`: the kept one when it is the same shape.
    fn backdrop_into(&mut self, backdrop: egui::epaint::RectShape, mesh: &mut egui::Mesh) {
        debug_assert!(mesh.is_empty(), "the backdrop is the layout's first shape");
        match &self.backdrop {
            Some((kept, kept_mesh)) if *kept == backdrop => mesh.append_ref(kept_mesh),
            _ => {
                let mut made = egui::Mesh::default();
                self.tessellator
                    .tessellate_shape(egui::Shape::Rect(backdrop.clone()), &mut made);
                mesh.append_ref(&made);
                self.backdrop = Some((backdrop, made));
            }
        }
    }
}

/// The scale, options and font atlas size a tessellator was made for.
type TessellatorFor = (f32, egui::epaint::TessellationOptions, [usize; 2]);

/// What a layout reads from egui, read on the UI thread: the scale, the tessellation options,
/// the font atlas's size and the theme's colours.
#[derive(Clone, Copy)]
struct LayoutLook {
    made_for: TessellatorFor,
    palette: HudPalette,
}

/// Where the layout a refresh asks for is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relayout {
    /// In the pass that draws it.
    InThisPass,
    /// Off the UI thread, after this pass, which draws the last refresh's layout once more (the
    /// owner hands the view to a [`crate::view::layout_worker::LayoutWorker`] when
    /// [`HudView::has_layout_due`]): for a frame the next one follows at once, so that the new
    /// numbers show in the next pass after the layout is done (a stand-in draws the last
    /// layout until then, four passes within 70 ms at most; see
    /// `crate::plugin::view_home::ViewHome`).
    /// Only for new readouts (a row that appears with them included); a click, another set of
    /// rows (a preset) or a new look are laid out in the pass.
    OffThread,
}

/// The HUD laid out for the current readouts and mode (valid for the view's `look`):
/// backdrop, text, bars and plot tessellated once into one mesh. A frame between refreshes
/// re-emits that mesh: no widget per row, no text or path tessellated again.
struct Layout {
    mode: MainReadout,
    collapsed: bool,
    shown: RowList,
    /// The whole HUD, from its top-left corner.
    size: egui::Vec2,
    /// The main readout (number and label), clickable.
    readout: egui::Rect,
    /// The control that opens the details window (expanded only), clickable.
    details: Option<egui::Rect>,
    /// The rows as one text, for screen readers (and tests); empty when collapsed.
    rows_text: String,
    /// The main readout's value as laid out (screen readers are told the number drawn).
    value: Option<f64>,
    /// Everything painted, tessellated with the HUD's top-left corner at `at`.
    mesh: Arc<egui::Mesh>,
    /// Where the mesh's corner is: the origin after a layout, then where the HUD was last
    /// drawn.
    at: egui::Pos2,
}

/// What lays text out for a layout: egui's fonts or the kept text alone, the colours, the kept
/// galleys, and the width of the HUD's one-pixel lines.
struct Pen<'a> {
    shaping: Shaping<'a>,
    palette: &'a HudPalette,
    text: &'a mut TextCache,
    /// See [`hairline_width`].
    hairline: f32,
    /// The text placed so far, in one mesh (the tessellator's vertices, without its
    /// per-galley cost).
    placed: PlacedText,
    /// A line written to be placed (the number, the plot's scale, a legend entry): one string,
    /// its room kept from layout to layout.
    line: String,
}

/// Space around the HUD's content, in points.
const MARGIN: f32 = 8.0;
/// Horizontal and vertical space between items, in points.
const SPACING: egui::Vec2 = vec2(4.0, 1.0);
/// The control under the plot that opens the details window.
const DETAILS_LABEL: &str = "details ▸";

/// From this many vertices the HUD's mesh is a mesh of its own in egui's tessellator (clipped to
/// the HUD) instead of being appended to the app's. Appended, it makes egui grow the app's mesh,
/// a copy of everything drawn before it, whenever it passes the mesh's capacity; on its own it
/// costs two allocations of its exact size and one more draw call. Measured on the H200 (render
/// bench, 4 pairs): the full HUD (~1400 vertices) and compact (~750) tessellate 1–3 µs faster
/// with one allocation more or fewer; number only (~230) gained nothing and allocated twice
/// more, so it stays appended.
const OWN_MESH_MIN_VERTICES: usize = 512;

/// Gap between the big number and its label, in points.
const LABEL_GAP: f32 = 6.0;

impl HudView {
    /// Whether the hover text of the last refresh is still to be built.
    pub(crate) fn lacks_hover(&self) -> bool {
        self.hover.is_none()
    }

    /// Whether the pointer at `pointer` is over the main readout where it was last drawn: the
    /// test for building the hover text before this pass draws it (egui's own test, the
    /// readout's response, is a lookup in the last pass's widgets, about 500 instructions a
    /// frame). Free.
    pub(crate) fn pointer_over_readout(&self, pointer: Option<egui::Pos2>) -> bool {
        self.readout_reach
            .zip(pointer)
            .is_some_and(|(readout, pointer)| readout.contains(pointer))
    }

    /// The hover text of the last refresh ([`crate::view::readout_hover::ReadoutHover`]), built
    /// by the owner of the readouts when the pointer is over the main readout.
    pub(crate) fn set_hover(&mut self, text: String) {
        self.hover = Some(text);
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

    /// Shows `rows` from the next pass on (laid out again only when they changed).
    pub(crate) fn set_rows(&mut self, rows: RowList) {
        self.shown = rows;
    }

    /// Whether the readouts were set for every row of `rows`; if not (a preset changed
    /// between refreshes), they are to be set again before `rows` are shown.
    pub(crate) fn readouts_cover(&self, rows: RowList) -> bool {
        self.readouts_for.covers(&rows)
    }

    pub(crate) fn clear_readouts(&mut self) {
        self.rows.clear();
        self.to_format = None;
        self.max_fps = None;
        self.fps = None;
        self.plot_millis.clear();
        self.hover = None;
        self.forget_layout();
    }

    /// Sets the readouts of the rows shown now (see [`Self::set_rows`]) to `snapshot`: they are
    /// formatted by the next layout (see [`Self::format_rows`]); the other rows when they are
    /// shown (see [`Self::readouts_cover`]). Call [`Self::set_notes`] after it.
    pub(crate) fn set_readouts(&mut self, snapshot: Arc<Snapshot>, why: Option<&WhyReading>) {
        self.readouts_for = self.shown;
        let why = why.filter(|_| self.shown.contains(HudRow::Why)).cloned();
        self.max_fps = snapshot.max_fps;
        self.fps = snapshot.fps;
        self.latency_p50.clear();
        // The bar is LATENCY's breakdown: absent with its row (no frame a request woke).
        self.latency_p50.extend(
            snapshot
                .latency
                .iter()
                .filter(|_| snapshot.latency_total.is_some())
                .filter(|r| r.stage.is_on_latency_path())
                .filter_map(|r| Some((r.stage, r.p50?))),
        );
        // Built only if the pointer comes over the readout (`Self::set_hover`): most refreshes are
        // never hovered, and the text was a third of a refresh.
        self.hover = None;
        self.to_format = Some(ToFormat {
            snapshot,
            why,
            rows: self.shown,
            notes: None,
        });
        self.outdated = true;
    }

    /// Formats the rows from what [`Self::set_readouts`] and [`Self::set_notes`] set since the
    /// last call (else free): the readouts' rows, then the notes'. Called by every layout, so
    /// a layout made off the UI thread formats its rows there; formatting writes into the
    /// strings of the last rows, allocating nothing once every row has been shown.
    fn format_rows(&mut self) {
        let Some(to_format) = self.to_format.take() else {
            return;
        };
        self.rows
            .fill(&to_format.snapshot, to_format.rows, to_format.why.as_ref());
        let Some(notes) = to_format.notes else {
            return;
        };
        if let Some(benchmark) = &notes.benchmark {
            push_benchmark_rows(&mut self.rows, benchmark);
        }
        if let Some((seen, worst)) = notes.spikes {
            self.rows.push_value(
                HudRow::Spikes,
                "SPIKES",
                None,
                format_args!("{seen} · worst {}", DurationText(worst)),
            );
        }
        if let Some(note) = notes.export_note {
            let mut text = self.rows.text(format_args!(""));
            text.extend(note.chars().take(40));
            self.rows.push(ReadoutRow::note("EXPORT", text));
        }
    }

    /// The kept spikes' marks on the plot, and the notes under the rows, formatted with the
    /// readouts [`Self::set_readouts`] set just before (see [`Self::format_rows`]): the benchmark's rows, SPIKES (spikes
    /// since the start and the worst of them), the outcome of the latest background export
    /// while it is recent.
    pub(crate) fn set_notes(
        &mut self,
        log: &FrameLog,
        export_note: Option<&str>,
        benchmark: Option<&BenchmarkStatus>,
    ) {
        self.spike_marks.clear();
        // The kept spikes' starts sorted on the stack, each retained frame looked up in them:
        // a search through every spike for every retained frame was most of this call.
        let mut starts = [Duration::ZERO; MAX_SPIKES];
        let kept = log.spikes().len().min(MAX_SPIKES);
        debug_assert!(
            log.spikes().len() <= MAX_SPIKES,
            "the log keeps at most MAX_SPIKES"
        );
        for (slot, spike) in starts.iter_mut().zip(log.spikes()) {
            *slot = spike.at;
        }
        let starts = starts.get_mut(..kept).unwrap_or_default();
        starts.sort_unstable();
        if !starts.is_empty() {
            self.spike_marks
                .extend(
                    log.retained_starts()
                        .enumerate()
                        .filter_map(|(index, start)| {
                            starts.binary_search(&start?).is_ok().then_some(index)
                        }),
                );
        }
        let spikes = log
            .worst_spike()
            .filter(|_| self.shown.contains(HudRow::Spikes))
            .map(|worst| (log.spikes_seen(), worst.worst));
        let notes = Notes {
            benchmark: benchmark.cloned(),
            spikes,
            export_note: export_note.map(str::to_owned),
        };
        if let Some(to_format) = &mut self.to_format {
            to_format.notes = Some(notes);
        } else {
            debug_assert!(false, "notes are set with the readouts they follow");
        }
        self.outdated = true;
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
        self.outdated = true;
    }

    /// The big number for the current mode.
    fn main_value(&self) -> Option<f64> {
        match self.mode {
            MainReadout::MaxFps => self.max_fps,
            MainReadout::Fps => self.fps,
        }
    }

    /// Lays the HUD out for `painter`'s layer if anything it shows changed (else free), new
    /// readouts where `relayout` says, and returns its size, so that it can be placed before it
    /// is drawn. `None` before the first layout.
    pub(crate) fn prepare(
        &mut self,
        painter: &egui::Painter,
        relayout: Relayout,
    ) -> Option<egui::Vec2> {
        let style = painter.ctx().global_style();
        let dark_mode = style.visuals.dark_mode;
        self.interact_radius = style.interaction.interact_radius;
        let palette = HudPalette::for_theme(dark_mode);
        self.ensure_layout(painter, dark_mode, palette, relayout);
        self.layout.as_ref().map(|layout| layout.size)
    }

    /// Makes this view (an empty one, or a stand-in that was taken over) stand in for `view`
    /// while a worker lays `view` out: it takes `view`'s layout, the last refresh's, and what a
    /// pass reads besides (the mode, the rows shown and those set, where the readout was), and
    /// draws that layout as it is. It never lays out: a pass that would (a click, another set of
    /// rows, a new look) draws the layout as it was and leaves [`Self::is_stand_in_outdated`]
    /// set. No allocation.
    pub(crate) fn stand_in_for(&mut self, view: &mut Self) {
        debug_assert!(
            self.role == ViewRole::Own && self.layout.is_none() && view.role == ViewRole::Own,
            "one stand-in, taken over before it stands in again"
        );
        self.role = ViewRole::StandIn;
        self.mode = view.mode;
        self.collapsed = view.collapsed;
        self.shown = view.shown;
        self.readouts_for = view.readouts_for;
        self.readout_reach = view.readout_reach;
        self.interact_radius = view.interact_radius;
        // Moved, not built again: a refresh's pass builds it while the pointer is over the
        // readout.
        self.hover = view.hover.take();
        self.look = view.look;
        self.atlas_sentinel.clone_from(&view.atlas_sentinel);
        self.layout = view.layout.take();
        view.last_place = self.layout.as_ref().map(|layout| (layout.at, layout.size));
    }

    /// Whether this view stands in for another ([`Self::stand_in_for`]) and was not taken over
    /// yet. Free.
    pub(crate) fn is_standing_in(&self) -> bool {
        self.role != ViewRole::Own
    }

    /// Whether a stand-in ([`Self::stand_in_for`]) found its layout outdated in a pass. Free.
    pub(crate) fn is_stand_in_outdated(&self) -> bool {
        self.role == ViewRole::OutdatedStandIn
    }

    /// Takes back from `stand_in` what a pass may have changed while it stood in for this view
    /// (the mode and collapse a click toggled, where the readout was drawn), and the buffers of
    /// the layout it drew, for the next layout. `stand_in` is left empty, to stand in again.
    pub(crate) fn take_over_from(&mut self, stand_in: &mut Self) {
        debug_assert!(stand_in.is_standing_in(), "taken over from a stand-in");
        stand_in.role = ViewRole::Own;
        self.mode = stand_in.mode;
        self.collapsed = stand_in.collapsed;
        self.shown = stand_in.shown;
        self.readout_reach = stand_in.readout_reach;
        self.interact_radius = stand_in.interact_radius;
        if self.hover.is_none() {
            self.hover = stand_in.hover.take();
        }
        stand_in.hover = None;
        self.last_place = None;
        stand_in.atlas_sentinel = None;
        let drawn = stand_in.layout.take().map(|layout| layout.mesh);
        self.recycle_meshes(drawn);
    }

    /// Whether a layout is to be made off the UI thread ([`Relayout::OffThread`]) before the
    /// next pass. Free.
    pub(crate) fn has_layout_due(&self) -> bool {
        self.due_off_thread.is_some()
    }

    /// Makes the layout [`Self::has_layout_due`] says is due, from the kept text alone: on the
    /// layout worker's thread, or on the UI thread when no worker runs. Text not kept yet (a
    /// row's new name; a character of a fallback font) leaves no layout: the next pass lays
    /// the HUD out on the UI thread, with egui's fonts. Does not touch egui's `Context`.
    pub(crate) fn lay_out_due(&mut self) {
        let Some(look) = self.due_off_thread.take() else {
            return;
        };
        self.lay_out_with(Shaping::KeptOnly, &look);
        if self.text.take_lacked_text() {
            self.forget_layout();
        } else {
            self.outdated = false;
        }
    }

    /// Draws the HUD laid out by [`Self::prepare`] with `painter` (on the HUD's layer), its
    /// top-left corner at `origin`; its widgets sense clicks and hovers under `ids`.
    pub(crate) fn draw(
        &mut self,
        painter: &egui::Painter,
        widgets: &mut LayerWidgets<'_>,
        origin: egui::Pos2,
        ids: &HudIds,
    ) {
        let (mode, hover) = (self.mode, self.hover.as_deref());
        let Some(layout) = &mut self.layout else {
            debug_assert!(false, "prepare lays the HUD out before it is drawn");
            return;
        };
        if layout.at != origin {
            // Moved in place: egui let go of the last pass's mesh when it tessellated it, so
            // nothing is copied (unless a pass of the same frame still holds it). Moved from
            // the origin, the vertices are the ones a copy moved there would have; moved again
            // between refreshes (a resized window), within a rounding of them until the next
            // refresh lays the HUD out again.
            Arc::make_mut(&mut layout.mesh).translate(origin - layout.at);
            layout.at = origin;
        }
        let mesh = Arc::clone(&layout.mesh);
        if mesh.vertices.len() >= OWN_MESH_MIN_VERTICES {
            // Clipped to itself (and a point for the backdrop's anti-aliased edge), the HUD
            // starts a mesh of its own in egui's tessellator instead of being appended to the
            // app's.
            let bounds = egui::Rect::from_min_size(origin, layout.size).expand(1.0);
            painter
                .with_clip_rect(bounds.intersect(painter.clip_rect()))
                .add(egui::Shape::Mesh(mesh));
        } else {
            painter.add(egui::Shape::Mesh(mesh));
        }
        let body = widgets.widget(
            egui::Rect::from_min_size(origin, layout.size),
            ids.body,
            Sense::hover(),
        );
        if !layout.rows_text.is_empty() {
            body.widget_info(|| egui::WidgetInfo::labeled(Role::Label, true, &layout.rows_text));
        }
        let readout_on_screen = layout.readout.translate(origin.to_vec2());
        self.readout_reach = Some(readout_on_screen.expand(self.interact_radius));
        let readout = widgets.widget(readout_on_screen, ids.readout, Sense::click());
        readout.widget_info(|| {
            let mut info = egui::WidgetInfo::labeled(Role::Button, true, mode.label());
            info.value = layout.value;
            info
        });
        // A closure, not `on_hover_text`: the text is only built into a widget while hovered.
        // Asked only while the pointer is over the readout: egui's tooltip machinery costs a
        // few µs a frame even when it shows nothing, and this tooltip holds no widgets to move
        // into.
        if readout.contains_pointer()
            && let Some(hover) = hover
        {
            readout.on_hover_ui(|ui| {
                ui.label(hover);
            });
        }
        if let Some(details) = layout.details {
            let control = widgets.widget(
                details.translate(origin.to_vec2()),
                ids.details,
                Sense::click(),
            );
            control.widget_info(|| egui::WidgetInfo::labeled(Role::Button, true, DETAILS_LABEL));
            self.details_clicked |= control.clicked();
        }
    }

    fn ensure_layout(
        &mut self,
        painter: &egui::Painter,
        dark_mode: bool,
        palette: HudPalette,
        relayout: Relayout,
    ) {
        let pixels_per_point = painter.pixels_per_point();
        // An empty job: found in egui's cache without a `String` or a section to allocate.
        let (font_image_size, sentinel) = painter.ctx().fonts_mut(|fonts| {
            let sentinel = fonts.layout_job(egui::text::LayoutJob::default());
            (fonts.font_image_size(), sentinel)
        });
        let atlas_kept = self
            .atlas_sentinel
            .as_ref()
            .is_some_and(|kept| Arc::ptr_eq(kept, &sentinel));
        self.atlas_sentinel = Some(sentinel);
        let look = (dark_mode, pixels_per_point, font_image_size);
        let same_look = atlas_kept && self.look == Some(look);
        self.look = Some(look);
        let same_shape = self.layout.as_ref().is_some_and(|l| {
            l.mode == self.mode && l.collapsed == self.collapsed && l.shown == self.shown
        });
        if same_look && same_shape && !self.outdated {
            return;
        }
        if self.role != ViewRole::Own {
            // Drawn as it is, once; the owner takes the view it stands for back (see
            // `ViewHome`).
            self.role = ViewRole::OutdatedStandIn;
            return;
        }
        let layout_look = LayoutLook {
            made_for: (
                pixels_per_point,
                painter.ctx().tessellation_options(|o| *o),
                font_image_size,
            ),
            palette,
        };
        let only_readouts = same_look && same_shape;
        self.lay_out_anew(painter, (only_readouts, relayout), same_look, &layout_look);
    }

    /// [`Self::ensure_layout`]'s work when the layout must be made again (a refresh, a click,
    /// another look): kept out of line, so that the check every frame makes stays a few
    /// instruction lines instead of running through this code's (the HUD's frames between
    /// refreshes run with cold caches in a real window). New readouts alone, with
    /// [`Relayout::OffThread`], are left for [`Self::lay_out_due`].
    #[cold]
    #[inline(never)]
    fn lay_out_anew(
        &mut self,
        painter: &egui::Painter,
        (only_readouts, relayout): (bool, Relayout),
        same_look: bool,
        look: &LayoutLook,
    ) {
        if only_readouts && relayout == Relayout::OffThread {
            // This pass draws the last refresh's layout.
            self.due_off_thread = Some(*look);
            return;
        }
        if !same_look {
            self.text.clear();
            self.text.lay_out_common(
                painter,
                &[
                    (FontId::monospace(NUMBER_SIZE), CharacterSet::Number),
                    (
                        FontId::monospace(COLLAPSED_NUMBER_SIZE),
                        CharacterSet::Number,
                    ),
                    (row_font(), CharacterSet::Text),
                    (small_font(), CharacterSet::Text),
                ],
            );
        }
        // Laid out here: a layout due off the UI thread is not made there too.
        self.due_off_thread = None;
        self.lay_out_with(Shaping::Fonts(painter), look);
        self.outdated = false;
    }

    /// Lays the HUD out anew for `look`, its text through `shaping`.
    fn lay_out_with(&mut self, shaping: Shaping<'_>, look: &LayoutLook) {
        self.format_rows();
        let LayoutLook { made_for, palette } = *look;
        // Where the last layout was drawn, and its size: the new one is drawn there too if it
        // is as large (see below).
        let last_place = self
            .layout
            .as_ref()
            .map(|last| (last.at, last.size))
            .or(self.last_place.take());
        let (pixels_per_point, options, font_image_size) = made_for;
        let hairline = hairline_width(pixels_per_point, &options);
        let mut tessellator = match self.scratch.tessellator.take() {
            Some(kept) if kept.made_for == made_for => kept,
            _ => KeptTessellator {
                made_for,
                tessellator: egui::epaint::Tessellator::new(
                    pixels_per_point,
                    options,
                    font_image_size,
                    Vec::new(), // no circles
                ),
                backdrop: None,
            },
        };
        // A layout dropped for another mode, rows or look gives its buffers back here.
        self.forget_layout();
        let mut shapes = std::mem::take(&mut self.scratch.shapes);
        let mut text = std::mem::take(&mut self.text);
        let quads = TextQuads::new(pixels_per_point, &options, font_image_size);
        let mut pen = Pen {
            shaping,
            palette: &palette,
            text: &mut text,
            hairline,
            placed: PlacedText::in_buffers(
                quads,
                std::mem::take(&mut self.scratch.text_mesh),
                self.mesh_size,
            ),
            line: std::mem::take(&mut self.scratch.line),
        };
        let mesh = std::mem::take(&mut self.scratch.mesh);
        let mut plot_line = std::mem::take(&mut self.scratch.plot_line);
        let (mut layout, text_mesh) = self.lay_out(
            &mut pen,
            &mut tessellator,
            (&mut shapes, &mut plot_line),
            mesh,
        );
        self.scratch.plot_line = plot_line;
        self.scratch.tessellator = Some(tessellator);
        self.scratch.shapes = shapes;
        self.scratch.text_mesh = text_mesh;
        self.scratch.line = std::mem::take(&mut pen.line);
        self.scratch.rows_text_bytes = layout.rows_text.len();
        self.mesh_size = (layout.mesh.vertices.len(), layout.mesh.indices.len());
        if let Some((at, size)) = last_place
            && size == layout.size
            && let Some(mesh) = Arc::get_mut(&mut layout.mesh)
        {
            // Moved here, while the vertices are in this thread's cache, to where the HUD was
            // drawn (a HUD of the same size is drawn at the same place): off the UI thread, the
            // draw would otherwise move them through cold cache lines, about 6 µs on lavapipe.
            mesh.translate(at.to_vec2());
            layout.at = at;
        }
        self.layout = Some(layout);
        self.text = text;
    }

    /// Lays the HUD out from its top-left corner and tessellates it into one mesh, written in
    /// `mesh`'s buffers (empty). `shapes` is empty, and left empty (its room kept for the next
    /// layout). Returns the layout and the emptied buffers the text was placed in.
    fn lay_out(
        &self,
        pen: &mut Pen<'_>,
        tessellator: &mut KeptTessellator,
        (shapes, plot_line): (&mut Vec<egui::Shape>, &mut PlotLine),
        mut mesh: egui::Mesh,
    ) -> (Layout, egui::Mesh) {
        debug_assert!(shapes.is_empty(), "the last layout left its shapes empty");
        let readout = self.readout_text(pen);
        let mut rows_text = String::with_capacity(self.scratch.rows_text_bytes);
        let mut details = None;
        let mut bottom = readout.max.y;
        let mut width = readout.width();
        if !self.collapsed {
            if !self.shown.rows().is_empty() {
                width = width.max(CONTENT_WIDTH);
            }
            // The chosen rows in their order; notes (an export's outcome) last, whatever rows.
            for kind in self.shown.rows().iter().copied().map(Some).chain([None]) {
                let (rows_bottom, rows_width) =
                    self.row_shapes(pen, bottom, kind, shapes, &mut rows_text);
                bottom = rows_bottom;
                width = width.max(rows_width);
                match kind {
                    Some(HudRow::Latency) => {
                        bottom = self.latency_shapes(pen, bottom, shapes);
                    }
                    Some(HudRow::Plot) => {
                        let control;
                        (bottom, control) = self.plot_and_control(pen, bottom, (shapes, plot_line));
                        details = Some(control);
                    }
                    _ => {}
                }
            }
        }
        let size = vec2(width + 2.0 * MARGIN, bottom + MARGIN);
        let backdrop = egui::epaint::RectShape::new(
            egui::Rect::from_min_size(egui::Pos2::ZERO, size),
            6,
            pen.palette.backdrop,
            // A full point: at the hairline width egui would paint the border as a ridge that
            // reaches a pixel outside the backdrop.
            Stroke::new(1.0, pen.palette.border),
            egui::StrokeKind::Inside,
        );
        debug_assert!(mesh.is_empty(), "the layout is written in emptied buffers");
        mesh.vertices.reserve(self.mesh_size.0);
        mesh.indices.reserve(self.mesh_size.1);
        tessellator.backdrop_into(backdrop, &mut mesh);
        // The text last: nothing else is drawn over it.
        let (mut text, other_text) = pen.placed.take();
        for shape in shapes.drain(..) {
            tessellator.tessellator.tessellate_shape(shape, &mut mesh);
        }
        // The plot's line over its ticks and budget line, under the text.
        if !plot_line.ridge_into(tessellator.feathering_points(), &mut mesh) {
            tessellator
                .tessellator
                .tessellate_shape(plot_line.shape(), &mut mesh);
        }
        // Emptied for the next layout, which may show no plot (only the plot's row restarts it).
        plot_line.restart(0.0, egui::Color32::TRANSPARENT);
        for shape in other_text {
            tessellator.tessellator.tessellate_shape(shape, &mut mesh);
        }
        mesh.append_ref(&text);
        empty_keeping_room(&mut text);
        let layout = Layout {
            mode: self.mode,
            collapsed: self.collapsed,
            shown: self.shown,
            size,
            readout,
            details,
            rows_text,
            value: self.main_value(),
            mesh: Arc::new(mesh),
            at: egui::Pos2::ZERO,
        };
        (layout, text)
    }

    /// The main readout: the big number and its label, at the top-left. Returns its rectangle.
    fn readout_text(&self, pen: &mut Pen<'_>) -> egui::Rect {
        let palette = pen.palette;
        let number_font = FontId::monospace(if self.collapsed {
            COLLAPSED_NUMBER_SIZE
        } else {
            NUMBER_SIZE
        });
        pen.line.clear();
        match self.main_value() {
            Some(value) => {
                let _ = write!(pen.line, "{}", FpsText(value));
            }
            None => pen.line.push_str("--"),
        }
        let label = pen
            .text
            .word(pen.shaping, self.mode.label(), &FontId::monospace(10.0));
        let label_size = label
            .as_ref()
            .map_or(egui::Vec2::ZERO, |label| label.size());
        let number = pen.text.place(
            pen.shaping,
            &pen.line,
            &number_font,
            (pos2(MARGIN, MARGIN), palette.text),
            &mut pen.placed,
        );
        let readout = egui::Rect::from_min_size(
            pos2(MARGIN, MARGIN),
            vec2(number.x + LABEL_GAP + label_size.x, number.y),
        );
        let label_pos = pos2(
            readout.min.x + number.x + LABEL_GAP,
            readout.max.y - label_size.y - 3.0,
        );
        if let Some(label) = label {
            pen.placed.galley(label_pos, label, palette.dim);
        }
        readout
    }

    /// Drops the layout (the next `prepare` lays the HUD out again), keeping its mesh's
    /// buffers for the next layout: egui let go of its copy when it tessellated the pass the
    /// mesh was drawn in, so between frames it is the view's alone. A mesh egui may still hold
    /// (see [`LayoutScratch::retired_mesh`]) is kept, and its buffers taken back by the next
    /// layout.
    fn forget_layout(&mut self) {
        let dropped = self.layout.take().map(|layout| layout.mesh);
        self.recycle_meshes(dropped);
    }

    /// Takes the buffers of `dropped` (a layout's mesh) and of the retired mesh for the next
    /// layout, keeping what egui still holds (see [`Self::forget_layout`]).
    fn recycle_meshes(&mut self, dropped: Option<Arc<egui::Mesh>>) {
        let retired = self.scratch.retired_mesh.take();
        for mesh in retired.into_iter().chain(dropped) {
            match Arc::try_unwrap(mesh) {
                Ok(mut mesh) => {
                    // The larger buffers are kept, the others freed.
                    if mesh.vertices.capacity() > self.scratch.mesh.vertices.capacity() {
                        empty_keeping_room(&mut mesh);
                        self.scratch.mesh = mesh;
                    }
                }
                Err(held) => self.scratch.retired_mesh = Some(held),
            }
        }
    }

    /// The frame-time plot below `top`, its scale, and the control that opens the details
    /// window under it. Returns the bottom and the control's rectangle.
    fn plot_and_control(
        &self,
        pen: &mut Pen<'_>,
        top: f32,
        (shapes, plot_line): (&mut Vec<egui::Shape>, &mut PlotLine),
    ) -> (f32, egui::Rect) {
        let plot = egui::Rect::from_min_size(
            pos2(MARGIN, top + SPACING.y),
            vec2(CONTENT_WIDTH, PLOT_HEIGHT),
        );
        self.plot_shapes(plot, pen, (shapes, plot_line));
        pen.line.clear();
        if let Ok(scale) = Duration::try_from_secs_f64(f64::from(self.plot_top_millis) / 1e3) {
            let _ = write!(pen.line, "{}", DurationText(scale));
        }
        pen.text.place(
            pen.shaping,
            &pen.line,
            &small_font(),
            (plot.min, pen.palette.dim),
            &mut pen.placed,
        );
        let size = pen.text.place(
            pen.shaping,
            DETAILS_LABEL,
            &small_font(),
            (pos2(MARGIN, plot.max.y + 2.0), pen.palette.dim),
            &mut pen.placed,
        );
        let control = egui::Rect::from_min_size(pos2(MARGIN, plot.max.y + 2.0), size);
        (control.max.y, control)
    }

    /// Lays the rows out below `top`: each name, its value and, for a GPU pass, its budget
    /// bar; collects their text for screen readers. Returns the bottom of the last row and the
    /// widest row's width.
    fn row_shapes(
        &self,
        pen: &mut Pen<'_>,
        top: f32,
        kind: Option<HudRow>,
        shapes: &mut Vec<egui::Shape>,
        rows_text: &mut String,
    ) -> (f32, f32) {
        let Pen {
            shaping,
            palette,
            text,
            hairline,
            placed,
            ..
        } = pen;
        let (mut bottom, mut width) = (top, 0.0_f32);
        let font = row_font();
        let advance = text.measure(*shaping, " ", &font).x;
        for row in self.rows.as_slice().iter().filter(|row| row.kind == kind) {
            let pos = pos2(MARGIN, bottom + SPACING.y);
            // Placed a character at a time, like the values: the name column is monospace, so
            // a name needs no galley of its own (nor the padded string a galley would need).
            let (indent, name_chars) = name_column(row);
            #[expect(clippy::cast_precision_loss, reason = "a column of a few characters")]
            let column = advance * (indent + name_chars) as f32;
            #[expect(clippy::cast_precision_loss, reason = "an indent of a few characters")]
            let name_at = pos2(pos.x + advance * indent as f32, pos.y);
            let name = text.place(*shaping, &row.name, &font, (name_at, palette.dim), placed);
            let value = text.place(
                *shaping,
                &row.value,
                &font,
                (pos2(pos.x + column, pos.y), palette.grade(row.grade)),
                placed,
            );
            let height = name.y.max(value.y);
            width = width.max(column + value.x);
            if let Some(fraction) = row.budget_fraction {
                let left = pos.x + column + value.x + SPACING.x;
                width = width.max(left - pos.x + BAR_WIDTH * 1.5);
                let colour = if fraction <= 1.0 {
                    palette.within
                } else {
                    palette.far_over
                };
                shapes.push(egui::Shape::rect_filled(
                    egui::Rect::from_min_size(
                        pos2(left, pos.y + height / 2.0 - 2.0),
                        vec2(BAR_WIDTH * fraction.clamp(0.0, 1.5), 4.0),
                    ),
                    1.0,
                    colour,
                ));
                shapes.push(egui::Shape::vline(
                    left + BAR_WIDTH,
                    pos.y..=pos.y + height,
                    Stroke::new(*hairline, palette.dim),
                ));
            }
            if !rows_text.is_empty() {
                rows_text.push('\n');
            }
            rows_text.push_str(&row.name);
            rows_text.extend(std::iter::repeat_n(
                ' ',
                name_chars - row.name.chars().count(),
            ));
            rows_text.push_str(&row.value);
            bottom = pos.y + height;
        }
        (bottom, width)
    }

    /// The latency bar below `top`: one segment per stage, as wide as its median's share of
    /// the path, and a legend of the stages in their colours. Returns its bottom.
    fn latency_shapes(&self, pen: &mut Pen<'_>, top: f32, shapes: &mut Vec<egui::Shape>) -> f32 {
        let Pen {
            shaping,
            palette,
            text,
            placed,
            line,
            ..
        } = pen;
        let total: Duration = self.latency_p50.iter().map(|&(_, p50)| p50).sum();
        if self.latency_p50.is_empty() {
            return top;
        }
        let bar = egui::Rect::from_min_size(pos2(MARGIN, top + 3.0), vec2(CONTENT_WIDTH, 5.0));
        let mut left = bar.min.x;
        let colour = |stage: LatencyStage| {
            let index = LatencyStage::ALL
                .iter()
                .filter(|s| s.is_on_latency_path())
                .position(|&s| s == stage)
                .unwrap_or(0);
            palette.stages.get(index).copied().unwrap_or(palette.dim)
        };
        for &(stage, p50) in &self.latency_p50 {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "a bar segment needs no f64 precision"
            )]
            let share = (p50.as_secs_f64() / total.as_secs_f64().max(1e-9)) as f32;
            let right = left + bar.width() * share;
            shapes.push(egui::Shape::rect_filled(
                egui::Rect::from_min_max(pos2(left, bar.min.y), pos2(right, bar.max.y)),
                0.0,
                colour(stage),
            ));
            left = right;
        }
        // Legend: "stage p50" in the stage's colour, wrapped to the content width.
        let font = small_font();
        let (mut x, mut y, mut line_height) = (bar.min.x, bar.max.y + 2.0, 0.0_f32);
        for &(stage, p50) in &self.latency_p50 {
            line.clear();
            let _ = write!(line, "{} {}", stage.name(), DurationText(p50));
            let size = text.measure(*shaping, line, &font);
            if x > bar.min.x && x + size.x > bar.max.x {
                (x, y) = (bar.min.x, y + line_height);
            }
            text.place(*shaping, line, &font, (pos2(x, y), colour(stage)), placed);
            x += size.x + 2.0 * SPACING.x;
            line_height = line_height.max(size.y);
        }
        y + line_height
    }

    /// The retained draw times as a line, newest on the right, scaled to fit them, with the
    /// budget as a horizontal line when it is in range. Painted directly: egui_plot costs 11.6
    /// µs per frame here against 6.4 µs for the painter (measured by `benches/hud_cost.rs`),
    /// allocates and senses input every frame, and puts its box zoom on the right button the
    /// HUD uses.
    fn plot_shapes(
        &self,
        rect: egui::Rect,
        pen: &Pen<'_>,
        (shapes, line): (&mut Vec<egui::Shape>, &mut PlotLine),
    ) {
        let (palette, hairline) = (pen.palette, pen.hairline);
        let y_of =
            |ms: f32| rect.bottom() - (ms / self.plot_top_millis).clamp(0.0, 1.0) * rect.height();
        shapes.push(egui::Shape::hline(
            rect.x_range(),
            rect.bottom(),
            Stroke::new(hairline, palette.border),
        ));
        if self.plot_budget_millis <= self.plot_top_millis {
            shapes.push(egui::Shape::hline(
                rect.x_range(),
                y_of(self.plot_budget_millis),
                Stroke::new(hairline, palette.over),
            ));
        }
        line.restart(hairline, palette.plot_line);
        if self.plot_millis.len() < 2 {
            return;
        }
        #[expect(
            clippy::cast_precision_loss,
            reason = "at most a few thousand plot points"
        )]
        let step = rect.width() / (self.plot_millis.len() - 1) as f32;
        for (i, &ms) in self.plot_millis.iter().enumerate() {
            #[expect(
                clippy::cast_precision_loss,
                reason = "at most a few thousand plot points"
            )]
            let x = rect.left() + step * i as f32;
            line.push(pos2(x, y_of(ms)));
        }
        // Spikes: a short tick above their point (drawn under the line).
        for &index in &self.spike_marks {
            if let Some(point) = line.points().get(index) {
                shapes.push(egui::Shape::vline(
                    point.x,
                    rect.top()..=point.y.max(rect.top() + 3.0),
                    Stroke::new(hairline, palette.far_over),
                ));
            }
        }
    }
}

/// Empties `mesh` and keeps its buffers (`Mesh::clear` drops the vertices' buffer).
fn empty_keeping_room(mesh: &mut egui::Mesh) {
    mesh.vertices.clear();
    mesh.indices.clear();
}

/// The width of the HUD's lines (plot, ticks), in points: just under one feathering
/// width, so egui's tessellator paints each as its anti-aliased ridge, two physical pixels
/// wide at 90 % opacity: 3 vertices and 12 indices a point. At 1 point wide it paints the same
/// ridge at full opacity from 4 vertices and 18 indices (its core has no width at 1×). The
/// HUD's mesh is copied, uploaded and drawn every frame; measured at 1×, this took the compact
/// HUD from 872 vertices and 3336 indices to 750 and 2568 (18 % fewer bytes), the full one from
/// 1496 and 4290 to 1376 and 3540 (11 %). On a 2× display the lines are half as wide as a
/// point would be: one physical pixel, as other HUDs draw their graphs. Without feathering, a
/// line one physical pixel wide.
fn hairline_width(pixels_per_point: f32, options: &egui::epaint::TessellationOptions) -> f32 {
    if options.feathering {
        // 0.9 times egui's feathering as egui computes it, so that egui's test for a thin line
        // (`width <= 0.9 * feathering`) holds to the bit: `(0.9 * size) * pixel` can come out
        // one ulp above (1.25 at 1.25×, 0.7 at 1.5×).
        0.9 * feathering_points(pixels_per_point, options)
    } else {
        1.0 / pixels_per_point
    }
}

/// The feathering egui's tessellator paints with at `pixels_per_point`, in points (0 when off):
/// egui's own expression, so that what is compared with it (the hairline) and built from it
/// (the plot's ridge, `view/plot_line.rs`) is egui's to the bit.
fn feathering_points(pixels_per_point: f32, options: &egui::epaint::TessellationOptions) -> f32 {
    if options.feathering {
        options.feathering_size_in_pixels * (1.0 / pixels_per_point)
    } else {
        0.0
    }
}

/// The rows' font: monospace, so the name column lines the values up.
fn row_font() -> FontId {
    FontId::monospace(11.0)
}

/// The plot's scale, the details control and the latency legend.
fn small_font() -> FontId {
    FontId::monospace(9.0)
}

/// The big number's size, in points, expanded and collapsed.
const NUMBER_SIZE: f32 = 26.0;
const COLLAPSED_NUMBER_SIZE: f32 = 14.0;

/// A row's name column, in characters: its indent (a GPU pass is indented) and the name
/// padded to the column (at least one space after it).
fn name_column(row: &ReadoutRow) -> (usize, usize) {
    let indent = if row.indented { 2 } else { 0 };
    let name_chars = NAME_COLUMN_CHARS
        .saturating_sub(indent)
        .max(row.name.chars().count() + 1);
    (indent, name_chars)
}

/// The benchmark's rows, shown whatever rows are chosen: the countdown, the recording, or the
/// finished run's summary card.
fn push_benchmark_rows(rows: &mut FormattedRows, benchmark: &BenchmarkStatus) {
    let summary = match benchmark {
        BenchmarkStatus::Countdown { seconds_left } => {
            rows.push(ReadoutRow::note(
                "BENCH",
                format!("starts in {seconds_left:.0} s"),
            ));
            return;
        }
        BenchmarkStatus::Recording { seconds_left } => {
            rows.push(ReadoutRow::note(
                "BENCH",
                format!("recording, {seconds_left:.0} s left"),
            ));
            return;
        }
        BenchmarkStatus::Done(summary) => summary,
    };
    let fps = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.0}"));
    let ms3 = |p: Option<profiler_core::MillisPercentiles>| {
        p.map_or_else(
            || "—".to_owned(),
            |p| format!("{:.1}/{:.1}/{:.1}", p.p50, p.p95, p.p99),
        )
    };
    rows.push(ReadoutRow::note(
        "BENCH",
        format!("{:.1} s · {} frames", summary.seconds, summary.frames),
    ));
    rows.push(ReadoutRow::note(
        " fps",
        format!(
            "{} · 1% {} · 0.1% {}",
            fps(summary.avg_fps),
            fps(summary.low_1_percent_fps),
            fps(summary.low_0_1_percent_fps)
        ),
    ));
    rows.push(ReadoutRow::note(" frame", ms3(summary.frame)));
    rows.push(ReadoutRow::note(" intvl", ms3(summary.interval)));
    let hitch = summary
        .hitch_ms_per_s
        .map_or_else(|| "—".to_owned(), |h| format!("{h:.1} ms/s"));
    let miss = summary
        .miss_share
        .map_or_else(|| "—".to_owned(), |m| format_percent(m * 100.0));
    rows.push(ReadoutRow::note(" hitch", format!("{hitch} · miss {miss}")));
    let per_frame = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.2}"));
    rows.push(ReadoutRow::note(
        " cpu/gpu",
        format!(
            "{}/{} ms",
            per_frame(summary.cpu_ms_per_frame),
            per_frame(summary.gpu_ms_per_frame)
        ),
    ));
    let worst = summary
        .worst_spike_ms
        .map_or_else(String::new, |w| format!(" · worst {w:.1} ms"));
    rows.push(ReadoutRow::note(
        " spikes",
        format!("{}{worst}", summary.spikes),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::hud_preset::HudPreset;
    use crate::view::readout_hover::ReadoutHover;

    /// The hairline is thin by egui's own test (`width <= 0.9 * feathering`, feathering as its
    /// tessellator computes it) at every scale and feathering size, so that the plot's line is
    /// painted as a ridge: its vertices are counted on that (`view/plot_line.rs`).
    #[test]
    fn the_hairline_is_thin_by_egui_s_test() {
        for feathering_size_in_pixels in [0.5, 0.7, 1.0, 1.25, 1.5, 2.0] {
            for pixels_per_point in [0.5, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0] {
                let options = egui::epaint::TessellationOptions {
                    feathering_size_in_pixels,
                    ..Default::default()
                };
                // egui's `Tessellator::new`, written out: the test does not trust the helper.
                let feathering = feathering_size_in_pixels * (1.0 / pixels_per_point);
                let width = hairline_width(pixels_per_point, &options);
                assert!(
                    width <= 0.9 * feathering,
                    "{feathering_size_in_pixels} px at {pixels_per_point}x: {width} > 0.9 × {feathering}"
                );
            }
        }
    }

    /// The plot marks the retained frames that were kept as spikes, and only those: here 29 spikes,
    /// 13 more than the log keeps (the oldest and least bad are dropped), some of them
    /// still retained, and frames added out of start order, as frames waiting for GPU results
    /// complete after later ones.
    #[test]
    fn the_plot_marks_the_retained_frames_kept_as_spikes() {
        use profiler_core::record::frame_trace::FrameTrace;
        use profiler_core::record::spike_threshold::SpikeThreshold;
        let budget = Duration::from_millis(10);
        let mut log = FrameLog::new(80, SpikeThreshold::After(budget));
        let slow = |n: u64| n % 7 == 3;
        let mut order: Vec<u64> = (0..200).collect();
        for pair in order.chunks_exact_mut(2).skip(3).step_by(5) {
            pair.swap(0, 1);
        }
        for &n in &order {
            let mut trace = FrameTrace::new(n, std::time::SystemTime::UNIX_EPOCH);
            trace.marks.frame_start = Some(Duration::from_millis(16 * n));
            // Spikes get worse as they come, so the newest are the worst too.
            trace.draw = if slow(n) {
                Duration::from_millis(20 + n)
            } else {
                Duration::from_millis(4)
            };
            log.add(trace, budget);
        }
        let mut view = HudView::default();
        view.set_readouts(
            Arc::new(Snapshot::empty(
                profiler_core::FrameBudget::new(None).expect("no pin"),
            )),
            None,
        );
        view.set_notes(&log, None, None);
        let kept: Vec<Duration> = log.spikes().iter().map(|s| s.at).collect();
        let expected: Vec<usize> = log
            .retained()
            .iter()
            .enumerate()
            .filter(|(_, t)| t.marks.frame_start.is_some_and(|at| kept.contains(&at)))
            .map(|(index, _)| index)
            .collect();
        assert!(
            expected.len() >= 5,
            "spikes among the retained frames: {expected:?}"
        );
        assert_eq!(view.spike_marks, expected);
        let retained_slow = log.retained().iter().filter(|t| slow(t.sequence)).count();
        assert_eq!(view.spike_marks.len(), retained_slow.min(kept.len()));
    }

    /// The hover text for `snapshot`, as built while the pointer is over the readout.
    fn hover_of(snapshot: &Snapshot, unavailable_passes: &[&'static str]) -> String {
        ReadoutHover {
            snapshot,
            why: None,
            unavailable_passes,
            log: None,
        }
        .text()
    }

    impl HudView {
        /// The rows, formatted from what was set since the last layout.
        fn formatted_rows(&mut self) -> &FormattedRows {
            self.format_rows();
            &self.rows
        }
    }

    /// `view` with its due layout made on a thread of its own, as the layout worker makes it.
    fn laid_out_on_another_thread(mut view: Box<HudView>) -> Box<HudView> {
        std::thread::Builder::new()
            .name("layout".to_owned())
            .spawn(move || {
                view.lay_out_due();
                view
            })
            .expect("a thread")
            .join()
            .expect("the layout thread ran")
    }

    /// The HUD's mesh after one pass that draws `view`.
    fn drawn_mesh(ctx: &egui::Context, view: &mut HudView) -> Arc<egui::Mesh> {
        mesh_drawn_with(ctx, view, Relayout::InThisPass)
    }

    #[test]
    fn displayed_has_a_row_with_presentations_and_the_hover_says_why_without() {
        let mut snapshot =
            Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pinned budget"));
        snapshot.frame = Some(Duration::from_millis(4));
        snapshot.presentation_unavailable = Some(Arc::from(
            "the renderer draws this window without the Present extension",
        ));
        let mut view = HudView::default();
        view.set_rows(RowList::new(&HudRow::ALL));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let hover = hover_of(&snapshot, &[]);
        assert!(
            view.formatted_rows()
                .as_slice()
                .iter()
                .all(|row| row.name != "DISPLAYED"),
            "no presentation times, no row"
        );
        assert!(
            hover.contains("DISPLAYED: no presentation times: the renderer draws this window"),
            "the hover says why: {hover}"
        );

        snapshot.presentation_unavailable = None;
        snapshot.presentation = Some(profiler_core::PresentationReading {
            source: "Wayland presentation-time",
            frames_shown: 118,
            frames_discarded: 1,
            frames_skipped: 0,
            frames_unknown: 1,
            displayed_p50: Some(Duration::from_micros(16_667)),
            displayed_p95: Some(Duration::from_micros(33_333)),
            displayed_fps: Some(59.5),
            displayed_frames: 117,
            missed_refreshes: 2,
            missed_frames: Some(0.017),
            refresh_period: Some(Duration::from_micros(16_667)),
            flags: profiler_core::presentation::PresentationFlags::VSYNC,
        });
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let hover = hover_of(&snapshot, &[]);
        let row = view
            .formatted_rows()
            .as_slice()
            .iter()
            .find(|row| row.name == "DISPLAYED")
            .expect("a DISPLAYED row");
        assert_eq!(row.value, "16.7 ms · 59.5");
        for part in [
            "MsBetweenDisplayChange",
            "from Wayland presentation-time: 118 shown, 1 discarded, 0 skipped, 1 not reported",
            "vsync",
        ] {
            assert!(hover.contains(part), "the hover has {part:?}: {hover}");
        }
    }

    #[test]
    fn a_pass_that_cannot_be_timed_has_no_row_and_the_hover_says_why() {
        let mut snapshot =
            Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pinned budget"));
        snapshot.frame = Some(Duration::from_millis(4));
        let mut view = HudView::default();
        // glow or WebGL: egui's pass cannot be timed, and no GPU time is known.
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let hover = hover_of(&snapshot, &["egui"]);
        assert!(
            view.formatted_rows()
                .as_slice()
                .iter()
                .all(|row| !row.name.contains("GPU") && !row.name.contains("egui")),
            "no GPU row, no egui pass row"
        );
        assert!(
            view.formatted_rows()
                .as_slice()
                .iter()
                .any(|row| row.name.contains("FRAME")),
            "the known readouts have their rows"
        );
        assert!(
            hover.contains("egui's pass cannot be timed here"),
            "the hover says why: {hover}"
        );
    }

    /// A snapshot of three frames a request woke, whose slow part alternates (wake, ui,
    /// gpu of 10/1/1, 1/10/1, 1/1/10 ms), each followed by `after_ms` until the next frame.
    fn alternating_latency(after_ms: u64) -> Snapshot {
        let clock = profiler_core::ManualClock::new();
        let config = profiler_core::SamplerConfig {
            warmup_frames: 0,
            ..profiler_core::SamplerConfig::default()
        };
        let mut sampler =
            profiler_core::FrameSampler::new(config, Arc::new(clock)).expect("valid config");
        let ms = Duration::from_millis;
        for (i, (wake, ui, gpu)) in [(10, 1, 1), (1, 10, 1), (1, 1, 10)].into_iter().enumerate() {
            let request = ms(1000 * (u64::try_from(i).expect("small") + 1));
            let frame_start = request + ms(wake);
            let ui_end = frame_start + ms(ui);
            let gpu_end = ui_end + ms(gpu);
            sampler.record_latency(&profiler_core::LatencyMarks {
                request: Some(request),
                frame_start: Some(frame_start),
                ui_end: Some(ui_end),
                render_start: Some(ui_end),
                encode_end: Some(ui_end),
                gpu_begin: Some(ui_end),
                gpu_end: Some(gpu_end),
                next_frame_start: Some(gpu_end + ms(after_ms)),
                ..profiler_core::LatencyMarks::default()
            });
        }
        sampler.snapshot()
    }

    #[test]
    fn the_latency_row_is_each_frames_request_to_gpu_end_and_idle_is_apart() {
        for after_ms in [4, 4_000] {
            let mut view = HudView::default();
            view.set_rows(RowList::new(&HudRow::ALL));
            let snapshot = alternating_latency(after_ms);
            view.set_readouts(Arc::new(snapshot.clone()), None);
            let hover = hover_of(&snapshot, &[]);
            let row = view
                .formatted_rows()
                .as_slice()
                .iter()
                .find(|row| row.name == "LATENCY")
                .expect("a LATENCY row");
            // Every frame's own request → GPU end is 12 ms; a sum of the stages' medians would
            // read 3 ms (plus `after`).
            assert_eq!(row.value, "12.0 ms · p95 12.0 ms", "after {after_ms} ms");
            assert!(
                view.latency_p50
                    .iter()
                    .all(|&(stage, _)| stage != LatencyStage::AfterGpu),
                "the bar stops at the GPU end"
            );
            assert!(
                hover.contains("request to its GPU end")
                    && hover.contains("the 3 of 3 frames a request woke")
                    && hover
                        .split_once("not latency:")
                        .is_some_and(|(_, apart)| apart.contains("\n  after ")),
                "the hover names the end, the frames and keeps `after` apart: {hover}"
            );
        }
    }

    #[test]
    fn the_plot_line_costs_three_vertices_and_twelve_indices_a_point() {
        // The mesh is copied, uploaded and drawn every frame: its size is the HUD's cost
        // between refreshes. The line is the largest part after the text.
        for pixels_per_point in [1.0, 1.5, 2.0] {
            let ctx = egui::Context::default();
            ctx.set_pixels_per_point(pixels_per_point);
            let mesh_with = |points: usize| {
                let mut view = HudView::default();
                view.set_rows(RowList::new(&[HudRow::Plot]));
                // Level: sharp turns would add path points (egui's miter handling).
                let draws = std::iter::repeat_n(Duration::from_millis(4), points);
                view.set_plot(draws, Duration::from_millis(100)); // the budget line off the plot
                let mesh = drawn_mesh(&ctx, &mut view);
                (mesh.vertices.len(), mesh.indices.len())
            };
            // One point draws no line: the difference is the line alone.
            let (without_vertices, without_indices) = mesh_with(1);
            let (with_vertices, with_indices) = mesh_with(121);
            assert_eq!(
                (
                    with_vertices - without_vertices,
                    with_indices - without_indices
                ),
                (3 * 121, 12 * 120),
                "a ridge of 3 vertices a point, 4 triangles a segment, at {pixels_per_point}x"
            );
        }
    }

    #[test]
    fn a_large_hud_is_a_mesh_of_its_own_after_tessellation() {
        // Appended to the app's mesh, the HUD's vertices would make egui's tessellator grow
        // (and copy) the app's mesh whenever they pass its capacity; clipped to itself, the
        // HUD starts a mesh of its own (one more draw call, no copy of the app's).
        let ctx = egui::Context::default();
        let mut view = HudView::default();
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        let draws = (0..120).map(|i| Duration::from_millis(4 + i % 7));
        view.set_plot(draws, Duration::from_millis(16));
        let ids = HudIds::of(egui::ViewportId::ROOT);
        let mut frame = || {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                for line in 0..20 {
                    ui.label(format!("the app's line {line}"));
                }
                view.prepare(ui.painter(), Relayout::InThisPass);
                let mut widgets = LayerWidgets::new(ui.ctx(), ui.layer_id(), ui.clip_rect());
                view.draw(ui.painter(), &mut widgets, pos2(300.0, 10.0), &ids);
            });
            output.textures_delta.clear(); // nothing paints here
            output
        };
        let _ = frame(); // the layout, and the font atlas
        let output = frame();
        let hud = view.layout.as_ref().expect("laid out");
        let hud_vertices = hud.mesh.vertices.len();
        let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
        let meshes: Vec<usize> = primitives
            .iter()
            .filter_map(|clipped| match &clipped.primitive {
                egui::epaint::Primitive::Mesh(mesh) => Some(mesh.vertices.len()),
                egui::epaint::Primitive::Callback(_) => None,
            })
            .collect();
        assert!(hud_vertices >= OWN_MESH_MIN_VERTICES, "{hud_vertices}");
        assert!(
            meshes.len() >= 2 && meshes.contains(&hud_vertices),
            "the app's mesh and the HUD's {hud_vertices} vertices apart: {meshes:?}"
        );
    }

    /// A snapshot with FRAME 4 ms and P95 6 ms, nothing else.
    fn frame_and_p95_snapshot() -> Snapshot {
        let mut snapshot =
            Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pinned budget"));
        snapshot.frame = Some(Duration::from_millis(4));
        snapshot.p95 = Some(Duration::from_millis(6));
        snapshot
    }

    /// The full HUD's mesh for `snapshot`, from a view laying out for the first time.
    fn full_mesh_afresh(ctx: &egui::Context, snapshot: &Snapshot) -> Arc<egui::Mesh> {
        let mut view = HudView::default();
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        drawn_mesh(ctx, &mut view)
    }

    /// A refresh that leaves the HUD's size as it was copies the backdrop tessellated at the
    /// last one; one that changes the size tessellates it again. Either way the mesh is the
    /// one a view laying out for the first time makes.
    #[test]
    fn a_kept_backdrop_is_the_one_tessellated_afresh() {
        let ctx = egui::Context::default();
        let mut snapshot = frame_and_p95_snapshot();
        let fresh_mesh = |snapshot: &Snapshot| full_mesh_afresh(&ctx, snapshot);
        let kept_backdrop = |view: &HudView| {
            let kept = view
                .scratch
                .tessellator
                .as_ref()
                .expect("a layout made one");
            let (shape, mesh) = kept.backdrop.as_ref().expect("a backdrop was tessellated");
            (shape.rect.size(), mesh.vertices.as_ptr())
        };
        let mut view = HudView::default();
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let _ = drawn_mesh(&ctx, &mut view); // the font atlas
        let (size, made) = kept_backdrop(&view);

        snapshot.frame = Some(Duration::from_millis(5));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let refreshed = drawn_mesh(&ctx, &mut view);
        assert_eq!(
            kept_backdrop(&view),
            (size, made),
            "the same size: the backdrop kept"
        );
        assert!(
            *refreshed == *fresh_mesh(&snapshot),
            "kept, as tessellated afresh"
        );

        snapshot.drop = Some(0.25); // one more row: a taller HUD
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let taller = drawn_mesh(&ctx, &mut view);
        let (taller_size, _) = kept_backdrop(&view);
        assert!(taller_size.y > size.y, "{taller_size:?} after {size:?}");
        assert!(*taller == *fresh_mesh(&snapshot), "made again, as afresh");
    }

    /// The view's mesh as `prepare` with `relayout` leaves it, drawn in one pass.
    fn mesh_drawn_with(
        ctx: &egui::Context,
        view: &mut HudView,
        relayout: Relayout,
    ) -> Arc<egui::Mesh> {
        let ids = HudIds::of(egui::ViewportId::ROOT);
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            view.prepare(ui.painter(), relayout);
            let mut widgets = LayerWidgets::new(ui.ctx(), ui.layer_id(), ui.clip_rect());
            view.draw(ui.painter(), &mut widgets, ui.min_rect().min, &ids);
        });
        output.textures_delta.clear(); // nothing paints here
        let layout = view.layout.as_ref().expect("laid out");
        Arc::clone(&layout.mesh)
    }

    /// New readouts with `Relayout::OffThread`: the pass draws the last refresh's mesh, and
    /// the layout made on another thread after it (from the kept text alone) is the mesh a view
    /// laying out for the first time makes in its pass; the next pass draws it without laying
    /// out again.
    #[test]
    fn a_layout_made_off_the_ui_thread_is_the_one_made_in_the_pass() {
        let ctx = egui::Context::default();
        let mut snapshot = frame_and_p95_snapshot();
        let mut view = Box::new(HudView::default());
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let first = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        assert!(
            !view.has_layout_due(),
            "the first layout is made in its pass"
        );

        snapshot.frame = Some(Duration::from_millis(5));
        snapshot.drop = Some(0.25); // one more row
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let meanwhile = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        assert!(
            Arc::ptr_eq(&meanwhile, &first),
            "the last refresh's mesh, drawn again"
        );
        assert!(view.has_layout_due(), "the new one is left for the worker");
        drop((first, meanwhile)); // egui's copy went with its pass

        let mut view = laid_out_on_another_thread(view);
        assert!(!view.has_layout_due());
        let laid_out = Arc::clone(&view.layout.as_ref().expect("laid out there").mesh);
        assert!(
            *laid_out == *full_mesh_afresh(&ctx, &snapshot),
            "off the UI thread as in the pass"
        );
        let next = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        assert!(
            Arc::ptr_eq(&next, &laid_out),
            "drawn as made, not made again"
        );
    }

    /// A refresh whose layout is left to the layout thread leaves the formatting of its rows
    /// there too: the UI thread's pass draws the last rows without formatting the new ones.
    /// Fails where `set_readouts` formats at once (stop 49).
    #[test]
    fn rows_are_formatted_where_they_are_laid_out() {
        let ctx = egui::Context::default();
        let frame_row = |view: &HudView| {
            view.rows
                .as_slice()
                .iter()
                .find(|row| row.name == "FRAME")
                .map(|row| row.value.clone())
        };
        let mut snapshot = frame_and_p95_snapshot();
        let mut view = Box::new(HudView::default());
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let _ = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        assert_eq!(frame_row(&view).as_deref(), Some("4.00 ms"));

        snapshot.frame = Some(Duration::from_millis(9));
        view.set_readouts(Arc::new(snapshot), None);
        let _ = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        assert!(view.has_layout_due());
        assert_eq!(
            frame_row(&view).as_deref(),
            Some("4.00 ms"),
            "not formatted in the pass"
        );
        let view = laid_out_on_another_thread(view);
        assert_eq!(
            frame_row(&view).as_deref(),
            Some("9.00 ms"),
            "formatted by the layout"
        );
    }

    /// Text the view has not kept (a character outside those laid out up front) cannot be laid out
    /// off the UI thread: that layout is dropped, and the next pass lays the HUD out with
    /// egui's fonts, as a view laying out for the first time would.
    #[test]
    fn text_not_kept_leaves_the_layout_to_the_next_pass() {
        let ctx = egui::Context::default();
        let snapshot = frame_and_p95_snapshot();
        let mut view = HudView::default();
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let _ = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        view.set_readouts(Arc::new(snapshot.clone()), None);
        // A note with a character the view has not laid out (an export's path).
        view.format_rows();
        let note = view.rows.text(format_args!("saved in ~/Téléchargements"));
        view.rows.push(ReadoutRow::note("EXPORT", note));
        let _ = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        assert!(view.has_layout_due());
        view.lay_out_due();
        assert!(view.layout.is_none(), "a layout lacking text is not shown");
        let mesh = mesh_drawn_with(&ctx, &mut view, Relayout::OffThread);
        let mut expected = HudView::default();
        expected.set_rows(RowList::new(HudPreset::Full.rows()));
        expected.set_readouts(Arc::new(snapshot.clone()), None);
        expected.format_rows();
        let note = expected
            .rows
            .text(format_args!("saved in ~/Téléchargements"));
        expected.rows.push(ReadoutRow::note("EXPORT", note));
        assert!(
            *mesh == *drawn_mesh(&ctx, &mut expected),
            "laid out in the pass"
        );
    }

    /// A refresh lays the HUD out in the buffers of the last layout's mesh, once egui has let
    /// go of it, instead of allocating new ones; while something still holds the last mesh, in
    /// new buffers, leaving that mesh as it was. Either way the mesh is the one a view laying out
    /// for the first time makes.
    #[test]
    fn a_refresh_lays_out_in_the_last_layouts_buffers() {
        let ctx = egui::Context::default();
        let mut snapshot = frame_and_p95_snapshot();
        let fresh_mesh = |snapshot: &Snapshot| full_mesh_afresh(&ctx, snapshot);
        let mut view = HudView::default();
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let _ = drawn_mesh(&ctx, &mut view); // the font atlas
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let laid_out = drawn_mesh(&ctx, &mut view);
        let (buffer, room) = (laid_out.vertices.as_ptr(), laid_out.vertices.capacity());
        drop(laid_out); // as egui does once it has tessellated the pass

        snapshot.frame = Some(Duration::from_millis(5)); // the same number of characters
        view.set_readouts(Arc::new(snapshot.clone()), None);
        // Takes the memory the last mesh would have freed (the allocator hands a freed block
        // of the same size out first), so that a layout in new buffers cannot land there.
        let taken: Vec<egui::epaint::Vertex> = Vec::with_capacity(room);
        let refreshed = drawn_mesh(&ctx, &mut view);
        assert_eq!(
            refreshed.vertices.as_ptr(),
            buffer,
            "laid out in the last layout's buffers"
        );
        assert!(*refreshed == *fresh_mesh(&snapshot), "as laid out afresh");
        drop(taken);

        let held = refreshed; // still held: by an app's clone, or a pass not yet tessellated
        let before = (*held).clone();
        snapshot.frame = Some(Duration::from_millis(7));
        view.set_readouts(Arc::new(snapshot.clone()), None);
        let again = drawn_mesh(&ctx, &mut view);
        assert!(*held == before, "a mesh still held is left as it was");
        assert_ne!(again.vertices.as_ptr(), held.vertices.as_ptr());
        assert!(
            *again == *fresh_mesh(&snapshot),
            "new buffers, as laid out afresh"
        );
    }

    /// Drawn where the app places it, the HUD's mesh is moved in place, not copied: at its
    /// first place its vertices are exactly the laid-out ones moved there; moved again (a
    /// resized window), within a rounding of them.
    #[test]
    fn the_mesh_is_moved_in_place() {
        let ctx = egui::Context::default();
        let mut view = HudView::default();
        view.set_rows(RowList::new(HudPreset::Full.rows()));
        let ids = HudIds::of(egui::ViewportId::ROOT);
        // Draws the view at `at`; returns its mesh as laid out, if it was laid out in the pass.
        let draw_at = |view: &mut HudView, at: egui::Pos2| {
            let mut laid_out = None;
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                view.prepare(ui.painter(), Relayout::InThisPass);
                let layout = view.layout.as_ref().expect("laid out");
                if layout.at == egui::Pos2::ZERO {
                    laid_out = Some((*layout.mesh).clone());
                }
                let mut widgets = LayerWidgets::new(ui.ctx(), ui.layer_id(), ui.clip_rect());
                view.draw(ui.painter(), &mut widgets, at, &ids);
            });
            output.textures_delta.clear(); // nothing paints here
            laid_out
        };
        let mesh_of = |view: &HudView| Arc::clone(&view.layout.as_ref().expect("laid out").mesh);
        let _ = draw_at(&mut view, pos2(0.0, 0.0)); // the font atlas
        view.set_readouts(
            Arc::new(Snapshot::empty(
                profiler_core::FrameBudget::new(None).expect("no pin"),
            )),
            None,
        );
        let laid_out = draw_at(&mut view, pos2(300.0, 10.0)).expect("laid out again");
        let first = mesh_of(&view);
        let mut moved_copy = laid_out.clone();
        moved_copy.translate(vec2(300.0, 10.0));
        assert_eq!(*first, moved_copy, "exactly the copy moved there");
        let vertices = first.vertices.as_ptr();
        drop(first);
        assert!(draw_at(&mut view, pos2(250.0, 40.5)).is_none(), "kept");
        let moved = mesh_of(&view);
        assert_eq!(
            moved.vertices.as_ptr(),
            vertices,
            "moved in place, not copied"
        );
        assert_eq!(moved.indices, laid_out.indices);
        for (moved, laid) in moved.vertices.iter().zip(&laid_out.vertices) {
            let there = laid.pos + vec2(250.0, 40.5);
            assert!(
                (moved.pos - there).length() < 1e-3,
                "{:?} for {there:?}",
                moved.pos
            );
            assert_eq!((moved.uv, moved.color), (laid.uv, laid.color));
        }
    }

    #[test]
    fn the_layout_is_kept_between_passes_and_redone_when_egui_drops_its_galleys() {
        let ctx = egui::Context::default();
        let mut view = HudView::default();
        let first = drawn_mesh(&ctx, &mut view);
        let second = drawn_mesh(&ctx, &mut view);
        assert!(Arc::ptr_eq(&first, &second), "kept while nothing changed");
        // New text options: egui clears the atlas and drops every cached galley, the same path
        // as a full atlas (`Fonts::begin_pass`).
        ctx.all_styles_mut(|style| {
            style.visuals.text_options.font_hinting = !style.visuals.text_options.font_hinting;
        });
        let after = drawn_mesh(&ctx, &mut view);
        assert!(!Arc::ptr_eq(&first, &after), "laid out again");
        let kept = drawn_mesh(&ctx, &mut view);
        assert!(Arc::ptr_eq(&after, &kept), "kept again");
        // New fonts: egui makes new `Fonts`, with empty galley caches.
        let mut fonts = egui::FontDefinitions::default();
        if let Some(monospace) = fonts.families.get_mut(&egui::FontFamily::Monospace) {
            monospace.reverse();
        }
        ctx.set_fonts(fonts);
        let with_new_fonts = drawn_mesh(&ctx, &mut view);
        assert!(
            !Arc::ptr_eq(&kept, &with_new_fonts),
            "laid out again with the new fonts"
        );
    }
}
