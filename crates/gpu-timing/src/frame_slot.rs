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
    /// Resolved into its region of its [`crate::readback_group::ReadbackGroup`]; read once the
    /// group's copy and map are recorded and its map request signals. Only `poll_results`
    /// leaves this phase.
    Resolved,
}

/// One reserved begin/end pair of a frame.
#[derive(Debug)]
pub(crate) struct PairRecord {
    pub(crate) label: Arc<str>,
    /// Whether the end stamp was recorded; an unclosed scope's end slot may hold a stale value
    /// from an earlier frame, so it must not be read.
    pub(crate) closed: bool,
}

/// One frame's query set and bookkeeping, created once and reused round the ring:
/// Free → Recording → Resolved (into its group's buffers; copy and map pending → mapped) → read
/// → Free.
pub(crate) struct FrameSlot {
    pub(crate) query_set: wgpu::QuerySet,
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
    pub(crate) fn new(device: &wgpu::Device, max_pairs: u32) -> Self {
        let query_count = max_pairs * 2;
        Self {
            query_set: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("gpu-timing frame slot"),
                ty: wgpu::QueryType::Timestamp,
                count: query_count,
            }),
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
