//! Named durations of a frame the app times itself ([`cpu_phases::CpuPhases`]) or another
//! profiler reports (puffin). Imports nothing else of the crate.

pub(crate) mod cpu_phases;
#[cfg(feature = "puffin")]
pub(crate) mod puffin_phases;
