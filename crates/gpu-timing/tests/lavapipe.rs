//! GPU tests of `GpuTimer` on a real wgpu device: lavapipe (software Vulkan) in CI.
//!
//! Without a Vulkan adapter each test prints why and returns, unless `EGUI_HUD_REQUIRE_GPU=1`.
//! Render passes only: lavapipe's compute-pass timestamps do not bracket the work.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers stop at the first failure"
)]

#[path = "support/workload.rs"]
mod workload;

use std::time::{Duration, Instant};

use gpu_timing::{GpuFrameResult, GpuTimer, GpuTimerSettings, GpuTimingError, TimestampSupport};
use workload::{Gpu, Workload, request_gpu, wait_idle};

/// Target edge; 1024² pixels make the fragment loop dominate fixed costs.
const TARGET_SIZE: u32 = 1024;

fn timer(gpu: &Gpu, settings: GpuTimerSettings) -> GpuTimer {
    GpuTimer::new(&gpu.device, &gpu.queue, settings).unwrap()
}

/// Times one frame of a single workload pass and waits for it: returns the delivered results.
fn timed_frame(
    gpu: &Gpu,
    timer: &GpuTimer,
    work: &Workload,
    iterations: u32,
) -> Vec<GpuFrameResult> {
    let frame = timer.begin_frame().expect("a free slot");
    let stamps = timer.pass_timestamps(frame, "work").expect("a free pair");
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    drop(work.begin_pass(&mut encoder, iterations, Some(stamps.render_pass_writes())));
    assert!(
        timer.resolve_frame(frame, &mut encoder),
        "first resolve records"
    );
    gpu.queue.submit([encoder.finish()]);
    wait_idle(&gpu.device);
    timer.take_results()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[test]
fn durations_are_positive_and_grow_with_work() {
    let Some(gpu) = request_gpu(true) else { return };
    assert_eq!(
        gpu_timing::required_features(&gpu.adapter),
        gpu.device.features() & gpu_timing::required_features(&gpu.adapter)
    );
    let timer = timer(&gpu, GpuTimerSettings::default());
    assert!(
        timer.support().can_time_passes(),
        "lavapipe offers TIMESTAMP_QUERY: {:?}",
        timer.support()
    );
    let work = Workload::new(&gpu.device, TARGET_SIZE);
    let base = 8;
    let _warm_up = timed_frame(&gpu, &timer, &work, base);

    let (mut small, mut large) = (Vec::new(), Vec::new());
    let mut last_index = None;
    for _ in 0..5 {
        for (iterations, into) in [(base, &mut small), (base * 4, &mut large)] {
            let results = timed_frame(&gpu, &timer, &work, iterations);
            assert_eq!(
                results.len(),
                1,
                "one frame back after waiting: {results:?}"
            );
            let result = &results[0];
            assert!(
                last_index < Some(result.frame_id.index()),
                "frames arrive in order"
            );
            last_index = Some(result.frame_id.index());
            assert_eq!(result.rejected_passes, 0, "{result:?}");
            let pass = result.pass("work").expect("the work pass");
            assert!(pass.duration_secs > 0.0, "positive duration: {pass:?}");
            assert!(pass.end_gpu_nanos > pass.begin_gpu_nanos, "{pass:?}");
            into.push(pass.duration_secs);
        }
    }
    let (small, large) = (median(small), median(large));
    println!(
        "median GPU time: {base} iterations {:.3} ms, {} iterations {:.3} ms",
        small * 1e3,
        base * 4,
        large * 1e3
    );
    assert!(
        large >= 2.0 * small,
        "4x the work must take at least 2x the time: {small} s vs {large} s"
    );
    let stats = timer.stats();
    assert_eq!(stats.timed_frames, 11);
    assert_eq!(
        (
            stats.dropped_frames,
            stats.skipped_passes,
            stats.invalid_results
        ),
        (0, 0, 0),
        "{stats:?}"
    );
}

#[test]
fn passes_beyond_capacity_are_skipped_and_counted() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(
        &gpu,
        GpuTimerSettings {
            max_passes_per_frame: 2,
            ..Default::default()
        },
    );
    let work = Workload::new(&gpu.device, 64);
    let frame = timer.begin_frame().unwrap();
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let mut passes_timed = 0;
    for label in ["a", "b", "c", "d", "e"] {
        let stamps = timer.pass_timestamps(frame, label);
        passes_timed += usize::from(stamps.is_some());
        drop(work.begin_pass(
            &mut encoder,
            1,
            stamps.as_ref().map(|s| s.render_pass_writes()),
        ));
    }
    assert_eq!(passes_timed, 2, "only two pairs fit");
    assert!(
        timer
            .begin_encoder_scope(frame, "scope", &mut encoder)
            .is_none(),
        "scopes share the capacity"
    );
    assert_eq!(timer.stats().skipped_passes, 4);
    timer.resolve_frame(frame, &mut encoder);
    gpu.queue.submit([encoder.finish()]);
    wait_idle(&gpu.device);
    let results = timer.take_results();
    let labels: Vec<&str> = results[0].passes.iter().map(|p| &*p.label).collect();
    assert_eq!(labels, ["a", "b"], "the first two passes, in order");
}

