//! The DRM fdinfo parser and busy-share arithmetic, replayed on fdinfo text of several drivers.
//!
//! The fixtures under `fixtures/fdinfo/` are written by hand after the kernel's
//! `Documentation/gpu/drm-usage-stats.rst` and the drivers' documented keys (amdgpu, i915, xe,
//! msm, panfrost), with counters chosen so that each interval has a known share: `<driver>_0.txt`
//! is read at t = 0, `<driver>_1.txt` 500 ms later.
#![expect(
    clippy::expect_used,
    reason = "test helpers: a failed step is a failed test"
)]

use profiler_core::{DrmFdinfo, DrmUsageTracker, GpuUsageProbe};

const HALF_SECOND_NANOS: u64 = 500_000_000;

fn fixture(name: &str) -> DrmFdinfo {
    let path = format!(
        "{}/tests/fixtures/fdinfo/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the fixture exists");
    DrmFdinfo::parse(&text).expect("the fixture is a DRM client")
}

/// The busy share between two readings taken `wall_nanos` apart.
fn share(before: &[DrmFdinfo], after: &[DrmFdinfo], wall_nanos: u64) -> Option<f64> {
    let mut tracker = DrmUsageTracker::new();
    assert_eq!(
        tracker.update(before, 1_000),
        None,
        "the first reading is only a baseline"
    );
    tracker.update(after, 1_000 + wall_nanos)
}

fn assert_percent(actual: Option<f64>, expected: f64) {
    let actual = actual.expect("a share");
    assert!(
        (actual - expected).abs() < 1e-9,
        "got {actual} %, expected {expected} %"
    );
}

#[test]
fn amdgpu_gfx_ring_nanoseconds() {
    let before = fixture("amdgpu_0.txt");
    assert_eq!(before.driver, "amdgpu");
    assert_eq!(before.client_id, 27);
    assert_eq!(before.pdev.as_deref(), Some("0000:03:00.0"));
    let names: Vec<&str> = before.engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        ["compute", "dec", "dma", "enc", "gfx"],
        "memory keys are not engines"
    );
    // gfx: +250 ms in 500 ms; dma: +5 ms.
    assert_percent(
        share(&[before], &[fixture("amdgpu_1.txt")], HALF_SECOND_NANOS),
        50.0,
    );
}

#[test]
fn a_counter_going_backwards_keeps_its_maximum() {
    let mut tracker = DrmUsageTracker::new();
    tracker.update(&[fixture("amdgpu_0.txt")], 0);
    tracker.update(&[fixture("amdgpu_1.txt")], HALF_SECOND_NANOS);
    // gfx read 1.1 µs lower than before: the specification says to keep the larger value.
    assert_percent(
        tracker.update(&[fixture("amdgpu_2_backwards.txt")], 2 * HALF_SECOND_NANOS),
        0.0,
    );
    // And the next increase is measured from the maximum, not from the dip.
    assert_percent(
        tracker.update(&[fixture("amdgpu_1.txt")], 3 * HALF_SECOND_NANOS),
        0.0,
    );
}

#[test]
fn i915_clients_are_summed_and_duplicate_fds_counted_once() {
    let client9 = fixture("i915_client9_0.txt");
    let video = client9
        .engines
        .iter()
        .find(|e| e.name == "video")
        .expect("a video engine");
    assert_eq!(video.capacity, 2, "drm-engine-capacity-video");
    assert!(
        client9.engines.iter().any(|e| e.name == "video-enhance"),
        "engine names may contain dashes"
    );
    // Client 9 has two fds (a dup): listed twice, counted once. Render: 300 + 100 ms of 500 ms
    // = 80 %; video: 600 ms over two engines = 60 %.
    let before = [client9.clone(), fixture("i915_client10_0.txt"), client9];
    let after = [
        fixture("i915_client9_1.txt"),
        fixture("i915_client10_1.txt"),
        fixture("i915_client9_1.txt"),
    ];
    assert_percent(share(&before, &after, HALF_SECOND_NANOS), 80.0);
}

