use std::time::Duration;

use crate::nearest_rank::nearest_rank;
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
        let rank = |percent: usize| nearest_rank(scratch, percent).map(Duration::from_nanos);
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::PresentationStats;
    use crate::Instant;
    use crate::presentation::{
        CommittedFrame, MatchedPresentation, PresentationFlags, PresentationOutcome, PresentedFrame,
    };

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    /// Frame `sequence`, shown at `at` on refresh `counter`.
    fn shown(
        stats: &mut PresentationStats,
        sequence: u64,
        at: Duration,
        counter: u64,
        back_to_back: bool,
    ) {
        let matched = MatchedPresentation {
            frame: CommittedFrame {
                sequence,
                committed_at: Instant::now(),
                counted: true,
                back_to_back,
            },
            outcome: Some(PresentationOutcome::Shown(PresentedFrame {
                on_screen: Instant::now(),
                refresh_period: Some(Duration::from_micros(16_667)),
                refresh_counter: counter,
                flags: PresentationFlags::VSYNC | PresentationFlags::HW_CLOCK,
            })),
        };
        stats.record(&matched, Some(at));
    }

    #[test]
    fn displayed_is_the_time_each_shown_frame_stayed_and_miss_comes_from_the_counter() {
        let mut stats = PresentationStats::new(120);
        stats.set_source("test");
        let mut scratch = Vec::new();
        assert_eq!(stats.reading(&mut scratch), None, "nothing reported yet");
        // 60 Hz: frames on refreshes 10, 11, 12, then 14 (one missed), 15; then an idle spell
        // and a frame woken after it (not back to back), then one more back to back.
        for (sequence, counter) in [(1, 10), (2, 11), (3, 12), (4, 14), (5, 15)] {
            let at = Duration::from_micros(16_667 * counter);
            shown(&mut stats, sequence, at, counter, true);
        }
        shown(
            &mut stats,
            6,
            Duration::from_micros(16_667 * 300),
            300,
            false,
        );
        shown(
            &mut stats,
            7,
            Duration::from_micros(16_667 * 301),
            301,
            true,
        );
        let reading = stats.reading(&mut scratch).expect("a reading");
        assert_eq!(reading.frames_shown, 7);
        assert_eq!(
            reading.displayed_frames, 5,
            "the idle spell is not a display interval"
        );
        assert_eq!(reading.displayed_p50, Some(Duration::from_micros(16_667)));
        assert_eq!(reading.displayed_p95, Some(Duration::from_micros(33_334)));
        assert_eq!(reading.missed_refreshes, 1);
        assert_eq!(reading.missed_frames, Some(0.2));
        let fps = reading.displayed_fps.expect("a rate");
        assert!((fps - 5.0 / (6.0 * 0.016_667)).abs() < 0.01, "{fps}");
        assert!(reading.flags.contains(PresentationFlags::HW_CLOCK));
        assert!(stats.counts_misses());
    }

    #[test]
    fn a_counter_that_is_zero_or_stands_still_gives_no_miss() {
        let mut stats = PresentationStats::new(120);
        stats.set_source("test");
        // Wayland's "no counter" (0), then weston's headless output (a counter of repaints
        // that does not advance between shown frames).
        for (sequence, counter) in [(1, 0), (2, 0), (3, 7), (4, 7)] {
            shown(&mut stats, sequence, ms(25 * sequence), counter, true);
        }
        let reading = stats.reading(&mut Vec::new()).expect("a reading");
        assert_eq!(reading.displayed_frames, 3, "DISPLAYED still reads");
        assert!(
            !stats.counts_misses(),
            "MISS stays on the present intervals"
        );
        assert_eq!(reading.missed_frames, None);
    }

    #[test]
    fn unknown_frames_alone_give_no_reading_and_a_reset_clears_the_counts() {
        let mut stats = PresentationStats::new(120);
        stats.set_source("test");
        let unknown = MatchedPresentation {
            frame: CommittedFrame {
                sequence: 1,
                committed_at: Instant::now(),
                counted: true,
                back_to_back: true,
            },
            outcome: None,
        };
        stats.record(&unknown, None);
        assert_eq!(
            stats.reading(&mut Vec::new()),
            None,
            "a source that never reported has no reading"
        );
        shown(&mut stats, 2, ms(16), 1, true);
        let reading = stats.reading(&mut Vec::new()).expect("a reading");
        assert_eq!((reading.frames_shown, reading.frames_unknown), (1, 1));
        stats.clear();
        assert_eq!(stats.reading(&mut Vec::new()), None);
    }
}
