/// The nearest-rank percentile of `sorted` (ascending): the ⌈p·n/100⌉-th smallest, `None` when
/// empty. The one rule behind every percentile of this crate (P95, LATENCY, DISPLAYED, the
/// benchmark's P50 / P95 / P99); the interval histogram applies it to bucket counts.
pub(crate) fn nearest_rank<T: Copy>(sorted: &[T], percent: usize) -> Option<T> {
    let rank = (percent * sorted.len()).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// The index [`nearest_rank`] picks among `len` values (`len` > 0), for a selection instead of
/// a sort.
pub(crate) fn nearest_rank_index(len: usize, percent: usize) -> usize {
    (len * percent).div_ceil(100).clamp(1, len) - 1
}

/// The nearest-rank p50, p95 and the largest of `values`, found by selection (reordering
/// `values`, in O(n)) rather than a sort: what a refresh reads of each latency stage. `None`
/// when empty.
pub(crate) fn p50_p95_max<T: Ord + Copy>(values: &mut [T]) -> Option<(T, T, T)> {
    if values.is_empty() {
        return None;
    }
    let at_p95 = nearest_rank_index(values.len(), 95);
    let at_p50 = nearest_rank_index(values.len(), 50);
    debug_assert!(at_p50 <= at_p95, "p50 ranks at or below p95");
    // The median first, over all values; then p95 among the half above it (a selection over
    // n and n/2 values, not n and 0.95·n); the largest is above p95.
    let (_, &mut p50, above_p50) = values.select_nth_unstable(at_p50);
    let (p95, max) = match at_p95.checked_sub(at_p50 + 1) {
        // p95 ranks with the median: a single value.
        None => (
            p50,
            above_p50.iter().copied().max().map_or(p50, |m| m.max(p50)),
        ),
        Some(in_above) => {
            let (_, &mut p95, above_p95) = above_p50.select_nth_unstable(in_above);
            (
                p95,
                above_p95.iter().copied().max().map_or(p95, |m| m.max(p95)),
            )
        }
    };
    Some((p50, p95, max))
}

#[cfg(test)]
mod tests {
    use super::{nearest_rank, nearest_rank_index, p50_p95_max};

    #[test]
    fn selection_reads_what_a_sort_reads() {
        // A fixed pseudo-random sequence (xorshift), every length from 1 to 300, with repeats.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 1..=300 {
            let mut values: Vec<i64> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    i64::try_from(state % 1000).expect("small") - 100
                })
                .collect();
            let mut sorted = values.clone();
            sorted.sort_unstable();
            let expected = (
                nearest_rank(&sorted, 50).expect("not empty"),
                nearest_rank(&sorted, 95).expect("not empty"),
                *sorted.last().expect("not empty"),
            );
            assert_eq!(p50_p95_max(&mut values), Some(expected), "{len} values");
        }
        assert_eq!(p50_p95_max::<i64>(&mut []), None);
    }

    #[test]
    fn the_rank_is_the_ceiling_of_p_n_over_100() {
        let values: Vec<u32> = (1..=20).collect();
        assert_eq!(nearest_rank(&values, 50), Some(10));
        assert_eq!(nearest_rank(&values, 95), Some(19));
        assert_eq!(nearest_rank(&values, 96), Some(20), "⌈19.2⌉ = 20");
        assert_eq!(nearest_rank(&values, 0), Some(1), "the smallest");
        assert_eq!(nearest_rank::<u32>(&[], 50), None);
        assert_eq!(nearest_rank_index(20, 95), 18);
        assert_eq!(nearest_rank_index(1, 50), 0);
    }
}
