//! An in-window performance HUD for egui apps, in one call.
//!
//! Start from [`fps_monitor`]: call it once per frame and the HUD shows MAX FPS (or FPS), the
//! frame-time plot and the FRAME, P95, GPU, CPU and MEM rows, refreshed every 500 ms
//! ([`HudPreset::Compact`]; [`HudPreset::Full`] shows every row). Settings go through [`FpsMonitor`]; the numbers on screen through [`snapshot`].
//!
//! ```
//! let ctx = egui::Context::default();
//! let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
//!     ui.label("your app");
//!     egui_hud::fps_monitor(ui.ctx()); // the one line
//! });
//! // An integration (eframe, egui-winit, kittest) paints the output; here we drop it.
//! output.textures_delta.clear();
//! ```
//!
//! In an eframe app, [`install`] once at creation gives the HUD the display's refresh rate
//! and, on wgpu, GPU timestamps (the device must ask for them: [`native_options_with_gpu_timing`]):
//!
//! ```no_run
//! struct App;
//!
//! impl eframe::App for App {
//!     fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
//!         ui.label("your app");
//!         egui_hud::fps_monitor(ui.ctx());
//!     }
//! }
//!
//! fn main() -> eframe::Result {
//!     eframe::run_native(
//!         "my app",
//!         egui_hud::native_options_with_gpu_timing(),
//!         Box::new(|cc| {
//!             egui_hud::install(cc);
//!             Ok(Box::new(App))
//!         }),
//!     )
//! }
//! ```
//!
//! ## The public API, by task
//!
//! - **Show the HUD:** [`fps_monitor`], [`FpsMonitor`] (settings), [`HudPreset`] and [`HudRow`]
//!   (which rows), [`show_details`] (the details window), [`MainReadout`], [`reset`] (start
//!   the readouts over).
//! - **Set it up:** [`install`] (eframe), [`native_options_with_gpu_timing`] /
//!   [`request_gpu_timing_features`]; without eframe [`install_window`],
//!   [`install_viewport_window`], [`install_refresh_query`], [`install_presentation_source`],
//!   [`install_wgpu`], or
//!   [`set_refresh_rate`] with your platform's answer.
//! - **Read the numbers:** [`snapshot`], [`spikes`] ([`Spike`], [`SpikePart`],
//!   [`SpikeThreshold`]), [`why`] ([`WhyReading`], [`RepaintSiteRate`]), [`activity`].
//! - **Time your own phases:** [`cpu_phase`], [`cpu_phases`] ([`CpuPhases`], [`CpuPhase`]),
//!   [`install_puffin`]; on the GPU [`gpu_timer`] ([`EguiGpuTimer`]) and
//!   [`record_gpu_results`].
//! - **Compare runs:** [`benchmark`] / [`benchmark_after`], [`benchmark_summary`]
//!   ([`BenchmarkSummary`]), [`save_benchmark`], [`compare`] ([`BenchmarkComparison`],
//!   [`Verdict`]).
//! - **Export:** [`export`], [`save_exports`], [`save_exports_now`], [`last_export`]
//!   ([`ExportFormat`], [`ExportError`]).
//!
//! ## How it is built
//!
//! The source folders are the stages of a frame, and imports only point down: `api` (the
//! functions above) → `plugin` (the one owner of the HUD's state, an egui `Plugin`) → `view`,
//! `frame`, `gpu`, `phases` → `repaint`. The frame record (phases, latency marks, spikes, the
//! exports' writers) is [`profiler_core::record`]. `ARCHITECTURE.md` in the repository draws
//! the arrows and lists the files a frame visits, in order.
//!
//! ## Feature flags
//!
//! | feature | default | what it adds | what it costs |
//! |---|---|---|---|
//! | `eframe` | on | `install(cc)`: the display's refresh rate (and, with `wgpu`, the GPU timer) for eframe apps; `FpsMonitor::eframe_frame` | eframe (no renderer chosen) and winit's X11 backend on Linux |
//! | `wgpu` | on | GPU timestamps of egui's pass and the app's passes (`EguiGpuTimer`), the latency path's GPU stages | wgpu 30, egui-wgpu, `gpu-timing`: the largest part of the build |
//! | `puffin` | off | `install_puffin(ctx)`: puffin's top-level scopes as CPU phases | puffin 0.20 (small); 0.27 µs per puffin frame |
//! | `nvml` | off | NVIDIA per-process GPU use in the GPU row | `nvml-wrapper`; the NVML library is loaded at run time |
//!
//! Without `eframe` and `wgpu` the crate needs egui, egui_plot (the details window) and
//! `profiler-core` only, for any integration.

mod api;
mod frame;
mod gpu;
mod phases;
mod plugin;
mod repaint;
mod view;

// Show the HUD.
pub use crate::api::monitor::{FpsMonitor, fps_monitor};
pub use crate::api::readings::{reset, show_details};
pub use crate::view::hud_preset::HudPreset;
pub use crate::view::hud_row::HudRow;
pub use crate::view::main_readout::MainReadout;

// Set it up.
#[cfg(feature = "wgpu")]
pub use crate::api::gpu::install_wgpu;
#[cfg(all(feature = "eframe", feature = "wgpu", not(target_arch = "wasm32")))]
pub use crate::api::gpu::{native_options_with_gpu_timing, request_gpu_timing_features};
#[cfg(feature = "eframe")]
pub use crate::api::install::install;
pub use crate::api::install::{
    install_presentation_source, install_refresh_query, install_viewport_window, install_window,
};
pub use crate::api::readings::set_refresh_rate;
pub use crate::gpu::gpu_sampling::GpuSampling;

// Read the numbers.
pub use crate::api::readings::{HudActivity, activity, snapshot, spikes, why};
pub use crate::repaint::why_reading::{RepaintSiteRate, WhyReading};
pub use profiler_core::record::spike::{Spike, SpikePart};
pub use profiler_core::record::spike_threshold::SpikeThreshold;

// Time your own phases.
#[cfg(feature = "wgpu")]
pub use crate::api::gpu::{gpu_timer, record_gpu_results};
#[cfg(feature = "puffin")]
pub use crate::api::install::install_puffin;
pub use crate::api::phases::{cpu_phase, cpu_phases};
#[cfg(feature = "wgpu")]
pub use crate::gpu::egui_gpu_timer::EguiGpuTimer;
pub use crate::phases::cpu_phases::{CpuPhase, CpuPhases};

// Benchmark runs and A/B comparison.
pub use crate::api::benchmark::{
    BENCHMARK_COUNTDOWN, benchmark, benchmark_after, benchmark_summary, compare, save_benchmark,
};
pub use profiler_core::{BenchmarkComparison, BenchmarkSummary, MetricChange, Verdict};

// Export.
pub use crate::api::export::{ExportError, export, last_export, save_exports, save_exports_now};
pub use profiler_core::record::export_format::ExportFormat;

// The numbers' own crate.
pub use profiler_core;
