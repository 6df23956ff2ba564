use std::time::Duration;

/// One labelled GPU pass over the retained frames, as shown under the HUD's `GPU` row.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuPassReading {
    /// The label the pass was timed under (e.g. `"egui"`, `"scene"`).
    pub label: String,
    /// The most recent duration.
    pub last: Duration,
    /// Mean over the retained results.
    pub mean: Duration,
    /// Maximum over the retained results.
    pub max: Duration,
}
