//! Windows: this process's GPU engines from PDH's "GPU Engine" counters
//! (`\GPU Engine(pid_<PID>_*)\Utilization Percentage`).
//!
//! Unverified: written against windows-sys 0.61 and Microsoft's PDH documentation, type-checked
//! for `x86_64-pc-windows-msvc`, never run.
#![expect(
    unsafe_code,
    reason = "PDH FFI: PdhOpenQueryW, PdhAddEnglishCounterW, PdhCollectQueryData, \
              PdhGetFormattedCounterArrayW, PdhCloseQuery"
)]

use std::fmt;
use std::ptr;

use windows_sys::Win32::System::Performance::{
    PDH_CALC_NEGATIVE_DENOMINATOR, PDH_CALC_NEGATIVE_TIMEBASE, PDH_CALC_NEGATIVE_VALUE,
    PDH_CSTATUS_INVALID_DATA, PDH_CSTATUS_NEW_DATA, PDH_CSTATUS_NO_INSTANCE,
    PDH_CSTATUS_VALID_DATA, PDH_FMT_COUNTERVALUE_ITEM_W, PDH_FMT_DOUBLE, PDH_HCOUNTER, PDH_HQUERY,
    PDH_INVALID_DATA, PDH_MORE_DATA, PDH_NO_DATA, PdhAddEnglishCounterW, PdhCloseQuery,
    PdhCollectQueryData, PdhGetFormattedCounterArrayW, PdhOpenQueryW,
};

use super::pdh_engine_instances::busiest_engine_type_percent;

/// `ERROR_SUCCESS`, what every PDH call returns when it worked.
const PDH_OK: u32 = 0;

/// Statuses that mean "no numbers this time" rather than a broken query: no instance of ours yet
/// (the app has not created its GPU device), or a rate with no second collection behind it.
const NO_DATA_YET: [u32; 7] = [
    PDH_NO_DATA,
    PDH_INVALID_DATA,
    PDH_CSTATUS_NO_INSTANCE,
    PDH_CSTATUS_INVALID_DATA,
    PDH_CALC_NEGATIVE_DENOMINATOR,
    PDH_CALC_NEGATIVE_TIMEBASE,
    PDH_CALC_NEGATIVE_VALUE,
];

/// How often one sample may grow the item buffer before it gives up (instances can appear
/// between the size query and the read).
const MAX_BUFFER_ATTEMPTS: usize = 4;

/// The PDH source: opens its query at the first sample, and is turned off for good (logged
/// once) when PDH fails.
#[derive(Debug, Default)]
pub(super) struct PdhBackend {
    state: PdhState,
}

#[derive(Debug, Default)]
enum PdhState {
    /// Nothing opened yet: the first sample opens the query.
    #[default]
    NotTried,
    Open(PdhQuery),
    /// PDH failed (no "GPU Engine" object before Windows 10 1709, or an unexpected error):
    /// never retried.
    Off,
}

impl PdhBackend {
    pub(super) fn new() -> Self {
        Self::default()
    }

    /// The busiest engine type's utilisation by this process over the interval since the
    /// previous call, in percent. `None` at the first call (it primes the rate counter), while
    /// the process has no GPU engine instance, and when PDH is unavailable.
    pub(super) fn sample(&mut self, _now_nanos: u64) -> Option<f64> {
        if matches!(self.state, PdhState::NotTried) {
            self.state = match PdhQuery::open(std::process::id()) {
                Ok(query) => PdhState::Open(query),
                Err(error) => {
                    log::info!("PDH GPU Engine counters are unavailable: {error}");
                    PdhState::Off
                }
            };
        }
        let PdhState::Open(query) = &mut self.state else {
            return None;
        };
        match query.sample() {
            Ok(share) => share,
            Err(error) => {
                log::warn!(
                    "PDH GPU Engine counters failed, no Windows per-process GPU use: {error}"
                );
                // Dropping the query closes it.
                self.state = PdhState::Off;
                None
            }
        }
    }
}

/// A failed PDH call and its status code.
#[derive(Debug)]
struct PdhError {
    call: &'static str,
    status: u32,
}

impl fmt::Display for PdhError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{} returned 0x{:08X}", self.call, self.status)
    }
}

