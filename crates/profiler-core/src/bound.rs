/// Which side limits the frame rate, from the CPU draw time against the GPU time per frame.
///
/// The rule: when both are known, the larger of FRAME (mean CPU draw time) and GPU (mean GPU
/// time per frame) is the bound. It is a coarse verdict: FRAME does not include tessellation,
/// upload and submission, so a frame near the tie can be either.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The CPU draw takes at least as long as the GPU work.
    Cpu,
    /// The GPU work takes longer than the CPU draw.
    Gpu,
}
