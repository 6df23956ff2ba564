//! egui's GPU pass and the app's, timed from egui-wgpu paint callbacks (`wgpu` feature). The
//! label below is shared with builds that cannot time it (glow), whose GPU row says so.

#[cfg(feature = "wgpu")]
pub(crate) mod calibration_worker;
#[cfg(feature = "wgpu")]
pub(crate) mod egui_gpu_timer;
pub(crate) mod gpu_sampling;

/// The label egui's own render pass is shown under in the GPU row.
pub(crate) const EGUI_PASS_LABEL: &str = "egui";
