use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::time::Duration;

use profiler_core::record::frame_trace::short_file;
use profiler_core::{Bound, DurationReading, GpuBusySource, Grade, LatencyEnd, Snapshot};

use crate::repaint::why_reading::WhyReading;
use crate::view::hud_row::HudRow;
use crate::view::readout_row::ReadoutRow;
use crate::view::row_list::RowList;
use crate::view::value_text::{BytesText, DurationText, MillisText, PercentText};

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

    /// Drops the rows, keeping their strings for the next ones. Strings the last rows did not
    /// take back are dropped, so what is kept is never more than the rows' own (a row made
    /// with a string of its own, as the benchmark card's are, adds its string once).
    pub(crate) fn clear(&mut self) {
        self.spare.clear();
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

    /// Formats the rows of `shown` for `snapshot` (the last ones cleared first), in display
    /// order; a readout that is `None` has no row (GPU passes that cannot be timed here have
    /// none either; the hover text says why). A row not shown is not formatted: the default
    /// preset shows 7 of about 20.
    /// `why` is WHY's reading when its row is shown: placed after INV, which it explains (last
    /// without INV).
    pub(crate) fn fill(
        &mut self,
        snapshot: &Snapshot,
        shown: RowList,
        mut why: Option<&WhyReading>,
    ) {
        let rows = self;
        rows.clear();
        push_frame_rows(rows, snapshot, shown);
        if shown.contains(HudRow::Lows) {
            push_lows_rows(rows, snapshot);
        }
        if shown.contains(HudRow::Inv)
            && let Some(inv) = snapshot.inv
        {
            rows.push_value(HudRow::Inv, "INV", None, format_args!("{inv:.2}"));
            if let Some(why) = why.take() {
                rows.push_why(why);
            }
        }
        if shown.contains(HudRow::Miss)
            && let (Some(missed), Some(share)) = (snapshot.missed_refreshes, snapshot.missed_frames)
        {
            // Graded like DROP: a frame that missed a refresh was shown late.
            rows.push_value(
                HudRow::Miss,
                "MISS",
                Some(Grade::of_drop_fraction(share)),
                format_args!("{missed} · {}", PercentText(share * 100.0)),
            );
        }
        if shown.contains(HudRow::Hitch) {
            push_hitch_row(rows, snapshot);
        }
        if shown.contains(HudRow::Displayed)
            && let Some(presentation) = &snapshot.presentation
            && let (Some(p50), Some(fps)) = (presentation.displayed_p50, presentation.displayed_fps)
        {
            rows.push_value(
                HudRow::Displayed,
                "DISPLAYED",
                None,
                format_args!("{} · {fps:.1}", DurationText(p50)),
            );
        }
        if shown.contains(HudRow::Phases) {
            push_phase_rows(rows, snapshot);
        }
        if shown.contains(HudRow::Gpu) {
            push_gpu_rows(rows, snapshot);
        }
        if shown.contains(HudRow::Cpu)
            && let Some(cpu) = snapshot.cpu_percent
        {
            rows.push_value(
                HudRow::Cpu,
                "CPU",
                None,
                format_args!("{}", PercentText(cpu)),
            );
        }
        if shown.contains(HudRow::Mem)
            && let Some(bytes) = snapshot.memory_bytes
        {
            rows.push_value(
                HudRow::Mem,
                "MEM",
                None,
                format_args!("{}", BytesText(bytes)),
            );
        }
        if shown.contains(HudRow::Latency) {
            push_latency_row(rows, snapshot);
        }
        if let Some(why) = why {
            rows.push_why(why);
        }
    }

    /// The WHY row: the busiest call site and its rate (the rest are in the hover text), or
    /// "idle" when the app asked for nothing.
    fn push_why(&mut self, why: &WhyReading) {
        let rows = self;
        let value = match why.top_sites.first() {
            Some(site) => {
                let more = why.top_sites.len() - 1;
                let mut value = rows.text(format_args!(
                    "{}:{} {:.0}/s",
                    short_file(site.file),
                    site.line,
                    site.per_sec
                ));
                if more > 0 {
                    let _ = write!(value, " +{more}");
                }
                value
            }
            None => rows.text(format_args!("idle")),
        };
        rows.push(ReadoutRow::new(HudRow::Why, "WHY", value, None));
    }
}

