//! Windows PDH "GPU Engine" instances: reading their names and the busiest engine type's share.
//!
//! Pure (no PDH calls), so it is compiled and unit-tested on every platform; the Windows source
//! (`windows_pdh.rs`) feeds it the formatted counter array.

use std::collections::BTreeMap;

/// The pid and engine type named by a "GPU Engine" instance, e.g.
/// `pid_1234_luid_0x00000000_0x0000C4F3_phys_0_eng_3_engtype_3D` → `(1234, "3D")`.
///
/// The engine type is everything after `_engtype_`; it may hold spaces (`Video Decode`,
/// `Legacy Overlay`) or be empty. `None` when the name has no `pid_<digits>_` prefix or no
/// `_engtype_` part.
pub(super) fn parse_engine_instance(name: &str) -> Option<(u32, &str)> {
    let rest = name.strip_prefix("pid_")?;
    let (pid, rest) = rest.split_once('_')?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let pid = pid.parse::<u32>().ok()?;
    // `rest` is `luid_…_engtype_<type>`; a bare `engtype_<type>` is accepted too.
    let engine_type = match rest.strip_prefix("engtype_") {
        Some(engine_type) => engine_type,
        None => rest.split_once("_engtype_")?.1,
    };
    Some((pid, engine_type))
}

/// The busiest engine type's utilisation of process `pid`, in percent, from PDH
/// `Utilization Percentage` values keyed by instance name.
///
/// Instances are grouped by their `engtype_<name>` suffix and summed per type (two copy engines
/// at 40 % each make `Copy` 80 %); the largest sum wins, clamped to `0.0..=100.0`. As far as
/// public documentation tells (not confirmed), this is what Task Manager's per-process GPU column
/// shows. Instances of another pid, with unreadable names, or with a value that is not a finite
/// number are skipped; negative values count as 0. `None` when no instance of `pid` remains.
pub(super) fn busiest_engine_type_percent<'name>(
    instances: impl IntoIterator<Item = (&'name str, f64)>,
    pid: u32,
) -> Option<f64> {
    let mut per_engine_type: BTreeMap<&str, f64> = BTreeMap::new();
    for (name, percent) in instances {
        let Some((instance_pid, engine_type)) = parse_engine_instance(name) else {
            continue;
        };
        if instance_pid != pid || !percent.is_finite() {
            continue;
        }
        *per_engine_type.entry(engine_type).or_insert(0.0) += percent.max(0.0);
    }
    per_engine_type
        .into_values()
        .reduce(f64::max)
        .map(|percent| percent.clamp(0.0, 100.0))
}

#[cfg(test)]
mod tests {
    use super::{busiest_engine_type_percent, parse_engine_instance};

    const PID: u32 = 1234;

    fn instance(engine: u32, engine_type: &str) -> String {
        format!("pid_{PID}_luid_0x00000000_0x0000C4F3_phys_0_eng_{engine}_engtype_{engine_type}")
    }

    #[test]
    fn engine_type_is_the_suffix() {
        assert_eq!(
            parse_engine_instance("pid_1234_luid_0x00000000_0x0000C4F3_phys_0_eng_3_engtype_3D"),
            Some((1234, "3D"))
        );
        assert_eq!(
            parse_engine_instance("pid_7_luid_0x0_0x1_phys_0_eng_5_engtype_Video Decode"),
            Some((7, "Video Decode"))
        );
        assert_eq!(
            parse_engine_instance("pid_7_luid_0x0_0x1_phys_0_eng_9_engtype_"),
            Some((7, "")),
            "an engine without a type name is its own (empty) type"
        );
        assert_eq!(
            parse_engine_instance("pid_7_engtype_Copy"),
            Some((7, "Copy"))
        );
    }

    #[test]
    fn malformed_names_are_rejected() {
        assert_eq!(parse_engine_instance(""), None);
        assert_eq!(parse_engine_instance("pid__luid_0x0_engtype_3D"), None);
        assert_eq!(parse_engine_instance("pid_12a_luid_0x0_engtype_3D"), None);
        assert_eq!(parse_engine_instance("pid_+12_luid_0x0_engtype_3D"), None);
        assert_eq!(parse_engine_instance("luid_0x0_pid_12_engtype_3D"), None);
        assert_eq!(
            parse_engine_instance("pid_12_luid_0x0_phys_0_eng_0"),
            None,
            "no engine type"
        );
        assert_eq!(
            parse_engine_instance("pid_99999999999_luid_0x0_engtype_3D"),
            None,
            "pid beyond u32"
        );
    }

    #[test]
    fn engines_of_one_type_are_summed_and_the_busiest_type_wins() {
        let names = [
            instance(0, "3D"),
            instance(1, "Copy"),
            instance(2, "Copy"),
            instance(3, "VideoDecode"),
        ];
        let values = [30.0, 25.0, 20.0, 40.0];
        let share = busiest_engine_type_percent(names.iter().map(String::as_str).zip(values), PID);
        assert_eq!(share, Some(45.0), "Copy: 25 + 20");
    }

    #[test]
    fn the_sum_is_clamped_to_100() {
        let names = [instance(1, "Copy"), instance(2, "Copy")];
        let share =
            busiest_engine_type_percent(names.iter().map(String::as_str).zip([80.0, 70.0]), PID);
        assert_eq!(share, Some(100.0));
    }

    #[test]
    fn other_pids_garbage_and_bad_values_are_skipped() {
        let other = "pid_12345_luid_0x0_0x1_phys_0_eng_0_engtype_3D";
        let ours = instance(0, "3D");
        let nan = instance(1, "Compute");
        let negative = instance(2, "Copy");
        let items = [
            (other, 90.0),
            ("not an instance", 90.0),
            (ours.as_str(), 12.5),
            (nan.as_str(), f64::NAN),
            (negative.as_str(), -5.0),
        ];
        assert_eq!(busiest_engine_type_percent(items, PID), Some(12.5));
    }

    #[test]
    fn no_instance_of_ours_is_unavailable_not_zero() {
        assert_eq!(busiest_engine_type_percent([], PID), None);
        let other = "pid_1_luid_0x0_0x1_phys_0_eng_0_engtype_3D";
        assert_eq!(busiest_engine_type_percent([(other, 50.0)], PID), None);
        let idle = instance(0, "3D");
        assert_eq!(
            busiest_engine_type_percent([(idle.as_str(), 0.0)], PID),
            Some(0.0),
            "an idle engine of ours is a real 0"
        );
    }
}
