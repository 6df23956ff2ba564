//! The HUD's own measure of itself (`Snapshot::overlay_cost`, the demo's `hud_cost_us`) over a
//! whole bench run, not the last snapshot's.
//!
//! A snapshot's own measure is the mean of the draw samples the HUD keeps (120 by default):
//! at the thousands of frames a second a render bench runs on a real GPU, the last 120 frames
//! of a run. One slow frame in them (a refresh, a preempted thread) moves that mean by a few
//! µs, and so does the GPU timer's share, which counts the frames since the last refresh
//! (30 at the benches' 1/60 s of egui time a frame): one timed frame reads 3 %, two read 7 %.
//! On an H100 the last snapshot of runs of one build read from under half to over its run's
//! mean. This keeps the mean of every window of kept samples that does not overlap the one
//! before, and the mean of every refresh's share.

use std::fmt::Write as _;

use egui_hud::profiler_core::Snapshot;

/// The run's own measure, window by window. Plain data; [`OwnMeasure::after_frame`] is a few
/// comparisons, and a push once per window.
#[derive(Default)]
pub(crate) struct OwnMeasure {
    /// Frames since the last window was kept (or since [`OwnMeasure::default`]).
    frames_since_window: usize,
    /// Each kept window's mean own measure, µs.
    window_means_us: Vec<f64>,
    /// The kept samples each window held.
    window_frames: usize,
    /// Each refresh's share of frames the GPU timer timed (0 to 1).
    timed_shares: Vec<f64>,
    /// Each refresh's GPU time of the HUD's own drawing (its last timed frame's), µs.
    gpu_pass_us: Vec<f64>,
}

impl OwnMeasure {
    /// After each frame of the run: `refreshed` is the snapshot the frame's refresh made, if it
    /// refreshed. A window is kept once as many frames have passed since the last one as the
    /// snapshot's samples hold, so that no frame is counted twice.
    pub(crate) fn after_frame(&mut self, refreshed: Option<&Snapshot>) {
        self.frames_since_window += 1;
        let Some(snapshot) = refreshed else {
            return;
        };
        self.timed_shares.extend(snapshot.gpu_timed_share);
        self.gpu_pass_us.extend(
            snapshot
                .gpu_overlay_cost
                .map(|cost| cost.as_secs_f64() * 1e6),
        );
        if let Some(cost) = snapshot.overlay_cost
            && snapshot.samples > 0
            && self.frames_since_window >= snapshot.samples
        {
            self.window_means_us.push(cost.as_secs_f64() * 1e6);
            self.window_frames = snapshot.samples;
            self.frames_since_window = 0;
        }
    }

    /// `mean µs (lowest–highest window) over N windows of M frames`, and where the GPU timer
    /// timed, its share of frames and the GPU time of the HUD's drawing; `None` before a window
    /// was kept.
    pub(crate) fn summary(&self) -> Option<String> {
        let windows = self.window_means_us.len();
        let mean_us = mean(&self.window_means_us)?;
        let lowest = self
            .window_means_us
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        let highest = self.window_means_us.iter().copied().fold(0.0, f64::max);
        let mut summary = format!(
            "{mean_us:5.1} µs ({lowest:.1}–{highest:.1}) over {windows} windows of {} frames",
            self.window_frames
        );
        if let Some(share) = mean(&self.timed_shares) {
            // Writing to a `String` cannot fail.
            let _ = write!(summary, "; GPU timed in {:.1}% of frames", share * 100.0);
        }
        if let Some(gpu_us) = mean(&self.gpu_pass_us) {
            let _ = write!(
                summary,
                ", its own drawing {gpu_us:.1} µs of GPU (each refresh's last timed frame)"
            );
        }
        Some(summary)
    }
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}