fn check(call: &'static str, status: u32) -> Result<(), PdhError> {
    if status == PDH_OK {
        Ok(())
    } else {
        Err(PdhError { call, status })
    }
}

/// An open PDH query with the one wildcard counter of this pid's GPU engines, and the buffer its
/// formatted values are read into (kept across samples).
struct PdhQuery {
    query: PDH_HQUERY,
    counter: PDH_HCOUNTER,
    /// Whether a first `PdhCollectQueryData` ran: a rate needs two.
    primed: bool,
    /// `PdhGetFormattedCounterArrayW`'s buffer: the items, then the instance names they point
    /// to. Typed as items so that it is aligned for them.
    items: Vec<PDH_FMT_COUNTERVALUE_ITEM_W>,
}

// SAFETY: the query and counter handles are owned by this struct alone and are used only through
// `&mut self` (one thread at a time). PDH handles are not bound to the thread that opened them
// (Microsoft documents no thread affinity; PDH guards its query objects with its own locks). The
// raw pointers inside `items` point into `items` itself and are read only during a sample.
unsafe impl Send for PdhQuery {}

impl fmt::Debug for PdhQuery {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("PdhQuery")
            .field("primed", &self.primed)
            .field("buffer_items", &self.items.len())
            .finish_non_exhaustive()
    }
}

impl PdhQuery {
    /// Opens a live-data query with `\GPU Engine(pid_<pid>_*)\Utilization Percentage` (English
    /// names, so it works whatever the system language).
    fn open(pid: u32) -> Result<Self, PdhError> {
        let mut query: PDH_HQUERY = ptr::null_mut();
        // SAFETY: a null data source asks for live data; `query` is a writable handle slot that
        // PDH fills on success.
        let status = unsafe { PdhOpenQueryW(ptr::null(), 0, &raw mut query) };
        check("PdhOpenQueryW", status)?;
        // From here on, dropping `this` closes the query.
        let mut this = Self {
            query,
            counter: ptr::null_mut(),
            primed: false,
            items: Vec::new(),
        };
        let path: Vec<u16> = format!("\\GPU Engine(pid_{pid}_*)\\Utilization Percentage")
            .encode_utf16()
            .chain(std::iter::once(0))
            .collect();
        let mut counter: PDH_HCOUNTER = ptr::null_mut();
        // SAFETY: `this.query` is open; `path` is a NUL-terminated UTF-16 string that outlives the
        // call; `counter` is a writable handle slot.
        let status =
            unsafe { PdhAddEnglishCounterW(this.query, path.as_ptr(), 0, &raw mut counter) };
        check("PdhAddEnglishCounterW", status)?;
        this.counter = counter;
        Ok(this)
    }

    /// Collects once; from the second collection on, answers the busiest engine type's share.
    fn sample(&mut self) -> Result<Option<f64>, PdhError> {
        // SAFETY: `self.query` was opened by PdhOpenQueryW and stays open until drop.
        let status = unsafe { PdhCollectQueryData(self.query) };
        if NO_DATA_YET.contains(&status) {
            return Ok(None);
        }
        check("PdhCollectQueryData", status)?;
        if !self.primed {
            self.primed = true;
            return Ok(None);
        }
        let count = match self.read_formatted_items() {
            Ok(count) => count,
            Err(error) if NO_DATA_YET.contains(&error.status) => return Ok(None),
            Err(error) => return Err(error),
        };
        let items = self.items.get(..count).unwrap_or_default();
        let mut instances: Vec<(String, f64)> = Vec::with_capacity(items.len());
        for item in items {
            let status = item.FmtValue.CStatus;
            if status != PDH_CSTATUS_VALID_DATA && status != PDH_CSTATUS_NEW_DATA {
                continue; // e.g. an instance that appeared since the previous collection
            }
            // SAFETY: the values were formatted with PDH_FMT_DOUBLE, so for an item whose status
            // is valid the union holds `doubleValue`; any f64 bit pattern is a valid f64.
            let percent = unsafe { item.FmtValue.Anonymous.doubleValue };
            if let Some(name) = instance_name(&self.items, item.szName) {
                instances.push((name, percent));
            }
        }
        Ok(busiest_engine_type_percent(
            instances
                .iter()
                .map(|(name, percent)| (name.as_str(), *percent)),
            std::process::id(),
        ))
    }

