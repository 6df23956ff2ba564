/// Which side limits the frame rate, from the CPU draw time against the GPU time per frame.
///
/// The rule: when both are known, the slower of FRAME (mean CPU draw time) and GPU (mean GPU
/// time per frame) is the bound, but only when it is over the frame budget; when both fit in
/// the budget neither limits (the app's own pace or the display does). It is a coarse verdict:
/// FRAME does not include tessellation, upload and submission, so a frame near the tie can be
/// either.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The CPU draw takes at least as long as the GPU work (and, as a verdict, over budget).
    Cpu,
    /// The GPU work takes longer than the CPU draw (and, as a verdict, over budget).
    Gpu,
    /// Both fit in the frame budget: neither side limits the frame rate.
    Neither,
}
