//! The readout definitions, checked on hand-computed sequences with a manual clock.
#![expect(clippy::expect_used, reason = "test helpers fail loudly")]

use std::sync::Arc;
use std::time::Duration;

use profiler_core::{
    Bound, Clock as _, ConfigError, FrameBudget, FrameOrigin, FrameRecord, FrameSampler,
    FrameVerdict, GpuBusySource, Grade, LatencyEnd, LatencyMarks, LatencyStage, ManualClock,
    SamplerConfig, SnapshotParts,
};

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

/// A sampler without warm-up on a manual clock, so every frame fed counts.
fn sampler(config: SamplerConfig) -> (FrameSampler, ManualClock) {
    let clock = ManualClock::new();
    let sampler = FrameSampler::new(config, Arc::new(clock.clone())).expect("valid config");
    (sampler, clock)
}

fn no_warmup() -> SamplerConfig {
    SamplerConfig {
        warmup_frames: 0,
        ..SamplerConfig::default()
    }
}

/// Draws for `draw`, presents at the end, then idles until `period` has passed.
fn frame(
    sampler: &mut FrameSampler,
    clock: &ManualClock,
    draw: Duration,
    period: Duration,
) -> FrameVerdict {
    frame_with(sampler, clock, draw, period, FrameOrigin::App, 1)
}

fn frame_with(
    sampler: &mut FrameSampler,
    clock: &ManualClock,
    draw: Duration,
    period: Duration,
    origin: FrameOrigin,
    invalidations: u32,
) -> FrameVerdict {
    let draw_start = clock.now();
    clock.advance(draw);
    let draw_end = clock.now();
    let verdict = sampler.record_frame(FrameRecord {
        draw_start,
        draw_end,
        present: Some(draw_end),
        invalidations,
        origin,
        overlay_cost: Duration::ZERO,
        overlay_cost_after_end: Duration::ZERO,
        excluded: Duration::ZERO,
        back_to_back: true,
    });
    clock.advance(period.saturating_sub(draw));
    verdict
}

#[test]
fn p95_of_1_to_100_ms_is_95_ms() {
    let (mut s, clock) = sampler(SamplerConfig {
        capacity: 100,
        ..no_warmup()
    });
    // Shuffled order: the percentile must not depend on arrival order.
    for i in (1..=100).rev() {
        frame(&mut s, &clock, ms(i), ms(i));
    }
    let snap = s.snapshot();
    assert_eq!(snap.samples, 100);
    assert_eq!(snap.p95, Some(ms(95)));
    assert_eq!(
        snap.frame,
        Some(Duration::from_micros(50_500)),
        "mean of 1..=100 ms"
    );
}

#[test]
fn p95_is_nearest_rank_not_interpolated() {
    let (mut s, clock) = sampler(no_warmup());
    // 10 samples: rank ceil(9.5) = 10, the maximum; an interpolation would give 9.55 ms.
    for i in 1..=10 {
        frame(&mut s, &clock, ms(i), ms(20));
    }
    assert_eq!(s.snapshot().p95, Some(ms(10)));
    // 21 samples: rank ceil(19.95) = 20.
    let (mut s, clock) = sampler(no_warmup());
    for i in 1..=21 {
        frame(&mut s, &clock, ms(i), ms(30));
    }
    assert_eq!(s.snapshot().p95, Some(ms(20)));
}

#[test]
fn drop_counts_only_draws_strictly_over_budget() {
    let budget = ms(10);
    let (mut s, clock) = sampler(SamplerConfig {
        frame_budget: Some(budget),
        ..no_warmup()
    });
    for _ in 0..6 {
        frame(&mut s, &clock, budget, ms(16));
    }
    assert_eq!(
        s.snapshot().drop,
        Some(0.0),
        "equal to the budget is not a drop"
    );
    for _ in 0..2 {
        frame(&mut s, &clock, budget + Duration::from_nanos(1), ms(16));
    }
    assert_eq!(s.snapshot().drop, Some(0.25));
}

#[test]
fn frame_is_the_mean_over_the_retained_window_only() {
    let (mut s, clock) = sampler(SamplerConfig {
        capacity: 4,
        ..no_warmup()
    });
    for d in [100, 100, 1, 2, 3, 4] {
        frame(&mut s, &clock, ms(d), ms(200));
    }
    let snap = s.snapshot();
    assert_eq!(snap.samples, 4);
    assert_eq!(
        snap.frame,
        Some(Duration::from_micros(2_500)),
        "the two 100 ms frames were evicted"
    );
}

#[test]
fn inv_is_mean_invalidations_per_retained_frame() {
    let (mut s, clock) = sampler(no_warmup());
    for inv in [1, 3, 0, 4] {
        frame_with(&mut s, &clock, ms(2), ms(16), FrameOrigin::App, inv);
    }
    assert_eq!(s.snapshot().inv, Some(2.0));
}

#[test]
fn fps_and_interval_come_from_presents_in_the_last_second() {
    let (mut s, clock) = sampler(no_warmup());
    // 11 presents 20 ms apart: 10 intervals over 200 ms = 50 FPS.
    for _ in 0..11 {
        frame(&mut s, &clock, ms(2), ms(20));
    }
    let snap = s.snapshot();
    let fps = snap.fps.expect("11 presents");
    assert!((fps - 50.0).abs() < 1e-9, "fps {fps}");
    assert_eq!(snap.interval, Some(ms(20)));

    // A second (and an interval) later every present is older than the window: no FPS rather
    // than a stale one.
    clock.advance(Duration::from_millis(1010));
    let snap = s.snapshot();
    assert_eq!(snap.fps, None);
    assert_eq!(snap.interval, None);
    assert_eq!(snap.frame, Some(ms(2)), "FRAME keeps its retained samples");
}

#[test]
fn fps_needs_two_presents() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(2), ms(20));
    assert_eq!(s.snapshot().fps, None);
    assert!(s.snapshot().frame.is_some());
}

