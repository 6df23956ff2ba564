//! The GPU row on a real wgpu device (lavapipe in CI): egui's own pass and an app pass are timed
//! through the shared timer, and a hidden HUD takes no timestamp slots.
//!
//! Without a Vulkan/Metal/DX12 adapter that has the timestamp features this test prints why and
//! passes, unless `EGUI_HUD_REQUIRE_GPU=1` (CI) makes that a failure.
#![cfg(feature = "wgpu")]
#![expect(clippy::print_stdout, reason = "a skipped test says why")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_hud::profiler_core::{
    Clock, LatencyEnd, LatencyReading, LatencyStage, ManualClock, SamplerConfig, Snapshot,
};
use egui_hud::{EguiGpuTimer, FpsMonitor, GpuSampling};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use egui_kittest::wgpu::WgpuTestRenderer;
use wgpu::util::DeviceExt as _;

/// Holds the lock that runs this file's tests one at a time. lavapipe renders on the CPU, so
/// one test's rendering would lengthen another's GPU passes while it measures them (the latency
/// test compares the `gpu` stage with egui's pass: 3 of 8 runs failed with all four in parallel).
fn one_gpu_test_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static GPU: std::sync::Mutex<()> = std::sync::Mutex::new(());
    GPU.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A render state whose device has every timestamp feature the adapter offers, or `None`.
fn render_state_with_timestamps() -> Option<egui_wgpu::RenderState> {
    let mut setup = egui_kittest::wgpu::default_wgpu_setup();
    if let egui_wgpu::WgpuSetup::CreateNew(create) = &mut setup {
        let base = Arc::clone(&create.device_descriptor);
        create.device_descriptor =
            Arc::new(move |adapter| gpu_timing::with_timestamp_features(base(adapter), adapter));
    }
    // kittest panics when there is no adapter at all.
    let render_state = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        egui_kittest::wgpu::create_render_state(setup, egui_wgpu::RendererOptions::PREDICTABLE)
    }))
    .ok();
    let full = render_state.as_ref().is_some_and(|rs| {
        rs.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES)
    });
    if !full {
        assert!(
            std::env::var("EGUI_HUD_REQUIRE_GPU").as_deref() != Ok("1"),
            "no adapter with TIMESTAMP_QUERY_INSIDE_PASSES and EGUI_HUD_REQUIRE_GPU=1: install mesa-vulkan-drivers"
        );
        println!("skipped: no wgpu adapter with TIMESTAMP_QUERY_INSIDE_PASSES");
        return None;
    }
    render_state
}

/// An app pass: clears a small offscreen texture in its own render pass, timed under its label.
struct AppPass(&'static str);

struct AppTarget(wgpu::TextureView);

impl egui_wgpu::CallbackTrait for AppPass {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let target = resources.entry::<AppTarget>().or_insert_with(|| {
            let texture = device.create_texture_with_data(
                queue,
                &wgpu::TextureDescriptor {
                    label: Some("app pass target"),
                    size: wgpu::Extent3d {
                        width: 64,
                        height: 64,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Rgba8Unorm,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                },
                wgpu::util::TextureDataOrder::LayerMajor,
                &[0; 64 * 64 * 4],
            );
            AppTarget(texture.create_view(&wgpu::TextureViewDescriptor::default()))
        });
        let timer = TIMER.with(|t| t.borrow().clone());
        let stamps = timer.as_ref().and_then(|t| t.pass_timestamps(self.0));
        let _pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(self.0),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target.0,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::RED),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: stamps.as_ref().map(|s| s.render_pass_writes()),
            occlusion_query_set: None,
            multiview_mask: None,
        });
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        _render_pass: &mut wgpu::RenderPass<'static>,
        _resources: &egui_wgpu::CallbackResources,
    ) {
    }
}

thread_local! {
    /// The timer the app pass uses: kittest renders on the test's thread.
    static TIMER: std::cell::RefCell<Option<EguiGpuTimer>> = const { std::cell::RefCell::new(None) };
}

/// Installs the HUD's GPU timer on `ctx` and hands it to [`AppPass`] (through `TIMER`).
#[expect(clippy::expect_used, reason = "a test helper fails loudly")]
fn install_for_app_passes(ctx: &egui::Context, device: &wgpu::Device, queue: &wgpu::Queue) {
    egui_hud::install_wgpu(ctx, device, queue);
    let timer = egui_hud::gpu_timer(ctx).expect("timer buffers");
    TIMER.with(|t| *t.borrow_mut() = Some(timer));
}

/// Paints an [`AppPass`] labelled "app" near the UI's top-left corner.
fn paint_app_pass(ui: &egui::Ui) {
    let rect = egui::Rect::from_min_size(egui::pos2(10.0, 40.0), egui::vec2(64.0, 64.0));
    ui.painter().add(egui_wgpu::Callback::new_paint_callback(
        rect,
        AppPass("app"),
    ));
}

/// The labels of the GPU passes in `snapshot`.
fn pass_labels(snapshot: &Snapshot) -> Vec<&str> {
    snapshot
        .gpu_passes
        .iter()
        .map(|p| p.label.as_str())
        .collect()
}

/// The HUD's own drawing is timed in its own scope, inside egui's pass, and left out of the
/// app's GPU time: no pass under its label, and its time on the side.
fn assert_the_huds_gpu_time_is_apart(snapshot: &Snapshot, labels: &[&str]) {
    assert!(
        !labels.contains(&"egui-hud"),
        "the HUD's scope is not an app pass: {labels:?}"
    );
    let Some(hud_gpu) = snapshot.gpu_overlay_cost else {
        panic!("the HUD's own GPU time is measured: {snapshot:?}");
    };
    assert!(hud_gpu > Duration::ZERO, "{hud_gpu:?}");
}

