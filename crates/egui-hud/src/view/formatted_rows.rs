use std::borrow::Cow;
use std::fmt::{self, Write as _};

use profiler_core::Grade;

use crate::view::hud_row::HudRow;
use crate::view::readout_row::ReadoutRow;

/// The rows formatted at the last refresh, and the strings of the rows before them, emptied
/// with their room kept: a refresh writes each value into a string the last one used, so that
/// formatting the rows allocates nothing once every row has been shown.
#[derive(Debug, Default)]
pub(crate) struct FormattedRows {
    rows: Vec<ReadoutRow>,
    /// Emptied strings of cleared rows, in the order the next refresh asks for them (the first
    /// row's last): a row set that did not change gets back the strings it had.
    spare: Vec<String>,
}

impl FormattedRows {
    /// The rows, in display order.
    pub(crate) fn as_slice(&self) -> &[ReadoutRow] {
        &self.rows
    }

    /// Drops the rows, keeping their strings for the next ones.
    pub(crate) fn clear(&mut self) {
        for row in self.rows.drain(..).rev() {
            self.spare.push(emptied(row.value));
            if let Cow::Owned(name) = row.name {
                self.spare.push(emptied(name));
            }
        }
    }

    /// A string holding `args`, written into a kept one when there is one.
    pub(crate) fn text(&mut self, args: fmt::Arguments<'_>) -> String {
        let mut text = self.spare.pop().unwrap_or_default();
        debug_assert!(text.is_empty(), "spare strings are kept emptied");
        // Writing into a `String` cannot fail.
        let _ = text.write_fmt(args);
        text
    }

    /// A row of `kind` named `name`, its value `args` (see [`ReadoutRow::new`]).
    pub(crate) fn push_value(
        &mut self,
        kind: HudRow,
        name: &'static str,
        grade: Option<Grade>,
        args: fmt::Arguments<'_>,
    ) {
        let value = self.text(args);
        self.rows.push(ReadoutRow::new(kind, name, value, grade));
    }

    /// Adds `row` as it is (a note, a line named at run time).
    pub(crate) fn push(&mut self, row: ReadoutRow) {
        self.rows.push(row);
    }

    /// Puts `row` at `index` (at most the number of rows), moving the rows after it down.
    pub(crate) fn insert(&mut self, index: usize, row: ReadoutRow) {
        debug_assert!(
            index <= self.rows.len(),
            "a row goes among the rows or after"
        );
        self.rows.insert(index.min(self.rows.len()), row);
    }
}

fn emptied(mut text: String) -> String {
    text.clear();
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refresh that formats the same rows as the last one gets back each row's own string
    /// (its room already fits), the name of a row named at run time included.
    #[test]
    fn the_same_rows_get_their_strings_back() {
        let mut rows = FormattedRows::default();
        let fill = |rows: &mut FormattedRows, value: &str| {
            rows.push_value(HudRow::Frame, "FRAME", None, format_args!("{value}"));
            let name = Cow::Owned(rows.text(format_args!("scene")));
            let line = rows.text(format_args!("{value} {value}"));
            rows.push(ReadoutRow {
                name,
                indented: true,
                ..ReadoutRow::new(HudRow::Gpu, "", line, None)
            });
            rows.push_value(HudRow::Cpu, "CPU", None, format_args!("{value}%"));
        };
        fill(&mut rows, "a long first value");
        let pointers = |rows: &FormattedRows| -> Vec<*const u8> {
            rows.as_slice()
                .iter()
                .flat_map(|row| [row.name.as_ptr(), row.value.as_ptr()])
                .collect()
        };
        let first = pointers(&rows);
        rows.clear();
        fill(&mut rows, "short");
        assert_eq!(pointers(&rows), first, "each string back in its row");
        let values: Vec<(&str, &str)> = rows
            .as_slice()
            .iter()
            .map(|row| (row.name.as_ref(), row.value.as_str()))
            .collect();
        assert_eq!(
            values,
            [
                ("FRAME", "short"),
                ("scene", "short short"),
                ("CPU", "short%")
            ]
        );
    }
}
