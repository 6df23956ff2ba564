//! What the HUD costs through the renderer, as a real window pays it: egui, the HUD and
//! egui-wgpu's `Renderer` (texture upload, `update_buffers` with the paint callbacks'
//! `prepare`, the render pass with their `paint`, submit) drawing a typical UI into an
//! offscreen texture, then waiting for the GPU as a vsynced present does. Nine columns, run
//! interleaved in one process so that they share the machine's state:
//!
//! - `without`: no HUD, no GPU timer: the app alone;
//! - `hidden`: the HUD shown for two seconds, then not called (GPU timer installed);
//! - `shown, no timer`: the HUD without GPU timing (as on glow);
//! - `shown`: the HUD with the GPU timer (the default on wgpu after `install`), which times
//!   at most 120 frames a second (`GpuSampling`'s default);
//! - `every GPU frame`: as `shown`, the timer timing every frame (`GpuSampling::EveryFrame`);
//! - `all rows`: as `shown`, with two CPU phases and a known refresh rate (MISS);
//! - `compact` and `number only`: the other presets, as `shown`;
//! - `without, again`: the app alone in a context of its own, last: its share over `without`
//!   is what two columns differ by with no HUD in either, the floor under every other share.
//!
//! Each column's CPU time per frame is split by stage of the frame (`run_ui`, with the
//! `fps_monitor` call and the app's own UI apart; tessellation; `update_buffers` with the
//! callbacks' `prepare`; the render pass with their `paint`; submit), and its refresh frames
//! (the 500 ms tick's) apart from the frames between them. The app's own UI is the same code in
//! every column: what it takes over `without` is the app slowed while the HUD is shown (by what
//! the HUD leaves in the caches, or egui's state it adds to; on lavapipe also by the driver's
//! work between frames), which no measure of the HUD's own counts; what is left of `run_ui`'s
//! share is the HUD's hooks and egui's work for the HUD. Allocations are counted per frame and
//! inside `fps_monitor`. Each column that shows the HUD also prints the HUD's own measure of
//! itself (the demo's `hud_cost_us`) over the whole run, with its GPU timer's share of frames.
//!
//! `cargo bench -p egui-hud --bench hud_render_cost` prints the table (needs a Vulkan adapter:
//! lavapipe here, any GPU elsewhere; `EGUI_HUD_BENCH_SIZE=WxH` sets the target size, default
//! 860x520, the demo's window; `EGUI_HUD_BENCH_COLUMNS="shown (full); compact"` runs only those
//! columns beside `without`, to profile one). Under `cargo test` it runs a few frames only, as a
//! smoke test.
#![expect(clippy::print_stdout, reason = "a bench binary prints its figures")]
#![expect(
    clippy::cast_precision_loss,
    reason = "per-frame means and allocation counts in a benchmark"
)]

use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "support/counting_allocator.rs"]
mod counting_allocator;
#[path = "support/own_measure.rs"]
mod own_measure;
#[path = "support/render_bench_setup.rs"]
mod render_bench_setup;
#[path = "support/typical_ui.rs"]
mod typical_ui;
use counting_allocator::{CountingAllocator, allocations};
use own_measure::OwnMeasure;
use render_bench_setup::{frames_and_rounds, idle_between_frames, micros, target_size};
use typical_ui::typical_ui;

use egui_hud::profiler_core;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Column {
    Without,
    Hidden,
    /// The full HUD without the GPU timer.
    ShownNoTimer,
    /// The full HUD (every row it has here), with the timer and its default sampling.
    Shown,
    /// The full HUD, the timer timing every frame (`GpuSampling::EveryFrame`).
    ShownEveryFrame,
    /// The full HUD with every row the app can turn on (phases, a refresh rate).
    AllRows,
    /// The default preset, with the timer.
    Compact,
    /// The number alone, with the timer.
    NumberOnly,
    /// The app alone again, in a context of its own: its share over `without` is what two
    /// columns differ by with nothing between them, the floor under every other share.
    WithoutAgain,
}

