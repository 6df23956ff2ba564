use std::sync::Arc;

/// The validated GPU duration of one labelled pass or scope of a frame.
///
/// The label is shared (`Arc<str>`, interned on first sight), so cloning a result does not
/// allocate.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuPassResult {
    /// The label given when the pass or scope was opened.
    pub label: Arc<str>,
    /// End minus begin, in seconds, with the queue's timestamp period applied.
    pub duration_secs: f64,
    /// Begin, in nanoseconds of the GPU clock (an arbitrary epoch; map it to CPU time with
    /// [`crate::ClockCalibration::gpu_to_cpu`]).
    pub begin_gpu_nanos: u64,
    /// End, in nanoseconds of the GPU clock.
    pub end_gpu_nanos: u64,
}
