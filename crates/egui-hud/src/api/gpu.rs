//! GPU timing on wgpu: installing the timer (the one way), getting it (the one way), feeding
//! results timed elsewhere, and the eframe options that let the device time at all (the
//! device must ask for the timestamp-query features when it is created, which only the app can
//! arrange).

use crate::gpu::egui_gpu_timer::{EguiGpuTimer, TimedGpuFrame};
use crate::plugin::frame_plugin::FramePlugin;

/// The GPU part of [`crate::install`] for any integration on wgpu: times egui's render pass and
/// the app's passes (see [`EguiGpuTimer`]); get the timer back with [`gpu_timer`]. The device
/// must have been created with the timestamp features (`gpu_timing::with_timestamp_features`,
/// or [`request_gpu_timing_features`] for eframe); without them the timer does nothing, the
/// reason is logged once and egui's pass has no line. Cost: the timer's query pool and
/// buffers, and a thread that sleeps until the GPU clock needs calibrating, once (starting the
/// thread took 60–360 µs on lavapipe).
pub fn install_wgpu(ctx: &egui::Context, device: &wgpu::Device, queue: &wgpu::Queue) {
    match EguiGpuTimer::new(device, queue) {
        Ok(timer) => FramePlugin::with(ctx, |plugin| plugin.set_gpu_timer(timer)),
        Err(error) => {
            log::warn!("egui-hud: GPU timing is off: {error}");
            FramePlugin::mark_gpu_timing_unavailable(ctx);
        }
    }
}

/// The GPU timer installed on `ctx` (see [`EguiGpuTimer`]), after [`crate::install`] on wgpu
/// or [`install_wgpu`]. Kept by the HUD's plugin, so clearing egui memory does not lose it.
/// Cost: a lock and a clone (three `Arc`s).
pub fn gpu_timer(ctx: &egui::Context) -> Option<EguiGpuTimer> {
    ctx.with_plugin::<FramePlugin, _>(|plugin| plugin.gpu_timer())
        .flatten()
}

/// Feeds one frame of GPU results timed elsewhere (for example converted from `wgpu-profiler`
/// with `GpuFrameResult::from_wgpu_profiler`) to the HUD on the current viewport, as the
/// [`EguiGpuTimer`] does with its own. Ignored while the HUD is hidden; a frame with no pass adds
/// nothing. Cost: a lock and the per-pass bookkeeping (no allocation once the labels are
/// known), now and then the recording of a few frames the HUD kept; counted as the HUD's own
/// cost, not the app's FRAME.
pub fn record_gpu_results(ctx: &egui::Context, result: &gpu_timing::GpuFrameResult) {
    if result.passes.is_empty() {
        return;
    }
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| {
        plugin.record_gpu_frame(viewport, &TimedGpuFrame::timed_elsewhere(viewport, result));
    });
}

/// eframe's default native options, with the device asking for whichever timestamp-query
/// features the adapter has, so [`crate::install`] can time GPU passes. Use it (or do the same to your
/// own options) when you create the app.
#[cfg(all(feature = "eframe", not(target_arch = "wasm32")))]
pub fn native_options_with_gpu_timing() -> eframe::NativeOptions {
    let mut options = eframe::NativeOptions::default();
    request_gpu_timing_features(&mut options);
    options
}

/// Makes eframe's wgpu device ask for the adapter's timestamp-query features (none are asked
/// for by default). Does nothing when the options hand eframe an existing device.
#[cfg(all(feature = "eframe", not(target_arch = "wasm32")))]
pub fn request_gpu_timing_features(options: &mut eframe::NativeOptions) {
    if let egui_wgpu::WgpuSetup::CreateNew(create) = &mut options.wgpu_options.wgpu_setup {
        let base = std::sync::Arc::clone(&create.device_descriptor);
        create.device_descriptor = std::sync::Arc::new(move |adapter| {
            gpu_timing::with_timestamp_features(base(adapter), adapter)
        });
    }
}
