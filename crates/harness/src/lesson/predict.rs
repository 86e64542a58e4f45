//! A lesson's prediction question: asked before the run, answered by the run
//! (`of`: its status, how many tool calls ran, how many model calls it
//! made, the first tool that ran) or by a fixed fact the run displays
//! (`answer`, backed by the lesson's `sources`).

use serde::{Deserialize, Serialize};

use crate::event::{Outcome, RunEvent};

/// The question, its choices, and where its true value comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Predict {
    pub question: String,
    pub choices: Vec<String>,
    /// The quantity of the run the question is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<PredictOf>,
    /// A fixed answer (one of `choices`), for a fact rather than a count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

/// What of the run a prediction is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PredictOf {
    /// The status word the run ends with (`turn_limit`).
    Status,
    /// How many tool calls ran (a number, as digits).
    ToolCalls,
    /// How many model calls the run made (a number, as digits).
    ModelCalls,
    /// The name of the first tool that ran, or `none`.
    FirstTool,
}

/// The first tool's value when no tool ran.
pub const NO_TOOL: &str = "none";

impl PredictOf {
    pub fn as_str(self) -> &'static str {
        match self {
            PredictOf::Status => "status",
            PredictOf::ToolCalls => "tool_calls",
            PredictOf::ModelCalls => "model_calls",
            PredictOf::FirstTool => "first_tool",
        }
    }

    /// The run's true value, in the words a choice is written in.
    pub fn value(self, events: &[RunEvent], outcome: &Outcome) -> String {
        match self {
            PredictOf::Status => outcome.status.as_str().to_string(),
            PredictOf::ToolCalls => super::counts::tool_calls_that_ran(events).len().to_string(),
            PredictOf::ModelCalls => super::counts::model_calls(events).to_string(),
            PredictOf::FirstTool => super::counts::tool_calls_that_ran(events)
                .into_iter()
                .next()
                .unwrap_or_else(|| NO_TOOL.to_string()),
        }
    }
}

impl Predict {
    /// The true value: read from the run (`of`) or the fixed `answer`.
    pub fn actual(&self, events: &[RunEvent], outcome: &Outcome) -> String {
        match (&self.answer, self.of) {
            (Some(answer), _) => answer.clone(),
            (None, Some(of)) => of.value(events, outcome),
            (None, None) => String::new(),
        }
    }

    /// Whether `value` is one of the choices (spaces around it ignored).
    pub fn offers(&self, value: &str) -> bool {
        self.choices.iter().any(|c| c.trim() == value.trim())
    }
}
