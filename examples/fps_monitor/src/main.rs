//! The egui-hud demo: an eframe app whose CPU and GPU load you can turn up and down while the
//! HUD reads it. `cargo run --release -p fps_monitor`; `--help` for the automation flags.

mod demo_app;
mod demo_args;
mod gpu_scene;
mod probe_report;
mod snapshot_json;

use std::path::Path;
use std::process::ExitCode;

use crate::demo_app::{DemoApp, native_options};
use crate::demo_args::DemoArgs;

fn main() -> ExitCode {
    let args = match DemoArgs::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            #[expect(clippy::print_stderr, reason = "command-line errors go to stderr")]
            {
                eprintln!("{message}");
            }
            return ExitCode::from(2);
        }
    };
    if let Some((a, b)) = &args.compare {
        return compare_runs(a, b);
    }
    let options = native_options(args.backend, args.window_size);
    let result = eframe::run_native(
        "egui-hud demo",
        options,
        Box::new(move |cc| Ok(Box::new(DemoApp::new(cc, args)))),
    );
    match result {
        Ok(()) => exit_without_c_exit_handlers(),
        Err(error) => {
            #[expect(clippy::print_stderr, reason = "the demo could not open its window")]
            {
                eprintln!("fps_monitor: {error}");
            }
            ExitCode::FAILURE
        }
    }
}

/// `--compare A B`: the table of run B against run A, on stdout.
fn compare_runs(a: &Path, b: &Path) -> ExitCode {
    let read = |path: &Path| {
        std::fs::read_to_string(path)
            .map_err(|error| error.to_string())
            .and_then(|text| {
                egui_hud::BenchmarkSummary::from_json(&text).map_err(|error| error.to_string())
            })
            .map_err(|error| format!("fps_monitor: cannot read {}: {error}", path.display()))
    };
    match (read(a), read(b)) {
        (Ok(a), Ok(b)) => {
            #[expect(clippy::print_stdout, reason = "--compare prints its table")]
            {
                print!("{}", egui_hud::compare(&a, &b).table());
            }
            ExitCode::SUCCESS
        }
        (Err(error), _) | (_, Err(error)) => {
            #[expect(clippy::print_stderr, reason = "command-line errors go to stderr")]
            {
                eprintln!("{error}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Ends the process once the demo has closed its window and written its output, without
/// running the C libraries' exit handlers. With lavapipe on a loaded machine, about one run in
/// three crashed (SIGSEGV) in those handlers after `main` returned: the handler's code lay in a
/// library of the Vulkan driver that had been unloaded when wgpu let go of its instance. The
/// demo's files are closed and its output is flushed here first; nothing else is owed at exit.
#[cfg(unix)]
fn exit_without_c_exit_handlers() -> ExitCode {
    use std::io::Write as _;
    // Nothing can be reported if these fail: the streams are the report.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[expect(unsafe_code, reason = "`_exit` has no safe wrapper in std")]
    // SAFETY: `_exit` ends the process at once; no Rust code runs after it, so no invariant
    // can be observed broken.
    unsafe {
        libc::_exit(0)
    }
}

/// Elsewhere the process ends as usual.
#[cfg(not(unix))]
fn exit_without_c_exit_handlers() -> ExitCode {
    ExitCode::SUCCESS
}
