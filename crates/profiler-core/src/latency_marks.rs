use std::time::Duration;

use crate::LatencyStage;
use crate::latency_total::LatencyEnd;

/// The marks of one frame's latency path, on the sampler's clock. A mark that is not known
/// (no request woke the frame, a backend without GPU timestamps, a clock that cannot place an
/// [`std::time::Instant`]) is `None`, and the stages that need it are absent for this frame,
/// never zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LatencyMarks {
    /// When the request that woke the frame was made (the one that fell due first).
    pub request: Option<Duration>,
    /// When that request fell due: its time plus its delay.
    pub due: Option<Duration>,
    /// The frame's first pass received its input.
    pub frame_start: Option<Duration>,
    /// The frame's final pass handed its output over.
    pub ui_end: Option<Duration>,
    /// The renderer began this frame's work (egui-wgpu's first paint callback `prepare`).
    pub render_start: Option<Duration>,
    /// egui's render pass was encoded (its last paint callback).
    pub encode_end: Option<Duration>,
    /// egui's pass began on the GPU, placed on this clock through a clock calibration.
    pub gpu_begin: Option<Duration>,
    /// egui's pass ended on the GPU, placed the same way.
    pub gpu_end: Option<Duration>,
    /// The next frame's first pass received its input.
    pub next_frame_start: Option<Duration>,
    /// The frame was shown, as the window system reported it
    /// ([`crate::presentation::PresentationSource`]); `None` without a source, or when the
    /// frame was discarded, skipped or never reported.
    pub on_screen: Option<Duration>,
}

impl LatencyMarks {
    /// The two marks `stage` runs between.
    pub fn bounds(&self, stage: LatencyStage) -> (Option<Duration>, Option<Duration>) {
        match stage {
            LatencyStage::Wake => (self.request, self.frame_start),
            LatencyStage::TimerLateness => (self.due, self.frame_start),
            LatencyStage::Ui => (self.frame_start, self.ui_end),
            LatencyStage::Tessellation => (self.ui_end, self.render_start),
            LatencyStage::Encode => (self.render_start, self.encode_end),
            LatencyStage::Queue => (self.encode_end, self.gpu_begin),
            LatencyStage::Gpu => (self.gpu_begin, self.gpu_end),
            LatencyStage::AfterGpu => (self.gpu_end, self.next_frame_start),
            LatencyStage::ToScreen => (self.gpu_end.or(self.ui_end), self.on_screen),
            LatencyStage::RequestToScreen => (self.request, self.on_screen),
        }
    }

    /// `stage` in this frame, in signed nanoseconds (end minus start: GPU marks placed through
    /// a calibration may land a little before the CPU mark before them); `None` unless both
    /// of its marks are known.
    pub fn stage_nanos(&self, stage: LatencyStage) -> Option<i64> {
        let (Some(start), Some(end)) = self.bounds(stage) else {
            return None;
        };
        let nanos = |d: Duration| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX);
        Some(nanos(end).saturating_sub(nanos(start)))
    }

    /// This frame's latency, request → `end`, in signed nanoseconds; `None` unless both marks
    /// are known (a frame woken by input has no request).
    pub fn latency_nanos(&self, end: LatencyEnd) -> Option<i64> {
        let end = match end {
            LatencyEnd::GpuEnd => self.gpu_end,
            LatencyEnd::UiEnd => self.ui_end,
        };
        let (Some(start), Some(end)) = (self.request, end) else {
            return None;
        };
        let nanos = |d: Duration| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX);
        Some(nanos(end).saturating_sub(nanos(start)))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::LatencyMarks;
    use crate::LatencyStage;

    #[expect(clippy::unnecessary_wraps, reason = "marks are options")]
    fn ms(v: u64) -> Option<Duration> {
        Some(Duration::from_millis(v))
    }

    #[test]
    fn the_path_stages_of_one_frame_sum_to_its_start_to_next_start() {
        let marks = LatencyMarks {
            request: ms(95),
            due: ms(98),
            frame_start: ms(100),
            ui_end: ms(104),
            render_start: ms(105),
            encode_end: ms(107),
            // Calibrated a little before the encode end: a negative queue, kept as it is.
            gpu_begin: Some(Duration::from_micros(106_900)),
            gpu_end: ms(112),
            next_frame_start: ms(117),
            on_screen: ms(125),
        };
        let sum: i64 = LatencyStage::FRAME_PATH
            .iter()
            .map(|&stage| marks.stage_nanos(stage).expect("every mark is known"))
            .sum();
        assert_eq!(sum, 17_000_000, "next start − start, exactly");
        assert_eq!(marks.stage_nanos(LatencyStage::Queue), Some(-100_000));
        assert_eq!(marks.stage_nanos(LatencyStage::Wake), Some(5_000_000));
        assert_eq!(
            marks.stage_nanos(LatencyStage::TimerLateness),
            Some(2_000_000)
        );
        assert_eq!(marks.stage_nanos(LatencyStage::ToScreen), Some(13_000_000));
        assert_eq!(
            marks.stage_nanos(LatencyStage::RequestToScreen),
            Some(30_000_000)
        );
    }

    #[test]
    fn a_stage_without_both_marks_is_absent() {
        let glow = LatencyMarks {
            frame_start: ms(100),
            ui_end: ms(104),
            next_frame_start: ms(117),
            ..LatencyMarks::default()
        };
        assert_eq!(glow.stage_nanos(LatencyStage::Ui), Some(4_000_000));
        for stage in [
            LatencyStage::Wake,
            LatencyStage::Tessellation,
            LatencyStage::Encode,
            LatencyStage::Queue,
            LatencyStage::Gpu,
            LatencyStage::AfterGpu,
            LatencyStage::ToScreen,
        ] {
            assert_eq!(glow.stage_nanos(stage), None, "{stage:?}");
        }
        let shown = LatencyMarks {
            on_screen: ms(120),
            ..glow
        };
        assert_eq!(
            shown.stage_nanos(LatencyStage::ToScreen),
            Some(16_000_000),
            "from the UI's hand-off where no GPU end is known"
        );
    }
}
