//! JSON Pointer (RFC 6901) building and resolution, plus the URI-fragment
//! decoding `$ref` needs. Refs are resolved at compile time, so this only
//! runs once per schema.

use serde_json::Value;

/// Escapes one reference token (`~` → `~0`, `/` → `~1`).
pub(crate) fn escape(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_owned()
    }
}

/// Appends one token to a pointer.
pub(crate) fn push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape(token))
}

/// Splits a JSON pointer ("" or "/a/b") into unescaped tokens.
/// `None` for a malformed pointer (no leading slash, or a `~` not followed by
/// `0` or `1`).
pub(crate) fn parse(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape).collect()
}

fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Joins unescaped tokens back into the canonical pointer spelling, so two
/// spellings of one location (e.g. `%25` vs `%`) share one compiled node.
pub(crate) fn join(tokens: &[String]) -> String {
    tokens.iter().fold(String::new(), |acc, t| push(&acc, t))
}

/// Decodes `%XX` escapes of a URI fragment; `None` when an escape is
/// malformed or the bytes are not UTF-8.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hi = hex_value(*bytes.get(i + 1)?)?;
            let lo = hex_value(*bytes.get(i + 2)?)?;
            out.push(hi * 16 + lo);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Walks `tokens` from `root`. Array indices must be plain decimals without
/// leading zeros, as RFC 6901 requires.
pub(crate) fn resolve<'v>(root: &'v Value, tokens: &[String]) -> Option<&'v Value> {
    tokens.iter().try_fold(root, |node, token| match node {
        Value::Object(map) => map.get(token.as_str()),
        Value::Array(items) => {
            let well_formed = !token.is_empty()
                && token.bytes().all(|b| b.is_ascii_digit())
                && (token == "0" || !token.starts_with('0'));
            if well_formed {
                items.get(token.parse::<usize>().ok()?)
            } else {
                None
            }
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_escapes() {
        let tokens = parse("/a~1b/c~0d/").unwrap();
        assert_eq!(tokens, vec!["a/b", "c~d", ""]);
        assert_eq!(join(&tokens), "/a~1b/c~0d/");
        assert!(parse("/bad~2").is_none());
        assert!(parse("no-slash").is_none());
    }

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(percent_decode("foo%22bar").as_deref(), Some("foo\"bar"));
        assert_eq!(percent_decode("%25").as_deref(), Some("%"));
        assert!(percent_decode("%2").is_none());
        assert!(percent_decode("%ff").is_none());
    }

    #[test]
    fn resolves_objects_and_arrays() {
        let doc = json!({"a": [10, {"b": 2}]});
        let at = |p: &str| resolve(&doc, &parse(p).unwrap()).cloned();
        assert_eq!(at("/a/1/b"), Some(json!(2)));
        assert_eq!(at(""), Some(doc.clone()));
        assert_eq!(at("/a/01"), None);
        assert_eq!(at("/a/9"), None);
        assert_eq!(at("/a/-"), None);
    }
}
