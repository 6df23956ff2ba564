//! The formats the exports are written in.

/// The formats [`crate::record::retained_frames::RetainedFrames::write`] writes; see egui-hud's
/// `docs/export.md` for every column and event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// One row per retained frame: times, CPU phases, latency stages, GPU passes, causes.
    Csv,
    /// Chrome's Trace Event Format (JSON), for Perfetto and `chrome://tracing`: frames and CPU
    /// phases on a CPU track per viewport (a track per [`crate::record::retained_frames::TrackFrames`]), GPU passes on a GPU track, spikes as instants.
    ChromeTrace,
}

impl ExportFormat {
    /// The file extension: `csv` or `json`.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::ChromeTrace => "json",
        }
    }
}

impl std::fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Csv => "CSV",
            Self::ChromeTrace => "Chrome trace",
        })
    }
}