#[test]
fn max_fps_is_inverse_frame_clamped_to_a_known_refresh_rate() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..5 {
        frame(&mut s, &clock, ms(4), ms(100));
    }
    let unclamped = s.snapshot().max_fps.expect("frames");
    assert!(
        (unclamped - 250.0).abs() < 1e-9,
        "1 / 4 ms = 250, got {unclamped}"
    );
    s.set_refresh_hz(Some(144.0));
    assert_eq!(s.snapshot().max_fps, Some(144.0));
    s.set_refresh_hz(None);
    assert!((s.snapshot().max_fps.expect("frames") - 250.0).abs() < 1e-9);
}

#[test]
fn max_fps_below_the_refresh_rate_is_not_raised() {
    let (mut s, clock) = sampler(no_warmup());
    s.set_refresh_hz(Some(60.0));
    for _ in 0..5 {
        frame(&mut s, &clock, ms(25), ms(25));
    }
    assert!((s.snapshot().max_fps.expect("frames") - 40.0).abs() < 1e-9);
}

#[test]
fn budget_precedence_pinned_then_refresh_then_60_hz() {
    let mut budget = FrameBudget::new(None).expect("no pin");
    assert_eq!(budget.duration(), FrameBudget::FALLBACK);
    budget.set_refresh_hz(Some(120.0));
    assert_eq!(budget.duration(), Duration::from_nanos(8_333_333));
    budget.set_refresh_hz(Some(f64::NAN));
    assert_eq!(
        budget.duration(),
        FrameBudget::FALLBACK,
        "a NaN rate is unknown"
    );

    let mut pinned = FrameBudget::new(Some(ms(5))).expect("positive pin");
    pinned.set_refresh_hz(Some(144.0));
    assert_eq!(
        pinned.duration(),
        ms(5),
        "a pinned budget wins over the display"
    );

    let (mut s, _clock) = sampler(no_warmup());
    s.set_refresh_hz(Some(50.0));
    assert_eq!(s.snapshot().budget, ms(20));
    s.set_frame_budget(Some(ms(7))).expect("positive");
    assert_eq!(s.snapshot().budget, ms(7));
    assert_eq!(s.snapshot().refresh_hz, Some(50.0));
    s.set_frame_budget(None).expect("unpin");
    assert_eq!(s.snapshot().budget, ms(20));
}

#[test]
fn grading_within_up_to_twice_and_beyond() {
    let budget = ms(10);
    assert_eq!(Grade::of_duration(ms(10), budget), Grade::Within);
    assert_eq!(Grade::of_duration(ms(11), budget), Grade::Over);
    assert_eq!(Grade::of_duration(ms(20), budget), Grade::Over);
    assert_eq!(Grade::of_duration(ms(21), budget), Grade::FarOver);
    assert_eq!(Grade::of_drop_fraction(0.0), Grade::Within);
    assert_eq!(Grade::of_drop_fraction(0.05), Grade::Over);
    assert_eq!(Grade::of_drop_fraction(0.5), Grade::FarOver);

    let (mut s, clock) = sampler(SamplerConfig {
        frame_budget: Some(budget),
        ..no_warmup()
    });
    for _ in 0..20 {
        frame(&mut s, &clock, ms(15), ms(16));
    }
    let snap = s.snapshot();
    assert_eq!(snap.frame_grade(), Some(Grade::Over));
    assert_eq!(snap.p95_grade(), Some(Grade::Over));
    assert_eq!(snap.drop_grade(), Some(Grade::FarOver));
}

#[test]
fn warmup_discards_the_first_frames_after_mount() {
    let (mut s, clock) = sampler(SamplerConfig::default());
    assert_eq!(s.snapshot().warmup_frames_left, 8);
    // A cold first frame of 200 ms, then seven more warm-up frames.
    assert_eq!(
        frame(&mut s, &clock, ms(200), ms(200)),
        FrameVerdict::WarmUp
    );
    for _ in 0..7 {
        assert_eq!(frame(&mut s, &clock, ms(30), ms(30)), FrameVerdict::WarmUp);
    }
    let snap = s.snapshot();
    assert_eq!(snap.samples, 0);
    assert_eq!(snap.frame, None, "nothing counted yet: None, not zero");
    assert_eq!(snap.p95, None);
    assert_eq!(snap.drop, None);
    assert_eq!(snap.fps, None);
    for _ in 0..10 {
        assert_eq!(frame(&mut s, &clock, ms(3), ms(16)), FrameVerdict::Counted);
    }
    let snap = s.snapshot();
    assert_eq!(
        snap.frame,
        Some(ms(3)),
        "the 200 ms cold frame is not in FRAME"
    );
    assert_eq!(snap.p95, Some(ms(3)));
    assert_eq!(
        snap.drop_grade(),
        Some(Grade::Within),
        "a fresh window reads healthy"
    );

    s.reset();
    assert_eq!(
        s.snapshot().warmup_frames_left,
        8,
        "reset starts a new warm-up"
    );
    assert_eq!(s.snapshot().samples, 0);
}

#[test]
fn self_induced_frames_never_enter_a_readout() {
    let (mut s, clock) = sampler(no_warmup());
    // An idle app: only the HUD's 500 ms tick wakes it, for 10 s.
    for _ in 0..20 {
        let verdict = frame_with(&mut s, &clock, ms(40), ms(500), FrameOrigin::SelfInduced, 1);
        assert_eq!(verdict, FrameVerdict::SelfInduced);
    }
    let snap = s.snapshot();
    assert_eq!(snap.samples, 0);
    assert_eq!(
        snap.fps, None,
        "the HUD's own 2 Hz tick must not read as 2 FPS"
    );
    assert_eq!(snap.frame, None);
    assert_eq!(snap.self_induced_frames, 20);

    // Mixed: app frames count, the tick frames in between do not.
    for i in 0..10 {
        let origin = if i % 2 == 0 {
            FrameOrigin::App
        } else {
            FrameOrigin::SelfInduced
        };
        frame_with(
            &mut s,
            &clock,
            ms(if i % 2 == 0 { 2 } else { 50 }),
            ms(20),
            origin,
            1,
        );
    }
    let snap = s.snapshot();
    assert_eq!(snap.samples, 5);
    assert_eq!(snap.frame, Some(ms(2)));
}

