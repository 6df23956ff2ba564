//! egui-hud in a web page: an eframe app on the web runner (WebGL through glow) showing the HUD.
//! After five seconds of egui time it logs the HUD's snapshot to the browser console as one line,
//! `egui-hud snapshot {json}`, for the browser test (`scripts/web-test.mjs`).
//!
//! Build and serve: `scripts/build-web.sh`, then
//! `python3 -m http.server -d examples/web_demo 8765 --bind 127.0.0.1` and open
//! <http://127.0.0.1:8765>.

/// Seconds of egui time after which the snapshot is logged.
const LOG_AFTER_SECS: f64 = 5.0;

/// The page's app: animated curves (so frames are drawn continuously) and the HUD.
#[derive(Default)]
pub struct WebApp {
    logged: bool,
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let time = ctx.input(|i| i.time);
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("egui-hud on the web");
            ui.label("eframe's web runner on WebGL; the HUD is egui_hud::fps_monitor.");
            let _curves = egui_hud::cpu_phase(ui.ctx(), "curves");
            let rect = ui.available_rect_before_wrap();
            let painter = ui.painter();
            for curve in 0..12_u8 {
                let phase = f64::from(curve) * 0.5;
                let points: Vec<egui::Pos2> = (0..=120_u8)
                    .map(|i| {
                        let x = f64::from(i) / 120.0;
                        let y = 0.5 + 0.4 * (x * 12.0 + time * 2.0 + phase).sin();
                        #[expect(clippy::cast_possible_truncation, reason = "screen points")]
                        let point = egui::pos2(
                            rect.left() + (x as f32) * rect.width(),
                            rect.top() + (y as f32) * rect.height(),
                        );
                        point
                    })
                    .collect();
                painter.add(egui::Shape::line(
                    points,
                    egui::Stroke::new(1.0, egui::Color32::from_rgb(120 + curve * 10, 180, 220)),
                ));
            }
        });
        #[expect(clippy::disallowed_methods, reason = "the page animates")]
        ctx.request_repaint();
        egui_hud::FpsMonitor::new().eframe_frame(frame).show(&ctx);
        if !self.logged && time > LOG_AFTER_SECS {
            self.logged = true;
            log_line(&format!("egui-hud snapshot {}", snapshot_json(&ctx)));
        }
    }
}

/// The readouts the browser test checks, as one JSON object.
pub fn snapshot_json(ctx: &egui::Context) -> serde_json::Value {
    let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_secs_f64() * 1e3);
    egui_hud::snapshot(ctx).map_or(serde_json::Value::Null, |s| {
        serde_json::json!({
            "samples": s.samples,
            "fps": s.fps,
            "frame_ms": ms(s.frame),
            "p95_ms": ms(s.p95),
            "cpu_percent": s.cpu_percent,
            "memory_bytes": s.memory_bytes,
            "gpu_frame_ms": ms(s.gpu_frame),
            "gpu_busy_percent": s.gpu_busy_percent,
            "gpu_passes": s.gpu_passes.iter().map(|p| p.label.clone()).collect::<Vec<_>>(),
            "cpu_phases": s.cpu_phases.iter().map(|p| p.label.clone()).collect::<Vec<_>>(),
            "refresh_hz": s.refresh_hz,
        })
    })
}

#[cfg(target_arch = "wasm32")]
fn log_line(line: &str) {
    web_sys::console::log_1(&line.into());
}

#[cfg(not(target_arch = "wasm32"))]
fn log_line(line: &str) {
    #[expect(
        clippy::print_stdout,
        reason = "the native build only type-checks the app"
    )]
    {
        println!("{line}");
    }
}

/// The page's entry point: runs the app on the canvas `the_canvas`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() -> Result<(), wasm_bindgen::JsValue> {
    use wasm_bindgen::JsCast as _;
    let canvas = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id("the_canvas"))
        .ok_or("no element with id the_canvas")?
        .dyn_into::<web_sys::HtmlCanvasElement>()?;
    wasm_bindgen_futures::spawn_local(async move {
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(|cc| {
                    egui_hud::install(cc);
                    Ok(Box::new(WebApp::default()))
                }),
            )
            .await;
        if let Err(error) = started {
            log_line(&format!("egui-hud web demo failed to start: {error:?}"));
        }
    });
    Ok(())
}
