//! The refresh-rate probe against a real Wayland compositor: weston's headless backend.
//!
//! - One headless output (weston 10 gives it a fixed 60 Hz mode; its backend has no rate
//!   option): the probe answers the rate that `weston-info` (or `wayland-info`) lists as the
//!   current mode, within 0.01 Hz, from a background thread.
//! - Two outputs with the same rate (a weston nested in the headless one, `--output-count=2`;
//!   both 60 Hz): the probe answers that rate. Outputs with different rates cannot be made with
//!   weston 10 (every output of its headless and nested backends is 60 Hz), so that `None` case is
//!   a unit test of the decision rule in `src/display_refresh/wayland.rs`.
//! - No outputs (`--no-outputs`): the probe answers `None`.
//! - No compositor at the socket: a typed error that says what to check.
//!
//! Each test starts its own weston with its own `XDG_RUNTIME_DIR` (a 0700 temporary directory)
//! and socket name, and stops it on drop. When weston is missing or cannot start, the test prints
//! why and passes, unless `EGUI_HUD_REQUIRE_WAYLAND=1` (set by CI), where it fails. Package:
//! `weston` (Debian 12: weston 10).
//!
//! The probe does not read the handles' pointers (it asks over its own connection), so the tests
//! pass dangling, non-null ones; a real app passes winit's `wl_display` and `wl_surface`.
#![cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
#![expect(
    clippy::expect_used,
    clippy::print_stdout,
    reason = "test helpers: a failed step is a failed test, and the figures go to the test log"
)]

use std::os::unix::fs::DirBuilderExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use profiler_core::{DisplayRefreshError, DisplayRefreshQuery};
use raw_window_handle::{
    RawDisplayHandle, RawWindowHandle, WaylandDisplayHandle, WaylandWindowHandle,
};

const SOCKET_NAME: &str = "egui-hud-test";
const NESTED_SOCKET_NAME: &str = "egui-hud-test-nested";

fn wayland_required() -> bool {
    std::env::var("EGUI_HUD_REQUIRE_WAYLAND").is_ok_and(|value| value == "1")
}

/// Prints why the test cannot run here, or fails when CI requires it to run.
fn skip(reason: &str) {
    assert!(
        !wayland_required(),
        "EGUI_HUD_REQUIRE_WAYLAND=1 but {reason}; install weston (Debian: `apt-get install weston`)"
    );
    println!("skipped: {reason} (set EGUI_HUD_REQUIRE_WAYLAND=1 to make this a failure)");
}

fn find_in_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
    })
}

/// A weston this test started; stopped (SIGTERM, then SIGKILL) on drop, and its runtime
/// directory removed when it made it.
struct Weston {
    child: Child,
    runtime_dir: PathBuf,
    socket_name: &'static str,
    owns_runtime_dir: bool,
}

impl Weston {
    /// Starts `weston --backend=headless-backend.so` (one 640×480 output) with `extra_args` in a
    /// new runtime directory and waits for its socket.
    fn start_headless(program: &Path, extra_args: &[&str]) -> Result<Self, String> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let runtime_dir = std::env::temp_dir().join(format!(
            "egui-hud-wayland-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // libwayland servers refuse a runtime directory that others can read.
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&runtime_dir)
            .map_err(|error| format!("cannot create {}: {error}", runtime_dir.display()))?;
        let mut args = vec![
            "--backend=headless-backend.so".to_owned(),
            "--width=640".to_owned(),
            "--height=480".to_owned(),
        ];
        args.extend(extra_args.iter().map(|&arg| arg.to_owned()));
        Self::spawn(program, runtime_dir, true, SOCKET_NAME, None, &args)
    }

    /// Starts a weston nested in `parent` (`wayland-backend.so`, pixman) with `output_count`
    /// 320×240 outputs, each a window on the parent.
    fn start_nested(program: &Path, parent: &Self, output_count: u32) -> Result<Self, String> {
        let args = [
            "--backend=wayland-backend.so".to_owned(),
            format!("--display={}", parent.socket_name),
            format!("--output-count={output_count}"),
            "--use-pixman".to_owned(),
            "--width=320".to_owned(),
            "--height=240".to_owned(),
        ];
        Self::spawn(
            program,
            parent.runtime_dir.clone(),
            false,
            NESTED_SOCKET_NAME,
            Some(parent.socket_name),
            &args,
        )
    }

