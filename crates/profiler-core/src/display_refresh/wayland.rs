//! Wayland: the current modes of every `wl_output`, over an own connection.
//!
//! The app's `wl_display` belongs to the UI thread's event loop, so the query does not keep it:
//! it opens a second connection to the same compositor socket (`WAYLAND_DISPLAY` resolved
//! against `XDG_RUNTIME_DIR` when the query is built), binds every `wl_output` and reads the mode
//! flagged `current` (refresh in mHz).
//!
//! Object ids are per connection, and a surface's `wl_surface.enter` events arrive only on the
//! connection that made the surface, so the second connection cannot tell which output shows the
//! window. The answer is therefore only given when it does not depend on that: one output, or
//! outputs whose current modes all have the same rate (within 0.01 Hz). Otherwise `None`, never a
//! guess.

use std::os::unix::net::UnixStream;
use std::path::PathBuf;

use wayland_client::protocol::{wl_output, wl_registry};
use wayland_client::{Connection, Dispatch, QueueHandle, WEnum};

use super::DisplayRefreshError;

/// The most a `wl_output` version matters here: `mode` exists since version 1; version 2 adds
/// `done`, so a version-2 output has sent its whole state by the second round trip.
const WL_OUTPUT_VERSION: u32 = 2;

/// Rates closer than this are "the same" when several outputs are compared.
const SAME_RATE_TOLERANCE_HZ: f64 = 0.01;

/// A window on a Wayland compositor, named by its socket.
#[derive(Clone, Debug)]
pub(super) struct WaylandTarget {
    /// `WAYLAND_DISPLAY` (default `wayland-0`), or the name set by the caller: a socket name
    /// relative to `runtime_dir`, or an absolute path.
    display_name: String,
    /// `XDG_RUNTIME_DIR`, read when the query is built.
    runtime_dir: Option<PathBuf>,
}

impl WaylandTarget {
    /// The compositor of `WAYLAND_DISPLAY`/`XDG_RUNTIME_DIR` as they are now.
    pub(super) fn from_env() -> Self {
        Self {
            display_name: std::env::var("WAYLAND_DISPLAY")
                .ok()
                .filter(|name| !name.is_empty())
                .unwrap_or_else(|| "wayland-0".to_owned()),
            runtime_dir: std::env::var_os("XDG_RUNTIME_DIR")
                .filter(|dir| !dir.is_empty())
                .map(PathBuf::from),
        }
    }

    pub(super) fn set_display_name(&mut self, display_name: String) {
        self.display_name = display_name;
    }

    /// The socket path, as libwayland resolves it: absolute names as they are, relative ones
    /// under `XDG_RUNTIME_DIR`.
    fn socket_path(&self) -> Option<PathBuf> {
        let name = PathBuf::from(&self.display_name);
        if name.is_absolute() {
            Some(name)
        } else {
            self.runtime_dir.as_ref().map(|dir| dir.join(name))
        }
    }

    pub(super) fn refresh_hz(&self) -> Result<Option<f64>, DisplayRefreshError> {
        let Some(socket_path) = self.socket_path() else {
            return Err(DisplayRefreshError::WaylandConnect {
                display_name: self.display_name.clone(),
                cause: "XDG_RUNTIME_DIR is not set, so a relative WAYLAND_DISPLAY names no socket"
                    .into(),
            });
        };
        let connect_error =
            |cause: Box<dyn std::error::Error + Send + Sync>| DisplayRefreshError::WaylandConnect {
                display_name: socket_path.display().to_string(),
                cause,
            };
        let stream =
            UnixStream::connect(&socket_path).map_err(|error| connect_error(error.into()))?;
        let connection =
            Connection::from_socket(stream).map_err(|error| connect_error(error.into()))?;

        let mut event_queue = connection.new_event_queue();
        let queue_handle = event_queue.handle();
        let _registry = connection.display().get_registry(&queue_handle, ());
        let mut outputs = Outputs::default();
        // First round trip: the globals (and the binds sent while dispatching them). Second: every
        // bound output's modes.
        for _ in 0..2 {
            event_queue
                .roundtrip(&mut outputs)
                .map_err(|error| DisplayRefreshError::WaylandRequest(Box::new(error)))?;
        }
        Ok(common_refresh_hz(&outputs.current_refresh_mhz))
    }
}

