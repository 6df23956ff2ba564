//! Steady-state frame recording allocates nothing: the HUD must not measure its own allocator.
#![expect(
    unsafe_code,
    reason = "a counting global allocator is the only way to observe allocations"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use profiler_core::{FrameOrigin, FrameRecord, FrameSampler, ManualClock, SamplerConfig};

struct CountingAllocator;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    run(&mut sampler, 10_000);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(
        after - before,
        0,
        "recording 10 000 frames allocated {} times",
        after - before
    );
    // The counter works: a snapshot with GPU passes allocates its list.
    let _snapshot = sampler.snapshot();
    assert!(
        ALLOCATIONS.load(Ordering::Relaxed) > after,
        "the counting allocator sees allocations"
    );
}
