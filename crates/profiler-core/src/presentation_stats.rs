use std::time::Duration;

use crate::presentation::{MatchedPresentation, PresentationFlags, PresentationOutcome};
use crate::presentation_reading::PresentationReading;
use crate::sample_ring::SampleRing;

/// The presentation figures of the retained frames and the counts since the start. Rings
/// allocated once.
#[derive(Debug)]
pub(crate) struct PresentationStats {
    source: Option<&'static str>,
    shown: u64,
    discarded: u64,
    skipped: u64,
    unknown: u64,
    /// The latest shown frame: when (sampler clock) and its refresh counter.
    last_shown: Option<(Duration, u64)>,
    /// Time each shown back-to-back frame's predecessor stayed on screen, nanoseconds.
    displayed_nanos: SampleRing<u64>,
    /// Refreshes each shown back-to-back frame missed.
    missed: SampleRing<u64>,
    refresh_period: Option<Duration>,
    flags: PresentationFlags,
}

impl PresentationStats {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            source: None,
            shown: 0,
            discarded: 0,
            skipped: 0,
            unknown: 0,
            last_shown: None,
            displayed_nanos: SampleRing::with_capacity(capacity),
            missed: SampleRing::with_capacity(capacity),
            refresh_period: None,
            flags: PresentationFlags::default(),
        }
    }

    pub(crate) fn set_source(&mut self, source: &'static str) {
        self.source = Some(source);
    }

    /// One matched frame; `on_screen` is its time shown on the sampler's clock (`None` when it
    /// was not shown or cannot be placed).
    pub(crate) fn record(&mut self, matched: &MatchedPresentation, on_screen: Option<Duration>) {
        match matched.outcome {
            None => self.unknown += 1,
            Some(PresentationOutcome::Discarded) => self.discarded += 1,
            Some(PresentationOutcome::Skipped) => self.skipped += 1,
            Some(PresentationOutcome::Shown(shown)) => {
                let Some(on_screen) = on_screen else {
                    self.unknown += 1;
                    return;
                };
                self.shown += 1;
                self.refresh_period = shown.refresh_period;
                self.flags = shown.flags;
                let previous = self.last_shown.replace((on_screen, shown.refresh_counter));
                if let Some((previous_at, previous_counter)) = previous
                    && matched.frame.back_to_back
                {
                    debug_assert!(
                        on_screen >= previous_at,
                        "frames are shown in the order they were committed"
                    );
                    self.displayed_nanos
                        .push(nanos(on_screen.saturating_sub(previous_at)));
                    // A counter of 0 is "no refresh counter" (Wayland's rule), and one that did
                    // not advance between two shown frames counts repaints, not refreshes
                    // (weston's headless output): no MISS from it then.
                    if previous_counter > 0 && shown.refresh_counter > previous_counter {
                        let refreshes = shown.refresh_counter - previous_counter;
                        self.missed.push(refreshes - 1);
                    }
                }
            }
        }
    }

    /// The reading, once a frame was reported; `scratch` is reused for sorting.
    pub(crate) fn reading(&self, scratch: &mut Vec<u64>) -> Option<PresentationReading> {
        let source = self.source?;
        // Frames are unknown only beside frames the window system did report: a source that
        // never reported has no reading (the HUD says why it stopped).
        if self.shown + self.discarded + self.skipped == 0 {
            return None;
        }
        scratch.clear();
        scratch.extend(self.displayed_nanos.iter());
        scratch.sort_unstable();
        let rank = |percent: usize| {
            let rank = (percent * scratch.len()).div_ceil(100).max(1);
            scratch.get(rank - 1).map(|&n| Duration::from_nanos(n))
        };
        let sum: u128 = scratch.iter().map(|&n| u128::from(n)).sum();
        let displayed_fps = (sum > 0).then(|| scratch.len() as f64 * 1e9 / sum as f64);
        let missed_refreshes = self.missed.iter().sum();
        let missed_frames = (self.missed.len() > 0).then(|| {
            self.missed.iter().filter(|&m| m > 0).count() as f64 / self.missed.len() as f64
        });
        Some(PresentationReading {
            source,
            frames_shown: self.shown,
            frames_discarded: self.discarded,
            frames_skipped: self.skipped,
            frames_unknown: self.unknown,
            displayed_p50: rank(50),
            displayed_p95: rank(95),
            displayed_fps,
            displayed_frames: scratch.len(),
            missed_refreshes,
            missed_frames,
            refresh_period: self.refresh_period,
            flags: self.flags,
        })
    }

    /// Whether any shown frame's refresh counter is behind MISS.
    pub(crate) fn counts_misses(&self) -> bool {
        self.missed.len() > 0
    }

    /// Starts over (the source stays).
    pub(crate) fn clear(&mut self) {
        self.shown = 0;
        self.discarded = 0;
        self.skipped = 0;
        self.unknown = 0;
        self.last_shown = None;
        self.displayed_nanos.clear();
        self.missed.clear();
        self.refresh_period = None;
        self.flags = PresentationFlags::default();
    }
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}
