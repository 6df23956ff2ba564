use std::time::Duration;

/// Present intervals in fixed memory: log-spaced buckets, each 1 % wider than the one before,
/// from [`Self::MIN`] to [`Self::MAX`] (shorter and longer intervals land in the end buckets), so
/// a percentile read from it is within 1 % of the exact one, however long the session. The
/// exact sum and count are kept beside the buckets. Adding is O(1) and never allocates; reading a
/// percentile walks the buckets from the nearer end (at refreshes only), skipping blocks of
/// [`Self::BLOCK`] that hold none.
///
/// Memory: [`Self::BUCKETS`] `u32` counters, 5.4 KiB, and one `u32` per block.
#[derive(Clone, Debug)]
pub(crate) struct IntervalHistogram {
    counts: Box<[u32; Self::BUCKETS]>,
    /// Intervals per block of [`Self::BLOCK`] buckets (saturating, so never back to zero once
    /// one was added): a read skips an empty block with one test. A session's intervals sit
    /// in a few clusters (the frame rate, hitches, idle spells) hundreds of buckets apart; a
    /// walk through every bucket between them touched up to 87 cache lines per read, three
    /// reads a refresh.
    blocks: [u32; Self::BLOCKS],
    count: u64,
    sum_nanos: u128,
}

impl IntervalHistogram {
    /// The shortest interval told apart (10 µs: 100 000 FPS).
    pub(crate) const MIN: Duration = Duration::from_micros(10);
    /// The longest interval told apart (10 s).
    pub(crate) const MAX: Duration = Duration::from_secs(10);
    /// Each bucket's upper bound over its lower bound.
    const RATIO: f64 = 1.01;
    /// ⌈ln(MAX / MIN) / ln(RATIO)⌉: 1389 buckets cover 10 µs to 10 s.
    pub(crate) const BUCKETS: usize = 1389;
    /// Buckets per block: 64 counters, four cache lines.
    const BLOCK: usize = 64;
    const BLOCKS: usize = Self::BUCKETS.div_ceil(Self::BLOCK);

    pub(crate) fn new() -> Self {
        Self {
            counts: Box::new([0; Self::BUCKETS]),
            blocks: [0; Self::BLOCKS],
            count: 0,
            sum_nanos: 0,
        }
    }

