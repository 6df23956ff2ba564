//! What the sampler costs: recording a frame, a snapshot over 120 and 10 000 samples, and one
//! resource sample. Targets: ≤ 50 ns, ≤ 5 µs, ≤ 300 µs, ≤ 20 µs.
#![expect(
    clippy::expect_used,
    reason = "a benchmark setup that fails should stop loudly"
)]
#![expect(
    missing_docs,
    reason = "criterion's macros generate undocumented functions"
)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use profiler_core::{
    FrameOrigin, FrameRecord, FrameSampler, GpuUsageProbe, ManualClock, ProcessProbe, SamplerConfig,
};

fn filled_sampler(capacity: usize) -> (FrameSampler, ManualClock) {
    let clock = ManualClock::new();
    let config = SamplerConfig {
        capacity,
        warmup_frames: 0,
        ..SamplerConfig::default()
    };
    let mut sampler = FrameSampler::new(config, Arc::new(clock.clone())).expect("valid config");
    for i in 0..capacity as u64 {
        let start = Duration::from_micros(i * 16_667);
        let end = start + Duration::from_micros(1_000 + (i * 7919) % 15_000);
        sampler.record_frame(FrameRecord {
            draw_start: start,
            draw_end: end,
            present: Some(end),
            invalidations: 1,
            ..FrameRecord::default()
        });
        clock.set(end);
    }
    (sampler, clock)
}

fn record_frame(c: &mut Criterion) {
    let (mut sampler, _clock) = filled_sampler(120);
    let mut t = Duration::from_secs(100);
    c.bench_function("record_frame", |b| {
        b.iter(|| {
            let end = t + Duration::from_millis(4);
            black_box(sampler.record_frame(black_box(FrameRecord {
                draw_start: t,
                draw_end: end,
                present: Some(end),
                invalidations: 1,
                origin: FrameOrigin::App,
                overlay_cost: Duration::from_micros(15),
                overlay_cost_after_end: Duration::ZERO,
                excluded: Duration::ZERO,
                back_to_back: true,
            })));
            t += Duration::from_micros(16_667);
        });
    });
}

fn snapshot(c: &mut Criterion) {
    for capacity in [120, 10_000] {
        let (mut sampler, _clock) = filled_sampler(capacity);
        c.bench_function(&format!("snapshot_{capacity}"), |b| {
            b.iter(|| black_box(sampler.snapshot()));
        });
    }
}

fn resource_sample(c: &mut Criterion) {
    let mut probe = ProcessProbe::new();
    c.bench_function("resource_sample", |b| {
        b.iter(|| black_box((probe.cpu_time(), probe.memory())));
    });
}

/// The GPU-use probe runs on the same thread at the same cadence; reported separately because
/// its cost depends on the machine (open DRM files, NVML).
fn gpu_usage_sample(c: &mut Criterion) {
    let mut probe = GpuUsageProbe::new();
    let mut now_nanos = 0_u64;
    c.bench_function("gpu_usage_sample", |b| {
        b.iter(|| {
            now_nanos += 250_000_000;
            black_box(probe.sample(now_nanos))
        });
    });
}

criterion_group!(
    benches,
    record_frame,
    snapshot,
    resource_sample,
    gpu_usage_sample
);
criterion_main!(benches);