#[test]
fn unpolled_readback_drops_frames_without_stalling() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(
        &gpu,
        GpuTimerSettings {
            frame_slots: 3,
            ..Default::default()
        },
    );
    let work = Workload::new(&gpu.device, 256);
    let started = Instant::now();
    let mut begun = Vec::new();
    for _ in 0..7 {
        let frame = timer.begin_frame();
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let stamps = frame.and_then(|f| timer.pass_timestamps(f, "work"));
        drop(work.begin_pass(
            &mut encoder,
            4,
            stamps.as_ref().map(|s| s.render_pass_writes()),
        ));
        if let Some(frame) = frame {
            timer.resolve_frame(frame, &mut encoder);
            begun.push(frame);
        }
        gpu.queue.submit([encoder.finish()]);
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "no stall: {:?}",
        started.elapsed()
    );
    assert_eq!(begun.len(), 3, "only as many frames as slots");
    assert_eq!(timer.stats().dropped_frames, 4);
    assert_eq!(timer.frames_in_flight(), 3);

    wait_idle(&gpu.device);
    assert!(timer.has_pending(), "mapped but unread");
    let results = timer.take_results();
    let indices: Vec<u64> = results.iter().map(|r| r.frame_id.index()).collect();
    assert_eq!(indices, [0, 1, 2], "oldest first");
    assert!(!timer.has_pending());
    assert!(
        timer.begin_frame().is_some(),
        "slots are free again after reading"
    );
}

#[test]
fn device_without_features_gets_a_noop_timer() {
    let Some(gpu) = request_gpu(false) else {
        return;
    };
    let timer = timer(&gpu, GpuTimerSettings::default());
    assert_eq!(timer.support(), TimestampSupport::None);
    assert!(
        timer.support().reason().contains("TIMESTAMP_QUERY"),
        "{}",
        timer.support().reason()
    );
    assert_eq!(timer.begin_frame(), None);
    assert!(matches!(
        timer.calibrate(),
        Err(GpuTimingError::CalibrationUnsupported)
    ));
    assert_eq!(timer.poll_results(|_| {}), 0);
    assert!(!timer.has_pending());
    assert_eq!(
        timer.stats(),
        gpu_timing::GpuTimerStats::default(),
        "nothing counted as dropped"
    );
    timer.dispose();
}

#[test]
fn dispose_twice_with_maps_pending_is_fine() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(&gpu, GpuTimerSettings::default());
    let clone = timer.clone();
    let work = Workload::new(&gpu.device, TARGET_SIZE);
    let frame = timer.begin_frame().unwrap();
    let stamps = timer.pass_timestamps(frame, "work").unwrap();
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    drop(work.begin_pass(&mut encoder, 16, Some(stamps.render_pass_writes())));
    timer.resolve_frame(frame, &mut encoder);
    gpu.queue.submit([encoder.finish()]);
    // The map is pending now (the pass takes milliseconds on lavapipe).
    timer.dispose();
    clone.dispose();
    assert_eq!(timer.begin_frame(), None, "disposed timers time nothing");
    assert!(matches!(timer.calibrate(), Err(GpuTimingError::Disposed)));
    wait_idle(&gpu.device);
    assert_eq!(timer.poll_results(|_| {}), 0);
    drop(timer);
    drop(clone);
    wait_idle(&gpu.device);
}

