//! RSS through sysinfo, for when the preferred counter cannot be read. sysinfo costs about
//! 80 µs per own-process refresh (measured), fine at the resource thread's cadence.

use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};

pub(super) struct RssFallback {
    system: Option<System>,
    pid: Option<Pid>,
    logged: bool,
}

impl RssFallback {
    pub(super) fn new() -> Self {
        Self {
            system: System::new().ok(),
            pid: sysinfo::get_current_pid().ok(),
            logged: false,
        }
    }

    pub(super) fn resident_bytes(&mut self) -> Option<u64> {
        let (Some(system), Some(pid)) = (self.system.as_mut(), self.pid) else {
            if !self.logged {
                self.logged = true;
                log::warn!(
                    "profiler-core: no memory counter on this platform; memory readings stay empty"
                );
            }
            return None;
        };
        system.refresh_processes_specifics(
            ProcessesToUpdate::Some(&[pid]),
            false,
            ProcessRefreshKind::nothing().with_memory(),
        );
        system.process(pid).map(sysinfo::Process::memory)
    }
}
