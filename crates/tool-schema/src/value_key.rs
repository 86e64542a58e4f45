//! Finds equal JSON values by sorting instead of comparing every pair, so
//! `uniqueItems`, a long `enum` and the merging of `anyOf` alternatives
//! take time in proportion to their size, not to its square.
//!
//! A value's key is a text such that values equal by JSON Schema's rules
//! (`1 == 1.0`, members in any order) get the same key. Numbers are keyed by
//! their `f64` value, so two integers past 2^53 that differ may share a key:
//! every match found by key is confirmed with [`json_eq`].

use std::sync::Arc;

use serde_json::Value;

use crate::error::json_string;
use crate::number::json_eq;

/// Deeper values share one key; `json_eq` then tells them apart. Keeps the
/// recursion off the (small, in wasm) stack's limit.
const KEYED_DEPTH: usize = 128;

/// The key of `value`: equal values (by `json_eq`) have equal keys.
pub(crate) fn key(value: &Value) -> String {
    let mut out = String::new();
    write_key(value, &mut out, 0);
    out
}

fn write_key(value: &Value, out: &mut String, depth: usize) {
    if depth > KEYED_DEPTH {
        out.push('~');
        return;
    }
    match value {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            // -0.0 equals 0; their bits differ.
            let f = if f == 0.0 { 0.0 } else { f };
            out.push('#');
            out.push_str(&format!("{:016x}", f.to_bits()));
        }
        Value::String(s) => {
            out.push('s');
            out.push_str(&json_string(s));
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                write_key(item, out, depth + 1);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (name, member) in members {
                out.push_str(&json_string(name));
                out.push(':');
                write_key(member, out, depth + 1);
                out.push(',');
            }
            out.push('}');
        }
    }
}

/// The values' keys with their positions, sorted by key then position.
pub(crate) fn sorted_keys(values: &[Value]) -> Vec<(String, usize)> {
    let mut keys: Vec<(String, usize)> = values.iter().map(key).zip(0..).collect();
    keys.sort_unstable();
    keys
}

/// Positions in `sorted` (from [`sorted_keys`]) whose key is `key`.
pub(crate) fn with_key<'k>(sorted: &'k [(String, usize)], key: &str) -> &'k [(String, usize)] {
    let start = sorted.partition_point(|(k, _)| k.as_str() < key);
    let end = start + sorted[start..].partition_point(|(k, _)| k.as_str() == key);
    &sorted[start..end]
}

/// The first pair of equal items `(i, j)`, `i < j`: the smallest `j` that
/// repeats an earlier item, and the first item it repeats.
pub(crate) fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    let sorted = sorted_keys(items);
    let mut best: Option<(usize, usize)> = None;
    for group in sorted.chunk_by(|a, b| a.0 == b.0) {
        // Positions ascend within a group; keys only narrow the search, so
        // each candidate is confirmed (usually at the first comparison).
        'later: for (n, (_, j)) in group.iter().enumerate().skip(1) {
            if best.is_some_and(|(_, best_j)| best_j <= *j) {
                break;
            }
            for (_, i) in &group[..n] {
                if json_eq(&items[*i], &items[*j]) {
                    best = Some((*i, *j));
                    break 'later;
                }
            }
        }
    }
    best
}

/// Up to this many values are searched one by one: building a key costs
/// more than a few comparisons.
const SCANNED_VALUES: usize = 8;

/// The values an `enum` allows, looked up by key when there are many.
#[derive(Clone, Debug)]
pub(crate) struct ValueSet {
    /// Shared with every error that lists them, so a thousand failures do
    /// not copy a long list a thousand times.
    pub values: Arc<[Value]>,
    sorted: Vec<(String, usize)>,
}

impl ValueSet {
    pub(crate) fn new(values: Vec<Value>) -> ValueSet {
        let sorted = if values.len() > SCANNED_VALUES {
            sorted_keys(&values)
        } else {
            Vec::new()
        };
        ValueSet {
            values: values.into(),
            sorted,
        }
    }

    pub(crate) fn contains(&self, value: &Value) -> bool {
        if self.values.len() <= SCANNED_VALUES {
            return self.values.iter().any(|a| json_eq(a, value));
        }
        with_key(&self.sorted, &key(value))
            .iter()
            .any(|(_, i)| json_eq(&self.values[*i], value))
    }
}

/// `values` without repeats, first occurrences kept in order.
pub(crate) fn distinct(values: impl IntoIterator<Item = Value>) -> Vec<Value> {
    let mut kept: Vec<Value> = Vec::new();
    let mut by_key: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for value in values {
        let bucket = by_key.entry(key(&value)).or_default();
        if !bucket.iter().any(|&i| json_eq(&kept[i], &value)) {
            bucket.push(kept.len());
            kept.push(value);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_values_share_a_key() {
        assert_eq!(key(&json!(1)), key(&json!(1.0)));
        assert_eq!(key(&json!(0)), key(&json!(-0.0)));
        assert_eq!(
            key(&json!({"a": 1, "b": [2]})),
            key(&json!({"b": [2.0], "a": 1}))
        );
        assert_ne!(key(&json!("1")), key(&json!(1)));
        assert_ne!(key(&json!(["a,b"])), key(&json!(["a", "b"])));
    }

    #[test]
    fn finds_the_first_repeat() {
        assert_eq!(first_duplicate(&[json!(1), json!(2), json!(3)]), None);
        assert_eq!(
            first_duplicate(&[json!(2), json!(1), json!(2.0), json!(1)]),
            Some((0, 2))
        );
        assert_eq!(
            first_duplicate(&[json!(5), json!(1), json!(1), json!(5)]),
            Some((1, 2))
        );
        // Same f64, different integers: a shared key, but not equal.
        let big = json!(9_007_199_254_740_993_u64);
        let near = json!(9_007_199_254_740_992_u64);
        assert_eq!(first_duplicate(&[big.clone(), near]), None);
        assert_eq!(first_duplicate(&[big.clone(), big]), Some((0, 1)));
    }

    #[test]
    fn value_sets_find_members_by_value() {
        let many = ValueSet::new((0..20).map(|i| json!({"n": i})).collect());
        assert!(many.contains(&json!({"n": 7.0})));
        assert!(!many.contains(&json!({"n": 70})));
        let few = ValueSet::new(vec![json!("a"), json!(1)]);
        assert!(few.contains(&json!(1.0)) && !few.contains(&json!("b")));
        assert_eq!(
            distinct([json!(1), json!("a"), json!(1.0), json!("b")]),
            [json!(1), json!("a"), json!("b")]
        );
    }
}
