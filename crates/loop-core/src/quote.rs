//! How a message quotes what it did not write: a value read from a file or
//! typed is escaped so that a control character shows instead of acting on
//! a terminal, and cut so that a message quoting a file never becomes the
//! file. Every reader's message goes through here.
//!
//! Invariant: a leaf module (it names no other module of the crate), so any
//! module may use it without an import cycle.

use std::fmt;

/// How many characters of a value from a file a message quotes: enough to
/// recognise it, short enough that the sentence around it stays readable.
pub const QUOTE_CHARS: usize = 100;

/// How many characters a whole message may have: a message that quotes a
/// file may not become the file.
pub const MESSAGE_CHARS: usize = 2_000;

/// `text`, a value read from a file or typed, as a message quotes it: in
/// double quotes, JSON-escaped, so a control character (an escape sequence
/// that would recolour a terminal, a bell) shows as `\u001b` instead of
/// acting, and a line break as `\n`; cut to [`QUOTE_CHARS`] characters with
/// the whole size said.
pub fn quoted(text: &str) -> String {
    let total = text.chars().count();
    if total <= QUOTE_CHARS {
        return json_string(text);
    }
    let cut: String = text.chars().take(QUOTE_CHARS).collect();
    format!("{}… ({} bytes in all)", json_string(&cut), text.len())
}

fn json_string(text: &str) -> String {
    // Serialising a str cannot fail; the fallback keeps this total.
    let json = serde_json::to_string(text).unwrap_or_else(|_| "\"…\"".to_string());
    // JSON escapes only U+0000–U+001F; DEL and the C1 controls (U+009B
    // starts a terminal escape sequence too) are escaped the same way.
    escaped(&json, false)
}

/// `text` with every control character written as a `\u` escape (`\u001b`),
/// so that it shows instead of acting on a terminal; line breaks and tabs
/// are kept when `keep_lines` (a message of several lines), escaped too
/// otherwise (a name or a path, which is one line).
pub fn escaped(text: &str, keep_lines: bool) -> String {
    let acts = |c: char| c.is_control() && !(keep_lines && (c == '\n' || c == '\t'));
    if !text.chars().any(acts) {
        return text.to_string();
    }
    text.chars()
        .map(|c| match c {
            c if !acts(c) => c.to_string(),
            '\n' => "\\n".to_string(),
            '\t' => "\\t".to_string(),
            '\r' => "\\r".to_string(),
            c => format!("\\u{:04x}", c as u32),
        })
        .collect()
}

/// `text`, a name from a file shown without quotes (a scenario's name, a
/// tool's): on one line, control characters escaped, cut to
/// [`QUOTE_CHARS`] characters with the whole size said.
pub fn one_line(text: &str) -> String {
    let line = escaped(text, false);
    if line.chars().count() <= QUOTE_CHARS {
        return line;
    }
    let cut: String = line.chars().take(QUOTE_CHARS).collect();
    format!("{cut}… ({} bytes in all)", text.len())
}

/// `message` as it may be shown: control characters escaped (line breaks
/// and tabs kept) and cut to [`MESSAGE_CHARS`] characters with its whole
/// size said, for a message built from parts that may each come from a
/// file and be long.
pub fn plain(message: &str) -> String {
    let message = escaped(message, true);
    let total = message.chars().count();
    if total <= MESSAGE_CHARS {
        return message;
    }
    let cut: String = message.chars().take(MESSAGE_CHARS).collect();
    format!(
        "{cut}… (the message is cut: {} bytes in all)",
        message.len()
    )
}

/// Writes what `write` writes as [`plain`] words: how an error's `Display`
/// keeps a value from a file from reaching the screen raw or whole.
pub fn write_plain(
    f: &mut fmt::Formatter<'_>,
    write: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
) -> fmt::Result {
    struct Words<W>(W);
    impl<W: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Words<W> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            (self.0)(f)
        }
    }
    f.write_str(&plain(&Words(write).to_string()))
}

#[cfg(test)]
mod tests {
    use super::{escaped, plain, quoted, MESSAGE_CHARS};

    #[test]
    fn a_quote_escapes_what_would_act_on_a_terminal_and_says_a_long_size() {
        assert_eq!(quoted("ok"), "\"ok\"");
        assert_eq!(
            quoted("\u{1b}[31mred\u{7}\u{9b}2J\n"),
            "\"\\u001b[31mred\\u0007\\u009b2J\\n\""
        );
        let long = "é".repeat(500);
        let said = quoted(&long);
        assert!(said.ends_with("… (1000 bytes in all)"), "{said}");
        assert_eq!(said.chars().filter(|c| *c == 'é').count(), 100);
    }

    #[test]
    fn a_message_keeps_its_lines_and_is_cut_with_its_size_said() {
        assert_eq!(escaped("a\n\tb\u{1b}", true), "a\n\tb\\u001b");
        assert_eq!(escaped("a\nb", false), "a\\nb");
        let said = plain(&"x".repeat(20_000_000));
        assert!(said.ends_with("… (the message is cut: 20000000 bytes in all)"));
        assert!(said.chars().count() < MESSAGE_CHARS + 60);
    }
}