/// The HUD's cost inside a frame is subtracted from FRAME and reported; its work on a frame
/// after the frame ended (recording it, asking for the next refresh) is reported with it and
/// subtracted from no frame's draw time: it ran outside them.
#[test]
fn overlay_cost_is_subtracted_from_frame_and_reported_with_the_work_after_it() {
    for (after, reported) in [(Duration::ZERO, ms(1)), (ms(2), ms(3))] {
        let (mut s, clock) = sampler(no_warmup());
        for _ in 0..4 {
            let draw_start = clock.now();
            clock.advance(ms(5));
            let draw_end = clock.now();
            s.record_frame(FrameRecord {
                draw_start,
                draw_end,
                present: Some(draw_end),
                invalidations: 1,
                origin: FrameOrigin::App,
                overlay_cost: ms(1),
                overlay_cost_after_end: after,
                excluded: Duration::ZERO,
                back_to_back: true,
            });
            clock.advance(ms(11));
        }
        let snap = s.snapshot();
        assert_eq!(snap.frame, Some(ms(4)), "{after:?} after");
        assert_eq!(snap.overlay_cost, Some(reported), "{after:?} after");
        assert_eq!(snap.overlay_cost_p50, Some(reported), "{after:?} after");
    }
}

#[test]
fn max_fps_is_none_rather_than_infinite_for_zero_draw_time() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..3 {
        let draw_start = clock.now();
        clock.advance(ms(2));
        let draw_end = clock.now();
        // The HUD's own cost is the whole frame: the app's draw time is zero.
        s.record_frame(FrameRecord {
            draw_start,
            draw_end,
            present: Some(draw_end),
            overlay_cost: ms(2),
            ..FrameRecord::default()
        });
    }
    assert_eq!(s.snapshot().frame, Some(Duration::ZERO));
    assert_eq!(s.snapshot().max_fps, None);
    s.set_refresh_hz(Some(60.0));
    assert_eq!(s.snapshot().max_fps, Some(60.0));
}

#[test]
fn bad_input_is_dropped_counted_and_never_poisons_readouts() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..4 {
        frame(&mut s, &clock, ms(5), ms(20));
    }
    let good = s.snapshot();
    let t = clock.now();

    let end_before_start = FrameRecord {
        draw_start: t,
        draw_end: t.saturating_sub(ms(3)),
        ..FrameRecord::default()
    };
    assert_eq!(s.record_frame(end_before_start), FrameVerdict::Rejected);
    let before_the_last_frame = FrameRecord {
        draw_start: t.saturating_sub(ms(500)),
        draw_end: t.saturating_sub(ms(495)),
        present: Some(t.saturating_sub(ms(495))),
        ..FrameRecord::default()
    };
    assert_eq!(
        s.record_frame(before_the_last_frame),
        FrameVerdict::Rejected
    );

    let after = s.snapshot();
    assert_eq!(after.frame, good.frame);
    assert_eq!(after.p95, good.p95);
    assert_eq!(after.fps, good.fps);
    assert_eq!(after.samples, good.samples);
    assert_eq!(after.rejected.draw_end_before_start, 1);
    assert_eq!(after.rejected.draws_back_in_time, 1);

    // A present before its own draw began: the draw counts, the present is dropped.
    let before_draw = FrameRecord {
        draw_start: t,
        draw_end: t + ms(5),
        present: Some(t.saturating_sub(ms(30))),
        ..FrameRecord::default()
    };
    assert_eq!(s.record_frame(before_draw), FrameVerdict::Counted);
    let snap = s.snapshot();
    assert_eq!(snap.rejected.presents_outside_frame, 1);
    assert_eq!(snap.rejected.total(), 3);
    assert_eq!(
        snap.fps, good.fps,
        "the backwards present did not enter FPS"
    );
    assert!(snap.fps.is_some_and(f64::is_finite));
}

/// BOUND names a side only when it is over the budget; MAX FPS follows the slower side.
#[test]
fn bound_needs_a_side_over_budget_and_max_fps_follows_the_slower_side() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..10 {
        frame(&mut s, &clock, ms(1), ms(16));
        s.record_gpu_frame(clock.now(), [("scene", Duration::from_micros(1_200))]);
    }
    let snap = s.snapshot();
    assert_eq!(
        snap.bound,
        Some(Bound::Neither),
        "1 ms CPU, 1.2 ms GPU at 60 Hz"
    );
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..10 {
        frame(&mut s, &clock, Duration::from_micros(200), ms(40));
        s.record_gpu_frame(clock.now(), [("scene", ms(40))]);
    }
    let snap = s.snapshot();
    assert_eq!(snap.bound, Some(Bound::Gpu), "40 ms of GPU a frame");
    assert_eq!(snap.max_fps_set_by, Some(Bound::Gpu));
    let max_fps = snap.max_fps.expect("reads");
    assert!(max_fps <= 25.0, "MAX FPS {max_fps} with a 40 ms GPU frame");
}

/// A stall is the worst jank there is: a 10 s draw is a frame like any other, and shows.
#[test]
fn a_long_stall_is_a_real_frame() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..9 {
        frame(&mut s, &clock, ms(5), ms(20));
    }
    frame(&mut s, &clock, Duration::from_secs(10), ms(20));
    let snap = s.snapshot();
    assert_eq!(snap.samples, 10);
    assert_eq!(snap.p95, Some(Duration::from_secs(10)));
    assert_eq!(snap.drop, Some(0.1));
    assert_eq!(snap.rejected.total(), 0);
}

/// FPS counts the presents of the last second: a burst after an idle spell reads no more than
/// its frames, and nothing once it is more than a second old.
#[test]
fn fps_reads_a_burst_as_its_frames_and_forgets_it_after_a_second() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(2), Duration::from_secs(5));
    for _ in 0..3 {
        frame(&mut s, &clock, ms(2), ms(15));
    }
    clock.advance(ms(300));
    let fps = s.snapshot().fps.expect("the burst reads");
    assert!(fps > 0.0 && fps <= 3.0, "FPS {fps}");
    clock.advance(ms(800));
    assert_eq!(s.snapshot().fps, None, "older than a second");
}

