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

#[cfg(test)]
mod tests {
    use super::{nearest_rank, nearest_rank_index};

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
