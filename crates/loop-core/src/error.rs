//! The core's errors as values. Each `Display` is the plain sentence the
//! page and the CLI show; the variants keep what a caller may act on (the
//! line to point at, the events that can be forked from), and each enum's
//! `fixed_by` says who can put it right.

use std::fmt;

pub use crate::event::LineError;
pub use crate::fixed_by::FixedBy;
// Defined where they arise, since `run` and `mcp::config` are below the
// scenario this module names; every error is reachable from here.
pub use crate::mcp::config::McpUrlError;
pub use crate::run::DecisionError;
use crate::scenario::Problem;

/// Why a recorded run (a record, or a bare trace) cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordError {
    Empty,
    Line(LineError),
    /// The record's scenario line does not load as a scenario.
    Scenario {
        line: usize,
        problems: Vec<Problem>,
    },
    /// The scenario line holds no run events after it.
    NoEvents,
    McpTools {
        line: usize,
        why: String,
    },
}

impl RecordError {
    pub fn fixed_by(&self) -> FixedBy {
        FixedBy::TheFile
    }
}

impl From<LineError> for RecordError {
    fn from(error: LineError) -> Self {
        RecordError::Line(error)
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_plain(f, |f| self.words(f))
    }
}

impl RecordError {
    /// The sentence, before [`write_plain`] escapes and bounds what it
    /// quotes from the file.
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Empty => {
                f.write_str("the file is empty: expected a scenario line and run events")
            }
            RecordError::Line(error) => fmt::Display::fmt(error, f),
            RecordError::Scenario { line, problems } => write!(
                f,
                "line {line}: the recorded scenario has problems: {}",
                joined(problems)
            ),
            RecordError::NoEvents => f.write_str("the record has no run events"),
            RecordError::McpTools { line, why } => {
                write!(
                    f,
                    "line {line}: the recorded MCP tools cannot be read: {why}"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Why a run cannot continue from a recorded prefix.
#[derive(Clone, Debug, PartialEq)]
pub enum RestoreError {
    /// The run being restored into has already started.
    AlreadyStarted,
    NoRunStarted,
    /// The prefix ends the run: there is nothing after it to continue.
    IncludesFinish,
}

impl RestoreError {
    /// A record that does not restore was written wrong (or by another
    /// version): only its file can change that.
    pub fn fixed_by(&self) -> FixedBy {
        FixedBy::TheFile
    }
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RestoreError::AlreadyStarted => "only a run that has not started can be restored",
            RestoreError::NoRunStarted => "the prefix does not start with run_started",
            RestoreError::IncludesFinish => {
                "the prefix includes run_finished: fork from an earlier step"
            }
        })
    }
}

impl std::error::Error for RestoreError {}

/// Why a fork cannot start.
#[derive(Clone, Debug, PartialEq)]
pub enum ForkError {
    /// `seq` is not one of the record's fork points, listed as "seq (label)".
    NotAForkPoint {
        seq: u64,
        points: Vec<String>,
    },
    /// The scenario to continue under does not build.
    Scenario(Vec<Problem>),
    Restore(RestoreError),
}

impl ForkError {
    pub fn fixed_by(&self) -> FixedBy {
        match self {
            ForkError::NotAForkPoint { .. } => FixedBy::TheCaller,
            ForkError::Scenario(_) | ForkError::Restore(_) => FixedBy::TheFile,
        }
    }
}

impl From<RestoreError> for ForkError {
    fn from(error: RestoreError) -> Self {
        ForkError::Restore(error)
    }
}

impl fmt::Display for ForkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForkError::NotAForkPoint { seq, points } => write!(
                f,
                "event {seq} is not a step to fork from; fork points are: {}",
                points.join(", ")
            ),
            ForkError::Scenario(problems) => f.write_str(&joined(problems)),
            ForkError::Restore(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ForkError {}

/// A scenario's problems in one line, "; " between them: how every layer
/// words a list of problems in a sentence.
pub fn joined(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

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

/// Why a typed price is not one (`prices::parse_usd_per_mtok`): `what` is
/// the field's name ("Input price"), `text` what was typed.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceError {
    pub what: String,
    pub text: String,
    pub problem: PriceProblem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceProblem {
    NotANumber,
    /// Infinite or not a number at all (`inf`, `NaN`).
    NotFinite,
    Negative,
    /// Over `scenario::bounds::MAX_USD_PER_MTOK`.
    TooLarge,
}

impl PriceError {
    pub fn fixed_by(&self) -> FixedBy {
        FixedBy::TheCaller
    }
}

impl fmt::Display for PriceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let PriceError { what, text, .. } = self;
        match self.problem {
            PriceProblem::NotANumber => write!(
                f,
                "{what}: \"{text}\" is not a number; enter USD per million tokens, e.g. 3"
            ),
            PriceProblem::NotFinite => write!(
                f,
                "{what}: \"{text}\" is not a price; enter USD per million tokens, e.g. 3"
            ),
            PriceProblem::Negative => write!(f, "{what}: a price cannot be negative ({text})"),
            PriceProblem::TooLarge => write!(
                f,
                "{what}: {text} is too large: a price must be at most $10,000 per million tokens"
            ),
        }
    }
}

impl std::error::Error for PriceError {}

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
