use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// Where a readback buffer's map request stands, shared between the timer and wgpu's callback.
///
/// The callback only touches this atomic, never the timer's lock: wgpu fires callbacks inside
/// `submit`/`poll`, which may run while the app (or the timer itself) holds other locks.
#[derive(Clone, Debug, Default)]
pub(crate) struct MapSignal {
    state: Arc<AtomicU8>,
    /// Bumped each time a request settles (mapped, failed or abandoned), for a signal made
    /// [`Self::counting`]: a timer's count over all its signals, which it reads before it takes
    /// its locks to look for results (most frames, none have arrived).
    settled: Option<Arc<AtomicUsize>>,
}

/// The states a [`MapSignal`] can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MapState {
    /// Map requested (or will be on submit); the buffer must not be touched.
    Pending,
    /// Mapped: the contents can be read, then the buffer must be unmapped.
    Mapped,
    /// wgpu reported an error (device lost, buffer dropped): nothing to unmap.
    Failed,
    /// The command buffer carrying the request was dropped unsubmitted: no map was ever issued.
    Abandoned,
}

impl MapSignal {
    /// A signal that bumps `settled` whenever a request of its settles.
    pub(crate) fn counting(settled: Arc<AtomicUsize>) -> Self {
        Self {
            state: Arc::default(),
            settled: Some(settled),
        }
    }

    pub(crate) fn state(&self) -> MapState {
        match self.state.load(Ordering::Acquire) {
            0 => MapState::Pending,
            1 => MapState::Mapped,
            2 => MapState::Failed,
            _ => MapState::Abandoned,
        }
    }

    fn store(&self, state: MapState) {
        let raw = match state {
            MapState::Pending => 0,
            MapState::Mapped => 1,
            MapState::Failed => 2,
            MapState::Abandoned => 3,
        };
        self.state.store(raw, Ordering::Release);
        if state != MapState::Pending
            && let Some(settled) = &self.settled
        {
            // After the state: a reader that sees the count sees the state too.
            settled.fetch_add(1, Ordering::Release);
        }
    }

    /// Marks a new request and returns the callback to hand to wgpu for it.
    ///
    /// The callback owns a guard: if wgpu drops it uncalled (its encoder was never submitted) the
    /// signal becomes [`MapState::Abandoned`], so the slot is not stuck forever.
    pub(crate) fn arm(&self) -> impl FnOnce(Result<(), wgpu::BufferAsyncError>) + Send + 'static {
        self.store(MapState::Pending);
        let mut guard = MapGuard {
            signal: self.clone(),
            fired: false,
        };
        move |result| {
            guard.fired = true;
            guard.signal.store(if result.is_ok() {
                MapState::Mapped
            } else {
                MapState::Failed
            });
        }
    }
}

/// Reports [`MapState::Abandoned`] when dropped before its callback ran.
struct MapGuard {
    signal: MapSignal,
    fired: bool,
}

impl Drop for MapGuard {
    fn drop(&mut self) {
        if !self.fired {
            self.signal.store(MapState::Abandoned);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::{MapSignal, MapState};

    #[test]
    fn callback_outcomes_reach_the_signal() {
        let signal = MapSignal::default();
        let callback = signal.arm();
        assert_eq!(signal.state(), MapState::Pending);
        callback(Ok(()));
        assert_eq!(signal.state(), MapState::Mapped);

        let callback = signal.arm();
        callback(Err(wgpu::BufferAsyncError));
        assert_eq!(signal.state(), MapState::Failed);

        let callback = signal.arm();
        drop(callback);
        assert_eq!(signal.state(), MapState::Abandoned);
    }

    #[test]
    fn a_counting_signal_counts_each_settled_request_once() {
        let settled = Arc::new(AtomicUsize::new(0));
        let signal = MapSignal::counting(Arc::clone(&settled));
        let callback = signal.arm();
        assert_eq!(
            settled.load(Ordering::Acquire),
            0,
            "a request made is not settled"
        );
        callback(Ok(()));
        assert_eq!(settled.load(Ordering::Acquire), 1);
        signal.arm()(Err(wgpu::BufferAsyncError));
        assert_eq!(settled.load(Ordering::Acquire), 2);
        drop(signal.arm());
        assert_eq!(
            settled.load(Ordering::Acquire),
            3,
            "an abandoned request settles too"
        );
    }
}
