use std::time::Duration;

use egui_hud::profiler_core::{DisplayRefreshQuery, GpuUsageProbe, ProcessProbe};
use serde_json::{Value, json};

/// What each platform probe answers on this machine, asked once at start (with `--seconds`):
/// the refresh rate of the window's display (a value, `null` for "unknown", or the typed
/// error's text), this process's CPU time and memory, and its GPU use over 200 ms. For scripts
/// that check a platform's code paths ran (the Windows run under Wine).
pub(crate) fn probe_report(cc: &eframe::CreationContext<'_>) -> Value {
    let refresh = match DisplayRefreshQuery::from_window(cc) {
        Ok(query) => match query.try_refresh_hz() {
            Ok(rate) => json!({ "hz": rate }),
            Err(error) => json!({ "error": error.to_string() }),
        },
        Err(error) => json!({ "error": error.to_string() }),
    };
    let mut process = ProcessProbe::new();
    let cpu_time = process.cpu_time().map(|d| d.as_secs_f64());
    let memory = process
        .memory()
        .map(|(bytes, counter)| json!({ "bytes": bytes, "counter": format!("{counter:?}") }));
    let mut gpu = GpuUsageProbe::new();
    let first = gpu.sample(0);
    std::thread::sleep(Duration::from_millis(200));
    let second = gpu.sample(200_000_000);
    json!({
        "refresh_rate": refresh,
        "cpu_time_s": cpu_time,
        "memory": memory,
        "gpu_use": second.or(first).map(|reading| format!("{reading:?}")),
    })
}