/// The HUD with its GPU timer timing every frame: these tests count frames' results.
fn every_frame_hud() -> FpsMonitor {
    FpsMonitor::new()
        .sample_resources(false)
        .gpu_sampling(GpuSampling::EveryFrame)
}

#[test]
fn egui_and_app_passes_are_timed_and_a_hidden_hud_takes_no_slots() {
    let _one_at_a_time = one_gpu_test_at_a_time();
    let Some(render_state) = render_state_with_timestamps() else {
        return;
    };
    let mut harness = app_pass_harness(render_state, egui::vec2(320.0, 360.0)).build_ui_state(
        |ui, shown: &mut bool| {
            ui.label("app");
            paint_app_pass(ui);
            #[expect(clippy::disallowed_methods, reason = "the test app animates")]
            ui.ctx().request_repaint();
            if *shown {
                every_frame_hud().show(ui.ctx());
            }
        },
        true,
    );
    harness.run_steps(30);
    let timer = egui_hud::gpu_timer(&harness.ctx).expect("installed");
    let snapshot = egui_hud::snapshot(&harness.ctx).expect("the HUD ticked");
    let labels = pass_labels(&snapshot);
    assert!(
        labels.contains(&"egui") && labels.contains(&"app"),
        "both passes timed: {labels:?}"
    );
    for pass in &snapshot.gpu_passes {
        assert!(
            pass.last > Duration::ZERO && pass.max >= pass.last,
            "{pass:?}"
        );
    }
    let gpu_frame = snapshot.gpu_frame.expect("GPU time per frame");
    let egui_mean = snapshot
        .gpu_passes
        .iter()
        .find(|p| p.label == "egui")
        .map(|p| p.mean);
    assert!(
        Some(gpu_frame) >= egui_mean,
        "a frame's GPU time includes its egui pass"
    );
    assert_the_huds_gpu_time_is_apart(&snapshot, &labels);
    assert!(
        harness.query_all_by_label_contains("GPU ").next().is_some(),
        "the GPU row is shown"
    );
    assert!(
        harness.query_by_label_contains("BOUND").is_some(),
        "the BOUND line is shown"
    );

    // Hidden for 6 s of egui time (more frames than a slot has pairs): the app still renders
    // its pass, untimed.
    *harness.state_mut() = false;
    harness.run_steps(24);
    let stats = timer.timer().stats();
    assert_eq!(
        stats.skipped_passes, 0,
        "no slots were taken while hidden: {stats:?}"
    );
    *harness.state_mut() = true;
    harness.run_steps(30);
    let after = egui_hud::snapshot(&harness.ctx).expect("ticked again");
    assert!(
        after.gpu_passes.iter().any(|p| p.label == "app"),
        "the app pass is timed again after re-showing"
    );
    assert_eq!(
        timer.timer().stats().skipped_passes,
        0,
        "{:?}",
        timer.timer().stats()
    );

    // An app that clears egui's memory keeps what `install` set up.
    harness.ctx.memory_mut(|memory| memory.data.clear());
    harness.run_steps(30);
    assert!(
        egui_hud::gpu_timer(&harness.ctx).is_some(),
        "the GPU timer survives a memory clear"
    );
    let cleared = egui_hud::snapshot(&harness.ctx).expect("ticked after the clear");
    assert!(
        cleared.gpu_passes.iter().any(|p| p.label == "egui"),
        "egui's pass is still timed: {cleared:?}"
    );
}

/// A timed frame of an app that times no GPU pass of its own has three paint callbacks, not
/// four: egui's end stamp does the begin callback's work (a callback is CPU work in egui's
/// painter and egui-wgpu every frame), and egui's pass and the HUD's own drawing are still timed apart. Once the app times a pass
/// of its own, its frames get the begin callback again, first in paint order, and the pass is
/// timed.
#[test]
fn a_timed_frame_without_app_passes_has_no_begin_callback() {
    let _one_at_a_time = one_gpu_test_at_a_time();
    let Some(render_state) = render_state_with_timestamps() else {
        return;
    };
    let mut harness = app_pass_harness(render_state, egui::vec2(320.0, 360.0)).build_ui_state(
        |ui, app_pass: &mut bool| {
            ui.label("app");
            if *app_pass {
                paint_app_pass(ui);
            }
            #[expect(clippy::disallowed_methods, reason = "the test app animates")]
            ui.ctx().request_repaint();
            every_frame_hud().show(ui.ctx());
        },
        false,
    );
    harness.run_steps(40); // the warm-up, then timed frames and a refresh with their results
    assert_eq!(
        paint_callbacks(&harness),
        3,
        "egui's end stamp (with the begin work) and the HUD's two"
    );
    let snapshot = egui_hud::snapshot(&harness.ctx).expect("the HUD ticked");
    let labels = pass_labels(&snapshot);
    assert_eq!(labels, ["egui"], "egui's pass is timed: {snapshot:?}");
    assert_the_huds_gpu_time_is_apart(&snapshot, &labels);

    *harness.state_mut() = true;
    harness.run_steps(40);
    assert_eq!(
        paint_callbacks(&harness),
        1 + 4,
        "the app's pass, and the timer's begin callback back with the other three"
    );
    let snapshot = egui_hud::snapshot(&harness.ctx).expect("the HUD ticked");
    let labels = pass_labels(&snapshot);
    assert!(
        labels.contains(&"egui") && labels.contains(&"app"),
        "both passes timed: {labels:?}"
    );
    assert_the_huds_gpu_time_is_apart(&snapshot, &labels);
}