fn emptied(mut text: String) -> String {
    text.clear();
    text
}

/// `INTERVAL`, `FRAME`, `P95` and `DROP`: the draws and the hand-off between frames.
fn push_frame_rows(rows: &mut FormattedRows, snapshot: &Snapshot, shown: RowList) {
    if shown.contains(HudRow::Interval)
        && let Some(interval) = snapshot.interval
    {
        rows.push_value(
            HudRow::Interval,
            "INTERVAL",
            None,
            format_args!("{}", DurationText(interval)),
        );
    }
    if shown.contains(HudRow::Frame)
        && let Some(frame) = snapshot.frame
    {
        rows.push_value(
            HudRow::Frame,
            "FRAME",
            snapshot.frame_grade(),
            format_args!("{}", DurationText(frame)),
        );
    }
    if shown.contains(HudRow::P95)
        && let Some(p95) = snapshot.p95
    {
        rows.push_value(
            HudRow::P95,
            "P95",
            snapshot.p95_grade(),
            format_args!("{}", DurationText(p95)),
        );
    }
    if shown.contains(HudRow::Drop)
        && let Some(drop) = snapshot.drop
    {
        rows.push_value(
            HudRow::Drop,
            "DROP",
            snapshot.drop_grade(),
            format_args!("{}", PercentText(drop * 100.0)),
        );
    }
}

/// `AVG`, `1% LOW` and, from 1000 intervals, `0.1% LOW`.
fn push_lows_rows(rows: &mut FormattedRows, snapshot: &Snapshot) {
    if let Some(lows) = snapshot.lows {
        rows.push_value(
            HudRow::Lows,
            "AVG",
            None,
            format_args!("{:.1}", lows.avg_fps),
        );
        rows.push_value(
            HudRow::Lows,
            "1% LOW",
            None,
            format_args!("{:.1}", lows.low_1_percent_fps),
        );
        if let Some(low) = lows.low_0_1_percent_fps {
            rows.push_value(HudRow::Lows, "0.1% LOW", None, format_args!("{low:.1}"));
        }
    }
}

/// `LATENCY`: each frame's own request → end, its median and 95th percentile (never a sum of
/// the stages' medians); the latency bar follows it. "(UI)": no GPU end is known.
fn push_latency_row(rows: &mut FormattedRows, snapshot: &Snapshot) {
    let Some(total) = snapshot.latency_total else {
        return;
    };
    let end = match total.end {
        LatencyEnd::GpuEnd => "",
        LatencyEnd::UiEnd => " (UI)",
    };
    rows.push_value(
        HudRow::Latency,
        "LATENCY",
        None,
        format_args!(
            "{} · p95 {}{end}",
            DurationText(total.p50),
            DurationText(total.p95)
        ),
    );
}

/// `HITCH`, graded as Apple grades the hitch time ratio.
fn push_hitch_row(rows: &mut FormattedRows, snapshot: &Snapshot) {
    if let Some(hitch) = snapshot.hitch_ms_per_s {
        // Apple's grades: good up to 5 ms/s, warning to 10, critical beyond.
        let grade = if hitch <= 5.0 {
            Grade::Within
        } else if hitch < 10.0 {
            Grade::Over
        } else {
            Grade::FarOver
        };
        rows.push_value(
            HudRow::Hitch,
            "HITCH",
            Some(grade),
            format_args!("{hitch:.1} ms/s"),
        );
    }
}

/// `PHASES`: the CPU time per frame (the draw and the phases around it), then one line per
/// phase.
fn push_phase_rows(rows: &mut FormattedRows, snapshot: &Snapshot) {
    let Some(cpu_frame) = snapshot.cpu_frame else {
        return;
    };
    rows.push_value(
        HudRow::Phases,
        "PHASES",
        Some(Grade::of_duration(cpu_frame, snapshot.budget)),
        format_args!("{}", DurationText(cpu_frame)),
    );
    push_duration_lines(rows, &snapshot.cpu_phases, snapshot.budget, HudRow::Phases);
}

