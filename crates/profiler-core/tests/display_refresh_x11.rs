//! The refresh-rate probe against real X servers.
//!
//! - Xorg with the dummy video driver (modes with real timings): the probe answers what `xrandr`
//!   reports, within 0.01 Hz, and follows mode switches, including a `cvt 1280 720 144` modeline
//!   added at run time.
//! - Xvfb (its one mode has no timings): the probe answers `None`.
//!
//! Each test starts its own server on a free display (`-displayfd`) and stops it on drop. When a
//! server or `xrandr` is missing, or cannot start, the test prints why and passes, unless
//! `EGUI_HUD_REQUIRE_XORG=1` (set by CI), where it fails. Packages: `xserver-xorg-core
//! xserver-xorg-video-dummy x11-xserver-utils xvfb`; Xorg must be allowed to start (root in CI).
#![cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
#![expect(
    clippy::expect_used,
    clippy::print_stdout,
    reason = "test helpers: a failed step is a failed test, and the figures go to the test log"
)]

#[path = "support/x_server.rs"]
mod x_server;

use std::num::NonZeroU32;
use std::time::Instant;

use profiler_core::{DisplayRefreshQuery, ScreenArea};
use raw_window_handle::{
    RawDisplayHandle, RawWindowHandle, XcbDisplayHandle, XcbWindowHandle, XlibDisplayHandle,
    XlibWindowHandle,
};

use x_server::{
    CVT_1280X720_144, XServer, connected_output, create_window, disconnected_output, find_in_path,
    skip, start_xorg_dummy,
};

fn xcb_query(window: u32, display_name: &str) -> DisplayRefreshQuery {
    DisplayRefreshQuery::from_raw_handles(
        RawWindowHandle::Xcb(XcbWindowHandle::new(
            NonZeroU32::new(window).expect("XIDs are never 0"),
        )),
        RawDisplayHandle::Xcb(XcbDisplayHandle::new(None, 0)),
    )
    .expect("X11 handles are accepted")
    .with_x11_display_name(display_name)
}

fn xlib_query(window: u32, display_name: &str) -> DisplayRefreshQuery {
    DisplayRefreshQuery::from_raw_handles(
        RawWindowHandle::Xlib(XlibWindowHandle::new(window.into())),
        RawDisplayHandle::Xlib(XlibDisplayHandle::new(None, 0)),
    )
    .expect("X11 handles are accepted")
    .with_x11_display_name(display_name)
}

/// The current mode's rate as `xrandr --verbose` describes it: (rate from its dot clock and
/// totals, the rounded rate it prints).
fn xrandr_current_rate_hz(verbose: &str) -> (f64, f64) {
    let lines: Vec<&str> = verbose.lines().collect();
    let current = lines
        .iter()
        .position(|line| line.contains("*current"))
        .expect("xrandr --verbose marks the current mode");
    let header = lines[current];
    let dot_clock_mhz: f64 = header
        .split_whitespace()
        .find_map(|word| word.strip_suffix("MHz"))
        .expect("the mode line has a dot clock")
        .parse()
        .expect("the dot clock is a number");
    let total_of = |prefix: &str| -> f64 {
        let line = lines[current + 1..]
            .iter()
            .find(|line| line.trim_start().starts_with(prefix))
            .expect("h: and v: lines follow the mode line");
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "total").expect("a total");
        words[at + 1].parse().expect("the total is a number")
    };
    let printed_hz: f64 = {
        let line = lines[current + 1..]
            .iter()
            .find(|line| line.trim_start().starts_with("v:"))
            .expect("a v: line");
        line.split_whitespace()
            .find_map(|word| word.strip_suffix("Hz"))
            .expect("the v: line ends with the rate")
            .parse()
            .expect("the rate is a number")
    };
    let mut vtotal = total_of("v:");
    if header.contains("DoubleScan") {
        vtotal *= 2.0;
    }
    if header.contains("Interlace") {
        vtotal /= 2.0;
    }
    (dot_clock_mhz * 1e6 / (total_of("h:") * vtotal), printed_hz)
}

fn assert_probe_matches_xrandr(server: &XServer, query: &DisplayRefreshQuery, what: &str) -> f64 {
    let started = Instant::now();
    let probed_hz = query
        .try_refresh_hz()
        .expect("the X server answers")
        .unwrap_or_else(|| panic!("{what}: the dummy driver's modes have timings"));
    let query_time = started.elapsed();
    let (xrandr_hz, printed_hz) = xrandr_current_rate_hz(&server.xrandr(&["--verbose"]));
    println!(
        "{what}: probe {probed_hz:.4} Hz, xrandr {xrandr_hz:.4} Hz (prints {printed_hz:.2}), \
         query took {:.2} ms",
        query_time.as_secs_f64() * 1e3
    );
    assert!(
        (probed_hz - xrandr_hz).abs() < 0.01,
        "{what}: probe {probed_hz} Hz, xrandr {xrandr_hz} Hz"
    );
    assert!(
        (probed_hz - printed_hz).abs() < 0.01,
        "{what}: probe {probed_hz} Hz, xrandr prints {printed_hz} Hz"
    );
    probed_hz
}

