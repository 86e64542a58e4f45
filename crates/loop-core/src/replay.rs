//! Recorded runs: the record format, and replay with assertions on outcomes.
//!
//! A record is JSON Lines: a first line `{"type":"scenario","scenario":{…}}`
//! holding the scenario that ran, then the run's events, one per line. A file
//! of events alone is read too.
//!
//! Replay plays the recorded model turns (responses and provider errors,
//! exactly as recorded, thinking and ids included) and the recorded human
//! decisions against the *current* tools, limits and verifier. A turn or a
//! tool result a person wrote in step mode is played back as that person's
//! answer, so it stays marked, and the tool it stood in for does not run. It
//! then checks
//! outcomes rather than wording (seed 002's regression suite): the same
//! status, the same sequence of tool calls with the same error flags, no
//! repeated identical call, and every id the answer names found in a tool
//! result or the task. No model and no key are needed, so a real provider's
//! run replays offline.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::approval::{ApprovalRequest, Approver, Decider, Decision, DecisionKind};
use crate::driver::{Pause, Resume, Stepper};
use crate::error::{LineError, RecordError};
use crate::event::{from_jsonl, EventKind, Outcome, RunEvent};
use crate::limits::canonical_call;
use crate::model::{ModelClient, ModelError, ModelErrorKind, ModelRequest, ModelResponse};
use crate::run::{PauseBefore, Run};
use crate::runtime::Runtime;
use crate::scenario::{Problem, Scenario};
use crate::RunOptions;

mod recorded_stop;
use recorded_stop::RecordedStop;

/// A run as exported: the scenario it ran (when known) and its trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub scenario: Option<Scenario>,
    pub events: Vec<RunEvent>,
    /// For a fork: the `seq` of the parent's event it continued from. The
    /// events before it are the parent's, unchanged.
    pub forked_at: Option<u64>,
}

#[derive(Serialize, Deserialize)]
struct ScenarioLine {
    #[serde(rename = "type")]
    kind: String,
    scenario: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forked_at: Option<u64>,
    /// The scenario's MCP tools as the run loaded them: a replay answers
    /// them from the recorded results (`mcp::recorded`), offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mcp_tools: Option<Vec<crate::mcp::McpTool>>,
}

impl Record {
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        if let Some(scenario) = &self.scenario {
            let line = ScenarioLine {
                kind: "scenario".to_string(),
                scenario: serde_json::to_value(scenario).unwrap_or(Value::Null),
                forked_at: self.forked_at,
                mcp_tools: scenario.mcp.as_ref().map(|mcp| mcp.tools.clone()),
            };
            if let Ok(text) = serde_json::to_string(&line) {
                out.push_str(&text);
                out.push('\n');
            }
        }
        out.push_str(&crate::event::to_jsonl(&self.events));
        out
    }

    /// Reads a record, or a plain event trace. Errors name the line.
    pub fn from_jsonl(text: &str) -> Result<Record, RecordError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((first_index, first)) = lines.next() else {
            return Err(RecordError::Empty);
        };
        let first_value: Value =
            serde_json::from_str(first).map_err(|e| LineError::of(first_index + 1, &e))?;
        let forked_at = first_value.get("forked_at").and_then(Value::as_u64);
        let (scenario, rest_start) =
            if first_value.get("type").and_then(Value::as_str) == Some("scenario") {
                let scenario =
                    Scenario::from_value(first_value["scenario"].clone()).map_err(|problems| {
                        RecordError::Scenario {
                            line: first_index + 1,
                            problems,
                        }
                    })?;
                (Some(scenario), first_index + 1)
            } else {
                (None, first_index)
            };
        let events_text: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| if i < rest_start { "" } else { l })
            .collect::<Vec<_>>()
            .join("\n");
        let events = from_jsonl(&events_text)?;
        if events.is_empty() {
            return Err(RecordError::NoEvents);
        }
        let mcp_tools: Option<Vec<crate::mcp::McpTool>> =
            match first_value.get("mcp_tools") {
                Some(tools) => Some(serde_json::from_value(tools.clone()).map_err(|e| {
                    RecordError::McpTools {
                        line: first_index + 1,
                        why: e.to_string(),
                    }
                })?),
                None => None,
            };
        let scenario = match (scenario, mcp_tools) {
            (Some(scenario), Some(tools)) => {
                let caller = crate::mcp::recorded::RecordedCaller::from_events(&events, &tools);
                Some(scenario.with_mcp(crate::mcp::connect(tools, std::rc::Rc::new(caller))))
            }
            (scenario, _) => scenario,
        };
        Ok(Record {
            scenario,
            events,
            forked_at,
        })
    }

    /// `scenario` (an edited one, say) with this record's MCP tools and
    /// their recorded results, when it names servers it has not loaded: a
    /// replay or a fork never contacts a server.
    pub fn with_recorded_mcp(&self, scenario: Scenario) -> Scenario {
        match self.scenario.as_ref().and_then(|s| s.mcp.clone()) {
            Some(mcp) if scenario.mcp.is_none() && !scenario.mcp_servers.is_empty() => {
                scenario.with_mcp(mcp)
            }
            _ => scenario,
        }
    }

    /// This record with its MCP tools answered from its own results, not
    /// by the connection that ran it (a live server, perhaps stopped since).
    pub fn offline(mut self) -> Record {
        if let Some(scenario) = self.scenario.take() {
            let scenario = match scenario.mcp.clone() {
                Some(mcp) => {
                    let caller =
                        crate::mcp::recorded::RecordedCaller::from_events(&self.events, &mcp.tools);
                    scenario.with_mcp(crate::mcp::connect(mcp.tools, std::rc::Rc::new(caller)))
                }
                None => scenario,
            };
            self.scenario = Some(scenario);
        }
        self
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.events.iter().rev().find_map(|e| match &e.kind {
            EventKind::RunFinished(outcome) => Some(outcome),
            _ => None,
        })
    }
}

