use std::fmt::Write as _;

use profiler_core::record::frame_log::FrameLog;
use profiler_core::{Bound, LatencyEnd, LatencyStage, Snapshot};

use crate::repaint::why_reading::WhyReading;
use crate::view::value_text::{format_duration, format_percent};

/// What the main readout's hover says, from the readouts of one refresh: what each row means,
/// LATENCY's breakdown, DISPLAYED's source, WHY's call sites, the spikes' anatomy, and why a
/// row is missing.
///
/// Built only while the pointer is over the main readout, where it shows (the owner of the
/// readouts builds it once per refresh then): the text is a few dozen formatted lines, a third
/// of a refresh's work, and most refreshes are never hovered.
pub(crate) struct ReadoutHover<'a> {
    /// The readouts.
    pub(crate) snapshot: &'a Snapshot,
    /// WHY as of the same refresh.
    pub(crate) why: Option<&'a WhyReading>,
    /// Passes that cannot be timed on this backend.
    pub(crate) unavailable_passes: &'a [&'static str],
    /// The spikes kept; `None`: no log.
    pub(crate) log: Option<&'a FrameLog>,
}

impl ReadoutHover<'_> {
    /// The hover text, one line per fact.
    pub(crate) fn text(&self) -> String {
        let snapshot = self.snapshot;
        let mut hover = hover_text(snapshot);
        push_latency_hover(&mut hover, snapshot);
        if let Some(first) = self.unavailable_passes.first() {
            let _ = write!(
                hover,
                "\nGPU: {first}'s pass cannot be timed here (glow, WebGL, or wgpu without TIMESTAMP_QUERY_INSIDE_PASSES)"
            );
        }
        push_presentation_hover(&mut hover, snapshot);
        if let Some(uncertainty) = snapshot.gpu_clock_uncertainty {
            let _ = write!(
                hover,
                "\n  GPU marks ± {} (clock calibration)",
                format_duration(uncertainty)
            );
        }
        if let Some(why) = self.why {
            push_why_hover(&mut hover, why);
        }
        if let Some(log) = self.log {
            push_spikes_hover(&mut hover, log, snapshot.budget);
        }
        hover
    }
}

/// The hover lines of SPIKES: the rule, the count, the worst and the three newest.
fn push_spikes_hover(hover: &mut String, log: &FrameLog, budget: std::time::Duration) {
    let Some(worst) = log.worst_spike() else {
        return;
    };
    let _ = write!(
        hover,
        "\nSPIKES: frames {}; {} since the start, the worst and newest kept",
        log.threshold().describe(budget),
        log.spikes_seen()
    );
    let _ = write!(hover, "\nworst spike: {}", worst.summary());
    for spike in log.spikes().iter().rev().take(3) {
        let _ = write!(hover, "\n  spike: {}", spike.summary());
    }
}

