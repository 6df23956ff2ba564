use egui_hud::WhyReading;
use egui_hud::profiler_core::{
    Bound, DurationReading, GpuBusySource, LatencyReading, MemoryCounter, Snapshot,
};
use serde_json::{Value, json};

use crate::demo_args::Backend;

/// What the demo knows about its own run, printed beside the readouts so that a failed check
/// says whether the machine drew few frames or the HUD read them wrong.
pub(crate) struct RunFacts<'a> {
    pub(crate) backend: Backend,
    pub(crate) adapter: &'a str,
    /// Frames egui ran since start (`Context::cumulative_frame_nr`), the HUD's own included.
    pub(crate) frames: u64,
    /// egui's scale: the pixels drawn per frame grow with its square.
    pub(crate) pixels_per_point: f32,
    /// Seconds from the first frame to the print.
    pub(crate) ran_secs: f64,
    /// Seconds from the app's creation (eframe has made the window and the device by then) to
    /// the first frame: the demo's own setup and the first frame's pipelines.
    pub(crate) startup_secs: f64,
}

/// The HUD's readouts as one JSON object: times in milliseconds, `null` where unknown.
pub(crate) fn to_json(snapshot: Option<&Snapshot>, run: &RunFacts<'_>) -> Value {
    let backend = match run.backend {
        Backend::Wgpu => "wgpu",
        Backend::Glow => "glow",
    };
    let adapter = run.adapter;
    let (frames, ran_secs, startup_secs) = (run.frames, run.ran_secs, run.startup_secs);
    let pixels_per_point = run.pixels_per_point;
    let Some(s) = snapshot else {
        return json!({
            "backend": backend, "adapter": adapter, "snapshot": null,
            "frames": frames, "ran_secs": ran_secs, "startup_secs": startup_secs,
            "pixels_per_point": pixels_per_point,
        });
    };
    let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_secs_f64() * 1e3);
    let mut snapshot = json!({
        "backend": backend,
        "adapter": adapter,
        "frames": frames,
        "ran_secs": ran_secs,
        "startup_secs": startup_secs,
        "pixels_per_point": pixels_per_point,
        "max_fps": s.max_fps,
        "fps": s.fps,
        "interval_ms": ms(s.interval),
        "frame_ms": ms(s.frame),
        "p95_ms": ms(s.p95),
        "drop": s.drop,
        "inv": s.inv,
        "missed_refreshes": s.missed_refreshes,
        "missed_frames": s.missed_frames,
        "budget_ms": s.budget.as_secs_f64() * 1e3,
        "refresh_hz": s.refresh_hz,
        "samples": s.samples,
        "cpu_percent": s.cpu_percent,
        "memory_bytes": s.memory_bytes,
        "memory_counter": s.memory_counter.map(MemoryCounter::name),
        "gpu_frame_ms": ms(s.gpu_frame),
        "gpu_busy_percent": s.gpu_busy_percent,
        "gpu_busy_source": s.gpu_busy_source.map(|source| match source {
            GpuBusySource::Timestamps => "timestamps",
            GpuBusySource::ProcessCounter(name) => name,
        }),
        "gpu_process_busy_percent": s.gpu_process_busy_percent,
        "gpu_process_source": s.gpu_process_source,
        "gpu_dropped_frames": s.gpu_dropped_frames,
        "gpu_passes": readings_json(&s.gpu_passes),
        "cpu_frame_ms": ms(s.cpu_frame),
        "cpu_phases": readings_json(&s.cpu_phases),
        "lows": s.lows.map(|lows| json!({
            "intervals": lows.intervals,
            "avg_fps": lows.avg_fps,
            "low_1_percent_fps": lows.low_1_percent_fps,
            "low_0_1_percent_fps": lows.low_0_1_percent_fps,
            "slowest_1_percent_avg_fps": lows.slowest_1_percent_avg_fps,
        })),
        "hitch_ms_per_s": s.hitch_ms_per_s,
        "latency_total": s.latency_total.map(|total| json!({
            "end": total.end.name(),
            "frames": total.frames,
            "frames_seen": total.frames_seen,
            "p50_ms": total.p50.as_secs_f64() * 1e3,
            "p95_ms": total.p95.as_secs_f64() * 1e3,
            "max_ms": total.max.as_secs_f64() * 1e3,
        })),
        "latency": latency_json(&s.latency),
        "gpu_clock_uncertainty_us": s.gpu_clock_uncertainty.map(|d| d.as_secs_f64() * 1e6),
        "bound": s.bound.map(side_name),
        "max_fps_set_by": s.max_fps_set_by.map(side_name),
        "hud_cost_us": s.overlay_cost.map(|d| d.as_secs_f64() * 1e6),
        "hud_cost_p50_us": s.overlay_cost_p50.map(|d| d.as_secs_f64() * 1e6),
        "hud_gpu_us": s.gpu_overlay_cost.map(|d| d.as_secs_f64() * 1e6),
        "self_induced_frames": s.self_induced_frames,
    });
    // Added apart: one `json!` this long reaches the macro's recursion limit.
    snapshot["miss_from_refresh_counter"] = json!(s.miss_from_refresh_counter);
    snapshot["presentation"] = presentation_json(s);
    snapshot["gpu_timed_share"] = json!(s.gpu_timed_share);
    snapshot["presentation_unavailable"] = json!(s.presentation_unavailable.as_deref());
    snapshot
}

