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

use std::io::{BufRead as _, BufReader};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use profiler_core::DisplayRefreshQuery;
use raw_window_handle::{
    RawDisplayHandle, RawWindowHandle, XcbDisplayHandle, XcbWindowHandle, XlibDisplayHandle,
    XlibWindowHandle,
};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{ConnectionExt as _, CreateWindowAux, WindowClass};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

const XORG_DUMMY_CONF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/xorg-dummy.conf");
const DUMMY_DRIVER: &str = "/usr/lib/xorg/modules/drivers/dummy_drv.so";
/// `cvt 1280 720 144` (libxcvt 0.1.2): 143.67 Hz.
const CVT_1280X720_144: [&str; 12] = [
    "1280x720_144.00",
    "198.75",
    "1280",
    "1384",
    "1520",
    "1760",
    "720",
    "723",
    "728",
    "786",
    "-hsync",
    "+vsync",
];

fn xorg_required() -> bool {
    std::env::var("EGUI_HUD_REQUIRE_XORG").is_ok_and(|value| value == "1")
}

/// Prints why the test cannot run here, or fails when CI requires it to run.
fn skip(reason: &str) {
    assert!(
        !xorg_required(),
        "EGUI_HUD_REQUIRE_XORG=1 but {reason}; install xserver-xorg-core \
         xserver-xorg-video-dummy x11-xserver-utils xvfb and run as root"
    );
    println!("skipped: {reason} (set EGUI_HUD_REQUIRE_XORG=1 to make this a failure)");
}

fn find_in_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
    })
}

/// An X server this test started; stopped (SIGTERM, then SIGKILL) on drop.
struct XServer {
    child: Child,
    display_name: String,
}

impl XServer {
    /// Starts `program args… -displayfd 1` and waits until it prints its display number.
    fn start(program: &Path, args: &[&str]) -> Result<Self, String> {
        let mut child = Command::new(program)
            .args(args)
            .args(["-displayfd", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| format!("{} could not be started: {error}", program.display()))?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("x-server-displayfd".to_owned())
            .spawn(move || {
                let mut line = String::new();
                let _ = BufReader::new(stdout).read_line(&mut line);
                let _ = sender.send(line);
            })
            .expect("a thread can be spawned");
        let mut server = Self {
            child,
            display_name: String::new(),
        };
        match receiver.recv_timeout(Duration::from_secs(30)) {
            Ok(line) if !line.trim().is_empty() => {
                server.display_name = format!(":{}", line.trim());
                Ok(server)
            }
            _ => Err(format!(
                "{} did not report a display (exit status: {:?})",
                program.display(),
                server.child.try_wait()
            )),
        }
    }

    fn xrandr(&self, args: &[&str]) -> String {
        let output = Command::new("xrandr")
            .args(args)
            .env("DISPLAY", &self.display_name)
            .output()
            .expect("xrandr runs");
        assert!(
            output.status.success(),
            "xrandr {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }
}

impl Drop for XServer {
    fn drop(&mut self) {
        // SIGTERM lets the server remove its lock file and socket; SIGKILL if it hangs.
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id().cast_signed()) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A 640x480 window at (100, 100), alive as long as the connection.
struct TestWindow {
    _connection: RustConnection,
    window: u32,
}

fn create_window(display_name: &str) -> TestWindow {
    let (connection, screen_number) =
        x11rb::connect(Some(display_name)).expect("the test server accepts connections");
    let screen = &connection.setup().roots[screen_number];
    let window = connection.generate_id().expect("an XID is free");
    connection
        .create_window(
            x11rb::COPY_DEPTH_FROM_PARENT,
            window,
            screen.root,
            100,
            100,
            640,
            480,
            0,
            WindowClass::INPUT_OUTPUT,
            x11rb::COPY_FROM_PARENT,
            &CreateWindowAux::new(),
        )
        .expect("create_window is sent");
    connection.map_window(window).expect("map_window is sent");
    connection.sync().expect("the server created the window");
    TestWindow {
        _connection: connection,
        window,
    }
}

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

fn connected_output(xrandr: &str) -> String {
    xrandr
        .lines()
        .find(|line| line.contains(" connected"))
        .and_then(|line| line.split_whitespace().next())
        .expect("the dummy driver has a connected output")
        .to_owned()
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
    let Some(xorg) = find_in_path("Xorg") else {
        return skip("Xorg is not installed (package xserver-xorg-core)");
    };
    if !Path::new(DUMMY_DRIVER).exists() {
        return skip("the dummy video driver is missing (package xserver-xorg-video-dummy)");
    }
    if find_in_path("xrandr").is_none() {
        return skip("xrandr is not installed (package x11-xserver-utils)");
    }
    assert!(
        Path::new(XORG_DUMMY_CONF).is_file(),
        "{XORG_DUMMY_CONF} is part of the repository"
    );
    let log_file = std::env::temp_dir().join(format!("egui-hud-xorg-{}.log", std::process::id()));
    let log_file = log_file.to_string_lossy().into_owned();
    let server = match XServer::start(
        &xorg,
        &[
            "-noreset",
            "-nolisten",
            "tcp",
            "-config",
            XORG_DUMMY_CONF,
            "-novtswitch",
            "-sharevts",
            "-logfile",
            &log_file,
        ],
    ) {
        Ok(server) => server,
        Err(reason) => return skip(&format!("{reason}; see {log_file}")),
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
