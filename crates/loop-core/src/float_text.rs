//! Reads a decimal number as `str::parse::<f64>` does (the same syntax, the
//! same correctly rounded value) in about 1.5 KiB of web bundle. The
//! standard parser carries a 10 KiB table of powers of five, which the web
//! page would fetch with its first paint and its first run; this one finds
//! the nearest double from an estimate, checked with exact integer
//! arithmetic. A parse here is rare (a typed price, a scenario's number
//! being checked), so the slower exact check costs nothing a person notices.

use std::cmp::Ordering;

/// The number `text` spells, or `None` where `str::parse::<f64>` fails.
pub fn parse_f64(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude =
        if unsigned.eq_ignore_ascii_case("inf") || unsigned.eq_ignore_ascii_case("infinity") {
            f64::INFINITY
        } else if unsigned.eq_ignore_ascii_case("nan") {
            f64::NAN
        } else {
            nearest(&Decimal::read(unsigned)?)
        };
    Some(if negative { -magnitude } else { magnitude })
}

/// Significant digits (no leading zeros; each 0..=9) times ten to `exponent`.
struct Decimal {
    digits: Vec<u8>,
    exponent: i64,
}

/// Past this many significant digits the rest only says whether the number
/// lies above the cut: no halfway point between two doubles needs more
/// than 767 digits, so one nonzero digit stands for them all.
const KEPT_DIGITS: usize = 800;

impl Decimal {
    /// Rust's grammar for a number: `(Digit+ | Digit+ '.' Digit* | Digit* '.' Digit+)
    /// ([eE] [+-]? Digit+)?`, without a sign.
    fn read(text: &str) -> Option<Decimal> {
        let (mantissa, exponent_text) = match text.find(['e', 'E']) {
            Some(at) => (&text[..at], Some(&text[at + 1..])),
            None => (text, None),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(whole) || !all_digits(fraction) || (whole.is_empty() && fraction.is_empty())
        {
            return None;
        }
        let mut exponent: i64 = match exponent_text {
            None => 0,
            Some(e) => {
                let (negative, digits) = match e.as_bytes().first() {
                    Some(b'-') => (true, &e[1..]),
                    Some(b'+') => (false, &e[1..]),
                    _ => (false, e),
                };
                if digits.is_empty() || !all_digits(digits) {
                    return None;
                }
                // Saturated: anything past a billion is zero or infinity anyway.
                let value = digits.bytes().fold(0i64, |n, b| {
                    (n * 10 + i64::from(b - b'0')).min(1_000_000_000)
                });
                if negative {
                    -value
                } else {
                    value
                }
            }
        };
        exponent -= fraction.len() as i64;
        let mut digits = Vec::new();
        let mut dropped_nonzero = false;
        for b in whole.bytes().chain(fraction.bytes()) {
            let digit = b - b'0';
            if digits.is_empty() && digit == 0 {
                continue;
            }
            if digits.len() < KEPT_DIGITS {
                digits.push(digit);
            } else {
                exponent += 1;
                dropped_nonzero |= digit != 0;
            }
        }
        if dropped_nonzero {
            digits.push(1);
            exponent -= 1;
        }
        Some(Decimal { digits, exponent })
    }

    /// The exact value as an integer `n` with `self` = `n` × 10^`exponent`.
    fn integer(&self) -> Big {
        let mut n = Big::default();
        for &digit in &self.digits {
            n.mul_add(10, u32::from(digit));
        }
        n
    }
}

/// The double nearest to `decimal`, ties to the even one.
fn nearest(decimal: &Decimal) -> f64 {
    let count = decimal.digits.len() as i64;
    if count == 0 {
        return 0.0;
    }
    // The value lies in [10^(count+exponent-1), 10^(count+exponent)).
    let scale = count + decimal.exponent;
    if scale > 310 {
        return f64::INFINITY;
    }
    if scale < -324 {
        return 0.0;
    }
    let mut z = estimate(decimal);
    let n = decimal.integer();
    // Up while the value is past the midpoint to the next double; ties go
    // to the even one.
    loop {
        if z == f64::MAX {
            // The next "double" is 2^1024: past the midpoint is infinity.
            let past = compare(&n, decimal.exponent, Midpoint::AboveMax);
            if past == Ordering::Less {
                break;
            }
            return f64::INFINITY;
        }
        let next = f64::from_bits(z.to_bits() + 1);
        match compare(&n, decimal.exponent, Midpoint::Between(z, next)) {
            Ordering::Greater => z = next,
            Ordering::Equal => return even(z, next),
            Ordering::Less => break,
        }
    }
    // Down while the value is below the midpoint to the double before.
    while z > 0.0 {
        let before = f64::from_bits(z.to_bits() - 1);
        match compare(&n, decimal.exponent, Midpoint::Between(before, z)) {
            Ordering::Less => z = before,
            Ordering::Equal => return even(before, z),
            Ordering::Greater => break,
        }
    }
    z
}

/// Of two neighbouring doubles, the one whose last mantissa bit is 0.
fn even(a: f64, b: f64) -> f64 {
    if a.to_bits() & 1 == 0 {
        a
    } else {
        b
    }
}

/// A double within a few units in the last place of `decimal` (or 0 or
/// `f64::MAX` at the ends), from its first 19 digits in floating point.
fn estimate(decimal: &Decimal) -> f64 {
    let lead = decimal.digits.len().min(19);
    let w = decimal.digits[..lead]
        .iter()
        .fold(0u64, |n, &d| n * 10 + u64::from(d));
    let mut exponent = decimal.exponent + (decimal.digits.len() - lead) as i64;
    let mut value = w as f64;
    while exponent > 0 && value.is_finite() {
        let step = exponent.min(22);
        value *= POWERS_OF_TEN[step as usize];
        exponent -= step;
    }
    while exponent < 0 && value > 0.0 {
        let step = (-exponent).min(22);
        value /= POWERS_OF_TEN[step as usize];
        exponent += step;
    }
    value.min(f64::MAX)
}

/// 10^0 to 10^22, each exact in a double.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A point halfway between two adjacent non-negative doubles.
enum Midpoint {
    Between(f64, f64),
    /// Between `f64::MAX` and 2^1024.
    AboveMax,
}

impl Midpoint {
    /// The midpoint as `m` × 2^`e`, exactly.
    fn exact(&self) -> (u128, i64) {
        match *self {
            Midpoint::Between(a, b) => {
                let (ma, ea) = parts(a);
                let (mb, eb) = parts(b);
                let e = ea.min(eb);
                let m = (u128::from(ma) << (ea - e)) + (u128::from(mb) << (eb - e));
                (m, e - 1)
            }
            Midpoint::AboveMax => {
                let (m, e) = parts(f64::MAX);
                ((u128::from(m) << 1) + 1, e - 1)
            }
        }
    }
}

/// A finite non-negative double as `m` × 2^`e` (integers).
fn parts(x: f64) -> (u64, i64) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// `n` × 10^`exponent` against `midpoint`, exactly.
fn compare(n: &Big, exponent: i64, midpoint: Midpoint) -> Ordering {
    let (m, e) = midpoint.exact();
    let mut left = n.clone();
    let mut right = Big::from_u128(m);
    // Both sides times 10^-exponent and 2^-e where those are negative powers.
    if exponent >= 0 {
        left.mul_pow10(exponent as u32);
    } else {
        right.mul_pow10((-exponent) as u32);
    }
    if e >= 0 {
        right.shl(e as u32);
    } else {
        left.shl((-e) as u32);
    }
    left.cmp(&right)
}

/// A non-negative integer in base 2^32, least significant limb first, with
/// no high zero limbs.
#[derive(Clone, Default, PartialEq, Eq)]
struct Big {
    limbs: Vec<u32>,
}

impl Big {
    fn from_u128(mut value: u128) -> Big {
        let mut limbs = Vec::new();
        while value > 0 {
            limbs.push(value as u32);
            value >>= 32;
        }
        Big { limbs }
    }

