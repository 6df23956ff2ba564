use std::borrow::Cow;
use std::fmt::Write as _;
use std::time::Duration;

use profiler_core::{Bound, DurationReading, GpuBusySource, Grade, LatencyEnd, Snapshot};

use crate::repaint::why_reading::WhyReading;
use crate::view::hud_row::HudRow;
use crate::view::row_list::RowList;

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

    /// The rows of `shown` for a snapshot, in display order; a readout that is `None` has no
    /// row (GPU passes that cannot be timed here have none either; the hover text says why).
    /// A row not shown is not formatted: the default preset shows 7 of about 20.
    pub(crate) fn from_snapshot(snapshot: &Snapshot, shown: RowList) -> Vec<Self> {
        let mut rows = Vec::with_capacity(shown.rows().len() + 4);
        if shown.contains(HudRow::Interval)
            && let Some(interval) = snapshot.interval
        {
            rows.push(Self::new(
                HudRow::Interval,
                "INTERVAL",
                format_duration(interval),
                None,
            ));
        }
        if shown.contains(HudRow::Frame)
            && let Some(frame) = snapshot.frame
        {
            rows.push(Self::new(
                HudRow::Frame,
                "FRAME",
                format_duration(frame),
                snapshot.frame_grade(),
            ));
        }
        if shown.contains(HudRow::P95)
            && let Some(p95) = snapshot.p95
        {
            rows.push(Self::new(
                HudRow::P95,
                "P95",
                format_duration(p95),
                snapshot.p95_grade(),
            ));
        }
        if shown.contains(HudRow::Drop)
            && let Some(drop) = snapshot.drop
        {
            rows.push(Self::new(
                HudRow::Drop,
                "DROP",
                format_percent(drop * 100.0),
                snapshot.drop_grade(),
            ));
        }
        if shown.contains(HudRow::Lows) {
            push_lows_rows(&mut rows, snapshot);
        }
        if shown.contains(HudRow::Inv)
            && let Some(inv) = snapshot.inv
        {
            rows.push(Self::new(HudRow::Inv, "INV", format!("{inv:.2}"), None));
        }
        if shown.contains(HudRow::Miss)
            && let (Some(missed), Some(share)) = (snapshot.missed_refreshes, snapshot.missed_frames)
        {
            // Graded like DROP: a frame that missed a refresh was shown late.
            rows.push(Self::new(
                HudRow::Miss,
                "MISS",
                format!("{missed} · {}", format_percent(share * 100.0)),
                Some(Grade::of_drop_fraction(share)),
            ));
        }
        if shown.contains(HudRow::Hitch) {
            push_hitch_row(&mut rows, snapshot);
        }
        if shown.contains(HudRow::Displayed)
            && let Some(presentation) = &snapshot.presentation
            && let (Some(p50), Some(fps)) = (presentation.displayed_p50, presentation.displayed_fps)
        {
            rows.push(Self::new(
                HudRow::Displayed,
                "DISPLAYED",
                format!("{} · {fps:.1}", format_duration(p50)),
                None,
            ));
        }
        if shown.contains(HudRow::Phases) {
            push_phase_rows(&mut rows, snapshot);
        }
        if shown.contains(HudRow::Gpu) {
            push_gpu_rows(&mut rows, snapshot);
        }
        if shown.contains(HudRow::Cpu)
            && let Some(cpu) = snapshot.cpu_percent
        {
            rows.push(Self::new(HudRow::Cpu, "CPU", format_percent(cpu), None));
        }
        if shown.contains(HudRow::Mem)
            && let Some(bytes) = snapshot.memory_bytes
        {
            rows.push(Self::new(HudRow::Mem, "MEM", format_bytes(bytes), None));
        }
        if shown.contains(HudRow::Latency) {
            push_latency_row(&mut rows, snapshot);
        }
        rows
    }

    /// The WHY row: the busiest call site and its rate (the rest are in the hover text), or
    /// "idle" when the app asked for nothing. Placed after INV, which it explains.
    pub(crate) fn push_why(rows: &mut Vec<Self>, why: &WhyReading) {
        let value = match why.top_sites.first() {
            Some(site) => {
                let more = why.top_sites.len() - 1;
                let more = if more > 0 {
                    format!(" +{more}")
                } else {
                    String::new()
                };
                format!("{} {:.0}/s{more}", site.short_location(), site.per_sec)
            }
            None => "idle".to_owned(),
        };
        let at = rows
            .iter()
            .position(|row| row.name == "INV")
            .map_or(rows.len(), |inv| inv + 1);
        rows.insert(at, Self::new(HudRow::Why, "WHY", value, None));
    }
}

