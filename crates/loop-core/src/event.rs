//! The trace: every observable thing a run does, in order, as `RunEvent`s.
//!
//! The state machine emits these itself, so the CLI, the browser and tests all
//! produce the same trace for the same scenario. Events are never edited after
//! they are emitted; a later decision is a new event. JSON Lines round-trips.
//!
//! What happened is data in the events, not only words: `stop_cause` is
//! why a run stopped (`run_finished`'s `cause`, whose `Display` is its
//! `reason`), and `tally` counts what became of each call from the fate
//! each `tool_result` carries.

pub mod stop_cause;

/// How a run ended, and who ended it: with the causes, in `stop_cause.rs`.
pub use stop_cause::{Status, StopTone};
pub mod tally;
pub mod writer;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::approval::{ApprovalPolicy, Decider, DecisionKind};
use crate::limits::Limits;
use crate::message::ContentBlock;
use crate::model::Usage;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunEvent {
    pub seq: u64,
    /// Milliseconds since the run started.
    pub t_ms: u64,
    #[serde(flatten)]
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    RunStarted {
        scenario: String,
        model: String,
        #[serde(deserialize_with = "via_value")]
        approval: ApprovalPolicy,
        tools: Vec<String>,
        #[serde(deserialize_with = "via_value")]
        limits: Limits,
        /// The scenario's context window and strategy (`crate::context`);
        /// absent when it sets none, as in traces written before it existed.
        #[serde(
            default,
            skip_serializing_if = "crate::context::ContextConfig::is_unset",
            deserialize_with = "via_value"
        )]
        context: crate::context::ContextConfig,
        task: String,
    },
    ModelRequest {
        turn: u32,
        /// 1 for the first try, 2 for the first retry, ...
        attempt: u32,
        messages: usize,
        estimated_input_tokens: u64,
        max_output_tokens: u32,
    },
    ModelResponse {
        turn: u32,
        /// The assistant's text blocks joined, for reading; `content` is authoritative.
        text: String,
        content: Vec<ContentBlock>,
        stop_reason: String,
        usage: Usage,
        #[serde(serialize_with = "crate::model::serialize_usd")]
        cost_usd: f64,
        latency_ms: u64,
        /// A person wrote this turn in the model's place ("Answer as the
        /// model"); absent (false) for every turn a model wrote, so traces
        /// from before it existed read the same.
        #[serde(default, skip_serializing_if = "is_false")]
        by_person: bool,
    },
    /// A model request that failed; `retry_in_ms` is set when it will be retried.
    ModelError {
        turn: u32,
        attempt: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_in_ms: Option<u64>,
        latency_ms: u64,
    },
    ToolCall {
        turn: u32,
        id: String,
        name: String,
        args: Value,
        /// The argument text as sent, when it was not JSON.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        args_raw: Option<String>,
        validation: Validation,
        /// For arguments found valid: the schema checks not run here (an
        /// MCP tool's keywords the validator lacks), left to the server.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unchecked: Vec<String>,
        needs_approval: bool,
    },
    ApprovalRequested {
        id: String,
        name: String,
        args: Value,
    },
    ApprovalDecided {
        id: String,
        name: String,
        decision: DecisionKind,
        by: Decider,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// The arguments the tool will run with, when the user edited them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        args: Option<Value>,
    },
    ToolResult {
        id: String,
        name: String,
        content: String,
        is_error: bool,
        latency_ms: u64,
        /// The store of a built-in tool that writes state (refunds, policy
        /// checks), right after this call. Not sent to the model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<Value>,
        /// A person typed this result in the tool's place ("Answer as the
        /// tool"): the handler did not run. Absent (false) otherwise.
        #[serde(default, skip_serializing_if = "is_false")]
        by_person: bool,
        /// What became of the call: whether its tool ran, and if not, why.
        /// `Run` always writes it; `from_jsonl` fills it in for a trace
        /// written before it existed (`backfill`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fate: Option<ResultFate>,
        /// Images, audio and binary resources the tool returned beside its
        /// text (MCP tools). Absent when there are none, so traces written
        /// before it existed read the same.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        media: Vec<crate::message::Media>,
    },
    /// A context strategy changed the history before turn `turn`'s
    /// request: what it did (`edit`, enough to do it again), the request's
    /// estimated input tokens before and after, and one sentence saying so.
    ContextEdited {
        turn: u32,
        strategy: crate::context::Strategy,
        edit: crate::context::ContextEdit,
        tokens_before: u64,
        tokens_after: u64,
        description: String,
    },
    RunFinished(Outcome),
}

