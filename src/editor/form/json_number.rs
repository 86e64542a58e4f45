//! What a form field's text is as a JSON number, read exactly from its
//! digits: `1e3`, `1000.0`, `1E3` and `10e-1` are whole numbers as JSON
//! writes them, and `12345678901234567890123` is a whole number too large
//! for the page to count to. Reading the digits (rather than going through a
//! float) keeps `1.0000000000000000001` a fraction and a 23-digit number
//! exact in the message that refuses it.

/// A text read by JSON's number grammar (RFC 8259, section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonNumber {
    /// A whole number from 0 to `u64::MAX`: `10`, `1e3`, `1000.0`, `-0`.
    Whole(u64),
    /// A whole number below zero: `-1`, `-1e3`.
    Negative,
    /// A whole number past `u64::MAX`: `12345678901234567890123`, `1e300`.
    Huge,
    /// A number with a fraction: `1.5`, `1e-1`.
    Fraction,
    /// Not a number as JSON writes one: `ten`, `1,000`, `+1`, `.5`, `1e`.
    NotANumber,
}

/// Reads `text` (already trimmed) as a JSON number.
pub fn read(text: &str) -> JsonNumber {
    let Some(parts) = Parts::of(text) else {
        return JsonNumber::NotANumber;
    };
    // The significant digits, and the power of ten they are multiplied by.
    let digits = format!("{}{}", parts.integer, parts.fraction);
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        return JsonNumber::Whole(0);
    }
    let trailing_zeros = (digits.len() - significant.len()) as i128;
    let power = parts.exponent - parts.fraction.len() as i128 + trailing_zeros;
    if power < 0 {
        return JsonNumber::Fraction;
    }
    if parts.negative {
        return JsonNumber::Negative;
    }
    // u64::MAX has 20 digits: anything longer is past it.
    if significant.len() as i128 + power > 20 {
        return JsonNumber::Huge;
    }
    let value = significant
        .parse::<u128>()
        .ok()
        .and_then(|n| n.checked_mul(10u128.checked_pow(power as u32)?))
        .and_then(|n| u64::try_from(n).ok());
    value.map_or(JsonNumber::Huge, JsonNumber::Whole)
}

/// Far past any power of ten that matters here (u64 holds 20 digits).
const EXPONENT_CLAMP: i128 = 1_000_000_000_000;

/// A JSON number's pieces: `-12.50e3` is negative, "12", "50" and 3.
struct Parts<'t> {
    negative: bool,
    integer: &'t str,
    fraction: &'t str,
    /// Clamped far past any power that matters, so a 30-digit exponent is
    /// still read as huge (or tiny) rather than as an error.
    exponent: i128,
}

impl<'t> Parts<'t> {
    fn of(text: &'t str) -> Option<Self> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (integer, rest) = take_digits(rest);
        // JSON allows no leading zero but a lone one ("0", "0.5").
        if integer.is_empty() || (integer.len() > 1 && integer.starts_with('0')) {
            return None;
        }
        let (fraction, rest) = match rest.strip_prefix('.') {
            Some(after) => match take_digits(after) {
                ("", _) => return None,
                found => found,
            },
            None => ("", rest),
        };
        let (exponent, rest) = match rest.strip_prefix(['e', 'E']) {
            Some(after) => {
                let (sign, after) = match after.strip_prefix(['+', '-']) {
                    Some(unsigned) => (if after.starts_with('-') { -1 } else { 1 }, unsigned),
                    None => (1, after),
                };
                let (digits, rest) = take_digits(after);
                if digits.is_empty() {
                    return None;
                }
                let significant = digits.trim_start_matches('0');
                let magnitude = match significant.len() {
                    0 => 0,
                    1..=12 => significant.parse::<i128>().unwrap_or(0),
                    _ => EXPONENT_CLAMP,
                };
                (sign * magnitude, rest)
            }
            None => (0, rest),
        };
        rest.is_empty().then_some(Parts {
            negative,
            integer,
            fraction,
            exponent,
        })
    }
}

/// The ASCII digits at the start of `text`, and what follows them.
fn take_digits(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::JsonNumber::*;
    use super::*;

    #[test]
    fn every_spelling_json_has_for_a_whole_number_is_whole() {
        for (text, value) in [
            ("10", 10),
            ("1e3", 1000),
            ("1E3", 1000),
            ("1e+3", 1000),
            ("1000.0", 1000),
            ("10e-1", 1),
            ("0.5e1", 5),
            ("-0", 0),
            ("0", 0),
            ("0e999999999999999999999", 0),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(read(text), Whole(value), "{text}");
        }
    }

    #[test]
    fn fractions_negatives_and_huge_numbers_are_told_apart() {
        assert_eq!(read("1.5"), Fraction);
        assert_eq!(read("1e-1"), Fraction);
        assert_eq!(read("1.0000000000000000001"), Fraction);
        assert_eq!(read("-1"), Negative);
        assert_eq!(read("-1e3"), Negative);
        assert_eq!(read("18446744073709551616"), Huge);
        assert_eq!(read("12345678901234567890123"), Huge);
        assert_eq!(read("1e300"), Huge);
        assert_eq!(read("1e99999999999999999999999"), Huge);
        assert_eq!(read("1e-99999999999999999999999"), Fraction);
    }

    #[test]
    fn what_json_does_not_write_is_not_a_number() {
        for text in [
            "", "ten", "1,000", "+1", ".5", "5.", "01", "1e", "1e+", "0x10", "1 000", "--1",
            "1e3x", "Infinity", "NaN",
        ] {
            assert_eq!(read(text), NotANumber, "{text:?}");
        }
    }
}
