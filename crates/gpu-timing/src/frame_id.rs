/// Identifies one frame timed by a [`crate::GpuTimer`]; returned by
/// [`crate::GpuTimer::begin_frame`] and carried by its [`crate::GpuFrameResult`].
///
/// `Copy` and 16 bytes. A stale id (its slot reused by a newer frame) is ignored by every method
/// that takes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FrameId {
    index: u64,
    slot: u32,
}

impl FrameId {
    /// Slot value of ids that do not belong to a ring slot.
    const NO_SLOT: u32 = u32::MAX;

    pub(crate) fn new(index: u64, slot: u32) -> Self {
        Self { index, slot }
    }

    /// An id for results that did not come from a [`crate::GpuTimer`] (e.g. converted from
    /// `wgpu-profiler`); timer methods ignore it.
    pub fn from_index(index: u64) -> Self {
        Self {
            index,
            slot: Self::NO_SLOT,
        }
    }

    /// Frames counted from 0 when the timer was created (dropped frames use no index).
    pub fn index(self) -> u64 {
        self.index
    }

    pub(crate) fn slot(self) -> usize {
        self.slot as usize
    }
}

impl Default for FrameId {
    /// Index 0 outside the ring (a derived default would alias the real frame 0 in slot 0).
    fn default() -> Self {
        Self::from_index(0)
    }
}