/// `PHASES`: the CPU time per frame (the draw and the phases around it), then one line per
/// phase.
/// `AVG`, `1% LOW` and, from 1000 intervals, `0.1% LOW`.
fn push_lows_rows(rows: &mut Vec<ReadoutRow>, snapshot: &Snapshot) {
    if let Some(lows) = snapshot.lows {
        rows.push(ReadoutRow::new(
            HudRow::Lows,
            "AVG",
            format!("{:.1}", lows.avg_fps),
            None,
        ));
        rows.push(ReadoutRow::new(
            HudRow::Lows,
            "1% LOW",
            format!("{:.1}", lows.low_1_percent_fps),
            None,
        ));
        if let Some(low) = lows.low_0_1_percent_fps {
            rows.push(ReadoutRow::new(
                HudRow::Lows,
                "0.1% LOW",
                format!("{low:.1}"),
                None,
            ));
        }
    }
}

/// `LATENCY`: each frame's own request → end, its median and 95th percentile (never a sum of
/// the stages' medians); the latency bar follows it. "(UI)": no GPU end is known.
fn push_latency_row(rows: &mut Vec<ReadoutRow>, snapshot: &Snapshot) {
    let Some(total) = snapshot.latency_total else {
        return;
    };
    let end = match total.end {
        LatencyEnd::GpuEnd => "",
        LatencyEnd::UiEnd => " (UI)",
    };
    rows.push(ReadoutRow::new(
        HudRow::Latency,
        "LATENCY",
        format!(
            "{} · p95 {}{end}",
            format_duration(total.p50),
            format_duration(total.p95)
        ),
        None,
    ));
}

/// `HITCH`, graded as Apple grades the hitch time ratio.
fn push_hitch_row(rows: &mut Vec<ReadoutRow>, snapshot: &Snapshot) {
    if let Some(hitch) = snapshot.hitch_ms_per_s {
        // Apple's grades: good up to 5 ms/s, warning to 10, critical beyond.
        let grade = if hitch <= 5.0 {
            Grade::Within
        } else if hitch < 10.0 {
            Grade::Over
        } else {
            Grade::FarOver
        };
        rows.push(ReadoutRow::new(
            HudRow::Hitch,
            "HITCH",
            format!("{hitch:.1} ms/s"),
            Some(grade),
        ));
    }
}

fn push_phase_rows(rows: &mut Vec<ReadoutRow>, snapshot: &Snapshot) {
    let Some(cpu_frame) = snapshot.cpu_frame else {
        return;
    };
    rows.push(ReadoutRow::new(
        HudRow::Phases,
        "PHASES",
        format_duration(cpu_frame),
        Some(Grade::of_duration(cpu_frame, snapshot.budget)),
    ));
    push_duration_lines(rows, &snapshot.cpu_phases, snapshot.budget, HudRow::Phases);
}

/// One indented line per GPU pass or CPU phase: "last mean/max ms" and a bar of the last
/// duration against the budget.
fn push_duration_lines(
    rows: &mut Vec<ReadoutRow>,
    readings: &[DurationReading],
    budget: Duration,
    kind: HudRow,
) {
    let budget_secs = budget.as_secs_f64();
    for reading in readings {
        // "last avg/max": one unit for the three, so the line fits the HUD's width.
        let mut value = format_millis(reading.last);
        let _ = write!(
            value,
            " {}/{} ms",
            format_millis(reading.mean),
            format_millis(reading.max)
        );
        #[expect(
            clippy::cast_possible_truncation,
            reason = "a bar fraction needs no f64 precision"
        )]
        let fraction = (reading.last.as_secs_f64() / budget_secs) as f32;
        rows.push(ReadoutRow {
            name: Cow::Owned(reading.label.clone()),
            value,
            grade: None,
            indented: true,
            budget_fraction: Some(fraction),
            kind: Some(kind),
        });
    }
}