/// Plays back recorded model answers in order.
pub struct RecordedModel {
    turns: Vec<Result<ModelResponse, ModelError>>,
    next: Cell<usize>,
    /// A person's Stop while the model answered: pressed when the replay
    /// asks for the turn the recording never got.
    stop: Option<Rc<RecordedStop>>,
}

impl RecordedModel {
    pub fn from_events(events: &[RunEvent]) -> Self {
        let turns = events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ModelResponse {
                    content,
                    stop_reason,
                    usage,
                    ..
                } => Some(Ok(ModelResponse {
                    content: content.clone(),
                    stop_reason: stop_reason.clone(),
                    usage: *usage,
                })),
                EventKind::ModelError {
                    status, message, ..
                } => Some(Err(ModelError {
                    status: *status,
                    kind: if status.is_some() {
                        ModelErrorKind::Http
                    } else {
                        ModelErrorKind::Network
                    },
                    message: message.clone(),
                    retry_after_ms: None,
                })),
                // The `compact` strategy's summary was a model answer too.
                EventKind::ContextEdited {
                    edit: crate::context::ContextEdit::Compacted { summary, usage, .. },
                    ..
                } => Some(Ok(ModelResponse {
                    content: vec![crate::message::ContentBlock::Text {
                        text: summary.clone(),
                    }],
                    stop_reason: "end_turn".to_string(),
                    usage: *usage,
                })),
                _ => None,
            })
            .collect();
        RecordedModel {
            turns,
            next: Cell::new(0),
            stop: None,
        }
    }

    fn stopped_by(mut self, stop: Rc<RecordedStop>) -> Self {
        self.stop = Some(stop);
        self
    }
}

impl ModelClient for RecordedModel {
    fn label(&self) -> String {
        "recorded".to_string()
    }

    fn complete<'a>(
        &'a self,
        _request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        let i = self.next.get();
        self.next.set(i + 1);
        if i >= self.turns.len() && self.stop.as_ref().is_some_and(|s| s.at_missing_turn()) {
            // The replay's Stop is pressed: the run ends before an answer.
            return Box::pin(futures::future::pending());
        }
        let answer = self.turns.get(i).cloned().unwrap_or_else(|| {
            Err(ModelError::new(
                ModelErrorKind::ScriptExhausted,
                format!(
                    "the recording has no model turn {}: it recorded {}; the replay went further than the original run",
                    i + 1,
                    self.turns.len()
                ),
            ))
        });
        Box::pin(async move { answer })
    }

    /// The replay's stepper answers a person's turn from the recording
    /// (`PersonReplay`); it is the recording's next turn, so move past it.
    fn turn_answered_by_person(&self) {
        self.next.set(self.next.get() + 1);
    }
}

