//! The thread that keeps the GPU clock's calibration fresh, started once with the timer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::Thread;

use gpu_timing::GpuTimer;

/// A thread that calibrates the GPU clock against the CPU's when asked
/// ([`GpuTimer::recalibrate_if_stale`]: a few blocking GPU round trips, so never on the UI
/// thread). Started once, when the timer is made, and asleep until asked (a timer nothing
/// reads is never calibrated); asking wakes it (one `unpark`).
///
/// Why a thread kept, not one started per calibration: in the demo on lavapipe, starting the
/// thread took 60 to 360 µs of the UI thread, in the HUD's refresh that asked (the first one,
/// then one every 10 s), more than the rest of that refresh; waking the kept one, 6 to 13 µs
/// (the first wake as much as a start: on two busy cores the woken thread takes the UI
/// thread's core for its first round trip).
///
/// Locking: none. Two atomics say what is asked (`running`: a calibration is asked for or
/// under way; `stop`: the last handle was dropped) and `unpark` wakes the thread; the timer's
/// own locks guard the calibration it writes.
pub(crate) struct CalibrationWorker {
    thread: Thread,
    shared: Arc<WorkerFlags>,
}

#[derive(Default)]
struct WorkerFlags {
    /// A calibration was asked for and has not finished.
    running: AtomicBool,
    /// The worker's owner is gone: the thread ends (dropping its handle on the timer).
    stop: AtomicBool,
}

impl CalibrationWorker {
    /// Starts the thread, which holds a handle on `timer` until it ends: at its first wake
    /// after this worker is dropped, so after the calibration under way, if any (the timer's
    /// last handle, and its `dispose`, may then be the thread's).
    ///
    /// # Errors
    /// The thread could not be started (a platform without threads, such as the web): the
    /// clocks are then never calibrated, and GPU times stay off the CPU timeline.
    pub(crate) fn start(timer: GpuTimer) -> std::io::Result<Self> {
        let shared = Arc::new(WorkerFlags::default());
        let flags = Arc::clone(&shared);
        let handle = std::thread::Builder::new()
            .name("egui-hud-gpu-calibration".to_owned())
            .spawn(move || {
                loop {
                    // Woken by `calibrate` or by the drop (an `unpark` that came first makes
                    // this return at once); a spurious wake finds nothing asked.
                    std::thread::park();
                    if flags.stop.load(Ordering::Acquire) {
                        return;
                    }
                    if flags.running.load(Ordering::Acquire) {
                        if let Err(error) = timer.recalibrate_if_stale() {
                            log::debug!("egui-hud: GPU clock calibration failed: {error}");
                        }
                        // Asked again before this store, the calibration just made served it.
                        flags.running.store(false, Ordering::Release);
                    }
                }
            })?;
        Ok(Self {
            thread: handle.thread().clone(),
            shared,
        })
    }

    /// Asks for a calibration unless one is under way. Never blocks: an atomic, and an
    /// `unpark` when asking.
    pub(crate) fn calibrate(&self) {
        if !self.shared.running.swap(true, Ordering::AcqRel) {
            self.thread.unpark();
        }
    }
}

impl Drop for CalibrationWorker {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.thread.unpark();
    }
}
