use std::time::Duration;

#[cfg(feature = "wgpu")]
use crate::gpu::gpu_sampling::GpuSampling;

/// What the GPU sampling rule ([`crate::GpuSampling`]) chose on one viewport: which frame it decided
/// last, when the last timed frame began, and how many of the app's frames it timed and left
/// out since the last refresh.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(
    not(feature = "wgpu"),
    expect(dead_code, reason = "only a GPU timer (wgpu) decides frames")
)]
pub(crate) struct GpuSampled {
    /// The frame (its sequence number) decided last, and whether it is timed.
    decided: Option<(u64, bool)>,
    /// When the last timed frame began, on the HUD's clock.
    last_timed_start: Option<Duration>,
    /// The app's frames timed since the last refresh.
    timed: u32,
    /// The app's frames the rule left out since the last refresh.
    left_out: u32,
}

impl GpuSampled {
    /// Whether frame `sequence`, begun at `started`, is timed: only the app's frames (`apps`),
    /// as many as `sampling` admits. A frame is decided once: its later passes get the same
    /// answer. Free.
    #[cfg(feature = "wgpu")]
    pub(crate) fn decide(
        &mut self,
        sampling: GpuSampling,
        sequence: u64,
        started: Duration,
        apps: bool,
    ) -> bool {
        if let Some((decided, timed)) = self.decided
            && decided == sequence
        {
            return timed;
        }
        let timed = apps && self.would_admit(sampling, started);
        if timed {
            self.last_timed_start = Some(started);
            self.timed = self.timed.saturating_add(1);
        } else if apps {
            self.left_out = self.left_out.saturating_add(1);
        }
        self.decided = Some((sequence, timed));
        timed
    }

    /// Whether a frame begun at `started` would be timed by `sampling`, without deciding it
    /// (the frame's own decision comes later, once its settings are known). Free.
    #[cfg(feature = "wgpu")]
    pub(crate) fn would_admit(&self, sampling: GpuSampling, started: Duration) -> bool {
        sampling.admits(
            self.last_timed_start
                .map(|last| started.saturating_sub(last)),
        )
    }

    /// Whether a frame was timed since the last [`Self::take_timed_share`]. Free.
    #[cfg(feature = "wgpu")]
    pub(crate) fn timed_since_refresh(&self) -> bool {
        self.timed > 0
    }

    /// The share of the app's frames timed since the last call (0 to 1), `None` when there was
    /// none; starts the count over.
    pub(crate) fn take_timed_share(&mut self) -> Option<f64> {
        let (timed, left_out) = (self.timed, self.left_out);
        self.timed = 0;
        self.left_out = 0;
        let considered = timed.saturating_add(left_out);
        (considered > 0).then(|| f64::from(timed) / f64::from(considered))
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_decided_once_and_the_share_counts_the_apps_frames() {
        let mut sampled = GpuSampled::default();
        let every = GpuSampling::EveryFrame;
        assert!(sampled.decide(every, 1, Duration::ZERO, true));
        // The HUD's own tick frame is never timed and not counted.
        assert!(!sampled.decide(every, 2, Duration::from_millis(1), false));
        let rule = GpuSampling::default(); // 120 a second: 6.25 ms apart
        assert!(!sampled.decide(rule, 3, Duration::from_millis(2), true));
        // A second pass of frame 3 gets the same answer and is not counted again.
        assert!(!sampled.decide(rule, 3, Duration::from_millis(2), true));
        assert!(sampled.decide(rule, 4, Duration::from_millis(7), true));
        assert!(sampled.timed_since_refresh());
        assert_eq!(sampled.take_timed_share(), Some(2.0 / 3.0));
        assert!(!sampled.timed_since_refresh());
        assert_eq!(sampled.take_timed_share(), None, "the count starts over");
    }
}
