//! Seed 001's one harmless tool: `get_time`, with an empty-object schema that
//! rejects any argument (`additionalProperties: false`).

use std::rc::Rc;

use serde_json::{json, Value};

use super::BuiltinTool;
use crate::runtime::Runtime;
use crate::tool::ToolDef;

pub(super) fn get_time_tool() -> BuiltinTool {
    BuiltinTool::new(
        "get_time",
        "Returns the current date and time in UTC. Takes no arguments.",
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        false,
    )
}

pub fn get_time(runtime: Rc<dyn Runtime>) -> ToolDef {
    super::define(get_time_tool(), move |_args: Value| {
        let unix_ms = runtime.unix_ms();
        Ok(json!({"utc": iso8601(unix_ms), "unix_ms": unix_ms as u64}))
    })
}

/// `YYYY-MM-DDTHH:MM:SSZ` from Unix milliseconds (proleptic Gregorian calendar).
pub fn iso8601(unix_ms: f64) -> String {
    let secs = (unix_ms / 1000.0).floor() as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day):
/// Howard Hinnant's days-to-civil algorithm.
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn formats_known_instants() {
        assert_eq!(iso8601(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400_000.0), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_796_000_000_000.0), "2026-11-30T00:53:20Z");
    }
}

/// Days since 1970-01-01 of a civil date (the inverse of `civil_from_days`).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A strict `YYYY-MM-DD` date: real month lengths, leap years included.
pub(crate) fn parse_date(text: &str) -> Option<(i64, u32, u32)> {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let y: i64 = text.get(0..4)?.parse().ok()?;
    let m: u32 = text.get(5..7)?.parse().ok()?;
    let d: u32 = text.get(8..10)?.parse().ok()?;
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in_month = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days_in_month).contains(&d).then_some((y, m, d))
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn dates_parse_strictly_and_convert_both_ways() {
        assert_eq!(parse_date("2024-02-29"), Some((2024, 2, 29)));
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(parse_date("14/03/2027"), None);
        assert_eq!(parse_date("2027-3-14"), None);
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        for days in [-1000i64, 0, 11_016, 20_000, 30_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}

/// Unix milliseconds of a UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` (fractions of a
/// second allowed), the form a scenario's `now` takes.
pub fn parse_utc(text: &str) -> Option<f64> {
    let (date, time) = text.split_once('T')?;
    let (y, m, d) = parse_date(date)?;
    let time = time.strip_suffix('Z')?;
    let (hms, fraction) = match time.split_once('.') {
        Some((hms, f)) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
            (hms, crate::float_text::parse_f64(&format!("0.{f}"))?)
        }
        Some(_) => return None,
        None => (time, 0.0),
    };
    let mut parts = hms
        .split(':')
        .map(|p| (p.len() == 2).then(|| p.parse::<u32>().ok()).flatten());
    let (h, min, s) = (parts.next()??, parts.next()??, parts.next()??);
    if parts.next().is_some() || h > 23 || min > 59 || s > 59 {
        return None;
    }
    let secs = days_from_civil(y, m, d) * 86_400 + i64::from(h * 3600 + min * 60 + s);
    Some((secs as f64 + fraction) * 1000.0)
}

#[cfg(test)]
mod utc_tests {
    use super::*;

    #[test]
    fn utc_timestamps_parse_and_format_back() {
        let ms = parse_utc("2026-11-29T12:00:00Z").unwrap();
        assert_eq!(iso8601(ms), "2026-11-29T12:00:00Z");
        assert_eq!(parse_utc("2026-11-29T12:00:00.5Z").unwrap() - ms, 500.0);
        for bad in [
            "2026-11-29",
            "2026-11-29T25:00:00Z",
            "2026-11-29T12:00:00",
            "2026-02-30T00:00:00Z",
            "2026-11-29T1:00:00Z",
        ] {
            assert_eq!(parse_utc(bad), None, "{bad}");
        }
    }
}
