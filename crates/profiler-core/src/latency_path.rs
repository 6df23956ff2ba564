use crate::sample_ring::SampleRing;
use crate::{LatencyMarks, LatencyReading, LatencyStage};

/// Per-stage durations of the retained frames, as signed nanoseconds. Rings allocated once.
#[derive(Debug)]
pub(crate) struct LatencyPath {
    stages: [SampleRing<i64>; LatencyStage::ALL.len()],
    latest: Option<LatencyMarks>,
}

impl LatencyPath {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            stages: std::array::from_fn(|_| SampleRing::with_capacity(capacity)),
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
        self.latest = Some(*marks);
    }

    pub(crate) fn latest(&self) -> Option<LatencyMarks> {
        self.latest
    }

    /// Every stage's reading, path order; `scratch` is reused for sorting.
    pub(crate) fn readings(&self, out: &mut Vec<LatencyReading>, scratch: &mut Vec<i64>) {
        out.clear();
        for stage in LatencyStage::ALL {
            scratch.clear();
            if let Some(ring) = self.stages.get(stage.index()) {
                scratch.extend(ring.iter());
            }
            scratch.sort_unstable();
            let at_rank = |percent: usize| -> Option<std::time::Duration> {
                // Nearest rank: the ⌈p·n/100⌉-th smallest.
                let rank = (percent * scratch.len()).div_ceil(100).max(1);
                scratch.get(rank - 1).map(|&nanos| to_duration(nanos))
            };
            out.push(LatencyReading {
                stage,
                frames: scratch.len(),
                p50: at_rank(50),
                p95: at_rank(95),
                max: scratch.last().map(|&nanos| to_duration(nanos)),
            });
        }
    }

    pub(crate) fn clear(&mut self) {
        for ring in &mut self.stages {
            ring.clear();
        }
        self.latest = None;
    }
}

fn to_duration(nanos: i64) -> std::time::Duration {
    std::time::Duration::from_nanos(u64::try_from(nanos).unwrap_or(0))
}