impl Column {
    const ALL: [Self; 9] = [
        Self::Without,
        Self::Hidden,
        Self::ShownNoTimer,
        Self::Shown,
        Self::ShownEveryFrame,
        Self::AllRows,
        Self::Compact,
        Self::NumberOnly,
        Self::WithoutAgain,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Without => "without",
            Self::Hidden => "hidden",
            Self::ShownNoTimer => "shown, no timer",
            Self::Shown => "shown (full)",
            Self::ShownEveryFrame => "every GPU frame",
            Self::AllRows => "all rows",
            Self::Compact => "compact",
            Self::NumberOnly => "number only",
            Self::WithoutAgain => "without, again",
        }
    }

    fn has_timer(self) -> bool {
        !matches!(
            self,
            Self::Without | Self::ShownNoTimer | Self::WithoutAgain
        )
    }

    fn shows_hud(self) -> bool {
        !matches!(self, Self::Without | Self::Hidden | Self::WithoutAgain)
    }

    fn gpu_sampling(self) -> egui_hud::GpuSampling {
        if self == Self::ShownEveryFrame {
            egui_hud::GpuSampling::EveryFrame
        } else {
            egui_hud::GpuSampling::default()
        }
    }

    fn preset(self) -> egui_hud::HudPreset {
        match self {
            Self::Compact => egui_hud::HudPreset::Compact,
            Self::NumberOnly => egui_hud::HudPreset::NumberOnly,
            _ => egui_hud::HudPreset::Full,
        }
    }
}

/// The CPU time of one frame, by stage, and its allocations.
#[derive(Clone, Copy, Default, Debug)]
struct FrameCost {
    run_ui: Duration,
    /// Inside `run_ui`: the `fps_monitor` call.
    show: Duration,
    /// Inside `run_ui`: the app's own UI (`typical_ui`), the same code in every column. The
    /// HUD's presence can slow it, a cost no measure of the HUD's own counts.
    app_ui: Duration,
    tessellate: Duration,
    /// Texture upload and `update_buffers` (the callbacks' `prepare` and `finish_prepare`).
    update_buffers: Duration,
    /// Beginning the render pass and `Renderer::render` (the callbacks' `paint`).
    render: Duration,
    submit: Duration,
    allocations: u64,
    show_allocations: u64,
    /// The HUD refreshed its readouts in this frame (its snapshot changed).
    refresh: bool,
}

impl FrameCost {
    fn total(&self) -> Duration {
        self.run_ui + self.tessellate + self.update_buffers + self.render + self.submit
    }
}

struct Target {
    ctx: egui::Context,
    column: Column,
    renderer: egui_wgpu::Renderer,
    view: wgpu::TextureView,
    size: [u32; 2],
    time_secs: f64,
    slider: f32,
    phases: Option<egui_hud::CpuPhases>,
    last_snapshot: Option<profiler_core::Snapshot>,
    /// The HUD's own measure over the run's frames (reset after the warm-up).
    own: OwnMeasure,
}

