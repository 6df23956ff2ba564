use crate::view::hud_preset::HudPreset;
use crate::view::row_list::RowList;

/// Which rows the HUD shows: a preset, or an app's own list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowChoice {
    Preset(HudPreset),
    Custom(RowList),
}

impl Default for RowChoice {
    fn default() -> Self {
        Self::Preset(HudPreset::default())
    }
}

impl RowChoice {
    pub(crate) fn rows(self) -> RowList {
        match self {
            Self::Preset(preset) => RowList::new(preset.rows()),
            Self::Custom(rows) => rows,
        }
    }

    /// What the cycling key selects after this: the presets in order and, where the app gave
    /// its own list (`app`), that list between the last preset and the first.
    pub(crate) fn next(self, app: Self) -> Self {
        match (self, app) {
            (Self::Preset(HudPreset::Full), Self::Custom(rows)) => Self::Custom(rows),
            (Self::Preset(preset), _) => Self::Preset(preset.next()),
            (Self::Custom(_), _) => Self::Preset(HudPreset::NumberOnly),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::hud_row::HudRow;

    #[test]
    fn the_key_cycles_the_presets_and_the_apps_own_list() {
        let compact = RowChoice::Preset(HudPreset::Compact);
        let full = compact.next(compact);
        assert_eq!(full, RowChoice::Preset(HudPreset::Full));
        assert_eq!(full.next(compact), RowChoice::Preset(HudPreset::NumberOnly));
        let own = RowChoice::Custom(RowList::new(&[HudRow::Frame]));
        assert_eq!(own.next(own), RowChoice::Preset(HudPreset::NumberOnly));
        assert_eq!(
            full.next(own),
            own,
            "back to the app's list after the last preset"
        );
    }
}
