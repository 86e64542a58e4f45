//! The core's errors as values. Each `Display` is the plain sentence the
//! page and the CLI show; the variants keep what a caller may act on (the
//! line to point at, the events that can be forked from), and each enum's
//! `fixed_by` says who can put it right.

use std::fmt;

use crate::quote::write_plain;

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