#[test]
fn xorg_dummy_rates_match_xrandr_and_follow_mode_changes() {
    let server = match start_xorg_dummy() {
        Ok(server) => server,
        Err(reason) => return skip(&reason),
    };
    let window = create_window(&server.display_name);
    let query = xcb_query(window.window, &server.display_name);
    let output = connected_output(&server.xrandr(&[]));

    let start_hz = assert_probe_matches_xrandr(&server, &query, "1920x1080_60 (start)");
    assert!(
        (start_hz - 60.0).abs() < 1e-9,
        "CEA 1080p60 is exactly 60 Hz"
    );

    server.xrandr(&["--output", &output, "--mode", "1600x1200", "--rate", "85"]);
    let vesa_hz = assert_probe_matches_xrandr(&server, &query, "1600x1200 --rate 85");
    assert!(
        (vesa_hz - 85.0).abs() < 0.01,
        "VESA 1600x1200@85 is 85.00 Hz"
    );

    server.xrandr(&[&["--newmode"][..], &CVT_1280X720_144[..]].concat());
    server.xrandr(&["--addmode", &output, CVT_1280X720_144[0]]);
    server.xrandr(&["--output", &output, "--mode", CVT_1280X720_144[0]]);
    let cvt_hz = assert_probe_matches_xrandr(&server, &query, "cvt 1280 720 144");
    let expected_cvt_hz = 198.75e6 / (1760.0 * 786.0);
    assert!(
        (cvt_hz - expected_cvt_hz).abs() < 1e-6,
        "the modeline's own arithmetic: {cvt_hz} vs {expected_cvt_hz}"
    );

    // The Xlib handle of the same window answers the same.
    let xlib_hz = xlib_query(window.window, &server.display_name).refresh_hz();
    assert_eq!(
        xlib_hz,
        Some(cvt_hz),
        "Xlib and Xcb handles name the same window"
    );

    // And back: the same query follows the switch.
    server.xrandr(&["--output", &output, "--mode", "1920x1080_60"]);
    let back_hz = assert_probe_matches_xrandr(&server, &query, "back to 1920x1080_60");
    assert!((back_hz - 60.0).abs() < 1e-9, "back at 60 Hz");

    // A second monitor to the right at 144 Hz: an area on it (an egui child viewport the query
    // has no handle for) gets its rate, while the window stays on the 60 Hz one.
    let second = disconnected_output(&server.xrandr(&[]));
    server.xrandr(&["--addmode", &second, CVT_1280X720_144[0]]);
    server.xrandr(&[
        "--output",
        &second,
        "--mode",
        CVT_1280X720_144[0],
        "--pos",
        "1920x0",
    ]);
    let area = |x, width| ScreenArea {
        x,
        y: 100,
        width,
        height: 300,
    };
    assert_eq!(
        query.at_area(area(2000, 400)).refresh_hz(),
        Some(cvt_hz),
        "an area on the second monitor"
    );
    assert_eq!(
        query.at_area(area(1800, 200)).refresh_hz(),
        Some(60.0),
        "an area mostly on the first monitor"
    );
    assert_eq!(
        query.at_area(area(1880, 200)).refresh_hz(),
        Some(cvt_hz),
        "an area mostly on the second monitor"
    );
    assert_eq!(
        query.at_area(area(5000, 100)).refresh_hz(),
        None,
        "an area on no monitor"
    );
    assert_eq!(query.refresh_hz(), Some(60.0), "the window has not moved");
}

#[test]
fn xvfb_has_no_rate() {
    let Some(xvfb) = find_in_path("Xvfb") else {
        return skip("Xvfb is not installed (package xvfb)");
    };
    let server = match XServer::start(&xvfb, &["-screen", "0", "1280x720x24", "-nolisten", "tcp"]) {
        Ok(server) => server,
        Err(reason) => return skip(&reason),
    };
    let window = create_window(&server.display_name);
    let query = xcb_query(window.window, &server.display_name);
    assert!(query.is_supported(), "X11 is a supported window system");
    assert_eq!(
        query.try_refresh_hz().expect("Xvfb answers RandR requests"),
        None,
        "Xvfb's mode has no timings, so its rate is unknown"
    );
}

#[test]
fn a_missing_server_is_an_error_not_a_rate() {
    let query = xcb_query(0x0020_0001, ":4242").with_x11_display_name("unix:4242");
    let error = query
        .try_refresh_hz()
        .expect_err("no server listens on :4242");
    assert!(
        error.to_string().contains("DISPLAY"),
        "the message says what to check: {error}"
    );
    assert_eq!(query.refresh_hz(), None);
}
