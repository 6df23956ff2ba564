/// What [`FrameSampler::record_frame`](crate::FrameSampler::record_frame) (or
/// [`FrameSampler::judge_frame`](crate::FrameSampler::judge_frame)) did with a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameVerdict {
    /// It entered the readouts (after `judge_frame`: it enters them once its draw is counted).
    Counted,
    /// It was one of the warm-up frames after mount and was discarded.
    WarmUp,
    /// Only the HUD's tick caused it; excluded and counted.
    SelfInduced,
    /// It could not be real (see [`RejectedEvents`](crate::RejectedEvents)); dropped and counted.
    Rejected,
}
