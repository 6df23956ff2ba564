use raw_window_handle::{HasDisplayHandle, HasWindowHandle};

use crate::display_watch::DisplayWatch;

/// One-time setup for eframe apps: wires the window's display refresh rate (and, on wgpu, the
/// GPU timer) to the HUD. Call it in your app's creation closure:
///
/// ```no_run
/// # fn app(cc: &eframe::CreationContext<'_>) {
/// egui_hud::install(cc);
/// # }
/// ```
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
        Some(render_state) => install_wgpu(&cc.egui_ctx, &render_state.device, &render_state.queue),
        None => mark_gpu_timing_unavailable(&cc.egui_ctx),
    }
    #[cfg(not(feature = "wgpu"))]
    mark_gpu_timing_unavailable(&cc.egui_ctx);
}

/// eframe's native `CreationContext` hands out the window's handles.
#[cfg(all(feature = "eframe", not(target_arch = "wasm32")))]
fn install_eframe_window(cc: &eframe::CreationContext<'_>) {
    install_window(&cc.egui_ctx, cc);
}

/// On the web there is no native window to ask.
#[cfg(all(feature = "eframe", target_arch = "wasm32"))]
fn install_eframe_window(_cc: &eframe::CreationContext<'_>) {
    log::info!(
        "egui-hud: a web page cannot tell the display refresh rate; MAX FPS is unclamped and the budget is 60 Hz"
    );
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
        Err(error) => log::info!(
            "egui-hud: no display refresh rate ({error}); MAX FPS is unclamped and the budget is 60 Hz"
        ),
    }
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
        DisplayWatch::start(ctx, viewport, query);
    } else {
        log::info!(
            "egui-hud: this platform cannot tell the display refresh rate; MAX FPS is unclamped and the budget is 60 Hz"
        );
    }
}

/// The GPU part of [`install`] for any integration on wgpu: times egui's render pass and the
/// app's passes (see [`crate::EguiGpuTimer`]).
#[cfg(feature = "wgpu")]
pub fn install_wgpu(ctx: &egui::Context, device: &wgpu::Device, queue: &wgpu::Queue) {
    if let Err(error) = crate::EguiGpuTimer::install(ctx, device, queue) {
        log::warn!("egui-hud: GPU timing is off: {error}");
        mark_gpu_timing_unavailable(ctx);
    }
}

/// The label egui's own render pass is shown under in the GPU row.
pub(crate) const EGUI_PASS_LABEL: &str = "egui";

/// Records that this backend cannot time egui's pass (glow, or wgpu without the feature).
#[cfg(any(feature = "eframe", feature = "wgpu"))]
fn mark_gpu_timing_unavailable(ctx: &egui::Context) {
    crate::frame_plugin::FramePlugin::with(ctx, |plugin| {
        plugin.gpu_timing_unavailable = true;
    });
}
