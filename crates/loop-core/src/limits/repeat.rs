//! The repeated-call detector, and the canonical text it compares calls by.

use std::collections::HashMap;

use serde_json::Value;

use super::RepeatMode;

/// A canonical text for a call: object keys sorted, strings trimmed with inner
/// whitespace runs collapsed, and numbers compared by value (1 equals 1.0).
pub fn canonical_call(name: &str, args: &Value) -> String {
    let mut out = String::with_capacity(name.len() + 16);
    out.push_str(name);
    out.push('(');
    write_canonical(args, &mut out);
    out.push(')');
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null | Value::Bool(_) => out.push_str(&value.to_string()),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15 => {
                out.push_str(&format!("{}", f as i64))
            }
            Some(f) => out.push_str(&format!("{f:?}")),
            None => out.push_str(&n.to_string()),
        },
        Value::String(s) => {
            let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
            out.push_str(&Value::String(collapsed).to_string());
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // `&str` keys, sorted like the refund tool's snapshot: one copy of
            // the sort in the web bundle for both.
            let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.to_string()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
    }
}

/// Watches the sequence of calls of one run for repetition.
#[derive(Clone, Debug)]
pub struct RepeatDetector {
    mode: RepeatMode,
    threshold: u32,
    keys: Vec<String>,
    counts: HashMap<String, u32>,
}

impl RepeatDetector {
    pub fn new(mode: RepeatMode, threshold: u32) -> Self {
        RepeatDetector {
            mode,
            threshold: threshold.max(2),
            keys: Vec::new(),
            counts: HashMap::new(),
        }
    }

    /// Records a call; returns a sentence describing the repetition when this
    /// call crosses the threshold.
    pub fn record(&mut self, name: &str, args: &Value, args_raw: Option<&str>) -> Option<String> {
        let key = match self.mode {
            RepeatMode::Canonical => canonical_call(name, args),
            // JSON.stringify keeps key order and whitespace inside strings.
            RepeatMode::Naive => format!(
                "{name}({})",
                args_raw.map_or_else(|| args.to_string(), str::to_string)
            ),
        };
        self.keys.push(key.clone());
        let threshold = self.threshold as usize;
        match self.mode {
            RepeatMode::Naive => {
                let n = self.keys.len();
                let tail_repeats =
                    n >= threshold && self.keys[n - threshold..].iter().all(|k| *k == key);
                tail_repeats.then(|| {
                    format!(
                        "{key} was called {threshold} times in a row (repeat_threshold {threshold}, naive consecutive check)"
                    )
                })
            }
            RepeatMode::Canonical => {
                let count = self.counts.entry(key.clone()).or_insert(0);
                *count += 1;
                (*count as usize >= threshold).then(|| self.describe(&key, threshold))
            }
        }
    }

    /// Why a canonical repeat stopped the run. `key` is the normalised call,
    /// which may differ from what the model sent (`" Paris "` is `"Paris"`):
    /// the words say so, so the quote is not taken for the call as sent.
    fn describe(&self, key: &str, threshold: usize) -> String {
        let n = self.keys.len();
        if n >= threshold && self.keys[n - threshold..].iter().all(|k| k == key) {
            return format!(
                "{key} was called {threshold} times in a row, its arguments normalised (repeat_threshold {threshold})"
            );
        }
        // The shortest period p whose block repeats back from the end: A,B,A,B.
        for period in 2..=n / threshold.max(1) {
            let block = &self.keys[n - period..];
            let repeats = (1..threshold).all(|r| {
                let start = n - period * (r + 1);
                &self.keys[start..start + period] == block
            });
            if repeats {
                return format!(
                    "the cycle {} repeated {threshold} times, arguments normalised (repeat_threshold {threshold})",
                    block.join(" → ")
                );
            }
        }
        let first = self.keys.iter().position(|k| k == key).map_or(0, |i| i + 1);
        format!(
            "{key} was requested for the {} time in this run, its arguments normalised (first as call {first}; repeat_threshold {threshold})",
            ordinal(threshold)
        )
    }
}