    /// The buckets that hold intervals, as (index, count), fastest first; `.rev()` for the
    /// slowest first.
    fn occupied(&self) -> impl DoubleEndedIterator<Item = (usize, u32)> + '_ {
        self.blocks
            .iter()
            .zip(self.counts.chunks(Self::BLOCK))
            .enumerate()
            .filter(|(_, (intervals, _))| **intervals > 0)
            .flat_map(|(block, (_, counts))| {
                let first = block * Self::BLOCK;
                counts
                    .iter()
                    .enumerate()
                    .map(move |(offset, &count)| (first + offset, count))
            })
            .filter(|&(_, count)| count > 0)
    }

    pub(crate) fn add(&mut self, interval: Duration) {
        let index = Self::bucket_of(interval);
        if let Some(count) = self.counts.get_mut(index)
            && let Some(block) = self.blocks.get_mut(index / Self::BLOCK)
        {
            *count = count.saturating_add(1);
            *block = block.saturating_add(1);
        }
        self.count += 1;
        self.sum_nanos += interval.as_nanos();
    }

    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// The mean interval, exact.
    pub(crate) fn mean(&self) -> Option<Duration> {
        let mean = self.sum_nanos.checked_div(u128::from(self.count))?;
        Some(Duration::from_nanos(
            u64::try_from(mean).unwrap_or(u64::MAX),
        ))
    }

    /// The nearest-rank `percent` percentile (the ⌈p·n/100⌉-th shortest interval), as its
    /// bucket's geometric middle: within 0.5 % of the exact value inside `MIN..MAX`.
    pub(crate) fn percentile(&self, percent: f64) -> Option<Duration> {
        if self.count == 0 {
            return None;
        }
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a rank between 1 and the count"
        )]
        let rank = ((percent / 100.0 * self.count as f64).ceil() as u64).clamp(1, self.count);
        // From the nearer end: the HUD asks for the 99th and 99.9th, and a walk up from the
        // fastest bucket through a session's range was most of a refresh's `lows`.
        let found = if rank > self.count / 2 {
            // The rank-th smallest is the (count − rank + 1)-th largest.
            let from_top = self.count - rank + 1;
            Self::bucket_reaching(self.occupied().rev(), from_top)
        } else {
            Self::bucket_reaching(self.occupied(), rank)
        };
        debug_assert!(found.is_some(), "the ranks add up to the count");
        found.map(Self::middle_of)
    }

    /// The first of `buckets` (index, count), in the order given, at which the counts add up
    /// to `wanted`.
    fn bucket_reaching(buckets: impl Iterator<Item = (usize, u32)>, wanted: u64) -> Option<usize> {
        let mut seen = 0_u64;
        for (index, count) in buckets {
            seen += u64::from(count);
            if seen >= wanted {
                return Some(index);
            }
        }
        None
    }

    /// The mean of the slowest `percent` of intervals (from the buckets' middles): the "average
    /// of the slowest 1 %" some tools call the 1 % low.
    pub(crate) fn mean_of_slowest(&self, percent: f64) -> Option<Duration> {
        if self.count == 0 {
            return None;
        }
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a count between 1 and the count"
        )]
        let wanted = ((percent / 100.0 * self.count as f64).ceil() as u64).clamp(1, self.count);
        let (mut taken, mut sum_secs) = (0_u64, 0.0);
        // Empty buckets skipped, and each middle found from the one above it by a power of the
        // ratio (a few multiplications) instead of a `powf`: a long session's slowest 1 % spans
        // hundreds of buckets, and a `powf` each was a quarter of the full HUD's snapshot.
        let mut above: Option<(usize, f64)> = None;
        for (index, count) in self.occupied().rev() {
            let middle_secs = match above {
                Some((above_index, above_secs)) => {
                    debug_assert!(index < above_index, "walked from the slowest down");
                    let steps = i32::try_from(above_index - index).unwrap_or(i32::MAX);
                    above_secs / Self::RATIO.powi(steps)
                }
                None => Self::middle_of(index).as_secs_f64(),
            };
            above = Some((index, middle_secs));
            let take = u64::from(count).min(wanted - taken);
            sum_secs += middle_secs * take as f64;
            taken += take;
            if taken == wanted {
                break;
            }
        }
        Duration::try_from_secs_f64(sum_secs / wanted as f64).ok()
    }

    pub(crate) fn clear(&mut self) {
        self.counts.fill(0);
        self.blocks.fill(0);
        self.count = 0;
        self.sum_nanos = 0;
    }

    fn bucket_of(interval: Duration) -> usize {
        let ratio = interval.min(Self::MAX).as_secs_f64() / Self::MIN.as_secs_f64();
        if ratio <= 1.0 {
            return 0;
        }
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a positive bucket index, clamped"
        )]
        let index = (ratio.ln() / Self::RATIO.ln()) as usize;
        index.min(Self::BUCKETS - 1)
    }

    /// The geometric middle of bucket `index`.
    fn middle_of(index: usize) -> Duration {
        #[expect(clippy::cast_precision_loss, reason = "a bucket index below 1389")]
        let exponent = index as f64 + 0.5;
        Duration::try_from_secs_f64(Self::MIN.as_secs_f64() * Self::RATIO.powf(exponent))
            .unwrap_or(Self::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buckets_cover_min_to_max() {
        let covered = IntervalHistogram::MIN.as_secs_f64()
            * IntervalHistogram::RATIO.powf(IntervalHistogram::BUCKETS as f64);
        assert!(covered >= IntervalHistogram::MAX.as_secs_f64());
        assert_eq!(
            IntervalHistogram::bucket_of(IntervalHistogram::MAX),
            IntervalHistogram::BUCKETS - 1
        );
    }

    /// Every rank of a few intervals, each in a bucket of its own, in two clusters with empty
    /// blocks between them (frames of 1–6 ms, spells of 5–9 s), an odd count: the low ranks
    /// found from the fastest bucket up, the high ones from the slowest down, across the gap.
    #[test]
    fn every_rank_reads_its_own_bucket_from_either_end() {
        let mut histogram = IntervalHistogram::new();
        let mut intervals: Vec<Duration> = (1..=6)
            .map(Duration::from_millis)
            .chain((5..=9).map(Duration::from_secs))
            .collect();
        let (fast, slow) = (
            IntervalHistogram::bucket_of(intervals[5]) / IntervalHistogram::BLOCK,
            IntervalHistogram::bucket_of(intervals[6]) / IntervalHistogram::BLOCK,
        );
        assert!(slow > fast + 1, "empty blocks between the clusters");
        // Shuffled: every fourth, round the eleven (4 and 11 share no factor).
        for index in (0..intervals.len()).map(|i| i * 4 % intervals.len()) {
            histogram.add(intervals[index]);
        }
        assert_eq!(histogram.count(), 11);
        intervals.sort_unstable();
        let count = intervals.len();
        for (rank, &interval) in (1..=count).zip(&intervals) {
            // Halfway into the rank: ⌈p · n / 100⌉ is `rank` whatever the rounding.
            #[expect(clippy::cast_precision_loss, reason = "ranks of eleven")]
            let percent = (rank as f64 - 0.5) / count as f64 * 100.0;
            assert_eq!(
                histogram.percentile(percent),
                Some(IntervalHistogram::middle_of(IntervalHistogram::bucket_of(
                    interval
                ))),
                "p{percent:.1}: the {rank}-th fastest"
            );
        }
    }

    /// Percentiles and the mean of the slowest read the buckets the intervals fell in, as a
    /// sort of every interval's bucket would, across a clear and at the ends of the range
    /// (below `MIN`, above `MAX`).
    #[test]
    fn reads_follow_the_buckets_the_intervals_fell_in() {
        let mut histogram = IntervalHistogram::new();
        assert_eq!(histogram.percentile(50.0), None);
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for (round, (low_micros, span_micros)) in [(16_000, 4_000), (3, 40), (9_000_000, 5_000_000)]
            .into_iter()
            .enumerate()
        {
            histogram.clear();
            let mut buckets = Vec::new();
            let mut middles_secs = 0.0;
            for _ in 0..500 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let interval = Duration::from_micros(low_micros + state % span_micros);
                histogram.add(interval);
                buckets.push(IntervalHistogram::bucket_of(interval));
            }
            buckets.sort_unstable();
            // Each percentile's nearest rank among the 500: ⌈p · 500 / 100⌉.
            for (percent, rank) in [(1.0, 5), (50.0, 250), (99.0, 495), (99.9, 500)] {
                assert_eq!(
                    histogram.percentile(percent),
                    Some(IntervalHistogram::middle_of(buckets[rank - 1])),
                    "round {round}, p{percent}"
                );
            }
            for &index in buckets.iter().rev().take(5) {
                middles_secs += IntervalHistogram::middle_of(index).as_secs_f64();
            }
            let slowest = histogram.mean_of_slowest(1.0).expect("500 intervals");
            assert!(
                (slowest.as_secs_f64() - middles_secs / 5.0).abs() < 1e-9,
                "round {round}: {slowest:?}"
            );
        }
    }

    /// The mean of the slowest half of intervals spread evenly over the buckets' range, 20 000
    /// of them (every bucket of the slowest half occupied, about 700) and 2 000 (one or two a
    /// bucket, with empty buckets between): each middle found from the one above it, across a
    /// gap or not, is the bucket's `middle_of`, so the mean is theirs within 2 ns.
    #[test]
    fn the_mean_of_the_slowest_reads_every_middle_it_spans() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for count in [20_000, 2_000] {
            let mut histogram = IntervalHistogram::new();
            let mut buckets = Vec::new();
            for _ in 0..count {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // A uniform exponent: as many intervals in each bucket, on average.
                let exponent = (state % 1_000_000) as f64 / 1e6 * IntervalHistogram::BUCKETS as f64;
                let interval = Duration::try_from_secs_f64(
                    IntervalHistogram::MIN.as_secs_f64() * IntervalHistogram::RATIO.powf(exponent),
                )
                .expect("between 10 µs and 10 s");
                histogram.add(interval);
                buckets.push(IntervalHistogram::bucket_of(interval));
            }
            buckets.sort_unstable();
            let slowest = &buckets[count / 2..];
            let mut spanned = slowest.to_vec();
            spanned.dedup();
            let gaps = spanned
                .windows(2)
                .filter(|pair| pair[1] - pair[0] > 1)
                .count();
            assert!(spanned.len() > 400, "{count}: {} buckets", spanned.len());
            assert!(
                (count == 2_000) == (gaps > 100),
                "{count}: {gaps} gaps between occupied buckets"
            );
            let expected_secs = slowest
                .iter()
                .map(|&index| IntervalHistogram::middle_of(index).as_secs_f64())
                .sum::<f64>()
                / slowest.len() as f64;
            let mean = histogram.mean_of_slowest(50.0).expect("intervals");
            assert!(
                (mean.as_secs_f64() - expected_secs).abs() < 2e-9,
                "{count}: {mean:?} against {expected_secs} s"
            );
        }
    }
}
