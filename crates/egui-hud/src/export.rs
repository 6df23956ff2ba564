use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use profiler_core::{Clock, Instant, LatencyStage};
use serde_json::{Value, json};

use crate::frame_phases::{FramePhases, PhaseStart};
use crate::frame_plugin::FramePlugin;
use crate::frame_trace::FrameTrace;
use crate::spike::Spike;

/// The formats [`export`] writes; see `docs/export.md` for every column and event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// One row per retained frame: times, CPU phases, latency stages, GPU passes, causes.
    Csv,
    /// Chrome's Trace Event Format (JSON), for Perfetto and `chrome://tracing`: frames and CPU
    /// phases on a CPU track per viewport, GPU passes on a GPU track, spikes as instants.
    ChromeTrace,
}

impl ExportFormat {
    /// The file extension: `csv` or `json`.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::ChromeTrace => "json",
        }
    }
}

impl std::fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Csv => "CSV",
            Self::ChromeTrace => "Chrome trace",
        })
    }
}

/// Why an export failed. Nothing the HUD retains is lost by a failed export.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// No HUD samples any viewport of this context.
    #[error(
        "nothing to export: the HUD is not shown (call fps_monitor(ctx) in the frames to export)"
    )]
    NothingRetained,
    /// The writer or the file failed.
    #[error(
        "cannot write the {format} export{}: {source}; check that the directory exists, is writable and has free space",
        .path.as_ref().map(|p| format!(" to {}", p.display())).unwrap_or_default()
    )]
    Write {
        /// The format being written.
        format: ExportFormat,
        /// The file, when the HUD chose it.
        path: Option<PathBuf>,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// Writes the frames every viewport's HUD retains (as many as its capacity, default 120) and
/// its spikes in `format` to `writer`; returns the number of frames written. The retained
/// window is copied under the HUD's lock (tens of µs at capacity 120), then written without
/// it. For files written off the UI thread, see [`save_exports`].
///
/// # Errors
/// [`ExportError::NothingRetained`] when no HUD is shown, [`ExportError::Write`] when the
/// writer fails.
pub fn export(
    ctx: &egui::Context,
    format: ExportFormat,
    writer: &mut dyn Write,
) -> Result<usize, ExportError> {
    let retained = Retained::copy(ctx).ok_or(ExportError::NothingRetained)?;
    retained
        .write(format, writer)
        .map_err(|source| ExportError::Write {
            format,
            path: None,
            source,
        })
}

/// Writes `egui-hud-<unix seconds>.csv` and `.json` (Chrome trace) into `directory` on a
/// background thread: the calling frame only copies the retained window. The result (the
/// paths, or the error) shows in the HUD for five seconds and is returned by
/// [`last_export`]. A failure loses nothing the HUD retains.
///
/// # Errors
/// [`ExportError::NothingRetained`] when no HUD is shown (the copy is the only synchronous
/// part).
pub fn save_exports(ctx: &egui::Context, directory: impl Into<PathBuf>) -> Result<(), ExportError> {
    let retained = Retained::copy(ctx).ok_or(ExportError::NothingRetained)?;
    let directory = directory.into();
    let outcome = Arc::clone(&FramePlugin::with(ctx, |plugin| {
        Arc::clone(&plugin.last_export)
    }));
    let spawned = std::thread::Builder::new()
        .name("egui-hud-export".to_owned())
        .spawn(move || {
            let result = retained.save(&directory);
            if let Err(error) = &result {
                log::warn!("egui-hud: {error}");
            }
            // Shown at the HUD's next refresh: no frame is asked for.
            *outcome.lock() = Some((result.map_err(|e| e.to_string()), Instant::now()));
        });
    if let Err(error) = spawned {
        log::warn!("egui-hud: cannot start the export thread: {error}");
    }
    Ok(())
}

/// [`save_exports`] on the calling thread: writes both files into `directory` now and returns
/// their paths.
///
/// # Errors
/// [`ExportError::NothingRetained`] when no HUD is shown; [`ExportError::Write`] with the path
/// when a file cannot be written (a missing or read-only directory, a full disk).
pub fn save_exports_now(
    ctx: &egui::Context,
    directory: impl AsRef<Path>,
) -> Result<Vec<PathBuf>, ExportError> {
    Retained::copy(ctx)
        .ok_or(ExportError::NothingRetained)?
        .save(directory.as_ref())
}

/// The result of the latest [`save_exports`]: the files written, or the error as text.
pub fn last_export(ctx: &egui::Context) -> Option<Result<Vec<PathBuf>, String>> {
    let outcome = FramePlugin::with(ctx, |plugin| Arc::clone(&plugin.last_export));
    outcome.lock().as_ref().map(|(result, _)| result.clone())
}

/// The outcome of the latest background export and when it came.
pub(crate) type ExportOutcome =
    Arc<parking_lot::Mutex<Option<(Result<Vec<PathBuf>, String>, Instant)>>>;

/// A copy of what the HUDs retain: per viewport, its frames and spikes and the clock their
/// times are on.
struct Retained {
    viewports: Vec<ViewportFrames>,
}

struct ViewportFrames {
    viewport: egui::ViewportId,
    frames: Vec<FrameTrace>,
    spikes: Vec<Spike>,
    clock: Arc<dyn Clock>,
    gpu_clock_uncertainty: Option<Duration>,
}

impl Retained {
    fn copy(ctx: &egui::Context) -> Option<Self> {
        let viewports = FramePlugin::with(ctx, |plugin| {
            plugin
                .sampling_huds()
                .map(|(viewport, hud)| ViewportFrames {
                    viewport,
                    frames: hud.log.retained().iter().cloned().collect(),
                    spikes: hud.log.spikes().iter().cloned().collect(),
                    clock: hud.clock(),
                    gpu_clock_uncertainty: hud.gpu_clock_uncertainty,
                })
                .collect::<Vec<_>>()
        });
        (!viewports.is_empty()).then_some(Self { viewports })
    }

    fn write(&self, format: ExportFormat, writer: &mut dyn Write) -> std::io::Result<usize> {
        match format {
            ExportFormat::Csv => self.write_csv(writer),
            ExportFormat::ChromeTrace => self.write_trace(writer),
        }
    }

    fn save(&self, directory: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let stamp = profiler_core::SystemTime::now()
            .duration_since(profiler_core::SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        [ExportFormat::Csv, ExportFormat::ChromeTrace]
            .into_iter()
            .map(|format| {
                let path = directory.join(format!("egui-hud-{stamp}.{}", format.extension()));
                let write = || -> std::io::Result<()> {
                    let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
                    self.write(format, &mut file)?;
                    file.flush()
                };
                write().map_err(|source| ExportError::Write {
                    format,
                    path: Some(path.clone()),
                    source,
                })?;
                Ok(path)
            })
            .collect()
    }

    /// One header, one row per frame of every viewport.
    fn write_csv(&self, w: &mut dyn Write) -> std::io::Result<usize> {
        let mut phase_names: Vec<String> = Vec::new();
        let mut pass_names: Vec<String> = Vec::new();
        for frame in self.viewports.iter().flat_map(|v| &v.frames) {
            collect_names(frame.cpu.as_ref().map(|c| &c.1), &mut phase_names);
            collect_names(frame.gpu.as_ref().map(|g| &g.1), &mut pass_names);
        }
        write!(
            w,
            "viewport,frame,start_s,wall_clock_unix_s,draw_ms,handoff_interval_ms,cpu_ms,gpu_ms,invalidations,passes,spike"
        )?;
        for stage in LatencyStage::ALL {
            write!(w, ",stage_{}_ms", stage.name())?;
        }
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
        for viewport in &self.viewports {
            for frame in &viewport.frames {
                let start = frame.marks.frame_start;
                let spike = viewport.spikes.iter().any(|s| Some(s.at) == start);
                let wall = frame
                    .wall_clock
                    .duration_since(profiler_core::SystemTime::UNIX_EPOCH)
                    .map(|d| format!("{:.6}", d.as_secs_f64()))
                    .unwrap_or_default();
                write!(
                    w,
                    "{:?},{},{},{wall},{},{},{},{},{},{},{}",
                    viewport.viewport,
                    frame.sequence,
                    start
                        .map(|s| format!("{:.6}", s.as_secs_f64()))
                        .unwrap_or_default(),
                    ms(Some(frame.draw)),
                    ms(frame.handoff_interval),
                    ms(frame.cpu.as_ref().map(|c| c.0)),
                    ms(frame.gpu.as_ref().map(|g| g.0)),
                    frame.invalidations,
                    frame.passes,
                    u8::from(spike),
                )?;
                for stage in LatencyStage::ALL {
                    let nanos = frame.marks.stage_nanos(stage);
                    match nanos {
                        Some(nanos) => write!(w, ",{:.4}", nanos as f64 / 1e6)?,
                        None => write!(w, ",")?,
                    }
                }
                write_named(w, frame.cpu.as_ref().map(|c| &c.1), &phase_names)?;
                write_named(w, frame.gpu.as_ref().map(|g| &g.1), &pass_names)?;
                let sites = |sites: &mut dyn Iterator<Item = &crate::frame_trace::CauseSite>| {
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
            "name": "process_name", "ph": "M", "pid": 1, "tid": 0,
            "args": { "name": "egui-hud" },
        })];
        let mut frames = 0;
        for (index, viewport) in self.viewports.iter().enumerate() {
            let index = u64::try_from(index).unwrap_or(u64::MAX);
            let (cpu_tid, gpu_tid) = (2 * index + 1, 2 * index + 2);
            for (tid, track) in [(cpu_tid, "CPU"), (gpu_tid, "GPU")] {
                events.push(json!({
                    "name": "thread_name", "ph": "M", "pid": 1, "tid": tid,
                    "args": { "name": format!("{track} {:?}", viewport.viewport) },
                }));
            }
            let mut cpu = Vec::new();
            let mut gpu = Vec::new();
            for frame in &viewport.frames {
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
                            PhaseStart::Instant(at) => viewport.clock.time_of(at),
                        });
                        if let Some(start) = start {
                            spans.push(Span {
                                name: phase.name.as_str().to_owned(),
                                start,
                                end: start + phase.duration,
                                args: json!({
                                    "occurrences": phase.occurrences,
                                    "calibration_uncertainty_us": viewport
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
            for spike in &viewport.spikes {
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
