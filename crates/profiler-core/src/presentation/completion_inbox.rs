//! The X11 completions read off the UI thread, waiting for the next poll.

use std::collections::VecDeque;

use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::{FeedbackFor, PresentationFeedback};
use crate::presentation::presented_frame::PresentationOutcome;

/// What the X11 source's reader thread has read and the UI thread has not yet polled: the
/// reports, in the order the server sent them, and the reader's failure. Shared by the two
/// behind one `parking_lot::Mutex`, held by each side for a push or a drain only (never across
/// a wait on the server), so the UI thread's poll never waits on the X server.
///
/// It holds at most [`Self::CAPACITY`] reports, room made once: the UI thread polls every
/// frame and a present completes at most once a frame, so it fills only while the app presents
/// without drawing the HUD. A report past the room is dropped and counted as lost before the
/// next one, as a serial gap is.
#[derive(Debug)]
pub(super) struct CompletionInbox {
    reports: VecDeque<PresentationFeedback>,
    /// The app's present serial of the last completion read.
    last_serial: Option<u32>,
    /// Reports dropped for want of room since the last one kept.
    dropped: u32,
    /// Why the reader stopped, until the UI thread's poll takes it.
    failure: Option<PresentationError>,
}

impl CompletionInbox {
    /// Reports held between two polls, at most.
    pub(super) const CAPACITY: usize = 64;

    pub(super) fn new() -> Self {
        Self {
            reports: VecDeque::with_capacity(Self::CAPACITY),
            last_serial: None,
            dropped: 0,
            failure: None,
        }
    }

    /// The completion of the app's present `serial`: `outcome`, or `None` when its time cannot
    /// be placed on the HUD's clock (it is then skipped, and not counted lost).
    pub(super) fn receive(&mut self, serial: u32, outcome: Option<PresentationOutcome>) {
        let gap = self
            .last_serial
            .replace(serial)
            .map_or(0, |last| serial.wrapping_sub(last).saturating_sub(1));
        let Some(outcome) = outcome else {
            return;
        };
        let lost_before = gap.saturating_add(self.dropped);
        if self.reports.len() >= Self::CAPACITY {
            self.dropped = lost_before.saturating_add(1);
            return;
        }
        self.dropped = 0;
        self.reports.push_back(PresentationFeedback {
            frame: FeedbackFor::NextInOrder { lost_before },
            outcome,
        });
    }

    /// The reader stopped because of `error`.
    pub(super) fn fail(&mut self, error: PresentationError) {
        self.failure.get_or_insert(error);
    }

    /// Hands the reports to `out`, oldest first, then the reader's failure if it stopped.
    ///
    /// # Errors
    /// The connection failed: stop polling.
    pub(super) fn drain(
        &mut self,
        mut out: impl FnMut(PresentationFeedback),
    ) -> Result<(), PresentationError> {
        for report in self.reports.drain(..) {
            out(report);
        }
        self.failure.take().map_or(Ok(()), Err)
    }

    /// Forgets the reports and the last serial (the selection changed: serials start over).
    pub(super) fn clear(&mut self) {
        self.reports.clear();
        self.last_serial = None;
        self.dropped = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presentation::presented_frame::PresentationOutcome;

    fn lost_before(report: PresentationFeedback) -> u32 {
        match report.frame {
            FeedbackFor::NextInOrder { lost_before } => lost_before,
            FeedbackFor::Frame(_) => panic!("X11 reports are matched in order"),
        }
    }

    fn drained(inbox: &mut CompletionInbox) -> Vec<u32> {
        let mut lost = Vec::new();
        inbox
            .drain(|report| lost.push(lost_before(report)))
            .expect("no failure");
        lost
    }

    #[test]
    fn serial_gaps_are_lost_before_the_next_report() {
        let mut inbox = CompletionInbox::new();
        for serial in [7, 8, 11, 12] {
            inbox.receive(serial, Some(PresentationOutcome::Skipped));
        }
        assert_eq!(drained(&mut inbox), [0, 0, 2, 0]);
        assert_eq!(drained(&mut inbox), Vec::<u32>::new());
    }

    #[test]
    fn a_full_inbox_counts_what_it_drops_as_lost_before_the_next_report() {
        let mut inbox = CompletionInbox::new();
        let capacity = u32::try_from(CompletionInbox::CAPACITY).expect("small");
        for serial in 0..capacity + 3 {
            inbox.receive(serial, Some(PresentationOutcome::Skipped));
        }
        assert_eq!(drained(&mut inbox).len(), CompletionInbox::CAPACITY);
        // Three dropped, then one more missing from the serials.
        inbox.receive(capacity + 4, Some(PresentationOutcome::Skipped));
        assert_eq!(drained(&mut inbox), [4]);
    }

    #[test]
    fn an_unplaceable_completion_is_skipped_not_lost() {
        let mut inbox = CompletionInbox::new();
        inbox.receive(1, Some(PresentationOutcome::Skipped));
        inbox.receive(2, None);
        inbox.receive(3, Some(PresentationOutcome::Skipped));
        assert_eq!(drained(&mut inbox), [0, 0]);
    }

    #[test]
    fn the_failure_comes_after_the_reports_read_before_it() {
        let mut inbox = CompletionInbox::new();
        inbox.receive(1, Some(PresentationOutcome::Skipped));
        inbox.fail(PresentationError::X11NoPresent);
        let mut reports = 0;
        let drained = inbox.drain(|_| reports += 1);
        assert_eq!(reports, 1);
        assert!(matches!(drained, Err(PresentationError::X11NoPresent)));
        assert!(
            inbox.drain(|_| reports += 1).is_ok(),
            "the failure is told once"
        );
    }
}
