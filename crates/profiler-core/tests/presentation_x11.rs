//! The X11 presentation source against a real X server: a test window that presents pixmaps
//! itself with the Present extension (as Mesa's DRI3 GL and Vulkan paths do) under Xvfb, read
//! by the source over its own connection.
//!
//! Xvfb's Present runs on a fake vblank clock, so every present completes, in order, with a
//! UST on `CLOCK_MONOTONIC` and an increasing MSC. When Xvfb is missing or cannot start, the
//! test prints why and passes, unless `EGUI_HUD_REQUIRE_XORG=1` (set by CI) makes it fail.
#![cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
#![expect(
    clippy::expect_used,
    clippy::print_stdout,
    reason = "test helpers: a failed step is a failed test, and the figures go to the test log"
)]

#[path = "support/x_server.rs"]
mod x_server;

use std::time::{Duration, Instant};

use profiler_core::presentation::{
    CommittedFrame, MatchedPresentation, PresentationOutcome, PresentationSource,
};
use x11rb::connection::Connection as _;
use x11rb::protocol::present::ConnectionExt as _;
use x11rb::protocol::xproto::{ConnectionExt as _, CreateWindowAux, WindowClass};
use x11rb::wrapper::ConnectionExt as _;

use x_server::{XServer, find_in_path, skip};

/// Presents of the test window.
const PRESENTS: u64 = 12;

#[test]
fn a_window_presenting_pixmaps_is_read_one_completion_per_present() {
    let Some(xvfb) = find_in_path("Xvfb") else {
        return skip("Xvfb is not installed (package xvfb)");
    };
    let server = match XServer::start(&xvfb, &["-screen", "0", "640x480x24", "-nolisten", "tcp"]) {
        Ok(server) => server,
        Err(reason) => return skip(&reason),
    };
    // The app's side: a window, a pixmap of its size, its own connection.
    let (app, screen_number) = x11rb::connect(Some(&server.display_name)).expect("connects");
    let screen = &app.setup().roots[screen_number];
    let window = app.generate_id().expect("an XID");
    app.create_window(
        x11rb::COPY_DEPTH_FROM_PARENT,
        window,
        screen.root,
        0,
        0,
        320,
        200,
        0,
        WindowClass::INPUT_OUTPUT,
        x11rb::COPY_FROM_PARENT,
        &CreateWindowAux::new(),
    )
    .expect("create_window");
    app.map_window(window).expect("map_window");
    let pixmap = app.generate_id().expect("an XID");
    app.create_pixmap(screen.root_depth, pixmap, window, 320, 200)
        .expect("create_pixmap");
    app.present_query_version(1, 0)
        .expect("Present is there")
        .reply()
        .expect("Present answers");
    app.sync().expect("the server made them");

    let mut source = PresentationSource::for_x11_window(Some(&server.display_name), window)
        .expect("the X11 source selects the window's completions");
    assert_eq!(source.name(), "X11 Present");

    let mut matched: Vec<(MatchedPresentation, Instant, Instant)> = Vec::new();
    for sequence in 1..=PRESENTS {
        let before = Instant::now();
        let frame = CommittedFrame {
            sequence,
            committed_at: before,
            counted: true,
            back_to_back: true,
        };
        source.frame_committing(frame, |m| panic!("no frame waits long: {m:?}"));
        let serial = u32::try_from(sequence).expect("small");
        app.present_pixmap(window, pixmap, serial, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, &[])
            .expect("present_pixmap");
        app.flush().expect("flush");
        // Wait for its completion (the fake vblank is 60 Hz).
        let deadline = before + Duration::from_secs(5);
        let mut reports = Vec::new();
        while reports.is_empty() && Instant::now() < deadline {
            source.poll(|m| reports.push(m)).expect("the source reads");
            std::thread::sleep(Duration::from_millis(1));
        }
        let after = Instant::now();
        assert_eq!(
            reports.len(),
            1,
            "one completion for present {sequence}: {reports:?}"
        );
        matched.push((reports[0], before, after));
    }

    let last_msc = assert_shown_between_stamps(&matched);
    let sequences: Vec<u64> = matched.iter().map(|(m, ..)| m.frame.sequence).collect();
    assert_eq!(
        sequences,
        (1..=PRESENTS).collect::<Vec<_>>(),
        "matched in order"
    );
    assert_eq!(source.unmatched(), 0);
    assert_dropping_ends_the_reader(source);
    println!(
        "{PRESENTS} presents, MSC {:?} to {last_msc:?}",
        matched.first().and_then(|(m, ..)| match m.outcome {
            Some(PresentationOutcome::Shown(shown)) => Some(shown.refresh_counter),
            _ => None,
        })
    );
}

/// Each matched frame was shown between the test's stamps around its present, with increasing
/// MSCs; returns the last MSC.
fn assert_shown_between_stamps(matched: &[(MatchedPresentation, Instant, Instant)]) -> Option<u64> {
    let mut last_msc = None;
    for (m, before, after) in matched {
        let Some(PresentationOutcome::Shown(shown)) = m.outcome else {
            panic!("frame {} was shown: {m:?}", m.frame.sequence);
        };
        assert!(
            *before <= shown.on_screen && shown.on_screen <= *after,
            "frame {}'s UST lies between the test's own stamps around its present \
             ({:?} after the present, {:?} before the report was read)",
            m.frame.sequence,
            shown.on_screen.saturating_duration_since(*before),
            after.saturating_duration_since(shown.on_screen),
        );
        if let Some(last) = last_msc {
            assert!(
                shown.refresh_counter > last,
                "MSC increases: {last} then {}",
                shown.refresh_counter
            );
        }
        last_msc = Some(shown.refresh_counter);
    }
    last_msc
}

/// The server is read by the source's own thread, not by `poll`; dropping the source ends it
/// (checked where the process's threads can be listed by name: Linux). The count is the
/// process's: this file keeps to one test that builds a source.
fn assert_dropping_ends_the_reader(source: PresentationSource) {
    if cfg!(target_os = "linux") {
        assert_eq!(reader_threads(), 1, "one reader thread for the source");
        drop(source);
        // A joined thread leaves the kernel's list a moment after `join` returns.
        let deadline = Instant::now() + Duration::from_secs(5);
        while reader_threads() > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(
            reader_threads(),
            0,
            "dropping the source ends its reader thread"
        );
    }
}

/// This process's threads named as the X11 source names its reader.
fn reader_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("Linux lists a process's threads")
        .filter(|task| {
            task.as_ref().is_ok_and(|task| {
                std::fs::read_to_string(task.path().join("comm"))
                    .is_ok_and(|name| name.trim_end() == "x11-present")
            })
        })
        .count()
}
