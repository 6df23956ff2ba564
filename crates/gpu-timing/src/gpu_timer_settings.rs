use std::time::Duration;

use crate::GpuTimingError;
use crate::readback_group::ReadbackGroup;

/// Configuration of a [`crate::GpuTimer`]: plain data, checked by [`Self::validate`].
///
/// All GPU memory is allocated from these numbers once, in [`crate::GpuTimer::new`]:
/// `frame_slots` × (`2 × max_passes_per_frame` timestamps, rounded up to 32, in the query set of
/// its readback group, and two buffer regions of `16 × max_passes_per_frame` bytes, rounded up
/// to 256). The defaults use 4 × 256 bytes × 2 = 2 KiB of buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuTimerSettings {
    /// Frames that can be in flight (recording, resolving, mapping or waiting to be read) at once.
    ///
    /// Default 4: results arrive about two frames late, so 3 slots are busy in steady state and one
    /// spare absorbs a late poll. Range 1..=[`Self::MAX_FRAME_SLOTS`].
    pub frame_slots: usize,

    /// Timed passes and scopes per frame; past it a pass is not timed and
    /// [`crate::GpuTimerStats::skipped_passes`] counts it. Default 16. Range 1..=2048, and
    /// this rounded up to 16, times `frames_per_readback`, at most 2048 (a readback group's
    /// frames share one query set, which holds at most 4096 timestamps).
    pub max_passes_per_frame: u32,
    /// Ended frames read back together, with one resolve, one buffer copy and one map:
    /// consecutive slots share a query set and their resolve and readback buffers in groups
    /// of this many, and a group is read back when its last frame ends, or earlier by
    /// [`crate::GpuTimer::flush`].
    ///
    /// Default 1: each frame is read back on its own, about two frames late. More saves the
    /// map round trip per frame (request, completion, mapped view, unmap: with 4, egui-hud's
    /// timed frames on lavapipe took about 13 µs less CPU and 9 fewer allocations) at the
    /// price of results up to this many frames later, and needs a `flush` when the app stops
    /// drawing (an idle app's last frames would wait for their group otherwise). Must divide
    /// `frame_slots`; keep at least two groups (`frame_slots ≥ 2 ×` this) so that one fills
    /// while the other is read back.
    pub frames_per_readback: usize,

    /// Any pass longer than this is rejected as implausible (a wrapped or reset clock, a
    /// mismatched pair). Default 1 s; must be positive and finite.
    pub max_plausible_duration_secs: f64,

    /// Optional extra check: reject a pass longer than this many CPU frame intervals (the time
    /// between this frame's `begin_frame` and the previous one). Default `None` (off), because
    /// unpaced loops can begin frames faster than the GPU finishes them; vsync-paced apps such as
    /// eframe can set e.g. `Some(4.0)`. Must be ≥ 1 when set.
    pub max_frame_interval_factor: Option<f64>,

    /// Calibration tries per [`crate::GpuTimer::calibrate`]; the tightest bracket wins.
    /// Default 8; range 1..=64. Each try is one blocking round trip to the GPU (~60 µs–1 ms).
    pub calibration_tries: u32,

    /// Age after which [`crate::GpuTimer::recalibrate_if_stale`] calibrates again to follow the
    /// drift between GPU and CPU clocks. Default 10 s.
    pub recalibration_interval: Duration,

    /// Call `device.poll(PollType::Poll)` (non-blocking) in [`crate::GpuTimer::poll_results`], so
    /// results also arrive in an idle app that does not submit. Default `true`; turn it off if
    /// another thread polls the device.
    pub poll_device: bool,
}

impl Default for GpuTimerSettings {
    fn default() -> Self {
        Self {
            frame_slots: 4,
            max_passes_per_frame: 16,
            frames_per_readback: 1,
            max_plausible_duration_secs: 1.0,
            max_frame_interval_factor: None,
            calibration_tries: 8,
            recalibration_interval: Duration::from_secs(10),
            poll_device: true,
        }
    }
}

impl GpuTimerSettings {
    /// The most frames a timer keeps in flight ([`Self::frame_slots`]'s upper bound).
    pub const MAX_FRAME_SLOTS: usize = 16;