/// An idle app clicked in its first seconds, while the warm-up still runs: its three-frame
/// burst (partly warm-up) reads no more than its frames, as it does later.
#[test]
fn a_burst_during_the_warm_up_reads_its_frames() {
    let (mut s, clock) = sampler(SamplerConfig::default());
    assert_eq!(s.snapshot().warmup_frames_left, 8);
    // Two start-up frames, then the HUD's own ticks every 500 ms for 2 s.
    frame(&mut s, &clock, ms(2), ms(16));
    frame(&mut s, &clock, ms(2), ms(500));
    for _ in 0..4 {
        frame_with(&mut s, &clock, ms(1), ms(500), FrameOrigin::SelfInduced, 0);
    }
    // The click: three frames 16 ms apart, the first two still warm-up.
    for _ in 0..3 {
        frame(&mut s, &clock, ms(2), ms(16));
    }
    assert_eq!(
        s.snapshot().warmup_frames_left,
        0,
        "the burst ended the warm-up"
    );
    clock.advance(ms(100));
    let fps = s.snapshot().fps.expect("the burst reads");
    assert!(
        fps > 0.0 && fps <= 3.0,
        "a 3-frame burst reads FPS {fps:.2}"
    );
}

/// A timer app at 2.5 frames a second reads 2.5, not the 2 or 3 presents a one-second window
/// happens to hold, and reads less once its next frame is overdue.
#[test]
fn fps_reads_a_slow_steady_rate_exactly() {
    let (mut s, clock) = sampler(no_warmup());
    for frames in 1..=10 {
        frame(&mut s, &clock, ms(2), ms(400));
        if frames >= 4 {
            // The next frame's start, where the HUD refreshes on the app's own frame.
            let fps = s.snapshot().fps.expect("reads");
            assert!((fps - 2.5).abs() < 1e-9, "after {frames} frames: FPS {fps}");
        }
    }
    clock.advance(ms(300));
    let late = s.snapshot().fps.expect("reads");
    assert!(late < 2.5, "the next frame is 300 ms late: FPS {late}");
}

/// One present an hour in the future must not refuse every real present after it, and a present
/// equal to the previous one adds a frame but no time: both are dropped and counted.
#[test]
fn a_present_far_ahead_or_repeated_is_dropped_and_fps_stays() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..10 {
        frame(&mut s, &clock, ms(5), ms(20));
    }
    let t = clock.now();
    let far_ahead = FrameRecord {
        draw_start: t,
        draw_end: t + ms(5),
        present: Some(t + Duration::from_hours(1)),
        ..FrameRecord::default()
    };
    assert_eq!(s.record_frame(far_ahead), FrameVerdict::Counted);
    clock.advance(ms(20));
    for _ in 0..10 {
        frame(&mut s, &clock, ms(5), ms(20));
    }
    let snap = s.snapshot();
    assert_eq!(snap.rejected.presents_outside_frame, 1);
    // 20 presents 20 ms apart but for one 40 ms gap where the bad one was dropped:
    // 19 intervals over 400 ms.
    let fps = snap
        .fps
        .expect("real presents after the bad one still count");
    assert!((fps - 47.5).abs() < 1e-6, "FPS {fps}");

    let t = clock.now();
    let last_present = t.saturating_sub(ms(15)); // the previous frame's draw end
    let repeated = FrameRecord {
        draw_start: last_present,
        draw_end: t,
        present: Some(last_present),
        ..FrameRecord::default()
    };
    s.record_frame(repeated);
    let snap = s.snapshot();
    assert_eq!(snap.rejected.presents_back_in_time, 1);
    let fps = snap.fps.expect("presents");
    assert!(
        (fps - 47.5).abs() < 1e-6,
        "the repeated present added no frame: FPS {fps}"
    );
}

#[test]
fn invalid_configs_are_typed_errors() {
    let clock: Arc<ManualClock> = Arc::new(ManualClock::new());
    let zero_capacity = SamplerConfig {
        capacity: 0,
        ..SamplerConfig::default()
    };
    assert_eq!(
        FrameSampler::new(
            zero_capacity,
            Arc::clone(&clock) as Arc<dyn profiler_core::Clock>
        )
        .err(),
        Some(ConfigError::Capacity { capacity: 0 })
    );
    let zero_budget = SamplerConfig {
        frame_budget: Some(Duration::ZERO),
        ..SamplerConfig::default()
    };
    assert_eq!(
        FrameSampler::new(
            zero_budget,
            Arc::clone(&clock) as Arc<dyn profiler_core::Clock>
        )
        .err(),
        Some(ConfigError::ZeroBudget)
    );
    let message = ConfigError::ZeroBudget.to_string();
    assert!(
        message.contains("pin a positive budget"),
        "the error says how to fix it: {message}"
    );

    let (mut s, _clock) = sampler(no_warmup());
    assert_eq!(
        s.set_frame_budget(Some(Duration::ZERO)),
        Err(ConfigError::ZeroBudget)
    );
    assert_eq!(
        s.snapshot().budget,
        FrameBudget::FALLBACK,
        "the previous budget stays"
    );
}

#[test]
fn gpu_results_give_per_pass_stats_busy_share_and_bound() {
    let (mut s, clock) = sampler(no_warmup());
    for i in 0..10_u64 {
        frame(&mut s, &clock, ms(2), ms(20));
        s.record_gpu_frame(clock.now(), [("egui", ms(1)), ("scene", ms(3 + i % 2))]);
    }
    let snap = s.snapshot();
    // Per frame: 1 + 3 or 1 + 4 ms, mean 4.5 ms.
    assert_eq!(snap.gpu_frame, Some(Duration::from_micros(4_500)));
    assert_eq!(
        snap.bound,
        Some(Bound::Neither),
        "4.5 ms GPU vs 2 ms CPU: both fit a 16.7 ms budget"
    );
    assert_eq!(snap.max_fps_set_by, Some(Bound::Gpu));
    assert_eq!(snap.gpu_busy_source, Some(GpuBusySource::Timestamps));
    // 4.5 ms of GPU a frame at 50 frames a second: 22.5 % busy.
    let busy = snap.gpu_busy_percent.expect("results");
    assert!((busy - 22.5).abs() < 1e-9, "busy {busy}");
    assert_eq!(snap.gpu_passes.len(), 2);
    let scene = &snap.gpu_passes[1];
    assert_eq!(scene.label, "scene");
    assert_eq!(scene.last, ms(4));
    assert_eq!(scene.max, ms(4));
    assert_eq!(scene.mean, Duration::from_micros(3_500));
}

