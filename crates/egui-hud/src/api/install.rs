//! One-time setup: the display's refresh rate (and, through `api::gpu`, the GPU timer) wired
//! to the HUD, for eframe and for any other integration.

use raw_window_handle::{HasDisplayHandle, HasWindowHandle};

use crate::plugin::display_watch::DisplayWatch;
use crate::plugin::frame_plugin::FramePlugin;

/// Logged when the refresh rate cannot be had: what the HUD does instead.
const WITHOUT_REFRESH_RATE: &str = "MAX FPS is unclamped and the budget is 60 Hz";

/// One-time setup for eframe apps: wires the window's display refresh rate (and, on wgpu, the
/// GPU timer) to the HUD. Call it in your app's creation closure:
///
/// ```no_run
/// # fn app(cc: &eframe::CreationContext<'_>) {
/// egui_hud::install(cc);
/// # }
/// ```
///
/// A whole eframe app, with GPU timing on wgpu, is in the crate's front page.
///
/// Without it the HUD works unclamped with a 60 Hz budget and no GPU timestamps. On wgpu the
/// device must have been created with the timestamp features for GPU times: see
/// `native_options_with_gpu_timing`. Cost: one background thread that asks the
/// platform for the refresh rate, then exits. On the web (eframe's `WebRunner`) a page cannot
/// tell the refresh rate, so only the GPU timer is wired.
#[cfg(feature = "eframe")]
pub fn install(cc: &eframe::CreationContext<'_>) {
    install_eframe_window(cc);
    #[cfg(feature = "wgpu")]
    match &cc.wgpu_render_state {
        Some(render_state) => {
            crate::api::gpu::install_wgpu(&cc.egui_ctx, &render_state.device, &render_state.queue);
        }
        None => FramePlugin::mark_gpu_timing_unavailable(&cc.egui_ctx),
    }
    #[cfg(not(feature = "wgpu"))]
    FramePlugin::mark_gpu_timing_unavailable(&cc.egui_ctx);
}

/// eframe's native `CreationContext` hands out the window's handles.
#[cfg(all(feature = "eframe", not(target_arch = "wasm32")))]
fn install_eframe_window(cc: &eframe::CreationContext<'_>) {
    install_window(&cc.egui_ctx, cc);
}

/// On the web there is no native window to ask.
#[cfg(all(feature = "eframe", target_arch = "wasm32"))]
fn install_eframe_window(_cc: &eframe::CreationContext<'_>) {
    log::info!("egui-hud: a web page cannot tell the display refresh rate; {WITHOUT_REFRESH_RATE}");
}

/// The refresh-rate part of [`install`] for any integration: pass the root viewport's native
/// window (anything with raw-window-handle 0.6 handles). Call it on the thread that owns the
/// window (macOS requires the main thread); the slow query itself runs on a background thread.
///
/// Every other viewport then gets the rate of the display under its window too, found by the
/// area its `ViewportInfo::outer_rect` covers (X11, Windows; on Wayland the rate all outputs
/// share; on macOS none): use [`install_viewport_window`] when you own a child viewport's window.
pub fn install_window(
    ctx: &egui::Context,
    window: &(impl HasWindowHandle + HasDisplayHandle + ?Sized),
) {
    install_viewport_window(ctx, egui::ViewportId::ROOT, window);
}

/// [`install_window`] for any viewport's window, in integrations that create the windows of
/// child viewports themselves: `viewport`'s HUD then gets the refresh rate of the display under
/// that window, asked again when the window moves. Cost: as [`install_window`].
pub fn install_viewport_window(
    ctx: &egui::Context,
    viewport: egui::ViewportId,
    window: &(impl HasWindowHandle + HasDisplayHandle + ?Sized),
) {
    match profiler_core::DisplayRefreshQuery::from_window(window) {
        Ok(query) => install_refresh_query(ctx, viewport, query),
        Err(error) => {
            log::info!("egui-hud: no display refresh rate ({error}); {WITHOUT_REFRESH_RATE}");
        }
    }
    install_presentation_source(
        ctx,
        viewport,
        profiler_core::presentation::PresentationSource::from_window(window),
    );
}

/// The presentation part of [`install_viewport_window`]: `viewport`'s HUD reads when each frame
/// reached the screen from `source` (`DISPLAYED`, MISS from the refresh counter, the `screen`
/// and `req-screen` spans), or, given an error, hides those rows and its hover says why.
///
/// Cost while the HUD is shown, per frame: on Wayland one feedback request (a small
/// allocation for its proxy) and a non-blocking dispatch, on X11 one non-blocking read; no
/// thread. Hidden: nothing (X11's events are deselected). Call it on the thread that owns the
/// window: the Wayland source wraps the window's own connection.
pub fn install_presentation_source(
    ctx: &egui::Context,
    viewport: egui::ViewportId,
    source: Result<
        profiler_core::presentation::PresentationSource,
        profiler_core::presentation::PresentationError,
    >,
) {
    FramePlugin::with(ctx, |plugin| plugin.set_presentation_of(viewport, source));
}

/// [`install_viewport_window`] with a query built by the caller, for example one that names
/// another X server ([`profiler_core::DisplayRefreshQuery::with_x11_display_name`]). Cost: as
/// [`install_window`].
pub fn install_refresh_query(
    ctx: &egui::Context,
    viewport: egui::ViewportId,
    query: profiler_core::DisplayRefreshQuery,
) {
    if query.is_supported() {
        let watch = DisplayWatch::start(ctx, viewport, query, FramePlugin::set_refresh_hz_of);
        FramePlugin::with(ctx, |plugin| plugin.add_display_watch(viewport, watch));
    } else {
        log::info!(
            "egui-hud: this platform cannot tell the display refresh rate; {WITHOUT_REFRESH_RATE}"
        );
    }
}

/// Shows the top-level scopes of puffin's frames as CPU phases of the root viewport's HUD, so
/// an app instrumented with puffin (and egui's own `profiling` scopes, with its puffin backend
/// on) needs no second instrumentation. Behind the feature `puffin`.
///
/// Each finished puffin frame (`puffin::GlobalProfiler::new_frame`, which eframe calls through
/// `profiling::finish_frame!`) is read by a frame sink: the top-level scopes of every thread,
/// summed per scope name, go under `PHASES` with the next counted frame. They overlap what the
/// HUD measures (FRAME, the app's own phases), so they are shown but not added to the CPU time
/// per frame. Scopes are only recorded while puffin's scopes are on (`puffin::set_scopes_on`).
///
/// Cost: the sink runs on the thread that ends puffin's frame, reads the frame's streams (no
/// copy; puffin's own packing is off by default) and takes one lock per top-level scope;
/// measured in `benches/cpu_phase.rs`. While the HUD is hidden it reads nothing. Call it once;
/// a second call replaces the first sink. The sink is removed when the context is dropped.
#[cfg(feature = "puffin")]
pub fn install_puffin(ctx: &egui::Context) {
    let phases = FramePlugin::with(ctx, |plugin| plugin.phases_of(egui::ViewportId::ROOT));
    let bridge = crate::phases::puffin_phases::PuffinBridge::install(phases);
    FramePlugin::with(ctx, |plugin| plugin.set_puffin(bridge));
}
