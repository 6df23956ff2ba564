//! Gathering a counted frame's marks as they arrive, frames after it ended.

use std::time::Duration;

use crate::record::frame_phases::FramePhases;
use crate::record::frame_trace::FrameTrace;

/// Frames kept waiting for their paint, GPU and presentation marks; GPU results come back 2–4
/// frames late, presentations 1–3, and a frame still waiting when this many have followed it
/// is handed on without them.
const MAX_WAITING: usize = 8;

/// Gathers what the HUD learns about each counted frame of a viewport as it comes in, and
/// hands the frame on once it is complete: its start, UI end and causes at its end, the next
/// frame's start when that frame begins, its CPU time and the paint marks (wgpu) at the next
/// frame's HUD draw, its GPU results and marks a few frames later, and, with a presentation
/// source, when it was shown. What never comes stays unknown for that frame (its latency
/// stages absent).
#[derive(Debug)]
pub struct FrameAssembly {
    /// The last counted frame, until the next one starts.
    open: Option<Waiting>,
    /// Frames that ended and whose paint, GPU or presentation marks are still to come, oldest
    /// first.
    waiting: Vec<Waiting>,
    /// Whether a presentation source reports each frame (the frames then wait for it).
    expects_presentations: bool,
}

#[derive(Debug)]
struct Waiting {
    trace: FrameTrace,
    /// Whether the paint marks were asked for (they come at the next frame's HUD draw).
    painted_checked: bool,
    /// The GPU timer's frame whose results carry its GPU marks.
    gpu_frame: Option<u64>,
    /// Whether GPU results may still come (until the paint check says none will, or they do).
    gpu_pending: bool,
    /// Whether the window system's report is still to come.
    screen_pending: bool,
}

impl Waiting {
    fn is_complete(&self) -> bool {
        self.painted_checked && !self.gpu_pending && !self.screen_pending
    }
}

/// What the renderer reported of a painted frame, on the HUD's clock.
#[derive(Clone, Copy, Debug)]
pub struct PaintMarks {
    /// The HUD's sequence number of the painted frame.
    pub sequence: u64,
    /// The GPU timer's frame whose results carry its GPU marks.
    pub gpu_frame: u64,
    /// When the renderer began painting it.
    pub render_start: Option<Duration>,
    /// When the renderer finished encoding it.
    pub encode_end: Option<Duration>,
}

impl Default for FrameAssembly {
    fn default() -> Self {
        Self {
            open: None,
            waiting: Vec::with_capacity(MAX_WAITING),
            expects_presentations: false,
        }
    }
}

impl FrameAssembly {
    /// Whether a presentation source reports the frames from now on: frames counted after this
    /// wait for [`Self::presented`].
    pub fn set_expects_presentations(&mut self, expects: bool) {
        self.expects_presentations = expects;
    }

    /// A counted frame ended (start, UI end, request, draw, causes known).
    pub fn frame_counted(&mut self, trace: FrameTrace, complete: impl FnOnce(FrameTrace)) {
        let waiting = Waiting {
            trace,
            painted_checked: false,
            gpu_frame: None,
            gpu_pending: true,
            screen_pending: self.expects_presentations,
        };
        // A counted frame not followed by a start: as it is.
        if let Some(unfinished) = self.open.replace(waiting) {
            complete(unfinished.trace);
        }
    }

    /// The viewport's next frame started at `now`: the last counted frame waits for its CPU
    /// time and paint marks (at this frame's HUD draw), its GPU results and its presentation.
    pub fn frame_started(&mut self, now: Duration, mut complete: impl FnMut(FrameTrace)) {
        let Some(mut waiting) = self.open.take() else {
            return;
        };
        waiting.trace.marks.next_frame_start = Some(now);
        if self.waiting.len() == MAX_WAITING {
            let oldest = self.waiting.remove(0);
            complete(oldest.trace);
        }
        self.waiting.push(waiting);
    }

