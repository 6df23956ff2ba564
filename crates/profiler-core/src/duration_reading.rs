use std::time::Duration;

/// One labelled part of a frame over the retained frames: a GPU pass (under the HUD's `GPU`
/// row) or a CPU phase (under `PHASES`).
#[derive(Clone, Debug, PartialEq)]
pub struct DurationReading {
    /// The label the part was timed under (e.g. `"egui"`, `"scene"`, `"physics"`).
    pub label: String,
    /// The most recent duration.
    pub last: Duration,
    /// Mean over the retained results.
    pub mean: Duration,
    /// Maximum over the retained results.
    pub max: Duration,
}
