//! Parsing one DRM client's `fdinfo` text (kernel `Documentation/gpu/drm-usage-stats.rst`).

use std::collections::BTreeMap;

/// The usage counters of one DRM client, as a DRM file descriptor's `/proc/<pid>/fdinfo/<fd>`
/// shows them.
///
/// Only what the busy share needs is kept; memory keys are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrmFdinfo {
    /// `drm-driver`, e.g. `amdgpu`, `i915`, `xe`, `msm`.
    pub driver: String,
    /// `drm-client-id`: file descriptors with the same id (and device) are the same client and
    /// must be counted once.
    pub client_id: u64,
    /// `drm-pdev`, the PCI (or platform) device, when the driver reports it.
    pub pdev: Option<String>,
    /// Per-engine counters, sorted by engine name.
    pub engines: Vec<DrmEngineCounters>,
}

/// One engine's counters in a [`DrmFdinfo`]. Counters are cumulative since the client opened
/// the device; a busy share comes from the difference of two readings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrmEngineCounters {
    /// The engine's name, the `<keystr>` of the keys (`gfx`, `render`, `rcs`, `gpu`, …).
    pub name: String,
    /// `drm-engine-<name>`: nanoseconds the engine spent busy on this client's work.
    pub busy_nanos: Option<u64>,
    /// `drm-cycles-<name>`: GPU cycles spent busy on this client's work.
    pub busy_cycles: Option<u64>,
    /// `drm-total-cycles-<name>`: GPU cycles elapsed on that engine's clock (xe); with
    /// [`Self::busy_cycles`] it gives a share without a CPU clock.
    pub total_cycles: Option<u64>,
    /// `drm-engine-capacity-<name>`: how many identical engines the name stands for; 1 when
    /// absent, as the specification says.
    pub capacity: u32,
}

impl DrmFdinfo {
    /// Parses `fdinfo` text; `None` when it is not a DRM client with a `drm-client-id` (any
    /// other kind of file, or a kernel too old to report usage).
    ///
    /// Tolerant: unknown keys, malformed lines and values with unknown units are skipped.
    /// Cost: one pass over the text (well under a microsecond per line).
    pub fn parse(text: &str) -> Option<Self> {
        let mut driver = None;
        let mut client_id = None;
        let mut pdev = None;
        let mut engines: BTreeMap<&str, DrmEngineCounters> = BTreeMap::new();

        for line in text.lines() {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            // Longer prefixes first: `drm-engine-capacity-` also starts with `drm-engine-`.
            if key == "drm-driver" {
                driver = Some(value.to_owned());
            } else if key == "drm-client-id" {
                client_id = value.parse::<u64>().ok();
            } else if key == "drm-pdev" {
                pdev = Some(value.to_owned());
            } else if let Some(name) = key.strip_prefix("drm-engine-capacity-") {
                if let Some(capacity) = parse_uint(value, None).and_then(|c| u32::try_from(c).ok())
                {
                    // Zero capacity is not allowed by the specification; read it as absent.
                    engine(&mut engines, name).capacity = capacity.max(1);
                }
            } else if let Some(name) = key.strip_prefix("drm-engine-") {
                if let Some(nanos) = parse_uint(value, Some("ns")) {
                    engine(&mut engines, name).busy_nanos = Some(nanos);
                }
            } else if let Some(name) = key.strip_prefix("drm-total-cycles-") {
                if let Some(cycles) = parse_uint(value, None) {
                    engine(&mut engines, name).total_cycles = Some(cycles);
                }
            } else if let Some(name) = key.strip_prefix("drm-cycles-")
                && let Some(cycles) = parse_uint(value, None)
            {
                engine(&mut engines, name).busy_cycles = Some(cycles);
            }
        }

        Some(Self {
            driver: driver?,
            client_id: client_id?,
            pdev,
            engines: engines.into_values().collect(),
        })
    }
}

/// The counters of engine `name`, created on first mention.
fn engine<'map, 'text>(
    engines: &'map mut BTreeMap<&'text str, DrmEngineCounters>,
    name: &'text str,
) -> &'map mut DrmEngineCounters {
    engines.entry(name).or_insert_with(|| DrmEngineCounters {
        name: name.to_owned(),
        capacity: 1,
        ..DrmEngineCounters::default()
    })
}

/// An unsigned integer, optionally followed by `unit` (and nothing else).
fn parse_uint(value: &str, unit: Option<&str>) -> Option<u64> {
    let mut words = value.split_whitespace();
    let number = words.next()?.parse::<u64>().ok()?;
    match (words.next(), unit) {
        (None, _) => Some(number),
        (Some(found), Some(expected)) if found == expected => Some(number),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::DrmFdinfo;

    #[test]
    fn keys_of_one_engine_are_gathered() {
        let text = "pos:\t0\nflags:\t02100002\ndrm-driver:\ti915\ndrm-client-id:\t7\n\
                    drm-engine-render:\t100 ns\ndrm-engine-video:\t5 ns\n\
                    drm-engine-capacity-video:\t2\n";
        let info = DrmFdinfo::parse(text).expect("a DRM client");
        assert_eq!(info.client_id, 7);
        assert_eq!(info.pdev, None);
        let names: Vec<&str> = info.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["render", "video"]);
        assert_eq!(info.engines[1].capacity, 2);
        assert_eq!(info.engines[1].busy_nanos, Some(5));
        assert_eq!(info.engines[0].capacity, 1);
    }

    #[test]
    fn other_files_are_not_drm_clients() {
        assert_eq!(
            DrmFdinfo::parse("pos:\t0\nflags:\t02\nmnt_id:\t29\nino:\t1\n"),
            None
        );
        // A DRM fd of a kernel without client statistics.
        assert_eq!(DrmFdinfo::parse("pos:\t0\ndrm-driver:\tamdgpu\n"), None);
    }

    #[test]
    fn unknown_units_and_garbage_are_skipped() {
        let text = "drm-driver: x\ndrm-client-id: 1\ndrm-engine-a: 12 us\ndrm-engine-b: lots ns\n\
                    drm-engine-c 5 ns\ndrm-engine-d: 9 ns\ndrm-engine-capacity-d: 0\n";
        let info = DrmFdinfo::parse(text).expect("a DRM client");
        assert_eq!(info.engines.len(), 1, "{info:?}");
        assert_eq!(info.engines[0].name, "d");
        assert_eq!(info.engines[0].capacity, 1, "zero capacity reads as one");
    }
}
