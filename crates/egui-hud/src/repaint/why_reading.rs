use profiler_core::record::frame_trace::short_file;

/// WHY: what made a viewport's app repaint between two refreshes of its HUD. Get it with
/// [`crate::why`]; the HUD shows the busiest site in its `WHY` row and the top five in the
/// hover text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WhyReading {
    /// The busiest `request_repaint*` call sites, at most five, busiest first. The HUD's own
    /// requests are not among them.
    pub top_sites: Vec<RepaintSiteRate>,
    /// Requests per second from every other site.
    pub other_sites_per_sec: f64,
    /// Share (0..=1) of the frames that took more than one pass (a `request_discard`); `None`
    /// when no frame ended in the window.
    pub multi_pass_frames: Option<f64>,
    /// The most frequent `request_discard` reasons, at most five, as rates.
    pub top_discard_reasons: Vec<RepaintSiteRate>,
}

/// One call site and how often it asked.
#[derive(Clone, Debug, PartialEq)]
pub struct RepaintSiteRate {
    /// Source file of the call, as `file!()` gives it.
    pub file: &'static str,
    /// Line of the call.
    pub line: u32,
    /// The reason given with the request (egui's `RepaintCause::reason`), when one was.
    pub reason: Option<String>,
    /// Requests per second over the window.
    pub per_sec: f64,
}

impl RepaintSiteRate {
    /// `file_name:line`, without the directories: what the HUD's row shows.
    pub fn short_location(&self) -> String {
        format!("{}:{}", short_file(self.file), self.line)
    }
}