/// The rate every output agrees on, in Hz, from each output's current refresh in mHz (`None`: no
/// current mode seen).
///
/// `None` when there is no output, when an output has no current mode or a rate of 0 (unknown),
/// or when two outputs differ by more than 0.01 Hz: the window could be on either.
fn common_refresh_hz(current_refresh_mhz: &[Option<i32>]) -> Option<f64> {
    let mut rates_hz = current_refresh_mhz
        .iter()
        .map(|refresh_mhz| match *refresh_mhz {
            Some(refresh_mhz) if refresh_mhz > 0 => Some(f64::from(refresh_mhz) / 1000.0),
            _ => None,
        });
    let first_hz = rates_hz.next()??;
    for rate_hz in rates_hz {
        if (rate_hz? - first_hz).abs() > SAME_RATE_TOLERANCE_HZ {
            return None;
        }
    }
    Some(first_hz)
}

/// The state the event queue fills: one entry per bound output, indexed by the output's user
/// data.
#[derive(Debug, Default)]
struct Outputs {
    current_refresh_mhz: Vec<Option<i32>>,
}

impl Dispatch<wl_registry::WlRegistry, ()> for Outputs {
    fn event(
        state: &mut Self,
        registry: &wl_registry::WlRegistry,
        event: wl_registry::Event,
        _data: &(),
        _connection: &Connection,
        queue_handle: &QueueHandle<Self>,
    ) {
        if let wl_registry::Event::Global {
            name,
            interface,
            version,
        } = event
            && interface == "wl_output"
        {
            let index = state.current_refresh_mhz.len();
            state.current_refresh_mhz.push(None);
            registry.bind::<wl_output::WlOutput, usize, Self>(
                name,
                version.min(WL_OUTPUT_VERSION),
                queue_handle,
                index,
            );
        }
    }
}

impl Dispatch<wl_output::WlOutput, usize> for Outputs {
    fn event(
        state: &mut Self,
        _output: &wl_output::WlOutput,
        event: wl_output::Event,
        index: &usize,
        _connection: &Connection,
        _queue_handle: &QueueHandle<Self>,
    ) {
        if let wl_output::Event::Mode { flags, refresh, .. } = event
            && let WEnum::Value(flags) = flags
            && flags.contains(wl_output::Mode::Current)
            && let Some(slot) = state.current_refresh_mhz.get_mut(*index)
        {
            *slot = Some(refresh);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{WaylandTarget, common_refresh_hz};

    #[test]
    fn the_socket_is_resolved_as_libwayland_does() {
        let target = |display_name: &str, runtime_dir: Option<&str>| WaylandTarget {
            display_name: display_name.to_owned(),
            runtime_dir: runtime_dir.map(PathBuf::from),
        };
        assert_eq!(
            target("wayland-1", Some("/run/user/1000")).socket_path(),
            Some(Path::new("/run/user/1000/wayland-1").to_path_buf())
        );
        assert_eq!(
            target("/tmp/w/sock", Some("/run/user/1000")).socket_path(),
            Some(Path::new("/tmp/w/sock").to_path_buf()),
            "an absolute name is used as it is"
        );
        assert_eq!(
            target("wayland-0", None).socket_path(),
            None,
            "a relative name needs XDG_RUNTIME_DIR"
        );
    }

    #[test]
    fn one_output_gives_its_rate() {
        assert_eq!(common_refresh_hz(&[Some(59_940)]), Some(59.94));
        assert_eq!(common_refresh_hz(&[Some(143_672)]), Some(143.672));
    }

    #[test]
    fn outputs_with_the_same_rate_give_that_rate() {
        assert_eq!(common_refresh_hz(&[Some(60_000), Some(60_000)]), Some(60.0));
        // 59.995 and 60.000 Hz are within 0.01 Hz of each other.
        assert_eq!(common_refresh_hz(&[Some(60_000), Some(59_995)]), Some(60.0));
    }

    #[test]
    fn outputs_with_different_rates_give_none() {
        assert_eq!(common_refresh_hz(&[Some(60_000), Some(144_000)]), None);
        assert_eq!(common_refresh_hz(&[Some(60_000), Some(59_940)]), None);
        assert_eq!(
            common_refresh_hz(&[Some(60_000), Some(60_000), Some(75_000)]),
            None
        );
    }

    #[test]
    fn an_unknown_rate_gives_none() {
        assert_eq!(common_refresh_hz(&[]), None, "no output");
        assert_eq!(common_refresh_hz(&[Some(0)]), None, "refresh 0");
        assert_eq!(common_refresh_hz(&[Some(-1)]), None, "negative refresh");
        assert_eq!(common_refresh_hz(&[None]), None, "no current mode");
        assert_eq!(
            common_refresh_hz(&[Some(60_000), Some(0)]),
            None,
            "one output's rate is unknown"
        );
        assert_eq!(
            common_refresh_hz(&[Some(60_000), None]),
            None,
            "one output has no current mode"
        );
    }
}
