use std::sync::Arc;
use std::time::Duration;

use profiler_core::record::spike_threshold::SpikeThreshold;
use profiler_core::{Clock, ConfigError, SamplerConfig};

use crate::gpu::gpu_sampling::GpuSampling;
use crate::view::row_choice::RowChoice;

/// What a user tunes, set through [`FpsMonitor`](crate::FpsMonitor). Plain data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HudConfig {
    /// Draw samples behind FRAME, P95, DROP, INV and the plot. Default 120.
    pub(crate) capacity: usize,
    /// A pinned budget; default `None` (one display refresh, else 1/60 s).
    pub(crate) frame_budget: Option<Duration>,
    /// The corner the HUD sticks to. Default top-right.
    pub(crate) anchor: egui::Align2,
    /// Offset from that corner, in points. Default 8 points inwards.
    pub(crate) offset: egui::Vec2,
    /// When a frame is kept as a spike. Default twice the budget and 2.5 × the recent median.
    pub(crate) spike_threshold: SpikeThreshold,
    /// The rows shown. Default [`HudPreset::Compact`](crate::HudPreset::Compact).
    pub(crate) rows: RowChoice,
    /// Which frames the GPU timer times (wgpu). Default at most 120 a second.
    pub(crate) gpu_sampling: GpuSampling,
}

impl HudConfig {
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        if !self.spike_threshold.is_valid() {
            return Err(ConfigError::SpikeThreshold);
        }
        self.sampler_config().validate()
    }

    pub(crate) fn sampler_config(&self) -> SamplerConfig {
        SamplerConfig {
            capacity: self.capacity,
            frame_budget: self.frame_budget,
            ..SamplerConfig::default()
        }
    }
}

impl Default for HudConfig {
    fn default() -> Self {
        Self {
            capacity: SamplerConfig::DEFAULT_CAPACITY,
            frame_budget: None,
            anchor: egui::Align2::RIGHT_TOP,
            offset: egui::vec2(-8.0, 8.0),
            spike_threshold: SpikeThreshold::default(),
            rows: RowChoice::default(),
            gpu_sampling: GpuSampling::default(),
        }
    }
}

/// What one `FpsMonitor::show` hands the plugin: the config and the per-call inputs.
#[derive(Clone)]
pub(crate) struct ShowSettings {
    pub(crate) config: HudConfig,
    /// The clock frames are timed with; default `None`, the process's monotonic clock.
    pub(crate) clock: Option<Arc<dyn Clock>>,
    /// Whether the CPU, MEM and process GPU rows are sampled. Default `true`.
    pub(crate) sample_resources: bool,
    /// eframe's CPU time of the previous frame (`Frame::info().cpu_usage`). Default `None`.
    pub(crate) eframe_cpu_usage: Option<Duration>,
}

impl Default for ShowSettings {
    fn default() -> Self {
        Self {
            config: HudConfig::default(),
            clock: None,
            sample_resources: true,
            eframe_cpu_usage: None,
        }
    }
}
