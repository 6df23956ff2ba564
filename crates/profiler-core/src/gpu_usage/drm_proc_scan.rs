//! Linux: this process's DRM clients, read from `/proc/self/fdinfo`.

use std::fs;
use std::path::Path;

use super::{DrmFdinfo, DrmUsageTracker};

/// Reads the DRM fds of this process at each sample and feeds a [`DrmUsageTracker`].
#[derive(Debug, Default)]
pub(super) struct DrmBackend {
    tracker: DrmUsageTracker,
}

impl DrmBackend {
    pub(super) fn new() -> Self {
        Self::default()
    }

    pub(super) fn sample(&mut self, now_nanos: u64) -> Option<f64> {
        let clients = own_drm_clients();
        if clients.is_empty() {
            // Forget old clients so a device opened later starts from a fresh baseline.
            self.tracker = DrmUsageTracker::new();
            return None;
        }
        self.tracker.update(&clients, now_nanos)
    }
}

/// The DRM clients behind this process's open fds: one `readlink` per fd, one `fdinfo` read per
/// DRM fd (only `/dev/dri/*`: compute accelerators under `/dev/accel` are not GPUs).
fn own_drm_clients() -> Vec<DrmFdinfo> {
    let Ok(fds) = fs::read_dir("/proc/self/fd") else {
        return Vec::new();
    };
    fds.filter_map(Result::ok)
        .filter(|entry| {
            fs::read_link(entry.path()).is_ok_and(|target| target.starts_with("/dev/dri/"))
        })
        .filter_map(|entry| {
            let fdinfo = Path::new("/proc/self/fdinfo").join(entry.file_name());
            // The fd may have been closed since the directory was read: skip it.
            fs::read_to_string(fdinfo).ok()
        })
        .filter_map(|text| DrmFdinfo::parse(&text))
        .collect()
}