/// Plays a recording's person-written turns and tool results back as a
/// person's answers at the pauses they answered, so the replay's trace marks
/// them `by_person` as the recording does, and a tool a person answered for
/// is not run now (its recorded result is what the model got). Everything
/// else goes to `inner` (the page's stepper, which hands the page back
/// between steps); a recording without a person's answer changes nothing.
struct PersonReplay<'a> {
    /// Turn number → the turn a person wrote for it.
    turns: HashMap<u32, ModelResponse>,
    /// Call id → the result a person typed for it.
    results: RefCell<HashMap<String, Vec<Result<Value, String>>>>,
    inner: Option<&'a dyn Stepper>,
    /// A person's Stop at a pause, pressed at the same pause.
    stop: Rc<RecordedStop>,
}

impl<'a> PersonReplay<'a> {
    fn from_events(
        events: &[RunEvent],
        inner: Option<&'a dyn Stepper>,
        stop: Rc<RecordedStop>,
    ) -> Self {
        let mut turns = HashMap::new();
        let mut results: HashMap<String, Vec<Result<Value, String>>> = HashMap::new();
        for event in events {
            match &event.kind {
                EventKind::ModelResponse {
                    turn,
                    content,
                    stop_reason,
                    usage,
                    by_person: true,
                    ..
                } => {
                    let response = ModelResponse {
                        content: content.clone(),
                        stop_reason: stop_reason.clone(),
                        usage: *usage,
                    };
                    turns.insert(*turn, response);
                }
                EventKind::ToolResult {
                    id,
                    content,
                    is_error,
                    by_person: true,
                    ..
                } => {
                    results
                        .entry(id.clone())
                        .or_default()
                        .push(typed_result(content, *is_error));
                }
                _ => {}
            }
        }
        PersonReplay {
            turns,
            results: RefCell::new(results),
            inner,
            stop,
        }
    }

    fn has_answers(&self) -> bool {
        !self.turns.is_empty() || !self.results.borrow().is_empty()
    }
}

/// What a person typed, back from the result the run recorded: the run
/// words an error "tool error: …" (`Run::feed_person_tool_result`), and a
/// value is the text the model read.
fn typed_result(content: &str, is_error: bool) -> Result<Value, String> {
    if is_error {
        Err(content
            .strip_prefix("tool error: ")
            .unwrap_or(content)
            .to_string())
    } else {
        Ok(Value::String(content.to_string()))
    }
}

impl Stepper for PersonReplay<'_> {
    fn step_mode(&self) -> bool {
        self.has_answers()
            || self.stop.needs_step_mode()
            || self.inner.is_some_and(|s| s.step_mode())
    }

    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        if self.stop.at_pause(&pause.before) {
            // Stop is pressed: the run ends here, as the recording did.
            return Box::pin(futures::future::pending());
        }
        let answer = match &pause.before {
            PauseBefore::ModelCall { turn } => {
                self.turns.get(turn).cloned().map(Resume::AnswerAsModel)
            }
            PauseBefore::ToolCall { id, .. } => self
                .results
                .borrow_mut()
                .get_mut(id)
                .filter(|queue| !queue.is_empty())
                .map(|queue| Resume::AnswerAsTool(queue.remove(0))),
        };
        match (answer, self.inner) {
            (Some(answer), _) => Box::pin(async move { answer }),
            (None, Some(inner)) if inner.step_mode() => inner.wait(pause),
            (None, _) => Box::pin(async { Resume::Go }),
        }
    }

    fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
        // A Stop the recording took between steps is pressed here, where the
        // run checks Stop before its next step.
        self.stop.between_steps();
        self.inner.and_then(|s| s.yield_to_host())
    }
}

