//! Numbers that `serde_json` cannot hold as written, found in the text with
//! their JSON pointers.
//!
//! A number past the range of a 64-bit float (`1e400`) stops serde_json's
//! parser with "number out of range" before anything else is checked, and an
//! integer past 64 bits (`99999999999999999999`) silently becomes a float
//! (`1e20`); any float may also print differently from how it was written
//! (`1e30` prints as `1e+30`). Loading must name such numbers as written, at
//! their paths, and still check the rest of the file. serde_json's `arbitrary_precision` feature
//! would keep every number's text, but it changes number handling for the
//! whole workspace and grows the web bundle, so the text is scanned here
//! instead: a lexer that only tracks where it is (object keys, array
//! indices), not a second parser. serde_json stays the judge of syntax.

use std::borrow::Cow;

use serde_json::{Number, Value};

/// One number whose parsed value prints differently from how it was written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Spelling {
    /// Where it is, as a JSON pointer (the form tool-schema reports).
    pub pointer: String,
    /// The number as written.
    pub text: String,
    /// Past f64's range, so the parsed value holds a stand-in (±f64::MAX).
    pub overflows: bool,
    /// Its bytes in the text.
    start: usize,
    end: usize,
}

/// The numbers of one text that serde_json does not hold as written.
#[derive(Clone, Debug, Default)]
pub(crate) struct Spellings {
    found: Vec<Spelling>,
}

impl Spellings {
    /// Finds them. Never fails: on text that is not JSON the pointers may be
    /// wrong, but then parsing fails and they are never used.
    pub(crate) fn scan(text: &str) -> Spellings {
        Scanner::default().run(text)
    }

    /// The text with each overflowing number replaced by a zero of the same
    /// length (`1e400` → `0e000`): it parses, and any syntax error elsewhere
    /// keeps its line and column.
    pub(crate) fn parseable<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut overflowing = self.found.iter().filter(|s| s.overflows).peekable();
        if overflowing.peek().is_none() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for s in overflowing {
            out.push_str(&text[at..s.start]);
            // An overflowing number has at least five characters (`1e309`).
            out.push_str("0e");
            out.extend(std::iter::repeat_n('0', s.end - s.start - 2));
            at = s.end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// Puts the largest float of the right sign where each overflowing
    /// number was, so the schema's bounds still judge it ("must be at most
    /// 10"), and the largest integers a field allows still fall short of it.
    pub(crate) fn put_stand_ins(&self, value: &mut Value) {
        for s in self.found.iter().filter(|s| s.overflows) {
            if let Some(slot) = value.pointer_mut(&s.pointer) {
                let sign = if s.text.starts_with('-') { -1.0 } else { 1.0 };
                if let Some(n) = Number::from_f64(sign * f64::MAX) {
                    *slot = Value::Number(n);
                }
            }
        }
    }

    /// How the number at `pointer` was written, when its value differs.
    pub(crate) fn written_at(&self, pointer: &str) -> Option<&Spelling> {
        self.found.iter().find(|s| s.pointer == pointer)
    }

    /// Every number found, in text order.
    pub(crate) fn all(&self) -> impl Iterator<Item = &Spelling> {
        self.found.iter()
    }

    /// The numbers past f64's range.
    pub(crate) fn overflowing(&self) -> impl Iterator<Item = &Spelling> {
        self.found.iter().filter(|s| s.overflows)
    }

    /// `message` about the value at `pointer` with the number as written
    /// instead of as parsed ("found 1e+20" → "found 99999999999999999999").
    pub(crate) fn respell(&self, pointer: &str, message: String, value: &Value) -> String {
        match (self.written_at(pointer), value.pointer(pointer)) {
            (Some(s), Some(Value::Number(parsed))) => message.replace(&parsed.to_string(), &s.text),
            _ => message,
        }
    }
}

/// Where the lexer is: one frame per open object or array.
enum Frame {
    Object {
        /// The member being read; `None` before its key.
        key: Option<String>,
        /// Between `{` or `,` and the next string, which is then a key.
        awaiting_key: bool,
    },
    Array {
        index: usize,
    },
}

#[derive(Default)]
struct Scanner {
    frames: Vec<Frame>,
    found: Vec<Spelling>,
}

impl Scanner {
    fn run(mut self, text: &str) -> Spellings {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    let end = string_end(bytes, i);
                    if let Some(Frame::Object { key, awaiting_key }) = self.frames.last_mut() {
                        if *awaiting_key {
                            *key = Some(decode_key(&text[i..end]));
                            *awaiting_key = false;
                        }
                    }
                    i = end;
                    continue;
                }
                b'{' => self.frames.push(Frame::Object {
                    key: None,
                    awaiting_key: true,
                }),
                b'[' => self.frames.push(Frame::Array { index: 0 }),
                b'}' | b']' => {
                    self.frames.pop();
                }
                b',' => match self.frames.last_mut() {
                    Some(Frame::Array { index }) => *index += 1,
                    Some(Frame::Object { key, awaiting_key }) => {
                        *key = None;
                        *awaiting_key = true;
                    }
                    None => {}
                },
                b'-' | b'0'..=b'9' => {
                    let end = number_end(bytes, i);
                    self.number(text, i, end);
                    i = end;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        Spellings { found: self.found }
    }

