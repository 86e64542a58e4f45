//! The `format` checks tool arguments need. Hand-written byte scanners rather
//! than regexes: they are smaller in wasm, and calendar rules (Feb 29, leap
//! seconds) do not fit a regex anyway.

use std::net::Ipv6Addr;

/// A format this crate can assert. Unknown names are not represented:
/// 2020-12 says they are ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Date,
    DateTime,
    Time,
    Email,
    Uuid,
    Uri,
    Ipv4,
    Ipv6,
    Hostname,
}

impl Format {
    pub(crate) fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            "time" => Format::Time,
            "email" => Format::Email,
            "uuid" => Format::Uuid,
            "uri" => Format::Uri,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "hostname" => Format::Hostname,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::DateTime => "date-time",
            Format::Time => "time",
            Format::Email => "email",
            Format::Uuid => "uuid",
            Format::Uri => "uri",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hostname => "hostname",
        }
    }

    /// What the value should have been, as the message's noun phrase.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::DateTime => "date-time",
            Format::Time => "time",
            Format::Email => "email address",
            Format::Uuid => "UUID",
            Format::Uri => "URI",
            Format::Ipv4 => "IPv4 address",
            Format::Ipv6 => "IPv6 address",
            Format::Hostname => "hostname",
        }
    }

    /// A reminder of the expected shape, so a model can fix its argument
    /// without looking the format up.
    pub(crate) fn hint(self) -> &'static str {
        match self {
            Format::Date => "YYYY-MM-DD",
            Format::DateTime => "RFC 3339 with a UTC offset, e.g. 2024-01-31T09:30:00Z",
            Format::Time => "HH:MM:SS with a UTC offset, e.g. 09:30:00+02:00",
            Format::Email => "e.g. name@example.com",
            Format::Uuid => "8-4-4-4-12 hex digits",
            Format::Uri => "an absolute URI with a scheme, e.g. https://example.com/a",
            Format::Ipv4 => "four numbers 0-255 separated by dots",
            Format::Ipv6 => "e.g. 2001:db8::1",
            Format::Hostname => "dot-separated labels of letters, digits and hyphens",
        }
    }

    pub(crate) fn is_valid(self, s: &str) -> bool {
        match self {
            Format::Date => is_date(s),
            Format::DateTime => is_date_time(s),
            Format::Time => is_time(s),
            Format::Email => is_email(s),
            Format::Uuid => is_uuid(s),
            Format::Uri => is_uri(s),
            Format::Ipv4 => is_ipv4(s),
            Format::Ipv6 => s.parse::<Ipv6Addr>().is_ok(),
            Format::Hostname => is_hostname(s),
        }
    }
}

/// Parses exactly `len` ASCII digits.
fn digits(b: &[u8], len: usize) -> Option<u32> {
    if b.len() != len || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0, |acc, d| acc * 10 + u32::from(d - b'0')))
}

fn is_leap(year: u32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// RFC 3339 full-date: YYYY-MM-DD with a day that exists in that month.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(&b[0..4], 4),
        digits(&b[5..7], 2),
        digits(&b[8..10], 2),
    ) else {
        return false;
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days_in_month).contains(&day)
}

/// RFC 3339 full-time: HH:MM:SS[.fraction](Z|±HH:MM). A leap second (:60) is
/// only valid when it falls at 23:59:60 UTC.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        digits(&b[0..2], 2),
        digits(&b[3..5], 2),
        digits(&b[6..8], 2),
    ) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    // Offset in minutes east of UTC.
    let offset: i64 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(oh), Some(om)) = (digits(&[*h1, *h2], 2), digits(&[*m1, *m2], 2)) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = i64::from(oh * 60 + om);
            if *sign == b'-' {
                -minutes
            } else {
                minutes
            }
        }
        _ => return false,
    };
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn is_date_time(s: &str) -> bool {
    match s.as_bytes().get(10) {
        Some(b'T' | b't') => is_date(&s[..10]) && is_time(&s[11..]),
        _ => false,
    }
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            let b = p.as_bytes();
            // Leading zeros are rejected: some parsers read them as octal.
            (1..=3).contains(&b.len())
                && b.iter().all(u8::is_ascii_digit)
                && (b.len() == 1 || b[0] != b'0')
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// RFC 1123 host name: labels of 1–63 letters, digits and inner hyphens,
/// at most 253 characters in all.
fn is_hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            (1..=63).contains(&b.len())
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// A practical RFC 5321 mailbox: dot-atom or quoted local part, then a host
/// name or a bracketed IP literal.
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = if let Some(quoted) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        !quoted.is_empty()
            && quoted
                .chars()
                .all(|c| c != '"' && c != '\\' && !c.is_control())
    } else {
        const SPECIALS: &[u8] = b"!#$%&'*+-/=?^_`{|}~";
        let b = local.as_bytes();
        !b.is_empty()
            && b.len() <= 64
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || SPECIALS.contains(c) || *c == b'.')
            && b[0] != b'.'
            && b[b.len() - 1] != b'.'
            && !local.contains("..")
    };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
            None => is_ipv4(literal),
        },
        None => is_hostname(domain),
    };
    local_ok && domain_ok
}

