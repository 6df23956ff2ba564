//! Frames matched to what the window system said of them, by order of commit.

use std::collections::VecDeque;

use crate::Instant;
use crate::presentation::presented_frame::PresentationOutcome;

/// Frames kept waiting for their presentation. Compositors answer within a few refreshes; a frame
/// still waiting when this many newer ones were committed is handed on as unknown.
const MAX_PENDING: usize = 16;

/// A frame the app is about to commit to its window (its final pass ended; the renderer
/// presents it next).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommittedFrame {
    /// The HUD's sequence number of the frame (its viewport's frame counter).
    pub sequence: u64,
    /// When its final pass handed the output over: a presentation before this belongs to an
    /// earlier frame.
    pub committed_at: Instant,
    /// Whether the HUD counted the frame (its readouts include it).
    pub counted: bool,
    /// Whether the app wanted it right after the previous one (see
    /// [`crate::FrameRecord::back_to_back`]): only then is the time the previous frame stayed on
    /// screen an interval of the app's pace, not an idle spell.
    pub back_to_back: bool,
}

/// Which committed frame a report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedbackFor {
    /// The frame named when the feedback was asked for (Wayland: one feedback object per
    /// frame, made before its commit, carrying the frame's sequence number).
    Frame(u64),
    /// The oldest frame not yet answered (X11 Present completes presents in the order they were
    /// made). `lost_before` reports were missed first (a gap in the app's present serials).
    NextInOrder {
        /// Presents completed without a report this source saw, just before this one.
        lost_before: u32,
    },
}

/// One report from the window system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresentationFeedback {
    /// The frame it is about.
    pub frame: FeedbackFor,
    /// What became of it.
    pub outcome: PresentationOutcome,
}

/// A committed frame and what became of it; `outcome` is `None` when no report ever came
/// (counted as unknown, never as shown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchedPresentation {
    /// The frame.
    pub frame: CommittedFrame,
    /// What the window system said; `None`: nothing, so it is not known whether it was shown.
    pub outcome: Option<PresentationOutcome>,
}

/// Matches the window system's reports to the frames the app committed, by order of commit and
/// never by guessing: a report names its frame (Wayland) or is the next in order (X11); a frame
/// passed over by a later report, or waiting behind 16 newer ones, is handed on as unknown; a
/// report about no waiting frame (one from before the HUD watched) is counted and dropped.
///
/// The queue is allocated once; no allocation per frame.
#[derive(Debug)]
pub struct PresentationMatcher {
    pending: VecDeque<CommittedFrame>,
    /// Reports that named no waiting frame.
    unmatched: u64,
}

impl Default for PresentationMatcher {
    fn default() -> Self {
        Self {
            pending: VecDeque::with_capacity(MAX_PENDING),
            unmatched: 0,
        }
    }
}

impl PresentationMatcher {
    /// `frame` is about to be committed; a frame pushed out of the full queue goes to `out` as
    /// unknown.
    pub fn committed(&mut self, frame: CommittedFrame, mut out: impl FnMut(MatchedPresentation)) {
        debug_assert!(
            self.pending
                .back()
                .is_none_or(|last| last.sequence < frame.sequence),
            "frames are committed in order"
        );
        if self.pending.len() == MAX_PENDING
            && let Some(oldest) = self.pending.pop_front()
        {
            out(unknown(oldest));
        }
        self.pending.push_back(frame);
    }