/// `1st`, `2nd`, `23rd`, `111th`: the one way every sentence of the
/// harness counts.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_form_ignores_key_order_whitespace_and_number_spelling() {
        let a = canonical_call("s", &json!({"place": " Paris  Nord ", "n": 1}));
        let b = canonical_call("s", &json!({"n": 1.0, "place": "Paris Nord"}));
        assert_eq!(a, b);
        assert_eq!(a, r#"s({"n":1,"place":"Paris Nord"})"#);
        assert_ne!(
            a,
            canonical_call("s", &json!({"n": 2, "place": "Paris Nord"}))
        );
    }

    #[test]
    fn canonical_detector_catches_cycles_and_key_order() {
        let mut d = RepeatDetector::new(RepeatMode::Canonical, 2);
        assert!(d.record("a", &json!({"x": 1, "y": 2}), None).is_none());
        assert!(d.record("b", &json!({}), None).is_none());
        let hit = d
            .record("a", &json!({"y": 2, "x": 1}), None)
            .expect("cycle");
        assert!(hit.contains("2nd time"), "{hit}");
    }

    /// The reason quotes the normalised call: it says so, so `"Paris"` is
    /// not read as what the model sent (`" Paris "`).
    #[test]
    fn a_canonical_reason_says_its_arguments_are_normalised() {
        let mut d = RepeatDetector::new(RepeatMode::Canonical, 2);
        assert!(d.record("s", &json!({"place": "Paris"}), None).is_none());
        assert!(d.record("t", &json!({}), None).is_none());
        assert!(d.record("u", &json!({}), None).is_none());
        let apart = d
            .record("s", &json!({"place": " Paris "}), None)
            .expect("the second s");
        assert_eq!(
            apart,
            r#"s({"place":"Paris"}) was requested for the 2nd time in this run, its arguments normalised (first as call 1; repeat_threshold 2)"#
        );
        let mut d = RepeatDetector::new(RepeatMode::Canonical, 2);
        assert!(d.record("s", &json!({"place": "Paris"}), None).is_none());
        let in_a_row = d.record("s", &json!({"place": "Paris "}), None).unwrap();
        assert!(
            in_a_row.contains("2 times in a row, its arguments normalised"),
            "{in_a_row}"
        );
    }

    #[test]
    fn cycle_of_three_is_named_as_a_cycle() {
        let mut d = RepeatDetector::new(RepeatMode::Canonical, 2);
        let seq = ["a", "b", "a", "b"];
        let mut hit = None;
        for name in seq {
            hit = hit.or(d.record(name, &json!({}), None));
        }
        assert!(hit.unwrap().contains("2nd time"));
        let mut d = RepeatDetector::new(RepeatMode::Canonical, 3);
        let mut hits = Vec::new();
        for name in ["a", "b", "c", "a", "b", "c", "a", "b", "c"] {
            hits.push(d.record(name, &json!({}), None));
        }
        assert!(hits[..6].iter().all(Option::is_none));
        let hit = hits[6].clone().expect("third a");
        assert!(hit.contains("3rd time"), "{hit}");
    }

    #[test]
    fn naive_detector_misses_cycles_and_key_order() {
        let mut d = RepeatDetector::new(RepeatMode::Naive, 2);
        for name in ["a", "b", "a", "b", "a", "b"] {
            assert!(d.record(name, &json!({}), None).is_none());
        }
        let mut d = RepeatDetector::new(RepeatMode::Naive, 2);
        assert!(d.record("s", &json!({"x": 1, "y": 2}), None).is_none());
        assert!(d.record("s", &json!({"y": 2, "x": 1}), None).is_none());
        assert!(d.record("s", &json!({"y": 2, "x": 1}), None).is_some());
    }
}