/// Replays the recorded decisions of a person (made at the call, or as a
/// setting before the run), call by call id, each named as it was recorded;
/// a call the recording never decided is denied and stops the run, since
/// guessing a human's answer would make the replay prove nothing.
struct RecordedApprover {
    decisions: RefCell<HashMap<String, Vec<(Decision, Decider)>>>,
    /// A person's Stop while a call waited for their decision.
    stop: Rc<RecordedStop>,
}

impl RecordedApprover {
    fn from_events(events: &[RunEvent], stop: Rc<RecordedStop>) -> Self {
        let mut decisions: HashMap<String, Vec<(Decision, Decider)>> = HashMap::new();
        for event in events {
            if let EventKind::ApprovalDecided {
                id,
                decision,
                by: by @ (Decider::User | Decider::Setting),
                reason,
                args,
                ..
            } = &event.kind
            {
                let decision = match decision {
                    DecisionKind::Approve => Decision::Approve,
                    DecisionKind::AlwaysAllow => Decision::AlwaysAllow,
                    DecisionKind::ApproveEdited => {
                        Decision::ApproveEdited(args.clone().unwrap_or(Value::Null))
                    }
                    DecisionKind::Deny => Decision::Deny {
                        reason: reason.clone(),
                    },
                    DecisionKind::DenyAndStop => Decision::DenyAndStop {
                        reason: reason.clone(),
                    },
                };
                decisions
                    .entry(id.clone())
                    .or_default()
                    .push((decision, *by));
            }
        }
        RecordedApprover {
            decisions: RefCell::new(decisions),
            stop,
        }
    }
}

impl Approver for RecordedApprover {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let decision = {
            let mut decisions = self.decisions.borrow_mut();
            decisions
                .get_mut(&request.call_id)
                .filter(|queue| !queue.is_empty())
                .map(|queue| queue.remove(0).0)
        };
        if decision.is_none() && self.stop.at_undecided_call(&request.call_id) {
            // Stop is pressed while the call waits, as the recording shows.
            return Box::pin(futures::future::pending());
        }
        let decision = decision.unwrap_or(Decision::DenyAndStop {
            reason: Some(format!(
                "replay: the recording has no decision for {} ({})",
                request.tool, request.call_id
            )),
        });
        Box::pin(async move { decision })
    }

    fn decider(&self, request: &ApprovalRequest) -> Decider {
        self.decisions
            .borrow()
            .get(&request.call_id)
            .and_then(|queue| queue.first())
            .map_or(Decider::User, |(_, by)| *by)
    }
}

/// What a replay is checked against. Absent fields are taken from the
/// recording, except `ids_exist`, which is checked whatever the recording did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assertions {
    /// The status the replay must end with (default: the recorded one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The tool calls in order (default: the recorded ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_sequence: Option<Vec<String>>,
    /// Compare each call's result error flag with the recording (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_errors: Option<bool>,
    /// No identical call (canonical arguments) twice. `true`: none at all;
    /// `false`: not checked; absent: no repeat the recording did not have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_repeated_calls: Option<bool>,
    /// Every id-like word in the answer appears in a tool result or the task.
    /// Checked unless `false`: an id the recording already invented is still
    /// invented, so the recording is no excuse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids_exist: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AssertionResult {
    pub name: String,
    pub passed: bool,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReplayReport {
    pub outcome: Outcome,
    pub events: Vec<RunEvent>,
    pub results: Vec<AssertionResult>,
}

impl ReplayReport {
    pub fn passed(&self) -> bool {
        self.results.iter().all(|r| r.passed)
    }

    pub fn first_failure(&self) -> Option<&AssertionResult> {
        self.results.iter().find(|r| !r.passed)
    }
}

/// Replays `record` against `scenario` (the current definitions) and checks it.
pub async fn replay(
    record: &Record,
    scenario: &Scenario,
    assertions: &Assertions,
    runtime: Rc<dyn Runtime>,
) -> Result<ReplayReport, Vec<Problem>> {
    replay_with(record, scenario, assertions, runtime, RunOptions::default()).await
}

