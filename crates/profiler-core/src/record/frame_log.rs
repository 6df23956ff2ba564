//! The retained window of complete frames, and the spikes among them.

use std::collections::VecDeque;
use std::time::Duration;

use crate::record::frame_trace::FrameTrace;
use crate::record::spike::Spike;
use crate::record::spike_threshold::{RECENT_FRAMES, SpikeThreshold};
use crate::sample_ring::SampleRing;

/// Spikes kept: the [`NEWEST_SPIKES`] newest and, of the older ones, the worst.
pub const MAX_SPIKES: usize = 16;
/// Spikes kept because they are the newest; the rest of [`MAX_SPIKES`] are the worst of the
/// older ones.
pub const NEWEST_SPIKES: usize = 8;

/// A viewport's counted frames with everything known about them: the retained window (as many
/// as the sampler keeps, for the exports) and up to [`MAX_SPIKES`] spikes: the
/// [`NEWEST_SPIKES`] newest and the worst of the older ones (by the figure that crossed the
/// threshold), so the worst frame since the log began is never pushed out by newer, smaller
/// ones. The window's memory is allocated once; a frame is moved in and evicts the oldest. A
/// spike allocates when it is recorded.
#[derive(Debug)]
pub struct FrameLog {
    retained: VecDeque<FrameTrace>,
    /// Each retained frame's draw time and start, in step with `retained`: the HUD's plot and
    /// spike marks read them at every refresh, and a walk through the ~2 KB frames for them
    /// touched two cache lines a frame, a hundred and more frames laid out over a few hundred KB.
    glances: VecDeque<(Duration, Option<Duration>)>,
    capacity: usize,
    /// Oldest first.
    spikes: VecDeque<Spike>,
    /// Spikes recorded since the log began, kept or not.
    spikes_seen: u64,
    threshold: SpikeThreshold,
    /// The slowest figure of each of the last [`RECENT_FRAMES`] frames (the stutter rule).
    recent: SampleRing<Duration>,
}

impl FrameLog {
    /// A log retaining `capacity` frames (0: spikes only), keeping spikes by `threshold`.
    /// Cost: the window's memory (about 1.8 KB a frame) allocated and written once, blank.
    pub fn new(capacity: usize, threshold: SpikeThreshold) -> Self {
        Self {
            retained: written_window(capacity),
            glances: VecDeque::with_capacity(capacity),
            capacity,
            spikes: VecDeque::with_capacity(MAX_SPIKES + 1),
            spikes_seen: 0,
            threshold,
            recent: SampleRing::with_capacity(RECENT_FRAMES),
        }
    }

    /// A complete frame, under the frame `budget` in effect: moved in, the oldest dropped.
    pub fn add(&mut self, mut trace: FrameTrace, budget: Duration) {
        self.add_swapping(&mut trace, budget);
    }

