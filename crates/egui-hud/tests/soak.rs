//! 100 000 frames through the shown HUD (animating spells, idle spells where only its ticks
//! wake the app, clicks on its readout): live heap memory stays flat.
#![expect(
    unsafe_code,
    reason = "a counting global allocator is the only way to observe live heap bytes"
)]
#![expect(clippy::disallowed_methods, reason = "the test app animates")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;

use egui_hud::FpsMonitor;
use egui_hud::profiler_core::{Clock, ManualClock};

struct LiveBytes;

static LIVE: AtomicIsize = AtomicIsize::new(0);

fn signed(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

// SAFETY: forwards to the system allocator unchanged; only counts bytes.
unsafe impl GlobalAlloc for LiveBytes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(signed(layout.size()), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(signed(layout.size()), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(signed(new_size) - signed(layout.size()), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: LiveBytes = LiveBytes;

fn click_at(pos: egui::Pos2, button: egui::PointerButton) -> Vec<egui::Event> {
    let press = |pressed| egui::Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    vec![egui::Event::PointerMoved(pos), press(true), press(false)]
}

#[test]
fn a_hundred_thousand_frames_keep_memory_flat() {
    let ctx = egui::Context::default();
    let clock = Arc::new(ManualClock::new());
    let mut time_secs = 0.0;
    let mut live_at = Vec::new();
    for frame in 0..100_000_u32 {
        // Idle for 40 frames in every 1000: then only the HUD's ticks run, 0.5 s apart.
        let animating = frame % 1000 < 960;
        let mut events = Vec::new();
        if frame % 997 == 0 {
            // The big number sits near the top-right corner: collapse or switch it.
            let button = if frame % 2 == 0 {
                egui::PointerButton::Primary
            } else {
                egui::PointerButton::Secondary
            };
            events = click_at(egui::pos2(640.0, 24.0), button);
        }
        let input = egui::RawInput {
            time: Some(time_secs),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            events,
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            ui.label("soak");
            clock.advance(Duration::from_millis(3));
            if animating {
                ui.ctx().request_repaint();
            }
            FpsMonitor::new()
                .sample_resources(false)
                .clock(Arc::clone(&clock) as Arc<dyn Clock>)
                .show(ui.ctx());
        });
        output.textures_delta.clear();
        let delay = output.viewport_output[&egui::ViewportId::ROOT].repaint_delay;
        time_secs += delay.as_secs_f64().clamp(1.0 / 60.0, 1.0);
        if frame % 20_000 == 19_999 {
            live_at.push(LIVE.load(Ordering::Relaxed));
        }
    }
    let snapshot = egui_hud::snapshot(&ctx).expect("the HUD reads");
    assert!(snapshot.samples <= 120, "{snapshot:?}");
    assert!(snapshot.self_induced_frames > 1000, "{snapshot:?}");
    let first = live_at[0];
    for (i, &live) in live_at.iter().enumerate() {
        // egui keeps per-frame caches that breathe by a few kilobytes; growth would be
        // per-frame state that is never freed.
        assert!(
            (live - first).abs() < 64 * 1024,
            "live heap bytes after {} frames: {live}, after 20 000: {first}",
            (i + 1) * 20_000
        );
    }
}
