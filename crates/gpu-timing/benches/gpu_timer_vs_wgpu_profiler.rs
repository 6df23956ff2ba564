//! The same GPU render workload timed by `gpu-timing` and by `wgpu-profiler` 0.28, in one run.
//!
//! Part 1 alternates the two, frame by frame, on an identical pass and prints both GPU
//! durations (they should agree within 5 %) and each one's CPU cost per frame, counting only the
//! timing calls. Part 2 lets criterion measure whole tiny frames (encode, submit, wait, read)
//! untimed and under each timer, so the difference is each one's full per-frame overhead.
//! Runs in well under a minute on lavapipe; without a Vulkan adapter it prints why and exits.
#![expect(
    clippy::print_stdout,
    reason = "a benchmark reports its figures on stdout"
)]
#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark may stop at the first failure"
)]

#[path = "../tests/support/workload.rs"]
mod workload;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use gpu_timing::{GpuTimer, GpuTimerSettings};
use workload::{Gpu, Workload, request_gpu, wait_idle};

/// Frames per timer in the comparison.
const FRAMES: usize = 40;
/// Fragment-loop turns per pixel: about 15 ms per pass on lavapipe at 1024².
const ITERATIONS: u32 = 8;

/// One timer's figures from the comparison.
#[derive(Default)]
struct Tally {
    gpu_secs: Vec<f64>,
    cpu_api: Duration,
    frames: u32,
}

impl Tally {
    fn median_ms(&self) -> f64 {
        let mut sorted = self.gpu_secs.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN) * 1e3
    }

    fn mean_ms(&self) -> f64 {
        self.gpu_secs.iter().sum::<f64>() / self.gpu_secs.len().max(1) as f64 * 1e3
    }

    fn cpu_micros_per_frame(&self) -> f64 {
        self.cpu_api.as_secs_f64() * 1e6 / f64::from(self.frames.max(1))
    }
}

fn gpu_timing_frame(
    gpu: &Gpu,
    timer: &GpuTimer,
    work: &Workload,
    iterations: u32,
    tally: &mut Tally,
) {
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let t0 = Instant::now();
    let frame = timer.begin_frame().expect("a free slot");
    let stamps = timer.pass_timestamps(frame, "work").expect("a free pair");
    let mut api = t0.elapsed();
    drop(work.begin_pass(&mut encoder, iterations, Some(stamps.render_pass_writes())));
    let t1 = Instant::now();
    timer.resolve_frame(frame, &mut encoder);
    api += t1.elapsed();
    gpu.queue.submit([encoder.finish()]);
    wait_idle(&gpu.device);
    let t2 = Instant::now();
    timer.poll_results(|result| {
        tally
            .gpu_secs
            .extend(result.passes.iter().map(|p| p.duration_secs));
    });
    api += t2.elapsed();
    tally.cpu_api += api;
    tally.frames += 1;
}

fn wgpu_profiler_frame(
    gpu: &Gpu,
    profiler: &mut wgpu_profiler::GpuProfiler,
    work: &Workload,
    iterations: u32,
    tally: &mut Tally,
) {
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let t0 = Instant::now();
    let query = profiler.begin_pass_query("work", &mut encoder);
    let mut api = t0.elapsed();
    drop(work.begin_pass(
        &mut encoder,
        iterations,
        query.render_pass_timestamp_writes(),
    ));
    let t1 = Instant::now();
    profiler.end_query(&mut encoder, query);
    profiler.resolve_queries(&mut encoder);
    api += t1.elapsed();
    gpu.queue.submit([encoder.finish()]);
    let t2 = Instant::now();
    profiler.end_frame().expect("balanced scopes");
    api += t2.elapsed();
    wait_idle(&gpu.device);
    let t3 = Instant::now();
    let period = gpu.queue.get_timestamp_period();
    if let Some(results) = profiler.process_finished_frame(period) {
        tally.gpu_secs.extend(
            results
                .iter()
                .filter_map(|r| r.time.as_ref())
                .map(|t| t.end - t.start),
        );
    }
    api += t3.elapsed();
    tally.cpu_api += api;
    tally.frames += 1;
}

