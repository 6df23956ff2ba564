//! A slow frame kept with its anatomy.

use std::time::Duration;

use crate::SystemTime;
use crate::latency_marks::LatencyMarks;
use crate::latency_stage::LatencyStage;

use crate::record::frame_trace::{CauseSite, FrameTrace};

/// A slow frame kept by [`crate::record::frame_log::FrameLog`], with everything known about it.
/// egui-hud's `spikes(ctx)` gives the kept ones (the 8 newest, the worst older ones); the HUD marks them on its plot and shows the
/// worst in the `SPIKES` row.
#[derive(Clone, Debug, PartialEq)]
pub struct Spike {
    /// When the frame started, on the HUD's clock (from when it began sampling).
    pub at: Duration,
    /// When it ended, by the wall clock.
    pub wall_clock: SystemTime,
    /// The longest of the figures that crossed the threshold (draw, CPU, GPU or hand-off
    /// interval): how slow the frame was.
    pub worst: Duration,
    /// What crossed the threshold.
    pub exceeded: Vec<SpikePart>,
    /// The frame's draw as FRAME counts it.
    pub draw: Duration,
    /// From the previous frame's hand-off to this one's, for a frame wanted right after it.
    pub handoff_interval: Option<Duration>,
    /// CPU time per frame (the draw and the phases around it), when phases were reported.
    pub cpu_total: Option<Duration>,
    /// CPU phases, longest first.
    pub cpu_phases: Vec<(String, Duration)>,
    /// GPU time (the sum of the timed passes), when results arrived.
    pub gpu_total: Option<Duration>,
    /// GPU passes, longest first.
    pub gpu_passes: Vec<(String, Duration)>,
    /// The frame's latency marks (stages: [`LatencyMarks::stage_nanos`]).
    pub latency: LatencyMarks,
    /// The app's repaint requests that woke it (`file:line` and reason), the first four.
    pub woke_by: Vec<String>,
    /// Passes the frame took (more than one: a `request_discard`).
    pub passes: u32,
    /// The `request_discard` reasons, the first four.
    pub discard_reasons: Vec<String>,
}

/// A figure of a frame that crossed the spike threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpikePart {
    /// The draw (FRAME's sample).
    Draw,
    /// The CPU time per frame.
    Cpu,
    /// The GPU time.
    Gpu,
    /// The hand-off interval of a frame wanted right after the previous one.
    HandoffInterval,
}

impl Spike {
    /// The frame as a spike, if any of its figures is longer than `threshold`. Allocates its
    /// lists only for a frame over the threshold.
    pub fn of(trace: &FrameTrace, threshold: Duration) -> Option<Self> {
        let figures = [
            (SpikePart::Draw, Some(trace.draw)),
            (SpikePart::Cpu, trace.cpu.as_ref().map(|(total, _)| *total)),
            (SpikePart::Gpu, trace.gpu.as_ref().map(|(total, _)| *total)),
            (SpikePart::HandoffInterval, trace.handoff_interval),
        ];
        let over = || {
            figures
                .iter()
                .filter_map(|&(part, d)| Some((part, d?)))
                .filter(|&(_, d)| d > threshold)
        };
        let worst = over().map(|(_, d)| d).max()?;
        let sorted = |parts: Option<&crate::record::frame_phases::FramePhases>| {
            let mut parts: Vec<(String, Duration)> = parts
                .map(|p| p.iter().map(|(name, d)| (name.to_owned(), d)).collect())
                .unwrap_or_default();
            parts.sort_by_key(|part| std::cmp::Reverse(part.1));
            parts
        };
        let site = CauseSite::short_label;
        Some(Self {
            at: trace.marks.frame_start.unwrap_or_default(),
            wall_clock: trace.wall_clock,
            worst,
            exceeded: over().map(|(part, _)| part).collect(),
            draw: trace.draw,
            handoff_interval: trace.handoff_interval,
            cpu_total: trace.cpu.as_ref().map(|(total, _)| *total),
            cpu_phases: sorted(trace.cpu.as_ref().map(|(_, phases)| phases)),
            gpu_total: trace.gpu.as_ref().map(|(total, _)| *total),
            gpu_passes: sorted(trace.gpu.as_ref().map(|(_, passes)| passes)),
            latency: trace.marks,
            woke_by: trace.causes.woke_by().map(site).collect(),
            passes: trace.passes,
            discard_reasons: trace.causes.discards().map(site).collect(),
        })
    }

    /// One line, biggest part first: "84 ms: physics 61 ms, layout 12 ms; GPU 9 ms; woke by
    /// app.rs:120 “file loaded”".
    pub fn summary(&self) -> String {
        use std::fmt::Write as _;
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        let mut line = ms(self.worst);
        let mut parts: Vec<(&str, Duration)> = self
            .cpu_phases
            .iter()
            .map(|(name, d)| (name.as_str(), *d))
            .collect();
        parts.extend(
            LatencyStage::FRAME_PATH
                .iter()
                .filter(|&&stage| stage == LatencyStage::Gpu || stage == LatencyStage::Queue)
                .filter_map(|&stage| {
                    let nanos = self.latency.stage_nanos(stage)?;
                    Some((
                        stage.name(),
                        Duration::from_nanos(u64::try_from(nanos).ok()?),
                    ))
                }),
        );
        parts.sort_by_key(|part| std::cmp::Reverse(part.1));
        for (index, (name, d)) in parts.iter().take(4).enumerate() {
            let _ = write!(
                line,
                "{}{name} {}",
                if index == 0 { ": " } else { ", " },
                ms(*d)
            );
        }
        if let Some(gpu) = self.gpu_total {
            let _ = write!(line, "; GPU {}", ms(gpu));
        }
        if self.passes > 1 {
            let _ = write!(line, "; {} passes", self.passes);
        }
        if let Some(first) = self.woke_by.first() {
            let _ = write!(line, "; woke by {first}");
        }
        line
    }
}