    /// As [`Self::add`], for a caller that keeps its frames in fixed slots: the frame is
    /// swapped in and `trace` holds, after the call, the frame it pushed out of the window
    /// (or a blank one while the window fills, or `trace` itself when the log retains
    /// none). Nothing is moved but the two frames swapped (a frame is about 1.8 KB), and those
    /// field by field, without the phases and cause slots neither has.
    pub fn add_swapping(&mut self, trace: &mut FrameTrace, budget: Duration) {
        let slowest = [
            Some(trace.draw),
            trace.cpu.as_ref().map(|(total, _)| *total),
            trace.gpu.as_ref().map(|(total, _)| *total),
            trace.handoff_interval,
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or_default();
        // A spike is over the rule's fixed part and, with the stutter rule, over a multiple of
        // the recent median too; a frame within the fixed part (nearly all) needs no median.
        let limit = self
            .threshold
            .duration(budget)
            .filter(|&fixed| slowest > fixed)
            .and_then(|fixed| self.stutter_floor().map(|floor| fixed.max(floor)));
        self.recent.push(slowest);
        if let Some(spike) = limit.and_then(|limit| Spike::of(trace, limit)) {
            self.keep(spike);
        }
        if self.capacity == 0 {
            return;
        }
        if self.glances.len() == self.capacity {
            self.glances.pop_front();
        }
        self.glances
            .push_back((trace.draw, trace.marks.frame_start));
        debug_assert_eq!(
            self.glances.len(),
            (self.retained.len() + 1).min(self.capacity),
            "one glance per retained frame, this one's included"
        );
        if self.retained.len() < self.capacity {
            let blank = FrameTrace::new(0, crate::SystemTime::UNIX_EPOCH);
            self.retained.push_back(std::mem::replace(trace, blank));
            return;
        }
        // Full: the oldest slot takes the frame and becomes the newest. On a full ring the
        // rotation moves nothing but the start (the window's room was allocated for exactly
        // its capacity).
        if let Some(oldest) = self.retained.front_mut() {
            oldest.swap_with(trace);
        }
        self.retained.rotate_left(1);
    }

    /// Adds `spike`; past [`MAX_SPIKES`], drops the least bad of those older than the
    /// [`NEWEST_SPIKES`] newest (the oldest of equals).
    fn keep(&mut self, spike: Spike) {
        self.spikes_seen += 1;
        self.spikes.push_back(spike);
        if self.spikes.len() <= MAX_SPIKES {
            return;
        }
        let older = self.spikes.len() - NEWEST_SPIKES;
        let least = self
            .spikes
            .iter()
            .take(older)
            .enumerate()
            .min_by_key(|&(index, s)| (s.worst, index))
            .map(|(index, _)| index);
        debug_assert!(least.is_some(), "MAX_SPIKES > NEWEST_SPIKES");
        if let Some(index) = least {
            self.spikes.remove(index);
        }
    }

    /// What the stutter rule adds to the fixed threshold: a multiple of the median of the frames
    /// before this one (not of itself); `None` for the first frame, which has none to be
    /// compared with and is judged by the budget only where the rule has no stutter part.
    fn stutter_floor(&self) -> Option<Duration> {
        match self.threshold.median_times() {
            Some(times) => self.recent_median().map(|median| median.mul_f64(times)),
            None => Some(Duration::ZERO),
        }
    }

    /// The median of the recent frames' slowest figures; `None` before the first frame.
    fn recent_median(&self) -> Option<Duration> {
        let mut recent = [Duration::ZERO; RECENT_FRAMES];
        let count = self.recent.len().min(RECENT_FRAMES);
        for (slot, value) in recent.iter_mut().zip(self.recent.iter()) {
            *slot = value;
        }
        let recent = recent.get_mut(..count)?;
        if recent.is_empty() {
            return None;
        }
        let middle = recent.len() / 2;
        let (_, median, _) = recent.select_nth_unstable(middle);
        Some(*median)
    }

    /// The kept spikes, oldest first: the [`NEWEST_SPIKES`] newest and the worst older ones.
    pub fn spikes(&self) -> &VecDeque<Spike> {
        &self.spikes
    }

    /// Spikes recorded since the log began, kept or not.
    pub fn spikes_seen(&self) -> u64 {
        self.spikes_seen
    }

    /// The worst spike since the log began (kept by construction), by the figure that crossed
    /// the threshold; the newest of equals.
    pub fn worst_spike(&self) -> Option<&Spike> {
        self.spikes.iter().max_by_key(|s| s.worst)
    }

    /// The rule spikes are kept by.
    pub fn threshold(&self) -> SpikeThreshold {
        self.threshold
    }

    /// The retained frames, oldest first.
    pub fn retained(&self) -> &VecDeque<FrameTrace> {
        &self.retained
    }

    /// The retained frames' draw times ([`FrameTrace::draw`]), oldest first, without reading
    /// the frames: kept beside them, 32 bytes a frame with [`Self::retained_starts`]. No
    /// allocation; the log keeps them for as many frames as it retains (none for a log of 0).
    pub fn retained_draws(&self) -> impl ExactSizeIterator<Item = Duration> + '_ {
        self.glances.iter().map(|&(draw, _)| draw)
    }

    /// The retained frames' starts (their [`LatencyMarks::frame_start`]), oldest first, read
    /// as cheaply as [`Self::retained_draws`].
    ///
    /// [`LatencyMarks::frame_start`]: crate::latency_marks::LatencyMarks::frame_start
    pub fn retained_starts(&self) -> impl ExactSizeIterator<Item = Option<Duration>> + '_ {
        self.glances.iter().map(|&(_, start)| start)
    }
}

