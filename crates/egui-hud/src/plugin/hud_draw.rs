use std::time::Duration;

use crate::view::details_window::DetailsData;
use crate::view::hud_ids::HudIds;
use crate::view::hud_view::{HudView, Relayout};
use crate::view::row_list::RowList;

/// What `fps_monitor` needs to draw, taken out of the plugin so that its lock is not held
/// while egui widgets run.
pub(crate) struct HudDraw {
    pub(crate) view: Box<HudView>,
    /// Where a refresh's layout is made (see [`Relayout`]).
    pub(crate) relayout: Relayout,
    /// The viewport's HUD ids, worked out once.
    pub(crate) ids: HudIds,
    /// The rows to show this pass.
    pub(crate) rows: RowList,
    pub(crate) anchor: egui::Align2,
    pub(crate) offset: egui::Vec2,
    /// The HUD's stamp when it began this pass's work; `None` when no frame is being timed.
    pub(crate) started: Option<Duration>,
    /// What the details window shows, when it is open.
    pub(crate) details: Option<DetailsData>,
    /// The stamp that closes the HUD's GPU scope, opened before the HUD draws, in a frame the
    /// GPU timer times (wgpu after `install`): added once the HUD has drawn.
    #[cfg(feature = "wgpu")]
    pub(crate) hud_layer_end: Option<crate::gpu::egui_gpu_timer::HudLayerEnd>,
}

/// What `fps_monitor` hands back after drawing.
pub(crate) struct DrawOutcome {
    pub(crate) view: Box<HudView>,
    /// Whether the details window stays open.
    pub(crate) details_open: bool,
    /// Whether a click changed the HUD's size (the pass is redone).
    pub(crate) resized: bool,
    /// [`HudDraw::started`], handed back.
    pub(crate) started: Option<Duration>,
    /// Whether a benchmark summary that finished since the last draw is wanted back (to be
    /// saved beside the exports): taken under the same lock, not a third one.
    pub(crate) take_new_summary: bool,
}
