//! The retained window's memory is the log's from the start: the frames that fill it do not
//! fault its pages in one by one.
//!
//! A window of 120 frames is about 216 KiB, which the system allocator maps fresh: each page is
//! faulted in when it is first written. Written a frame at a time, that was a page fault every
//! second frame of the HUD's first 120, measured in the demo on wgpu/lavapipe as 9–11 µs a
//! frame in `FrameLog::add_swapping` against 4.6–5.4 µs once the window was full. A test of its
//! own (its own process): a window mapped for an earlier test and freed could be handed back
//! already faulted in, which would hide the first-touch faults this test counts.
#![cfg(target_os = "linux")]

use std::time::Duration;

use profiler_core::SamplerConfig;
use profiler_core::SystemTime;
use profiler_core::record::frame_log::FrameLog;
use profiler_core::record::frame_trace::FrameTrace;
use profiler_core::record::spike_threshold::SpikeThreshold;

/// The calling thread's minor page faults so far (`/proc/thread-self/stat`, field 10); `None`
/// when it cannot be read.
fn minor_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The command name (field 2) may hold spaces: the fields after it follow its last ')'.
    let (_, after_name) = stat.rsplit_once(')')?;
    // State is field 3: minflt, field 10, is the 8th after the name.
    after_name.split_whitespace().nth(7)?.parse().ok()
}

#[test]
fn filling_the_retained_window_faults_in_none_of_its_pages() {
    let capacity = SamplerConfig::default().capacity;
    let window_bytes = capacity * size_of::<FrameTrace>();
    let page_bytes = rustix::param::page_size();
    let window_pages = window_bytes.div_ceil(page_bytes);
    assert!(
        window_pages >= 8,
        "the window spans {window_pages} pages: too few to tell faults apart"
    );

    let mut log = FrameLog::new(capacity, SpikeThreshold::default());
    // Frames within the budget: no spike is kept (a spike allocates).
    let budget = Duration::from_millis(16);
    let mut trace = FrameTrace::new(0, SystemTime::UNIX_EPOCH);
    let before = minor_faults().expect("Linux counts a thread's page faults");
    for sequence in 1..=u64::try_from(capacity).expect("a small capacity") {
        trace.sequence = sequence;
        trace.draw = Duration::from_millis(5);
        log.add_swapping(&mut trace, budget);
    }
    let faults = minor_faults().expect("Linux counts a thread's page faults") - before;

    assert_eq!(log.retained().len(), capacity, "the window is full");
    // A page of the stack or of the harness may fault in; a window faulted in by its frames
    // would read about `window_pages`.
    assert!(
        faults * 4 < u64::try_from(window_pages).expect("a small count"),
        "filling the window faulted {faults} pages in; it spans {window_pages}"
    );
}
