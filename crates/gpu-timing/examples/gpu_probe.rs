//! Prints what `gpu-timing` measures on this machine's first Vulkan adapter: features, per-pass
//! GPU durations over paced frames, result latency, calibration window and the GPU↔CPU clock
//! drift over a run (`gpu_probe [SECONDS=60] [TARGET_EDGE=2048]`).
//!
//! Build for another machine with
//! `cargo build --release -p gpu-timing --example gpu_probe --all-features`.
#![expect(clippy::print_stdout, reason = "the probe's output is its result")]

#[path = "../tests/support/workload.rs"]
mod workload;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use gpu_timing::{ClockCalibration, GpuTimer, GpuTimerSettings};
use workload::{Gpu, Workload, request_gpu, wait_idle};

/// Frame pacing, like a 60 Hz display.
const FRAME_INTERVAL: Duration = Duration::from_micros(16_667);
/// How often the clocks are compared again.
const CALIBRATION_INTERVAL: Duration = Duration::from_secs(5);
/// The timed passes: label and fragment-loop turns per pixel.
const PASSES: [(&str, u32); 3] = [("light", 1), ("medium", 32), ("heavy", 256)];

fn main() {
    let arg = |n: usize, default: u32| {
        std::env::args()
            .nth(n)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let (run_secs, target_edge) = (u64::from(arg(1, 60)), arg(2, 2048));
    let Some(gpu) = request_gpu(true) else { return };
    let info = gpu.adapter.get_info();
    println!(
        "adapter: {} ({:?}, {:?}) driver {} {}",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    );
    println!(
        "timestamp features on device: {:?}",
        gpu_timing::required_features(&gpu.adapter) & gpu.device.features()
    );
    println!(
        "timestamp period: {} ns/tick",
        gpu.queue.get_timestamp_period()
    );

    let settings = GpuTimerSettings {
        max_frame_interval_factor: Some(4.0),
        ..Default::default()
    };
    let timer = match GpuTimer::new(&gpu.device, &gpu.queue, settings) {
        Ok(timer) => timer,
        Err(error) => return println!("no timer: {error}"),
    };
    println!(
        "support: {:?} {}",
        timer.support(),
        timer.support().reason()
    );
    if !timer.support().can_time_passes() {
        return;
    }
    let work = Workload::new(&gpu.device, target_edge);
    let first = calibrate_and_report(&gpu, &timer, None);
    let mut durations: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut latencies = Vec::new();
    let started = Instant::now();
    let mut next_calibration = started + CALIBRATION_INTERVAL;
    let mut frame_number = 0_u64;
    let mut last_begun = None;
    while started.elapsed() < Duration::from_secs(run_secs) {
        let frame_start = Instant::now();
        if let Some(frame) = run_frame(&gpu, &timer, &work) {
            last_begun = Some(frame.index());
        }
        timer.poll_results(|result| {
            latencies.push(
                last_begun
                    .unwrap_or_default()
                    .saturating_sub(result.frame_id.index()),
            );
            for pass in &result.passes {
                let label = PASSES
                    .iter()
                    .find(|(l, _)| **l == *pass.label)
                    .map_or("?", |(l, _)| *l);
                durations.entry(label).or_default().push(pass.duration_secs);
            }
        });
        frame_number += 1;
        if Instant::now() >= next_calibration {
            if let Some(first) = &first {
                calibrate_and_report(&gpu, &timer, Some((first, started)));
            }
            next_calibration += CALIBRATION_INTERVAL;
        }
        std::thread::sleep(FRAME_INTERVAL.saturating_sub(frame_start.elapsed()));
    }
    wait_idle(&gpu.device);
    timer.poll_results(|_| {});
    println!(
        "{frame_number} frames in {:.1} s; stats {:?}",
        started.elapsed().as_secs_f64(),
        timer.stats()
    );
    print_summary(durations, latencies);
}

/// Prints the result latency and per-pass duration statistics.
fn print_summary(durations: BTreeMap<&str, Vec<f64>>, mut latencies: Vec<u64>) {
    latencies.sort_unstable();
    println!(
        "result latency (frames begun after the result's frame, when read): median {} min {} max {}",
        latencies
            .get(latencies.len() / 2)
            .copied()
            .unwrap_or_default(),
        latencies.first().copied().unwrap_or_default(),
        latencies.last().copied().unwrap_or_default()
    );
    println!(
        "{:<8} {:>6} {:>12} {:>12} {:>12} {:>12}",
        "pass", "n", "median µs", "min µs", "p95 µs", "max µs"
    );
    for (label, mut secs) in durations {
        secs.sort_by(f64::total_cmp);
        let at = |percent: usize| {
            secs.get((secs.len().saturating_sub(1)) * percent / 100)
                .copied()
                .unwrap_or(f64::NAN)
                * 1e6
        };
        println!(
            "{label:<8} {:>6} {:>12.2} {:>12.2} {:>12.2} {:>12.2}",
            secs.len(),
            at(50),
            at(0),
            at(95),
            at(100)
        );
    }
}

/// Records one frame: the three passes, resolved at the end of the same encoder.
fn run_frame(gpu: &Gpu, timer: &GpuTimer, work: &Workload) -> Option<gpu_timing::FrameId> {
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let frame = timer.begin_frame();
    for (label, iterations) in PASSES {
        let stamps = frame.and_then(|f| timer.pass_timestamps(f, label));
        drop(work.begin_pass(
            &mut encoder,
            iterations,
            stamps.as_ref().map(|s| s.render_pass_writes()),
        ));
    }
    if let Some(frame) = frame {
        timer.resolve_frame(frame, &mut encoder);
    }
    gpu.queue.submit([encoder.finish()]);
    frame
}

/// Calibrates (timing how long it blocks) and prints the window, the GPU clock's offset from
/// `CLOCK_MONOTONIC` (when the adapter reports that clock) and the drift against `first`.
fn calibrate_and_report(
    gpu: &Gpu,
    timer: &GpuTimer,
    first: Option<(&ClockCalibration, Instant)>,
) -> Option<ClockCalibration> {
    let began = Instant::now();
    let calibration = match timer.calibrate() {
        Ok(calibration) => calibration,
        Err(error) => {
            println!("calibration failed: {error}");
            return None;
        }
    };
    let blocked = began.elapsed();
    let monotonic = gpu.adapter.get_presentation_timestamp();
    let read_at = Instant::now();
    let offset = if monotonic == wgpu::PresentationTimestamp::INVALID_TIMESTAMP {
        "n/a".to_owned()
    } else {
        let cal_monotonic_nanos = monotonic
            .0
            .saturating_sub(read_at.duration_since(calibration.cpu_instant()).as_nanos());
        format!(
            "{:.6e} ns",
            i128::from(calibration.gpu_nanos()) as f64 - cal_monotonic_nanos as f64
        )
    };
    match first {
        None => println!(
            "calibration: window ±{:.1} µs, blocked {:.2} ms, GPU clock − CLOCK_MONOTONIC = {offset}",
            calibration.uncertainty().as_secs_f64() * 1e6,
            blocked.as_secs_f64() * 1e3
        ),
        Some((first, started)) => {
            let drift = first.drift_nanos(&calibration);
            let elapsed = calibration
                .cpu_instant()
                .duration_since(first.cpu_instant())
                .as_secs_f64();
            println!(
                "t={:>5.1} s calibration: window ±{:.1} µs, blocked {:.2} ms, drift vs first {:+} ns ({:+.3} ppm), offset {offset}",
                started.elapsed().as_secs_f64(),
                calibration.uncertainty().as_secs_f64() * 1e6,
                blocked.as_secs_f64() * 1e3,
                drift,
                drift as f64 / (elapsed * 1e9) * 1e6
            );
        }
    }
    Some(calibration)
}