/// `replay`, with a cancel token, a stepper (the page yields through it
/// during a long replay) and a script host (for JavaScript tools). The
/// recorded human decisions answer approval requests, so `options.approver`
/// is not used.
pub async fn replay_with(
    record: &Record,
    scenario: &Scenario,
    assertions: &Assertions,
    runtime: Rc<dyn Runtime>,
    options: RunOptions<'_>,
) -> Result<ReplayReport, Vec<Problem>> {
    let (config, _) = scenario.build_with_scripts(runtime.clone(), options.scripts)?;
    // A person's Stop is replayed as their decisions are: at the same point.
    let stop = Rc::new(RecordedStop::of(record));
    let model = RecordedModel::from_events(&record.events).stopped_by(stop.clone());
    let approver = RecordedApprover::from_events(&record.events, stop.clone());
    let person = PersonReplay::from_events(&record.events, options.stepper, stop.clone());
    let mut run = Run::new(config);
    let env = crate::driver::Env {
        runtime: runtime.as_ref(),
        model: &model,
        approver: Some(&approver),
        cancel: stop.token(),
        stepper: Some(&person),
    };
    let mut events = Vec::new();
    let mut on_event = |e: &RunEvent| {
        stop.saw_event();
        events.push(e.clone());
    };
    let driven = crate::driver::drive(&mut run, &env, &mut on_event);
    let outcome = stop.forwarding(options.cancel, driven).await;
    let mut results = check(record, &events, &outcome, assertions);
    results.extend(undeclared_note(scenario, &events));
    Ok(ReplayReport {
        outcome,
        events,
        results,
    })
}

/// For an import that calls tools its request never declared
/// (`InlineTool::undeclared`): names them, and checks that each of their
/// calls got a result the conversation recorded, not the "no result was
/// recorded" error of `RecordedResults`.
fn undeclared_note(scenario: &Scenario, events: &[RunEvent]) -> Option<AssertionResult> {
    let undeclared = scenario.undeclared_tools();
    let mut calls: HashMap<&str, &str> = HashMap::new();
    let mut called: Vec<&str> = Vec::new();
    let mut unanswered: Vec<&str> = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::ToolCall { id, name, .. } if undeclared.contains(name) => {
                calls.insert(id, name);
                if !called.contains(&name.as_str()) {
                    called.push(name);
                }
            }
            EventKind::ToolResult {
                id,
                is_error: true,
                content,
                ..
            } if calls.contains_key(id.as_str()) && content.contains("no result was recorded") => {
                unanswered.push(calls[id.as_str()]);
            }
            _ => {}
        }
    }
    if called.is_empty() {
        return None;
    }
    let names = called.join(", ");
    Some(AssertionResult {
        name: "undeclared_tools".into(),
        passed: unanswered.is_empty(),
        detail: match unanswered.first() {
            None => format!(
                "called but not declared in the imported request: {names}; each call answered from the recorded results"
            ),
            Some(name) => format!(
                "{name} is not declared in the imported request, and a call to it has arguments the conversation recorded no result for"
            ),
        },
    })
}

/// (name, canonical call, is_error) of each answered call, in order.
pub fn tool_steps(events: &[RunEvent]) -> Vec<(String, String, bool)> {
    let mut calls: HashMap<&str, String> = HashMap::new();
    let mut steps = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::ToolCall { id, name, args, .. } => {
                calls.insert(id, canonical_call(name, args));
            }
            EventKind::ToolResult {
                id, name, is_error, ..
            } => steps.push((
                name.clone(),
                calls.get(id.as_str()).cloned().unwrap_or_default(),
                *is_error,
            )),
            _ => {}
        }
    }
    steps
}

