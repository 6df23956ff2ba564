//! An in-window performance HUD for egui apps, in one call.
//!
//! Check out [`fps_monitor`]: call it once per frame and the HUD shows MAX FPS (or FPS), the
//! frame-time plot and the INTERVAL, FRAME, P95, DROP, INV, GPU, CPU and MEM rows, refreshed
//! every 500 ms. Settings go through [`FpsMonitor`]; the numbers on screen through [`snapshot`].
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

mod cpu_phase;
mod cpu_phases;
mod details_window;
mod display_watch;
#[cfg(all(feature = "eframe", feature = "wgpu", not(target_arch = "wasm32")))]
mod eframe_options;
#[cfg(feature = "wgpu")]
mod egui_gpu_timer;
mod export;
mod fps_monitor;
mod frame_assembly;
mod frame_facts;
mod frame_in_progress;
mod frame_log;
mod frame_phases;
mod frame_plugin;
mod frame_trace;
mod hud_config;
mod hud_palette;
mod hud_view;
mod install;
mod main_readout;
#[cfg(feature = "puffin")]
mod puffin_phases;
mod readout_row;
mod repaint_ledger;
mod repaint_sites;
mod spike;
mod spike_threshold;
mod text_cache;
mod tick;
mod viewport_hud;
mod why_reading;
mod window_fingerprint;

pub use crate::cpu_phase::{CpuPhase, cpu_phase};
pub use crate::cpu_phases::{CpuPhases, cpu_phases};
#[cfg(all(feature = "eframe", feature = "wgpu", not(target_arch = "wasm32")))]
pub use crate::eframe_options::{native_options_with_gpu_timing, request_gpu_timing_features};
#[cfg(feature = "wgpu")]
pub use crate::egui_gpu_timer::{EguiGpuTimer, gpu_timer, record_gpu_results};
pub use crate::export::{
    ExportError, ExportFormat, export, last_export, save_exports, save_exports_now,
};
pub use crate::fps_monitor::{
    FpsMonitor, HudActivity, activity, fps_monitor, set_refresh_rate, show_details, snapshot,
    spikes, why,
};
#[cfg(feature = "eframe")]
pub use crate::install::install;
#[cfg(feature = "wgpu")]
pub use crate::install::install_wgpu;
pub use crate::install::{install_refresh_query, install_viewport_window, install_window};
pub use crate::main_readout::MainReadout;
#[cfg(feature = "puffin")]
pub use crate::puffin_phases::install_puffin;
pub use crate::spike::{Spike, SpikePart};
pub use crate::spike_threshold::SpikeThreshold;
pub use crate::why_reading::{RepaintSiteRate, WhyReading};
pub use profiler_core;