/// Renders one frame of `viewport` as an integration does for each window: the app paints an
/// app pass labelled `app_label` and shows the HUD; egui's output is drawn into `target`.
/// Returns the HUD's snapshot, taken in the frame.
fn render_viewport_frame(
    ctx: &egui::Context,
    render_state: &egui_wgpu::RenderState,
    target: &wgpu::TextureView,
    viewport: egui::ViewportId,
    app_label: &'static str,
) -> Option<Snapshot> {
    render_frame(ctx, render_state, target, viewport, |ui| {
        ui.label(app_label);
        if viewport == egui::ViewportId::ROOT {
            // As an app does every frame to keep its child window open.
            ui.ctx().show_viewport_deferred(
                egui::ViewportId::from_hash_of("child"),
                egui::ViewportBuilder::default(),
                |_, _| {},
            );
        }
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 40.0), egui::vec2(64.0, 64.0));
        ui.painter().add(egui_wgpu::Callback::new_paint_callback(
            rect,
            AppPass(app_label),
        ));
    })
}

thread_local! {
    /// How long the latest `render_frame`'s `run_ui` took, on the test's own clock: the HUD's
    /// `ui` stage (its input hook to its output hook) lies inside it.
    static LAST_RUN_UI: std::cell::Cell<Duration> =
        const { std::cell::Cell::new(Duration::ZERO) };
}

/// Runs `app` and the HUD in one frame of `viewport` and draws egui's output into `target`,
/// as an integration does; returns the HUD's snapshot, taken in the frame.
fn render_frame(
    ctx: &egui::Context,
    render_state: &egui_wgpu::RenderState,
    target: &wgpu::TextureView,
    viewport: egui::ViewportId,
    mut app: impl FnMut(&mut egui::Ui),
) -> Option<Snapshot> {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let size = egui::vec2(320.0, 240.0);
    let input = egui::RawInput {
        viewport_id: viewport,
        viewports: std::iter::once((viewport, egui::ViewportInfo::default())).collect(),
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
        // Real time, as an integration gives it.
        time: Some(EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64()),
        ..Default::default()
    };
    let mut snapshot = None;
    let run_ui_start = Instant::now();
    let mut output = ctx.run_ui(input, |ui| {
        app(ui);
        every_frame_hud().show(ui.ctx());
        snapshot = egui_hud::snapshot(ui.ctx());
    });
    LAST_RUN_UI.set(run_ui_start.elapsed());
    let paint_jobs = ctx.tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [320, 240],
        pixels_per_point: output.pixels_per_point,
    };
    let (device, queue) = (&render_state.device, &render_state.queue);
    let mut renderer = render_state.renderer.write();
    for (id, deltas) in &output.textures_delta.set {
        for delta in deltas {
            renderer.update_texture(device, queue, *id, delta);
        }
    }
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let mut buffers = renderer.update_buffers(device, queue, &mut encoder, &paint_jobs, &screen);
    {
        let mut pass = encoder
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
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
        renderer.render(&mut pass, &paint_jobs, &screen);
    }
    buffers.push(encoder.finish());
    queue.submit(buffers);
    for id in &output.textures_delta.free {
        renderer.free_texture(id);
    }
    output.textures_delta.clear();
    drop(renderer);
    // What presenting a surface with vsync does: waits for the GPU to finish the frame (no
    // backlog of frames queued), and lets wgpu map the buffers that finished.
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    snapshot
}

/// Two viewports of one app on one device, each with its own app pass: each HUD shows its own
/// viewport's passes and egui pass, not the other's.
#[test]
fn each_viewport_gets_its_own_gpu_passes() {
    let _one_at_a_time = one_gpu_test_at_a_time();
    let Some(render_state) = render_state_with_timestamps() else {
        return;
    };
    let ctx = egui::Context::default();
    ctx.set_embed_viewports(false);
    egui_hud::install_wgpu(&ctx, &render_state.device, &render_state.queue);
    let timer = egui_hud::gpu_timer(&ctx).expect("timer buffers");
    TIMER.with(|t| *t.borrow_mut() = Some(timer));
    let target = window_target(&render_state);
    let child = egui::ViewportId::from_hash_of("child");
    let (mut root_snapshot, mut child_snapshot) = (None, None);
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        root_snapshot = render_viewport_frame(
            &ctx,
            &render_state,
            &target,
            egui::ViewportId::ROOT,
            "root-app",
        );
        child_snapshot = render_viewport_frame(&ctx, &render_state, &target, child, "child-app");
        let has = |snapshot: &Option<Snapshot>, label: &str| {
            snapshot
                .as_ref()
                .is_some_and(|s| s.gpu_passes.iter().any(|p| p.label == label))
        };
        if has(&root_snapshot, "root-app") && has(&child_snapshot, "child-app") {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let labels = |snapshot: &Option<Snapshot>| -> Vec<String> {
        let snapshot = snapshot.as_ref().expect("the HUD ticked");
        let mut labels: Vec<String> = snapshot
            .gpu_passes
            .iter()
            .map(|p| p.label.clone())
            .collect();
        labels.sort();
        labels
    };
    assert_eq!(
        labels(&root_snapshot),
        ["egui", "root-app"],
        "the root's HUD shows the root's passes only"
    );
    assert_eq!(
        labels(&child_snapshot),
        ["child-app", "egui"],
        "the child's HUD shows the child's passes only"
    );
    for snapshot in [&root_snapshot, &child_snapshot] {
        let snapshot = snapshot.as_ref().expect("ticked");
        assert!(
            snapshot.gpu_frame.is_some(),
            "GPU time per frame: {snapshot:?}"
        );
        assert!(
            snapshot.gpu_overlay_cost.is_some(),
            "the HUD's own GPU time: {snapshot:?}"
        );
    }
}

/// A 320x240 render target in the render state's format.
fn window_target(render_state: &egui_wgpu::RenderState) -> wgpu::TextureView {
    render_state
        .device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("window"),
            size: wgpu::Extent3d {
                width: 320,
                height: 240,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: render_state.target_format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        })
        .create_view(&wgpu::TextureViewDescriptor::default())
}