/// A timer that paused: the GPU figures start over, the rest is kept.
#[test]
fn forgetting_the_gpu_frames_starts_the_gpu_figures_over() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..10 {
        frame(&mut s, &clock, ms(2), ms(20));
        s.record_gpu_frame(clock.now(), [("scene", ms(8))]);
    }
    s.forget_gpu_frames();
    let forgotten = s.snapshot();
    assert_eq!(forgotten.gpu_frame, None, "no GPU result since");
    assert!(
        forgotten.gpu_passes.is_empty(),
        "{:?}",
        forgotten.gpu_passes
    );
    assert_eq!(forgotten.frame, Some(ms(2)), "the CPU figures are kept");
    frame(&mut s, &clock, ms(2), ms(20));
    s.record_gpu_frame(clock.now(), [("scene", ms(1))]);
    let after = s.snapshot();
    assert_eq!(
        after.gpu_frame,
        Some(ms(1)),
        "only the result since: {after:?}"
    );
    assert_eq!(after.gpu_passes.len(), 1);
    assert_eq!(
        after.gpu_passes[0].max,
        ms(1),
        "the pass's max starts over too"
    );
}

/// Every other frame's GPU result missing (ring full, readback late): the busy share is that of
/// the frames timed, not diluted by the missing ones.
#[test]
fn missing_gpu_results_do_not_dilute_the_busy_share() {
    let (mut s, clock) = sampler(no_warmup());
    for i in 0..100 {
        frame(&mut s, &clock, ms(1), ms(20));
        if i % 2 == 0 {
            s.record_gpu_frame(clock.now(), [("scene", ms(4))]);
        }
    }
    let busy = s.snapshot().gpu_busy_percent.expect("results");
    assert!(
        (busy - 20.0).abs() < 1e-6,
        "4 ms at 50 frames a second: busy {busy}, not 10"
    );
}

/// 240 GPU frames a second of 2 ms each keep the GPU 48 % busy: more results than the
/// 120-frame window must still all count towards the busy share.
#[test]
fn gpu_busy_share_counts_every_result_of_the_last_second() {
    let (mut s, clock) = sampler(no_warmup());
    let period = Duration::from_nanos(1_000_000_000 / 240);
    for _ in 0..480 {
        frame(&mut s, &clock, ms(1), period);
        s.record_gpu_frame(clock.now(), [("scene", ms(2))]);
    }
    let busy = s.snapshot().gpu_busy_percent.expect("results");
    assert!((busy - 48.0).abs() < 0.5, "busy {busy}, not 24");
    assert_eq!(s.snapshot().gpu_frame, Some(ms(2)));

    // Results arriving together (a late readback) never read over 100 %.
    let (mut s, clock) = sampler(no_warmup());
    clock.advance(Duration::from_secs(2));
    for _ in 0..100 {
        s.record_gpu_frame(clock.now(), [("scene", ms(20))]);
    }
    assert_eq!(s.snapshot().gpu_busy_percent, Some(100.0));
}

#[test]
fn gpu_labels_beyond_the_table_are_counted() {
    let (mut s, clock) = sampler(no_warmup());
    let labels = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    s.record_gpu_frame(clock.now(), labels.iter().map(|l| (*l, ms(1))));
    assert_eq!(s.snapshot().gpu_passes.len(), 8);
    assert_eq!(s.untracked_gpu_passes(), 2);
    assert_eq!(
        s.snapshot().gpu_frame,
        Some(ms(10)),
        "untracked passes still count in the total"
    );
}

#[test]
fn gpu_frames_without_valid_passes_change_nothing() {
    let (mut s, clock) = sampler(no_warmup());
    s.record_gpu_frame(clock.now(), [("egui", ms(2))]);
    s.record_gpu_frame(clock.now(), std::iter::empty());
    s.record_gpu_frame(clock.now(), [("egui", Duration::from_hours(24))]);
    let snap = s.snapshot();
    assert_eq!(
        snap.gpu_frame,
        Some(ms(2)),
        "an empty or bogus frame is not a 0 ns frame"
    );
    assert_eq!(snap.rejected.implausible_gpu_passes, 1);
    assert_eq!(snap.gpu_passes[0].max, ms(2));
}

#[test]
fn huge_durations_cannot_overflow_the_sums() {
    let config = SamplerConfig {
        max_draw_duration: Duration::from_hours(1),
        capacity: 4,
        ..no_warmup()
    };
    let (mut s, _clock) = sampler(config);
    for i in 0..10_u64 {
        let start = Duration::from_secs(i * 4000);
        s.record_frame(FrameRecord {
            draw_start: start,
            draw_end: start + Duration::from_secs(3599),
            ..FrameRecord::default()
        });
        s.record_gpu_frame(
            start,
            [
                ("a", Duration::from_mins(50)),
                ("b", Duration::from_mins(50)),
            ],
        );
    }
    assert_eq!(s.snapshot().frame, Some(Duration::from_secs(3599)));
    assert_eq!(
        s.snapshot().gpu_frame,
        None,
        "6000 s of GPU per frame is over the bound"
    );
    let too_long = SamplerConfig {
        max_draw_duration: Duration::from_secs(3601),
        ..SamplerConfig::default()
    };
    assert_eq!(too_long.validate(), Err(ConfigError::MaxDrawDuration));
}

/// One frame presented `interval` after the previous one, wanted back to back or not.
fn presented_after(
    sampler: &mut FrameSampler,
    clock: &ManualClock,
    interval: Duration,
    back_to_back: bool,
) {
    clock.advance(interval.saturating_sub(ms(1)));
    let draw_start = clock.now();
    clock.advance(ms(1));
    let present = clock.now();
    sampler.record_frame(FrameRecord {
        draw_start,
        draw_end: present,
        present: Some(present),
        back_to_back,
        ..FrameRecord::default()
    });
}

