//! Platforms without a dedicated probe (and wasm32, which has no process to measure): no CPU
//! time; memory comes from the RSS fallback where sysinfo supports the platform.

use std::time::Duration;

use crate::MemoryCounter;

pub(super) struct State;

impl State {
    pub(super) fn new() -> Self {
        Self
    }

    #[expect(clippy::unused_self, reason = "same signature as the platform probes")]
    pub(super) fn cpu_time(&mut self) -> Option<Duration> {
        None
    }

    #[expect(clippy::unused_self, reason = "same signature as the platform probes")]
    pub(super) fn memory(&mut self) -> Option<(u64, MemoryCounter)> {
        None
    }
}
