//! Wayland: `wp_presentation` feedback on the app's own `wl_surface`.
//!
//! A feedback object must be made on the connection that owns the surface (object ids are per
//! connection) and before the commit that carries the frame, so this source wraps the app's
//! `wl_display` (`Backend::from_foreign_display`) with an event queue of its own, and asks for one
//! feedback per frame at the end of the frame's final pass: the renderer's `wl_surface.commit`
//! follows it on the same connection, so the compositor ties the feedback to that commit. Each
//! feedback carries the frame's sequence number. The app's event loop reads the socket; this
//! queue's events are dispatched without blocking when the HUD polls.

#![expect(
    unsafe_code,
    reason = "wrapping the app's wl_display and wl_surface takes their raw pointers"
)]

use std::ptr::NonNull;
use std::time::Duration;

use wayland_client::backend::{Backend, ObjectId};
use wayland_client::protocol::{wl_registry, wl_surface};
use wayland_client::{Connection, Dispatch, EventQueue, Proxy, QueueHandle, WEnum};
use wayland_protocols::wp::presentation_time::client::{wp_presentation, wp_presentation_feedback};

use crate::presentation::monotonic_anchor::MonotonicAnchor;
use crate::presentation::presentation_error::PresentationError;
use crate::presentation::presentation_matcher::{FeedbackFor, PresentationFeedback};
use crate::presentation::presented_frame::{
    PresentationFlags, PresentationOutcome, PresentedFrame,
};

/// The clocks a compositor may name (`wp_presentation.clock_id`, Linux's ids) whose readings
/// can be placed on the HUD's clock: `CLOCK_MONOTONIC` (DRM compositors), `CLOCK_MONOTONIC_RAW`
/// (weston's software clock, used by its headless backend) and `CLOCK_MONOTONIC_COARSE`. Wall
/// clocks (`CLOCK_REALTIME`, `CLOCK_TAI`) jump, `CLOCK_BOOTTIME` counts suspend: refused.
const PLACEABLE_CLOCKS: [(u32, rustix::time::ClockId); 3] = [
    (1, rustix::time::ClockId::Monotonic),
    (4, rustix::time::ClockId::MonotonicRaw),
    (6, rustix::time::ClockId::MonotonicCoarse),
];

/// Reports kept between two polls; more (the HUD not polling for 64 frames) are dropped and
/// their frames end as unknown.
const MAX_QUEUED: usize = 64;

/// The version of `wp_presentation` asked for: 1 has everything used here.
const WP_PRESENTATION_VERSION: u32 = 1;

/// The feedback source of one Wayland window.
pub(super) struct WaylandSource {
    queue: EventQueue<Reports>,
    /// The queue's handle, kept: each frame's feedback is made on it.
    handle: QueueHandle<Reports>,
    reports: Reports,
    presentation: wp_presentation::WpPresentation,
    surface: wl_surface::WlSurface,
}

impl std::fmt::Debug for WaylandSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WaylandSource")
            .field("surface", &self.surface.id())
            .field("queued", &self.reports.queued.len())
            .finish_non_exhaustive()
    }
}

/// What the queue's dispatch fills.
#[derive(Debug)]
struct Reports {
    /// The compositor's presentation clock (`wp_presentation.clock_id`), once it said.
    clock_id: Option<u32>,
    /// That clock, once checked.
    clock: rustix::time::ClockId,
    /// The `wp_presentation` global: its name and version, once the registry listed it.
    global: Option<(u32, u32)>,
    queued: Vec<PresentationFeedback>,
    dropped: u64,
    anchor: MonotonicAnchor,
}