fn hz(period_micros: u64) -> f64 {
    1e6 / period_micros as f64
}

#[test]
fn missed_refreshes_are_whole_periods_beyond_the_first() {
    let period = Duration::from_micros(16_667);
    let (mut s, clock) = sampler(no_warmup());
    s.set_refresh_hz(Some(hz(16_667)));
    presented_after(&mut s, &clock, period, true); // starts the intervals
    for multiple in [1_u32, 1, 2, 1, 3, 1] {
        presented_after(&mut s, &clock, period * multiple, true);
    }
    let snap = s.snapshot();
    assert_eq!(
        snap.missed_refreshes,
        Some(1 + 2),
        "2 periods miss 1, 3 miss 2"
    );
    assert_eq!(
        snap.missed_frames,
        Some(2.0 / 7.0),
        "2 of the 7 frames missed any"
    );
}

#[test]
fn jitter_of_a_fifth_of_a_period_is_no_miss_and_does_not_hide_one() {
    let period_us = 16_667_u64;
    let (mut s, clock) = sampler(no_warmup());
    s.set_refresh_hz(Some(hz(period_us)));
    presented_after(&mut s, &clock, Duration::from_micros(period_us), true);
    // ±20 % around one period: on time; ±20 % around two: one miss each.
    for percent in [80_u64, 120, 100, 80, 120] {
        presented_after(
            &mut s,
            &clock,
            Duration::from_micros(period_us * percent / 100),
            true,
        );
    }
    assert_eq!(
        s.snapshot().missed_refreshes,
        Some(0),
        "jitter is not a miss"
    );
    for percent in [180_u64, 220] {
        presented_after(
            &mut s,
            &clock,
            Duration::from_micros(period_us * percent / 100),
            true,
        );
    }
    assert_eq!(
        s.snapshot().missed_refreshes,
        Some(2),
        "two late frames, one refresh each"
    );
}

#[test]
fn an_idle_gap_is_not_a_miss_and_an_unknown_rate_reads_none() {
    let period = Duration::from_micros(16_667);
    let (mut s, clock) = sampler(no_warmup());
    presented_after(&mut s, &clock, period, true);
    presented_after(&mut s, &clock, period * 3, true);
    let unknown = s.snapshot();
    assert_eq!(
        (unknown.missed_refreshes, unknown.missed_frames),
        (None, None),
        "no rate, no MISS"
    );
    s.set_refresh_hz(Some(hz(16_667)));
    // A frame the app asked for after 500 ms of nothing (a timer, a click): not a miss.
    presented_after(&mut s, &clock, ms(500), false);
    presented_after(&mut s, &clock, period, true);
    let snap = s.snapshot();
    assert_eq!(
        snap.missed_refreshes,
        Some(0),
        "an idle spell misses nothing"
    );
    assert_eq!(snap.missed_frames, Some(0.0));
}

#[test]
fn misses_leave_with_their_frames() {
    let period = Duration::from_micros(16_667);
    let (mut s, clock) = sampler(SamplerConfig {
        capacity: 4,
        ..no_warmup()
    });
    s.set_refresh_hz(Some(hz(16_667)));
    presented_after(&mut s, &clock, period, true);
    presented_after(&mut s, &clock, period * 4, true);
    assert_eq!(s.snapshot().missed_refreshes, Some(3));
    for _ in 0..4 {
        presented_after(&mut s, &clock, period, true);
    }
    let snap = s.snapshot();
    assert_eq!(
        snap.missed_refreshes,
        Some(0),
        "the late frame left the window"
    );
    assert_eq!(snap.missed_frames, Some(0.0));
}

#[test]
fn cpu_phases_are_read_per_label_and_their_total_decides_bound_and_max_fps() {
    let (mut s, clock) = sampler(no_warmup());
    for _ in 0..10 {
        frame(&mut s, &clock, ms(2), ms(16));
        // eframe-style: the draw (`ui`, 2 ms) and what follows it (`render`, 9 ms).
        s.record_cpu_frame(ms(11), [("ui", ms(2)), ("render", ms(9))], 0);
        s.record_gpu_frame(clock.now(), [("egui", ms(5))]);
    }
    let snap = s.snapshot();
    assert_eq!(snap.cpu_frame, Some(ms(11)));
    let phases: Vec<(&str, Duration, Duration)> = snap
        .cpu_phases
        .iter()
        .map(|p| (p.label.as_str(), p.last, p.max))
        .collect();
    assert_eq!(phases, [("ui", ms(2), ms(2)), ("render", ms(9), ms(9))]);
    // FRAME alone (2 ms) would make the 5 ms GPU the slower side.
    assert_eq!(
        snap.max_fps_set_by,
        Some(Bound::Cpu),
        "the CPU's 11 ms is slower"
    );
    let max_fps = snap.max_fps.expect("MAX FPS");
    assert!(
        (max_fps - 1000.0 / 11.0).abs() < 1e-9,
        "1 / 11 ms: {max_fps}"
    );
    assert_eq!(snap.bound, Some(Bound::Neither), "11 ms fits in 16.7 ms");

    let (mut no_phases, clock) = sampler(no_warmup());
    frame(&mut no_phases, &clock, ms(2), ms(16));
    let snap = no_phases.snapshot();
    assert_eq!(
        (snap.cpu_frame, snap.cpu_phases.len()),
        (None, 0),
        "no report, no reading"
    );
}

