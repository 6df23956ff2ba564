/// A fixed-capacity ring of the newest samples. Allocates once, at construction; pushing
/// overwrites the oldest sample and hands it back so running sums can be kept exact.
#[derive(Clone, Debug)]
pub(crate) struct SampleRing<T> {
    slots: Vec<T>,
    capacity: usize,
    /// Index of the oldest sample.
    head: usize,
}

impl<T: Copy> SampleRing<T> {
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            slots: Vec::with_capacity(capacity),
            capacity,
            head: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Appends `value`; returns the sample it evicted when the ring was full.
    pub(crate) fn push(&mut self, value: T) -> Option<T> {
        if self.capacity == 0 {
            return Some(value);
        }
        if self.slots.len() < self.capacity {
            self.slots.push(value);
            return None;
        }
        let slot = self.slots.get_mut(self.head)?;
        let evicted = std::mem::replace(slot, value);
        self.head = (self.head + 1) % self.capacity;
        Some(evicted)
    }

    /// The newest sample.
    pub(crate) fn back(&self) -> Option<T> {
        if self.slots.is_empty() {
            return None;
        }
        let newest = (self.head + self.slots.len() - 1) % self.slots.len();
        self.slots.get(newest).copied()
    }

    /// Oldest to newest.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = T> + '_ {
        let (older, newer) = self.as_slices();
        older.iter().chain(newer.iter()).copied()
    }

    /// The samples as two slices, the older first: oldest to newest is the first, then the
    /// second.
    pub(crate) fn as_slices(&self) -> (&[T], &[T]) {
        let (newer, older) = self.slots.split_at(self.head.min(self.slots.len()));
        (older, newer)
    }

    /// How many of the oldest samples `before` holds for, in a ring where it holds for the
    /// oldest ones and not after (samples in time order, `before` a time test): a binary
    /// search, not a walk. O(log n).
    pub(crate) fn partition_point(&self, before: impl Fn(&T) -> bool) -> usize {
        let (older, newer) = self.as_slices();
        let in_older = older.partition_point(&before);
        if in_older < older.len() {
            in_older
        } else {
            older.len() + newer.partition_point(before)
        }
    }

    /// The sample at `index`, oldest first.
    pub(crate) fn get(&self, index: usize) -> Option<T> {
        let (older, newer) = self.as_slices();
        match index.checked_sub(older.len()) {
            None => older.get(index),
            Some(in_newer) => newer.get(in_newer),
        }
        .copied()
    }

    pub(crate) fn clear(&mut self) {
        self.slots.clear();
        self.head = 0;
    }
}
