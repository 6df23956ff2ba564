use profiler_core::BenchmarkSummary;

/// Where a benchmark stands, for the HUD's rows: counting down, recording, or done (its
/// summary shown as a card under the rows until the next benchmark or a reset).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BenchmarkStatus {
    Countdown { seconds_left: f64 },
    Recording { seconds_left: f64 },
    Done(std::sync::Arc<BenchmarkSummary>),
}