    /// One report: its frame (and any it passed over, as unknown) goes to `out`.
    pub fn feedback(
        &mut self,
        feedback: PresentationFeedback,
        mut out: impl FnMut(MatchedPresentation),
    ) {
        match feedback.frame {
            FeedbackFor::Frame(sequence) => {
                if self.pending.iter().all(|frame| frame.sequence != sequence) {
                    self.unmatched += 1;
                    return;
                }
                // Feedback comes in commit order: frames before this one will get none.
                while let Some(frame) = self.pending.pop_front() {
                    if frame.sequence == sequence {
                        out(MatchedPresentation {
                            frame,
                            outcome: Some(feedback.outcome),
                        });
                        return;
                    }
                    out(unknown(frame));
                }
            }
            FeedbackFor::NextInOrder { lost_before } => {
                for _ in 0..lost_before {
                    let Some(frame) = self.pending.pop_front() else {
                        break;
                    };
                    out(unknown(frame));
                }
                let Some(&oldest) = self.pending.front() else {
                    self.unmatched += 1;
                    return;
                };
                // Shown before the oldest waiting frame was committed: a present from before
                // the HUD watched.
                if let PresentationOutcome::Shown(shown) = feedback.outcome
                    && shown.on_screen < oldest.committed_at
                {
                    self.unmatched += 1;
                    return;
                }
                self.pending.pop_front();
                out(MatchedPresentation {
                    frame: oldest,
                    outcome: Some(feedback.outcome),
                });
            }
        }
    }

    /// Reports that named no waiting frame, since the start.
    pub fn unmatched(&self) -> u64 {
        self.unmatched
    }

    /// The HUD stopped or restarted: nothing waits any more.
    pub fn clear(&mut self) {
        self.pending.clear();
    }
}