/// RFC 3986 absolute URI, checked loosely: a scheme, then only characters a
/// URI may contain, with well-formed percent escapes and at most one `#`.
fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let sb = scheme.as_bytes();
    let scheme_ok = !sb.is_empty()
        && sb[0].is_ascii_alphabetic()
        && sb
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
    if !scheme_ok || rest.matches('#').count() > 1 {
        return false;
    }
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let escaped = b.get(i + 1..i + 3);
            if !escaped.is_some_and(|e| e.iter().all(u8::is_ascii_hexdigit)) {
                return false;
            }
            i += 3;
            continue;
        }
        let allowed = c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c);
        if !allowed {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(f: Format, s: &str) -> bool {
        f.is_valid(s)
    }

    #[test]
    fn dates_follow_the_calendar() {
        assert!(ok(Format::Date, "2024-02-29"));
        assert!(!ok(Format::Date, "2023-02-29"));
        assert!(!ok(Format::Date, "2024-02-30"));
        assert!(!ok(Format::Date, "2024-13-01"));
        assert!(!ok(Format::Date, "2024-1-01"));
        assert!(!ok(Format::Date, "2024-01-00"));
        assert!(ok(Format::Date, "2000-02-29"));
        assert!(!ok(Format::Date, "1900-02-29"));
        assert!(!ok(Format::Date, "２024-01-01"));
    }

    #[test]
    fn times_need_an_offset() {
        assert!(ok(Format::Time, "09:30:00Z"));
        assert!(ok(Format::Time, "09:30:00.123+02:00"));
        assert!(!ok(Format::Time, "09:30:00"));
        assert!(!ok(Format::Time, "24:00:00Z"));
        assert!(!ok(Format::Time, "09:30:00.+02:00"));
        assert!(ok(Format::Time, "23:59:60Z"));
        assert!(ok(Format::Time, "15:59:60-08:00"));
        assert!(!ok(Format::Time, "22:59:60Z"));
        assert!(ok(Format::DateTime, "2024-01-31T09:30:00Z"));
        assert!(ok(Format::DateTime, "2024-01-31t09:30:00-05:00"));
        assert!(!ok(Format::DateTime, "2024-01-31 09:30:00Z"));
        assert!(!ok(Format::DateTime, "2024-01-31T09:30"));
        assert!(!ok(Format::DateTime, "2024-01-31é09:30:00Z"));
    }

    #[test]
    fn network_formats() {
        assert!(ok(Format::Ipv4, "192.168.0.1"));
        assert!(!ok(Format::Ipv4, "256.1.1.1"));
        assert!(!ok(Format::Ipv4, "01.1.1.1"));
        assert!(!ok(Format::Ipv4, "1.1.1"));
        assert!(ok(Format::Ipv6, "::1"));
        assert!(ok(Format::Ipv6, "2001:db8::8a2e:370:7334"));
        assert!(!ok(Format::Ipv6, "12345::"));
        assert!(ok(Format::Hostname, "api.example.com"));
        assert!(!ok(Format::Hostname, "-bad.example"));
        assert!(!ok(Format::Hostname, "a..b"));
        assert!(ok(Format::Email, "joe.bloggs@example.com"));
        assert!(ok(Format::Email, "\"joe bloggs\"@example.com"));
        assert!(ok(Format::Email, "joe@[127.0.0.1]"));
        assert!(!ok(Format::Email, "joe..bloggs@example.com"));
        assert!(!ok(Format::Email, "joe@"));
        assert!(!ok(Format::Email, "example.com"));
        assert!(ok(Format::Uuid, "2eb8aa08-aa98-11ea-b4aa-73b441d16380"));
        assert!(!ok(Format::Uuid, "2eb8aa08aa9811eab4aa73b441d16380"));
        assert!(ok(Format::Uri, "https://example.com/a?b=c#d"));
        assert!(ok(Format::Uri, "urn:isbn:0451450523"));
        assert!(!ok(Format::Uri, "//example.com/a"));
        assert!(!ok(Format::Uri, "https://exa mple.com"));
        assert!(!ok(Format::Uri, "https://example.com/%zz"));
    }
}
