//! The journal's times: UTC, RFC 3339 with milliseconds, written and read.

use std::time::SystemTime;

/// `time` as UTC RFC 3339 with milliseconds: `2026-12-03T19:16:17.123Z` (the epoch for a time
/// before it or past the year 9999).
pub fn format_time(time: SystemTime) -> String {
    let at = jiff::Timestamp::try_from(time)
        // Whole milliseconds (truncated), as every recorded time has.
        .and_then(|at| jiff::Timestamp::from_millisecond(at.as_millisecond()))
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    format!("{at:.3}")
}

/// The milliseconds since the Unix epoch of an RFC 3339 time (what [`format_time`] writes, or
/// any `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`); `None` for anything else or a time before the
/// epoch.
pub fn parse_time(text: &str) -> Option<u64> {
    let at: jiff::Timestamp = text.parse().ok()?;
    u64::try_from(at.as_millisecond()).ok()
}
