use std::time::Duration;

/// The mark a frame's latency ends at: the GPU's end of egui's pass where the integration
/// gives GPU marks (wgpu with the HUD's timer), else the hand-off of the UI's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LatencyEnd {
    /// egui's pass ended on the GPU ([`crate::LatencyMarks::gpu_end`]): seed 002's "GPU
    /// completion".
    GpuEnd,
    /// The frame's final pass handed its output over ([`crate::LatencyMarks::ui_end`]), where no
    /// GPU end is known (glow, the web, wgpu without the timer): tessellation, rendering and the
    /// GPU are left out.
    UiEnd,
}

impl LatencyEnd {
    /// The end as the HUD's hover and the exports name it.
    pub fn name(self) -> &'static str {
        match self {
            Self::GpuEnd => "GPU end",
            Self::UiEnd => "UI end",
        }
    }
}

/// LATENCY: the distribution of each frame's own *request → end* (seed 002's core latency,
/// "GPU completion − signal"), over the retained frames a request woke. Never a sum of the
/// stages' medians (the median of sums is not the sum of medians), never mixed across ends:
/// every frame in it ends at [`Self::end`]. The time after the GPU's end (present, vsync wait,
/// the app's idle time until the next frame) is not part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatencyTotal {
    /// The mark every frame in it ends at.
    pub end: LatencyEnd,
    /// Frames with both a request and that end.
    pub frames: usize,
    /// Retained frames whose latency marks came in, with a request or without (a frame woken by
    /// input or a window change has no request, so no latency value).
    pub frames_seen: usize,
    /// Median (nearest rank).
    pub p50: Duration,
    /// 95th percentile (nearest rank).
    pub p95: Duration,
    /// Maximum.
    pub max: Duration,
}
