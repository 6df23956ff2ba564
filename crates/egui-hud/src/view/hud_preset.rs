use crate::view::hud_row::HudRow;

/// A named set of rows (see [`crate::FpsMonitor::preset`]; [`crate::FpsMonitor::rows`] gives
/// any other). The default is [`HudPreset::Compact`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HudPreset {
    /// The big number (MAX FPS or FPS) and its label, nothing else: the smallest HUD
    /// (MangoHud's preset 1).
    NumberOnly,
    /// The number, the plot, FRAME, P95, GPU, CPU and MEM: the HUD of the design it was made
    /// from. The default: it answers "how fast, and is it the CPU or the GPU" without covering
    /// the app, and the full HUD is one preset away.
    #[default]
    Compact,
    /// Every row the HUD knows, in [`HudRow::ALL`]'s order.
    Full,
}

impl HudPreset {
    /// Every preset, in the order [`Self::next`] cycles through them.
    pub const ALL: [Self; 3] = [Self::NumberOnly, Self::Compact, Self::Full];

    /// The preset's rows, in display order. Free.
    pub fn rows(self) -> &'static [HudRow] {
        match self {
            Self::NumberOnly => &[],
            Self::Compact => &[
                HudRow::Frame,
                HudRow::P95,
                HudRow::Gpu,
                HudRow::Cpu,
                HudRow::Mem,
                HudRow::Plot,
            ],
            Self::Full => &HudRow::ALL,
        }
    }

    /// The preset after this one, wrapping around (what the cycling key selects). Free.
    #[must_use]
    pub fn next(self) -> Self {
        match self {
            Self::NumberOnly => Self::Compact,
            Self::Compact => Self::Full,
            Self::Full => Self::NumberOnly,
        }
    }

    /// A short name for logs and the hover. Free.
    pub fn name(self) -> &'static str {
        match self {
            Self::NumberOnly => "number only",
            Self::Compact => "compact",
            Self::Full => "full",
        }
    }

    /// The preset's place in [`Self::ALL`]: what is kept in egui memory.
    pub(crate) fn index(self) -> u8 {
        match self {
            Self::NumberOnly => 0,
            Self::Compact => 1,
            Self::Full => 2,
        }
    }

    /// The preset at `index` in [`Self::ALL`], if any.
    pub(crate) fn from_index(index: u8) -> Option<Self> {
        Self::ALL.get(usize::from(index)).copied()
    }
}
