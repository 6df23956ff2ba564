//! eframe options that let the HUD time GPU passes: the device must ask for the timestamp-query
//! features when it is created, which only the app can arrange.

/// eframe's default native options, with the device asking for whichever timestamp-query
/// features the adapter has, so [`crate::install`] can time GPU passes. Use it (or do the same to your
/// own options) when you create the app.
pub fn native_options_with_gpu_timing() -> eframe::NativeOptions {
    let mut options = eframe::NativeOptions::default();
    request_gpu_timing_features(&mut options);
    options
}

/// Makes eframe's wgpu device ask for the adapter's timestamp-query features (none are asked
/// for by default). Does nothing when the options hand eframe an existing device.
pub fn request_gpu_timing_features(options: &mut eframe::NativeOptions) {
    if let egui_wgpu::WgpuSetup::CreateNew(create) = &mut options.wgpu_options.wgpu_setup {
        let base = std::sync::Arc::clone(&create.device_descriptor);
        create.device_descriptor = std::sync::Arc::new(move |adapter| {
            gpu_timing::with_timestamp_features(base(adapter), adapter)
        });
    }
}
