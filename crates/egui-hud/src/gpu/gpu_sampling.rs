use std::num::NonZeroU32;

/// Which of the app's frames the GPU timer times, on wgpu (see
/// [`crate::FpsMonitor::gpu_sampling`]). Plain data; the default is
/// [`GpuSampling::AtMostPerSecond`] 120.
///
/// Timing a frame costs its timestamp writes, a resolve, a copy and a buffer map on the GPU
/// queue, three or four paint callbacks, and reading the result back a few frames later (one
/// map for eight frames; four when this was measured): about 30 to 45 µs of CPU per timed
/// frame on an H200's host, the whole frame against one not timed
/// (`benches/hud_render_cost.rs`).
/// A 60 Hz app pays that every frame either way. An app that draws hundreds of frames a second
/// would pay it hundreds of times a second, for GPU readouts that are refreshed twice a second.
///
/// Whatever the sampling, a HUD that shows nothing read from the GPU (number only, collapsed,
/// an app's row list without the GPU, LATENCY and SPIKES rows, the details window closed, no
/// benchmark running) times no frame; the GPU figures start over when it shows them again.
///
/// What sampling changes: the GPU row's mean, P95 and busy share come from the timed frames (a
/// sample of every frame, spread evenly in time); `LATENCY` (request → GPU end) and a spike's GPU
/// part exist for timed frames only; the hover says which share of frames was timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuSampling {
    /// Every frame the app caused is timed.
    EveryFrame,
    /// A frame is timed when it begins at least ¾ of `1 / n` s after the last timed one began:
    /// every frame up to `n` frames a second (the ¾ absorbs frame-time jitter), no more than
    /// `4n / 3` a second above that.
    AtMostPerSecond(NonZeroU32),
}

impl Default for GpuSampling {
    fn default() -> Self {
        Self::AtMostPerSecond(NonZeroU32::new(120).unwrap_or(NonZeroU32::MIN))
    }
}

impl GpuSampling {
    /// Whether a frame that begins `since_last_timed` after the last timed frame began is
    /// timed (`None`: no frame was timed yet). Free.
    #[cfg(feature = "wgpu")]
    pub(crate) fn admits(self, since_last_timed: Option<std::time::Duration>) -> bool {
        match (self, since_last_timed) {
            (Self::EveryFrame, _) | (Self::AtMostPerSecond(_), None) => true,
            (Self::AtMostPerSecond(rate), Some(since)) => {
                since.as_secs_f64() * f64::from(rate.get()) >= 0.75
            }
        }
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use std::time::Duration;

    use super::*;

    fn per_second(n: u32) -> GpuSampling {
        NonZeroU32::new(n).map_or(GpuSampling::EveryFrame, GpuSampling::AtMostPerSecond)
    }

    #[test]
    fn every_frame_of_a_60_hz_app_is_timed_with_jitter() {
        // 120 a second: a frame 1 ms early at 60 Hz and at 120 Hz is still timed.
        assert!(per_second(120).admits(Some(Duration::from_micros(15_700))));
        assert!(per_second(120).admits(Some(Duration::from_micros(7_400))));
        assert!(per_second(120).admits(None));
    }

    #[test]
    fn fast_frames_are_thinned_to_the_rate() {
        // 1000 FPS at 120 a second: one frame in seven (6.25 ms apart) is timed.
        let sampling = per_second(120);
        let mut since = None;
        let mut timed = 0;
        for _ in 0..1000 {
            if sampling.admits(since) {
                timed += 1;
                since = Some(Duration::ZERO);
            }
            since = since.map(|s| s + Duration::from_millis(1));
        }
        assert_eq!(timed, 143, "1000 frames of 1 ms, one timed every 7 ms");
        assert!(GpuSampling::EveryFrame.admits(Some(Duration::ZERO)));
    }
}
