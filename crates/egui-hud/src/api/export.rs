//! Exports of the retained frames (CSV, Chrome trace for Perfetto): copied under the plugin's
//! lock, written by profiler-core's writers without it.

use std::io::Write;
use std::path::{Path, PathBuf};

use profiler_core::record::export_format::ExportFormat;
use profiler_core::record::retained_frames::RetainedFrames;

use crate::plugin::frame_plugin::FramePlugin;

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
/// window is copied under the HUD's lock (tens of µs at capacity 120; first the frames the
/// HUD kept since its last read are recorded, a few frames' worth, counted as the HUD's own
/// cost), then written without it. For files written off the UI thread, see [`save_exports`].
///
/// # Errors
/// [`ExportError::NothingRetained`] when no HUD is shown, [`ExportError::Write`] when the
/// writer fails.
pub fn export(
    ctx: &egui::Context,
    format: ExportFormat,
    writer: &mut dyn Write,
) -> Result<usize, ExportError> {
    let retained = copy_retained(ctx)?;
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
    let retained = copy_retained(ctx)?;
    let directory = directory.into();
    let outcome = FramePlugin::with(ctx, |plugin| plugin.export_outcome());
    let spawned = std::thread::Builder::new()
        .name("egui-hud-export".to_owned())
        .spawn(move || {
            let result = save(&retained, &directory);
            if let Err(error) = &result {
                log::warn!("egui-hud: {error}");
            }
            // Shown at the HUD's next refresh: no frame is asked for.
            outcome.set(result.map_err(|e| e.to_string()));
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
    save(&copy_retained(ctx)?, directory.as_ref())
}

/// The result of the latest [`save_exports`]: the files written, or the error as text.
pub fn last_export(ctx: &egui::Context) -> Option<Result<Vec<PathBuf>, String>> {
    FramePlugin::with(ctx, |plugin| plugin.export_outcome()).latest()
}

/// The retained window of every viewport, copied under the plugin's lock.
fn copy_retained(ctx: &egui::Context) -> Result<RetainedFrames, ExportError> {
    FramePlugin::with(ctx, FramePlugin::copy_retained).ok_or(ExportError::NothingRetained)
}

/// Writes `egui-hud-<unix seconds>.csv` and `.json` into `directory`.
fn save(retained: &RetainedFrames, directory: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let stamp = profiler_core::SystemTime::now()
        .duration_since(profiler_core::SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    [ExportFormat::Csv, ExportFormat::ChromeTrace]
        .into_iter()
        .map(|format| {
            let path = directory.join(format!("egui-hud-{stamp}.{}", format.extension()));
            let write = || -> std::io::Result<()> {
                let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
                retained.write(format, &mut file)?;
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
