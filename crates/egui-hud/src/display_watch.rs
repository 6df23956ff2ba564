use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;
use profiler_core::DisplayRefreshQuery;

use crate::frame_plugin::FramePlugin;

/// Where the window was when the rate was asked for: its monitor's size and its outer position.
type WindowGeometry = (Option<egui::Vec2>, Option<egui::Pos2>);

/// Asks the platform for the refresh rate of the display the window is on, off the UI thread,
/// and asks again when the window may have moved to another display (its monitor size or
/// position changed). Kept by the HUD's plugin; the answer goes to the root viewport's HUD.
#[derive(Clone)]
pub(crate) struct DisplayWatch {
    query: Arc<DisplayRefreshQuery>,
    running: Arc<AtomicBool>,
    /// The window geometry at the last question: monitor size and outer position.
    asked_for: Arc<Mutex<Option<WindowGeometry>>>,
}

impl DisplayWatch {
    pub(crate) fn start(ctx: &egui::Context, query: DisplayRefreshQuery) {
        let watch = Self {
            query: Arc::new(query),
            running: Arc::new(AtomicBool::new(false)),
            asked_for: Arc::new(Mutex::new(None)),
        };
        watch.ask(ctx, None);
        FramePlugin::with(ctx, |plugin| plugin.display_watch = Some(watch));
    }

    /// Called on the root viewport's refresh tick (the window handle given to `install` is its
    /// window): asks again if the window's display may have changed.
    pub(crate) fn check(&self, ctx: &egui::Context) {
        let geometry = ctx.input(|i| {
            let viewport = i.viewport();
            (viewport.monitor_size, viewport.outer_rect.map(|r| r.min))
        });
        let previous = self.asked_for.lock().replace(geometry);
        // The first tick only learns where the window is: `start` already asked.
        if previous.is_some_and(|previous| previous != geometry) {
            self.ask(ctx, Some(geometry));
        }
    }

    fn ask(&self, ctx: &egui::Context, geometry: Option<WindowGeometry>) {
        if self.running.swap(true, Ordering::AcqRel) {
            // One question at a time; forget the geometry so the next tick asks again.
            if geometry.is_some() {
                *self.asked_for.lock() = Some((None, None));
            }
            return;
        }
        let (ctx, query, running) = (
            ctx.clone(),
            Arc::clone(&self.query),
            Arc::clone(&self.running),
        );
        let spawned = std::thread::Builder::new()
            .name("egui-hud-refresh-rate".to_owned())
            .spawn(move || {
                // An X11 round trip takes 3–36 ms: never on the UI thread.
                let refresh_hz = query.refresh_hz();
                FramePlugin::with(&ctx, |plugin| {
                    plugin
                        .hud_mut(egui::ViewportId::ROOT)
                        .set_refresh_hz(refresh_hz);
                });
                running.store(false, Ordering::Release);
            });
        if let Err(error) = spawned {
            self.running.store(false, Ordering::Release);
            log::warn!("egui-hud: cannot ask for the refresh rate ({error}); MAX FPS unclamped");
        }
    }
}
