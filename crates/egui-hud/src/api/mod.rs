//! Every public function that takes an [`egui::Context`]: the only files besides `plugin`
//! that lock the HUD's plugin. Each finds the plugin and calls one of its methods.

pub(crate) mod benchmark;
pub(crate) mod export;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub(crate) mod install;
pub(crate) mod monitor;
pub(crate) mod phases;
pub(crate) mod readings;