/// The reading of `stage` in `snapshot`.
fn stage(snapshot: &Snapshot, stage: LatencyStage) -> LatencyReading {
    *snapshot
        .latency
        .iter()
        .find(|r| r.stage == stage)
        .unwrap_or_else(|| panic!("{stage:?} is listed: {snapshot:?}"))
}

/// Translucent full-window rectangles the latency test draws in egui's pass: a GPU workload.
const OVERDRAW: usize = 12;

/// The latency path on lavapipe: an 8 ms CPU spin in the UI lands in the `ui` stage, a GPU
/// workload drawn in egui's pass (overdraw) in the `gpu` stage, both within 20 %; the stages
/// of one frame add up to its start → next start exactly; without the GPU timer the stages it
/// places are absent, not zero.
#[test]
fn latency_stages_place_a_cpu_spin_and_a_gpu_workload() {
    let _one_at_a_time = one_gpu_test_at_a_time();
    let Some(render_state) = render_state_with_timestamps() else {
        return;
    };
    let spin = Duration::from_millis(8);
    // When the timed context's app last asked for a frame, on the test's own clock.
    let requested_at = std::cell::Cell::new(None::<Instant>);
    let app = |ui: &mut egui::Ui, timed: bool| {
        let start = Instant::now();
        while start.elapsed() < spin {
            std::hint::spin_loop();
        }
        if timed {
            requested_at.set(Some(Instant::now()));
        }
        // An animating app: the request wakes the next frame (the wake stage).
        #[expect(clippy::disallowed_methods, reason = "the test app animates")]
        ui.ctx().request_repaint();
        // Overdraw: translucent full-window rectangles, all drawn in egui's pass.
        let screen = ui.ctx().content_rect();
        for _ in 0..OVERDRAW {
            ui.painter().rect_filled(
                screen,
                0.0,
                egui::Color32::from_rgba_unmultiplied(200, 100, 50, 8),
            );
        }
    };
    let timed = egui::Context::default();
    egui_hud::install_wgpu(&timed, &render_state.device, &render_state.queue);
    assert!(egui_hud::gpu_timer(&timed).is_some(), "timer");
    let untimed = egui::Context::default();
    let target = window_target(&render_state);
    let (mut with_gpu, mut without_gpu) = (None, None);
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut frames = 0;
    // Each timed frame's request (made in the frame before) → the GPU finished it, measured
    // by the test: `render_frame` waits for the GPU before it returns.
    let mut request_to_done = Vec::new();
    // Each timed frame's `run_ui`, measured by the test (the `ui` stage lies inside it).
    let mut run_ui_times = Vec::new();
    while Instant::now() < deadline {
        frames += 1;
        let request = requested_at.get();
        with_gpu = render_frame(
            &timed,
            &render_state,
            &target,
            egui::ViewportId::ROOT,
            |ui| {
                app(ui, true);
            },
        );
        if let Some(request) = request {
            request_to_done.push(request.elapsed());
        }
        run_ui_times.push(LAST_RUN_UI.get());
        without_gpu = render_frame(
            &untimed,
            &render_state,
            &target,
            egui::ViewportId::ROOT,
            |ui| app(ui, false),
        );
        if with_gpu.as_ref().is_some_and(|s| {
            s.latency
                .iter()
                .any(|r| r.stage == LatencyStage::Gpu && r.frames >= 20)
        }) {
            break;
        }
    }
    let with_gpu = with_gpu.expect("the HUD ticked");
    println!(
        "{frames} frames; latency with GPU marks: {:#?}",
        with_gpu.latency
    );

    assert!(
        stage(&with_gpu, LatencyStage::Wake).frames > 0,
        "the request each frame makes is the next one's wake mark"
    );
    assert_the_ui_stage_holds_the_spin(&with_gpu, &run_ui_times, spin);
    let gpu = stage(&with_gpu, LatencyStage::Gpu).p50.expect("gpu p50");
    let egui_pass = with_gpu
        .gpu_passes
        .iter()
        .find(|p| p.label == "egui")
        .expect("egui's pass is timed")
        .mean;
    let hud_gpu = with_gpu.gpu_overlay_cost.unwrap_or_default();
    // The stage runs from egui's pass begin to its end, the HUD's drawing included.
    let pass = egui_pass + hud_gpu;
    assert!(
        pass > spin / 8,
        "the overdraw is a real GPU workload: {pass:?}"
    );
    assert!(
        gpu.as_secs_f64() >= pass.as_secs_f64() * 0.8
            && gpu.as_secs_f64() <= pass.as_secs_f64() * 1.2,
        "the gpu stage is egui's pass: {gpu:?} vs {pass:?}"
    );
    assert_the_stages_add_up(&with_gpu);
    let without_gpu = without_gpu.expect("the HUD ticked");
    assert_latency_is_request_to_gpu_end(&with_gpu, &without_gpu, &request_to_done);
    assert_no_gpu_stages(&without_gpu);
    assert_gpu_events_fall_in_their_frames(&timed, &with_gpu);
}

