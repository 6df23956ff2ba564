//! macOS: `CLOCK_PROCESS_CPUTIME_ID` for CPU time, and the physical footprint from
//! `proc_pid_rusage` (what Activity Monitor shows). Not compiled or run on this project's CI
//! machine (Linux); read twice.
#![expect(
    unsafe_code,
    reason = "proc_pid_rusage is a C call with an out-pointer"
)]

use std::time::Duration;

use crate::MemoryCounter;

pub(super) struct State;

impl State {
    pub(super) fn new() -> Self {
        Self
    }

    #[expect(
        clippy::unused_self,
        reason = "same signature as the other platform probes"
    )]
    pub(super) fn cpu_time(&mut self) -> Option<Duration> {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        let secs = u64::try_from(t.tv_sec).ok()?;
        let nanos = u32::try_from(t.tv_nsec).ok()?;
        Some(Duration::new(secs, nanos))
    }

    #[expect(
        clippy::unused_self,
        reason = "same signature as the other platform probes"
    )]
    pub(super) fn memory(&mut self) -> Option<(u64, MemoryCounter)> {
        let mut info = std::mem::MaybeUninit::<libc::rusage_info_v2>::zeroed();
        // SAFETY: `info` is a valid, writable rusage_info_v2; RUSAGE_INFO_V2 tells the kernel
        // to write exactly that struct.
        let rc = unsafe {
            libc::proc_pid_rusage(
                libc::getpid(),
                libc::RUSAGE_INFO_V2,
                info.as_mut_ptr().cast::<libc::rusage_info_t>(),
            )
        };
        if rc != 0 {
            return None;
        }
        // SAFETY: rc == 0 means the kernel filled the struct.
        let info = unsafe { info.assume_init() };
        Some((info.ri_phys_footprint, MemoryCounter::PhysicalFootprint))
    }
}