#[test]
fn xe_cycles_use_the_gpu_clock_not_the_wall_clock() {
    let before = fixture("xe_0.txt");
    let ccs = before
        .engines
        .iter()
        .find(|e| e.name == "ccs")
        .expect("a ccs engine");
    assert_eq!((ccs.busy_nanos, ccs.capacity), (None, 4));
    assert_eq!(ccs.total_cycles, Some(7_655_183_225));
    // rcs: 2.4 M of 9.6 M cycles = 25 %; ccs: 28.8 M over 4 engines of 9.6 M = 75 %. The wall
    // interval given (700 ms) must not matter.
    assert_percent(share(&[before], &[fixture("xe_1.txt")], 700_000_000), 75.0);
}

#[test]
fn msm_prefers_nanoseconds_when_cycles_have_no_total() {
    let before = fixture("msm_0.txt");
    assert_eq!(before.pdev, None, "a platform device has no drm-pdev");
    // drm-engine-gpu +150 ms of 500 ms; drm-cycles-gpu has only drm-maxfreq beside it.
    assert_percent(
        share(&[before], &[fixture("msm_1.txt")], HALF_SECOND_NANOS),
        30.0,
    );
}

#[test]
fn panfrost_busiest_of_fragment_and_vertex_tiler() {
    // fragment +450 ms (90 %), vertex-tiler +100 ms (20 %).
    assert_percent(
        share(
            &[fixture("panfrost_0.txt")],
            &[fixture("panfrost_1.txt")],
            HALF_SECOND_NANOS,
        ),
        90.0,
    );
}

#[test]
fn the_busiest_device_wins_and_shares_never_exceed_100() {
    // A hybrid machine: an idle i915 client beside a busy amdgpu one.
    let before = [fixture("i915_client10_0.txt"), fixture("amdgpu_0.txt")];
    let after = [fixture("i915_client10_0.txt"), fixture("amdgpu_1.txt")];
    assert_percent(share(&before, &after, HALF_SECOND_NANOS), 50.0);
    // 250 ms of gfx work reported within a 100 ms interval (counters and clock read at slightly
    // different moments): clamped.
    assert_percent(
        share(
            &[fixture("amdgpu_0.txt")],
            &[fixture("amdgpu_1.txt")],
            100_000_000,
        ),
        100.0,
    );
}

#[test]
fn no_time_no_clients_or_only_new_clients_is_unavailable() {
    let mut tracker = DrmUsageTracker::new();
    assert_eq!(tracker.update(&[fixture("amdgpu_0.txt")], 10), None);
    assert_eq!(
        tracker.update(&[fixture("amdgpu_1.txt")], 10),
        None,
        "no time passed"
    );
    assert_eq!(tracker.update(&[], 20), None, "no DRM client");
    assert_eq!(
        tracker.update(&[fixture("msm_0.txt")], 30),
        None,
        "a client seen for the first time has no baseline"
    );
}

#[test]
fn files_that_are_not_drm_clients_are_skipped() {
    let read = |name: &str| {
        let path = format!(
            "{}/tests/fixtures/fdinfo/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path).expect("the fixture exists")
    };
    assert_eq!(DrmFdinfo::parse(&read("eventfd.txt")), None);
    assert_eq!(
        DrmFdinfo::parse(&read("amdgpu_old_kernel.txt")),
        None,
        "no drm-client-id: a kernel without usage statistics"
    );
}

#[test]
fn the_probe_on_this_machine_is_a_share_or_unavailable() {
    let mut probe = GpuUsageProbe::new();
    let started = std::time::Instant::now();
    for step in 0..3_u64 {
        if let Some(reading) = probe.sample(step * HALF_SECOND_NANOS) {
            assert!((0.0..=100.0).contains(&reading.busy_percent), "{reading:?}");
        }
    }
    // Three samples (with the `nvml` feature, the first one loads or fails to load NVML).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "a sample is cheap"
    );
}