#[test]
fn latency_stages_are_distributions_of_each_frames_own_marks() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(2), ms(16));
    assert!(s.snapshot().latency.is_empty(), "no marks yet, no reading");
    // UI stages of 1..=20 ms; no GPU marks (glow).
    for ui_ms in 1..=20 {
        let start = ms(100 * ui_ms);
        s.record_latency(&LatencyMarks {
            frame_start: Some(start),
            ui_end: Some(start + ms(ui_ms)),
            next_frame_start: Some(start + ms(30)),
            ..LatencyMarks::default()
        });
    }
    let snap = s.snapshot();
    let reading = |stage: LatencyStage| {
        *snap
            .latency
            .iter()
            .find(|r| r.stage == stage)
            .expect("every stage has a reading")
    };
    let ui = reading(LatencyStage::Ui);
    assert_eq!(
        (ui.frames, ui.p50, ui.p95, ui.max),
        (20, Some(ms(10)), Some(ms(19)), Some(ms(20))),
        "nearest rank over the frames' own UI times"
    );
    let gpu = reading(LatencyStage::Gpu);
    assert_eq!(
        (gpu.frames, gpu.p50, gpu.max),
        (0, None, None),
        "no GPU marks: absent, not zero"
    );
    assert_eq!(snap.latency.len(), LatencyStage::ALL.len());
}

/// Hand-made marks of a frame a request woke: `wake` before its start, `ui` in it, GPU from
/// `gpu_from` to `gpu_to` after the UI, and `after` until the next frame.
fn woken_frame(
    at: Duration,
    wake: Duration,
    ui: Duration,
    gpu: Duration,
    after: Duration,
) -> LatencyMarks {
    let frame_start = at + wake;
    let ui_end = frame_start + ui;
    let gpu_end = ui_end + gpu;
    LatencyMarks {
        request: Some(at),
        frame_start: Some(frame_start),
        ui_end: Some(ui_end),
        render_start: Some(ui_end),
        encode_end: Some(ui_end),
        gpu_begin: Some(ui_end),
        gpu_end: Some(gpu_end),
        next_frame_start: Some(gpu_end + after),
        ..LatencyMarks::default()
    }
}

#[test]
fn latency_is_the_distribution_of_each_frames_request_to_gpu_end_not_a_sum_of_medians() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(2), ms(16));
    assert_eq!(s.snapshot().latency_total, None, "no marks yet");
    // Three frames whose slow part alternates: (wake, ui, gpu) of (10, 1, 1), (1, 10, 1),
    // (1, 1, 10). Each frame's own request → GPU end is 12 ms; each stage's median is 1 ms,
    // so a sum of medians would read 3 ms.
    for (i, (wake, ui, gpu)) in [(10, 1, 1), (1, 10, 1), (1, 1, 10)].into_iter().enumerate() {
        let at = ms(1000 * (u64::try_from(i).expect("small") + 1));
        s.record_latency(&woken_frame(at, ms(wake), ms(ui), ms(gpu), ms(4)));
    }
    let snap = s.snapshot();
    let total = snap.latency_total.expect("frames a request woke");
    assert_eq!(total.end, LatencyEnd::GpuEnd);
    assert_eq!(
        (
            total.frames,
            total.frames_seen,
            total.p50,
            total.p95,
            total.max
        ),
        (3, 3, ms(12), ms(12), ms(12)),
        "the frames' own request → GPU end"
    );
    let sum_of_medians: Duration = [LatencyStage::Wake, LatencyStage::Ui, LatencyStage::Gpu]
        .iter()
        .filter_map(|&stage| snap.latency.iter().find(|r| r.stage == stage)?.p50)
        .sum();
    assert_eq!(sum_of_medians, ms(3), "what the old row summed");
}

/// A snapshot that leaves the lows and the latency path out has neither; filling them in
/// afterwards gives exactly the snapshot that read them at once (nothing was recorded between).
#[test]
fn parts_left_out_are_absent_until_filled_and_then_as_read_at_once() {
    let (mut s, clock) = sampler(no_warmup());
    for i in 0..40_u64 {
        frame(&mut s, &clock, ms(2 + i % 5), ms(16 + i % 3));
    }
    let mut latest = LatencyMarks::default();
    for i in 0..12_u64 {
        latest = woken_frame(
            ms(1000 * (i + 1)),
            ms(1 + i % 4),
            ms(2 + i % 3),
            ms(3),
            ms(4),
        );
        s.record_latency(&latest);
    }
    let whole = s.snapshot();
    assert!(
        whole.lows.is_some() && whole.latency_total.is_some() && !whole.latency.is_empty(),
        "the sampler has both parts to read: {whole:?}"
    );
    assert_eq!(
        whole.latency_latest,
        Some(latest),
        "the latest frame's marks"
    );

    let mut cheap = s.snapshot_of(SnapshotParts::NONE);
    assert_eq!(
        (
            cheap.lows,
            cheap.latency.len(),
            cheap.latency_total,
            cheap.latency_latest
        ),
        (None, 0, None, None),
        "left out: absent, not zero"
    );
    assert_eq!(
        (cheap.frame, cheap.p95, cheap.fps, cheap.max_fps),
        (whole.frame, whole.p95, whole.fps, whole.max_fps),
        "the other readings are read as always"
    );
    s.fill(
        &mut cheap,
        SnapshotParts {
            lows: true,
            latency: false,
        },
    );
    assert_eq!(
        (cheap.lows, cheap.latency.len()),
        (whole.lows, 0),
        "only the lows"
    );
    s.fill(
        &mut cheap,
        SnapshotParts::ALL.without(SnapshotParts {
            lows: true,
            latency: false,
        }),
    );
    assert_eq!(cheap, whole, "filled: the snapshot read at once");
}

#[test]
fn a_reactive_apps_idle_gap_does_not_enter_latency() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(2), ms(16));
    // The same 2 + 3 + 5 ms path, followed by 5 ms or by 5 s of idle before the next frame.
    let mut at = ms(1000);
    for idle_ms in [5, 5_000, 5, 5_000, 5] {
        s.record_latency(&woken_frame(at, ms(2), ms(3), ms(5), ms(idle_ms)));
        at += ms(20 + idle_ms);
    }
    let snap = s.snapshot();
    let total = snap.latency_total.expect("frames a request woke");
    assert_eq!(
        (total.p50, total.max),
        (ms(10), ms(10)),
        "idle is not latency"
    );
    let after = snap
        .latency
        .iter()
        .find(|r| r.stage == LatencyStage::AfterGpu)
        .expect("listed");
    assert_eq!(
        after.max,
        Some(ms(5_000)),
        "the idle gap is kept apart, in `after`"
    );
}

