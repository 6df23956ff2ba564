//! The A/B verdict of two benchmark runs, on seeded samples.

use profiler_core::{BenchmarkComparison, BenchmarkSummary, MillisPercentiles, Verdict};

/// A run of `frames` frames whose times are 10 ms × `scale` with a skewed spread (a slow tail),
/// drawn from `seed`.
fn run(seed: u64, frames: usize, scale: f64) -> BenchmarkSummary {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut sample = || {
        // The sum of three uniforms, skewed by squaring: a body near 10 ms and a tail.
        let u = (rng.f64() + rng.f64() + rng.f64()) / 3.0;
        scale * (8.0 + 6.0 * u * u)
    };
    let frame_ms: Vec<f64> = (0..frames).map(|_| sample()).collect();
    let interval_ms: Vec<f64> = (0..frames).map(|_| sample() + 6.0).collect();
    let mean = interval_ms.iter().sum::<f64>() / interval_ms.len() as f64;
    BenchmarkSummary {
        frames: frames as u64,
        seconds: interval_ms.iter().sum::<f64>() / 1e3,
        avg_fps: Some(1e3 / mean),
        low_1_percent_fps: None,
        low_0_1_percent_fps: None,
        frame: MillisPercentiles::of(&frame_ms),
        interval: MillisPercentiles::of(&interval_ms),
        hitch_ms_per_s: Some(0.0),
        miss_share: None,
        cpu_ms_per_frame: None,
        gpu_ms_per_frame: None,
        spikes: 0,
        worst_spike_ms: None,
        frame_ms,
        interval_ms,
    }
}

#[test]
fn two_runs_of_one_distribution_read_no_difference_in_95_percent_of_200_trials() {
    let same = (0..200_u64)
        .filter(|&trial| {
            let comparison =
                BenchmarkComparison::of(&run(trial * 2, 300, 1.0), &run(trial * 2 + 1, 300, 1.0));
            comparison.frame_verdict == Verdict::NoDifference
                && comparison.interval_verdict == Verdict::NoDifference
        })
        .count();
    println!("{same} of 200 trials read no difference");
    assert!(same >= 190, "{same} of 200 trials read no difference");
}

#[test]
fn a_run_ten_percent_faster_reads_faster_and_the_reverse_slower() {
    let (a, b) = (run(1, 300, 1.0), run(2, 300, 0.9));
    let comparison = BenchmarkComparison::of(&a, &b);
    assert_eq!(
        comparison.frame_verdict,
        Verdict::Faster,
        "{}",
        comparison.table()
    );
    assert_eq!(comparison.interval_verdict, Verdict::Faster);
    let back = BenchmarkComparison::of(&b, &a);
    assert_eq!(back.frame_verdict, Verdict::Slower, "{}", back.table());
    let avg = comparison
        .metrics
        .iter()
        .find(|m| m.name == "AVG FPS")
        .and_then(profiler_core::MetricChange::change_percent)
        .expect("AVG in both");
    assert!(avg > 5.0, "AVG rises: {avg:.1} %");
    assert!(
        comparison.table().contains("faster"),
        "{}",
        comparison.table()
    );
}

#[test]
fn too_few_samples_give_no_verdict_and_a_summary_reads_back_from_json() {
    let comparison = BenchmarkComparison::of(&run(1, 5, 1.0), &run(2, 300, 1.0));
    assert_eq!(comparison.frame_verdict, Verdict::TooFewSamples);
    let summary = run(3, 50, 1.0);
    let json = summary.to_json().expect("serialises");
    let back = BenchmarkSummary::from_json(&json).expect("parses");
    // JSON numbers read back to within the last bit or so.
    assert_eq!(back.frames, summary.frames);
    assert!(
        back.frame_ms
            .iter()
            .zip(&summary.frame_ms)
            .all(|(a, b)| (a - b).abs() < 1e-9),
        "the frames read back"
    );
    let mut csv = Vec::new();
    summary.write_csv(&mut csv).expect("writes");
    let csv = String::from_utf8(csv).expect("utf-8");
    assert_eq!(csv.lines().count(), 51, "a header and a line per frame");
    assert!(BenchmarkSummary::from_json("{}").is_err(), "not a summary");
}