    /// The CPU time of the frame `sequence` (its draw and the phases around it), and its
    /// phases.
    pub fn cpu_reported(&mut self, sequence: u64, total: Duration, phases: FramePhases) {
        if let Some(waiting) = self.find(sequence) {
            waiting.trace.cpu = Some((total, phases));
        }
    }

    /// The renderer's marks of the latest frame painted with stamps, if any since the last
    /// call. Ended frames that were not painted with stamps before it (hidden HUD, a backend
    /// without in-pass timestamps) get no paint or GPU marks, and are handed on unless their
    /// presentation is still to come.
    pub fn painted(&mut self, paint: Option<PaintMarks>, complete: impl FnMut(FrameTrace)) {
        if let Some(paint) = paint
            && let Some(waiting) = self
                .waiting
                .iter_mut()
                .find(|w| w.trace.sequence == paint.sequence)
        {
            waiting.painted_checked = true;
            waiting.trace.marks.render_start = paint.render_start;
            waiting.trace.marks.encode_end = paint.encode_end;
            waiting.gpu_frame = Some(paint.gpu_frame);
        }
        // The renderer paints a frame before the next one starts: one still unchecked now
        // was not painted with stamps, and no GPU results will come for it.
        for waiting in &mut self.waiting {
            if !waiting.painted_checked {
                waiting.painted_checked = true;
                waiting.gpu_pending = false;
            }
        }
        self.hand_on_complete(complete);
    }

    /// GPU results of the timer's frame `gpu_frame` arrived: its total and passes, and egui's
    /// pass on the HUD's clock.
    pub fn gpu_done(
        &mut self,
        gpu_frame: u64,
        gpu: (Duration, FramePhases),
        egui_pass: Option<(Duration, Duration)>,
        complete: impl FnMut(FrameTrace),
    ) {
        let Some(waiting) = self
            .waiting
            .iter_mut()
            .find(|w| w.gpu_frame == Some(gpu_frame))
        else {
            return;
        };
        if let Some((begin, end)) = egui_pass {
            waiting.trace.marks.gpu_begin = Some(begin);
            waiting.trace.marks.gpu_end = Some(end);
        }
        waiting.trace.gpu = Some(gpu);
        waiting.gpu_pending = false;
        self.hand_on_complete(complete);
    }

    /// The window system reported frame `sequence`: shown at `on_screen`, or (`None`) not
    /// shown or never reported.
    pub fn presented(
        &mut self,
        sequence: u64,
        on_screen: Option<Duration>,
        complete: impl FnMut(FrameTrace),
    ) {
        let Some(waiting) = self.find(sequence) else {
            return;
        };
        waiting.trace.marks.on_screen = on_screen;
        waiting.screen_pending = false;
        self.hand_on_complete(complete);
    }

    /// The HUD stopped or restarted: nothing waits any more.
    pub fn clear(&mut self) {
        self.open = None;
        self.waiting.clear();
    }

    fn find(&mut self, sequence: u64) -> Option<&mut Waiting> {
        self.waiting
            .iter_mut()
            .chain(self.open.as_mut())
            .find(|w| w.trace.sequence == sequence)
    }

