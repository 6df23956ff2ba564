#![cfg_attr(
    not(feature = "wgpu"),
    expect(dead_code, reason = "paint and GPU marks come from the wgpu timer")
)]

use std::time::Duration;

use profiler_core::LatencyMarks;

/// Frames kept waiting for their paint and GPU marks; GPU results come back 2–4 frames late,
/// and a frame still waiting when this many have followed it is handed on without them.
const MAX_WAITING: usize = 8;

/// Gathers one viewport's latency marks as they come in and hands each counted frame on once
/// it is complete: the start and UI end at the frame's end, the next frame's start when that
/// frame begins, the paint marks (wgpu) at the next frame's HUD draw, the GPU marks when its
/// results arrive. A mark that never comes leaves its stages absent for that frame.
#[derive(Debug)]
pub(crate) struct LatencyAssembly {
    /// The last counted frame (its sequence number and marks), until the next one starts.
    open: Option<(u64, LatencyMarks)>,
    /// Frames that ended and whose paint or GPU marks are still to come, oldest first.
    waiting: Vec<Waiting>,
}

#[derive(Clone, Copy, Debug)]
struct Waiting {
    /// The HUD's sequence number of the frame: paint marks name it.
    sequence: u64,
    marks: LatencyMarks,
    /// Whether the paint marks were asked for (they come at the next frame's HUD draw).
    painted_checked: bool,
    /// The GPU timer's frame whose results carry its GPU marks.
    gpu_frame: Option<u64>,
}

/// What the renderer reported of a painted frame, on the HUD's clock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PaintMarks {
    /// The HUD's sequence number of the painted frame.
    pub(crate) sequence: u64,
    pub(crate) gpu_frame: u64,
    pub(crate) render_start: Option<Duration>,
    pub(crate) encode_end: Option<Duration>,
}

impl Default for LatencyAssembly {
    fn default() -> Self {
        Self {
            open: None,
            waiting: Vec::with_capacity(MAX_WAITING),
        }
    }
}

impl LatencyAssembly {
    /// The counted frame `sequence` ended with these marks (start, UI end, its request).
    pub(crate) fn frame_counted(
        &mut self,
        sequence: u64,
        marks: LatencyMarks,
        complete: impl FnOnce(&LatencyMarks),
    ) {
        // A counted frame not followed by a start: as it is.
        if let Some((_, unfinished)) = self.open.replace((sequence, marks)) {
            complete(&unfinished);
        }
    }

    /// The viewport's next frame started at `now`. `paint_marks_expected`: the renderer
    /// reports paint and GPU marks (wgpu with in-pass timestamps); otherwise the frame is
    /// complete now.
    pub(crate) fn frame_started(
        &mut self,
        now: Duration,
        paint_marks_expected: bool,
        mut complete: impl FnMut(&LatencyMarks),
    ) {
        let Some((sequence, mut marks)) = self.open.take() else {
            return;
        };
        marks.next_frame_start = Some(now);
        if !paint_marks_expected {
            complete(&marks);
            return;
        }
        if self.waiting.len() == MAX_WAITING {
            let oldest = self.waiting.remove(0);
            complete(&oldest.marks);
        }
        self.waiting.push(Waiting {
            sequence,
            marks,
            painted_checked: false,
            gpu_frame: None,
        });
    }

    /// The renderer's marks of the latest frame painted with stamps, if any since the last
    /// call. Ended frames that were not painted with stamps before it (hidden HUD, a backend
    /// without in-pass timestamps) have no paint or GPU marks and are handed on.
    pub(crate) fn painted(
        &mut self,
        paint: Option<PaintMarks>,
        mut complete: impl FnMut(&LatencyMarks),
    ) {
        if let Some(paint) = paint
            && let Some(waiting) = self
                .waiting
                .iter_mut()
                .find(|w| w.sequence == paint.sequence)
        {
            waiting.painted_checked = true;
            waiting.marks.render_start = paint.render_start;
            waiting.marks.encode_end = paint.encode_end;
            waiting.gpu_frame = Some(paint.gpu_frame);
        }
        // The renderer paints a frame before the next one starts: one still unchecked now
        // was not painted with stamps.
        self.waiting.retain(|waiting| {
            if !waiting.painted_checked {
                complete(&waiting.marks);
            }
            waiting.painted_checked
        });
    }