fn unknown(frame: CommittedFrame) -> MatchedPresentation {
    MatchedPresentation {
        frame,
        outcome: None,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{
        CommittedFrame, FeedbackFor, MatchedPresentation, PresentationFeedback, PresentationMatcher,
    };
    use crate::Instant;
    use crate::presentation::presented_frame::{
        PresentationFlags, PresentationOutcome, PresentedFrame,
    };

    fn frame(base: Instant, sequence: u64) -> CommittedFrame {
        CommittedFrame {
            sequence,
            committed_at: base + Duration::from_millis(sequence * 16),
            counted: true,
            back_to_back: true,
        }
    }

    fn shown(base: Instant, at_ms: u64, counter: u64) -> PresentationOutcome {
        PresentationOutcome::Shown(PresentedFrame {
            on_screen: base + Duration::from_millis(at_ms),
            refresh_period: Some(Duration::from_micros(16_667)),
            refresh_counter: counter,
            flags: PresentationFlags::VSYNC,
        })
    }

    #[test]
    fn presentations_arriving_two_frames_late_find_their_frames() {
        let base = Instant::now();
        let mut matcher = PresentationMatcher::default();
        let mut out = Vec::new();
        for sequence in 1..=3 {
            matcher.committed(frame(base, sequence), |m| out.push(m));
        }
        assert!(out.is_empty(), "nothing answered yet");
        // Frame 1's answer arrives after frame 3 was committed, then 2's and 3's.
        for sequence in 1..=3 {
            let feedback = PresentationFeedback {
                frame: FeedbackFor::Frame(sequence),
                outcome: shown(base, sequence * 16 + 20, sequence),
            };
            matcher.feedback(feedback, |m| out.push(m));
        }
        let sequences: Vec<u64> = out.iter().map(|m| m.frame.sequence).collect();
        assert_eq!(sequences, [1, 2, 3]);
        assert!(
            out.iter()
                .all(|m| matches!(m.outcome, Some(PresentationOutcome::Shown(_))))
        );
    }

    #[test]
    fn a_discarded_feedback_is_its_frames_outcome_and_not_a_shown_frame() {
        let base = Instant::now();
        let mut matcher = PresentationMatcher::default();
        let mut out = Vec::new();
        matcher.committed(frame(base, 1), |m| out.push(m));
        matcher.committed(frame(base, 2), |m| out.push(m));
        let discarded = PresentationFeedback {
            frame: FeedbackFor::Frame(1),
            outcome: PresentationOutcome::Discarded,
        };
        matcher.feedback(discarded, |m| out.push(m));
        assert_eq!(
            out,
            [MatchedPresentation {
                frame: frame(base, 1),
                outcome: Some(PresentationOutcome::Discarded),
            }]
        );
    }

    #[test]
    fn a_frame_passed_over_by_a_later_answer_is_unknown() {
        let base = Instant::now();
        let mut matcher = PresentationMatcher::default();
        let mut out = Vec::new();
        for sequence in 1..=3 {
            matcher.committed(frame(base, sequence), |m| out.push(m));
        }
        let feedback = PresentationFeedback {
            frame: FeedbackFor::Frame(3),
            outcome: shown(base, 70, 5),
        };
        matcher.feedback(feedback, |m| out.push(m));
        let outcomes: Vec<(u64, bool)> = out
            .iter()
            .map(|m| (m.frame.sequence, m.outcome.is_some()))
            .collect();
        assert_eq!(outcomes, [(1, false), (2, false), (3, true)]);
        // A late answer for a frame already handed on names no waiting frame.
        let late = PresentationFeedback {
            frame: FeedbackFor::Frame(2),
            outcome: shown(base, 60, 4),
        };
        matcher.feedback(late, |m| out.push(m));
        assert_eq!(out.len(), 3);
        assert_eq!(matcher.unmatched(), 1);
    }

    #[test]
    fn a_skipped_present_is_matched_in_order_and_the_next_one_follows() {
        let base = Instant::now();
        let mut matcher = PresentationMatcher::default();
        let mut out = Vec::new();
        for sequence in 1..=2 {
            matcher.committed(frame(base, sequence), |m| out.push(m));
        }
        let skip = PresentationFeedback {
            frame: FeedbackFor::NextInOrder { lost_before: 0 },
            outcome: PresentationOutcome::Skipped,
        };
        matcher.feedback(skip, |m| out.push(m));
        let next = PresentationFeedback {
            frame: FeedbackFor::NextInOrder { lost_before: 0 },
            outcome: shown(base, 40, 3),
        };
        matcher.feedback(next, |m| out.push(m));
        assert_eq!(out[0].frame.sequence, 1);
        assert_eq!(out[0].outcome, Some(PresentationOutcome::Skipped));
        assert_eq!(out[1].frame.sequence, 2);
        assert!(matches!(
            out[1].outcome,
            Some(PresentationOutcome::Shown(_))
        ));
    }

    #[test]
    fn an_in_order_report_from_before_the_first_commit_is_dropped() {
        let base = Instant::now();
        let mut matcher = PresentationMatcher::default();
        let mut out = Vec::new();
        matcher.committed(frame(base, 1), |m| out.push(m));
        // Shown at 10 ms, but frame 1 was committed at 16 ms: an earlier present's report.
        let early = PresentationFeedback {
            frame: FeedbackFor::NextInOrder { lost_before: 0 },
            outcome: shown(base, 10, 1),
        };
        matcher.feedback(early, |m| out.push(m));
        assert!(out.is_empty());
        assert_eq!(matcher.unmatched(), 1);
        // A gap of one serial: frame 2 lost its report, frame 3 gets this one.
        matcher.committed(frame(base, 2), |m| out.push(m));
        matcher.committed(frame(base, 3), |m| out.push(m));
        let after_gap = PresentationFeedback {
            frame: FeedbackFor::NextInOrder { lost_before: 2 },
            outcome: shown(base, 70, 4),
        };
        matcher.feedback(after_gap, |m| out.push(m));
        let outcomes: Vec<(u64, bool)> = out
            .iter()
            .map(|m| (m.frame.sequence, m.outcome.is_some()))
            .collect();
        assert_eq!(outcomes, [(1, false), (2, false), (3, true)]);
    }

    #[test]
    fn frames_that_never_get_an_answer_leave_as_unknown_after_sixteen() {
        let base = Instant::now();
        let mut matcher = PresentationMatcher::default();
        let mut out = Vec::new();
        for sequence in 1..=20 {
            matcher.committed(frame(base, sequence), |m| out.push(m));
        }
        let sequences: Vec<u64> = out.iter().map(|m| m.frame.sequence).collect();
        assert_eq!(sequences, [1, 2, 3, 4]);
        assert!(out.iter().all(|m| m.outcome.is_none()));
    }
}