/// An empty window with room for `capacity` frames, its memory written once. The window of
/// 120 frames is about 216 KB, which the allocator maps fresh: each page is faulted in when it
/// is first written. Left to the frames that fill it, that was a page fault every second frame
/// of the first 120 (`FrameLog::add_swapping` took 9–11 µs a frame in the demo on lavapipe
/// against 4.6–5.4 once full, and 3.5–4 with the window written first). Written here, the
/// faults are paid together when the log is made: at the HUD's first frame or a restart.
fn written_window(capacity: usize) -> VecDeque<FrameTrace> {
    let mut window = VecDeque::with_capacity(capacity);
    window.extend(
        std::iter::repeat_with(|| FrameTrace::new(0, crate::SystemTime::UNIX_EPOCH)).take(capacity),
    );
    // Emptied, its room kept: the pages stay the process's.
    window.clear();
    window
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::SystemTime;
    use crate::latency_marks::LatencyMarks;

    use super::{FrameLog, MAX_SPIKES};
    use crate::record::frame_trace::FrameTrace;
    use crate::record::spike_threshold::SpikeThreshold;

    fn frame(sequence: u64, draw_ms: u64) -> FrameTrace {
        let mut trace = FrameTrace::new(sequence, SystemTime::UNIX_EPOCH);
        trace.draw = Duration::from_millis(draw_ms);
        trace.marks = LatencyMarks {
            frame_start: Some(Duration::from_millis(sequence * 20)),
            ..LatencyMarks::default()
        };
        trace
    }

    #[test]
    fn one_slow_frame_among_fast_ones_is_the_only_spike() {
        let mut log = FrameLog::new(120, SpikeThreshold::default());
        let budget = Duration::from_millis(16);
        for sequence in 0..50 {
            let draw = if sequence == 20 { 50 } else { 4 };
            log.add(frame(sequence, draw), budget);
        }
        let spikes: Vec<_> = log.spikes().iter().map(|s| s.draw).collect();
        assert_eq!(spikes, [Duration::from_millis(50)]);
        assert_eq!(log.retained().len(), 50);
    }

    #[test]
    fn the_worst_spike_stays_among_newer_smaller_ones() {
        // Every frame is over the threshold: a 300 ms stall, then 30 frames of 150 ms.
        let mut log = FrameLog::new(4, SpikeThreshold::After(Duration::from_millis(10)));
        log.add(frame(0, 300), Duration::from_millis(16));
        for sequence in 1..=30 {
            log.add(frame(sequence, 150 + sequence), Duration::from_millis(16));
        }
        assert_eq!(log.spikes().len(), MAX_SPIKES);
        assert_eq!(log.spikes_seen(), 31);
        let at: Vec<u64> = log
            .spikes()
            .iter()
            .map(|s| u64::try_from(s.at.as_millis()).expect("small") / 20)
            .collect();
        // The stall, the 7 worst of the older ones (the slowest are the latest here), and the
        // 8 newest, in time order.
        assert_eq!(
            at,
            [
                0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30
            ]
        );
        assert_eq!(
            log.worst_spike().map(|s| s.draw),
            Some(Duration::from_millis(300)),
            "the worst since the log began"
        );
        assert_eq!(log.retained().len(), 4, "the window keeps its capacity");
        let off = {
            let mut log = FrameLog::new(4, SpikeThreshold::Off);
            log.add(frame(0, 500), Duration::from_millis(16));
            log.spikes().len()
        };
        assert_eq!(off, 0, "Off records none");
    }

    #[test]
    fn a_steadily_slow_app_has_no_spikes_but_its_stall_is_one() {
        let budget = Duration::from_millis(16);
        let mut log = FrameLog::new(120, SpikeThreshold::default());
        // 50 ms frames, three budgets each, and one 200 ms stall among them.
        for sequence in 0..100 {
            let draw = if sequence == 60 {
                200
            } else {
                50 + sequence % 3
            };
            log.add(frame(sequence, draw), budget);
        }
        let spikes: Vec<_> = log.spikes().iter().map(|s| s.draw).collect();
        assert_eq!(spikes, [Duration::from_millis(200)], "only the stall");
        let mut budget_only = FrameLog::new(120, SpikeThreshold::BudgetTimes(2.0));
        for sequence in 0..100 {
            budget_only.add(frame(sequence, 50), budget);
        }
        assert_eq!(
            budget_only.spikes_seen(),
            100,
            "the budget alone marks every frame"
        );
    }

    #[test]
    fn a_full_window_swaps_the_new_frame_for_its_oldest() {
        let budget = Duration::from_millis(16);
        let mut log = FrameLog::new(3, SpikeThreshold::Off);
        let mut handed_back = Vec::new();
        for sequence in 0..7 {
            let mut trace = frame(sequence, 4);
            log.add_swapping(&mut trace, budget);
            handed_back.push(trace.sequence);
        }
        let retained: Vec<u64> = log.retained().iter().map(|t| t.sequence).collect();
        assert_eq!(retained, [4, 5, 6], "the newest three, oldest first");
        assert_eq!(
            handed_back,
            [0, 0, 0, 0, 1, 2, 3],
            "blanks while the window fills, then the frame pushed out"
        );
        let mut none = FrameLog::new(0, SpikeThreshold::Off);
        let mut trace = frame(9, 4);
        none.add_swapping(&mut trace, budget);
        assert_eq!(
            (trace.sequence, none.retained().len()),
            (9, 0),
            "kept by the caller"
        );
    }

    /// The draw times and starts kept beside the frames are the retained frames' own, in
    /// order, while the window fills and after it is full; a window of none keeps none.
    #[test]
    fn the_draws_and_starts_kept_beside_the_window_are_its_frames() {
        let budget = Duration::from_millis(16);
        for capacity in [0, 1, 3] {
            let mut log = FrameLog::new(capacity, SpikeThreshold::default());
            for sequence in 0..7 {
                let mut trace = frame(sequence, 3 + sequence % 4);
                if sequence == 5 {
                    trace.marks.frame_start = None;
                }
                log.add(trace, budget);
                let draws: Vec<Duration> = log.retained().iter().map(|t| t.draw).collect();
                let starts: Vec<Option<Duration>> =
                    log.retained().iter().map(|t| t.marks.frame_start).collect();
                assert_eq!(log.retained_draws().collect::<Vec<_>>(), draws);
                assert_eq!(log.retained_starts().collect::<Vec<_>>(), starts);
            }
            assert_eq!(log.retained_draws().len(), capacity);
        }
    }
}
