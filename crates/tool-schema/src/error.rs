//! The two public error types, and the helpers that render instance values
//! into the short, quoted snippets their messages embed.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// Why a schema was rejected by [`Schema::compile`](crate::Schema::compile).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileErrorKind {
    /// A keyword this crate does not implement (including typos such as
    /// `"requried"`). The payload is the keyword as written.
    UnsupportedKeyword(String),
    /// A known keyword with a value of the wrong shape (e.g. a non-array
    /// `required`, a negative `minLength`, a `pattern` that is not a valid
    /// regex). The payload is the keyword.
    InvalidKeywordValue(String),
    /// A `$ref` that is not a local JSON pointer, or that points at nothing.
    /// The payload is the reference as written.
    UnresolvableRef(String),
}

/// One problem found while compiling a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// JSON pointer into the schema ("" for the root), e.g.
    /// `/properties/date/format`.
    pub schema_path: String,
    pub kind: CompileErrorKind,
    /// A sentence for the schema author.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.schema_path.is_empty() {
            write!(f, "schema root: {}", self.message)
        } else {
            write!(f, "{}: {}", self.schema_path, self.message)
        }
    }
}

impl std::error::Error for CompileError {}

/// One way an instance fails its schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON pointer into the instance ("" for the root), e.g. `/nights`.
    pub instance_path: String,
    /// The keyword that failed, e.g. `"type"`, `"required"`, `"anyOf"`.
    pub keyword: &'static str,
    /// What was expected and what was found, for a model or a person.
    pub message: String,
    /// For an `additionalProperties` failure, which property and what the
    /// schema declares, so a caller can word its own message (and point at
    /// the property rather than at its object, as `instance_path` does).
    pub unexpected: Option<UnexpectedProperty>,
    /// For a `required` or `dependentRequired` failure, the missing
    /// property, so a caller can point at where it belongs.
    pub missing: Option<String>,
    /// For a `const` or `enum` failure, the values allowed, so a caller can
    /// suggest the nearest one to what was written.
    pub allowed: Option<Arc<[Value]>>,
}

/// A property that `"additionalProperties": false` rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnexpectedProperty {
    /// The property as written.
    pub name: String,
    /// The names the object's `properties` declares (names that only
    /// `patternProperties` allows are not listed).
    pub declared: Arc<[String]>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.instance_path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.instance_path, self.message)
        }
    }
}

impl std::error::Error for ValidationError {}

/// Longest rendering of a found value, in characters, before it is cut.
/// Messages go into an LLM's context, so a 10 KB argument must not be echoed.
const SNIPPET_CHARS: usize = 40;

/// Compact JSON for `v`, cut to a readable length with an ellipsis.
pub(crate) fn snippet(v: &Value) -> String {
    snippet_limit(v, SNIPPET_CHARS)
}

pub(crate) fn snippet_limit(v: &Value, limit: usize) -> String {
    if let Value::String(s) = v {
        // Cut the content, not the JSON text, so the quotes stay balanced.
        if s.chars().count() > limit {
            let head: String = s.chars().take(limit).collect();
            let quoted = json_string(&head);
            // Drop exactly the closing quote: the content may end in an escaped one.
            let open = &quoted[..quoted.len() - 1];
            return format!("{open}…\"");
        }
        return json_string(s);
    }
    let text = v.to_string();
    if text.chars().count() > limit {
        let head: String = text.chars().take(limit).collect();
        format!("{head}…")
    } else {
        text
    }
}

/// `s` as a JSON string literal (quoted, escaped).
pub(crate) fn json_string(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// The article-and-type phrase for a value ("a string", "an object", "null").
pub(crate) fn type_phrase(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// "a string (\"3\")", "null": the "found …" half of most messages.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        _ => format!("{} ({})", type_phrase(v), snippet(v)),
    }
}

/// "a", "a or b", "a, b or c".
pub(crate) fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// "0", "0 and 1", "0, 1 and 2".
pub(crate) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

/// "1 item", "3 items", "2 properties".
pub(crate) fn plural(n: u64, word: &str) -> String {
    match (n, word) {
        (1, _) => format!("{n} {word}"),
        (_, "property") => format!("{n} properties"),
        _ => format!("{n} {word}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn snippets_are_cut_with_balanced_quotes() {
        let long = "x".repeat(100);
        let s = snippet(&json!(long));
        assert!(s.starts_with('"') && s.ends_with("…\""), "{s}");
        assert_eq!(s.chars().count(), SNIPPET_CHARS + 3);
        let arr = json!((0..100).collect::<Vec<_>>());
        assert!(snippet(&arr).ends_with('…'));
        assert_eq!(describe(&json!("3")), "a string (\"3\")");
        assert_eq!(describe(&json!(null)), "null");
    }

    #[test]
    fn joins_read_as_english() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(join_or(&v(&["a", "b", "c"])), "a, b or c");
        assert_eq!(join_and(&v(&["0", "1"])), "0 and 1");
        assert_eq!(plural(1, "item"), "1 item");
        assert_eq!(plural(0, "item"), "0 items");
        assert_eq!(plural(2, "property"), "2 properties");
    }
}
