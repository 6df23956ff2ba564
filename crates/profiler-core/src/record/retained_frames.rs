//! The CSV and Chrome-trace writers, over a copy of the retained frames.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::Clock;
use crate::latency_stage::LatencyStage;
use crate::latency_total::LatencyEnd;
use crate::record::export_format::ExportFormat;
use crate::record::frame_phases::{FramePhases, PhaseStart};
use crate::record::frame_trace::{CauseSite, FrameTrace};
use crate::record::spike::Spike;

/// A copy of retained frames, one track per viewport (or any other source), for the exports:
/// copied under the owner's lock, then written without it.
pub struct RetainedFrames {
    /// The tracks, in the order they are written.
    pub tracks: Vec<TrackFrames>,
}

/// One track's frames and spikes, and the clock their times are on.
pub struct TrackFrames {
    /// The track's name: the CSV's `viewport` column, the Chrome trace's thread names.
    pub name: String,
    /// Its retained frames, oldest first.
    pub frames: Vec<FrameTrace>,
    /// Its spikes, oldest first.
    pub spikes: Vec<Spike>,
    /// The clock the frames' times are on (GPU pass starts are placed on it).
    pub clock: Arc<dyn Clock>,
    /// The GPU clock calibration's uncertainty, carried into each GPU pass's event.
    pub gpu_clock_uncertainty: Option<Duration>,
}

impl RetainedFrames {
    /// Writes every track in `format` to `writer`; returns the number of frames written.
    /// Allocates the output's text (an export, not a per-frame path).
    ///
    /// # Errors
    /// What `writer` returns.
    pub fn write(&self, format: ExportFormat, writer: &mut dyn Write) -> std::io::Result<usize> {
        match format {
            ExportFormat::Csv => self.write_csv(writer),
            ExportFormat::ChromeTrace => self.write_trace(writer),
        }
    }