    /// Fills `self.items` with the counter's formatted values and answers how many items there
    /// are. The buffer is reused; when it is too small, its size is asked for with a zero-size
    /// call (Microsoft: the size returned after a too-small non-zero buffer is not reliable) and
    /// it grows.
    fn read_formatted_items(&mut self) -> Result<usize, PdhError> {
        let item_size = size_of::<PDH_FMT_COUNTERVALUE_ITEM_W>();
        for _ in 0..MAX_BUFFER_ATTEMPTS {
            let mut buffer_bytes = u32::try_from(self.items.len() * item_size).unwrap_or(0);
            let buffer = if buffer_bytes == 0 {
                ptr::null_mut()
            } else {
                self.items.as_mut_ptr()
            };
            let mut item_count = 0_u32;
            // SAFETY: `self.counter` belongs to the open query; `buffer` is either null with a
            // size of 0 (a size query) or `self.items`, writable for exactly `buffer_bytes` bytes;
            // both counts are writable u32s.
            let status = unsafe {
                PdhGetFormattedCounterArrayW(
                    self.counter,
                    PDH_FMT_DOUBLE,
                    &raw mut buffer_bytes,
                    &raw mut item_count,
                    buffer,
                )
            };
            match status {
                PDH_OK if buffer.is_null() => return Ok(0), // nothing to report
                PDH_OK => {
                    let count = usize::try_from(item_count).unwrap_or(0);
                    return Ok(count.min(self.items.len()));
                }
                PDH_MORE_DATA if buffer.is_null() => {
                    let needed_bytes = usize::try_from(buffer_bytes).unwrap_or(0);
                    let needed_items = needed_bytes.div_ceil(item_size).max(1);
                    self.items
                        .resize(needed_items, PDH_FMT_COUNTERVALUE_ITEM_W::default());
                }
                // Too small: ask for the size next turn (keeps the allocation).
                PDH_MORE_DATA => self.items.clear(),
                status => {
                    return Err(PdhError {
                        call: "PdhGetFormattedCounterArrayW",
                        status,
                    });
                }
            }
        }
        Err(PdhError {
            call: "PdhGetFormattedCounterArrayW (buffer kept growing)",
            status: PDH_MORE_DATA,
        })
    }
}

impl Drop for PdhQuery {
    fn drop(&mut self) {
        // SAFETY: `self.query` was opened by PdhOpenQueryW and is closed only here; closing the
        // query also removes its counter.
        let status = unsafe { PdhCloseQuery(self.query) };
        if status != PDH_OK {
            log::debug!("PdhCloseQuery returned 0x{status:08X}");
        }
    }
}

/// The instance name an item's `szName` points to, read only from inside `buffer` (PDH writes
/// the names after the items, in the same buffer). `None` for a pointer outside it, a misaligned
/// one, or a name without its NUL.
fn instance_name(buffer: &[PDH_FMT_COUNTERVALUE_ITEM_W], name: *const u16) -> Option<String> {
    let start = buffer.as_ptr().addr();
    let end = start + size_of_val(buffer);
    let address = name.addr();
    if name.is_null() || address < start || address >= end {
        return None;
    }
    let offset = address - start;
    if !offset.is_multiple_of(size_of::<u16>()) {
        return None;
    }
    let max_units = (end - address) / size_of::<u16>();
    // Derived from the buffer's own pointer, so it carries the buffer's provenance (the items
    // are aligned at least as strictly as u16).
    let units_start = buffer
        .as_ptr()
        .cast::<u16>()
        .wrapping_add(offset / size_of::<u16>());
    // SAFETY: `[units_start, units_start + max_units)` lies inside `buffer` (checked above), is
    // aligned for u16, and is initialised (the Vec was filled with items, then PDH wrote the
    // names there); nothing writes to `buffer` while the slice lives.
    let units = unsafe { std::slice::from_raw_parts(units_start, max_units) };
    let length = units.iter().position(|&unit| unit == 0)?;
    Some(String::from_utf16_lossy(units.get(..length)?))
}
