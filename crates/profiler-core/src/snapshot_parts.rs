/// Which of a snapshot's costlier readings [`crate::FrameSampler::snapshot_of`] computes. Each
/// is a walk or a selection over the session's intervals or the retained frames, at every
/// refresh: a reader that shows neither (a HUD without their rows) leaves them out and reads
/// them when something asks ([`crate::FrameSampler::fill`]). Plain data; the default is
/// [`SnapshotParts::ALL`], what [`crate::FrameSampler::snapshot`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SnapshotParts {
    /// AVG and the lows ([`crate::Snapshot::lows`]): two percentiles and the mean of the
    /// slowest 1 % of the interval histogram.
    pub lows: bool,
    /// The latency path ([`crate::Snapshot::latency`], `latency_total`, `latency_latest`): the
    /// p50 / p95 / max of each of the ten stage readings and of LATENCY.
    pub latency: bool,
}

impl SnapshotParts {
    /// Every reading.
    pub const ALL: Self = Self {
        lows: true,
        latency: true,
    };

    /// None of the costlier readings: the others (FRAME, P95, FPS, the GPU and CPU figures,
    /// MISS, DISPLAYED, HITCH) are always computed.
    pub const NONE: Self = Self {
        lows: false,
        latency: false,
    };

    /// The parts of `self` that `other` lacks. Free.
    #[must_use]
    pub fn without(self, other: Self) -> Self {
        Self {
            lows: self.lows && !other.lows,
            latency: self.latency && !other.latency,
        }
    }

    /// The parts of `self` that `other` has too. Free.
    #[must_use]
    pub fn and(self, other: Self) -> Self {
        Self {
            lows: self.lows && other.lows,
            latency: self.latency && other.latency,
        }
    }

    /// Whether it names any part. Free.
    pub fn any(self) -> bool {
        self.lows || self.latency
    }
}

impl Default for SnapshotParts {
    fn default() -> Self {
        Self::ALL
    }
}
