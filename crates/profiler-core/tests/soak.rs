//! A million frames through the sampler: memory and retained state stay flat.
#![expect(
    unsafe_code,
    reason = "a counting global allocator is the only way to observe live heap bytes"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;

use profiler_core::{
    Clock as _, FrameOrigin, FrameRecord, FrameSampler, ManualClock, SamplerConfig,
};

struct LiveBytes;

static LIVE: AtomicIsize = AtomicIsize::new(0);

fn signed(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

// SAFETY: forwards to the system allocator unchanged; only counts bytes.
unsafe impl GlobalAlloc for LiveBytes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(signed(layout.size()), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(signed(layout.size()), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(signed(new_size) - signed(layout.size()), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: LiveBytes = LiveBytes;

#[test]
fn a_million_frames_keep_memory_and_state_flat() {
    let clock = ManualClock::new();
    let mut sampler =
        FrameSampler::new(SamplerConfig::default(), Arc::new(clock.clone())).expect("valid");
    let mut live_at = Vec::new();
    for frame in 0..1_000_000_u64 {
        let start = clock.now();
        // Mostly 2–3 ms, a 40 ms spike now and then, a tick frame every 30.
        let draw = if frame % 997 == 0 {
            Duration::from_millis(40)
        } else {
            Duration::from_micros(2_000 + frame % 11 * 100)
        };
        clock.advance(draw);
        let end = clock.now();
        sampler.record_frame(FrameRecord {
            draw_start: start,
            draw_end: end,
            present: Some(end),
            invalidations: u32::try_from(frame % 3).unwrap_or(0),
            origin: if frame % 30 == 0 {
                FrameOrigin::SelfInduced
            } else {
                FrameOrigin::App
            },
            overlay_cost: Duration::from_micros(5),
            overlay_cost_after_end: Duration::ZERO,
            excluded: Duration::ZERO,
            back_to_back: true,
        });
        sampler.record_gpu_frame(end, [("egui", Duration::from_micros(300))]);
        clock.advance(Duration::from_micros(16_667).saturating_sub(draw));
        if frame % 30 == 0 {
            let snapshot = sampler.snapshot();
            assert!(snapshot.samples <= 120, "retained samples stay bounded");
            assert_eq!(snapshot.rejected.total(), 0);
        }
        if frame % 100_000 == 99_999 {
            live_at.push(LIVE.load(Ordering::Relaxed));
        }
    }
    let first = live_at[0];
    for (i, &live) in live_at.iter().enumerate() {
        // The count is process-wide: the test harness's own threads move it by a few bytes.
        // A leak of even one byte a frame would add 100 kB between two readings.
        assert!(
            (live - first).abs() < 4096,
            "live heap bytes after {}00 000 frames: {live}, after 100 000: {first}",
            i + 1
        );
    }
    let snapshot = sampler.snapshot();
    assert_eq!(snapshot.samples, 120);
    assert!(
        snapshot.fps.is_some_and(|fps| fps > 55.0 && fps < 61.0),
        "{snapshot:?}"
    );
}