#[test]
fn egui_style_scope_resolved_on_a_later_encoder() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(&gpu, GpuTimerSettings::default());
    if timer.support() != TimestampSupport::Full {
        println!(
            "skipped: needs all timestamp features, have {:?}",
            timer.support()
        );
        return;
    }
    let work = Workload::new(&gpu.device, TARGET_SIZE);
    let frame = timer.begin_frame().unwrap();
    // "prepare": begin stamp on egui's encoder; "paint": end stamp inside egui's pass.
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let scope = timer
        .begin_encoder_scope(frame, "egui", &mut encoder)
        .unwrap();
    let unclosed = timer
        .begin_encoder_scope(frame, "never closed", &mut encoder)
        .unwrap();
    {
        let mut pass = work.begin_pass(&mut encoder, 16, None);
        assert!(timer.end_scope_in_render_pass(&scope, &mut pass));
    }
    gpu.queue.submit([encoder.finish()]);
    // Next frame's "prepare" resolves the previous frame.
    let mut next = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    assert!(timer.resolve_frame(frame, &mut next));
    assert!(
        !timer.resolve_frame(frame, &mut next),
        "a second resolve is a no-op"
    );
    assert!(
        !timer.end_encoder_scope(&unclosed, &mut next),
        "too late once resolved"
    );
    gpu.queue.submit([next.finish()]);
    wait_idle(&gpu.device);
    let results = timer.take_results();
    assert_eq!(results.len(), 1);
    let egui = results[0].pass("egui").expect("the scope");
    assert!(egui.duration_secs > 0.0, "{egui:?}");
    assert_eq!(
        results[0].rejected_passes, 1,
        "the unclosed scope is rejected"
    );
    assert_eq!(timer.stats().invalid_results, 1);
}

#[test]
fn encoder_dropped_unsubmitted_frees_the_slot() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(&gpu, GpuTimerSettings::default());
    let frame = timer.begin_frame().unwrap();
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let scope = timer
        .begin_encoder_scope(frame, "lost", &mut encoder)
        .unwrap();
    timer.end_encoder_scope(&scope, &mut encoder);
    assert!(timer.resolve_frame(frame, &mut encoder));
    drop(encoder);
    assert_eq!(timer.frames_in_flight(), 1);
    assert_eq!(timer.poll_results(|_| {}), 0);
    assert_eq!(
        timer.frames_in_flight(),
        0,
        "the abandoned slot is free again"
    );
    assert_eq!(timer.stats().dropped_frames, 1);
}

#[test]
fn calibration_maps_gpu_stamps_into_their_cpu_bracket() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(&gpu, GpuTimerSettings::default());
    let calibration = timer.calibrate().unwrap();
    println!("calibration window ±{:?}", calibration.uncertainty());
    assert!(
        calibration.uncertainty() < Duration::from_millis(5),
        "{calibration:?}"
    );
    assert_eq!(
        timer.recalibrate_if_stale().unwrap(),
        calibration,
        "fresh calibrations are reused"
    );

    let work = Workload::new(&gpu.device, TARGET_SIZE);
    let before = Instant::now();
    let results = timed_frame(&gpu, &timer, &work, 16);
    let after = Instant::now();
    let pass = results[0].pass("work").unwrap();
    let slack = calibration.uncertainty() + Duration::from_micros(500);
    for gpu_nanos in [pass.begin_gpu_nanos, pass.end_gpu_nanos] {
        let cpu = calibration.gpu_to_cpu(gpu_nanos).unwrap();
        assert!(
            cpu + slack >= before && cpu <= after + slack,
            "stamp maps to {:?} after `before`, bracket {:?}",
            cpu.checked_duration_since(before),
            after - before
        );
    }
    let again = timer.calibrate().unwrap();
    let drift = calibration.drift_nanos(&again);
    println!("drift between two calibrations: {drift} ns");
    assert!(
        drift.unsigned_abs() < 2_000_000,
        "clocks agree within 2 ms: {drift} ns"
    );
}

