/// How much of wgpu's timestamp-query machinery the device was created with.
///
/// Ordered from least to most capable, so `support >= TimestampSupport::Encoders` reads naturally.
/// Detecting it is free: it only inspects [`wgpu::Device::features`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimestampSupport {
    /// No [`wgpu::Features::TIMESTAMP_QUERY`]: nothing can be timed, every timer call is a no-op.
    None,

    /// Only [`wgpu::Features::TIMESTAMP_QUERY`]: passes the app begins itself can be timed through
    /// their `timestamp_writes`. Encoder scopes fall back to empty compute passes, and stamps inside
    /// another pass (egui's) are impossible. Typical of Apple-silicon Metal and browser WebGPU.
    PassesOnly,

    /// Adds [`wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS`]: stamps anywhere on an encoder,
    /// but still none inside a pass.
    Encoders,

    /// Adds [`wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES`]: stamps inside render and compute
    /// passes too, which is what timing egui's own pass from paint callbacks needs.
    Full,
}

impl TimestampSupport {
    /// Classifies a device's feature set.
    ///
    /// An unusual set with `INSIDE_PASSES` but not `INSIDE_ENCODERS` is treated as
    /// [`Self::PassesOnly`], because the egui recipe needs both.
    pub fn from_features(features: wgpu::Features) -> Self {
        let has = |f: wgpu::Features| features.contains(f);
        if !has(wgpu::Features::TIMESTAMP_QUERY) {
            Self::None
        } else if !has(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS) {
            Self::PassesOnly
        } else if has(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES) {
            Self::Full
        } else {
            Self::Encoders
        }
    }

    /// Whether render/compute passes can be timed with their `timestamp_writes`.
    pub fn can_time_passes(self) -> bool {
        self >= Self::PassesOnly
    }

    /// Whether `CommandEncoder::write_timestamp` may be used.
    pub fn can_write_on_encoders(self) -> bool {
        self >= Self::Encoders
    }

    /// Whether `RenderPass::write_timestamp` may be used (needed for egui's own pass).
    pub fn can_write_inside_passes(self) -> bool {
        self >= Self::Full
    }

    /// A sentence saying what is missing and how to get it; empty for [`Self::Full`].
    ///
    /// Meant for a one-time log line, or a tooltip beside an "n/a".
    pub fn reason(self) -> &'static str {
        match self {
            Self::None => {
                "GPU timing is off: the device lacks TIMESTAMP_QUERY. Create it with \
                 `gpu_timing::with_timestamp_features` (the adapter may not offer it, e.g. WebGL or \
                 GLES without GL_ARB_timer_query)."
            }
            Self::PassesOnly => {
                "Only passes you begin yourself can be timed: the device lacks \
                 TIMESTAMP_QUERY_INSIDE_ENCODERS/INSIDE_PASSES (Apple GPUs and WebGPU never offer \
                 them), so egui's own pass shows n/a."
            }
            Self::Encoders => {
                "egui's own pass can't be timed: the device lacks TIMESTAMP_QUERY_INSIDE_PASSES \
                 (tile-based GPUs don't offer it); encoder scopes and your own passes still work."
            }
            Self::Full => "",
        }
    }
}

/// The three timestamp features this crate can use.
const ALL_TIMESTAMP_FEATURES: wgpu::Features = wgpu::Features::TIMESTAMP_QUERY
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES);

/// The timestamp features `adapter` offers: request exactly these when creating the device.
///
/// Returns the intersection of [`wgpu::Adapter::features`] with `TIMESTAMP_QUERY`,
/// `TIMESTAMP_QUERY_INSIDE_ENCODERS` and `TIMESTAMP_QUERY_INSIDE_PASSES`, so requesting them can
/// never make device creation fail. Costs one feature query.
pub fn required_features(adapter: &wgpu::Adapter) -> wgpu::Features {
    adapter.features() & ALL_TIMESTAMP_FEATURES
}

/// Adds [`required_features`] to a device descriptor, keeping everything else in it.
///
/// Use it where eframe/egui-wgpu asks for the device descriptor (its default requests no
/// timestamp features, so GPU timing would be off otherwise). Cheap; called once at startup.
pub fn with_timestamp_features(
    mut desc: wgpu::DeviceDescriptor<'static>,
    adapter: &wgpu::Adapter,
) -> wgpu::DeviceDescriptor<'static> {
    desc.required_features |= required_features(adapter);
    desc
}

#[cfg(test)]
mod tests {
    use super::TimestampSupport;

    #[test]
    fn classification_follows_features() {
        use wgpu::Features as F;
        assert_eq!(
            TimestampSupport::from_features(F::empty()),
            TimestampSupport::None
        );
        assert_eq!(
            TimestampSupport::from_features(F::TIMESTAMP_QUERY),
            TimestampSupport::PassesOnly
        );
        assert_eq!(
            TimestampSupport::from_features(
                F::TIMESTAMP_QUERY | F::TIMESTAMP_QUERY_INSIDE_ENCODERS
            ),
            TimestampSupport::Encoders
        );
        assert_eq!(
            TimestampSupport::from_features(F::TIMESTAMP_QUERY | F::TIMESTAMP_QUERY_INSIDE_PASSES),
            TimestampSupport::PassesOnly
        );
        assert_eq!(
            TimestampSupport::from_features(super::ALL_TIMESTAMP_FEATURES),
            TimestampSupport::Full
        );
        assert!(TimestampSupport::Full.reason().is_empty());
        assert!(TimestampSupport::None.reason().contains("TIMESTAMP_QUERY"));
        assert!(!TimestampSupport::PassesOnly.can_write_on_encoders());
        assert!(TimestampSupport::Encoders.can_write_on_encoders());
        assert!(!TimestampSupport::Encoders.can_write_inside_passes());
    }
}