/// One indented line per GPU pass or CPU phase: "last mean/max ms" and a bar of the last
/// duration against the budget.
fn push_duration_lines(
    rows: &mut FormattedRows,
    readings: &[DurationReading],
    budget: Duration,
    kind: HudRow,
) {
    let budget_secs = budget.as_secs_f64();
    for reading in readings {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "a bar fraction needs no f64 precision"
        )]
        let fraction = (reading.last.as_secs_f64() / budget_secs) as f32;
        let name = Cow::Owned(rows.text(format_args!("{}", reading.label)));
        // "last avg/max": one unit for the three, so the line fits the HUD's width.
        let value = rows.text(format_args!(
            "{} {}/{} ms",
            MillisText(reading.last),
            MillisText(reading.mean),
            MillisText(reading.max)
        ));
        rows.push(ReadoutRow {
            name,
            value,
            grade: None,
            indented: true,
            budget_fraction: Some(fraction),
            kind: Some(kind),
        });
    }
}

fn push_gpu_rows(rows: &mut FormattedRows, snapshot: &Snapshot) {
    // The busy share says where it comes from: "timer" (timestamps) or the platform counter.
    let source = match snapshot.gpu_busy_source {
        Some(GpuBusySource::ProcessCounter(name)) => name,
        Some(GpuBusySource::Timestamps) | None => "timer",
    };
    let value = match (snapshot.gpu_frame, snapshot.gpu_busy_percent) {
        (Some(frame), Some(busy)) => rows.text(format_args!(
            "{} · {} {source}",
            DurationText(frame),
            PercentText(busy)
        )),
        (Some(frame), None) => rows.text(format_args!("{}", DurationText(frame))),
        (None, Some(busy)) => rows.text(format_args!("{} {source}", PercentText(busy))),
        // Nothing timed and no counter: no GPU row at all (a missing capability hides its row).
        (None, None) => return,
    };
    rows.push(ReadoutRow::new(HudRow::Gpu, "GPU", value, None));
    // Both sources exist: the platform counter gets its own line under the timer's.
    if snapshot.gpu_busy_source == Some(GpuBusySource::Timestamps)
        && let (Some(busy), Some(source)) = (
            snapshot.gpu_process_busy_percent,
            snapshot.gpu_process_source,
        )
    {
        let value = rows.text(format_args!("{} {source}", PercentText(busy)));
        rows.push(ReadoutRow {
            name: Cow::Borrowed("process"),
            value,
            grade: None,
            indented: true,
            budget_fraction: None,
            kind: Some(HudRow::Gpu),
        });
    }
    push_duration_lines(rows, &snapshot.gpu_passes, snapshot.budget, HudRow::Gpu);
    if let Some(bound) = snapshot.bound {
        let verdict = match bound {
            Bound::Cpu => "CPU",
            Bound::Gpu => "GPU",
            Bound::Neither => "neither",
        };
        rows.push_value(HudRow::Gpu, "BOUND", None, format_args!("{verdict}"));
    }
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

    /// WHY sits after INV (last without INV), and two refreshes of the same rows, WHY
    /// included, write each row into the string it had: nothing is allocated for them.
    #[test]
    fn why_follows_inv_and_refreshes_reuse_every_string() {
        use crate::repaint::why_reading::RepaintSiteRate;
        let mut snapshot = Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pin"));
        snapshot.frame = Some(Duration::from_millis(3));
        snapshot.inv = Some(1.0);
        snapshot.cpu_percent = Some(12.0);
        let why = WhyReading {
            top_sites: vec![RepaintSiteRate {
                file: "src/app.rs",
                line: 7,
                reason: None,
                per_sec: 60.0,
            }],
            ..WhyReading::default()
        };
        let shown = RowList::new(&HudRow::ALL);
        let names = |rows: &FormattedRows| -> Vec<String> {
            rows.as_slice()
                .iter()
                .map(|r| format!("{} {}", r.name, r.value))
                .collect()
        };
        let mut rows = FormattedRows::default();
        rows.fill(&snapshot, shown, Some(&why));
        assert_eq!(
            names(&rows),
            ["FRAME 3.00 ms", "INV 1.00", "WHY app.rs:7 60/s", "CPU 12 %"]
        );
        let strings = |rows: &FormattedRows| -> Vec<*const u8> {
            rows.as_slice()
                .iter()
                .map(|row| row.value.as_ptr())
                .collect()
        };
        let first = strings(&rows);
        rows.fill(&snapshot, shown, Some(&why));
        assert_eq!(strings(&rows), first, "each row's string back in its row");

        snapshot.inv = None;
        rows.fill(&snapshot, shown, Some(&why));
        assert_eq!(
            names(&rows),
            ["FRAME 3.00 ms", "CPU 12 %", "WHY app.rs:7 60/s"]
        );
    }

    /// Rows made with strings of their own (the benchmark card's) do not pile up: what is kept
    /// for the next refresh is at most the strings of the rows cleared.
    #[test]
    fn kept_strings_are_bounded_by_the_rows() {
        let mut rows = FormattedRows::default();
        for _ in 0..100 {
            rows.clear();
            rows.push_value(HudRow::Frame, "FRAME", None, format_args!("3 ms"));
            rows.push(ReadoutRow::note("BENCH", "a string of its own".to_owned()));
        }
        rows.clear();
        assert_eq!(rows.spare.len(), 2, "the two rows' strings, no more");
    }

    /// The rows `shown` makes of `snapshot`.
    fn rows_of(snapshot: &Snapshot, shown: RowList) -> Vec<ReadoutRow> {
        let mut rows = FormattedRows::default();
        rows.fill(snapshot, shown, None);
        rows.as_slice().to_vec()
    }

    #[test]
    fn the_gpu_row_names_its_source_and_shows_both() {
        let mut snapshot = Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pin"));
        snapshot.gpu_frame = Some(Duration::from_millis(4));
        snapshot.gpu_busy_percent = Some(24.0);
        snapshot.gpu_busy_source = Some(GpuBusySource::Timestamps);
        snapshot.gpu_process_busy_percent = Some(31.0);
        snapshot.gpu_process_source = Some("NVML");
        let rows = rows_of(&snapshot, RowList::new(&HudRow::ALL));
        let values: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.name.as_ref(), r.value.as_str()))
            .collect();
        assert_eq!(
            values,
            [("GPU", "4.00 ms · 24 % timer"), ("process", "31 % NVML")]
        );
        snapshot.gpu_frame = None;
        snapshot.gpu_busy_percent = Some(31.0);
        snapshot.gpu_busy_source = Some(GpuBusySource::ProcessCounter("NVML"));
        let rows = rows_of(&snapshot, RowList::new(&HudRow::ALL));
        assert_eq!(rows.len(), 1, "the counter alone: one line");
        assert_eq!(rows[0].value, "31 % NVML");
    }

    /// Only the rows shown are formatted: with every readout known, the compact preset's rows
    /// come out alone, in order; number only formats none.
    #[test]
    fn only_the_rows_shown_are_formatted() {
        let mut snapshot = Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pin"));
        let ms = Duration::from_millis;
        snapshot.interval = Some(ms(16));
        snapshot.frame = Some(ms(3));
        snapshot.p95 = Some(ms(5));
        snapshot.drop = Some(0.0);
        snapshot.inv = Some(1.0);
        snapshot.hitch_ms_per_s = Some(0.0);
        snapshot.gpu_frame = Some(ms(2));
        snapshot.cpu_percent = Some(12.0);
        snapshot.memory_bytes = Some(1 << 20);
        let names = |shown: &[HudRow]| -> Vec<String> {
            rows_of(&snapshot, RowList::new(shown))
                .iter()
                .map(|row| row.name.to_string())
                .collect()
        };
        assert_eq!(
            names(&HudRow::ALL).len(),
            9,
            "every readout given has its row"
        );
        let compact = crate::view::hud_preset::HudPreset::Compact.rows();
        assert_eq!(names(compact), ["FRAME", "P95", "GPU", "CPU", "MEM"]);
        assert!(names(&[]).is_empty(), "number only formats no row");
    }

    #[test]
    fn unknown_readouts_have_no_row() {
        let snapshot = Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pin"));
        assert!(
            rows_of(&snapshot, RowList::new(&HudRow::ALL)).is_empty(),
            "an empty snapshot has no row"
        );
    }
}