impl EventKind {
    /// The model answered a request here: a turn, a failed call, or the
    /// `compact` strategy's summary. A script's position counts these.
    pub fn answered_by_model(&self) -> bool {
        matches!(
            self,
            EventKind::ModelResponse { .. }
                | EventKind::ModelError { .. }
                | EventKind::ContextEdited {
                    edit: crate::context::ContextEdit::Compacted { .. },
                    ..
                }
        )
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// Reads a field through `serde_json::Value`. An internally tagged enum hands
/// its fields serde's buffered content, so deriving would compile a second
/// copy of a type's deserializer; types a scenario also holds (limits, the
/// approval policy) are already read from `Value`, and this reuses that copy,
/// several KiB less web bundle. The same JSON is accepted.
fn via_value<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let value = Value::deserialize(deserializer)?;
    T::deserialize(value).map_err(serde::de::Error::custom)
}

/// What became of one call the model asked for, as its `tool_result` says.
/// `tally.rs` groups these into the counts the page and the CLI show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultFate {
    /// The tool ran and answered: a result or its own error.
    Ran,
    /// The tool ran past `tool_timeout_ms` and was stopped.
    TimedOut,
    /// Refused before it ran: an unknown tool, a tool that cannot run here
    /// (a JavaScript tool outside the browser), arguments that are not JSON
    /// or that break the schema.
    Invalid,
    /// A person or the approval policy denied it.
    Denied,
    /// `max_tool_calls` or the repeat detector refused it, and the run stopped.
    OverLimit,
    /// The harness had taken it up, but the run stopped before the tool
    /// started: while it waited for approval, or for a person in step mode.
    StoppedBeforeStart,
    /// The run stopped before the harness reached this call of the turn.
    NotReached,
    /// The tool was running when the run stopped.
    CutShort,
    /// A person typed the result in the tool's place; the tool did not run.
    ByPerson,
}

impl ResultFate {
    pub const ALL: [ResultFate; 9] = [
        ResultFate::Ran,
        ResultFate::TimedOut,
        ResultFate::Invalid,
        ResultFate::Denied,
        ResultFate::OverLimit,
        ResultFate::StoppedBeforeStart,
        ResultFate::NotReached,
        ResultFate::CutShort,
        ResultFate::ByPerson,
    ];

    /// The snake_case word the trace writes.
    pub fn as_str(self) -> &'static str {
        match self {
            ResultFate::Ran => "ran",
            ResultFate::TimedOut => "timed_out",
            ResultFate::Invalid => "invalid",
            ResultFate::Denied => "denied",
            ResultFate::OverLimit => "over_limit",
            ResultFate::StoppedBeforeStart => "stopped_before_start",
            ResultFate::NotReached => "not_reached",
            ResultFate::CutShort => "cut_short",
            ResultFate::ByPerson => "by_person",
        }
    }

    /// The tool's handler started for this call.
    pub fn tool_ran(self) -> bool {
        matches!(
            self,
            ResultFate::Ran | ResultFate::TimedOut | ResultFate::CutShort
        )
    }
}

/// Whether a call's arguments were usable, as shown under the call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Validation {
    Valid,
    UnknownTool { available: Vec<String> },
    UnparseableArguments { message: String },
    SchemaViolation { errors: Vec<String> },
}

impl Validation {
    pub fn is_valid(&self) -> bool {
        matches!(self, Validation::Valid)
    }

    /// The snake_case name the trace gives it in `outcome`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Validation::Valid => "valid",
            Validation::UnknownTool { .. } => "unknown_tool",
            Validation::UnparseableArguments { .. } => "unparseable_arguments",
            Validation::SchemaViolation { .. } => "schema_violation",
        }
    }
}

/// How a run ended; the payload of `run_finished`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub status: Status,
    /// One sentence naming the numbers that made the run stop.
    pub reason: String,
    /// Why the run stopped, as data: the reason's numbers, tagged by `kind`
    /// (`{"kind": "turn_limit", "turns": 2, "max_turns": 2}`). Absent in
    /// traces written before it existed, and in runs read from elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<stop_cause::StopCause>,
    pub turns: u32,
    /// The calls checked against `max_tool_calls` (`calls.checked`).
    pub tool_calls: u32,
    /// What became of every call the model asked for (`tally.rs`). Filled
    /// in by `from_jsonl` for a trace written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<tally::CallCounts>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    #[serde(serialize_with = "crate::model::serialize_usd")]
    pub cost_usd: f64,
    pub elapsed_ms: u64,
    pub answer: Option<String>,
}