impl Target {
    fn new(column: Column, render_state: &egui_wgpu::RenderState, size: [u32; 2]) -> Self {
        let device = &render_state.device;
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("hud_render_cost target"),
            size: wgpu::Extent3d {
                width: size[0],
                height: size[1],
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let ctx = egui::Context::default();
        if column.has_timer() {
            egui_hud::install_wgpu(&ctx, device, &render_state.queue);
        }
        let mut target = Self {
            ctx,
            column,
            renderer: egui_wgpu::Renderer::new(
                device,
                format,
                egui_wgpu::RendererOptions::default(),
            ),
            view: texture.create_view(&wgpu::TextureViewDescriptor::default()),
            size,
            time_secs: 0.0,
            slider: 0.5,
            phases: None,
            last_snapshot: None,
            own: OwnMeasure::default(),
        };
        if column == Column::AllRows {
            egui_hud::set_refresh_rate(&target.ctx, Some(60.0));
            target.phases = Some(egui_hud::cpu_phases(&target.ctx));
        }
        if column == Column::Hidden {
            // Shown for two seconds, then not called for two: the HUD has gone quiet.
            for _ in 0..120 {
                target.frame(render_state, true);
            }
            for _ in 0..120 {
                target.frame(render_state, false);
            }
        }
        target
    }

    /// One frame of the app (and the HUD when `show_hud`), drawn and waited for.
    fn frame(&mut self, render_state: &egui_wgpu::RenderState, show_hud: bool) -> FrameCost {
        let mut cost = FrameCost::default();
        self.time_secs += 1.0 / 60.0;
        let points = egui::vec2(self.size[0] as f32, self.size[1] as f32);
        let input = egui::RawInput {
            time: Some(self.time_secs),
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, points)),
            ..Default::default()
        };
        let (slider, phases) = (&mut self.slider, self.phases.as_ref());
        let (preset, sampling) = (self.column.preset(), self.column.gpu_sampling());
        let allocations_at_start = allocations();
        let start = Instant::now();
        let mut output = self.ctx.run_ui(input, |ui| {
            {
                let _settings = phases.map(|p| p.start("settings"));
                let app_start = Instant::now();
                typical_ui(ui, slider);
                cost.app_ui = app_start.elapsed();
            }
            let _repaint = phases.map(|p| p.start("repaint"));
            // An animating app: its frames are its own.
            #[expect(clippy::disallowed_methods, reason = "the benchmark app animates")]
            ui.ctx().request_repaint();
            if show_hud {
                let (before, allocated) = (Instant::now(), allocations());
                egui_hud::FpsMonitor::new()
                    .sample_resources(false)
                    .preset(preset)
                    .gpu_sampling(sampling)
                    .show(ui.ctx());
                cost.show = before.elapsed();
                cost.show_allocations = allocations() - allocated;
            }
        });
        let ran = Instant::now();
        cost.run_ui = ran - start;
        let paint_jobs = self
            .ctx
            .tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
        let tessellated = Instant::now();
        cost.tessellate = tessellated - ran;
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: self.size,
            pixels_per_point: output.pixels_per_point,
        };
        let (device, queue) = (&render_state.device, &render_state.queue);
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                self.renderer.update_texture(device, queue, *id, delta);
            }
        }
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let mut buffers =
            self.renderer
                .update_buffers(device, queue, &mut encoder, &paint_jobs, &screen);
        let updated = Instant::now();
        cost.update_buffers = updated - tessellated;
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("egui"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &self.view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                .forget_lifetime();
            self.renderer.render(&mut pass, &paint_jobs, &screen);
        }
        let rendered = Instant::now();
        cost.render = rendered - updated;
        buffers.push(encoder.finish());
        queue.submit(buffers);
        cost.submit = rendered.elapsed();
        for id in &output.textures_delta.free {
            self.renderer.free_texture(id);
        }
        output.textures_delta.clear();
        cost.allocations = allocations() - allocations_at_start;
        // What a vsynced present does: the GPU finishes the frame before the next begins (no
        // backlog), and wgpu maps the buffers that finished. Not part of the CPU cost.
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
        if show_hud {
            let snapshot = egui_hud::snapshot(&self.ctx);
            cost.refresh = snapshot.is_some() && snapshot != self.last_snapshot;
            self.last_snapshot = snapshot;
            self.own
                .after_frame(self.last_snapshot.as_ref().filter(|_| cost.refresh));
        }
        cost
    }
}

/// A render state on the first adapter, with every timestamp feature it offers.
fn render_state() -> egui_wgpu::RenderState {
    let mut setup = egui_kittest::wgpu::default_wgpu_setup();
    if let egui_wgpu::WgpuSetup::CreateNew(create) = &mut setup {
        let base = Arc::clone(&create.device_descriptor);
        create.device_descriptor =
            Arc::new(move |adapter| gpu_timing::with_timestamp_features(base(adapter), adapter));
    }
    egui_kittest::wgpu::create_render_state(setup, egui_wgpu::RendererOptions::default())
}

/// The mean of `frames`' costs, by stage.
fn mean(frames: &[FrameCost]) -> FrameCost {
    let n = u32::try_from(frames.len().max(1)).unwrap_or(u32::MAX);
    let sum = |f: fn(&FrameCost) -> Duration| frames.iter().map(f).sum::<Duration>() / n;
    FrameCost {
        run_ui: sum(|c| c.run_ui),
        show: sum(|c| c.show),
        app_ui: sum(|c| c.app_ui),
        tessellate: sum(|c| c.tessellate),
        update_buffers: sum(|c| c.update_buffers),
        render: sum(|c| c.render),
        submit: sum(|c| c.submit),
        allocations: frames.iter().map(|c| c.allocations).sum::<u64>() / u64::from(n),
        show_allocations: frames.iter().map(|c| c.show_allocations).sum::<u64>() / u64::from(n),
        refresh: false,
    }
}

