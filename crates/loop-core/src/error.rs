//! The core's errors as values. Each `Display` is the plain sentence the
//! page and the CLI show; the variants keep what a caller may act on (the
//! line to point at, the events that can be forked from), and each enum's
//! `fixed_by` says who can put it right.

use std::fmt;

pub use crate::event::LineError;
use crate::scenario::Problem;

/// Who can put an error right; every layer's errors answer with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixedBy {
    /// The file being read, or the scenario: whoever wrote or saved it.
    TheFile,
    /// The caller's own choice: which event to fork from, or what to import
    /// first (a response needs its request's run in view).
    TheCaller,
}

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
        match self {
            RecordError::Empty => {
                f.write_str("the file is empty: expected a scenario line and run events")
            }
            RecordError::Line(error) => error.fmt(f),
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