/// Each frame's `ui` stage holds its spin and lies inside its `run_ui` (measured by the test).
#[expect(
    clippy::expect_used,
    reason = "a test helper: a missing reading fails the test"
)]
fn assert_the_ui_stage_holds_the_spin(
    with_gpu: &Snapshot,
    run_ui_times: &[Duration],
    spin: Duration,
) {
    let ui_reading = stage(with_gpu, LatencyStage::Ui);
    let ui = ui_reading.p50.expect("ui p50");
    // Each frame's `ui` stage holds its spin and lies inside its `run_ui`, so the median of the
    // HUD's frames lies at most at that rank of their `run_ui`s (a loaded machine stretches
    // both, never the order); `run_ui_times` holds every timed frame, the first one's too.
    let (_, run_ui) = median_bounds(&run_ui_times[WARMUP_FRAMES..], ui_reading.frames);
    assert!(
        ui >= spin && ui <= run_ui,
        "the 8 ms spin is in the ui stage: {ui:?}, inside run_ui's {run_ui:?}"
    );
}

/// The warm-up frames the HUD leaves out: the first of a context's frames.
const WARMUP_FRAMES: usize = SamplerConfig::DEFAULT_WARMUP_FRAMES as usize;

/// Where the median of the HUD's `frames` frames can lie among `measured`, the test's own
/// measure of each frame after the warm-up, in order. The HUD's are `frames` of them, but not
/// which: the latest wait for their GPU results (read back in groups), so its window lags the
/// test's by a few frames. Whichever they are, the r-th smallest of the HUD's frames is at least
/// the r-th smallest of `measured` and at most the (r + left out)-th: a bound that holds however
/// the frame times drift during the run (a loaded CI machine's do), where comparing the median
/// of the test's latest frames with the HUD's did not.
fn median_bounds(measured: &[Duration], frames: usize) -> (Duration, Duration) {
    assert!(
        frames > 0 && frames <= measured.len(),
        "the HUD's {frames} frames are among the test's {} after the warm-up",
        measured.len()
    );
    let mut sorted = measured.to_vec();
    sorted.sort_unstable();
    let left_out = sorted.len() - frames;
    // Nearest rank, either way of rounding an even count: rank (frames - 1) / 2 or frames / 2.
    (sorted[(frames - 1) / 2], sorted[frames / 2 + left_out])
}

/// The stages of the latest complete frame add up to its start → next start, exactly.
#[expect(
    clippy::expect_used,
    reason = "a test helper: a missing mark fails the test"
)]
fn assert_the_stages_add_up(with_gpu: &Snapshot) {
    let marks = with_gpu.latency_latest.expect("a complete frame");
    let path: i64 = LatencyStage::FRAME_PATH
        .iter()
        .map(|&s| marks.stage_nanos(s).expect("every mark on wgpu"))
        .sum();
    let frame_span = marks
        .next_frame_start
        .expect("next start")
        .checked_sub(marks.frame_start.expect("start"))
        .expect("the next frame starts after this one");
    assert_eq!(
        u128::try_from(path).expect("positive"),
        frame_span.as_nanos(),
        "the stages of one frame add up to its start → next start"
    );
}

/// LATENCY (seed 002's core latency): each frame's own request → GPU end, against the test's
/// own request → GPU done of the same frames (`render_frame` waits for the GPU, which adds only
/// the wait's wake-up); request → UI end without GPU marks.
#[expect(
    clippy::expect_used,
    reason = "a test helper: a missing reading fails the test"
)]
fn assert_latency_is_request_to_gpu_end(
    with_gpu: &Snapshot,
    without_gpu: &Snapshot,
    request_to_done: &[Duration],
) {
    let total = with_gpu.latency_total.expect("LATENCY on wgpu");
    assert_eq!(
        total.end,
        LatencyEnd::GpuEnd,
        "wgpu with the timer: {total:?}"
    );
    // `request_to_done` starts at the second timed frame (the first has no request before it).
    let (low, high) = median_bounds(&request_to_done[WARMUP_FRAMES - 1..], total.frames);
    println!("LATENCY {total:?}; measured request → GPU done, median within {low:?}..={high:?}");
    assert!(
        total.p50.as_secs_f64() >= low.as_secs_f64() * 0.8
            && total.p50.as_secs_f64() <= high.as_secs_f64() * 1.2,
        "LATENCY p50 {:?} is request → GPU end, measured median within {low:?}..={high:?}",
        total.p50
    );
    assert!(
        total.frames > 0 && total.frames <= total.frames_seen,
        "{total:?}"
    );
    assert_eq!(
        without_gpu.latency_total.map(|t| t.end),
        Some(LatencyEnd::UiEnd),
        "without GPU marks LATENCY ends at the UI's hand-off"
    );
}

/// In the Chrome trace export, each GPU pass lies between its frame's start and the next
/// frame's start, within the clock calibration's uncertainty.
#[expect(
    clippy::expect_used,
    reason = "a test helper: a missing field fails the test"
)]
fn assert_gpu_events_fall_in_their_frames(ctx: &egui::Context, snapshot: &Snapshot) {
    let mut json = Vec::new();
    egui_hud::export(ctx, egui_hud::ExportFormat::ChromeTrace, &mut json).expect("export");
    let trace: serde_json::Value = serde_json::from_slice(&json).expect("JSON");
    let events = trace["traceEvents"].as_array().expect("events");
    let complete = |tid: u64| {
        events
            .iter()
            .filter(move |e| e["ph"] == "X" && e["tid"] == tid)
            .map(|e| {
                let ts = e["ts"].as_f64().expect("ts");
                (
                    e["name"].as_str().unwrap_or_default().to_owned(),
                    ts,
                    ts + e["dur"].as_f64().expect("dur"),
                )
            })
    };
    let mut frame_starts: Vec<f64> = complete(1)
        .filter(|(name, _, _)| name.starts_with("frame "))
        .map(|(_, start, _)| start)
        .collect();
    frame_starts.sort_by(f64::total_cmp);
    let uncertainty_us = snapshot
        .gpu_clock_uncertainty
        .expect("a calibration in use")
        .as_secs_f64()
        * 1e6;
    let gpu: Vec<(String, f64, f64)> = complete(2).collect();
    assert!(
        gpu.iter().any(|(name, _, _)| name == "egui"),
        "egui's pass is on the GPU track"
    );
    for (name, start, end) in &gpu {
        let inside = frame_starts
            .windows(2)
            .any(|pair| *start >= pair[0] - uncertainty_us && *end <= pair[1] + uncertainty_us);
        let last = frame_starts
            .last()
            .is_some_and(|&last| *start >= last - uncertainty_us);
        assert!(
            inside || last,
            "{name} [{start}, {end}] µs falls between its frame's start and the next (± {uncertainty_us} µs)"
        );
    }
}