fn main() {
    run();
    exit_without_c_exit_handlers();
}

/// Ends the process once the tables are printed, without running the C libraries' exit
/// handlers: on NVIDIA hosts runs aborted in the driver's teardown after printing (3 of 14 on
/// an H200, 8 of 30 short runs on an H100; none of 30 with this), as the demo did on lavapipe
/// (see its `main.rs`).
#[cfg(unix)]
fn exit_without_c_exit_handlers() {
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
fn exit_without_c_exit_handlers() {}

fn run() {
    let (frames_per_round, rounds) = frames_and_rounds();
    let idle = idle_between_frames();
    let size = target_size();
    let render_state = render_state();
    let info = render_state.adapter.get_info();
    let mut targets: Vec<Target> = chosen_columns()
        .into_iter()
        .map(|column| Target::new(column, &render_state, size))
        .collect();
    for target in &mut targets {
        let show = target.column.shows_hud();
        for _ in 0..60 {
            target.frame(&render_state, show); // warm-up: caches, the HUD's own warm-up
        }
        target.own = OwnMeasure::default();
    }
    // Interleaved rounds: every column sees the same machine state.
    let mut costs: Vec<Vec<FrameCost>> = vec![Vec::new(); targets.len()];
    for _ in 0..rounds {
        for (target, costs) in targets.iter_mut().zip(&mut costs) {
            let show = target.column.shows_hud();
            for _ in 0..frames_per_round {
                costs.push(target.frame(&render_state, show));
                if !idle.is_zero() {
                    std::thread::sleep(idle);
                }
            }
        }
    }
    println!(
        "hud_render_cost: {} ({:?}), {}x{} target, {rounds} rounds x {frames_per_round} frames \
         per column, {} µs idle after each, CPU µs per frame (mean)",
        info.name,
        info.backend,
        size[0],
        size[1],
        idle.as_micros()
    );
    print_table(&targets, &costs);
}

/// The columns to run: `EGUI_HUD_BENCH_COLUMNS="compact; all rows"` (names as in the table, for
/// profiling one column against `without`), default all. `without` always runs first: the
/// shares are taken over it.
fn chosen_columns() -> Vec<Column> {
    let Ok(names) = std::env::var("EGUI_HUD_BENCH_COLUMNS") else {
        return Column::ALL.to_vec();
    };
    // Matched as text, since a name holds a comma ("shown, no timer").
    Column::ALL
        .into_iter()
        .filter(|column| *column == Column::Without || names.contains(column.name()))
        .collect()
}

/// The table: each column's stages, its refresh frames apart; then each column's share over
/// `without`.
fn print_table(targets: &[Target], costs: &[Vec<FrameCost>]) {
    println!(
        "  {:<16} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} | {:>7} {:>6} | {:>9} {:>9}",
        "column",
        "run_ui",
        "(show)",
        "(app)",
        "tess",
        "buffers",
        "render",
        "submit",
        "total",
        "allocs",
        "(show)",
        "refresh",
        "max"
    );
    let without = mean(&costs[0]);
    let mut rows = Vec::new();
    for (target, costs) in targets.iter().zip(costs) {
        let between: Vec<FrameCost> = costs.iter().filter(|c| !c.refresh).copied().collect();
        let refreshes: Vec<FrameCost> = costs.iter().filter(|c| c.refresh).copied().collect();
        let m = mean(&between);
        let refresh_mean = (!refreshes.is_empty()).then(|| mean(&refreshes).total());
        let refresh_max = refreshes.iter().map(FrameCost::total).max();
        println!(
            "  {:<16} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} | {:>7} {:>6} | {:>9} {:>9}",
            target.column.name(),
            micros(m.run_ui),
            micros(m.show),
            micros(m.app_ui),
            micros(m.tessellate),
            micros(m.update_buffers),
            micros(m.render),
            micros(m.submit),
            micros(m.total()),
            m.allocations,
            m.show_allocations,
            refresh_mean.map_or_else(|| "-".to_owned(), |d| format!("{:.1}", micros(d))),
            refresh_max.map_or_else(|| "-".to_owned(), |d| format!("{:.1}", micros(d))),
        );
        let refresh = (!refreshes.is_empty()).then(|| mean(&refreshes));
        rows.push((target.column, m, refresh, refreshes.len(), costs.len()));
    }
    println!("  the HUD's share (column minus `without`, frames between refreshes):");
    for (column, m, _, refreshes, frames) in rows.iter().skip(1) {
        let share = |f: fn(&FrameCost) -> Duration| micros(f(m)) - micros(f(&without));
        println!(
            "  {:<16} total {:+7.1} µs = run_ui {:+6.1} (fps_monitor {:.1}, the app's UI {:+.1}, \
             hooks and egui {:+.1}) tess {:+5.1} buffers {:+5.1} render {:+5.1} submit {:+5.1}; \
             allocations {:+}; {refreshes} refresh frames of {frames}",
            column.name(),
            share(FrameCost::total),
            share(|c| c.run_ui),
            micros(m.show),
            share(|c| c.app_ui),
            share(|c| c.run_ui) - micros(m.show) - share(|c| c.app_ui),
            share(|c| c.tessellate),
            share(|c| c.update_buffers),
            share(|c| c.render),
            share(|c| c.submit),
            i128::from(m.allocations) - i128::from(without.allocations),
        );
    }
    println!(
        "  the HUD's own measure (hud_cost_us), the mean of the run's windows (lowest–highest):"
    );
    for target in targets {
        if let Some(summary) = target.own.summary() {
            println!("  {:<16} {summary}", target.column.name());
        }
    }
    println!("  refresh frames: mean by stage, and the HUD's share over `without`'s frames:");
    for (column, _, refresh, _, _) in &rows {
        let Some(r) = refresh else {
            continue;
        };
        let share = |f: fn(&FrameCost) -> Duration| micros(f(r)) - micros(f(&without));
        println!(
            "  {:<16} total {:7.1} µs (share {:+7.1}) = run_ui {:+6.1} (fps_monitor {:.1}) \
             tess {:+5.1} buffers {:+5.1} render {:+5.1} submit {:+5.1}; allocations {:+}",
            column.name(),
            micros(r.total()),
            share(FrameCost::total),
            share(|c| c.run_ui),
            micros(r.show),
            share(|c| c.tessellate),
            share(|c| c.update_buffers),
            share(|c| c.render),
            share(|c| c.submit),
            i128::from(r.allocations) - i128::from(without.allocations),
        );
    }
    print_slowest(targets, costs);
}

/// The app's own slowest frames beside each column's slowest refresh frame and the HUD's
/// `fps_monitor` in it: a refresh frame's whole time includes the host's jitter, which
/// `without` shows.
fn print_slowest(targets: &[Target], costs: &[Vec<FrameCost>]) {
    let mut app: Vec<Duration> = costs[0].iter().map(FrameCost::total).collect();
    app.sort_unstable();
    let Some(&app_max) = app.last() else {
        return;
    };
    // Nearest rank: the ⌈0.99·n⌉-th smallest.
    let app_p99 = app[(app.len() * 99).div_ceil(100) - 1];
    println!(
        "  slowest frames: `without` {:.1} µs (p99 {:.1}) of {}; each column's slowest refresh \
         frame, whole, and the most `fps_monitor` took in a refresh frame:",
        micros(app_max),
        micros(app_p99),
        app.len()
    );
    for (target, costs) in targets.iter().zip(costs).skip(1) {
        let refreshes = costs.iter().filter(|c| c.refresh);
        let slowest = refreshes.clone().map(FrameCost::total).max();
        let most_show = refreshes.map(|c| c.show).max();
        if let (Some(slowest), Some(most_show)) = (slowest, most_show) {
            println!(
                "  {:<16} {:7.1} µs whole, fps_monitor at most {:.1} µs",
                target.column.name(),
                micros(slowest),
                micros(most_show)
            );
        }
    }
}
