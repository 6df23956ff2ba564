//! Busy share from two readings of a process's DRM clients.

use std::collections::HashMap;

use super::{DrmEngineCounters, DrmFdinfo};

/// Turns successive [`DrmFdinfo`] readings of one process's DRM clients into the busy share of
/// the busiest engine over each interval.
///
/// Pure (no I/O), so any driver's fdinfo text can be replayed in tests. Per engine:
/// - with `drm-cycles-*` and `drm-total-cycles-*` (xe): share = Δbusy cycles ÷ Δtotal cycles, on
///   the GPU's own clock;
/// - otherwise with `drm-engine-*` nanoseconds: share = Δbusy ns ÷ Δwall ns;
///
/// each divided by `drm-engine-capacity-*` (engines counted as a group), summed over the
/// process's clients on the same device, and the busiest engine of any device wins, clamped to
/// 100 %. A counter that goes backwards (allowed by the specification) keeps its previous
/// maximum. A client seen for the first time only sets its baseline.
///
/// Default: no baseline. Cost: a few hash-map operations per engine per update.
#[derive(Debug, Default)]
pub struct DrmUsageTracker {
    previous_now_nanos: Option<u64>,
    /// Per client (device, id): its engines' counters at the previous update.
    previous: HashMap<ClientKey, Vec<DrmEngineCounters>>,
}

/// One DRM client: fds with the same id on the same device share their counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct ClientKey {
    pdev: Option<String>,
    driver: String,
    client_id: u64,
}

impl DrmUsageTracker {
    /// A tracker with no baseline; the first [`Self::update`] answers `None`. Cost: none.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the process's DRM clients as read at `now_nanos` (a monotonic clock) and answers the
    /// busiest engine's busy share, in percent, since the previous update.
    ///
    /// `None`: no baseline yet, no time passed, or no engine counter seen in both readings
    /// (no DRM clients, or only new ones). Duplicate clients in `clients` are counted once.
    pub fn update(&mut self, clients: &[DrmFdinfo], now_nanos: u64) -> Option<f64> {
        let wall_nanos = self
            .previous_now_nanos
            .and_then(|previous| now_nanos.checked_sub(previous))
            .filter(|&wall| wall > 0);

        let mut current: HashMap<ClientKey, Vec<DrmEngineCounters>> = HashMap::new();
        // (device, engine) → summed share of that engine's capacity, 1.0 = fully busy.
        let mut engine_shares: HashMap<(Option<&str>, &str), f64> = HashMap::new();
        for client in clients {
            let key = ClientKey {
                pdev: client.pdev.clone(),
                driver: client.driver.clone(),
                client_id: client.client_id,
            };
            if current.contains_key(&key) {
                continue; // another fd of a client already counted
            }
            let previous_engines = self.previous.get(&key);
            let mut kept = Vec::with_capacity(client.engines.len());
            for engine in &client.engines {
                let before = previous_engines
                    .and_then(|engines| engines.iter().find(|e| e.name == engine.name));
                let engine_now = monotonic(engine, before);
                if let (Some(before), Some(wall_nanos)) = (before, wall_nanos)
                    && let Some(share) = engine_share(before, &engine_now, wall_nanos)
                {
                    *engine_shares
                        .entry((client.pdev.as_deref(), engine.name.as_str()))
                        .or_insert(0.0) += share;
                }
                kept.push(engine_now);
            }
            current.insert(key, kept);
        }

        self.previous = current;
        self.previous_now_nanos = Some(now_nanos);
        engine_shares
            .into_values()
            .reduce(f64::max)
            .map(|share| (share * 100.0).clamp(0.0, 100.0))
    }
}

/// `now`'s counters, each raised to its previous value if it went backwards.
fn monotonic(now: &DrmEngineCounters, before: Option<&DrmEngineCounters>) -> DrmEngineCounters {
    let keep_max = |now: Option<u64>, before: Option<u64>| match (now, before) {
        (Some(now), Some(before)) => Some(now.max(before)),
        (now, _) => now,
    };
    DrmEngineCounters {
        name: now.name.clone(),
        busy_nanos: keep_max(now.busy_nanos, before.and_then(|b| b.busy_nanos)),
        busy_cycles: keep_max(now.busy_cycles, before.and_then(|b| b.busy_cycles)),
        total_cycles: keep_max(now.total_cycles, before.and_then(|b| b.total_cycles)),
        capacity: now.capacity,
    }
}

/// The engine's busy share of its capacity between two readings (1.0 = fully busy).
fn engine_share(
    before: &DrmEngineCounters,
    now: &DrmEngineCounters,
    wall_nanos: u64,
) -> Option<f64> {
    let capacity = f64::from(now.capacity.max(1));
    let cycles = now
        .busy_cycles
        .zip(before.busy_cycles)
        .map(|(now, before)| now.saturating_sub(before));
    let total_cycles = now
        .total_cycles
        .zip(before.total_cycles)
        .map(|(now, before)| now.saturating_sub(before))
        .filter(|&total| total > 0);
    if let (Some(cycles), Some(total_cycles)) = (cycles, total_cycles) {
        return Some(cycles as f64 / total_cycles as f64 / capacity);
    }
    let nanos = now
        .busy_nanos
        .zip(before.busy_nanos)
        .map(|(now, before)| now.saturating_sub(before))?;
    Some(nanos as f64 / wall_nanos as f64 / capacity)
}
