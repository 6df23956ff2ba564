use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::nearest_rank::nearest_rank;

/// Three nearest-rank percentiles of a distribution of milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MillisPercentiles {
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl MillisPercentiles {
    /// The percentiles of `millis` (any order); `None` when empty. Sorts a copy.
    pub fn of(millis: &[f64]) -> Option<Self> {
        let mut sorted = millis.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |percent: usize| nearest_rank(&sorted, percent);
        Some(Self {
            p50: at(50)?,
            p95: at(95)?,
            p99: at(99)?,
        })
    }
}

/// What one benchmark run measured: a fixed-length recording started by `egui_hud::benchmark`
/// (after a reset, so it holds the run's frames only), with every frame's draw time and, for
/// frames wanted back to back, present interval. Saved and read back as JSON
/// ([`Self::to_json`], [`Self::from_json`]); two are compared with
/// [`crate::BenchmarkComparison::of`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkSummary {
    /// Counted frames recorded.
    pub frames: u64,
    /// How long it recorded, in seconds.
    pub seconds: f64,
    /// 1 / the mean present interval (frames wanted back to back).
    pub avg_fps: Option<f64>,
    /// The rate of the 99th percentile interval.
    pub low_1_percent_fps: Option<f64>,
    /// The rate of the 99.9th percentile interval (from 1000 intervals).
    pub low_0_1_percent_fps: Option<f64>,
    /// FRAME's samples (the draw, without the HUD's own cost).
    pub frame: Option<MillisPercentiles>,
    /// The present intervals of frames wanted back to back.
    pub interval: Option<MillisPercentiles>,
    /// Milliseconds shown late per second animating (see `Snapshot::hitch_ms_per_s`).
    pub hitch_ms_per_s: Option<f64>,
    /// The share of intervals that missed a refresh (a known refresh rate only).
    pub miss_share: Option<f64>,
    /// CPU time per frame (the draw and the phases around it) over the last retained frames.
    pub cpu_ms_per_frame: Option<f64>,
    /// GPU time per frame over the last retained frames (wgpu with the timer).
    pub gpu_ms_per_frame: Option<f64>,
    /// Spikes recorded in the run.
    pub spikes: u64,
    /// The worst one, in milliseconds.
    pub worst_spike_ms: Option<f64>,
    /// Every recorded frame's draw, in milliseconds, in order.
    pub frame_ms: Vec<f64>,
    /// Every present interval of a frame wanted back to back, in milliseconds, in order.
    pub interval_ms: Vec<f64>,
}

impl BenchmarkSummary {
    /// The summary as pretty JSON.
    ///
    /// # Errors
    /// A [`serde_json::Error`] (none is expected for finite numbers).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    /// A summary saved by [`Self::to_json`].
    ///
    /// # Errors
    /// A [`serde_json::Error`] that says where the text is not a summary.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The run's frames as CSV: `frame,frame_ms,interval_ms` (the interval empty where the frame
    /// was not wanted back to back, or after the intervals end).
    ///
    /// # Errors
    /// What `writer` returns.
    pub fn write_csv(&self, writer: &mut dyn std::io::Write) -> std::io::Result<()> {
        writeln!(writer, "frame,frame_ms,interval_ms")?;
        for (index, frame) in self.frame_ms.iter().enumerate() {
            match self.interval_ms.get(index) {
                Some(interval) => writeln!(writer, "{index},{frame:.4},{interval:.4}")?,
                None => writeln!(writer, "{index},{frame:.4},")?,
            }
        }
        Ok(())
    }

    /// The recording's length.
    pub fn duration(&self) -> Duration {
        Duration::try_from_secs_f64(self.seconds).unwrap_or_default()
    }
}
