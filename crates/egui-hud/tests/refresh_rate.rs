//! Each viewport gets the refresh rate of the monitor it is on: Xorg with the dummy driver and
//! two monitors (60 Hz, and `cvt 1280 720 144` = 143.67 Hz to its right). The root viewport's
//! window is on the first; a child viewport, which the HUD has no window handle for (as with
//! eframe's child viewports), is placed on the second, then moved onto the first.
//!
//! Without Xorg and its dummy driver the test prints why and passes, unless
//! `EGUI_HUD_REQUIRE_XORG=1` (CI) makes that a failure.
#![cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
#![expect(
    clippy::expect_used,
    clippy::print_stdout,
    reason = "test helpers: a failed step is a failed test, and a skip says why"
)]

#[path = "../../profiler-core/tests/support/x_server.rs"]
mod x_server;

use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use egui_hud::FpsMonitor;
use egui_hud::profiler_core::{DisplayRefreshQuery, Snapshot};
use raw_window_handle::{RawDisplayHandle, RawWindowHandle, XcbDisplayHandle, XcbWindowHandle};

const CVT_HZ: f64 = 198.75e6 / (1760.0 * 786.0);

/// A viewport's window as the integration describes it: the outer rectangle in points at
/// 1 pixel per point, on a monitor of `monitor_size`.
fn viewport_info(
    min: (f32, f32),
    size: (f32, f32),
    monitor_size: (f32, f32),
) -> egui::ViewportInfo {
    egui::ViewportInfo {
        outer_rect: Some(egui::Rect::from_min_size(min.into(), size.into())),
        inner_rect: Some(egui::Rect::from_min_size(min.into(), size.into())),
        native_pixels_per_point: Some(1.0),
        monitor_size: Some(monitor_size.into()),
        focused: Some(true),
        ..Default::default()
    }
}

fn child_id() -> egui::ViewportId {
    egui::ViewportId::from_hash_of("child")
}

/// Runs one frame of `viewport` with the HUD at `time_secs`, as an integration does for each
/// window (eframe runs a deferred child viewport's frames this way); returns the refresh rate
/// its HUD reads.
fn frame(
    ctx: &egui::Context,
    viewport: egui::ViewportId,
    info: &egui::ViewportInfo,
    time_secs: f64,
) -> Option<Snapshot> {
    let input = egui::RawInput {
        viewport_id: viewport,
        viewports: std::iter::once((viewport, info.clone())).collect(),
        screen_rect: info
            .inner_rect
            .map(|rect| egui::Rect::from_min_size(egui::Pos2::ZERO, rect.size())),
        time: Some(time_secs),
        ..Default::default()
    };
    let mut snapshot = None;
    let mut output = ctx.run_ui(input, |ui| {
        ui.label("app");
        if viewport == egui::ViewportId::ROOT {
            // As an app does every frame to keep its child window open; the integration (this
            // test) runs the child's frames.
            ui.ctx().show_viewport_deferred(
                child_id(),
                egui::ViewportBuilder::default(),
                |_, _| {},
            );
        }
        FpsMonitor::new().sample_resources(false).show(ui.ctx());
        snapshot = egui_hud::snapshot(ui.ctx());
    });
    output.textures_delta.clear();
    snapshot
}

/// Both viewports' refresh rates once both are known, `done` holds and both HUDs have counted
/// frames (a loaded machine can learn the rate before the warm-up is over), within 10 s.
fn run_until(
    ctx: &egui::Context,
    root: &egui::ViewportInfo,
    child: &egui::ViewportInfo,
    epoch: Instant,
    done: impl Fn(Option<f64>, Option<f64>) -> bool,
) -> (Option<f64>, Option<f64>) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let time_secs = epoch.elapsed().as_secs_f64();
        let root_snapshot = frame(ctx, egui::ViewportId::ROOT, root, time_secs);
        let child_snapshot = frame(ctx, child_id(), child, time_secs);
        let hz = |snapshot: &Option<Snapshot>| snapshot.as_ref().and_then(|s| s.refresh_hz);
        let (root_hz, child_hz) = (hz(&root_snapshot), hz(&child_snapshot));
        let counted = |snapshot: &Option<Snapshot>| {
            snapshot
                .as_ref()
                .is_some_and(|snapshot| snapshot.frame.is_some())
        };
        let settled =
            done(root_hz, child_hz) && counted(&root_snapshot) && counted(&child_snapshot);
        if settled || Instant::now() > deadline {
            // At a known rate the MISS row reads (this loop runs frames on its own), as every
            // frame row does, once frames are counted.
            for snapshot in [&root_snapshot, &child_snapshot].into_iter().flatten() {
                assert_eq!(
                    snapshot.missed_refreshes.is_some(),
                    snapshot.refresh_hz.is_some() && snapshot.frame.is_some(),
                    "MISS reads exactly when the rate is known and frames are counted: {snapshot:?}"
                );
            }
            return (root_hz, child_hz);
        }
        std::thread::sleep(Duration::from_millis(16));
    }
}

#[test]
fn a_child_viewport_gets_the_rate_of_the_monitor_it_is_on() {
    let server = match x_server::start_xorg_dummy() {
        Ok(server) => server,
        Err(reason) => return x_server::skip(&reason),
    };
    let second = x_server::disconnected_output(&server.xrandr(&[]));
    server.xrandr(&[&["--newmode"][..], &x_server::CVT_1280X720_144[..]].concat());
    server.xrandr(&["--addmode", &second, x_server::CVT_1280X720_144[0]]);
    server.xrandr(&[
        "--output",
        &second,
        "--mode",
        x_server::CVT_1280X720_144[0],
        "--pos",
        "1920x0",
    ]);

    // The root window: 640x480 at (100, 100), on the 60 Hz monitor.
    let window = x_server::create_window(&server.display_name);
    let query = DisplayRefreshQuery::from_raw_handles(
        RawWindowHandle::Xcb(XcbWindowHandle::new(
            NonZeroU32::new(window.window).expect("XIDs are never 0"),
        )),
        RawDisplayHandle::Xcb(XcbDisplayHandle::new(None, 0)),
    )
    .expect("X11 handles are accepted")
    .with_x11_display_name(&server.display_name);
    let ctx = egui::Context::default();
    ctx.set_embed_viewports(false);
    egui_hud::install_refresh_query(&ctx, egui::ViewportId::ROOT, query);

    let epoch = Instant::now();
    let root = viewport_info((100.0, 100.0), (640.0, 480.0), (1920.0, 1080.0));
    let on_second = viewport_info((2000.0, 100.0), (400.0, 300.0), (1280.0, 720.0));
    let (root_hz, child_hz) = run_until(&ctx, &root, &on_second, epoch, |root, child| {
        root.is_some() && child.is_some()
    });
    assert_eq!(
        root_hz,
        Some(60.0),
        "the root window is on the 60 Hz monitor"
    );
    let child_hz = child_hz.expect("the child viewport's rate is known");
    assert!(
        (child_hz - CVT_HZ).abs() < 1e-6,
        "the child viewport is on the 143.67 Hz monitor: {child_hz}"
    );

    // Moved onto the first monitor, the child asks again at its next refresh.
    let on_first = viewport_info((300.0, 200.0), (400.0, 300.0), (1920.0, 1080.0));
    let (root_hz, child_hz) = run_until(&ctx, &root, &on_first, epoch, |_, child| {
        child == Some(60.0)
    });
    assert_eq!(
        (root_hz, child_hz),
        (Some(60.0), Some(60.0)),
        "after the move both viewports are on the 60 Hz monitor"
    );
}
