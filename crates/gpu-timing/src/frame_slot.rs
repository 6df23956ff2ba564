use std::sync::Arc;
use std::time::Duration;

use crate::FrameId;

/// Where a slot is in its life; see [`FrameSlot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlotPhase {
    /// Available to `begin_frame`.
    Free,
    /// Handing out timestamp pairs; writes may be recorded on any encoder.
    Recording,
    /// Its stamps are all recorded: resolved into its region of its
    /// [`crate::readback_group::ReadbackGroup`] with the rest of the group when the group is
    /// read back (complete, or flushed), and read once the group's map request signals. Only
    /// `poll_results` leaves this phase.
    Ended,
}

/// One reserved begin/end pair of a frame.
#[derive(Debug)]
pub(crate) struct PairRecord {
    pub(crate) label: Arc<str>,
    /// Whether the end stamp was recorded; an unclosed scope's end slot may hold a stale value
    /// from an earlier frame, so it must not be read.
    pub(crate) closed: bool,
}

/// One frame's queries (a range of its group's query set) and bookkeeping, created once and
/// reused round the ring: Free → Recording → Ended (resolved, copied and mapped with its group
/// → mapped) → read → Free.
pub(crate) struct FrameSlot {
    /// The slot's first query in its group's query set (see
    /// [`crate::readback_group::ReadbackGroup::query_set`]): pair `i` is queries
    /// `first_query + 2i` and the one after.
    pub(crate) first_query: u32,
    pub(crate) phase: SlotPhase,
    pub(crate) frame: FrameId,
    pub(crate) pairs: Vec<PairRecord>,
    /// Time since the previous frame began, for the optional frame-interval plausibility check.
    pub(crate) cpu_interval: Option<Duration>,
    /// Scratch for the timestamps read back, kept to avoid a per-frame allocation.
    pub(crate) raw_ticks: Vec<u64>,
    /// The timestamps this slot read back last time, per query: a pair that reads the same
    /// again was not written (see [`crate::TimestampRejection::Repeated`]).
    pub(crate) previous_ticks: Vec<u64>,
}

impl FrameSlot {
    /// A slot for up to `max_pairs` pairs whose queries begin at `first_query` in its group's
    /// query set.
    pub(crate) fn new(first_query: u32, max_pairs: u32) -> Self {
        let query_count = max_pairs * 2;
        Self {
            first_query,
            phase: SlotPhase::Free,
            frame: FrameId::default(),
            pairs: Vec::with_capacity(max_pairs as usize),
            cpu_interval: None,
            raw_ticks: Vec::with_capacity(query_count as usize),
            previous_ticks: vec![0; query_count as usize],
        }
    }

    /// Whether `frame` is this slot's current frame (not a stale id of an earlier occupant).
    pub(crate) fn holds(&self, frame: FrameId) -> bool {
        self.phase != SlotPhase::Free && self.frame == frame
    }
}
