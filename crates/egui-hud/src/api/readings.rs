//! Reading what the HUD knows (the numbers on screen, the spikes, WHY, its activity), and the
//! two things an app tells it (the details window, the refresh rate).

use profiler_core::record::spike::Spike;

use crate::plugin::frame_plugin::FramePlugin;
use crate::repaint::why_reading::WhyReading;

/// The readouts currently on screen for the current viewport: `None` before the first tick and
/// while the HUD is hidden. The lows and the latency path are in it whatever the rows shown: a
/// refresh leaves them out when no row shows them, and the first call after it reads them then
/// (from the frames recorded until the call). Cost: a lock of the HUD's plugin and a clone of
/// the snapshot; the first call after such a refresh also those readings (a few µs) and the
/// recording of the frames the HUD kept since (a few frames' worth, counted as the HUD's own
/// cost, not the app's FRAME).
pub fn snapshot(ctx: &egui::Context) -> Option<profiler_core::Snapshot> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| plugin.displayed(viewport))
        .flatten()
}

/// Opens (or closes) the details window of the current viewport's HUD: the retained frames as
/// an interactive plot, histograms of frame times and hand-off intervals, and the spikes. The
/// HUD's "details ▸" control does the same. While closed it costs nothing; while open, a copy of
/// the retained frames per frame (measured in `benches/hud_cost.rs`).
pub fn show_details(ctx: &egui::Context, open: bool) {
    let viewport = ctx.viewport_id();
    FramePlugin::with(ctx, |plugin| plugin.set_details_open(viewport, open));
}

/// Starts the current viewport's readouts over, as if the HUD had just been shown: the warm-up
/// again, then AVG and the lows, HITCH, MISS, the spikes and their worst, and every window from
/// the frames after it. For comparing before and after a change in one run (MangoHud resets
/// its lows with a key; [`crate::FpsMonitor::reset_on_key`] gives one). Cost: a lock of the
/// HUD's plugin; nothing when the HUD has not been shown.
pub fn reset(ctx: &egui::Context) {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| plugin.reset(viewport));
}

/// The kept spikes on the current viewport, oldest first: the 8 newest and the worst of the
/// older ones, up to 16. Spikes are frames whose draw, CPU time, GPU time or (wanted right after
/// the previous one) hand-off interval crossed the spike threshold
/// ([`crate::FpsMonitor::spike_threshold`], default twice the budget and 2.5 × the recent
/// median), with everything the HUD knew about them. Empty while the HUD is hidden. Cost: a
/// lock of the HUD's plugin, the recording of the frames the HUD kept since its last read (a
/// few frames' worth, counted as the HUD's own cost) and a clone of the spikes.
pub fn spikes(ctx: &egui::Context) -> Vec<Spike> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| plugin.spikes(viewport))
        .unwrap_or_default()
}

/// WHY on the current viewport as of its last refresh: the call sites that asked the app to
/// repaint, as rates, and the frames that took more than one pass. `None` before the second
/// refresh and while the HUD is hidden. Cost: a lock of the HUD's plugin and a clone.
pub fn why(ctx: &egui::Context) -> Option<WhyReading> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| plugin.why(viewport))
        .flatten()
}

/// Tells the HUD on the current viewport the display's refresh rate (`None`: unknown, the
/// default). It clamps MAX FPS and sets the budget (unless one is pinned). Rates from 1 to
/// 1000 Hz are accepted; any other (a NaN, 1 GHz) is taken as unknown and logged once. `install(cc)` does
/// this for eframe apps; other integrations call it with their platform's answer. Kept until
/// changed, whatever happens to egui memory. Cost: a lock; a changed rate also hands on the
/// frames the HUD kept since its last read (up to a few frames' records, tens of µs), so that
/// they are judged against the budget they ran under. Call it when the rate changes, not every
/// frame.
pub fn set_refresh_rate(ctx: &egui::Context, refresh_hz: Option<f64>) {
    let viewport = ctx.viewport_id();
    FramePlugin::set_refresh_hz_of(ctx, viewport, refresh_hz);
}

/// What the HUD on the current viewport is doing. For tests and diagnostics; cost: a lock of
/// the HUD's plugin and one of the resource thread's state.
pub fn activity(ctx: &egui::Context) -> HudActivity {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| HudActivity {
        sampling: plugin.is_sampling(viewport),
        resources_running: plugin.resources_running(),
    })
    .unwrap_or_default()
}

/// The HUD's work on a viewport, from [`activity`]. Both are `false` before the HUD was ever
/// shown. After it is hidden, `sampling` turns `false` at the first frame a second later (an
/// app that draws no frame keeps its sampler, idle), and `resources_running` a second after the
/// last reading was asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HudActivity {
    /// A sampler exists and frames are being timed.
    pub sampling: bool,
    /// The background resource thread (CPU, MEM, GPU use) is running.
    pub resources_running: bool,
}
