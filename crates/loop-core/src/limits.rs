//! Limits of one run: the fields serde reads, their defaults, and the
//! table (`Limits::FIELDS`) the form, the bounds check and the schema are
//! written from. The repeated-call detector is in `limits/repeat.rs`.
//!
//! Every limit is optional except `max_turns` (default 10),
//! `max_output_tokens` (default 1024, which the strict cost estimate needs)
//! and `max_retries` (default 2); each mode has a default too.

mod repeat;

use serde::{Deserialize, Serialize};

use crate::field::FieldKind::{Choice, Integer, Number};
use crate::field::{count, ms, Field, Max, Unit, MAX_TOKENS_PER_TURN};
pub use repeat::{canonical_call, ordinal, RepeatDetector};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    #[serde(default = "default_max_turns")]
    pub max_turns: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cost_usd: Option<f64>,
    #[serde(default)]
    pub cost_mode: CostMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat_threshold: Option<u32>,
    #[serde(default)]
    pub repeat_mode: RepeatMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tool_calls: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_total_tokens: Option<u64>,
    #[serde(default = "default_max_output_tokens")]
    pub max_output_tokens: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_result_chars: Option<usize>,
    #[serde(default = "default_max_retries")]
    pub max_retries: u32,
    /// Where the deadline is counted from; `shared` reproduces seed 002's bug.
    #[serde(default, skip_serializing_if = "is_default")]
    pub deadline_scope: DeadlineScope,
    /// Whether the deadline interrupts a pending call; `between_steps` reproduces seed 002.
    #[serde(default, skip_serializing_if = "is_default")]
    pub deadline_mode: DeadlineMode,
    /// Which stop reasons end a run with an answer; `naive` reproduces seed 001's warning.
    #[serde(default, skip_serializing_if = "is_default")]
    pub stop_mode: StopMode,
    /// What of the model's turn is kept in the history; `text_only` drops thinking.
    #[serde(default, skip_serializing_if = "is_default")]
    pub history_mode: HistoryMode,
    /// How tool results go back; the other modes are harness bugs on purpose,
    /// for the protocol checker to catch.
    #[serde(default, skip_serializing_if = "is_default")]
    pub results_mode: ResultsMode,
}

impl Limits {
    /// Every key a scenario's `limits` object can hold, in the order of the
    /// fields above, with its form field and its schema. The page's form,
    /// the bounds check and the published schema are written from it, and
    /// `tests/limit_keys.rs` checks it against the fields serde reads.
    pub const FIELDS: &'static [Field] = &[
        Field {
            key: "max_turns",
            label: "Max turns",
            unit: "model calls",
            // An "endless" demo is run to be stopped: room for one.
            kind: Integer {
                min: 1,
                max: count(1_000_000.0, "the turn limit", "turns"),
            },
            absent: "10",
            about: "Model calls per run.",
        },
        Field {
            key: "max_cost_usd",
            label: "Budget",
            unit: "USD",
            kind: Number {
                above: 0.0,
                max: Max {
                    value: MAX_BUDGET_USD,
                    what: "a cost budget",
                    unit: Unit::Usd,
                },
            },
            absent: "no budget",
            about: "",
        },
        Field {
            key: "cost_mode",
            label: "Cost check",
            unit: "",
            kind: Choice(&["strict", "naive"]),
            absent: "strict",
            about: "strict: worst-case pre-flight check; naive: checked between turns (seed 000), can overshoot.",
        },
        Field {
            key: "deadline_ms",
            label: "Deadline",
            unit: "ms",
            kind: Integer {
                min: 1,
                max: ms("a deadline"),
            },
            absent: "none",
            about: "Wall-clock limit of this run, interrupting whatever is pending.",
        },
        Field {
            key: "model_timeout_ms",
            label: "Model timeout",
            unit: "ms per call",
            kind: Integer {
                min: 1,
                max: ms("a timeout"),
            },
            absent: "none",
            about: "",
        },
        Field {
            key: "tool_timeout_ms",
            label: "Tool timeout",
            unit: "ms per call",
            kind: Integer {
                min: 1,
                max: ms("a timeout"),
            },
            absent: "none (JavaScript tools: 10000)",
            about: "",
        },
        Field {
            key: "repeat_threshold",
            label: "Repeat threshold",
            unit: "occurrences",
            kind: Integer {
                min: 2,
                max: count(10_000.0, "the repeat threshold", "calls"),
            },
            absent: "off",
            about: "Stop when the same call occurs this many times (2: on the second occurrence).",
        },
        Field {
            key: "repeat_mode",
            label: "Repeat check",
            unit: "",
            kind: Choice(&["canonical", "naive"]),
            absent: "canonical",
            about: "canonical: normalised arguments, anywhere in the run (catches cycles); naive: exact JSON, consecutive only (seed 000).",
        },
        Field {
            key: "max_tool_calls",
            label: "Max tool calls",
            unit: "calls",
            kind: Integer {
                min: 0,
                max: count(10_000_000.0, "the tool call limit", "calls"),
            },
            absent: "none",
            about: "",
        },
        Field {
            key: "max_total_tokens",
            label: "Max total tokens",
            unit: "tokens",
            kind: Integer {
                min: 1,
                max: count(10_000_000_000.0, "the token limit", "tokens"),
            },
            absent: "none",
            about: "",
        },
        Field {
            key: "max_output_tokens",
            label: "Max output tokens",
            unit: "tokens per call",
            kind: Integer {
                min: 1,
                max: count(MAX_TOKENS_PER_TURN as f64, "a turn's output", "tokens"),
            },
            absent: "1024",
            about: "",
        },
        Field {
            key: "max_result_chars",
            label: "Max result size",
            unit: "characters",
            kind: Integer {
                min: 1,
                max: count(100_000_000.0, "a result's length", "characters"),
            },
            absent: "none",
            about: "",
        },
        Field {
            key: "max_retries",
            label: "Max retries",
            unit: "per model call",
            kind: Integer {
                min: 0,
                // No words of its own: the schema's sentence says it
                // ("it must be at most 10").
                max: count(10.0, "", "retries"),
            },
            absent: "2",
            about: "",
        },
        // The modes below reproduce the seeds' bugs on purpose (the pitfall
        // scenarios set them); the form shows them so a loaded pitfall's
        // setting is visible and can be switched back.
        Field {
            key: "deadline_scope",
            label: "Deadline counted from",
            unit: "",
            kind: Choice(&["run", "shared"]),
            absent: "run",
            about: "run: counted from this run's start; shared: from page or process start, so every run shares one deadline (seed 002's bug).",
        },
        Field {
            key: "deadline_mode",
            label: "Deadline check",
            unit: "",
            kind: Choice(&["interrupt", "between_steps"]),
            absent: "interrupt",
            about: "interrupt: a pending call is stopped when time is up; between_steps: checked only between steps, so a hung call runs to its end (seed 002).",
        },
        Field {
            key: "stop_mode",
            label: "Stop reason check",
            unit: "",
            kind: Choice(&["strict", "naive"]),
            absent: "strict",
            about: "strict: only end_turn with text is an answer; naive: any turn without tool calls is taken as the answer, even max_tokens or refusal.",
        },
        Field {
            key: "history_mode",
            label: "History sent back",
            unit: "",
            kind: Choice(&["whole", "text_only"]),
            absent: "whole",
            about: "whole: the model's content goes back unchanged; text_only: thinking blocks are dropped, as when history is rebuilt from text.",
        },
        Field {
            key: "results_mode",
            label: "Tool results sent",
            unit: "",
            kind: Choice(&["correct", "text_first", "invented_ids"]),
            absent: "correct",
            about: "How tool results go back. text_first and invented_ids are harness bugs on purpose, for the protocol checker to catch: text before the results, or results answering ids the harness made up.",
        },
    ];

    /// Every key, in the order of the fields.
    pub fn keys() -> Vec<&'static str> {
        Self::FIELDS.iter().map(|field| field.key).collect()
    }
}

