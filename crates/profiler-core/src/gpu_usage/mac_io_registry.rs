//! macOS: this process's GPU time from the `IORegistry`: the user clients of the `IOAccelerator`
//! services whose `IOUserClientCreator` names this pid, and their `accumulatedGPUTime`.
//!
//! Unverified: written against objc2-io-kit 0.3 and Apple's `IOKit` documentation, type-checked
//! for `aarch64-apple-darwin`, never run. The property names are not documented API; they are
//! what the registry shows (`ioreg -c IOAccelerator -r -l`) and what other tools read.
#![expect(
    unsafe_code,
    reason = "IOKit FFI: IOServiceMatching, IOServiceGetMatchingServices, \
              IORegistryEntryGetChildIterator, IOObjectConformsTo, IORegistryEntryCreateCFProperty, \
              IORegistryEntryGetRegistryEntryID"
)]

use std::ffi::{CStr, c_char};
use std::fmt;

use objc2_core_foundation::{
    CFArray, CFDictionary, CFNumber, CFRetained, CFString, CFType, Type as _,
};
use objc2_io_kit::{
    IOIteratorNext, IOObjectConformsTo, IOObjectRelease, IORegistryEntryCreateCFProperty,
    IORegistryEntryGetChildIterator, IORegistryEntryGetRegistryEntryID,
    IOServiceGetMatchingServices, IOServiceMatching, io_object_t, kIOReturnSuccess,
    kIOServicePlane,
};

use super::mac_gpu_time::{GpuTimeTracker, parse_user_client_creator};

/// `MACH_PORT_NULL`: `IOKit` reads it as the default main port. `kIOMainPortDefault` is the same
/// value, but the symbol exists only from macOS 12 and would stop the app from loading on 11.
const DEFAULT_MAIN_PORT: libc::mach_port_t = 0;

/// The `IORegistry` source: walks the accelerators' user clients at each sample; turned off for
/// good (logged once) when the registry cannot be asked or has no accelerator.
#[derive(Debug, Default)]
pub(super) struct IoRegistryBackend {
    tracker: GpuTimeTracker,
    off: bool,
}

impl IoRegistryBackend {
    pub(super) fn new() -> Self {
        Self::default()
    }

    /// The share of wall time this process's accelerator clients spent on the GPU since the
    /// previous call, in percent. `None` at the first call (it sets the baseline), while the
    /// process has no accelerator client, and when the registry cannot be read.
    pub(super) fn sample(&mut self, now_nanos: u64) -> Option<f64> {
        if self.off {
            return None;
        }
        match own_client_gpu_times(std::process::id()) {
            Ok(clients) => self.tracker.update(&clients, now_nanos),
            Err(error) => {
                log::info!("IORegistry GPU time is unavailable: {error}");
                self.off = true;
                None
            }
        }
    }
}

/// Why the registry could not be read.
#[derive(Debug)]
enum IoRegistryError {
    NoMatchingDictionary,
    MatchingServices(libc::kern_return_t),
    NoAccelerator,
}

impl fmt::Display for IoRegistryError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoMatchingDictionary => formatter.write_str("IOServiceMatching returned null"),
            Self::MatchingServices(status) => {
                write!(
                    formatter,
                    "IOServiceGetMatchingServices returned 0x{status:08X}"
                )
            }
            Self::NoAccelerator => formatter.write_str("no IOAccelerator service"),
        }
    }
}

/// An `IOKit` object reference (service, registry entry or iterator), released on drop.
struct IoObject(io_object_t);

impl IoObject {
    /// The iterator's next object, `None` at the end.
    fn next(&self) -> Option<Self> {
        let object = IOIteratorNext(self.0);
        (object != 0).then_some(Self(object))
    }
}

impl Drop for IoObject {
    fn drop(&mut self) {
        if self.0 != 0 {
            // A failure here leaks one reference; there is nothing better to do.
            let _status = IOObjectRelease(self.0);
        }
    }
}

/// The property keys, made once per sample.
struct Keys {
    creator: CFRetained<CFString>,
    app_usage: CFRetained<CFString>,
    gpu_time: CFRetained<CFString>,
}