fn hover_text(snapshot: &Snapshot) -> String {
    let mut lines = Vec::with_capacity(6);
    if let Some(cost) = snapshot.overlay_cost {
        lines.push(format!(
            "HUD {} per frame (not in FRAME)",
            format_duration(cost)
        ));
    }
    lines.push(format!(
        "budget {} ({})",
        format_duration(snapshot.budget),
        snapshot.refresh_hz.map_or_else(
            || "no refresh rate: 60 Hz".to_owned(),
            |hz| format!("{hz:.2} Hz display")
        ),
    ));
    lines.push(format!(
        "{} draw samples, {} HUD tick frames excluded",
        snapshot.samples, snapshot.self_induced_frames
    ));
    if let Some(lows) = snapshot.lows {
        lines.push(format!(
            "AVG {:.1} = 1 / mean interval; 1% / 0.1% LOW = the FPS of the 99th / 99.9th \
             percentile interval (nearest rank; 0.1% from 1000 intervals); over {} intervals \
             of frames wanted back to back since the start or a reset; the slowest 1% average \
             {:.1} FPS",
            lows.avg_fps, lows.intervals, lows.slowest_1_percent_avg_fps
        ));
    }
    if let Some(hitch) = snapshot.hitch_ms_per_s {
        lines.push(format!(
            "HITCH {hitch:.1} ms shown late per s of animation (Apple's hitch time ratio: \
             good <= 5, warning 5-10, critical >= 10)"
        ));
    }
    if snapshot.cpu_phases_untracked > 0 {
        lines.push(format!(
            "PHASES: {} phase timings not shown (more than {} names)",
            snapshot.cpu_phases_untracked,
            profiler_core::record::frame_phases::MAX_PHASES
        ));
    }
    if let (Some(Bound::Gpu), Some(gpu)) = (snapshot.max_fps_set_by, snapshot.gpu_frame) {
        lines.push(format!(
            "MAX FPS set by the GPU: {} a frame, longer than FRAME",
            format_duration(gpu)
        ));
    }
    if let Some(cost) = snapshot.gpu_overlay_cost {
        lines.push(format!(
            "HUD GPU {} per frame (left out of GPU)",
            format_duration(cost)
        ));
    }
    if let Some(share) = snapshot.gpu_timed_share.filter(|&share| share < 1.0) {
        lines.push(format!(
            "GPU timed in {:.0}% of frames since the last refresh: a sample spread in time \
             (FpsMonitor::gpu_sampling; LATENCY's GPU end only in timed frames)",
            share * 100.0
        ));
    }
    if snapshot.gpu_dropped_frames > 0 {
        lines.push(format!(
            "{} GPU frames not timed (the timer's ring was full or a readback came late)",
            snapshot.gpu_dropped_frames
        ));
    }
    let rejected = snapshot.rejected.total();
    if rejected > 0 {
        lines.push(format!(
            "{rejected} impossible timestamps rejected (time went back)"
        ));
    }
    if let Some(counter) = snapshot.memory_counter {
        lines.push(format!("MEM counter: {}", counter.name()));
    }
    lines.push("Right-click: MAX FPS / FPS. Left-click: collapse.".to_owned());
    lines.join("\n")
}

/// The hover lines of LATENCY (its definition, its end and how many frames had a request)
/// and of its breakdown: each stage's p50 / p95 / max, "—" for a stage no retained frame had
/// both marks for; the time after the GPU's end and the timer's lateness apart, as what they
/// are.
fn push_latency_hover(hover: &mut String, snapshot: &Snapshot) {
    if let Some(total) = snapshot.latency_total {
        let _ = write!(
            hover,
            "\nLATENCY: from each frame's request to its {}, p50 / p95 / max {} / {} / {}, \
             over the {} of {} frames a request woke (input and window changes make none)",
            total.end.name(),
            format_duration(total.p50),
            format_duration(total.p95),
            format_duration(total.max),
            total.frames,
            total.frames_seen,
        );
        if total.end == LatencyEnd::UiEnd {
            hover.push_str(
                "\n  no GPU end here (glow, web, or no GPU timer): rendering and the GPU are left out",
            );
        }
    }
    if snapshot.latency.is_empty() {
        return;
    }
    hover.push_str("\nits stages, p50 / p95 / max:");
    let mut apart = String::new();
    for reading in &snapshot.latency {
        let line = if reading.stage.is_on_latency_path() {
            &mut *hover
        } else {
            &mut apart
        };
        let _ = write!(line, "\n  {:<6} ", reading.stage.name());
        match (reading.p50, reading.p95, reading.max) {
            (Some(p50), Some(p95), Some(max)) => {
                let _ = write!(
                    line,
                    "{} / {} / {} ({} frames)",
                    format_duration(p50),
                    format_duration(p95),
                    format_duration(max),
                    reading.frames
                );
            }
            _ => line.push('—'),
        }
        match reading.stage {
            LatencyStage::AfterGpu => {
                line.push_str(" GPU end to next frame: present, vsync wait, idle");
            }
            LatencyStage::TimerLateness => line.push_str(" how late a timed request ran"),
            LatencyStage::ToScreen => {
                line.push_str(" end to on screen: present, compositor, refresh wait");
            }
            LatencyStage::RequestToScreen => line.push_str(" request to on screen"),
            _ => {}
        }
    }
    if !apart.is_empty() {
        hover.push_str("\nnot latency:");
        hover.push_str(&apart);
    }
}