    /// GPU results of the timer's frame `gpu_frame` arrived: egui's pass on the HUD's clock.
    pub(crate) fn gpu_done(
        &mut self,
        gpu_frame: u64,
        egui_pass: Option<(Duration, Duration)>,
        complete: impl FnOnce(&LatencyMarks),
    ) {
        let Some(index) = self
            .waiting
            .iter()
            .position(|w| w.gpu_frame == Some(gpu_frame))
        else {
            return;
        };
        let mut waiting = self.waiting.remove(index);
        if let Some((begin, end)) = egui_pass {
            waiting.marks.gpu_begin = Some(begin);
            waiting.marks.gpu_end = Some(end);
        }
        complete(&waiting.marks);
    }

    /// The HUD stopped or restarted: nothing waits any more.
    pub(crate) fn clear(&mut self) {
        self.open = None;
        self.waiting.clear();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use profiler_core::{LatencyMarks, LatencyStage};

    use super::{LatencyAssembly, PaintMarks};

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn counted(start: u64) -> LatencyMarks {
        LatencyMarks {
            frame_start: Some(ms(start)),
            ui_end: Some(ms(start + 2)),
            ..LatencyMarks::default()
        }
    }

    #[test]
    fn a_frame_is_handed_on_when_its_gpu_marks_arrive() {
        let mut assembly = LatencyAssembly::default();
        let mut done = Vec::new();
        assembly.frame_counted(1, counted(0), |m| done.push(*m));
        assembly.frame_started(ms(16), true, |m| done.push(*m));
        assert!(done.is_empty(), "paint and GPU marks are still to come");
        let paint = PaintMarks {
            sequence: 1,
            gpu_frame: 7,
            render_start: Some(ms(3)),
            encode_end: Some(ms(4)),
        };
        assembly.painted(Some(paint), |m| done.push(*m));
        assembly.gpu_done(7, Some((ms(5), ms(9))), |m| done.push(*m));
        let [marks] = done.as_slice() else {
            panic!("one frame: {done:?}");
        };
        let path: i64 = LatencyStage::FRAME_PATH
            .iter()
            .map(|&stage| marks.stage_nanos(stage).expect("all marks"))
            .sum();
        assert_eq!(path, 16_000_000);
    }

    #[test]
    fn a_frame_without_paint_marks_is_handed_on_without_gpu_stages() {
        let mut assembly = LatencyAssembly::default();
        let mut done = Vec::new();
        assembly.frame_counted(1, counted(0), |m| done.push(*m));
        assembly.frame_started(ms(16), true, |m| done.push(*m));
        assembly.painted(None, |m| done.push(*m));
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].stage_nanos(LatencyStage::Gpu), None);
        assert_eq!(done[0].stage_nanos(LatencyStage::Ui), Some(2_000_000));

        // glow: complete at the next start.
        assembly.frame_counted(2, counted(16), |m| done.push(*m));
        assembly.frame_started(ms(32), false, |m| done.push(*m));
        assert_eq!(done.len(), 2);
    }

    #[test]
    fn frames_whose_results_never_come_leave_after_eight() {
        let mut assembly = LatencyAssembly::default();
        let mut done = Vec::new();
        for frame in 0..10_u64 {
            assembly.frame_counted(frame, counted(frame * 16), |m| done.push(*m));
            assembly.frame_started(ms(frame * 16 + 16), true, |m| done.push(*m));
            let paint = PaintMarks {
                sequence: frame,
                gpu_frame: frame,
                render_start: Some(ms(frame * 16 + 3)),
                encode_end: Some(ms(frame * 16 + 4)),
            };
            assembly.painted(Some(paint), |m| done.push(*m));
        }
        assert_eq!(
            done.len(),
            2,
            "the two oldest were handed on without GPU marks"
        );
        assert!(done.iter().all(|m| m.gpu_end.is_none()));
    }
}