fn check(
    record: &Record,
    events: &[RunEvent],
    outcome: &Outcome,
    assertions: &Assertions,
) -> Vec<AssertionResult> {
    let mut results = Vec::new();
    match (record.outcome(), &assertions.status) {
        // A record that stops mid-run (an imported request body waiting for
        // the model's answer, a run kept while paused) has no status to
        // match: the replay must reach where it stops, the first model turn
        // it never recorded.
        (None, None) => {
            let recorded_turns = record
                .events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::ModelResponse { .. }))
                .count() as u32;
            let stopped_at = events.iter().rev().find_map(|e| match &e.kind {
                EventKind::ModelError { turn, .. } => Some(*turn),
                _ => None,
            });
            let reached = outcome.status == crate::event::Status::ModelError
                && stopped_at == Some(recorded_turns + 1);
            results.push(AssertionResult {
                name: "status".into(),
                passed: reached,
                detail: if reached {
                    format!(
                        "the record stops before turn {}'s answer, and the replay got there",
                        recorded_turns + 1
                    )
                } else {
                    format!(
                        "the record stops before turn {}'s answer; the replay ended {} ({})",
                        recorded_turns + 1,
                        outcome.status,
                        outcome.reason
                    )
                },
            });
        }
        (recorded, asserted) => {
            let recorded_status = recorded
                .map(|o| o.status.as_str().to_string())
                .unwrap_or_default();
            let want_status = asserted.clone().unwrap_or(recorded_status);
            results.push(status_result(record, outcome, &want_status));
        }
    }

    let recorded = tool_steps(&record.events);
    let replayed = tool_steps(events);
    let want: Vec<String> = assertions
        .tool_sequence
        .clone()
        .unwrap_or_else(|| recorded.iter().map(|(n, _, _)| n.clone()).collect());
    let got: Vec<String> = replayed.iter().map(|(n, _, _)| n.clone()).collect();
    let sequence_detail = match want.iter().zip(&got).position(|(a, b)| a != b) {
        Some(i) => format!("call {}: expected {}, got {}", i + 1, want[i], got[i]),
        None if want.len() != got.len() => format!(
            "expected {} calls, got {}{}",
            want.len(),
            got.len(),
            if got.len() > want.len() {
                format!(" (first extra: {})", got[want.len()])
            } else {
                format!(" (first missing: {})", want[got.len()])
            }
        ),
        None => format!("{} calls: {}", got.len(), got.join(" → ")),
    };
    results.push(AssertionResult {
        name: "tool_sequence".into(),
        passed: want == got,
        detail: sequence_detail,
    });

    if assertions.same_errors.unwrap_or(true) {
        let differing = recorded
            .iter()
            .zip(&replayed)
            .enumerate()
            .find(|(_, (r, p))| r.2 != p.2);
        let (passed, detail) = match differing {
            Some((i, (_, p))) => {
                let result = result_content(events, i);
                (
                    false,
                    format!(
                        "call {} ({}): the recording's result was {}, now it is {}: {}",
                        i + 1,
                        p.0,
                        if p.2 { "ok" } else { "an error" },
                        if p.2 { "an error" } else { "ok" },
                        crate::tool::clip(&result, 200)
                    ),
                )
            }
            None => (true, "every call's result kept its error flag".to_string()),
        };
        results.push(AssertionResult {
            name: "same_errors".into(),
            passed,
            detail,
        });
    }

    if assertions.no_repeated_calls != Some(false) {
        let allowed = match assertions.no_repeated_calls {
            Some(true) => Vec::new(),
            _ => repeats(&recorded),
        };
        let repeat = repeats(&replayed)
            .into_iter()
            .find(|r| !allowed.contains(r));
        results.push(AssertionResult {
            name: "no_repeated_calls".into(),
            passed: repeat.is_none(),
            detail: match repeat {
                Some((key, first, again)) => {
                    format!(
                        "{key} was called as call {} and again as call {}",
                        first + 1,
                        again + 1
                    )
                }
                None if allowed.is_empty() => "no call was repeated".to_string(),
                None => "no call was repeated beyond the recording's own repeats".to_string(),
            },
        });
    }

    if assertions.ids_exist != Some(false) {
        results.push(ids_exist(events, outcome.answer.as_deref()));
    }
    results
}

