use std::time::Duration;

use profiler_core::record::frame_log::FrameLog;
use profiler_core::{BenchmarkSummary, MillisPercentiles, Snapshot};

use crate::view::benchmark_status::BenchmarkStatus;

/// A benchmark in progress on one viewport: a countdown, then a recording of a fixed length
/// on the HUD's clock (from a reset, so it holds the run's frames only). Owned by the
/// viewport's state; advanced at the end of every frame.
#[derive(Debug)]
pub(crate) struct BenchmarkRun {
    length: Duration,
    phase: Phase,
}

#[derive(Debug)]
enum Phase {
    /// Until `until`, nothing is recorded (the user takes their hands off).
    Countdown { until: Duration },
    /// From `started` to `until`: every counted frame's draw and, wanted back to back, its
    /// present interval, in milliseconds.
    Recording {
        started: Duration,
        until: Duration,
        frame_ms: Vec<f64>,
        interval_ms: Vec<f64>,
    },
}

/// What a benchmark step asks of its owner.
#[derive(Debug)]
pub(crate) enum BenchmarkStep {
    /// Nothing changes.
    Continue,
    /// The countdown is over: reset the readouts, recording starts.
    Reset,
    /// The recording is over: here are its samples and length.
    Finished {
        seconds: f64,
        frame_ms: Vec<f64>,
        interval_ms: Vec<f64>,
    },
}

impl BenchmarkRun {
    /// A run of `length` after `countdown`, from `now` on the HUD's clock.
    pub(crate) fn new(now: Duration, countdown: Duration, length: Duration) -> Self {
        Self {
            length,
            phase: Phase::Countdown {
                until: now.saturating_add(countdown),
            },
        }
    }

    /// A counted frame: its draw and, wanted back to back, its present interval. Recorded
    /// while recording only; the vectors were sized for the run, so this rarely allocates.
    pub(crate) fn record(&mut self, draw: Duration, interval: Option<Duration>) {
        if let Phase::Recording {
            frame_ms,
            interval_ms,
            ..
        } = &mut self.phase
        {
            frame_ms.push(draw.as_secs_f64() * 1e3);
            if let Some(interval) = interval {
                interval_ms.push(interval.as_secs_f64() * 1e3);
            }
        }
    }

    /// Moves on at `now` (the end of a frame).
    pub(crate) fn step(&mut self, now: Duration) -> BenchmarkStep {
        match &mut self.phase {
            Phase::Countdown { until } if now >= *until => {
                // Room for a second at 240 FPS per second of recording: no growth per frame.
                let room = usize::try_from(self.length.as_secs().saturating_add(1))
                    .unwrap_or(usize::MAX)
                    .saturating_mul(240);
                self.phase = Phase::Recording {
                    started: now,
                    until: now.saturating_add(self.length),
                    frame_ms: Vec::with_capacity(room),
                    interval_ms: Vec::with_capacity(room),
                };
                BenchmarkStep::Reset
            }
            Phase::Recording {
                started,
                until,
                frame_ms,
                interval_ms,
            } if now >= *until => BenchmarkStep::Finished {
                seconds: now.saturating_sub(*started).as_secs_f64(),
                frame_ms: std::mem::take(frame_ms),
                interval_ms: std::mem::take(interval_ms),
            },
            _ => BenchmarkStep::Continue,
        }
    }

    /// Counting down or recording, and for how long still.
    pub(crate) fn status(&self, now: Duration) -> BenchmarkStatus {
        match &self.phase {
            Phase::Countdown { until } => BenchmarkStatus::Countdown {
                seconds_left: until.saturating_sub(now).as_secs_f64(),
            },
            Phase::Recording { until, .. } => BenchmarkStatus::Recording {
                seconds_left: until.saturating_sub(now).as_secs_f64(),
            },
        }
    }
}

/// The summary of a finished run: its own samples, the session's lows and hitch ratio (the run
/// began with a reset, so they are the run's), CPU and GPU per frame from the latest readouts,
/// and the run's spikes.
pub(crate) fn summarize(
    seconds: f64,
    frame_ms: Vec<f64>,
    interval_ms: Vec<f64>,
    snapshot: &Snapshot,
    log: &FrameLog,
) -> BenchmarkSummary {
    let millis = |d: Duration| d.as_secs_f64() * 1e3;
    let miss_share = snapshot
        .refresh_hz
        .filter(|_| !interval_ms.is_empty())
        .map(|hz| {
            let period_ms = 1e3 / hz;
            let missed = interval_ms
                .iter()
                .filter(|&&ms| (ms / period_ms).round() >= 2.0)
                .count();
            missed as f64 / interval_ms.len() as f64
        });
    BenchmarkSummary {
        frames: u64::try_from(frame_ms.len()).unwrap_or(u64::MAX),
        seconds,
        avg_fps: snapshot.lows.map(|l| l.avg_fps),
        low_1_percent_fps: snapshot.lows.map(|l| l.low_1_percent_fps),
        low_0_1_percent_fps: snapshot.lows.and_then(|l| l.low_0_1_percent_fps),
        frame: MillisPercentiles::of(&frame_ms),
        interval: MillisPercentiles::of(&interval_ms),
        hitch_ms_per_s: snapshot.hitch_ms_per_s,
        miss_share,
        cpu_ms_per_frame: snapshot.cpu_frame.map(millis),
        gpu_ms_per_frame: snapshot.gpu_frame.map(millis),
        spikes: log.spikes_seen(),
        worst_spike_ms: log.worst_spike().map(|s| millis(s.worst)),
        frame_ms,
        interval_ms,
    }
}