/// A pair reserved in a reused slot but never written (its pass never ran) must not deliver the
/// slot's previous timestamps as this frame's time.
#[test]
fn a_pair_not_written_this_frame_is_rejected_not_repeated() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(
        &gpu,
        GpuTimerSettings {
            frame_slots: 2,
            ..Default::default()
        },
    );
    let work = Workload::new(&gpu.device, 64);
    // Both slots once, each with a written pair.
    for _ in 0..2 {
        let results = timed_frame(&gpu, &timer, &work, 1);
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].passes.len(), 1, "a written pair is delivered");
    }
    // The first slot again: the pair is reserved, the pass that would write it never runs.
    let frame = timer.begin_frame().expect("a free slot");
    let _unused = timer
        .pass_timestamps(frame, "never ran")
        .expect("a free pair");
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    assert!(timer.resolve_frame(frame, &mut encoder));
    gpu.queue.submit([encoder.finish()]);
    wait_idle(&gpu.device);
    let results = timer.take_results();
    assert_eq!(results.len(), 1);
    assert!(
        results[0].passes.is_empty(),
        "nothing delivered for the unwritten pair: {:?}",
        results[0].passes
    );
    assert_eq!(results[0].rejected_passes, 1);
}

/// Begins a frame and records one timed workload pass on an encoder of its own, returned.
fn stamped_frame(
    gpu: &Gpu,
    timer: &GpuTimer,
    work: &Workload,
) -> (gpu_timing::FrameId, wgpu::CommandEncoder) {
    let frame = timer.begin_frame().expect("a free slot");
    let stamps = timer.pass_timestamps(frame, "work").expect("a free pair");
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    drop(work.begin_pass(&mut encoder, 4, Some(stamps.render_pass_writes())));
    (frame, encoder)
}

/// Begins a frame, records one timed workload pass and its resolve on an encoder of its own,
/// and submits it; returns the frame's index.
fn submit_resolved_frame(gpu: &Gpu, timer: &GpuTimer, work: &Workload) -> u64 {
    let (frame, mut encoder) = stamped_frame(gpu, timer, work);
    assert!(
        timer.resolve_frame(frame, &mut encoder),
        "first resolve records"
    );
    gpu.queue.submit([encoder.finish()]);
    frame.index()
}

/// A timer reading frames back four at a time, in two groups.
fn grouped_timer(gpu: &Gpu) -> GpuTimer {
    timer(
        gpu,
        GpuTimerSettings {
            frame_slots: 8,
            frames_per_readback: 4,
            ..Default::default()
        },
    )
}

fn indices(results: &[GpuFrameResult]) -> Vec<u64> {
    results.iter().map(|r| r.frame_id.index()).collect()
}

#[test]
fn a_group_of_frames_is_read_back_with_one_map() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = grouped_timer(&gpu);
    let work = Workload::new(&gpu.device, 256);
    for group in 0..2_u64 {
        for frame in 0..3 {
            submit_resolved_frame(&gpu, &timer, &work);
            wait_idle(&gpu.device);
            assert_eq!(
                indices(&timer.take_results()),
                [],
                "group {group}, frame {frame}: nothing is read back before the group is complete"
            );
            assert!(timer.has_pending(), "resolved, waiting for its group");
            assert!(timer.has_waiting_frames(), "its readback not recorded yet");
        }
        submit_resolved_frame(&gpu, &timer, &work);
        assert!(
            !timer.has_waiting_frames(),
            "the frame that completes the group records its readback"
        );
        wait_idle(&gpu.device);
        let results = timer.take_results();
        let first = group * 4;
        assert_eq!(indices(&results), [first, first + 1, first + 2, first + 3]);
        assert_each_frame_read_its_pass(&results);
        assert!(!timer.has_pending());
    }
    assert_all_timed(&timer, 8, 2);
}

/// Each result has its "work" pass, none rejected: each frame read its own region.
fn assert_each_frame_read_its_pass(results: &[GpuFrameResult]) {
    for result in results {
        assert_eq!(result.rejected_passes, 0, "{result:?}");
        assert!(
            result.pass("work").is_some_and(|p| p.duration_secs > 0.0),
            "each frame reads its own region: {result:?}"
        );
    }
}

/// `timed_frames` frames timed in `readbacks` readbacks, none dropped or invalid.
fn assert_all_timed(timer: &GpuTimer, timed_frames: u64, readbacks: u64) {
    let stats = timer.stats();
    assert_eq!(
        (stats.timed_frames, stats.readbacks),
        (timed_frames, readbacks),
        "{stats:?}"
    );
    assert_eq!(
        (stats.dropped_frames, stats.invalid_results),
        (0, 0),
        "{stats:?}"
    );
}

