//! X servers started by tests: Xorg with the dummy video driver (RandR modes with real
//! timings, spare outputs for a second monitor) and Xvfb, each on a free display
//! (`-displayfd`), stopped on drop; and windows on them. Shared by the refresh-rate tests of
//! profiler-core and egui-hud (`#[path]`), so that both start servers the same way.
//!
//! A missing server makes a test print why and pass, unless `EGUI_HUD_REQUIRE_XORG=1` (set by
//! CI) makes it fail. Packages: `xserver-xorg-core xserver-xorg-video-dummy x11-xserver-utils
//! xvfb`; Xorg must be allowed to start (root in CI).
#![allow(dead_code, reason = "each test binary uses part of this module")]

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{ConnectionExt as _, CreateWindowAux, WindowClass};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// `cvt 1280 720 144` (libxcvt 0.1.2): 143.67 Hz.
pub(crate) const CVT_1280X720_144: [&str; 12] = [
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

const XORG_DUMMY_CONF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/xorg-dummy.conf");
const DUMMY_DRIVER: &str = "/usr/lib/xorg/modules/drivers/dummy_drv.so";

/// Starts Xorg with the dummy driver on a free display, or says why it cannot.
pub(crate) fn start_xorg_dummy() -> Result<XServer, String> {
    let Some(xorg) = find_in_path("Xorg") else {
        return Err("Xorg is not installed (package xserver-xorg-core)".to_owned());
    };
    if !Path::new(DUMMY_DRIVER).exists() {
        return Err(
            "the dummy video driver is missing (package xserver-xorg-video-dummy)".to_owned(),
        );
    }
    if find_in_path("xrandr").is_none() {
        return Err("xrandr is not installed (package x11-xserver-utils)".to_owned());
    }
    assert!(
        Path::new(XORG_DUMMY_CONF).is_file(),
        "{XORG_DUMMY_CONF} is part of the repository"
    );
    let log_file = std::env::temp_dir().join(format!("egui-hud-xorg-{}.log", std::process::id()));
    let log_file = log_file.to_string_lossy().into_owned();
    XServer::start(
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
    )
    .map_err(|reason| format!("{reason}; see {log_file}"))
}

pub(crate) fn xorg_required() -> bool {
    std::env::var("EGUI_HUD_REQUIRE_XORG").is_ok_and(|value| value == "1")
}

/// Prints why the test cannot run here, or fails when CI requires it to run.
pub(crate) fn skip(reason: &str) {
    assert!(
        !xorg_required(),
        "EGUI_HUD_REQUIRE_XORG=1 but {reason}; install xserver-xorg-core \
         xserver-xorg-video-dummy x11-xserver-utils xvfb and run as root"
    );
    println!("skipped: {reason} (set EGUI_HUD_REQUIRE_XORG=1 to make this a failure)");
}

pub(crate) fn find_in_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
    })
}

/// An X server this test started; stopped (SIGTERM, then SIGKILL) on drop.
pub(crate) struct XServer {
    child: Child,
    pub(crate) display_name: String,
}

impl XServer {
    /// Starts `program args… -displayfd 1` and waits until it prints its display number.
    pub(crate) fn start(program: &Path, args: &[&str]) -> Result<Self, String> {
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

    pub(crate) fn xrandr(&self, args: &[&str]) -> String {
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
pub(crate) struct TestWindow {
    _connection: RustConnection,
    pub(crate) window: u32,
}

pub(crate) fn create_window(display_name: &str) -> TestWindow {
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

pub(crate) fn connected_output(xrandr: &str) -> String {
    xrandr
        .lines()
        .find(|line| line.contains(" connected"))
        .and_then(|line| line.split_whitespace().next())
        .expect("the dummy driver has a connected output")
        .to_owned()
}

/// The first output `xrandr` lists as disconnected: the dummy driver has sixteen.
pub(crate) fn disconnected_output(xrandr: &str) -> String {
    xrandr
        .lines()
        .find(|line| line.contains(" disconnected"))
        .and_then(|line| line.split_whitespace().next())
        .expect("the dummy driver has spare outputs")
        .to_owned()
}