/// Whether the replay ended `want_status`. A person's Stop is pressed where
/// the recording shows it, so a replay stopped as the recording was must
/// also say the same reason (the same point); where it cannot be pressed,
/// the failure says why.
fn status_result(record: &Record, outcome: &Outcome, want_status: &str) -> AssertionResult {
    let same_stop = record
        .outcome()
        .filter(|recorded| recorded.status == crate::event::Status::Cancelled)
        .filter(|_| want_status == crate::event::Status::Cancelled.as_str())
        .map(|recorded| recorded.reason.as_str());
    let (passed, detail) = match same_stop {
        _ if outcome.status.as_str() != want_status => (
            false,
            format!(
                "expected {want_status}, got {} ({}){}",
                outcome.status,
                outcome.reason,
                recorded_stop::why_not(record)
                    .map(|why| format!("; {why}"))
                    .unwrap_or_default()
            ),
        ),
        Some(reason) if reason == outcome.reason => {
            (true, format!("ended cancelled, as recorded: {reason}"))
        }
        Some(reason) => (
            false,
            format!(
                "ended cancelled, but {}; the recording was {reason}",
                outcome.reason
            ),
        ),
        None => (true, format!("ended {want_status}")),
    };
    AssertionResult {
        name: "status".into(),
        passed,
        detail,
    }
}

/// Repeated calls as (canonical call, first index, repeat index).
pub fn repeats(steps: &[(String, String, bool)]) -> Vec<(String, usize, usize)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    steps
        .iter()
        .enumerate()
        .filter_map(|(i, (_, key, _))| seen.insert(key, i).map(|first| (key.clone(), first, i)))
        .collect()
}

fn result_content(events: &[RunEvent], index: usize) -> String {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolResult { content, .. } => Some(content.clone()),
            _ => None,
        })
        .nth(index)
        .unwrap_or_default()
}

/// Every id-like word of the answer (see `facts::id_like_words`) must be a
/// word of something the model received: a tool result (an error result too:
/// "no order ord_x; known orders: …" tells the model real ids), or the task,
/// since an id the user gave is not invented. Anything else the model made
/// up, such as a refund id after the refund was denied. An error result
/// counts although it may only echo the model's own argument back: the
/// check looks for ids that came from nowhere, not for ids that were wrong.
pub fn ids_exist(events: &[RunEvent], answer: Option<&str>) -> AssertionResult {
    let verdict = |passed: bool, detail: String| AssertionResult {
        name: "ids_exist".into(),
        passed,
        detail,
    };
    let Some(answer) = answer else {
        return verdict(
            true,
            "the run gave no final answer, so no id was checked".to_string(),
        );
    };
    let ids = crate::facts::id_like_words(answer);
    if ids.is_empty() {
        return verdict(
            true,
            "no id-like text in the answer (checked: prefixed ids, ORD-1001 style, A1001 style, UUIDs)"
                .to_string(),
        );
    }
    let mut results = Vec::new();
    let mut task = "";
    for event in events {
        match &event.kind {
            EventKind::ToolResult { content, .. } => results.push(content.as_str()),
            EventKind::RunStarted { task: text, .. } => task = text,
            _ => {}
        }
    }
    let in_results = |id: &&str| results.iter().any(|r| crate::facts::names(r, id));
    let missing: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| !in_results(id) && !crate::facts::names(task, id))
        .collect();
    if !missing.is_empty() {
        let (verb, pronoun) = if missing.len() == 1 {
            ("is", "it")
        } else {
            ("are", "them")
        };
        return verdict(
            false,
            format!(
                "{} {verb} in the answer but no tool result contains {pronoun}",
                listed(&missing)
            ),
        );
    }
    let only_in_task: Vec<&str> = ids.iter().copied().filter(|id| !in_results(id)).collect();
    let count = match ids.len() {
        1 => "1 id".to_string(),
        n => format!("{n} ids"),
    };
    let detail = match (ids.len(), only_in_task.is_empty()) {
        (1, true) => format!("{count} in the answer, found in a tool result"),
        (_, true) => format!("{count} in the answer, all found in tool results"),
        (1, false) => format!("{count} in the answer, found in the task"),
        (_, false) => format!(
            "{count} in the answer, all found in tool results or the task ({} only in the task)",
            listed(&only_in_task)
        ),
    };
    verdict(true, detail)
}

/// "a", "a and b", "a, b and c".
fn listed(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
