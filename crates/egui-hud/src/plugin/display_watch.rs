use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;
use profiler_core::{DisplayRefreshQuery, ScreenArea};

/// Where a watch reports the rate it found: the viewport's state, set under the plugin's lock
/// (`FramePlugin::set_refresh_hz_of`), handed in so that the watch does not know the plugin.
pub(crate) type ReportRefreshHz = fn(&egui::Context, egui::ViewportId, Option<f64>);

/// Where a viewport's window was when the rate was asked for: its monitor's size, its outer
/// rectangle in points, and its native pixels per point.
type WindowGeometry = (Option<egui::Vec2>, Option<egui::Rect>, Option<f32>);

/// Asks the platform for the refresh rate of the display one viewport's window is on, off the
/// UI thread, and asks again when the window may have moved to another display (its monitor
/// size, position or scale changed). Kept by the HUD's plugin, one per viewport; the answer
/// goes to that viewport's HUD.
///
/// A viewport whose window the HUD has a handle for (the root, after `install`, or any after
/// `install_viewport_window`) is asked about by that handle. Any other viewport (eframe's child
/// viewports) is asked about by the area its `ViewportInfo::outer_rect` covers, through the root
/// window's query: the display under it on the same window system.
#[derive(Clone)]
pub(crate) struct DisplayWatch {
    viewport: egui::ViewportId,
    report: ReportRefreshHz,
    query: Arc<DisplayRefreshQuery>,
    placement: Placement,
    running: Arc<AtomicBool>,
    /// The window geometry at the last question.
    asked_for: Arc<Mutex<Option<WindowGeometry>>>,
}

/// How the watched window is found on the desktop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    /// The query names the viewport's own window.
    OwnWindow,
    /// The query names another window: ask about the viewport's outer rectangle instead.
    Area,
}

impl DisplayWatch {
    /// Watches `viewport`'s own window, which `query` was built from; asks at once, and
    /// hands each answer to `report`.
    pub(crate) fn start(
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        query: DisplayRefreshQuery,
        report: ReportRefreshHz,
    ) -> Self {
        let watch = Self {
            viewport,
            report,
            query: Arc::new(query),
            placement: Placement::OwnWindow,
            running: Arc::new(AtomicBool::new(false)),
            asked_for: Arc::new(Mutex::new(None)),
        };
        watch.ask(ctx, None);
        watch
    }

    /// A watch for `viewport`, which has no window handle of its own, asking through `self`'s
    /// query by area. Call it in a pass of `viewport`: it asks at once, where the window is now.
    pub(crate) fn for_viewport_by_area(&self, ctx: &egui::Context) -> Self {
        let watch = Self {
            viewport: ctx.viewport_id(),
            report: self.report,
            query: Arc::clone(&self.query),
            placement: Placement::Area,
            running: Arc::new(AtomicBool::new(false)),
            asked_for: Arc::new(Mutex::new(None)),
        };
        let geometry = current_geometry(ctx);
        *watch.asked_for.lock() = Some(geometry);
        watch.ask(ctx, Some(geometry));
        watch
    }

    /// Called on the watched viewport's refresh tick, in its pass: asks again if its window's
    /// display may have changed.
    pub(crate) fn check(&self, ctx: &egui::Context) {
        debug_assert_eq!(
            ctx.viewport_id(),
            self.viewport,
            "checked in another viewport's pass"
        );
        let geometry = current_geometry(ctx);
        let previous = self.asked_for.lock().replace(geometry);
        // A window watch's first tick only learns where the window is: `start` already asked.
        if previous.is_some_and(|previous| previous != geometry) {
            self.ask(ctx, Some(geometry));
        }
    }

    fn ask(&self, ctx: &egui::Context, geometry: Option<WindowGeometry>) {
        if self.running.swap(true, Ordering::AcqRel) {
            // One question at a time; forget the geometry so the next tick asks again.
            if geometry.is_some() {
                *self.asked_for.lock() = Some((None, None, None));
            }
            return;
        }
        let area = match (self.placement, geometry) {
            (Placement::Area, Some((_, Some(outer), Some(pixels_per_point)))) => Some(
                ScreenArea::from_points(outer.min.into(), outer.max.into(), pixels_per_point),
            ),
            // Wayland hides window positions; its answer does not depend on the window.
            _ => None,
        };
        let (ctx, query, running, viewport, report) = (
            ctx.clone(),
            Arc::clone(&self.query),
            Arc::clone(&self.running),
            self.viewport,
            self.report,
        );
        let spawned = std::thread::Builder::new()
            .name("egui-hud-refresh-rate".to_owned())
            .spawn(move || {
                // An X11 round trip takes 3–36 ms: never on the UI thread.
                let refresh_hz = match area {
                    Some(area) => query.at_area(area).refresh_hz(),
                    None => query.refresh_hz(),
                };
                report(&ctx, viewport, refresh_hz);
                running.store(false, Ordering::Release);
            });
        if let Err(error) = spawned {
            self.running.store(false, Ordering::Release);
            log::warn!("egui-hud: cannot ask for the refresh rate ({error}); MAX FPS unclamped");
        }
    }
}

/// Where the current viewport's window is now.
fn current_geometry(ctx: &egui::Context) -> WindowGeometry {
    ctx.input(|i| {
        let viewport = i.viewport();
        (
            viewport.monitor_size,
            viewport.outer_rect,
            viewport.native_pixels_per_point,
        )
    })
}
