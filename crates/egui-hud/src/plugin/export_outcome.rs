use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use profiler_core::Instant;

/// How long the HUD shows the outcome of a background export.
const NOTE_FOR: Duration = Duration::from_secs(5);

/// The outcome of the latest background export and when it came, shared with the export
/// thread that writes it.
///
/// ## Locking
/// One mutex, held only to read or replace the outcome: by the export thread when it is done,
/// by the HUD's refresh and by `last_export`.
#[derive(Clone, Default)]
pub(crate) struct ExportOutcome(Arc<Mutex<Option<Outcome>>>);

/// The files written (or the error as text), and when.
type Outcome = (Result<Vec<PathBuf>, String>, Instant);

impl ExportOutcome {
    /// The export finished with `result` (the files written, or the error as text).
    pub(crate) fn set(&self, result: Result<Vec<PathBuf>, String>) {
        *self.0.lock() = Some((result, Instant::now()));
    }

    /// The latest outcome, if any.
    pub(crate) fn latest(&self) -> Option<Result<Vec<PathBuf>, String>> {
        self.0.lock().as_ref().map(|(result, _)| result.clone())
    }

    /// The HUD's note on the latest outcome ("saved …" / "failed: …") for a few seconds after
    /// it came; allocates only then.
    pub(crate) fn note(&self) -> Option<String> {
        self.0.lock().as_ref().and_then(|(result, at)| {
            (at.elapsed() < NOTE_FOR).then(|| match result {
                Ok(paths) => format!(
                    "saved {}",
                    paths
                        .first()
                        .and_then(|p| p.file_stem())
                        .map(|stem| stem.to_string_lossy().into_owned())
                        .unwrap_or_default()
                ),
                Err(error) => format!("failed: {error}"),
            })
        })
    }
}