    fn spawn(
        program: &Path,
        runtime_dir: PathBuf,
        owns_runtime_dir: bool,
        socket_name: &'static str,
        parent_socket: Option<&str>,
        backend_args: &[String],
    ) -> Result<Self, String> {
        let log_file = runtime_dir.join(format!("{socket_name}.log"));
        let mut command = Command::new(program);
        command
            .args(backend_args)
            .arg(format!("--socket={socket_name}"))
            .args([
                "--no-config",
                // The kiosk shell starts no helper clients (desktop-shell starts two).
                "--shell=kiosk-shell.so",
                "--idle-time=0",
            ])
            .arg(format!("--log={}", log_file.display()))
            .env("XDG_RUNTIME_DIR", &runtime_dir)
            .env_remove("WAYLAND_SOCKET")
            .env_remove("DISPLAY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        match parent_socket {
            Some(parent) => command.env("WAYLAND_DISPLAY", parent),
            None => command.env_remove("WAYLAND_DISPLAY"),
        };
        let child = command
            .spawn()
            .map_err(|error| format!("{} could not be started: {error}", program.display()))?;
        let mut weston = Self {
            child,
            runtime_dir,
            socket_name,
            owns_runtime_dir,
        };

        let deadline = Instant::now() + Duration::from_secs(30);
        while !weston.socket_path().exists() {
            let exited = weston.child.try_wait().ok().flatten();
            if exited.is_some() || Instant::now() > deadline {
                let log = std::fs::read_to_string(&log_file).unwrap_or_default();
                return Err(format!(
                    "weston did not open its socket (exit status: {exited:?}); its log:\n{log}"
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(weston)
    }

    fn socket_path(&self) -> PathBuf {
        self.runtime_dir.join(self.socket_name)
    }

    /// Every current mode's refresh in Hz, as `weston-info` or `wayland-info` lists them; `None`
    /// when neither tool is installed.
    fn info_current_rates_hz(&self) -> Option<Vec<f64>> {
        let tool = ["wayland-info", "weston-info"]
            .into_iter()
            .find_map(find_in_path)?;
        let output = Command::new(&tool)
            .env("XDG_RUNTIME_DIR", &self.runtime_dir)
            .env("WAYLAND_DISPLAY", self.socket_name)
            .output()
            .expect("the info tool runs");
        assert!(
            output.status.success(),
            "{} failed: {}",
            tool.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        Some(current_rates_hz(&String::from_utf8_lossy(&output.stdout)))
    }
}

impl Drop for Weston {
    fn drop(&mut self) {
        // SIGTERM lets weston remove its socket and lock file; SIGKILL if it hangs.
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id().cast_signed()) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(20));
        }
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if self.owns_runtime_dir {
            let _ = std::fs::remove_dir_all(&self.runtime_dir);
        }
    }
}

/// From `weston-info`/`wayland-info` output: the `refresh: N Hz` of every mode whose `flags:`
/// line (the next one) says `current`.
fn current_rates_hz(info: &str) -> Vec<f64> {
    let lines: Vec<&str> = info.lines().collect();
    lines
        .windows(2)
        .filter(|pair| pair[1].contains("flags:") && pair[1].contains("current"))
        .filter_map(|pair| {
            let after = pair[0].split("refresh:").nth(1)?;
            after.split_whitespace().next()?.parse().ok()
        })
        .collect()
}

fn start_headless_weston(extra_args: &[&str]) -> Option<Weston> {
    let Some(program) = find_in_path("weston") else {
        skip("weston is not installed");
        return None;
    };
    match Weston::start_headless(&program, extra_args) {
        Ok(weston) => Some(weston),
        Err(reason) => {
            skip(&reason);
            None
        }
    }
}

/// A query for a Wayland window on the compositor at `socket`.
///
/// The pointers are dangling: the probe keeps neither, it opens its own connection.
fn wayland_query(socket: &Path) -> DisplayRefreshQuery {
    let window = WaylandWindowHandle::new(NonNull::dangling());
    let display = WaylandDisplayHandle::new(NonNull::dangling());
    DisplayRefreshQuery::from_raw_handles(
        RawWindowHandle::Wayland(window),
        RawDisplayHandle::Wayland(display),
    )
    .expect("Wayland handles make a query")
    .with_wayland_display_name(socket.to_str().expect("the temporary path is UTF-8"))
}

#[test]
fn the_info_parser_reads_current_modes_only() {
    let info = "interface: 'wl_output', version: 3, name: 12\n\
                \tmode:\n\
                \t\twidth: 640 px, height: 480 px, refresh: 59.940 Hz,\n\
                \t\tflags: preferred\n\
                \tmode:\n\
                \t\twidth: 640 px, height: 480 px, refresh: 60.000 Hz,\n\
                \t\tflags: current preferred\n";
    assert_eq!(current_rates_hz(info), vec![60.0]);
}

#[test]
fn a_headless_output_rate_matches_the_compositor() {
    let Some(weston) = start_headless_weston(&[]) else {
        return;
    };
    let query = wayland_query(&weston.socket_path());
    assert!(query.is_supported(), "Wayland is a supported window system");

    // As an app would: built on the UI thread, asked on a background one.
    let (answer, elapsed) = std::thread::Builder::new()
        .name("refresh".to_owned())
        .spawn(move || {
            let start = Instant::now();
            let answer = query.try_refresh_hz();
            (answer, start.elapsed())
        })
        .expect("a thread can be spawned")
        .join()
        .expect("the query thread does not panic");
    let probe_hz = answer
        .expect("weston answers")
        .expect("one output: its rate is the window's");

    // weston 10's headless output has one fixed mode, 60 Hz, when no tool is there to ask.
    let compositor_hz = match weston.info_current_rates_hz() {
        Some(rates_hz) => {
            assert_eq!(rates_hz.len(), 1, "one headless output: {rates_hz:?}");
            rates_hz[0]
        }
        None => 60.0,
    };
    println!(
        "weston headless: probe {probe_hz:.4} Hz, compositor {compositor_hz:.4} Hz, query took \
         {:.2} ms",
        elapsed.as_secs_f64() * 1e3
    );
    assert!(
        (probe_hz - compositor_hz).abs() <= 0.01,
        "probe {probe_hz} Hz, compositor {compositor_hz} Hz"
    );
}

#[test]
fn two_outputs_with_the_same_rate_give_that_rate() {
    let Some(parent) = start_headless_weston(&[]) else {
        return;
    };
    let program = find_in_path("weston").expect("the parent weston was found in PATH");
    let nested = match Weston::start_nested(&program, &parent, 2) {
        Ok(nested) => nested,
        Err(reason) => {
            skip(&format!("the nested weston failed: {reason}"));
            return;
        }
    };
    let compositor_hz = match nested.info_current_rates_hz() {
        Some(rates_hz) => {
            assert_eq!(rates_hz.len(), 2, "two nested outputs: {rates_hz:?}");
            assert!(
                (rates_hz[0] - rates_hz[1]).abs() <= 0.01,
                "weston 10's nested outputs share one rate: {rates_hz:?}"
            );
            rates_hz[0]
        }
        None => 60.0,
    };
    let probe_hz = wayland_query(&nested.socket_path())
        .try_refresh_hz()
        .expect("the nested weston answers")
        .expect("both outputs agree, so the window's rate is known");
    println!("weston nested, 2 outputs: probe {probe_hz:.4} Hz, compositor {compositor_hz:.4} Hz");
    assert!(
        (probe_hz - compositor_hz).abs() <= 0.01,
        "probe {probe_hz} Hz, compositor {compositor_hz} Hz"
    );
}

#[test]
fn no_outputs_give_no_rate() {
    let Some(weston) = start_headless_weston(&["--no-outputs"]) else {
        return;
    };
    if let Some(rates_hz) = weston.info_current_rates_hz() {
        assert!(
            rates_hz.is_empty(),
            "--no-outputs lists modes: {rates_hz:?}"
        );
    }
    let query = wayland_query(&weston.socket_path());
    assert_eq!(
        query.try_refresh_hz().expect("weston answers"),
        None,
        "no output shows the window, so its rate is unknown"
    );
}

#[test]
fn a_missing_compositor_is_an_error_not_a_rate() {
    let socket = std::env::temp_dir().join(format!(
        "egui-hud-no-compositor-{}/wayland-0",
        std::process::id()
    ));
    let query = wayland_query(&socket);
    let error = query
        .try_refresh_hz()
        .expect_err("no compositor listens there");
    assert!(
        matches!(error, DisplayRefreshError::WaylandConnect { .. }),
        "a connect error: {error:?}"
    );
    assert!(
        error.to_string().contains("WAYLAND_DISPLAY"),
        "the message says what to check: {error}"
    );
    assert_eq!(query.refresh_hz(), None);
}