/// DISPLAYED and the presentation counts; `null` without presentation times.
fn presentation_json(s: &Snapshot) -> Value {
    let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_secs_f64() * 1e3);
    let Some(p) = &s.presentation else {
        return Value::Null;
    };
    json!({
        "source": p.source,
        "frames_shown": p.frames_shown,
        "frames_discarded": p.frames_discarded,
        "frames_skipped": p.frames_skipped,
        "frames_unknown": p.frames_unknown,
        "displayed_p50_ms": ms(p.displayed_p50),
        "displayed_p95_ms": ms(p.displayed_p95),
        "displayed_fps": p.displayed_fps,
        "displayed_frames": p.displayed_frames,
        "missed_refreshes": p.missed_refreshes,
        "missed_frames": p.missed_frames,
        "refresh_period_ms": ms(p.refresh_period),
        "flags": p.flags.names().collect::<Vec<_>>(),
    })
}

/// A side's name in the JSON: "CPU", "GPU" or "neither".
fn side_name(side: Bound) -> &'static str {
    match side {
        Bound::Cpu => "CPU",
        Bound::Gpu => "GPU",
        Bound::Neither => "neither",
    }
}

/// WHY as JSON: the top call sites with their rates, the multi-pass share and the discard
/// reasons; `null` before the HUD's second refresh.
pub(crate) fn why_json(why: Option<&WhyReading>) -> Value {
    let Some(why) = why else {
        return Value::Null;
    };
    let sites = |sites: &[egui_hud::RepaintSiteRate]| -> Vec<Value> {
        sites
            .iter()
            .map(|site| {
                json!({
                    "file": site.file,
                    "line": site.line,
                    "reason": site.reason,
                    "per_sec": site.per_sec,
                })
            })
            .collect()
    };
    json!({
        "top_sites": sites(&why.top_sites),
        "other_sites_per_sec": why.other_sites_per_sec,
        "multi_pass_frames": why.multi_pass_frames,
        "top_discard_reasons": sites(&why.top_discard_reasons),
    })
}

/// GPU passes or CPU phases: label, last, mean and max in milliseconds.
fn readings_json(readings: &[DurationReading]) -> Vec<Value> {
    readings
        .iter()
        .map(|reading| {
            json!({
                "label": reading.label,
                "last_ms": reading.last.as_secs_f64() * 1e3,
                "mean_ms": reading.mean.as_secs_f64() * 1e3,
                "max_ms": reading.max.as_secs_f64() * 1e3,
            })
        })
        .collect()
}

/// The latency stages: frames with both marks, and p50 / p95 / max in milliseconds (`null` for
/// a stage no retained frame had both marks for).
fn latency_json(readings: &[LatencyReading]) -> Vec<Value> {
    let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_secs_f64() * 1e3);
    readings
        .iter()
        .map(|reading| {
            json!({
                "stage": reading.stage.name(),
                "frames": reading.frames,
                "p50_ms": ms(reading.p50),
                "p95_ms": ms(reading.p95),
                "max_ms": ms(reading.max),
            })
        })
        .collect()
}