    /// One header, one row per frame of every track.
    fn write_csv(&self, w: &mut dyn Write) -> std::io::Result<usize> {
        let mut phase_names: Vec<String> = Vec::new();
        let mut pass_names: Vec<String> = Vec::new();
        for frame in self.tracks.iter().flat_map(|v| &v.frames) {
            collect_names(frame.cpu.as_ref().map(|c| &c.1), &mut phase_names);
            collect_names(frame.gpu.as_ref().map(|g| &g.1), &mut pass_names);
        }
        write!(
            w,
            "viewport,frame,start_s,wall_clock_unix_s,draw_ms,hud_ms,handoff_interval_ms,cpu_ms,gpu_ms,invalidations,passes,spike"
        )?;
        for stage in LatencyStage::ALL {
            write!(w, ",stage_{}_ms", stage.name())?;
        }
        write!(w, ",latency_to_gpu_end_ms,latency_to_ui_end_ms,on_screen_s")?;
        for name in &phase_names {
            write!(w, ",{}", csv_field(&format!("phase:{name}_ms")))?;
        }
        for name in &pass_names {
            write!(w, ",{}", csv_field(&format!("gpu:{name}_ms")))?;
        }
        writeln!(w, ",woke_by,discard_reasons")?;
        let ms = |d: Option<Duration>| {
            d.map(|d| format!("{:.4}", d.as_secs_f64() * 1e3))
                .unwrap_or_default()
        };
        let mut rows = 0;
        for track in &self.tracks {
            for frame in &track.frames {
                let start = frame.marks.frame_start;
                let spike = track.spikes.iter().any(|s| Some(s.at) == start);
                let wall = frame
                    .wall_clock
                    .duration_since(crate::SystemTime::UNIX_EPOCH)
                    .map(|d| format!("{:.6}", d.as_secs_f64()))
                    .unwrap_or_default();
                write!(
                    w,
                    "{},{},{},{wall},{},{},{},{},{},{},{},{}",
                    csv_field(&track.name),
                    frame.sequence,
                    start
                        .map(|s| format!("{:.6}", s.as_secs_f64()))
                        .unwrap_or_default(),
                    ms(Some(frame.draw)),
                    ms(Some(frame.overlay_cost)),
                    ms(frame.handoff_interval),
                    ms(frame.cpu.as_ref().map(|c| c.0)),
                    ms(frame.gpu.as_ref().map(|g| g.0)),
                    frame.invalidations,
                    frame.passes,
                    u8::from(spike),
                )?;
                let spans = LatencyStage::ALL
                    .iter()
                    .map(|&stage| frame.marks.stage_nanos(stage))
                    .chain(
                        [LatencyEnd::GpuEnd, LatencyEnd::UiEnd]
                            .map(|end| frame.marks.latency_nanos(end)),
                    );
                for nanos in spans {
                    match nanos {
                        Some(nanos) => write!(w, ",{:.4}", nanos as f64 / 1e6)?,
                        None => write!(w, ",")?,
                    }
                }
                match frame.marks.on_screen {
                    Some(on_screen) => write!(w, ",{:.6}", on_screen.as_secs_f64())?,
                    None => write!(w, ",")?,
                }
                write_named(w, frame.cpu.as_ref().map(|c| &c.1), &phase_names)?;
                write_named(w, frame.gpu.as_ref().map(|g| &g.1), &pass_names)?;
                let sites = |sites: &mut dyn Iterator<Item = &CauseSite>| {
                    sites
                        .map(|s| {
                            format!("{}:{} {}", s.file, s.line, s.reason)
                                .trim_end()
                                .to_owned()
                        })
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                writeln!(
                    w,
                    ",{},{}",
                    csv_field(&sites(&mut frame.causes.woke_by())),
                    csv_field(&sites(&mut frame.causes.discards()))
                )?;
                rows += 1;
            }
        }
        Ok(rows)
    }

    /// Trace Event Format: `{"traceEvents": [...], "displayTimeUnit": "ms"}`, times in µs on
    /// the HUD's clock.
    fn write_trace(&self, w: &mut dyn Write) -> std::io::Result<usize> {
        let mut events = vec![json!({
            "name": "process_name", "ph": "M", "pid": 1, "tid": 0, "ts": 0,
            "args": { "name": "egui-hud" },
        })];
        let mut frames = 0;
        for (index, track) in self.tracks.iter().enumerate() {
            let index = u64::try_from(index).unwrap_or(u64::MAX);
            let (cpu_tid, gpu_tid) = (2 * index + 1, 2 * index + 2);
            for (tid, kind) in [(cpu_tid, "CPU"), (gpu_tid, "GPU")] {
                events.push(json!({
                    "name": "thread_name", "ph": "M", "pid": 1, "tid": tid, "ts": 0,
                    "args": { "name": format!("{kind} {}", track.name) },
                }));
            }
            let mut cpu = Vec::new();
            let mut gpu = Vec::new();
            for frame in &track.frames {
                let (Some(start), Some(end)) = (frame.marks.frame_start, frame.marks.ui_end) else {
                    continue;
                };
                frames += 1;
                cpu.push(Span {
                    name: format!("frame {}", frame.sequence),
                    start,
                    end,
                    args: json!({
                        "draw_ms": frame.draw.as_secs_f64() * 1e3,
                        "hud_ms": frame.overlay_cost.as_secs_f64() * 1e3,
                        "cpu_ms": frame.cpu.as_ref().map(|c| c.0.as_secs_f64() * 1e3),
                        "gpu_ms": frame.gpu.as_ref().map(|g| g.0.as_secs_f64() * 1e3),
                        "passes": frame.passes,
                        "invalidations": frame.invalidations,
                    }),
                });
                for (phases, spans) in [
                    (frame.cpu.as_ref().map(|c| &c.1), &mut cpu),
                    (frame.gpu.as_ref().map(|g| &g.1), &mut gpu),
                ] {
                    for phase in phases.into_iter().flat_map(FramePhases::entries) {
                        let start = phase.first_start.and_then(|s| match s {
                            PhaseStart::Clock(at) => Some(at),
                            PhaseStart::Instant(at) => track.clock.time_of(at),
                        });
                        if let Some(start) = start {
                            spans.push(Span {
                                name: phase.name.as_str().to_owned(),
                                start,
                                end: start + phase.duration,
                                args: json!({
                                    "occurrences": phase.occurrences,
                                    "calibration_uncertainty_us": track
                                        .gpu_clock_uncertainty
                                        .map(|u| u.as_secs_f64() * 1e6),
                                }),
                            });
                        }
                    }
                }
            }
            for (tid, spans) in [(cpu_tid, cpu), (gpu_tid, gpu)] {
                for span in nested(spans) {
                    events.push(json!({
                        "name": span.name, "cat": "egui-hud", "ph": "X", "pid": 1, "tid": tid,
                        "ts": micros(span.start),
                        "dur": micros(span.end.saturating_sub(span.start)),
                        "args": span.args,
                    }));
                }
            }
            // A display track, when the window system reported frames: an instant when each
            // frame was shown (tids after every CPU and GPU track, so theirs do not move).
            let display_tid = 2 * u64::try_from(self.tracks.len()).unwrap_or(u64::MAX) + 1 + index;
            let mut display_named = false;
            for frame in &track.frames {
                let Some(on_screen) = frame.marks.on_screen else {
                    continue;
                };
                if !std::mem::replace(&mut display_named, true) {
                    events.push(json!({
                        "name": "thread_name", "ph": "M", "pid": 1, "tid": display_tid, "ts": 0,
                        "args": { "name": format!("Display {}", track.name) },
                    }));
                }
                events.push(json!({
                    "name": "on screen", "cat": "egui-hud", "ph": "i", "s": "t", "pid": 1,
                    "tid": display_tid, "ts": micros(on_screen),
                    "args": { "frame": frame.sequence },
                }));
            }
            for spike in &track.spikes {
                events.push(json!({
                    "name": "spike", "cat": "egui-hud", "ph": "i", "s": "t", "pid": 1,
                    "tid": cpu_tid, "ts": micros(spike.at),
                    "args": { "summary": spike.summary() },
                }));
            }
        }
        serde_json::to_writer(
            &mut *w,
            &json!({ "traceEvents": events, "displayTimeUnit": "ms" }),
        )?;
        Ok(frames)
    }
}

/// An event with a span on one track.
struct Span {
    name: String,
    start: Duration,
    end: Duration,
    args: Value,
}

/// The spans that nest on one track, in start order: a span that starts inside another and
/// ends after it (a phase timed several times, a render phase that overlaps the next
/// frame) is left out, so that viewers draw the track as a proper stack.
fn nested(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut open: Vec<Duration> = Vec::new();
    let mut kept = Vec::with_capacity(spans.len());
    for span in spans {
        while open.last().is_some_and(|&end| end <= span.start) {
            open.pop();
        }
        if open.last().is_some_and(|&end| span.end > end) {
            continue;
        }
        open.push(span.end);
        kept.push(span);
    }
    kept
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn collect_names(phases: Option<&FramePhases>, names: &mut Vec<String>) {
    for (name, _) in phases.into_iter().flat_map(FramePhases::iter) {
        if !names.iter().any(|known| known == name) {
            names.push(name.to_owned());
        }
    }
}

fn write_named(
    w: &mut dyn Write,
    phases: Option<&FramePhases>,
    names: &[String],
) -> std::io::Result<()> {
    for name in names {
        let duration = phases
            .into_iter()
            .flat_map(FramePhases::iter)
            .find(|(known, _)| known == name)
            .map(|(_, d)| d);
        match duration {
            Some(d) => write!(w, ",{:.4}", d.as_secs_f64() * 1e3)?,
            None => write!(w, ",")?,
        }
    }
    Ok(())
}

/// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}