/// The hover lines of DISPLAYED: its definition and counts, the source and its flags; or why
/// there are no presentation times.
fn push_presentation_hover(hover: &mut String, snapshot: &Snapshot) {
    let Some(presentation) = &snapshot.presentation else {
        if let Some(note) = &snapshot.presentation_unavailable {
            let _ = write!(hover, "\nDISPLAYED: no presentation times: {note}");
        }
        return;
    };
    if let (Some(p50), Some(p95)) = (presentation.displayed_p50, presentation.displayed_p95) {
        let _ = write!(
            hover,
            "\nDISPLAYED: how long each shown frame stayed on screen (PresentMon's \
             MsBetweenDisplayChange), p50 / p95 {} / {} over {} frames wanted back to back",
            format_duration(p50),
            format_duration(p95),
            presentation.displayed_frames,
        );
    }
    let _ = write!(
        hover,
        "\n  from {}: {} shown, {} discarded, {} skipped, {} not reported",
        presentation.source,
        presentation.frames_shown,
        presentation.frames_discarded,
        presentation.frames_skipped,
        presentation.frames_unknown,
    );
    if let Some(period) = presentation.refresh_period {
        let _ = write!(hover, "; output refresh {}", format_duration(period));
    }
    let mut flags = presentation.flags.names().peekable();
    if flags.peek().is_some() {
        hover.push_str("; ");
        for (index, flag) in flags.enumerate() {
            if index > 0 {
                hover.push(' ');
            }
            hover.push_str(flag);
        }
    }
    if snapshot.miss_from_refresh_counter {
        hover.push_str("\n  MISS counts refreshes from the output's refresh counter (exact)");
    }
}

/// One hover line for a call site: `prefix rate/s file:line “reason”`.
fn push_site_line(
    hover: &mut String,
    prefix: &str,
    site: &crate::repaint::why_reading::RepaintSiteRate,
) {
    let _ = write!(
        hover,
        "\n{prefix} {:.1}/s {}",
        site.per_sec,
        site.short_location()
    );
    if let Some(reason) = &site.reason {
        let _ = write!(hover, " \u{201c}{reason}\u{201d}");
    }
}

/// The hover lines of WHY: the top five call sites with their reasons, the share of frames
/// that took more than one pass, and why passes were discarded.
fn push_why_hover(hover: &mut String, why: &WhyReading) {
    if why.top_sites.is_empty() {
        hover.push_str("\nWHY: no repaint requests from the app");
    }
    for site in &why.top_sites {
        push_site_line(hover, "WHY", site);
    }
    if why.other_sites_per_sec > 0.0 {
        let _ = write!(
            hover,
            "\nWHY {:.1}/s from other sites",
            why.other_sites_per_sec
        );
    }
    if let Some(share) = why.multi_pass_frames.filter(|&share| share > 0.0) {
        let _ = write!(
            hover,
            "\n{} of frames took more than one pass",
            format_percent(share * 100.0)
        );
        for reason in &why.top_discard_reasons {
            push_site_line(hover, "  discard", reason);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use profiler_core::{Bound, Snapshot};

    use super::ReadoutHover;

    /// The hover text for `snapshot` alone.
    fn hover_of(snapshot: &Snapshot) -> String {
        ReadoutHover {
            snapshot,
            why: None,
            unavailable_passes: &[],
            log: None,
        }
        .text()
    }

    #[test]
    fn the_hover_says_which_share_of_frames_the_gpu_timer_timed() {
        let mut snapshot =
            Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pinned budget"));
        snapshot.gpu_frame = Some(Duration::from_micros(900));
        snapshot.gpu_timed_share = Some(1.0);
        let hover = hover_of(&snapshot);
        assert!(!hover.contains("GPU timed in"), "{}", hover);
        snapshot.gpu_timed_share = Some(0.25);
        let hover = hover_of(&snapshot);
        assert!(
            hover.contains("GPU timed in 25% of frames"),
            "a sample: the hover says so: {hover}"
        );
    }

    #[test]
    fn the_hover_says_when_the_gpu_sets_max_fps() {
        let mut snapshot =
            Snapshot::empty(profiler_core::FrameBudget::new(None).expect("no pinned budget"));
        snapshot.frame = Some(Duration::from_micros(200));
        snapshot.gpu_frame = Some(Duration::from_millis(40));
        snapshot.max_fps_set_by = Some(Bound::Gpu);
        assert!(
            hover_of(&snapshot).contains("MAX FPS set by the GPU: 40.0 ms"),
            "{}",
            hover_of(&snapshot)
        );
        snapshot.max_fps_set_by = Some(Bound::Cpu);
        assert!(!hover_of(&snapshot).contains("set by the GPU"));
    }
}