impl WaylandSource {
    /// Wraps the app's display and surface, binds `wp_presentation` and checks its clock (one
    /// round trip on this source's own queue).
    pub(super) fn new(
        display: NonNull<std::ffi::c_void>,
        surface: NonNull<std::ffi::c_void>,
    ) -> Result<Self, PresentationError> {
        // SAFETY: the pointer is the live `wl_display` of the app's window, handed out by its
        // raw-window-handle; a foreign display is never closed by this backend, and the app's
        // event loop (which owns it) outlives the egui context that holds the HUD.
        let backend = unsafe { Backend::from_foreign_display(display.as_ptr().cast()) };
        let connection = Connection::from_backend(backend);
        // SAFETY: the pointer is the window's live `wl_surface` proxy (raw-window-handle); its
        // interface is checked by `from_ptr`, and winit's surface carries a liveness flag that
        // makes requests on it fail, not dangle, once the window is gone.
        let surface_id = unsafe {
            ObjectId::from_ptr(wl_surface::WlSurface::interface(), surface.as_ptr().cast())
        }
        .map_err(|_| PresentationError::WaylandSurface)?;
        let surface = wl_surface::WlSurface::from_id(&connection, surface_id)
            .map_err(|_| PresentationError::WaylandSurface)?;

        let mut queue = connection.new_event_queue();
        let handle = queue.handle();
        let mut reports = Reports {
            clock_id: None,
            clock: rustix::time::ClockId::Monotonic,
            global: None,
            queued: Vec::with_capacity(MAX_QUEUED),
            dropped: 0,
            anchor: MonotonicAnchor::now(rustix::time::ClockId::Monotonic),
        };
        let registry = connection.display().get_registry(&handle, ());
        queue
            .roundtrip(&mut reports)
            .map_err(|error| PresentationError::WaylandRequest(Box::new(error)))?;
        let Some((name, version)) = reports.global else {
            return Err(PresentationError::WaylandNoPresentation);
        };
        let presentation = registry.bind::<wp_presentation::WpPresentation, (), Reports>(
            name,
            version.min(WP_PRESENTATION_VERSION),
            &handle,
            (),
        );
        queue
            .roundtrip(&mut reports)
            .map_err(|error| PresentationError::WaylandRequest(Box::new(error)))?;
        reports.clock = check_clock(reports.clock_id)?;
        Ok(Self {
            queue,
            handle,
            reports,
            presentation,
            surface,
        })
    }

    /// Asks for the feedback of the frame about to be committed.
    pub(super) fn frame_committing(&mut self, sequence: u64) {
        // The object lives until its `presented` or `discarded` event (both destructors).
        let _feedback = self
            .presentation
            .feedback(&self.surface, &self.handle, sequence);
    }

    /// The reports dispatched since the last call, oldest first.
    pub(super) fn poll(
        &mut self,
        mut out: impl FnMut(PresentationFeedback),
    ) -> Result<(), PresentationError> {
        // Only what the app's event loop has read: reading here could deadlock, since
        // libwayland's read waits for every thread that prepared a read, and the loop may hold
        // one (calloop's Wayland source does while it dispatches).
        // Anchored afresh: a clock other than CLOCK_MONOTONIC drifts from it.
        self.reports.anchor = MonotonicAnchor::now(self.reports.clock);
        self.queue
            .dispatch_pending(&mut self.reports)
            .map_err(|error| PresentationError::WaylandRequest(Box::new(error)))?;
        for feedback in self.reports.queued.drain(..) {
            out(feedback);
        }
        Ok(())
    }

    /// Reports dropped because the HUD did not poll in time.
    pub(super) fn dropped(&self) -> u64 {
        self.reports.dropped
    }
}

/// The compositor's clock must be one this source can read (see [`PLACEABLE_CLOCKS`]):
/// another clock's times cannot be compared with the frame's marks.
fn check_clock(clock_id: Option<u32>) -> Result<rustix::time::ClockId, PresentationError> {
    let Some(clock_id) = clock_id else {
        return Err(PresentationError::WaylandRequest(
            "the compositor bound wp_presentation but never sent its clock_id".into(),
        ));
    };
    PLACEABLE_CLOCKS
        .iter()
        .find(|(id, _)| *id == clock_id)
        .map(|&(_, clock)| clock)
        .ok_or(PresentationError::WaylandClock { clock_id })
}