fn compare(gpu: &Gpu) {
    let work = Workload::new(&gpu.device, 1024);
    let timer = GpuTimer::new(&gpu.device, &gpu.queue, GpuTimerSettings::default()).unwrap();
    let mut profiler =
        wgpu_profiler::GpuProfiler::new(&gpu.device, wgpu_profiler::GpuProfilerSettings::default())
            .unwrap();
    let (mut ours, mut theirs) = (Tally::default(), Tally::default());
    // Warm-up frames (pipeline compilation, first-use allocations) are measured but discarded.
    gpu_timing_frame(gpu, &timer, &work, ITERATIONS, &mut Tally::default());
    wgpu_profiler_frame(gpu, &mut profiler, &work, ITERATIONS, &mut Tally::default());
    for _ in 0..FRAMES {
        gpu_timing_frame(gpu, &timer, &work, ITERATIONS, &mut ours);
        wgpu_profiler_frame(gpu, &mut profiler, &work, ITERATIONS, &mut theirs);
    }
    let difference = (ours.median_ms() - theirs.median_ms()) / theirs.median_ms() * 100.0;
    println!();
    println!(
        "same render pass (1024², {ITERATIONS} loop turns/pixel), {FRAMES} alternating frames each, adapter {:?}",
        gpu.adapter.get_info().name
    );
    println!(
        "{:<15} {:>14} {:>12} {:>22}",
        "timer", "GPU median ms", "GPU mean ms", "CPU µs/frame (calls)"
    );
    for (name, tally) in [("gpu-timing", &ours), ("wgpu-profiler", &theirs)] {
        println!(
            "{name:<15} {:>14.3} {:>12.3} {:>22.2}",
            tally.median_ms(),
            tally.mean_ms(),
            tally.cpu_micros_per_frame()
        );
    }
    println!(
        "GPU medians differ by {difference:+.2} % ({}); timed frames: {} vs {}; gpu-timing stats {:?}",
        if difference.abs() <= 5.0 {
            "within 5 %"
        } else {
            "MORE THAN 5 %"
        },
        ours.gpu_secs.len(),
        theirs.gpu_secs.len(),
        timer.stats()
    );
    println!();
}

fn criterion_overhead(gpu: &Gpu, criterion: &mut Criterion) {
    let work = Workload::new(&gpu.device, 16);
    let timer = GpuTimer::new(&gpu.device, &gpu.queue, GpuTimerSettings::default()).unwrap();
    let mut profiler =
        wgpu_profiler::GpuProfiler::new(&gpu.device, wgpu_profiler::GpuProfilerSettings::default())
            .unwrap();
    let mut group = criterion.benchmark_group("tiny frame incl. submit+wait");
    group.bench_function("untimed", |b| {
        b.iter(|| {
            let mut encoder = gpu
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
            drop(work.begin_pass(&mut encoder, 1, None));
            gpu.queue.submit([encoder.finish()]);
            wait_idle(&gpu.device);
        });
    });
    group.bench_function("gpu-timing", |b| {
        let mut tally = Tally::default();
        b.iter(|| gpu_timing_frame(gpu, &timer, &work, 1, &mut tally));
        black_box(tally.gpu_secs.len());
    });
    group.bench_function("wgpu-profiler", |b| {
        let mut tally = Tally::default();
        b.iter(|| wgpu_profiler_frame(gpu, &mut profiler, &work, 1, &mut tally));
        black_box(tally.gpu_secs.len());
    });
    group.finish();
}

fn main() {
    let Some(gpu) = request_gpu(true) else { return };
    if !gpu_timing::TimestampSupport::from_features(gpu.device.features()).can_time_passes() {
        println!(
            "skipped: {:?} has no TIMESTAMP_QUERY",
            gpu.adapter.get_info().name
        );
        return;
    }
    compare(&gpu);
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .configure_from_args();
    criterion_overhead(&gpu, &mut criterion);
    criterion.final_summary();
}
