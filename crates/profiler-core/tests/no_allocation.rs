//! Steady-state frame recording allocates nothing: the HUD must not measure its own allocator.
#![expect(
    unsafe_code,
    reason = "a counting global allocator is the only way to observe allocations"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use profiler_core::{FrameOrigin, FrameRecord, FrameSampler, ManualClock, SamplerConfig};

struct CountingAllocator;

thread_local! {
    /// The allocations (and reallocations) of the thread that makes them. The recording path
    /// runs on the test's thread, with a manual clock: it does the same work in every run. A
    /// process-wide count also saw the harness's other threads (its main thread waits for the
    /// test on a channel, which can allocate when it first blocks) and once read 4 during the
    /// 10 000 frames in a cold CI run, on code that had passed the run before.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with`: the thread's counter is gone while the thread itself is torn down.
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn steady_state_recording_allocates_nothing() {
    let clock = ManualClock::new();
    let mut sampler =
        FrameSampler::new(SamplerConfig::default(), Arc::new(clock.clone())).expect("valid");
    let mut t = Duration::ZERO;
    let mut run = |sampler: &mut FrameSampler, frames: u32| {
        for i in 0..frames {
            let draw_end = t + Duration::from_micros(2_000 + u64::from(i % 7) * 100);
            sampler.record_frame(FrameRecord {
                draw_start: t,
                draw_end,
                present: Some(draw_end),
                invalidations: i % 3,
                origin: if i % 30 == 0 {
                    FrameOrigin::SelfInduced
                } else {
                    FrameOrigin::App
                },
                overlay_cost: Duration::from_micros(20),
                overlay_cost_after_end: Duration::ZERO,
                excluded: Duration::ZERO,
                back_to_back: true,
            });
            sampler.record_gpu_frame(
                draw_end,
                [
                    ("egui", Duration::from_micros(300)),
                    ("scene", Duration::from_micros(900)),
                ],
            );
            t += Duration::from_micros(16_667);
        }
    };
    // Warm-up fills the rings and sees both GPU labels once (their slots allocate then).
    run(&mut sampler, 500);
    let before = allocations();
    run(&mut sampler, 10_000);
    let after = allocations();
    assert_eq!(
        after - before,
        0,
        "recording 10 000 frames allocated {} times",
        after - before
    );
    // The counter works: a snapshot with GPU passes allocates its list.
    let _snapshot = sampler.snapshot();
    assert!(
        allocations() > after,
        "the counting allocator sees allocations"
    );
}
