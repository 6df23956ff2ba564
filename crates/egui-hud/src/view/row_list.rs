use crate::view::hud_row::HudRow;

/// The rows the HUD shows, in display order, each once: plain data kept by value, so setting
/// it every frame allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowList {
    order: [HudRow; HudRow::ALL.len()],
    len: usize,
}

impl RowList {
    /// `rows` in their order; a row listed twice is shown where it is first listed.
    pub(crate) fn new(rows: &[HudRow]) -> Self {
        let mut list = Self {
            order: HudRow::ALL,
            len: 0,
        };
        for &row in rows {
            if !list.contains(row)
                && let Some(slot) = list.order.get_mut(list.len)
            {
                *slot = row;
                list.len += 1;
            }
        }
        list
    }

    /// The rows, in display order.
    pub(crate) fn rows(&self) -> &[HudRow] {
        self.order.get(..self.len).unwrap_or_default()
    }

    pub(crate) fn contains(&self, row: HudRow) -> bool {
        self.rows().contains(&row)
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
}