    /// self = self × `factor` + `add`.
    fn mul_add(&mut self, factor: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.limbs {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut exponent: u32) {
        while exponent > 0 {
            let step = exponent.min(9);
            self.mul_add(10u32.pow(step), 0);
            exponent -= step;
        }
    }

    fn shl(&mut self, bits: u32) {
        if self.limbs.is_empty() {
            return;
        }
        let (whole, part) = ((bits / 32) as usize, bits % 32);
        if part > 0 {
            let mut carry = 0u32;
            for limb in &mut self.limbs {
                let shifted = (u64::from(*limb) << part) | u64::from(carry);
                *limb = shifted as u32;
                carry = (shifted >> 32) as u32;
            }
            if carry > 0 {
                self.limbs.push(carry);
            }
        }
        self.limbs.splice(0..0, std::iter::repeat_n(0, whole));
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both parsers' answers, bit for bit (NaN as NaN).
    fn same_as_rust(text: &str) {
        let ours = parse_f64(text);
        let rusts = text.parse::<f64>().ok();
        match (ours, rusts) {
            (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {}
            (a, b) => assert_eq!(
                a.map(f64::to_bits),
                b.map(f64::to_bits),
                "{text:?}: {a:?} against {b:?}"
            ),
        }
    }

    #[test]
    fn accepts_and_reads_what_rust_does() {
        for text in [
            "0",
            "3",
            "-1",
            "+2",
            "0.25",
            ".5",
            "5.",
            "-.5e-3",
            "1e300",
            "1E+5",
            "2e-7",
            "1e400",
            "0e99999",
            "00012",
            "10000",
            "0.1",
            "0.3",
            "2.5",
            "1_000",
            "",
            ".",
            "-",
            "+",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1.5abc",
            "abc",
            " 1",
            "1 ",
            "0x10",
            "1..2",
            "1.2.3",
            "1e5.5",
            "--1",
            "+-1",
            "inf",
            "-INF",
            "Infinity",
            "+infinity",
            "infinit",
            "nan",
            "NaN",
            "-nan",
            "nana",
            "∞",
            "1٫5",
            "-0",
            "-0.0",
            "1e-99999999999999999999",
            "1e99999999999999999999",
        ] {
            same_as_rust(text);
        }
    }

    #[test]
    fn reads_the_edges_of_the_doubles_as_rust_does() {
        for text in [
            // The largest double, and just past halfway to 2^1024.
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.797693134862315807e308",
            "1.7976931348623159e308",
            // The smallest normal and subnormal doubles, and halfway below them.
            "2.2250738585072014e-308",
            "2.2250738585072011e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
            // Exact halfway points between neighbours: ties to even.
            "9007199254740993",
            "9007199254740995",
            "18014398509481990",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "123456789012345678901234567890",
            "0.000000000000000000000000000000000000001234567890123456789",
        ] {
            same_as_rust(text);
        }
    }

    #[test]
    fn reads_many_numbers_as_rust_does() {
        // A fixed-seed generator: the same texts on every run.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let digits = 1 + (next() % 40) as usize;
            let mut text: String = (0..digits)
                .map(|_| char::from(b'0' + (next() % 10) as u8))
                .collect();
            if next() % 2 == 0 {
                let at = (next() as usize) % (digits + 1);
                text.insert(at, '.');
                if text == "." {
                    text.push('0');
                }
            }
            let exponent = (next() % 700) as i64 - 350;
            text.push_str(&format!("e{exponent}"));
            same_as_rust(&text);
        }
    }
}