impl Outcome {
    /// Who ended the run. Most statuses say it alone; a `blocked` run was
    /// ended by a person who denied a call, or by the harness (its
    /// approval policy, or no one to ask), which only the cause tells.
    pub fn tone(&self) -> StopTone {
        match &self.cause {
            Some(cause) => cause.tone(),
            None => self.status.tone(),
        }
    }

    /// Who ended the run, in words, for "ended by …".
    pub fn ended_by(&self) -> &'static str {
        match &self.cause {
            Some(cause) => cause.ended_by(),
            None => self.status.tone().label(),
        }
    }
}

/// Serialises events as JSON Lines, one event a line.
pub fn to_jsonl(events: &[RunEvent]) -> String {
    let mut out = String::new();
    for event in events {
        // An event is plain data (strings, numbers, JSON values): it always serialises.
        if let Ok(line) = serde_json::to_string(event) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Parses JSON Lines back into events; an error names the line that failed.
/// A trace written before results carried their fate gets it (`backfill`).
pub fn from_jsonl(text: &str) -> Result<Vec<RunEvent>, LineError> {
    let mut events = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| serde_json::from_str(line).map_err(|e| LineError::of(i + 1, &e)))
        .collect::<Result<Vec<RunEvent>, _>>()?;
    backfill(&mut events);
    Ok(events)
}

/// Fills in what a trace written before these fields existed lacks: each
/// `tool_result`'s `fate` and `run_finished`'s `calls`. Old traces said a
/// result's fate only in the harness's own words, so this reads those
/// words, here and nowhere else; a trace that has the fields is unchanged.
pub fn backfill(events: &mut [RunEvent]) {
    use std::collections::HashSet;
    let mut invalid: HashSet<String> = HashSet::new();
    let mut denied: HashSet<String> = HashSet::new();
    let mut tally = tally::ToolCallTally::default();
    for event in events.iter_mut() {
        match &mut event.kind {
            EventKind::ToolCall { id, validation, .. } if !validation.is_valid() => {
                invalid.insert(id.clone());
            }
            EventKind::ApprovalDecided {
                id,
                decision: DecisionKind::Deny | DecisionKind::DenyAndStop,
                ..
            } => {
                denied.insert(id.clone());
            }
            EventKind::ToolResult {
                id,
                content,
                is_error,
                by_person,
                fate: fate @ None,
                ..
            } => {
                *fate = Some(if *by_person {
                    ResultFate::ByPerson
                } else if invalid.remove(id.as_str()) {
                    ResultFate::Invalid
                } else if denied.remove(id.as_str()) {
                    ResultFate::Denied
                } else if !*is_error {
                    ResultFate::Ran
                } else if content.starts_with("not run to completion:") {
                    ResultFate::CutShort
                } else if content.starts_with("not run: the run stopped before this call") {
                    ResultFate::NotReached
                } else if content.starts_with("not run:") {
                    ResultFate::OverLimit
                } else if content.starts_with("tool error: the tool did not finish within") {
                    ResultFate::TimedOut
                } else {
                    ResultFate::Ran
                });
            }
            EventKind::RunFinished(outcome) if outcome.calls.is_none() => {
                tally.apply_kind(&EventKind::RunFinished(outcome.clone()));
                outcome.calls = Some(tally.counts());
                continue;
            }
            _ => {}
        }
        tally.apply(event);
    }
}

/// Why a line of a trace is not a run event.
#[derive(Clone, Debug, PartialEq)]
pub enum LineError {
    /// The line is not JSON at all.
    NotJson { line: usize, why: String },
    /// The line is JSON but not an event this harness writes.
    NotAnEvent { line: usize, why: String },
}

impl LineError {
    /// A line of a record is the file's.
    pub fn fixed_by(&self) -> crate::fixed_by::FixedBy {
        crate::fixed_by::FixedBy::TheFile
    }

    pub(crate) fn of(line: usize, error: &serde_json::Error) -> LineError {
        let why = crate::scenario::syntax::what_is_wrong(error);
        if error.is_syntax() || error.is_eof() {
            LineError::NotJson { line, why }
        } else {
            LineError::NotAnEvent { line, why }
        }
    }

    /// The 1-based line of the file it is on.
    pub fn line(&self) -> usize {
        match self {
            LineError::NotJson { line, .. } | LineError::NotAnEvent { line, .. } => *line,
        }
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NotJson { line, why } => write!(f, "line {line}: not valid JSON: {why}"),
            LineError::NotAnEvent { line, why } => write!(f, "line {line}: not a run event: {why}"),
        }
    }
}