#[test]
fn frames_without_a_request_have_no_latency_and_no_gpu_end_means_the_ui_end() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(2), ms(16));
    // glow: no GPU marks. Two frames a request woke (1 + 4 ms), two woken by input.
    for (i, request) in [true, false, true, false].into_iter().enumerate() {
        let made = ms(100 * (u64::try_from(i).expect("small") + 1));
        let start = made + ms(1);
        s.record_latency(&LatencyMarks {
            request: request.then_some(made),
            frame_start: Some(start),
            ui_end: Some(start + ms(4)),
            next_frame_start: Some(start + ms(30)),
            ..LatencyMarks::default()
        });
    }
    let total = s
        .snapshot()
        .latency_total
        .expect("two frames a request woke");
    assert_eq!(total.end, LatencyEnd::UiEnd, "no GPU end is known");
    assert_eq!(
        (total.frames, total.frames_seen, total.p50, total.max),
        (2, 4, ms(5), ms(5)),
        "request → UI end, of the two frames that had a request"
    );
}

/// One counted frame presented `interval` after the previous present, wanted back to back or
/// not (after an idle spell).
fn present_after(
    s: &mut FrameSampler,
    clock: &ManualClock,
    interval: Duration,
    back_to_back: bool,
) {
    clock.advance(interval.saturating_sub(ms(1)));
    let draw_start = clock.now();
    clock.advance(ms(1));
    let verdict = s.record_frame(FrameRecord {
        draw_start,
        draw_end: clock.now(),
        present: Some(clock.now()),
        invalidations: 1,
        origin: FrameOrigin::App,
        overlay_cost: Duration::ZERO,
        overlay_cost_after_end: Duration::ZERO,
        excluded: Duration::ZERO,
        back_to_back,
    });
    assert_eq!(verdict, FrameVerdict::Counted, "no warm-up here");
}

#[test]
fn avg_is_one_over_the_mean_interval_and_idle_gaps_change_nothing() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(1), ms(1));
    for _ in 0..50 {
        present_after(&mut s, &clock, ms(1), true);
        present_after(&mut s, &clock, ms(4), true);
    }
    let lows = s.snapshot().lows.expect("intervals");
    assert_eq!(lows.intervals, 100);
    assert!(
        (lows.avg_fps - 400.0).abs() < 1e-6,
        "1 and 4 ms: 400 FPS, not 625: {lows:?}"
    );
    // Idle spells (not wanted back to back) are not intervals.
    present_after(&mut s, &clock, Duration::from_secs(5), false);
    present_after(&mut s, &clock, Duration::from_secs(3), false);
    let after_idle = s.snapshot().lows.expect("intervals");
    assert_eq!(after_idle, lows, "idle gaps change nothing");
    s.reset();
    assert_eq!(s.snapshot().lows, None, "a reset clears them");
    assert_eq!(s.snapshot().hitch_ms_per_s, None, "and the hitch ratio");
}

#[test]
fn lows_are_the_nearest_rank_percentiles_within_the_histograms_error() {
    let (mut s, clock) = sampler(no_warmup());
    frame(&mut s, &clock, ms(1), ms(1));
    // 2000 intervals: 1..=2000 × 10 µs + 5 ms, shuffled by a fixed stride.
    let interval = |i: u64| ms(5) + Duration::from_micros(10 * (i * 7919 % 2000 + 1));
    for i in 0..2000 {
        present_after(&mut s, &clock, interval(i), true);
    }
    let lows = s.snapshot().lows.expect("intervals");
    let mut sorted: Vec<Duration> = (0..2000).map(interval).collect();
    sorted.sort_unstable();
    // Nearest rank: the ⌈p·n⌉-th shortest, p in thousandths.
    let rank = |per_mille: usize| sorted[(per_mille * 2000).div_ceil(1000).clamp(1, 2000) - 1];
    let within = |got_fps: f64, exact: Duration| {
        let exact_fps = 1.0 / exact.as_secs_f64();
        (got_fps / exact_fps - 1.0).abs() <= 0.01
    };
    assert!(
        within(lows.low_1_percent_fps, rank(990)),
        "{lows:?} vs {:?}",
        rank(990)
    );
    let low_0_1 = lows.low_0_1_percent_fps.expect("1000 intervals or more");
    assert!(within(low_0_1, rank(999)), "{lows:?} vs {:?}", rank(999));
    let slowest: Duration = sorted[1980..].iter().sum::<Duration>() / 20;
    assert!(
        within(lows.slowest_1_percent_avg_fps, slowest),
        "{lows:?} vs {slowest:?}"
    );
    let mean = sorted.iter().sum::<Duration>() / 2000;
    assert!(
        (lows.avg_fps - 1.0 / mean.as_secs_f64()).abs() < 1e-6,
        "AVG is exact"
    );

    let (mut short, clock) = sampler(no_warmup());
    frame(&mut short, &clock, ms(1), ms(1));
    for _ in 0..999 {
        present_after(&mut short, &clock, ms(16), true);
    }
    assert_eq!(
        short.snapshot().lows.map(|l| l.low_0_1_percent_fps),
        Some(None),
        "no 0.1% low below 1000 intervals"
    );
}

#[test]
fn hitch_ratio_of_a_60_hz_loop_missing_one_refresh_every_sixth_frame() {
    let (mut s, clock) = sampler(no_warmup());
    s.set_refresh_hz(Some(60.0));
    frame(&mut s, &clock, ms(1), ms(1));
    let period = Duration::from_nanos(16_666_667);
    for i in 0..600 {
        let interval = if i % 6 == 5 { period * 2 } else { period };
        present_after(&mut s, &clock, interval, true);
    }
    // Idle time never dilutes it.
    present_after(&mut s, &clock, Duration::from_secs(10), false);
    let ratio = s.snapshot().hitch_ms_per_s.expect("animating");
    // 16.67 ms late per 116.7 ms animating.
    assert!(
        (ratio - 1000.0 / 7.0).abs() < 0.01,
        "{ratio:.3} ms/s, want 142.86"
    );
}
