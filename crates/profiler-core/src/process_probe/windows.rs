//! Windows: `GetProcessTimes` for CPU time and `GetProcessMemoryInfo` private usage (commit
//! charge). Not compiled or run on this project's CI machine (Linux); read twice.
#![expect(unsafe_code, reason = "Win32 calls with out-pointers")]

use std::time::Duration;

use windows_sys::Win32::Foundation::FILETIME;
use windows_sys::Win32::System::ProcessStatus::{
    GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS, PROCESS_MEMORY_COUNTERS_EX,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, GetProcessTimes};

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
        let zero = FILETIME {
            dwLowDateTime: 0,
            dwHighDateTime: 0,
        };
        let (mut creation, mut exit, mut kernel, mut user) = (zero, zero, zero, zero);
        // SAFETY: the pseudo-handle of the current process is always valid and the four
        // out-pointers point at live FILETIMEs.
        let ok = unsafe {
            GetProcessTimes(
                GetCurrentProcess(),
                &raw mut creation,
                &raw mut exit,
                &raw mut kernel,
                &raw mut user,
            )
        };
        if ok == 0 {
            return None;
        }
        let ticks = |t: FILETIME| (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
        // FILETIME counts 100 ns ticks.
        Some(Duration::from_nanos(
            ticks(kernel)
                .saturating_add(ticks(user))
                .saturating_mul(100),
        ))
    }

    #[expect(
        clippy::unused_self,
        reason = "same signature as the other platform probes"
    )]
    pub(super) fn memory(&mut self) -> Option<(u64, MemoryCounter)> {
        let mut counters = std::mem::MaybeUninit::<PROCESS_MEMORY_COUNTERS_EX>::zeroed();
        let size = u32::try_from(size_of::<PROCESS_MEMORY_COUNTERS_EX>()).ok()?;
        // SAFETY: `counters` is writable and `size` is its exact size; the EX struct starts with
        // the plain struct, which is what the signature names.
        let ok = unsafe {
            GetProcessMemoryInfo(
                GetCurrentProcess(),
                counters.as_mut_ptr().cast::<PROCESS_MEMORY_COUNTERS>(),
                size,
            )
        };
        if ok == 0 {
            return None;
        }
        // SAFETY: success means the struct was filled.
        let counters = unsafe { counters.assume_init() };
        // A running process always has private pages: 0 means the counter is not kept (Wine
        // reports 0), so the caller falls back to the resident set.
        u64::try_from(counters.PrivateUsage)
            .ok()
            .filter(|&bytes| bytes > 0)
            .map(|bytes| (bytes, MemoryCounter::PrivateUsage))
    }
}