/// Without the GPU timer (glow, or wgpu before `install`), the stages its paint and GPU marks
/// bound are absent, not zero; the UI stage is read.
fn assert_no_gpu_stages(without_gpu: &Snapshot) {
    assert!(
        stage(without_gpu, LatencyStage::Ui).frames > 0,
        "ui is read"
    );
    for absent in [
        LatencyStage::Tessellation,
        LatencyStage::Encode,
        LatencyStage::Queue,
        LatencyStage::Gpu,
        LatencyStage::AfterGpu,
    ] {
        let reading = stage(without_gpu, absent);
        assert_eq!(
            (reading.frames, reading.p50),
            (0, None),
            "{absent:?} is absent without the GPU timer"
        );
    }
}

/// A harness of `size` drawing on `render_state` every step, with the HUD's GPU timer installed.
fn timed_harness<State>(
    render_state: egui_wgpu::RenderState,
    size: egui::Vec2,
) -> egui_kittest::HarnessBuilder<State> {
    let (device, queue) = (render_state.device.clone(), render_state.queue.clone());
    Harness::builder()
        .with_size(size)
        .with_render_every_step(true)
        .renderer(WgpuTestRenderer::from_render_state(render_state))
        .with_context_setup(move |ctx| egui_hud::install_wgpu(ctx, &device, &queue))
}

/// A timed harness whose context also hands the HUD's GPU timer to [`AppPass`].
fn app_pass_harness<State>(
    render_state: egui_wgpu::RenderState,
    size: egui::Vec2,
) -> egui_kittest::HarnessBuilder<State> {
    let (device, queue) = (render_state.device.clone(), render_state.queue.clone());
    timed_harness(render_state, size)
        .with_context_setup(move |ctx| install_for_app_passes(ctx, &device, &queue))
}

/// An animating app with the HUD in number only, its preset the harness's state; `None`
/// without a device that has timestamp queries.
fn number_only_app() -> Option<Harness<'static, egui_hud::HudPreset>> {
    let render_state = render_state_with_timestamps()?;
    let harness = timed_harness(render_state, egui::vec2(320.0, 360.0)).build_ui_state(
        |ui, preset: &mut egui_hud::HudPreset| {
            ui.label("app");
            #[expect(clippy::disallowed_methods, reason = "the test app animates")]
            ui.ctx().request_repaint();
            every_frame_hud().preset(*preset).show(ui.ctx());
        },
        egui_hud::HudPreset::NumberOnly,
    );
    Some(harness)
}

/// The paint callbacks in the last frame's output (the GPU timer's stamps; the test apps paint
/// none).
fn paint_callbacks<State>(harness: &Harness<'_, State>) -> usize {
    harness
        .output()
        .shapes
        .iter()
        .filter(|clipped| matches!(clipped.shape, egui::Shape::Callback(_)))
        .count()
}

/// The frames `timer` began: timed, dropped or still in flight (a frame moves between the
/// three, the sum stays).
fn frames_begun(timer: &EguiGpuTimer) -> u64 {
    let stats = timer.timer().stats();
    stats.timed_frames + stats.dropped_frames + timer.timer().frames_in_flight() as u64
}

/// An app drawing back to back, faster than the GPU sampling rate: with the default (at most
/// 120 timed frames a second, a frame timed when it begins 6.25 ms or more after the last
/// timed one), the timer begins no more frames than the test's own measured time allows; with
/// `GpuSampling::EveryFrame` it begins one for every frame the app drew.
#[test]
fn the_gpu_timer_samples_the_frames_of_an_app_drawing_faster_than_its_rate() {
    const STEPS: u32 = 120;
    let _one_at_a_time = one_gpu_test_at_a_time();
    for sampling in [GpuSampling::default(), GpuSampling::EveryFrame] {
        let Some(render_state) = render_state_with_timestamps() else {
            return;
        };
        let mut harness =
            timed_harness(render_state, egui::vec2(160.0, 120.0)).build_ui(move |ui| {
                ui.label("app");
                #[expect(clippy::disallowed_methods, reason = "the test app animates")]
                ui.ctx().request_repaint();
                FpsMonitor::new()
                    .sample_resources(false)
                    .gpu_sampling(sampling)
                    .show(ui.ctx());
            });
        harness.run_steps(10); // the HUD's warm-up
        let timer = egui_hud::gpu_timer(&harness.ctx).expect("installed");
        let before = frames_begun(&timer);
        let start = Instant::now();
        let mut frames: u32 = 0;
        for _ in 0..STEPS {
            harness.step();
            frames += 1;
        }
        let elapsed = start.elapsed();
        let timed_frames = frames_begun(&timer) - before;
        println!("{sampling:?}: {timed_frames} of {frames} frames timed in {elapsed:?}");
        match sampling {
            GpuSampling::EveryFrame => assert!(
                timed_frames >= u64::from(frames),
                "every frame is timed: {timed_frames} of {frames}"
            ),
            GpuSampling::AtMostPerSecond(_) => {
                // One at the start, then one per 6.25 ms at most (a frame's own start is what
                // is measured, so the test's interval bounds the timer's).
                let allowed = 1 + u64::try_from(elapsed.as_micros() / 6_250).unwrap_or(u64::MAX);
                assert!(
                    (1..=allowed).contains(&timed_frames),
                    "{timed_frames} frames timed in {elapsed:?}: at most {allowed} (120 a second, ¾ tolerance)"
                );
            }
        }
    }
}

