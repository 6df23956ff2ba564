use std::time::Duration;

use crate::DurationReading;
use crate::sample_ring::SampleRing;

/// Per-label durations (GPU passes or CPU phases) for the retained frames. A label allocates its slot (name and ring)
/// the first time it is seen; steady state allocates nothing.
#[derive(Debug)]
pub(crate) struct LabelTable {
    passes: Vec<PassSlot>,
    capacity: usize,
    /// Results whose label did not fit in the table.
    untracked: u64,
}

#[derive(Debug)]
struct PassSlot {
    label: String,
    nanos: SampleRing<u64>,
    sum_nanos: u64,
}

impl LabelTable {
    /// Labels beyond this many are counted, not shown: a HUD line per pass stops being
    /// readable long before.
    pub(crate) const MAX_LABELS: usize = 8;

    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            passes: Vec::with_capacity(Self::MAX_LABELS),
            capacity,
            untracked: 0,
        }
    }

    pub(crate) fn record(&mut self, label: &str, duration: Duration) {
        let nanos = u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX);
        let index = match self.passes.iter().position(|p| p.label == label) {
            Some(index) => index,
            None if self.passes.len() < Self::MAX_LABELS => {
                self.passes.push(PassSlot {
                    label: label.to_owned(),
                    nanos: SampleRing::with_capacity(self.capacity),
                    sum_nanos: 0,
                });
                self.passes.len() - 1
            }
            None => {
                self.untracked += 1;
                return;
            }
        };
        let Some(slot) = self.passes.get_mut(index) else {
            return;
        };
        if let Some(evicted) = slot.nanos.push(nanos) {
            slot.sum_nanos -= evicted;
        }
        slot.sum_nanos += nanos;
    }

    pub(crate) fn untracked(&self) -> u64 {
        self.untracked
    }

    pub(crate) fn readings(&self, out: &mut Vec<DurationReading>) {
        out.clear();
        for slot in &self.passes {
            let (Some(last), Ok(count)) = (slot.nanos.back(), u64::try_from(slot.nanos.len()))
            else {
                continue;
            };
            out.push(DurationReading {
                label: slot.label.clone(),
                last: Duration::from_nanos(last),
                mean: Duration::from_nanos(slot.sum_nanos / count.max(1)),
                max: Duration::from_nanos(slot.nanos.iter().max().unwrap_or(0)),
            });
        }
    }

    pub(crate) fn clear(&mut self) {
        self.passes.clear();
        self.untracked = 0;
    }
}
