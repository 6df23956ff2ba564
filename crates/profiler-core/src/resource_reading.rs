use crate::MemoryCounter;

/// This process's resource use, averaged over the monitor's window (default 3 s). Each field is
/// `None` when the platform cannot say or too few samples exist yet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ResourceReading {
    /// CPU time over wall time, 100 = one full core (`top`'s scale).
    pub cpu_percent: Option<f64>,
    /// Memory attributable to the process (see [`ResourceReading::memory_counter`]).
    pub memory_bytes: Option<u64>,
    /// The counter behind [`ResourceReading::memory_bytes`].
    pub memory_counter: Option<MemoryCounter>,
    /// This process's GPU busy share in percent, from a platform counter.
    pub gpu_busy_percent: Option<f64>,
    /// The name of the platform counter behind [`ResourceReading::gpu_busy_percent`].
    pub gpu_source: Option<&'static str>,
}
