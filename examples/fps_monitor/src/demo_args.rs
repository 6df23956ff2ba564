use std::path::PathBuf;
use std::time::Duration;

/// The demo's command line: `--seconds S`, `--backend glow|wgpu`, `--load N`, `--size WxH`,
/// `--csv PATH`, `--trace PATH`, `--gpu-every-frame`, `--preset number|compact|full`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DemoArgs {
    /// Run this long from the first frame, print the HUD's snapshot as one JSON line and exit.
    /// A machine too slow to have readings by then gets up to a minute more.
    pub(crate) run_for: Option<Duration>,
    pub(crate) backend: Backend,
    /// Animated curves drawn per frame.
    pub(crate) curves: u32,
    /// The window's inner size in points. A software rasterizer's cost grows with the area.
    pub(crate) window_size: [f32; 2],
    /// With `--seconds`: the retained frames as CSV, written at exit.
    pub(crate) csv: Option<PathBuf>,
    /// With `--seconds`: the retained frames as a Chrome trace, written at exit.
    pub(crate) trace: Option<PathBuf>,
    /// `--benchmark S --json PATH`: a benchmark run of S seconds (after a short countdown),
    /// its summary written to PATH (and its frames beside it as CSV), then exit.
    pub(crate) benchmark: Option<(Duration, PathBuf)>,
    /// `--compare A B`: print the comparison of two saved benchmark runs and exit (no window).
    pub(crate) compare: Option<(PathBuf, PathBuf)>,
    /// `--gpu-every-frame`: the GPU timer times every frame (`GpuSampling::EveryFrame`), not at
    /// most 120 a second.
    pub(crate) gpu_sampling: egui_hud::GpuSampling,
    /// `--preset number|compact|full`: the HUD's rows at start (F10 cycles them); the default
    /// is full, to show everything the HUD measures. Measuring one preset's cost in a real
    /// window needs it from the first frame.
    pub(crate) preset: egui_hud::HudPreset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    Wgpu,
    Glow,
}

impl DemoArgs {
    pub(crate) const USAGE: &str = "usage: fps_monitor [--seconds S [--csv PATH] [--trace PATH]] [--benchmark S --json PATH] [--backend wgpu|glow] [--load N] [--size WxH] [--gpu-every-frame] [--preset number|compact|full]\n       fps_monitor --compare A.json B.json";

    pub(crate) fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut parsed = Self {
            run_for: None,
            backend: Backend::Wgpu,
            curves: 20,
            window_size: [860.0, 520.0],
            csv: None,
            trace: None,
            benchmark: None,
            compare: None,
            gpu_sampling: egui_hud::GpuSampling::default(),
            preset: egui_hud::HudPreset::Full,
        };
        let mut benchmark_secs = None;
        let mut json = None;
        while let Some(flag) = args.next() {
            let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
            match flag.as_str() {
                "--seconds" => {
                    let raw = value()?;
                    let secs: f64 = raw
                        .parse()
                        .map_err(|_| format!("--seconds {raw}: not a number"))?;
                    parsed.run_for = Some(
                        Duration::try_from_secs_f64(secs)
                            .map_err(|_| format!("--seconds {raw}: must be a positive number"))?,
                    );
                }
                "--backend" => {
                    parsed.backend = match value()?.as_str() {
                        "wgpu" => Backend::Wgpu,
                        "glow" => Backend::Glow,
                        other => return Err(format!("--backend {other}: use wgpu or glow")),
                    };
                }
                "--load" => {
                    let raw = value()?;
                    parsed.curves = raw
                        .parse()
                        .map_err(|_| format!("--load {raw}: not a count"))?;
                }
                "--size" => {
                    let raw = value()?;
                    parsed.window_size = raw
                        .split_once('x')
                        .and_then(|(w, h)| Some([w.parse().ok()?, h.parse().ok()?]))
                        .filter(|size: &[f32; 2]| size.iter().all(|v| (64.0..=8192.0).contains(v)))
                        .ok_or_else(|| format!("--size {raw}: use WxH, each 64 to 8192"))?;
                }
                "--benchmark" => {
                    let raw = value()?;
                    benchmark_secs = Some(
                        raw.parse::<f64>()
                            .ok()
                            .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
                            .filter(|d| !d.is_zero())
                            .ok_or_else(|| {
                                format!("--benchmark {raw}: a positive number of seconds")
                            })?,
                    );
                }
                "--json" => json = Some(PathBuf::from(value()?)),
                "--compare" => {
                    let a = PathBuf::from(value()?);
                    let b = PathBuf::from(value()?);
                    parsed.compare = Some((a, b));
                }
                "--csv" => parsed.csv = Some(PathBuf::from(value()?)),
                "--trace" => parsed.trace = Some(PathBuf::from(value()?)),
                "--gpu-every-frame" => parsed.gpu_sampling = egui_hud::GpuSampling::EveryFrame,
                "--preset" => {
                    let raw = value()?;
                    // The first word of the HUD's own name for it ("number only" is `number`).
                    let short = |preset: egui_hud::HudPreset| {
                        preset.name().split(' ').next().unwrap_or_default()
                    };
                    parsed.preset = egui_hud::HudPreset::ALL
                        .into_iter()
                        .find(|&preset| short(preset) == raw)
                        .ok_or_else(|| format!("--preset {raw}: use number, compact or full"))?;
                }
                "--help" | "-h" => return Err(Self::USAGE.to_owned()),
                other => return Err(format!("unknown argument {other}\n{}", Self::USAGE)),
            }
        }
        parsed.benchmark = match (benchmark_secs, json) {
            (Some(secs), Some(path)) => Some((secs, path)),
            (None, None) => None,
            _ => {
                return Err(format!(
                    "--benchmark and --json go together\n{}",
                    Self::USAGE
                ));
            }
        };
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<DemoArgs, String> {
        DemoArgs::parse(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn flags_parse_and_bad_values_are_refused() {
        let args = parse(&["--seconds", "2.5", "--backend", "glow", "--load", "7"]).expect("valid");
        assert_eq!(args.run_for, Some(Duration::from_millis(2_500)));
        assert_eq!(args.backend, Backend::Glow);
        assert_eq!(args.curves, 7);
        assert_eq!(parse(&[]).expect("defaults").backend, Backend::Wgpu);
        assert!(parse(&["--seconds", "-1"]).is_err());
        assert!(parse(&["--backend", "vulkan"]).is_err());
        assert!(parse(&["--load"]).is_err());
        assert_eq!(
            parse(&["--size", "640x400"]).expect("valid").window_size,
            [640.0, 400.0]
        );
        assert!(parse(&["--size", "640"]).is_err());
        assert!(parse(&["--size", "0x400"]).is_err());
        assert_eq!(
            parse(&["--gpu-every-frame"]).expect("valid").gpu_sampling,
            egui_hud::GpuSampling::EveryFrame
        );
        assert_eq!(
            parse(&[]).expect("defaults").gpu_sampling,
            egui_hud::GpuSampling::default()
        );
        assert_eq!(
            parse(&["--preset", "number"]).expect("valid").preset,
            egui_hud::HudPreset::NumberOnly
        );
        assert_eq!(
            parse(&["--preset", "compact"]).expect("valid").preset,
            egui_hud::HudPreset::Compact
        );
        assert_eq!(
            parse(&[]).expect("defaults").preset,
            egui_hud::HudPreset::Full
        );
        assert!(parse(&["--preset", "all"]).is_err());
    }
}
