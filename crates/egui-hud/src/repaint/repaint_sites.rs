use std::borrow::Cow;

use crate::repaint::why_reading::{RepaintSiteRate, WhyReading};

/// Most call sites (and discard reasons) told apart between two refreshes; requests from
/// further sites are counted together.
const MAX_SITES: usize = 16;

/// How many sites the reading names.
const TOP_SITES: usize = 5;

/// What made a viewport's app repaint since the last refresh: its `request_repaint*` call
/// sites (from egui's `RepaintCause`s, the HUD's own left out), how many frames needed more
/// than one pass, and why passes were discarded. Fixed tables, cleared at each refresh; a site's
/// reason is copied when the site is first seen in a refresh window (an allocation only for an
/// owned reason).
#[derive(Debug, Default)]
pub(crate) struct RepaintSites {
    sites: Vec<SiteCount>,
    /// Requests from sites beyond [`MAX_SITES`].
    other_requests: u32,
    discards: Vec<SiteCount>,
    frames: u32,
    multi_pass_frames: u32,
}

#[derive(Debug)]
struct SiteCount {
    file: &'static str,
    line: u32,
    reason: Cow<'static, str>,
    count: u32,
}

impl RepaintSites {
    /// Counts the causes egui recorded during the previous pass of the viewport (every request
    /// lands in exactly one pass's list), leaving out those made at `own_file` (the HUD's).
    pub(crate) fn record_requests(&mut self, causes: &[egui::RepaintCause], own_file: &str) {
        for cause in causes.iter().filter(|cause| cause.file != own_file) {
            if !count_into(&mut self.sites, cause) {
                self.other_requests += 1;
            }
        }
    }

    /// A frame ended after `passes` passes (more than one: a pass was redone).
    pub(crate) fn record_frame(&mut self, passes: usize) {
        self.frames += 1;
        self.multi_pass_frames += u32::from(passes > 1);
    }

    /// A pass asked to be discarded for these reasons.
    pub(crate) fn record_discards<'a>(
        &mut self,
        reasons: impl IntoIterator<Item = &'a egui::RepaintCause>,
    ) {
        for reason in reasons {
            // Reasons past the table's size are not named: the multi-pass share still counts.
            let _named = count_into(&mut self.discards, reason);
        }
    }

    /// The rates over the `elapsed_secs` since the last reading, busiest site first; starts
    /// the next window. `None` for an empty or non-positive window.
    pub(crate) fn take_reading(&mut self, elapsed_secs: f64) -> Option<WhyReading> {
        let reading = (elapsed_secs > 0.0).then(|| {
            self.sites.sort_by_key(|site| std::cmp::Reverse(site.count));
            self.discards
                .sort_by_key(|site| std::cmp::Reverse(site.count));
            let rate = |site: &SiteCount| RepaintSiteRate {
                file: site.file,
                line: site.line,
                reason: (!site.reason.is_empty()).then(|| site.reason.clone().into_owned()),
                per_sec: f64::from(site.count) / elapsed_secs,
            };
            let named: u32 = self.sites.iter().skip(TOP_SITES).map(|s| s.count).sum();
            WhyReading {
                top_sites: self.sites.iter().take(TOP_SITES).map(rate).collect(),
                other_sites_per_sec: f64::from(named + self.other_requests) / elapsed_secs,
                multi_pass_frames: (self.frames > 0)
                    .then(|| f64::from(self.multi_pass_frames) / f64::from(self.frames)),
                top_discard_reasons: self.discards.iter().take(TOP_SITES).map(rate).collect(),
            }
        });
        self.sites.clear();
        self.discards.clear();
        self.other_requests = 0;
        self.frames = 0;
        self.multi_pass_frames = 0;
        reading
    }
}

/// Adds one to `cause`'s entry, making one if there is room; `false` when there is none.
fn count_into(table: &mut Vec<SiteCount>, cause: &egui::RepaintCause) -> bool {
    if let Some(site) = table.iter_mut().find(|site| {
        site.line == cause.line && site.file == cause.file && site.reason == cause.reason
    }) {
        site.count += 1;
        return true;
    }
    if table.len() == MAX_SITES {
        return false;
    }
    table.push(SiteCount {
        file: cause.file,
        line: cause.line,
        reason: cause.reason.clone(),
        count: 1,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::RepaintSites;

    fn cause(file: &'static str, line: u32) -> egui::RepaintCause {
        egui::RepaintCause {
            file,
            line,
            reason: "".into(),
        }
    }

    #[test]
    fn sites_are_ranked_by_rate_and_the_huds_own_left_out() {
        let mut sites = RepaintSites::default();
        for i in 0..30 {
            let mut causes = vec![cause("app.rs", 10)];
            if i % 3 == 0 {
                causes.push(cause("timer.rs", 7));
            }
            causes.push(cause("tick.rs", 1));
            sites.record_requests(&causes, "tick.rs");
            sites.record_frame(if i % 10 == 0 { 2 } else { 1 });
        }
        let reading = sites.take_reading(0.5).expect("a window");
        let named: Vec<_> = reading
            .top_sites
            .iter()
            .map(|s| (s.file, s.line, s.per_sec))
            .collect();
        assert_eq!(named, [("app.rs", 10, 60.0), ("timer.rs", 7, 20.0)]);
        assert_eq!(reading.multi_pass_frames, Some(0.1));
        assert_eq!(reading.other_sites_per_sec, 0.0);
        let next = sites.take_reading(0.5).expect("a window");
        assert!(next.top_sites.is_empty(), "each window starts empty");
        assert_eq!(next.multi_pass_frames, None, "no frame, no share");
    }

    #[test]
    fn sites_past_the_table_are_counted_together() {
        let mut sites = RepaintSites::default();
        let lines: Vec<u32> = (1..=20).collect();
        for &line in &lines {
            sites.record_requests(&[cause("many.rs", line)], "tick.rs");
        }
        let reading = sites.take_reading(1.0).expect("a window");
        assert_eq!(reading.top_sites.len(), 5);
        assert_eq!(
            reading.other_sites_per_sec, 15.0,
            "11 named beyond the top 5, 4 unnamed"
        );
    }
}
