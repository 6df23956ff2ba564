//! Gathering a counted frame's marks as they arrive, frames after it ended.

use crate::SystemTime;
use std::time::Duration;

use crate::record::frame_phases::FramePhases;
use crate::record::frame_trace::FrameTrace;

/// Frames kept waiting for their paint, GPU and presentation marks; GPU results come back 2–4
/// frames late, up to 11 where the GPU timer reads frames back in groups of eight (egui-hud's
/// does), presentations 1–3 (up to 6 where they are read every fourth frame, as egui-hud
/// reads them), and a frame still waiting when this many have followed it is handed on
/// without them.
const MAX_WAITING: usize = 16;

/// Gathers what the HUD learns about each counted frame of a viewport as it comes in, and
/// hands the frame on once it is complete: its start, UI end and causes at its end, the next
/// frame's start when that frame begins, its CPU time and the paint marks (wgpu) at the next
/// frame's HUD draw, its GPU results and marks a few frames later, and, with a presentation
/// source, when it was shown. What never comes stays unknown for that frame (its latency
/// stages absent).
///
/// A frame stays in one slot from its end until it is handed on: a [`FrameTrace`] is about
/// 2 KB, and moving it through a queue (in, along, out) was most of the record's cost per
/// frame. It is handed on by reference, so that the receiver can swap it into its own
/// storage ([`crate::record::frame_log::FrameLog::add_swapping`]); the slot then holds
/// whatever the receiver left there, unread until a new frame is written over it. The slots
/// are allocated once.
#[derive(Debug)]
pub struct FrameAssembly {
    /// The last counted frame (until the next one starts) and the frames that ended and wait
    /// for their paint, GPU or presentation marks: `MAX_WAITING + 1` slots, in no order (each
    /// knows its place in the order frames ended).
    slots: Box<[Slot]>,
    /// Frames counted so far: the order of the slots' frames.
    counted: u64,
    /// Whether a presentation source reports each frame (the frames then wait for it).
    expects_presentations: bool,
}