    fn number(&mut self, text: &str, start: usize, end: usize) {
        let token = &text[start..end];
        if !is_json_number(token) {
            return; // serde_json reports it
        }
        let float = crate::float_text::parse_f64(token).unwrap_or(f64::NAN);
        let overflows = float.is_infinite();
        let whole = !token.contains(['.', 'e', 'E']);
        let respelt = if whole {
            // Past 64 bits, an integer is parsed as a float.
            token.parse::<i64>().is_err() && token.parse::<u64>().is_err()
        } else {
            Number::from_f64(float).is_some_and(|n| n.to_string() != token)
        };
        if overflows || respelt {
            self.found.push(Spelling {
                pointer: self.pointer(),
                text: token.to_owned(),
                overflows,
                start,
                end,
            });
        }
    }

    fn pointer(&self) -> String {
        let mut out = String::new();
        for frame in &self.frames {
            out.push('/');
            match frame {
                Frame::Object { key, .. } => {
                    let key = key.as_deref().unwrap_or_default();
                    out.push_str(&key.replace('~', "~0").replace('/', "~1"));
                }
                Frame::Array { index } => out.push_str(&index.to_string()),
            }
        }
        out
    }
}

/// The index just past the string starting at `start` (its closing quote),
/// or the end of the text. Only ASCII bytes stop it, so the index is always
/// a character boundary.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

fn number_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start;
    while j < bytes.len() && matches!(bytes[j], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
        j += 1;
    }
    j
}

/// A key's text as JSON decodes it (`"a\u0062"` is `ab`).
fn decode_key(token: &str) -> String {
    serde_json::from_str::<String>(token).unwrap_or_else(|_| token.trim_matches('"').to_owned())
}

/// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_json_number(token: &str) -> bool {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = token.strip_prefix('-').unwrap_or(token);
    let int = digits(rest);
    if int == 0 || (int > 1 && rest.starts_with('0')) {
        return false;
    }
    let mut rest = &rest[int..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = digits(frac);
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    if let Some(exp) = rest.strip_prefix(['e', 'E']) {
        let exp = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        let n = digits(exp);
        if n == 0 {
            return false;
        }
        rest = &exp[n..];
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, String, bool)> {
        Spellings::scan(text)
            .found
            .into_iter()
            .map(|s| (s.pointer, s.text, s.overflows))
            .collect()
    }

    #[test]
    fn finds_unheld_numbers_with_their_pointers() {
        let text = r#"{"limits": {"max_turns": 99999999999999999999, "a/b": [1, -1e400]},
            "tools": [{"x": "1e400, not a number"}, {"k\"ey": 2e308}], "ok": 18446744073709551615,
            "same": [1.5, 10.0, -2], "respelt": 1E3}"#;
        assert_eq!(
            found(text),
            [
                (
                    "/limits/max_turns".into(),
                    "99999999999999999999".into(),
                    false
                ),
                ("/limits/a~1b/1".into(), "-1e400".into(), true),
                ("/tools/1/k\"ey".into(), "2e308".into(), true),
                ("/respelt".into(), "1E3".into(), false),
            ]
        );
    }

    #[test]
    fn overflowing_numbers_become_zeros_of_the_same_length() {
        let text = r#"{"a": 1e400, "b": [-1E+999]}"#;
        let spellings = Spellings::scan(text);
        let parseable = spellings.parseable(text);
        assert_eq!(parseable, r#"{"a": 0e000, "b": [0e00000]}"#);
        let mut value: Value = serde_json::from_str(&parseable).unwrap();
        spellings.put_stand_ins(&mut value);
        assert_eq!(value["a"].as_f64(), Some(f64::MAX));
        assert_eq!(value["b"][0].as_f64(), Some(-f64::MAX));
        assert_eq!(
            spellings.respell("/a", format!("found {}", value["a"]), &value),
            "found 1e400"
        );
        let plain = r#"{"a": 1.5}"#;
        assert!(matches!(
            Spellings::scan(plain).parseable(plain),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn the_grammar_is_json_s() {
        for ok in ["0", "-0", "12", "1.5", "1e5", "1E+5", "-1.0e-5"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in ["-", "01", "1.", ".5", "1e", "1e+", "--1", "1.5.5", "+1"] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    #[test]
    fn garbage_does_not_panic() {
        for text in [
            "\"\\",
            "{\"é\\",
            "[1e400",
            "}{]]",
            "\"\u{00e9}\\\u{00e9}\"",
            "-",
        ] {
            let spellings = Spellings::scan(text);
            let _ = spellings.parseable(text);
        }
    }
}