impl Reports {
    fn push(&mut self, feedback: PresentationFeedback) {
        if self.queued.len() == MAX_QUEUED {
            self.dropped += 1;
        } else {
            self.queued.push(feedback);
        }
    }
}

impl Dispatch<wl_registry::WlRegistry, ()> for Reports {
    fn event(
        state: &mut Self,
        _registry: &wl_registry::WlRegistry,
        event: wl_registry::Event,
        _data: &(),
        _connection: &Connection,
        _handle: &QueueHandle<Self>,
    ) {
        if let wl_registry::Event::Global {
            name,
            interface,
            version,
        } = event
            && interface == wp_presentation::WpPresentation::interface().name
        {
            state.global = Some((name, version));
        }
    }
}

impl Dispatch<wp_presentation::WpPresentation, ()> for Reports {
    fn event(
        state: &mut Self,
        _presentation: &wp_presentation::WpPresentation,
        event: wp_presentation::Event,
        _data: &(),
        _connection: &Connection,
        _handle: &QueueHandle<Self>,
    ) {
        if let wp_presentation::Event::ClockId { clk_id } = event {
            state.clock_id = Some(clk_id);
        }
    }
}

impl Dispatch<wp_presentation_feedback::WpPresentationFeedback, u64> for Reports {
    fn event(
        state: &mut Self,
        _feedback: &wp_presentation_feedback::WpPresentationFeedback,
        event: wp_presentation_feedback::Event,
        sequence: &u64,
        _connection: &Connection,
        _handle: &QueueHandle<Self>,
    ) {
        let outcome = match event {
            wp_presentation_feedback::Event::Presented {
                tv_sec_hi,
                tv_sec_lo,
                tv_nsec,
                refresh,
                seq_hi,
                seq_lo,
                flags,
            } => {
                let seconds = (u128::from(tv_sec_hi) << 32) | u128::from(tv_sec_lo);
                let nanos = seconds * 1_000_000_000 + u128::from(tv_nsec);
                let Some(on_screen) = state.anchor.instant_of(nanos) else {
                    return;
                };
                let flags = match flags {
                    WEnum::Value(kind) => PresentationFlags::from_bits(kind.bits()),
                    WEnum::Unknown(bits) => PresentationFlags::from_bits(bits),
                };
                PresentationOutcome::Shown(PresentedFrame {
                    on_screen,
                    refresh_period: (refresh > 0).then(|| Duration::from_nanos(refresh.into())),
                    refresh_counter: (u64::from(seq_hi) << 32) | u64::from(seq_lo),
                    flags,
                })
            }
            wp_presentation_feedback::Event::Discarded => PresentationOutcome::Discarded,
            // Which output showed it: the refresh period above already names its rate.
            _ => return,
        };
        state.push(PresentationFeedback {
            frame: FeedbackFor::Frame(*sequence),
            outcome,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::check_clock;
    use crate::presentation::presentation_error::PresentationError;

    #[test]
    fn only_monotonic_clocks_are_accepted() {
        assert_eq!(
            check_clock(Some(1)).ok(),
            Some(rustix::time::ClockId::Monotonic)
        );
        assert_eq!(
            check_clock(Some(4)).ok(),
            Some(rustix::time::ClockId::MonotonicRaw),
            "weston's software clock, placed through an anchor taken at each poll"
        );
        // CLOCK_REALTIME (0) jumps, CLOCK_BOOTTIME (7) counts suspend, CLOCK_TAI (11) is a
        // wall clock: not the HUD's clock.
        for clock_id in [0, 7, 11, 99] {
            assert!(
                matches!(
                    check_clock(Some(clock_id)),
                    Err(PresentationError::WaylandClock { clock_id: id }) if id == clock_id
                ),
                "clock {clock_id}"
            );
        }
        assert!(check_clock(None).is_err(), "no clock said");
    }
}