#[derive(Debug)]
struct Slot {
    trace: FrameTrace,
    state: SlotState,
    /// The frame's place in the order frames ended (oldest first).
    order: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotState {
    /// Holds nothing to read.
    Free,
    /// The last counted frame, until the next one starts.
    Open {
        /// Whether the window system's report is still to come.
        screen_pending: bool,
    },
    /// Ended, its next frame started; some marks may still come.
    Waiting(WaitState),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WaitState {
    /// Whether the paint marks were asked for (they come at the next frame's HUD draw).
    painted_checked: bool,
    /// The GPU timer's frame whose results carry its GPU marks.
    gpu_frame: Option<u64>,
    /// Whether GPU results may still come (until the paint check says none will, or they do).
    gpu_pending: bool,
    /// Whether the window system's report is still to come.
    screen_pending: bool,
}

impl WaitState {
    fn is_complete(self) -> bool {
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
        let slots = (0..=MAX_WAITING)
            .map(|_| Slot {
                trace: FrameTrace::new(0, SystemTime::UNIX_EPOCH),
                state: SlotState::Free,
                order: 0,
            })
            .collect();
        Self {
            slots,
            counted: 0,
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

    /// A counted frame ended (start, UI end, request, draw, causes known). `complete` receives
    /// each frame handed on, and may swap it out.
    pub fn frame_counted(&mut self, trace: FrameTrace, complete: impl FnMut(&mut FrameTrace)) {
        self.count(|slot| *slot = trace, complete);
    }

    /// As [`Self::frame_counted`], with the frame written where it waits: its slot's record is
    /// made what `FrameTrace::new(sequence, wall_clock)` makes, field by field, and `fill`
    /// writes what is known of it. Nothing of about 1.8 KB is built and moved in: what a
    /// viewport does every frame.
    pub fn frame_counted_in_place(
        &mut self,
        sequence: u64,
        wall_clock: SystemTime,
        fill: impl FnOnce(&mut FrameTrace),
        complete: impl FnMut(&mut FrameTrace),
    ) {
        self.count(
            |slot| {
                slot.reset(sequence, wall_clock);
                fill(slot);
            },
            complete,
        );
    }

    /// Counts a frame: hands on the open one, and `write`s the new frame into a free slot.
    fn count(
        &mut self,
        write: impl FnOnce(&mut FrameTrace),
        mut complete: impl FnMut(&mut FrameTrace),
    ) {
        // A counted frame not followed by a start: as it is.
        if let Some(open) = self.position(|state| matches!(state, SlotState::Open { .. })) {
            self.hand_on(open, &mut complete);
        }
        let Some(free) = self.position(|state| state == SlotState::Free) else {
            debug_assert!(false, "one slot more than frames may wait: one is free");
            return;
        };
        self.counted += 1;
        if let Some(slot) = self.slots.get_mut(free) {
            write(&mut slot.trace);
            slot.state = SlotState::Open {
                screen_pending: self.expects_presentations,
            };
            slot.order = self.counted;
        }
    }

    /// The viewport's next frame started at `now`: the last counted frame waits for its CPU
    /// time and paint marks (at this frame's HUD draw), its GPU results and its presentation.
    pub fn frame_started(&mut self, now: Duration, mut complete: impl FnMut(&mut FrameTrace)) {
        let Some(open) = self.position(|state| matches!(state, SlotState::Open { .. })) else {
            return;
        };
        let waiting = self
            .slots
            .iter()
            .filter(|slot| matches!(slot.state, SlotState::Waiting(_)))
            .count();
        if waiting == MAX_WAITING
            && let Some(oldest) = self.oldest(|state| matches!(state, SlotState::Waiting(_)))
        {
            self.hand_on(oldest, &mut complete);
        }
        if let Some(slot) = self.slots.get_mut(open)
            && let SlotState::Open { screen_pending } = slot.state
        {
            slot.trace.marks.next_frame_start = Some(now);
            slot.state = SlotState::Waiting(WaitState {
                painted_checked: false,
                gpu_frame: None,
                gpu_pending: true,
                screen_pending,
            });
        }
    }

    /// The CPU time of the frame `sequence` (its draw and the phases around it), and its
    /// phases.
    pub fn cpu_reported(&mut self, sequence: u64, total: Duration, phases: &FramePhases) {
        if let Some(slot) = self.find(sequence) {
            slot.trace.cpu = Some((total, phases.clone()));
        }
    }

    /// The renderer's marks of the latest frame painted with stamps, if any since the last
    /// call. Ended frames that were not painted with stamps before it (hidden HUD, a backend
    /// without in-pass timestamps) get no paint or GPU marks, and are handed on unless their
    /// presentation is still to come.
    pub fn painted(&mut self, paint: Option<PaintMarks>, complete: impl FnMut(&mut FrameTrace)) {
        for slot in &mut self.slots {
            let SlotState::Waiting(pending) = &mut slot.state else {
                continue;
            };
            if let Some(paint) = paint
                && slot.trace.sequence == paint.sequence
            {
                pending.painted_checked = true;
                slot.trace.marks.render_start = paint.render_start;
                slot.trace.marks.encode_end = paint.encode_end;
                pending.gpu_frame = Some(paint.gpu_frame);
            } else if !pending.painted_checked {
                // The renderer paints a frame before the next one starts: one still unchecked
                // now was not painted with stamps, and no GPU results will come for it.
                pending.painted_checked = true;
                pending.gpu_pending = false;
            }
        }
        self.hand_on_complete(complete);
    }

    /// GPU results of the timer's frame `gpu_frame` arrived: its total and passes, and egui's
    /// pass on the HUD's clock.
    pub fn gpu_done(
        &mut self,
        gpu_frame: u64,
        (gpu_total, passes): (Duration, &FramePhases),
        egui_pass: Option<(Duration, Duration)>,
        complete: impl FnMut(&mut FrameTrace),
    ) {
        let Some(slot) = self.slots.iter_mut().find(|slot| {
            matches!(slot.state, SlotState::Waiting(pending) if pending.gpu_frame == Some(gpu_frame))
        }) else {
            return;
        };
        if let Some((begin, end)) = egui_pass {
            slot.trace.marks.gpu_begin = Some(begin);
            slot.trace.marks.gpu_end = Some(end);
        }
        slot.trace.gpu = Some((gpu_total, passes.clone()));
        if let SlotState::Waiting(pending) = &mut slot.state {
            pending.gpu_pending = false;
        }
        self.hand_on_complete(complete);
    }

    /// The window system reported frame `sequence`: shown at `on_screen`, or (`None`) not
    /// shown or never reported.
    pub fn presented(
        &mut self,
        sequence: u64,
        on_screen: Option<Duration>,
        complete: impl FnMut(&mut FrameTrace),
    ) {
        let Some(slot) = self.find(sequence) else {
            return;
        };
        slot.trace.marks.on_screen = on_screen;
        match &mut slot.state {
            SlotState::Open { screen_pending }
            | SlotState::Waiting(WaitState { screen_pending, .. }) => *screen_pending = false,
            SlotState::Free => {}
        }
        self.hand_on_complete(complete);
    }

    /// The HUD stopped or restarted: nothing waits any more.
    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            slot.state = SlotState::Free;
        }
    }

    /// The open or waiting frame `sequence`.
    fn find(&mut self, sequence: u64) -> Option<&mut Slot> {
        self.slots
            .iter_mut()
            .find(|slot| slot.state != SlotState::Free && slot.trace.sequence == sequence)
    }

    fn position(&self, wanted: impl Fn(SlotState) -> bool) -> Option<usize> {
        self.slots.iter().position(|slot| wanted(slot.state))
    }

    /// The slot of the oldest frame whose state is `wanted`.
    fn oldest(&self, wanted: impl Fn(SlotState) -> bool) -> Option<usize> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| wanted(slot.state))
            .min_by_key(|(_, slot)| slot.order)
            .map(|(index, _)| index)
    }