    /// Hands on every waiting frame that has all its marks, oldest first.
    fn hand_on_complete(&mut self, mut complete: impl FnMut(FrameTrace)) {
        let mut index = 0;
        while let Some(waiting) = self.waiting.get(index) {
            if waiting.is_complete() {
                complete(self.waiting.remove(index).trace);
            } else {
                index += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::SystemTime;
    use crate::latency_marks::LatencyMarks;
    use crate::latency_stage::LatencyStage;

    use super::{FrameAssembly, PaintMarks};
    use crate::record::frame_phases::FramePhases;
    use crate::record::frame_trace::FrameTrace;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn counted(sequence: u64, start: u64) -> FrameTrace {
        let mut trace = FrameTrace::new(sequence, SystemTime::UNIX_EPOCH);
        trace.marks = LatencyMarks {
            frame_start: Some(ms(start)),
            ui_end: Some(ms(start + 2)),
            ..LatencyMarks::default()
        };
        trace
    }

    #[test]
    fn a_frame_is_handed_on_when_its_gpu_results_arrive() {
        let mut assembly = FrameAssembly::default();
        let mut done = Vec::new();
        assembly.frame_counted(counted(1, 0), |t| done.push(t));
        assembly.frame_started(ms(16), |t| done.push(t));
        assembly.cpu_reported(1, ms(3), FramePhases::default());
        assert!(done.is_empty(), "paint and GPU marks are still to come");
        let paint = PaintMarks {
            sequence: 1,
            gpu_frame: 7,
            render_start: Some(ms(3)),
            encode_end: Some(ms(4)),
        };
        assembly.painted(Some(paint), |t| done.push(t));
        assembly.gpu_done(
            7,
            (ms(4), FramePhases::default()),
            Some((ms(5), ms(9))),
            |t| done.push(t),
        );
        let [trace] = done.as_slice() else {
            panic!("one frame: {done:?}");
        };
        let path: i64 = LatencyStage::FRAME_PATH
            .iter()
            .map(|&stage| trace.marks.stage_nanos(stage).expect("all marks"))
            .sum();
        assert_eq!(path, 16_000_000);
        assert_eq!(trace.cpu.as_ref().map(|c| c.0), Some(ms(3)));
        assert_eq!(trace.gpu.as_ref().map(|g| g.0), Some(ms(4)));
    }

    #[test]
    fn a_frame_without_paint_marks_is_handed_on_at_the_next_draw() {
        let mut assembly = FrameAssembly::default();
        let mut done = Vec::new();
        assembly.frame_counted(counted(1, 0), |t| done.push(t));
        assembly.frame_started(ms(16), |t| done.push(t));
        assembly.painted(None, |t| done.push(t));
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].marks.stage_nanos(LatencyStage::Gpu), None);
        assert_eq!(done[0].marks.stage_nanos(LatencyStage::Ui), Some(2_000_000));
    }

    #[test]
    fn frames_whose_results_never_come_leave_after_eight() {
        let mut assembly = FrameAssembly::default();
        let mut done = Vec::new();
        for frame in 0..10_u64 {
            assembly.frame_counted(counted(frame, frame * 16), |t| done.push(t));
            assembly.frame_started(ms(frame * 16 + 16), |t| done.push(t));
            let paint = PaintMarks {
                sequence: frame,
                gpu_frame: frame,
                render_start: Some(ms(frame * 16 + 3)),
                encode_end: Some(ms(frame * 16 + 4)),
            };
            assembly.painted(Some(paint), |t| done.push(t));
        }
        assert_eq!(
            done.len(),
            2,
            "the two oldest were handed on without GPU marks"
        );
        assert!(done.iter().all(|t| t.marks.gpu_end.is_none()));
    }

    #[test]
    fn a_frame_waits_for_its_presentation_when_a_source_reports() {
        let mut assembly = FrameAssembly::default();
        assembly.set_expects_presentations(true);
        let mut done = Vec::new();
        assembly.frame_counted(counted(1, 0), |t| done.push(t));
        // Shown before the next frame starts (an idle app): the mark waits with the frame.
        assembly.presented(1, Some(ms(10)), |t| done.push(t));
        assembly.frame_started(ms(16), |t| done.push(t));
        assembly.frame_counted(counted(2, 16), |t| done.push(t));
        assembly.frame_started(ms(32), |t| done.push(t));
        assembly.painted(None, |t| done.push(t));
        assert_eq!(done.len(), 1, "frame 2's presentation is still to come");
        assert_eq!(done[0].sequence, 1);
        assert_eq!(
            done[0].marks.stage_nanos(LatencyStage::ToScreen),
            Some(8_000_000),
            "UI end at 2 ms, shown at 10 ms"
        );
        assembly.presented(2, None, |t| done.push(t));
        assert_eq!(done.len(), 2, "discarded: handed on without the mark");
        assert_eq!(done[1].marks.on_screen, None);
    }
}