    /// Checks every field's range; [`crate::GpuTimer::new`] calls it.
    ///
    /// # Errors
    /// [`GpuTimingError::InvalidSettings`] naming the first bad field.
    pub fn validate(&self) -> Result<(), GpuTimingError> {
        let bad = |field, problem| Err(GpuTimingError::InvalidSettings { field, problem });
        if !(1..=Self::MAX_FRAME_SLOTS).contains(&self.frame_slots) {
            return bad("frame_slots", "must be in 1..=16");
        }
        if !(1..=2048).contains(&self.max_passes_per_frame) {
            return bad("max_passes_per_frame", "must be in 1..=2048");
        }
        if self.frames_per_readback == 0
            || !self.frame_slots.is_multiple_of(self.frames_per_readback)
        {
            return bad(
                "frames_per_readback",
                "must be at least 1 and divide frame_slots (e.g. 8 slots in groups of 4)",
            );
        }
        let region_bytes = ReadbackGroup::region_bytes(self.max_passes_per_frame);
        let group_queries =
            self.frames_per_readback as u64 * ReadbackGroup::queries_per_region(region_bytes);
        if group_queries > u64::from(wgpu::QUERY_SET_MAX_QUERIES) {
            return bad(
                "frames_per_readback",
                "times max_passes_per_frame rounded up to 16 must be at most 2048: a readback \
                 group's frames share one query set of at most 4096 timestamps (lower either)",
            );
        }
        if !(self.max_plausible_duration_secs.is_finite() && self.max_plausible_duration_secs > 0.0)
        {
            return bad("max_plausible_duration_secs", "must be positive and finite");
        }
        if let Some(factor) = self.max_frame_interval_factor
            && !(factor.is_finite() && factor >= 1.0)
        {
            return bad(
                "max_frame_interval_factor",
                "must be finite and at least 1 when set",
            );
        }
        if !(1..=64).contains(&self.calibration_tries) {
            return bad("calibration_tries", "must be in 1..=64");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::GpuTimerSettings;
    use crate::GpuTimingError;

    #[test]
    fn default_is_valid_and_each_bad_field_is_named() {
        assert_eq!(GpuTimerSettings::default().validate(), Ok(()));
        // The largest group that fits one query set: 4 frames of 512 passes.
        let largest = GpuTimerSettings {
            frame_slots: 8,
            frames_per_readback: 4,
            max_passes_per_frame: 512,
            ..Default::default()
        };
        assert_eq!(largest.validate(), Ok(()));
        let cases: [(GpuTimerSettings, &str); 8] = [
            (
                // 513 passes take 1 056 timestamps a frame (rounded up to 32): 4 224 a group.
                GpuTimerSettings {
                    max_passes_per_frame: 513,
                    ..largest.clone()
                },
                "frames_per_readback",
            ),
            (
                GpuTimerSettings {
                    frame_slots: 0,
                    ..Default::default()
                },
                "frame_slots",
            ),
            (
                GpuTimerSettings {
                    max_passes_per_frame: 4096,
                    ..Default::default()
                },
                "max_passes_per_frame",
            ),
            (
                GpuTimerSettings {
                    frame_slots: 6,
                    frames_per_readback: 4,
                    ..Default::default()
                },
                "frames_per_readback",
            ),
            (
                // Two frames of 2 048 passes: 8 192 timestamps, past one query set's 4 096.
                GpuTimerSettings {
                    frame_slots: 4,
                    frames_per_readback: 2,
                    max_passes_per_frame: 2048,
                    ..Default::default()
                },
                "frames_per_readback",
            ),
            (
                GpuTimerSettings {
                    max_plausible_duration_secs: f64::NAN,
                    ..Default::default()
                },
                "max_plausible_duration_secs",
            ),
            (
                GpuTimerSettings {
                    max_frame_interval_factor: Some(0.5),
                    ..Default::default()
                },
                "max_frame_interval_factor",
            ),
            (
                GpuTimerSettings {
                    calibration_tries: 0,
                    ..Default::default()
                },
                "calibration_tries",
            ),
        ];
        for (settings, expected) in cases {
            match settings.validate() {
                Err(GpuTimingError::InvalidSettings { field, .. }) => {
                    assert_eq!(field, expected, "wrong field");
                }
                other => panic!("{expected}: expected InvalidSettings, got {other:?}"),
            }
        }
    }
}
