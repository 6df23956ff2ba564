//! The integration without eframe in a real window: under Xvfb on wgpu (lavapipe) for a few
//! seconds, then its JSON is checked: frames sampled, egui's pass timed on the GPU, the app's
//! phase read, and the latency path's GPU stages placed.
//!
//! Needs `xvfb-run` (Debian `xvfb xauth`) and a Vulkan driver (`mesa-vulkan-drivers`). Without
//! them the test prints why and passes, unless `EGUI_HUD_REQUIRE_XVFB=1` (CI) makes that a
//! failure.

use std::process::Command;

use serde_json::Value;

#[test]
fn the_hud_samples_frames_and_times_the_gpu_without_eframe() {
    let found = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("EGUI_HUD_REQUIRE_XVFB").as_deref() != Ok("1"),
            "xvfb-run is missing and EGUI_HUD_REQUIRE_XVFB=1: install xvfb and xauth"
        );
        println!("skipped: xvfb-run not found (apt-get install xvfb xauth)");
        return;
    }
    let runtime_dir = std::env::temp_dir().join("egui-hud-xdg-winit-wgpu");
    std::fs::create_dir_all(&runtime_dir).expect("temp dir");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(env!("CARGO_BIN_EXE_winit_wgpu"))
        .args(["--seconds", "5"])
        .env("XDG_RUNTIME_DIR", &runtime_dir)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .env("WINIT_X11_SCALE_FACTOR", "1")
        .output()
        .expect("xvfb-run starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "winit_wgpu failed: {stderr}");
    let json: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    assert!(
        json["samples"].as_u64().is_some_and(|n| n > 0),
        "frames were sampled: {json}"
    );
    for key in ["fps", "frame_ms", "gpu_frame_ms"] {
        assert!(json[key].as_f64().is_some_and(|v| v > 0.0), "{key}: {json}");
    }
    assert!(
        json["gpu_passes"]
            .as_array()
            .is_some_and(|p| p.iter().any(|l| l == "egui")),
        "install_wgpu times egui's pass: {json}"
    );
    assert!(
        json["cpu_phases"]
            .as_array()
            .is_some_and(|p| p.iter().any(|l| l == "layout")),
        "the app's phase: {json}"
    );
    assert!(
        json["latency_stages_read"]
            .as_array()
            .is_some_and(|s| s.iter().any(|l| l == "gpu")),
        "the GPU stage is placed: {json}"
    );
    assert!(
        json["refresh_hz"].is_null(),
        "Xvfb has no refresh rate: {json}"
    );
}
