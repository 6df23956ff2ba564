use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;
use profiler_core::DisplayRefreshQuery;

use crate::hud_state::HudState;

/// Where the window was when the rate was asked for: its monitor's size and its outer position.
type WindowGeometry = (Option<egui::Vec2>, Option<egui::Pos2>);

/// Asks the platform for the refresh rate of the display the window is on, off the UI thread,
/// and asks again when the window may have moved to another display (its monitor size or
/// position changed). Kept in egui memory; the answer goes to the root viewport's HUD.
#[derive(Clone)]
pub(crate) struct DisplayWatch {
    query: Arc<DisplayRefreshQuery>,
    running: Arc<AtomicBool>,
    /// The window geometry at the last question: monitor size and outer position.
    asked_for: Arc<Mutex<Option<WindowGeometry>>>,
}

impl DisplayWatch {
    fn id() -> egui::Id {
        egui::Id::unique("egui_hud_display_watch")
    }

    pub(crate) fn start(ctx: &egui::Context, query: DisplayRefreshQuery) {
        let watch = Self {
            query: Arc::new(query),
            running: Arc::new(AtomicBool::new(false)),
            asked_for: Arc::new(Mutex::new(None)),
        };
        ctx.data_mut(|d| d.insert_temp(Self::id(), watch.clone()));
        watch.ask(ctx, None);
    }

    /// Called on the HUD's refresh tick: asks again if the window's display may have changed.
    /// Only the root viewport is watched: the window handle given to `install` is its window.
    pub(crate) fn check(ctx: &egui::Context) {
        if ctx.viewport_id() != egui::ViewportId::ROOT {
            return;
        }
        let Some(watch) = ctx.data(|d| d.get_temp::<Self>(Self::id())) else {
            return;
        };
        let geometry = ctx.input(|i| {
            let viewport = i.viewport();
            (viewport.monitor_size, viewport.outer_rect.map(|r| r.min))
        });
        let previous = watch.asked_for.lock().replace(geometry);
        // The first tick only learns where the window is: `start` already asked.
        if previous.is_some_and(|previous| previous != geometry) {
            watch.ask(ctx, Some(geometry));
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
                HudState::get_or_insert_for(&ctx, egui::ViewportId::ROOT)
                    .lock()
                    .set_refresh_hz(refresh_hz);
                running.store(false, Ordering::Release);
            });
        if let Err(error) = spawned {
            self.running.store(false, Ordering::Release);
            log::warn!("egui-hud: cannot ask for the refresh rate ({error}); MAX FPS unclamped");
        }
    }
}
