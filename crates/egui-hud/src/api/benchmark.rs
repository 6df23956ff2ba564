//! Benchmark runs: a countdown, a reset, a fixed-length recording, a summary; and the A/B
//! comparison of two saved summaries.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use profiler_core::{BenchmarkComparison, BenchmarkSummary};

use crate::plugin::frame_plugin::FramePlugin;

/// The countdown [`benchmark`] gives the user to take their hands off: 3 s (Metal HUD's).
pub const BENCHMARK_COUNTDOWN: Duration = Duration::from_secs(3);

/// Records a benchmark run of `length` on the current viewport, after a 3 s countdown
/// ([`BENCHMARK_COUNTDOWN`]): at its start the readouts are reset (so the run holds its own
/// frames only, after a warm-up), at its end [`benchmark_summary`] returns the summary and the
/// HUD shows it as a card under its rows (until the next benchmark or [`crate::reset`]). Cost:
/// a lock of the HUD's plugin; while recording, two numbers pushed per frame into vectors sized
/// for the run; at its end one summary. Needs the HUD shown.
pub fn benchmark(ctx: &egui::Context, length: Duration) {
    benchmark_after(ctx, BENCHMARK_COUNTDOWN, length);
}

/// [`benchmark`] with its own countdown (zero for a run started by a script or a test).
pub fn benchmark_after(ctx: &egui::Context, countdown: Duration, length: Duration) {
    let viewport = ctx.viewport_id();
    FramePlugin::with(ctx, |plugin| {
        plugin.start_benchmark(viewport, countdown, length);
    });
}

/// The current viewport's last finished benchmark (see [`benchmark`]); `None` before one.
/// Cost: a lock of the HUD's plugin and an `Arc` clone.
pub fn benchmark_summary(ctx: &egui::Context) -> Option<Arc<BenchmarkSummary>> {
    let viewport = ctx.viewport_id();
    ctx.with_plugin::<FramePlugin, _>(|plugin| plugin.benchmark_summary(viewport))
        .flatten()
}

/// Run `b` against run `a`: per metric the change and a verdict (faster, slower or no
/// difference) from a 99 % bootstrap interval of the difference of medians of the runs' frame
/// times and present intervals. See [`BenchmarkComparison`]. Cost: a few milliseconds.
pub fn compare(a: &BenchmarkSummary, b: &BenchmarkSummary) -> BenchmarkComparison {
    BenchmarkComparison::of(a, b)
}

/// Writes `summary` as `<stem>.json` and its frames as `<stem>.csv` into `directory`.
///
/// # Errors
/// What the file system says, with the path, or a JSON error.
pub fn save_benchmark(
    summary: &BenchmarkSummary,
    directory: &Path,
    stem: &str,
) -> Result<PathBuf, crate::api::export::ExportError> {
    let json_path = directory.join(format!("{stem}.json"));
    let write_error =
        |path: &Path, source: std::io::Error| crate::api::export::ExportError::Write {
            format: profiler_core::record::export_format::ExportFormat::Csv,
            path: Some(path.to_owned()),
            source,
        };
    let json = summary
        .to_json()
        .map_err(|error| write_error(&json_path, std::io::Error::other(error)))?;
    std::fs::write(&json_path, json).map_err(|source| write_error(&json_path, source))?;
    let csv_path = directory.join(format!("{stem}.csv"));
    let mut csv = Vec::new();
    summary
        .write_csv(&mut csv)
        .and_then(|()| std::fs::write(&csv_path, csv))
        .map_err(|source| write_error(&csv_path, source))?;
    Ok(json_path)
}
