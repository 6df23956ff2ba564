//! The GPU row on a real wgpu device (lavapipe in CI): egui's own pass and an app pass are timed
//! through the shared timer, and a hidden HUD takes no timestamp slots.
//!
//! Without a Vulkan/Metal/DX12 adapter that has the timestamp features this test prints why and
//! passes, unless `EGUI_HUD_REQUIRE_GPU=1` (CI) makes that a failure.
#![cfg(feature = "wgpu")]
#![expect(clippy::print_stdout, reason = "a skipped test says why")]

use std::sync::Arc;

use egui_hud::profiler_core::Snapshot;
use egui_hud::{EguiGpuTimer, FpsMonitor};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use egui_kittest::wgpu::WgpuTestRenderer;
use wgpu::util::DeviceExt as _;

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

/// An app pass: clears a small offscreen texture in its own render pass, timed as "app".
struct AppPass;

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
        let stamps = timer.as_ref().and_then(|t| t.pass_timestamps("app"));
        let _pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("app"),
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
    assert!(hud_gpu > std::time::Duration::ZERO, "{hud_gpu:?}");
}

#[test]
fn egui_and_app_passes_are_timed_and_a_hidden_hud_takes_no_slots() {
    let Some(render_state) = render_state_with_timestamps() else {
        return;
    };
    let (device, queue) = (render_state.device.clone(), render_state.queue.clone());
    let mut harness = Harness::builder()
        .with_size(egui::vec2(320.0, 360.0))
        .with_render_every_step(true)
        .renderer(WgpuTestRenderer::from_render_state(render_state))
        .with_context_setup(move |ctx| {
            let timer = EguiGpuTimer::install(ctx, &device, &queue).expect("timer buffers");
            TIMER.with(|t| *t.borrow_mut() = Some(timer));
        })
        .build_ui_state(
            |ui, shown: &mut bool| {
                ui.label("app");
                let rect =
                    egui::Rect::from_min_size(egui::pos2(10.0, 40.0), egui::vec2(64.0, 64.0));
                ui.painter()
                    .add(egui_wgpu::Callback::new_paint_callback(rect, AppPass));
                #[expect(clippy::disallowed_methods, reason = "the test app animates")]
                ui.ctx().request_repaint();
                if *shown {
                    FpsMonitor::new().sample_resources(false).show(ui.ctx());
                }
            },
            true,
        );
    harness.run_steps(30);
    let timer = EguiGpuTimer::get(&harness.ctx).expect("installed");
    let snapshot = egui_hud::snapshot(&harness.ctx).expect("the HUD ticked");
    let labels: Vec<&str> = snapshot
        .gpu_passes
        .iter()
        .map(|p| p.label.as_str())
        .collect();
    assert!(
        labels.contains(&"egui") && labels.contains(&"app"),
        "both passes timed: {labels:?}"
    );
    for pass in &snapshot.gpu_passes {
        assert!(
            pass.last > std::time::Duration::ZERO && pass.max >= pass.last,
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
        EguiGpuTimer::get(&harness.ctx).is_some(),
        "the GPU timer survives a memory clear"
    );
    let cleared = egui_hud::snapshot(&harness.ctx).expect("ticked after the clear");
    assert!(
        cleared.gpu_passes.iter().any(|p| p.label == "egui"),
        "egui's pass is still timed: {cleared:?}"
    );
}