    /// Hands on the frame in slot `index` and frees the slot.
    fn hand_on(&mut self, index: usize, complete: &mut impl FnMut(&mut FrameTrace)) {
        if let Some(slot) = self.slots.get_mut(index) {
            debug_assert!(slot.state != SlotState::Free, "only a frame is handed on");
            slot.state = SlotState::Free;
            complete(&mut slot.trace);
        }
    }

    /// Hands on every waiting frame that has all its marks, oldest first.
    fn hand_on_complete(&mut self, mut complete: impl FnMut(&mut FrameTrace)) {
        while let Some(index) = self
            .oldest(|state| matches!(state, SlotState::Waiting(pending) if pending.is_complete()))
        {
            self.hand_on(index, &mut complete);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::SystemTime;
    use crate::latency_marks::LatencyMarks;
    use crate::latency_stage::LatencyStage;

    use super::{FrameAssembly, MAX_WAITING, PaintMarks};
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
        assembly.frame_counted(counted(1, 0), |t| done.push(t.clone()));
        assembly.frame_started(ms(16), |t| done.push(t.clone()));
        assembly.cpu_reported(1, ms(3), &FramePhases::default());
        assert!(done.is_empty(), "paint and GPU marks are still to come");
        let paint = PaintMarks {
            sequence: 1,
            gpu_frame: 7,
            render_start: Some(ms(3)),
            encode_end: Some(ms(4)),
        };
        assembly.painted(Some(paint), |t| done.push(t.clone()));
        assembly.gpu_done(
            7,
            (ms(4), &FramePhases::default()),
            Some((ms(5), ms(9))),
            |t| done.push(t.clone()),
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
        assembly.frame_counted(counted(1, 0), |t| done.push(t.clone()));
        assembly.frame_started(ms(16), |t| done.push(t.clone()));
        assembly.painted(None, |t| done.push(t.clone()));
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].marks.stage_nanos(LatencyStage::Gpu), None);
        assert_eq!(done[0].marks.stage_nanos(LatencyStage::Ui), Some(2_000_000));
    }

    #[test]
    fn frames_whose_results_never_come_leave_after_the_limit() {
        let mut assembly = FrameAssembly::default();
        let mut done = Vec::new();
        for frame in 0..MAX_WAITING as u64 + 2 {
            assembly.frame_counted(counted(frame, frame * 16), |t| done.push(t.clone()));
            assembly.frame_started(ms(frame * 16 + 16), |t| done.push(t.clone()));
            let paint = PaintMarks {
                sequence: frame,
                gpu_frame: frame,
                render_start: Some(ms(frame * 16 + 3)),
                encode_end: Some(ms(frame * 16 + 4)),
            };
            assembly.painted(Some(paint), |t| done.push(t.clone()));
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
        assembly.frame_counted(counted(1, 0), |t| done.push(t.clone()));
        // Shown before the next frame starts (an idle app): the mark waits with the frame.
        assembly.presented(1, Some(ms(10)), |t| done.push(t.clone()));
        assembly.frame_started(ms(16), |t| done.push(t.clone()));
        assembly.frame_counted(counted(2, 16), |t| done.push(t.clone()));
        assembly.frame_started(ms(32), |t| done.push(t.clone()));
        assembly.painted(None, |t| done.push(t.clone()));
        assert_eq!(done.len(), 1, "frame 2's presentation is still to come");
        assert_eq!(done[0].sequence, 1);
        assert_eq!(
            done[0].marks.stage_nanos(LatencyStage::ToScreen),
            Some(8_000_000),
            "UI end at 2 ms, shown at 10 ms"
        );
        assembly.presented(2, None, |t| done.push(t.clone()));
        assert_eq!(done.len(), 2, "discarded: handed on without the mark");
        assert_eq!(done[1].marks.on_screen, None);
    }

    #[test]
    fn frames_are_handed_on_in_the_order_they_ended_whatever_slot_they_took() {
        let mut assembly = FrameAssembly::default();
        let mut done = Vec::new();
        // Two frames more than wait, none painted: the two oldest are pushed out by the limit,
        // and the frames after them take the slots they left.
        let frames = MAX_WAITING as u64 + 2;
        for frame in 0..frames {
            assembly.frame_counted(counted(frame, frame * 16), |t| done.push(t.clone()));
            assembly.frame_started(ms(frame * 16 + 16), |t| done.push(t.clone()));
        }
        // One paint check completes all the waiting frames at once.
        assembly.painted(None, |t| done.push(t.clone()));
        let order: Vec<u64> = done.iter().map(|t| t.sequence).collect();
        assert_eq!(order, (0..frames).collect::<Vec<_>>());
    }
}
