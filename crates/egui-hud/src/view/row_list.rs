use crate::view::hud_row::HudRow;

/// The rows the HUD shows, in display order, each once: plain data kept by value, so setting
/// it every frame allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowList {
    order: [HudRow; HudRow::ALL.len()],
    len: usize,
    /// The rows listed, one bit each (by [`RowList::bit`]): membership and cover checks run
    /// every frame, and a bit test is one instruction where a scan of the list was up to 17
    /// comparisons per row.
    members: u32,
}

const _: () = assert!(
    HudRow::ALL.len() <= 32,
    "a row's bit must fit in `RowList::members`"
);

impl RowList {
    /// `rows` in their order; a row listed twice is shown where it is first listed.
    pub(crate) fn new(rows: &[HudRow]) -> Self {
        let mut list = Self {
            order: HudRow::ALL,
            len: 0,
            members: 0,
        };
        for &row in rows {
            if !list.contains(row)
                && let Some(slot) = list.order.get_mut(list.len)
            {
                *slot = row;
                list.len += 1;
                list.members |= Self::bit(row);
            }
        }
        list
    }

    /// The rows, in display order.
    pub(crate) fn rows(&self) -> &[HudRow] {
        self.order.get(..self.len).unwrap_or_default()
    }

    /// Whether `row` is listed. One bit test.
    pub(crate) fn contains(&self, row: HudRow) -> bool {
        self.members & Self::bit(row) != 0
    }

    /// Whether every row of `other` is listed here too (in any order). One bit test.
    pub(crate) fn covers(&self, other: &Self) -> bool {
        other.members & !self.members == 0
    }

    fn bit(row: HudRow) -> u32 {
        1 << (row as u32)
    }
}

impl Default for RowList {
    fn default() -> Self {
        Self::new(crate::view::hud_preset::HudPreset::default().rows())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_order_and_appear_once() {
        let list = RowList::new(&[HudRow::Mem, HudRow::Frame, HudRow::Mem, HudRow::Plot]);
        assert_eq!(list.rows(), [HudRow::Mem, HudRow::Frame, HudRow::Plot]);
        assert!(!list.contains(HudRow::Gpu));
        assert_eq!(RowList::new(&HudRow::ALL).rows(), HudRow::ALL);
        assert!(RowList::new(&[]).rows().is_empty());
    }

    #[test]
    fn a_list_covers_the_rows_it_lists_in_any_order() {
        let every = RowList::new(&HudRow::ALL);
        let some = RowList::new(&[HudRow::Mem, HudRow::Frame, HudRow::Plot]);
        for &row in &HudRow::ALL {
            let alone = RowList::new(&[row]);
            assert!(alone.contains(row) && every.contains(row), "{row:?}");
            assert!(every.covers(&alone) && alone.covers(&alone), "{row:?}");
            assert_eq!(some.covers(&alone), some.rows().contains(&row), "{row:?}");
        }
        assert!(RowList::new(&[HudRow::Plot, HudRow::Mem, HudRow::Frame]).covers(&some));
        assert!(some.covers(&RowList::new(&[])));
        assert!(!some.covers(&every) && every.covers(&some));
    }
}
