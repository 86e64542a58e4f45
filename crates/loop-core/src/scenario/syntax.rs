//! JSON syntax errors in plain words, with their place given once:
//! "not valid JSON at line 7, column 3: expected `,` or `}` after a value".
//!
//! serde_json's own messages ("EOF while parsing an object at line 7 column
//! 3") are written for programmers and count columns in bytes; people editing
//! a scenario read characters.

/// `error`, from parsing `text`, as one sentence.
pub fn describe(error: &serde_json::Error, text: &str) -> String {
    if text.trim().is_empty() {
        return "not valid JSON: the text is empty".to_string();
    }
    // Syntax words only: the page's JSON box reaches this, and a data
    // error's words (with their did-you-mean) stay out of its first paint.
    let message = serde_message(error);
    let what = syntax_words(&message).map_or(message, str::to_string);
    match place(text, error.line(), error.column()) {
        Some(place) => format!("not valid JSON {place}: {what}"),
        None => format!("not valid JSON: {what}"),
    }
}

/// What is wrong, in plain words, without the place: for callers that give
/// the place their own way (a line of a JSON Lines file).
pub fn what_is_wrong(error: &serde_json::Error) -> String {
    let message = serde_message(error);
    match syntax_words(&message) {
        Some(said) => said.to_string(),
        None => data_error(&message).unwrap_or(message),
    }
}

/// serde_json's message without the " at line L column C" it appends.
fn serde_message(error: &serde_json::Error) -> String {
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match full.strip_suffix(&suffix) {
        Some(message) => message.to_string(),
        None => full,
    }
}

/// serde_json's syntax wording (its `ErrorCode` texts, which are stable) in
/// plain words; `None` for anything else, which callers pass on as it is
/// rather than lose.
fn syntax_words(message: &str) -> Option<&'static str> {
    Some(match message {
        "EOF while parsing a list" => "the text ends before the array is closed (a `]` is missing)",
        "EOF while parsing an object" => "the text ends before the object is closed (a `}` is missing)",
        "EOF while parsing a string" => "the text ends inside a string (a closing `\"` is missing)",
        "EOF while parsing a value" => "the text ends where a value should be",
        "expected `:`" => "expected `:` after the field's name",
        "expected `,` or `]`" => "expected `,` or `]` after an item of the array",
        "expected `,` or `}`" => "expected `,` or `}` after a value",
        "expected ident" => "expected `true`, `false` or `null` (words are written in lower case, and text goes in double quotes)",
        "expected value" => "expected a value: text in double quotes, a number, `true`, `false`, `null`, an object or an array",
        "invalid escape" => "a backslash in a string must start an escape such as \\n, \\\", \\\\ or \\u00e9",
        "invalid number" => "this is not a number as JSON writes them (like 10, -2.5 or 1e3; no leading zeros, no trailing `.`)",
        "number out of range" => "a number is too large to be read",
        "invalid unicode code point" => "a \\u escape names no character",
        "control character (\\u0000-\\u001F) found while parsing a string" => "a string cannot hold a line break or tab as is; write \\n or \\t",
        "key must be a string" => "a field's name must be text in double quotes",
        "lone leading surrogate in hex escape" | "unexpected end of hex escape" => "a \\u escape must have four hex digits (and a surrogate pair both halves)",
        "trailing comma" => "a comma before the closing bracket has nothing after it; remove it",
        "trailing characters" => "there is more text after the end of the JSON value",
        "recursion limit exceeded" => "it is nested too deeply (more than 128 levels)",
        _ => return None,
    })
}

/// serde's data errors (the JSON is fine, but not what belongs there) in
/// plain words: "missing field `seq`" → "the field `seq` is missing".
fn data_error(message: &str) -> Option<String> {
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return Some(format!("the field `{field}` is missing"));
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        let (found, expected) = rest.split_once(", expected ")?;
        return Some(format!(
            "found {} where {} belongs",
            found_words(found),
            expected_words(expected)
        ));
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        let (found, expected) = rest.split_once(", expected ")?;
        return Some(format!(
            "{} is not allowed here: expected {}",
            found_words(found),
            expected_words(expected)
        ));
    }
    for (prefix, what) in [
        ("unknown variant `", "a name"),
        ("unknown field `", "a field"),
    ] {
        if let Some(rest) = message.strip_prefix(prefix) {
            let (word, allowed) = rest.split_once('`')?;
            // The word is the file's: escaped and cut like any quote.
            let shown = crate::quote::one_line(word);
            let names: Vec<&str> = allowed.split('`').skip(1).step_by(2).collect();
            let hint = crate::suggest::did_you_mean(word, names.iter().copied());
            return Some(if hint.is_empty() && !names.is_empty() {
                format!(
                    "`{shown}` is not {what} known here; expected one of {}",
                    names.join(", ")
                )
            } else {
                format!("`{shown}` is not {what} known here{hint}")
            });
        }
    }
    None
}