/// (registry entry id, accumulated GPU ns) of every accelerator user client created by `pid`.
fn own_client_gpu_times(pid: u32) -> Result<Vec<(u64, u64)>, IoRegistryError> {
    let keys = Keys {
        creator: CFString::from_static_str("IOUserClientCreator"),
        app_usage: CFString::from_static_str("AppUsage"),
        gpu_time: CFString::from_static_str("accumulatedGPUTime"),
    };
    // SAFETY: a NUL-terminated class name that outlives the call.
    let matching = unsafe { IOServiceMatching(c"IOAccelerator".as_ptr()) }
        .ok_or(IoRegistryError::NoMatchingDictionary)?;
    let matching: &CFDictionary = &matching;
    let mut services: io_object_t = 0;
    // SAFETY: the default main port; the matching dictionary is a valid, retained CFDictionary
    // whose reference the call consumes; `services` is a writable iterator slot.
    let status = unsafe {
        IOServiceGetMatchingServices(
            DEFAULT_MAIN_PORT,
            Some(matching.retain()),
            &raw mut services,
        )
    };
    let services = IoObject(services);
    if status != kIOReturnSuccess {
        return Err(IoRegistryError::MatchingServices(status));
    }

    let mut found_accelerator = false;
    let mut clients = Vec::new();
    while let Some(accelerator) = services.next() {
        found_accelerator = true;
        let mut plane = io_name(kIOServicePlane);
        let mut children: io_object_t = 0;
        // SAFETY: `accelerator` is a live registry entry; `plane` is a NUL-terminated io_name_t
        // buffer; `children` is a writable iterator slot.
        let status = unsafe {
            IORegistryEntryGetChildIterator(accelerator.0, &raw mut plane, &raw mut children)
        };
        let children = IoObject(children);
        if status != kIOReturnSuccess {
            log::debug!("IORegistryEntryGetChildIterator returned 0x{status:08X}");
            continue;
        }
        while let Some(child) = children.next() {
            if let Some(client) = own_client_gpu_time(&child, pid, &keys) {
                clients.push(client);
            }
        }
    }
    if found_accelerator {
        Ok(clients)
    } else {
        Err(IoRegistryError::NoAccelerator)
    }
}

/// (registry entry id, accumulated GPU ns) of `entry` when it is a user client created by `pid`:
/// the sum of `accumulatedGPUTime` over its `AppUsage` entries (Apple GPUs), or its own
/// `accumulatedGPUTime` (Intel Macs).
fn own_client_gpu_time(entry: &IoObject, pid: u32, keys: &Keys) -> Option<(u64, u64)> {
    let mut user_client = io_name(c"IOUserClient");
    // SAFETY: `entry` is a live registry entry; `user_client` is a NUL-terminated io_name_t
    // buffer. (AGXDeviceUserClient and the Intel clients are IOUserClient subclasses.)
    if !unsafe { IOObjectConformsTo(entry.0, &raw mut user_client) } {
        return None;
    }
    let creator = property(entry, &keys.creator)?
        .downcast::<CFString>()
        .ok()?;
    let (creator_pid, _name) = parse_user_client_creator(&creator.to_string())?;
    if creator_pid != pid {
        return None;
    }
    let gpu_nanos = match property(entry, &keys.app_usage)
        .and_then(|p| p.downcast::<CFArray>().ok())
    {
        Some(app_usage) => {
            // SAFETY: every element of a CFArray is a CF object, which CFType stands for.
            let app_usage: &CFArray<CFType> = unsafe { app_usage.cast_unchecked() };
            app_usage
                .iter()
                .filter_map(|usage| usage.downcast::<CFDictionary>().ok())
                .filter_map(|usage| {
                    // SAFETY: a registry property dictionary has CFString keys and CF object
                    // values; looking up a CFString key in it is valid.
                    let usage: &CFDictionary<CFString, CFType> = unsafe { usage.cast_unchecked() };
                    nanos(usage.get(&keys.gpu_time)?)
                })
                .fold(0_u64, u64::saturating_add)
        }
        None => nanos(property(entry, &keys.gpu_time)?)?,
    };
    let mut entry_id = 0_u64;
    // SAFETY: `entry` is a live registry entry; `entry_id` is a writable u64.
    let status = unsafe { IORegistryEntryGetRegistryEntryID(entry.0, &raw mut entry_id) };
    (status == kIOReturnSuccess).then_some((entry_id, gpu_nanos))
}

/// `entry`'s property `key`, or `None` when it has none.
fn property(entry: &IoObject, key: &CFString) -> Option<CFRetained<CFType>> {
    // SAFETY: `entry` is a live registry entry and `key` a valid CFString; the default allocator
    // (None) and no options are allowed.
    unsafe { IORegistryEntryCreateCFProperty(entry.0, Some(key), None, 0) }
}

/// A non-negative `CFNumber` as nanoseconds.
fn nanos(value: CFRetained<CFType>) -> Option<u64> {
    let number = value.downcast::<CFNumber>().ok()?;
    u64::try_from(number.as_i64()?).ok()
}

/// `name` in an `io_name_t` buffer (128 bytes, NUL-terminated; longer names are cut).
fn io_name(name: &CStr) -> [c_char; 128] {
    let mut buffer: [c_char; 128] = [0; 128];
    let last = buffer.len() - 1;
    for (slot, &byte) in buffer[..last].iter_mut().zip(name.to_bytes()) {
        *slot = c_char::from_ne_bytes([byte]);
    }
    buffer
}