/// An app drawing faster than the GPU sampling rate has only some of its frames timed, and the
/// frames not timed between them do not read each timed frame back alone (a copy and a map
/// each, a readback's CPU on the GPU's host): a part-filled group waits as long as a full
/// group's first frame would, and is read back with the frames timed meanwhile, no later. The
/// HUD's clock steps 4 ms a frame (a 250 Hz loop), so the default sampling (at most 120 timed
/// frames a second) times every other frame. With an app pass too, whose frame begins in its
/// `prepare`, before the flush that is due.
#[test]
fn a_sampled_app_reads_its_timed_frames_back_several_at_a_time() {
    const FRAMES: u64 = 64;
    // Four timed frames waiting seven frames, the next one begun: more would mean a group
    // waited past its first frame's due flush (a full group's eight, its readback later).
    const MOST_IN_FLIGHT: usize = 6;
    let _one_at_a_time = one_gpu_test_at_a_time();
    for app_pass in [false, true] {
        let Some(render_state) = render_state_with_timestamps() else {
            return;
        };
        let clock = Arc::new(ManualClock::new());
        let hud_clock: Arc<dyn Clock> = Arc::clone(&clock) as Arc<dyn Clock>;
        let builder = if app_pass {
            app_pass_harness(render_state, egui::vec2(320.0, 360.0))
        } else {
            timed_harness(render_state, egui::vec2(320.0, 360.0))
        };
        let mut harness = builder.build_ui(move |ui| {
            ui.label("app");
            if app_pass {
                paint_app_pass(ui);
            }
            #[expect(clippy::disallowed_methods, reason = "the test app animates")]
            ui.ctx().request_repaint();
            FpsMonitor::new()
                .sample_resources(false)
                .clock(Arc::clone(&hud_clock))
                .show(ui.ctx());
        });
        let step = |harness: &mut Harness<'_>| {
            clock.advance(Duration::from_millis(4));
            harness.step();
        };
        for _ in 0..10 {
            step(&mut harness); // the HUD's warm-up
        }
        let timer = egui_hud::gpu_timer(&harness.ctx).expect("installed");
        let (begun, readbacks) = (frames_begun(&timer), timer.timer().stats().readbacks);
        let mut most_in_flight = 0;
        for _ in 0..FRAMES {
            step(&mut harness);
            most_in_flight = most_in_flight.max(timer.timer().frames_in_flight());
        }
        let timed_frames = frames_begun(&timer) - begun;
        let readbacks_made = timer.timer().stats().readbacks - readbacks;
        assert!(
            (FRAMES / 2 - 1..=FRAMES / 2 + 1).contains(&timed_frames),
            "app pass {app_pass}: every other frame is timed: {timed_frames} of {FRAMES}"
        );
        assert!(
            readbacks_made * 3 <= timed_frames,
            "app pass {app_pass}: {readbacks_made} readbacks for {timed_frames} timed frames: \
             several frames are read back at once"
        );
        assert!(
            most_in_flight <= MOST_IN_FLIGHT,
            "app pass {app_pass}: up to {most_in_flight} frames in flight: a group waited past \
             its due flush"
        );
        let stats = timer.timer().stats();
        assert_eq!(
            stats.dropped_frames, 0,
            "app pass {app_pass}: no frame lost waiting: {stats:?}"
        );
    }
}

/// Timing a frame costs tens of µs of CPU: a HUD that shows nothing read from the GPU (number
/// only, a collapsed HUD) times no frame, and one that does (a preset with the GPU row, the
/// details window) times them again.
#[test]
fn frames_are_timed_only_while_something_shown_reads_gpu_results() {
    const STEPS: u64 = 20;
    let _one_at_a_time = one_gpu_test_at_a_time();
    let Some(mut harness) = number_only_app() else {
        return;
    };
    harness.run_steps(10); // the HUD's warm-up
    let timer = egui_hud::gpu_timer(&harness.ctx).expect("installed");
    let timed_in_steps = |harness: &mut Harness<'_, egui_hud::HudPreset>| {
        let before = frames_begun(&timer);
        harness.run_steps(usize::try_from(STEPS).unwrap_or(usize::MAX));
        frames_begun(&timer) - before
    };

    assert_eq!(
        timed_in_steps(&mut harness),
        0,
        "number only reads no GPU result"
    );
    assert_eq!(
        paint_callbacks(&harness),
        0,
        "nor does it add the timer's paint callbacks (a few µs a frame)"
    );
    let snapshot = egui_hud::snapshot(&harness.ctx).expect("the HUD ticked");
    assert_eq!(snapshot.gpu_frame, None, "{snapshot:?}");

    *harness.state_mut() = egui_hud::HudPreset::Compact;
    assert!(
        timed_in_steps(&mut harness) >= STEPS,
        "the compact preset's GPU row: every frame timed"
    );
    assert!(
        paint_callbacks(&harness) >= 2,
        "a timed frame's stamps: egui's pass begins and ends"
    );
    harness.run_steps(30); // a refresh with the results
    let snapshot = egui_hud::snapshot(&harness.ctx).expect("the HUD ticked");
    assert!(snapshot.gpu_frame.is_some(), "{snapshot:?}");
    assert!(harness.query_all_by_label_contains("GPU ").next().is_some());

    // Left-click collapses: the number alone.
    harness.get_by_label("MAX FPS").click();
    harness.run_steps(2);
    assert!(
        harness.query_by_label_contains("FRAME").is_none(),
        "collapsed"
    );
    assert_eq!(
        timed_in_steps(&mut harness),
        0,
        "a collapsed HUD reads no GPU result"
    );
    harness.get_by_label("MAX FPS").click();
    harness.run_steps(2);
    assert!(timed_in_steps(&mut harness) >= STEPS, "expanded again");

    *harness.state_mut() = egui_hud::HudPreset::NumberOnly;
    harness.run_steps(2);
    assert_eq!(timed_in_steps(&mut harness), 0);
    egui_hud::show_details(&harness.ctx, true);
    harness.run_steps(2);
    assert!(
        timed_in_steps(&mut harness) >= STEPS,
        "the details window shows the spikes' GPU parts"
    );
}

