use std::borrow::Cow;

use profiler_core::Grade;

use crate::view::hud_row::HudRow;

/// One line of the HUD below the big number, formatted once per refresh.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ReadoutRow {
    /// `FRAME`, `P95`…, or a GPU pass label.
    pub(crate) name: Cow<'static, str>,
    pub(crate) value: String,
    /// Colours the value by the budget; `None` keeps the plain text colour.
    pub(crate) grade: Option<Grade>,
    /// A GPU pass line under the `GPU` row.
    pub(crate) indented: bool,
    /// For GPU pass lines: the last duration as a fraction of the frame budget (drawn as a bar).
    pub(crate) budget_fraction: Option<f32>,
    /// The part of the HUD it belongs to; `None` for a note shown whatever the rows (EXPORT).
    pub(crate) kind: Option<HudRow>,
}

impl ReadoutRow {
    pub(crate) fn new(
        kind: HudRow,
        name: &'static str,
        value: String,
        grade: Option<Grade>,
    ) -> Self {
        Self {
            name: Cow::Borrowed(name),
            value,
            grade,
            indented: false,
            budget_fraction: None,
            kind: Some(kind),
        }
    }

    /// A note shown whatever rows are chosen (the outcome of an export the user asked for).
    pub(crate) fn note(name: &'static str, value: String) -> Self {
        Self {
            kind: None,
            ..Self::new(HudRow::Plot, name, value, None)
        }
    }
}
