use std::time::Duration;

use crate::view::details_window::DetailsData;
use crate::view::hud_ids::HudIds;
use crate::view::hud_view::HudView;
use crate::view::row_list::RowList;

/// What `fps_monitor` needs to draw, taken out of the plugin so that its lock is not held
/// while egui widgets run.
pub(crate) struct HudDraw {
    pub(crate) view: HudView,
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
    /// The GPU timer, in a wgpu app after `install`.
    #[cfg(feature = "wgpu")]
    pub(crate) gpu_timer: Option<crate::gpu::egui_gpu_timer::EguiGpuTimer>,
}

/// What `fps_monitor` hands back after drawing.
pub(crate) struct DrawOutcome {
    pub(crate) view: HudView,
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
