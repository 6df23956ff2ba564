use crate::latency_total::{LatencyEnd, LatencyTotal};
use crate::nearest_rank::p50_p95_max;
use crate::sample_ring::SampleRing;
use crate::{LatencyMarks, LatencyReading, LatencyStage};

/// Per-stage durations of the retained frames and each frame's request → end, as signed
/// nanoseconds. Rings allocated once.
#[derive(Debug)]
pub(crate) struct LatencyPath {
    stages: [SampleRing<i64>; LatencyStage::ALL.len()],
    /// Request → GPU end of the frames that had both marks.
    to_gpu_end: SampleRing<i64>,
    /// Request → UI end of the frames that had both marks.
    to_ui_end: SampleRing<i64>,
    /// Whether each recorded frame had a request mark.
    had_request: SampleRing<bool>,
    latest: Option<LatencyMarks>,
}

impl LatencyPath {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            stages: std::array::from_fn(|_| SampleRing::with_capacity(capacity)),
            to_gpu_end: SampleRing::with_capacity(capacity),
            to_ui_end: SampleRing::with_capacity(capacity),
            had_request: SampleRing::with_capacity(capacity),
            latest: None,
        }
    }

    /// Adds one frame's stages, each from its own pair of marks.
    pub(crate) fn record(&mut self, marks: &LatencyMarks) {
        for stage in LatencyStage::ALL {
            if let (Some(nanos), Some(ring)) =
                (marks.stage_nanos(stage), self.stages.get_mut(stage.index()))
            {
                ring.push(nanos);
            }
        }
        if let Some(nanos) = marks.latency_nanos(LatencyEnd::GpuEnd) {
            self.to_gpu_end.push(nanos);
        }
        if let Some(nanos) = marks.latency_nanos(LatencyEnd::UiEnd) {
            self.to_ui_end.push(nanos);
        }
        self.had_request.push(marks.request.is_some());
        self.latest = Some(*marks);
    }

    pub(crate) fn latest(&self) -> Option<LatencyMarks> {
        self.latest
    }

    /// Every stage's reading, path order; `scratch` is reused for the selection.
    pub(crate) fn readings(&self, out: &mut Vec<LatencyReading>, scratch: &mut Vec<i64>) {
        out.clear();
        // Once, not grown a reading at a time: the snapshot's list is new at each refresh.
        out.reserve(LatencyStage::ALL.len());
        for stage in LatencyStage::ALL {
            scratch.clear();
            if let Some(ring) = self.stages.get(stage.index()) {
                scratch.extend(ring.iter());
            }
            let read = p50_p95_max(scratch);
            out.push(LatencyReading {
                stage,
                frames: scratch.len(),
                p50: read.map(|(p50, _, _)| to_duration(p50)),
                p95: read.map(|(_, p95, _)| to_duration(p95)),
                max: read.map(|(_, _, max)| to_duration(max)),
            });
        }
    }

    /// LATENCY: each frame's request → GPU end where any retained frame has a GPU end, else
    /// request → UI end; `None` before a frame with a request. `scratch` is reused for the selection.
    pub(crate) fn total(&self, scratch: &mut Vec<i64>) -> Option<LatencyTotal> {
        let (end, ring) = if self.to_gpu_end.len() > 0 {
            (LatencyEnd::GpuEnd, &self.to_gpu_end)
        } else {
            (LatencyEnd::UiEnd, &self.to_ui_end)
        };
        scratch.clear();
        scratch.extend(ring.iter());
        let (p50, p95, max) = p50_p95_max(scratch)?;
        Some(LatencyTotal {
            end,
            frames: scratch.len(),
            frames_seen: self.had_request.len(),
            p50: to_duration(p50),
            p95: to_duration(p95),
            max: to_duration(max),
        })
    }

    pub(crate) fn clear(&mut self) {
        for ring in &mut self.stages {
            ring.clear();
        }
        self.to_gpu_end.clear();
        self.to_ui_end.clear();
        self.had_request.clear();
        self.latest = None;
    }
}

fn to_duration(nanos: i64) -> std::time::Duration {
    std::time::Duration::from_nanos(u64::try_from(nanos).unwrap_or(0))
}
