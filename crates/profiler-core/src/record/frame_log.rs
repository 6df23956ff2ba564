//! The retained window of complete frames, and the spikes among them.

use std::collections::VecDeque;
use std::time::Duration;

use crate::record::frame_trace::FrameTrace;
use crate::record::spike::Spike;
use crate::record::spike_threshold::SpikeThreshold;

/// Spikes kept: the newest replace the oldest.
pub const MAX_SPIKES: usize = 16;

/// A viewport's counted frames with everything known about them: the retained window (as many
/// as the sampler keeps, for the exports) and the last [`MAX_SPIKES`] spikes. The window's
/// memory is allocated once; a frame is moved in and evicts the oldest. A spike allocates
/// when it is recorded.
#[derive(Debug)]
pub struct FrameLog {
    retained: VecDeque<FrameTrace>,
    capacity: usize,
    spikes: VecDeque<Spike>,
    threshold: SpikeThreshold,
}

impl FrameLog {
    /// A log retaining `capacity` frames (0: spikes only), keeping spikes by `threshold`.
    pub fn new(capacity: usize, threshold: SpikeThreshold) -> Self {
        Self {
            retained: VecDeque::with_capacity(capacity),
            capacity,
            spikes: VecDeque::with_capacity(MAX_SPIKES),
            threshold,
        }
    }

    /// A complete frame, under the frame `budget` in effect: moved in, the oldest dropped.
    pub fn add(&mut self, trace: FrameTrace, budget: Duration) {
        if let Some(spike) = self
            .threshold
            .duration(budget)
            .and_then(|threshold| Spike::of(&trace, threshold))
        {
            if self.spikes.len() == MAX_SPIKES {
                self.spikes.pop_front();
            }
            self.spikes.push_back(spike);
        }
        if self.capacity == 0 {
            return;
        }
        if self.retained.len() == self.capacity {
            self.retained.pop_front();
        }
        self.retained.push_back(trace);
    }

    /// The last [`MAX_SPIKES`] spikes, oldest first.
    pub fn spikes(&self) -> &VecDeque<Spike> {
        &self.spikes
    }

    /// The retained frames, oldest first.
    pub fn retained(&self) -> &VecDeque<FrameTrace> {
        &self.retained
    }
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
    fn seventeen_spikes_keep_the_newest_sixteen() {
        let mut log = FrameLog::new(4, SpikeThreshold::After(Duration::from_millis(10)));
        for sequence in 0..17 {
            log.add(frame(sequence, 20), Duration::from_millis(16));
        }
        assert_eq!(log.spikes().len(), MAX_SPIKES);
        assert_eq!(
            log.spikes().front().map(|s| s.at),
            Some(Duration::from_millis(20)),
            "the first spike (at 0 ms) left"
        );
        assert_eq!(log.retained().len(), 4, "the window keeps its capacity");
        let off = {
            let mut log = FrameLog::new(4, SpikeThreshold::Off);
            log.add(frame(0, 500), Duration::from_millis(16));
            log.spikes().len()
        };
        assert_eq!(off, 0, "Off records none");
    }
}