#[test]
fn flush_reads_back_a_group_before_it_is_full() {
    let Some(gpu) = request_gpu(true) else { return };
    let timer = grouped_timer(&gpu);
    let work = Workload::new(&gpu.device, 256);
    let flush = |expected: bool| {
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        assert_eq!(timer.flush(&mut encoder), expected);
        gpu.queue.submit([encoder.finish()]);
        wait_idle(&gpu.device);
        timer.take_results()
    };
    assert_eq!(
        indices(&flush(false)),
        [],
        "nothing resolved, nothing to flush"
    );
    submit_resolved_frame(&gpu, &timer, &work);
    submit_resolved_frame(&gpu, &timer, &work);
    // A frame still recording keeps its group filling: flushing now would read it unwritten.
    let recording = timer.begin_frame().expect("a free slot");
    assert_eq!(indices(&flush(false)), []);
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    assert!(
        !timer.resolve_frame(recording, &mut encoder),
        "no passes: freed"
    );
    assert!(
        timer.has_waiting_frames(),
        "two ended frames wait for the flush"
    );
    assert_eq!(indices(&flush(true)), [0, 1]);
    assert!(!timer.has_waiting_frames(), "flushed");
    assert_eq!(indices(&flush(false)), [], "read back once");
    // The group takes frames again once read back, and the next fills it from its start.
    assert_eq!(submit_resolved_frame(&gpu, &timer, &work), 3);
    assert_eq!(indices(&flush(true)), [3]);
    let stats = timer.stats();
    assert_eq!((stats.timed_frames, stats.readbacks), (3, 2), "{stats:?}");
    assert_eq!(timer.frames_in_flight(), 0);
}

#[test]
fn a_group_is_resolved_by_the_frame_that_completes_it() {
    // Each frame's stamps are submitted on an encoder of their own; `resolve_frame` gets a
    // second encoder, submitted only for the frame that completes the group (the others are
    // dropped, as an app may drop a frame's encoder). A frame that does not complete its group
    // records nothing there: the group's four frames are resolved together, at its readback.
    let Some(gpu) = request_gpu(true) else { return };
    let timer = grouped_timer(&gpu);
    let work = Workload::new(&gpu.device, 256);
    for frame_in_group in 0..4 {
        let (frame, stamped) = stamped_frame(&gpu, &timer, &work);
        gpu.queue.submit([stamped.finish()]);
        let mut resolving = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        assert!(timer.resolve_frame(frame, &mut resolving), "first resolve");
        if frame_in_group == 3 {
            gpu.queue.submit([resolving.finish()]);
        }
        wait_idle(&gpu.device);
    }
    let results = timer.take_results();
    assert_eq!(indices(&results), [0, 1, 2, 3]);
    assert_each_frame_read_its_pass(&results);
    assert_all_timed(&timer, 4, 1);
}

#[test]
fn a_flush_reads_each_frame_from_its_own_range_past_a_free_slot() {
    // Three passes a frame: a slot's range of the group's query set (32 queries, as long as
    // its region of the resolve buffer) is longer than its frame's 6 stamps, and the group's
    // first slot is free when it is flushed, so the one resolve spans a slot never read.
    let Some(gpu) = request_gpu(true) else { return };
    let timer = timer(
        &gpu,
        GpuTimerSettings {
            frame_slots: 8,
            frames_per_readback: 4,
            max_passes_per_frame: 3,
            ..Default::default()
        },
    );
    let work = Workload::new(&gpu.device, 256);
    let empty = timer.begin_frame().expect("a free slot");
    let (frame, stamped) = stamped_frame(&gpu, &timer, &work);
    gpu.queue.submit([stamped.finish()]);
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    assert!(
        !timer.resolve_frame(empty, &mut encoder),
        "no passes: freed"
    );
    assert!(timer.resolve_frame(frame, &mut encoder), "first resolve");
    assert!(
        timer.flush(&mut encoder),
        "the part-filled group is read back"
    );
    gpu.queue.submit([encoder.finish()]);
    wait_idle(&gpu.device);
    let results = timer.take_results();
    assert_eq!(indices(&results), [frame.index()]);
    assert_each_frame_read_its_pass(&results);
    assert_all_timed(&timer, 1, 1);
}
