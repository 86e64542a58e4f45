//! Number semantics JSON Schema asks for and `serde_json` does not give:
//! `1 == 1.0`, integers recognised by value rather than by spelling, and an
//! exact `multipleOf` for decimals such as `0.0075 / 0.0001`.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// A number as compared: exact when it is an integer that fits, else `f64`.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i128),
    Float(f64),
}

fn num(n: &Number) -> Num {
    if let Some(i) = n.as_i64() {
        Num::Int(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Num::Int(i128::from(u))
    } else {
        Num::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// Compares two JSON numbers by value; `None` only for NaN, which JSON
/// cannot spell but an arbitrary-precision overflow could produce.
pub(crate) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (num(a), num(b)) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (x, y) => to_f64(x).partial_cmp(&to_f64(y)),
    }
}

fn to_f64(n: Num) -> f64 {
    match n {
        // Precision loss above 2^53 is accepted: it only affects comparisons
        // between huge integers and fractional numbers.
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

/// True for numbers with no fractional part, however they are spelled
/// (`1`, `1.0`, `1e2`), as the 2020-12 "integer" type requires.
pub(crate) fn is_integer(n: &Number) -> bool {
    match num(n) {
        Num::Int(_) => true,
        Num::Float(f) => f.is_finite() && f.fract() == 0.0,
    }
}

/// Reads a non-negative integer keyword value (`minLength: 2` or `2.0`).
pub(crate) fn as_count(v: &Value) -> Option<u64> {
    let n = v.as_number()?;
    if let Some(u) = n.as_u64() {
        return Some(u);
    }
    let f = n.as_f64()?;
    if f >= 0.0 && f.is_finite() && f.fract() == 0.0 {
        // Anything past u64::MAX behaves the same as u64::MAX for a count.
        Some(if f >= u64::MAX as f64 {
            u64::MAX
        } else {
            f as u64
        })
    } else {
        None
    }
}

/// A number's decimal form: `mantissa × 10^exponent`, sign dropped.
/// Read from the number's text so that `0.0001` is exactly 1e-4 rather than
/// the binary float nearest to it.
fn decimal(n: &Number) -> Option<(u64, i64)> {
    let text = n.to_string();
    let text = text.strip_prefix('-').unwrap_or(&text);
    let (body, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (int_part, frac_part) = body.split_once('.').unwrap_or((body, ""));
    let digits = || int_part.bytes().chain(frac_part.bytes());
    if !digits().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut exponent = exp.checked_sub(i64::try_from(frac_part.len()).ok()?)?;
    let significant: Vec<u8> = digits().skip_while(|&b| b == b'0').collect();
    let trailing_zeros = significant.iter().rev().take_while(|&&b| b == b'0').count();
    for &b in &significant[..significant.len() - trailing_zeros] {
        mantissa = mantissa.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    exponent = exponent.checked_add(i64::try_from(trailing_zeros).ok()?)?;
    Some((mantissa, exponent))
}

/// `base^exp mod m` by squaring; operands stay below 2^64, so u128 products
/// cannot overflow.
fn pow_mod(mut base: u128, mut exp: u64, m: u128) -> u128 {
    let mut acc = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * base % m;
        }
        base = base * base % m;
        exp >>= 1;
    }
    acc
}

/// Whether `value / divisor` is an integer, computed exactly on the decimal
/// forms (`value = mv·10^ev`, `divisor = md·10^ed`).
pub(crate) fn is_multiple_of(value: &Number, divisor: &Number) -> bool {
    match (decimal(value), decimal(divisor)) {
        (Some((0, _)), _) => true,
        (Some(_), Some((0, _))) => false,
        (Some((mv, ev)), Some((md, ed))) => {
            if ev >= ed {
                // value/divisor = mv·10^(ev-ed) / md: divisible iff that
                // product is 0 mod md.
                let Ok(k) = u64::try_from(ev - ed) else {
                    return float_multiple(value, divisor);
                };
                let m = u128::from(md);
                (u128::from(mv) % m) * pow_mod(10, k, m) % m == 0
            } else {
                // value/divisor = mv / (md·10^(ed-ev)); a non-zero mv below
                // that denominator cannot be a multiple of it.
                let denominator = u32::try_from(ed - ev)
                    .ok()
                    .and_then(|k| 10u128.checked_pow(k))
                    .and_then(|p| p.checked_mul(u128::from(md)));
                match denominator {
                    Some(d) => u128::from(mv) % d == 0,
                    None => false,
                }
            }
        }
        _ => float_multiple(value, divisor),
    }
}

/// Fallback for numbers whose text has more significant digits than u64
/// holds (only possible with serde_json's arbitrary_precision feature).
fn float_multiple(value: &Number, divisor: &Number) -> bool {
    match (value.as_f64(), divisor.as_f64()) {
        (Some(v), Some(d)) if d != 0.0 => {
            let q = v / d;
            q.is_finite() && q.fract() == 0.0
        }
        _ => false,
    }
}

/// JSON equality as JSON Schema defines it: numbers by value (1 == 1.0),
/// objects regardless of key order. Iterative, so a deeply nested instance
/// cannot exhaust the stack here.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Number(x), Value::Number(y)) => {
                if compare(x, y) != Some(Ordering::Equal) {
                    return false;
                }
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                pending.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (key, xv) in x {
                    match y.get(key) {
                        Some(yv) => pending.push((xv, yv)),
                        None => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            _ => unreachable!("test helper takes numbers"),
        }
    }

    #[test]
    fn multiple_of_is_exact_on_decimals() {
        assert!(is_multiple_of(&n(json!(0.0075)), &n(json!(0.0001))));
        assert!(!is_multiple_of(&n(json!(0.00751)), &n(json!(0.0001))));
        assert!(is_multiple_of(&n(json!(4.5)), &n(json!(1.5))));
        assert!(!is_multiple_of(&n(json!(35)), &n(json!(1.5))));
        assert!(is_multiple_of(&n(json!(10)), &n(json!(2))));
        assert!(!is_multiple_of(&n(json!(7)), &n(json!(2))));
        assert!(is_multiple_of(&n(json!(0)), &n(json!(0.3))));
        assert!(is_multiple_of(&n(json!(-6)), &n(json!(3))));
        assert!(is_multiple_of(&n(json!(0.3)), &n(json!(0.1))));
        assert!(!is_multiple_of(&n(json!(1e308)), &n(json!(0.123456789))));
        assert!(is_multiple_of(&n(json!(12391239123_u64)), &n(json!(1e-8))));
        assert!(is_multiple_of(&n(json!(1e308)), &n(json!(1e300))));
        assert!(!is_multiple_of(&n(json!(1e-300)), &n(json!(3e-300))));
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
        assert!(!json_eq(
            &json!(9007199254740991_u64),
            &json!(9007199254740992.0)
        ));
        assert!(!json_eq(&json!({"a": false}), &json!({"a": 0})));
        assert!(json_eq(&json!(-0.0), &json!(0)));
        assert_eq!(
            compare(&n(json!(u64::MAX)), &n(json!(-1))),
            Some(Ordering::Greater)
        );
        assert!(is_integer(&n(json!(1.0))));
        assert!(!is_integer(&n(json!(1.5))));
        assert_eq!(as_count(&json!(2.0)), Some(2));
        assert_eq!(as_count(&json!(-1)), None);
        assert_eq!(as_count(&json!(1.5)), None);
    }
}