/// A HUD that shows no GPU figure leaves the timer idle: no frame begun and no calibration of
/// the GPU clock, which blocks a background thread on a few GPU round trips and, before,
/// ran at the first frame and every 10 s even with nothing timed. Timing starts, and the clock
/// is calibrated, once a row reads GPU results.
#[test]
fn an_idle_gpu_timer_does_not_calibrate_the_gpu_clock() {
    let _one_at_a_time = one_gpu_test_at_a_time();
    let Some(mut harness) = number_only_app() else {
        return;
    };
    harness.run_steps(40);
    let timer = egui_hud::gpu_timer(&harness.ctx).expect("installed");
    // A calibration would have started at the first frame and takes milliseconds on lavapipe;
    // waiting lets one that started finish. With the timer idle none starts, so this cannot
    // fail by chance.
    let calibrated_within = |harness: &mut Harness<'_, egui_hud::HudPreset>, limit: Duration| {
        let start = Instant::now();
        while start.elapsed() < limit {
            if timer.timer().calibration().is_some() {
                return true;
            }
            harness.run_steps(1);
            std::thread::sleep(Duration::from_millis(10));
        }
        timer.timer().calibration().is_some()
    };
    assert!(
        !calibrated_within(&mut harness, Duration::from_secs(1)),
        "number only shows no GPU figure: the GPU clock is not calibrated"
    );
    assert_eq!(frames_begun(&timer), 0, "nor is any frame timed");

    *harness.state_mut() = egui_hud::HudPreset::Compact;
    assert!(
        calibrated_within(&mut harness, Duration::from_secs(30)),
        "the compact preset's GPU row: the clock is calibrated"
    );
    assert!(frames_begun(&timer) > 0, "and frames are timed");
}

/// The timer reads timed frames back in groups (one map for several frames): when an app stops
/// drawing, the frames of a part-filled group are read back at the frames the HUD asks for
/// all the same (frames of its own, not timed), not left in flight until the app draws again:
/// their GPU parts would never reach the frames' records, and the HUD would keep asking for
/// frames to collect them. After the app's last frame the test runs frames only when egui asks
/// and at the time it asks for, as eframe does.
#[test]
fn an_app_that_stops_drawing_gets_its_last_timed_frames_read_back() {
    let _one_at_a_time = one_gpu_test_at_a_time();
    let Some(render_state) = render_state_with_timestamps() else {
        return;
    };
    let mut harness = timed_harness(render_state, egui::vec2(320.0, 360.0)).build_ui_state(
        |ui, animating: &mut bool| {
            ui.label("app");
            if *animating {
                #[expect(clippy::disallowed_methods, reason = "the test app animates")]
                ui.ctx().request_repaint();
            }
            every_frame_hud().show(ui.ctx());
        },
        true,
    );
    harness.run_steps(10); // the HUD's warm-up
    let timer = egui_hud::gpu_timer(&harness.ctx).expect("installed");
    let begun = frames_begun(&timer);
    // Timed frames past a group's start: with groups of eight, some wait for more.
    harness.run_steps(5);
    *harness.state_mut() = false;
    harness.step(); // the app's last frame
    assert!(
        frames_begun(&timer) > begun,
        "the animated frames are timed"
    );
    let all_read_back = |timer: &EguiGpuTimer| {
        let stats = timer.timer().stats();
        stats.timed_frames + stats.dropped_frames == frames_begun(timer)
    };
    // Real time too, for lavapipe to finish the frames: up to 5 s, far more than it needs.
    let start = Instant::now();
    let mut frames_asked_for = 0;
    while start.elapsed() < Duration::from_secs(5) && !all_read_back(&timer) {
        let delay = harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
        assert!(
            delay < Duration::MAX,
            "the HUD asks for frames while results are on their way"
        );
        std::thread::sleep(delay);
        let now = harness.ctx.input(|i| i.time);
        harness.input_mut().time = Some(now + delay.as_secs_f64());
        harness.step();
        frames_asked_for += 1;
    }
    let stats = timer.timer().stats();
    assert!(
        all_read_back(&timer) && stats.dropped_frames == 0,
        "every timed frame read back, in {frames_asked_for} frames egui asked for ({:?}): {stats:?}, {} begun",
        start.elapsed(),
        frames_begun(&timer)
    );
    assert_eq!(timer.timer().frames_in_flight(), 0);
}