/// serde's "integer `5`", "string \"x\"", "null" as plain words.
fn found_words(found: &str) -> String {
    for (prefix, noun) in [
        ("integer `", "the number "),
        ("floating point `", "the number "),
        ("boolean `", ""),
    ] {
        if let Some(value) = found.strip_prefix(prefix).and_then(|v| v.strip_suffix('`')) {
            return format!("{noun}{value}");
        }
    }
    match found {
        "null" => "null".to_string(),
        "map" => "an object".to_string(),
        "sequence" => "an array".to_string(),
        other => match other.strip_prefix("string ") {
            Some(text) => format!("the text {}", json_quote(text)),
            None => other.to_string(),
        },
    }
}

/// serde's quote of a string (Rust's debug form: `"\u{1b}…\0"`) as a
/// message quotes text from a file: JSON's escapes (`\u001b`), cut to a
/// readable length with the size said.
fn json_quote(debug: &str) -> String {
    let Some(inner) = debug.strip_prefix('"').and_then(|d| d.strip_suffix('"')) else {
        return crate::quote::quoted(debug);
    };
    // Undo the debug escapes, then quote the text the way every message does.
    let mut text = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            text.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => text.push('\n'),
            Some('t') => text.push('\t'),
            Some('r') => text.push('\r'),
            Some('0') => text.push('\0'),
            Some('u') => {
                let hex: String = chars.by_ref().skip(1).take_while(|h| *h != '}').collect();
                let code = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                text.push(code.unwrap_or('\u{fffd}'));
            }
            Some(other) => text.push(other),
            None => {}
        }
    }
    crate::quote::quoted(&text)
}

/// serde's names of Rust types ("f64", "u32", "struct Usage") as JSON's.
fn expected_words(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".to_string(),
        "u64" | "u32" | "u16" | "u8" | "usize" => "a whole number, 0 or more".to_string(),
        "i64" | "i32" => "a whole number".to_string(),
        "a boolean" | "a string" => expected.to_string(),
        "a sequence" => "an array".to_string(),
        other if other.starts_with("struct ") || other.starts_with("a map") => {
            "an object".to_string()
        }
        other if other.starts_with("internally tagged enum") => {
            "an object with a `type`".to_string()
        }
        other => other.to_string(),
    }
}

/// "at line 7, column 3", counting characters. serde_json gives the byte
/// column of the character it stopped at, or 0 when it stopped at a line
/// break (that break ends the line before).
fn place(text: &str, line: usize, byte_column: usize) -> Option<String> {
    if line == 0 {
        return None;
    }
    if byte_column == 0 {
        return (line > 1).then(|| format!("at the end of line {}", line - 1));
    }
    let text_of_line = text.split('\n').nth(line - 1)?;
    let column = text_of_line
        .char_indices()
        .take_while(|(i, _)| *i < byte_column)
        .count();
    Some(format!("at line {line}, column {column}"))
}

#[cfg(test)]
mod tests {
    use super::describe;

    fn said(text: &str) -> String {
        let error = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        describe(&error, text)
    }

    #[test]
    fn says_where_once_and_what_plainly() {
        assert_eq!(
            said("{\n  \"name\": \"x\"\n  \"task\": \"y\"\n}"),
            "not valid JSON at line 3, column 3: expected `,` or `}` after a value"
        );
        assert_eq!(
            said("{\"name\": "),
            "not valid JSON at line 1, column 9: the text ends where a value should be"
        );
        assert_eq!(
            said("{\"tools\": [1, 2"),
            "not valid JSON at line 1, column 15: the text ends before the array is closed (a `]` is missing)"
        );
        assert_eq!(
            said("{\"a\": 1"),
            "not valid JSON at line 1, column 7: the text ends before the object is closed (a `}` is missing)"
        );
        assert_eq!(said("  \n "), "not valid JSON: the text is empty");
        assert_eq!(
            said("[1,]"),
            "not valid JSON at line 1, column 4: a comma before the closing bracket has nothing after it; remove it"
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(
            said("{\"café\": 1 \"b\": 2}"),
            "not valid JSON at line 1, column 12: expected `,` or `}` after a value"
        );
    }

    #[test]
    fn a_line_break_inside_a_string_is_placed_at_its_line() {
        assert_eq!(
            said("{\"task\": \"two\nlines\"}"),
            "not valid JSON at the end of line 1: a string cannot hold a line break or tab as is; write \\n or \\t"
        );
    }
}