fn push_gpu_rows(rows: &mut Vec<ReadoutRow>, snapshot: &Snapshot) {
    // The busy share says where it comes from: "timer" (timestamps) or the platform counter.
    let busy = snapshot.gpu_busy_percent.map(|busy| {
        let source = match snapshot.gpu_busy_source {
            Some(GpuBusySource::ProcessCounter(name)) => name,
            Some(GpuBusySource::Timestamps) | None => "timer",
        };
        format!("{} {source}", format_percent(busy))
    });
    let value = match (snapshot.gpu_frame, busy) {
        (Some(frame), Some(busy)) => format!("{} · {busy}", format_duration(frame)),
        (Some(frame), None) => format_duration(frame),
        (None, Some(busy)) => busy,
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
        rows.push(ReadoutRow {
            name: Cow::Borrowed("process"),
            value: format!("{} {source}", format_percent(busy)),
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
        rows.push(ReadoutRow::new(
            HudRow::Gpu,
            "BOUND",
            verdict.to_owned(),
            None,
        ));
    }
}

/// Three significant digits, in the unit a person reads fastest.
pub(crate) fn format_duration(duration: Duration) -> String {
    let micros = duration.as_secs_f64() * 1e6;
    if micros < 1_000.0 {
        format!("{micros:.0} µs")
    } else if micros < 10_000.0 {
        format!("{:.2} ms", micros / 1e3)
    } else if micros < 100_000.0 {
        format!("{:.1} ms", micros / 1e3)
    } else {
        format!("{:.0} ms", micros / 1e3)
    }
}

/// Milliseconds with three significant digits, no unit.
fn format_millis(duration: Duration) -> String {
    let millis = duration.as_secs_f64() * 1e3;
    if millis < 10.0 {
        format!("{millis:.2}")
    } else if millis < 100.0 {
        format!("{millis:.1}")
    } else {
        format!("{millis:.0}")
    }
}

pub(crate) fn format_percent(percent: f64) -> String {
    if percent < 10.0 {
        format!("{percent:.1} %")
    } else {
        format!("{percent:.0} %")
    }
}

pub(crate) fn format_bytes(bytes: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    let mib = bytes as f64 / MIB;
    if mib < 1024.0 {
        format!("{mib:.1} MiB")
    } else {
        format!("{:.2} GiB", mib / 1024.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_three_digits() {
        assert_eq!(format_duration(Duration::from_micros(18)), "18 µs");
        assert_eq!(format_duration(Duration::from_micros(4_213)), "4.21 ms");
        assert_eq!(format_duration(Duration::from_micros(16_667)), "16.7 ms");
        assert_eq!(format_duration(Duration::from_millis(250)), "250 ms");
        assert_eq!(format_percent(3.33), "3.3 %");
        assert_eq!(format_percent(150.2), "150 %");
        assert_eq!(format_bytes(85 * 1024 * 1024), "85.0 MiB");
        assert_eq!(format_bytes(3 * 1024 * 1024 * 1024), "3.00 GiB");
    }

    #[test]
    fn the_gpu_row_names_its_source_and_shows_both() {
        let mut snapshot = Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pin"));
        snapshot.gpu_frame = Some(Duration::from_millis(4));
        snapshot.gpu_busy_percent = Some(24.0);
        snapshot.gpu_busy_source = Some(GpuBusySource::Timestamps);
        snapshot.gpu_process_busy_percent = Some(31.0);
        snapshot.gpu_process_source = Some("NVML");
        let rows = ReadoutRow::from_snapshot(&snapshot, RowList::new(&HudRow::ALL));
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
        let rows = ReadoutRow::from_snapshot(&snapshot, RowList::new(&HudRow::ALL));
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
            ReadoutRow::from_snapshot(&snapshot, RowList::new(shown))
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
            ReadoutRow::from_snapshot(&snapshot, RowList::new(&HudRow::ALL)).is_empty(),
            "an empty snapshot has no row"
        );
    }
}