impl std::error::Error for LineError {}

/// A time-free outline of a trace, one line per event: what happened, not
/// when or with which clock. Two drivers (native and browser) that produce the
/// same outline for a scenario ran the same loop.
pub fn outline(events: &[RunEvent]) -> Vec<String> {
    events
        .iter()
        .map(|event| outline_line(&event.kind))
        .collect()
}

fn outline_line(kind: &EventKind) -> String {
    match kind {
        EventKind::RunStarted {
            scenario, tools, ..
        } => {
            format!("run_started {scenario:?} tools=[{}]", tools.join(","))
        }
        EventKind::ModelRequest { turn, attempt, .. } => {
            format!("model_request turn={turn} attempt={attempt}")
        }
        EventKind::ModelResponse {
            turn,
            content,
            stop_reason,
            ..
        } => {
            let calls: Vec<&str> = crate::message::tool_calls_of(content)
                .map(|c| c.name.as_str())
                .collect();
            format!(
                "model_response turn={turn} stop={stop_reason} calls=[{}]",
                calls.join(",")
            )
        }
        EventKind::ModelError {
            attempt,
            status,
            retry_in_ms,
            ..
        } => format!("model_error attempt={attempt} status={status:?} retry_in_ms={retry_in_ms:?}"),
        EventKind::ToolCall {
            name, validation, ..
        } => format!("tool_call {name} {}", validation.as_str()),
        EventKind::ApprovalRequested { name, .. } => format!("approval_requested {name}"),
        EventKind::ApprovalDecided {
            name, decision, by, ..
        } => format!(
            "approval_decided {name} {} by={}",
            decision.as_str(),
            by.as_str()
        ),
        EventKind::ToolResult { name, is_error, .. } => {
            format!("tool_result {name} is_error={is_error}")
        }
        EventKind::ContextEdited {
            turn,
            strategy,
            tokens_before,
            tokens_after,
            ..
        } => format!(
            "context_edited turn={turn} {} tokens={tokens_before}->{tokens_after}",
            strategy.as_str()
        ),
        EventKind::RunFinished(outcome) => format!(
            "run_finished {} turns={} tool_calls={}",
            outcome.status, outcome.turns, outcome.tool_calls
        ),
    }
}

/// Outlines of several runs in one text: `## id` headers, then the lines.
pub fn outlines_text(runs: &[(&str, Vec<RunEvent>)]) -> String {
    let mut out = String::new();
    for (id, events) in runs {
        out.push_str("## ");
        out.push_str(id);
        out.push('\n');
        for line in outline(events) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_the_tone_of_who_ended_the_run() {
        let tones: Vec<(&str, &str)> = Status::ALL
            .iter()
            .map(|s| (s.as_str(), s.tone().as_str()))
            .collect();
        assert_eq!(
            tones,
            [
                ("done", "model"),
                ("failed_verification", "failure"),
                ("turn_limit", "guard"),
                ("cost_limit", "guard"),
                ("token_limit", "guard"),
                ("tool_call_limit", "guard"),
                ("deadline", "guard"),
                ("repeated_call", "guard"),
                ("blocked", "person"),
                ("max_tokens", "model"),
                ("refusal", "model"),
                ("model_error", "failure"),
                ("cancelled", "person"),
                ("context_limit", "guard"),
            ]
        );
    }

    #[test]
    fn the_four_tones_differ_in_word_label_and_icon() {
        for (i, a) in StopTone::ALL.iter().enumerate() {
            for b in &StopTone::ALL[i + 1..] {
                assert_ne!(a.as_str(), b.as_str());
                assert_ne!(a.label(), b.label());
                assert_ne!(a.icon(), b.icon());
            }
            assert!(Status::ALL.iter().any(|s| s.tone() == *a), "{a:?} unused");
        }
    }
}