/// The largest cost budget, in USD.
pub const MAX_BUDGET_USD: f64 = 1_000_000.0;

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineScope {
    /// Counted from this run's own start.
    #[default]
    Run,
    /// Counted from when the page (or process) started, so every run shares
    /// one deadline and a later run starts with part of it spent (seed 002
    /// computed it once at import time).
    Shared,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineMode {
    /// A pending model call, tool or approval is interrupted when time is up.
    #[default]
    Interrupt,
    /// Checked only between steps: a hung call runs to its end first (seed 002).
    BetweenSteps,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopMode {
    /// Only a normal end of turn with text is a final answer.
    #[default]
    Strict,
    /// Any turn without tool calls is taken as the answer, even one cut off by
    /// max_tokens or a refusal: what seed 001 warns against.
    Naive,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultsMode {
    /// One user message with a result per call, each naming its call's id.
    #[default]
    Correct,
    /// A text block before the results ("Here are the tool results:"), which
    /// Anthropic rejects: results must come first.
    TextFirst,
    /// Results answer ids the harness made up (`call_0`, `call_1`, ...), so
    /// no result matches its call.
    InventedIds,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryMode {
    /// The model's content goes back exactly as it came, thinking included.
    #[default]
    Whole,
    /// Only text and tool calls are kept, as when a history is rebuilt from
    /// text: thinking blocks are lost (seed 001 keeps them).
    TextOnly,
}

fn default_max_turns() -> u32 {
    10
}
fn default_max_output_tokens() -> u32 {
    1024
}
fn default_max_retries() -> u32 {
    2
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_turns: default_max_turns(),
            max_cost_usd: None,
            cost_mode: CostMode::default(),
            deadline_ms: None,
            model_timeout_ms: None,
            tool_timeout_ms: None,
            repeat_threshold: None,
            repeat_mode: RepeatMode::default(),
            max_tool_calls: None,
            max_total_tokens: None,
            max_output_tokens: default_max_output_tokens(),
            max_result_chars: None,
            max_retries: default_max_retries(),
            deadline_scope: DeadlineScope::default(),
            deadline_mode: DeadlineMode::default(),
            stop_mode: StopMode::default(),
            history_mode: HistoryMode::default(),
            results_mode: ResultsMode::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostMode {
    /// Before each call, check spent + a worst-case estimate of the call
    /// (estimated input tokens + the output cap) against the budget.
    #[default]
    Strict,
    /// Seed 000: add the cost after a call and check it before the next one,
    /// so one call can overshoot and a final answer in that turn still counts.
    Naive,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepeatMode {
    /// Arguments compared canonically; a call seen `repeat_threshold` times
    /// anywhere in the run stops it, which catches cycles such as A,B,A,B.
    #[default]
    Canonical,
    /// Seed 000: `JSON.stringify` equality, consecutive calls only. Key order
    /// or whitespace defeats it, and it never sees a cycle.
    Naive,
}
