//! The agent loop as a sans-IO state machine.
//!
//! `Run` owns every decision of the loop — limits, stop reasons, validation,
//! approval, verification, retries — and performs no IO. A driver asks
//! `next_step(now)` what to do (call the model, run a tool, wait for a
//! decision, sleep before a retry, or nothing: finished), does it, and feeds
//! the result back with one of the `feed_*` methods. Time comes in as an
//! argument (milliseconds since the run started), so the machine never reads a
//! clock and every driver produces the same trace.
//!
//! Invariants:
//! - Every `tool_call` event is followed by exactly one `tool_result` event with
//!   the same id (a call interrupted by a stop is answered "not run").
//! - The deadline belongs to this run: it is measured from this run's own start.
//! - Only a final answer (a normal end of turn with text) that passes the
//!   verifier ends `done`.
//! - History is only appended to, never copied per step.

use std::collections::{HashSet, VecDeque};

use serde_json::Value;

use crate::approval::{ApprovalPolicy, ApprovalRequest, Decider, Decision, DecisionKind};
use crate::event::{EventKind, Outcome, RunEvent, Status, Validation};
use crate::limits::{
    CostMode, DeadlineMode, DeadlineScope, HistoryMode, Limits, RepeatDetector, StopMode,
};
use crate::message::{
    results_message, text_of, tool_calls_of, ContentBlock, Message, Role, ToolCall, ToolResult,
};
use crate::model::{estimate_tokens, ModelError, ModelRequest, ModelResponse, Pricing, StopKind};
use crate::tool::{cap_result, result_text, ToolRegistry};
use crate::verify::Verifier;

/// Waiting before a retry: the first retry waits this long, each next one twice as long.
const RETRY_BASE_MS: u64 = 500;
/// No backoff (nor a provider's retry-after) makes the run wait longer than this.
const RETRY_CAP_MS: u64 = 20_000;

/// Everything a run needs that is not IO.
pub struct RunConfig {
    pub scenario_name: String,
    pub model_label: String,
    pub system: String,
    pub task: String,
    pub limits: Limits,
    pub pricing: Pricing,
    pub approval: ApprovalPolicy,
    pub verifier: Verifier,
    pub tools: ToolRegistry,
}

/// What the driver must do next.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Send `Run::model_request()` to the model; feed the response or error back.
    CallModel,
    /// Run this tool; feed its result, or its timeout, back.
    RunTool(ToolInvocation),
    /// Ask the approver; feed the decision back.
    AwaitApproval(ApprovalRequest),
    /// Wait this long before retrying the model call, then `feed_slept`.
    Sleep {
        ms: u64,
    },
    /// Step mode: wait for the user, then `resume`. Nothing has been sent yet.
    Paused(PauseBefore),
    Finished(Outcome),
}

/// What a paused run will do when resumed.
#[derive(Clone, Debug, PartialEq)]
pub enum PauseBefore {
    ModelCall { turn: u32 },
    ToolCall { id: String, name: String },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolInvocation {
    pub call_id: String,
    pub name: String,
    pub args: Value,
}

#[derive(Clone, Debug)]
enum Phase {
    NotStarted,
    /// Between turns: the pre-flight checks run before the next model call.
    Ready,
    AwaitingModel {
        attempt: u32,
        since_ms: f64,
    },
    Backoff {
        attempt: u32,
        ms: u64,
    },
    /// Working through the tool calls of the current turn.
    Calls,
    AwaitingApproval {
        request: ApprovalRequest,
    },
    AwaitingTool {
        invocation: ToolInvocation,
        since_ms: f64,
    },
    Finished(Outcome),
}

pub struct Run {
    config: RunConfig,
    phase: Phase,
    messages: Vec<Message>,
    /// Calls of the current turn not yet handled, and the results gathered so far.
    pending_calls: VecDeque<ToolCall>,
    turn_results: Vec<ContentBlock>,
    events: Vec<RunEvent>,
    seq: u64,
    turns: u32,
    tool_calls: u32,
    input_tokens: u64,
    output_tokens: u64,
    cost_usd: f64,
    repeats: Option<RepeatDetector>,
    /// Where this run's zero lies on the runtime's clock (for a shared deadline).
    clock_origin_ms: f64,
    /// Added to event times: a fork's events continue its parent's timeline.
    t_offset_ms: f64,
    /// Step mode: pause before each model call and tool call until `resume`.
    step_mode: bool,
    step_granted: bool,
    always_allowed: HashSet<String>,
    tools_run_ok: HashSet<String>,
    /// Characters of the system prompt and tool definitions, counted once.
    fixed_chars: usize,
    history_chars: usize,
    /// The last response's usage and the characters added since: calibrates
    /// the input estimate with what the provider actually counted.
    last_usage_total: Option<u64>,
    chars_since_usage: usize,
}

impl Run {
    pub fn new(config: RunConfig) -> Run {
        let fixed_chars = config.system.len()
            + config
                .tools
                .specs()
                .iter()
                .map(|s| s.name.len() + s.description.len() + s.input_schema.to_string().len())
                .sum::<usize>();
        let repeats = config
            .limits
            .repeat_threshold
            .map(|n| RepeatDetector::new(config.limits.repeat_mode, n));
        Run {
            config,
            phase: Phase::NotStarted,
            messages: Vec::new(),
            pending_calls: VecDeque::new(),
            turn_results: Vec::new(),
            events: Vec::new(),
            seq: 0,
            turns: 0,
            tool_calls: 0,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
            repeats,
            clock_origin_ms: 0.0,
            t_offset_ms: 0.0,
            step_mode: false,
            step_granted: false,
            always_allowed: HashSet::new(),
            tools_run_ok: HashSet::new(),
            fixed_chars,
            history_chars: 0,
            last_usage_total: None,
            chars_since_usage: 0,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.config.limits
    }

    pub fn tools(&self) -> &ToolRegistry {
        &self.config.tools
    }

    pub fn history(&self) -> &[Message] {
        &self.messages
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Finished(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// Tells the run where its clock's zero lies on the runtime's clock, for
    /// a `shared` deadline, which counts from the runtime's origin instead.
    pub fn set_clock_origin(&mut self, origin_ms: f64) {
        self.clock_origin_ms = origin_ms;
    }

    /// Milliseconds left before the deadline, `None` without one.
    pub fn deadline_remaining(&self, now_ms: f64) -> Option<f64> {
        let deadline = self.config.limits.deadline_ms? as f64;
        Some(deadline - self.deadline_clock(now_ms))
    }

    /// Whether a pending call is interrupted by the deadline, or only checked
    /// between steps (the `between_steps` pitfall).
    pub fn deadline_interrupts(&self) -> bool {
        self.config.limits.deadline_mode == DeadlineMode::Interrupt
    }

    fn deadline_clock(&self, now_ms: f64) -> f64 {
        match self.config.limits.deadline_scope {
            DeadlineScope::Run => now_ms,
            DeadlineScope::Shared => now_ms + self.clock_origin_ms,
        }
    }

    /// Hands over the events emitted since the last call.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, RunEvent> {
        self.events.drain(..)
    }

    /// The request for the pending model call. It borrows the history.
    pub fn model_request(&self) -> ModelRequest<'_> {
        ModelRequest {
            turn: self.turns,
            system: &self.config.system,
            messages: &self.messages,
            tools: self.config.tools.specs(),
            max_output_tokens: self.config.limits.max_output_tokens,
            estimated_input_tokens: self.estimated_input_tokens(),
        }
    }

    /// Advances through everything that needs no IO and says what IO is next.
    pub fn next_step(&mut self, now_ms: f64) -> Step {
        loop {
            if !matches!(self.phase, Phase::Finished(_) | Phase::NotStarted) {
                if let Some(remaining) = self.deadline_remaining(now_ms) {
                    if remaining <= 0.0 {
                        self.finish_deadline(now_ms);
                        continue;
                    }
                }
            }
            match &self.phase {
                Phase::NotStarted => self.start(now_ms),
                Phase::Ready => {
                    if let Some((status, reason)) = self.preflight_stop() {
                        self.finish(status, reason, now_ms);
                        continue;
                    }
                    if self.step_mode && !std::mem::take(&mut self.step_granted) {
                        return Step::Paused(PauseBefore::ModelCall {
                            turn: self.turns + 1,
                        });
                    }
                    self.turns += 1;
                    self.send_model_request(1, now_ms);
                    return Step::CallModel;
                }
                Phase::AwaitingModel { .. } => return Step::CallModel,
                Phase::Backoff { ms, .. } => return Step::Sleep { ms: *ms },
                Phase::Calls => match self.pending_calls.pop_front() {
                    Some(call) => self.handle_call(call, now_ms),
                    None => {
                        self.flush_results();
                        self.phase = Phase::Ready;
                    }
                },
                Phase::AwaitingApproval { request } => return Step::AwaitApproval(request.clone()),
                Phase::AwaitingTool {
                    invocation,
                    since_ms,
                } => {
                    if *since_ms < 0.0 {
                        // Not started yet: step mode may hold it back.
                        if self.step_mode && !self.step_granted {
                            return Step::Paused(PauseBefore::ToolCall {
                                id: invocation.call_id.clone(),
                                name: invocation.name.clone(),
                            });
                        }
                        self.step_granted = false;
                        self.phase = Phase::AwaitingTool {
                            invocation: invocation.clone(),
                            since_ms: now_ms,
                        };
                        continue;
                    }
                    return Step::RunTool(invocation.clone());
                }
                Phase::Finished(outcome) => return Step::Finished(outcome.clone()),
            }
        }
    }

    /// Puts a new run in the state an earlier run had just before `prefix`
    /// ended, without calling the model or emitting anything: the history,
    /// the counters, the repeat detector, "always allow" decisions and the
    /// calls of the current turn still to handle. The run then continues
    /// under this run's (possibly edited) configuration. `prefix` must end
    /// just before a model call or a tool call (see `fork::fork_points`).
    pub fn restore(&mut self, prefix: &[RunEvent]) -> Result<(), String> {
        if !matches!(self.phase, Phase::NotStarted) {
            return Err("only a run that has not started can be restored".to_string());
        }
        let mut answered_in_turn = 0usize;
        let mut calls_in_turn = 0usize;
        for event in prefix {
            match &event.kind {
                EventKind::RunStarted { task, .. } => {
                    self.push_message(Message::user_text(task.clone()));
                    self.phase = Phase::Ready;
                }
                EventKind::ModelRequest { turn, .. } => self.turns = *turn,
                EventKind::ModelResponse {
                    content,
                    usage,
                    cost_usd,
                    ..
                } => {
                    self.input_tokens += usage.input_tokens;
                    self.output_tokens += usage.output_tokens;
                    self.cost_usd += cost_usd;
                    self.pending_calls = tool_calls_of(content).cloned().collect();
                    calls_in_turn = self.pending_calls.len();
                    answered_in_turn = 0;
                    self.turn_results.clear();
                    self.record_assistant_turn(content.clone(), usage.total());
                    self.phase = if calls_in_turn > 0 {
                        Phase::Calls
                    } else {
                        Phase::Ready
                    };
                }
                EventKind::ToolCall {
                    id,
                    name,
                    args,
                    args_raw,
                    ..
                } => {
                    self.tool_calls += 1;
                    if let Some(detector) = &mut self.repeats {
                        let _ = detector.record(name, args, args_raw.as_deref());
                    }
                    if let Some(at) = self.pending_calls.iter().position(|c| &c.id == id) {
                        self.pending_calls.remove(at);
                    }
                }
                EventKind::ApprovalDecided {
                    name,
                    decision: DecisionKind::AlwaysAllow,
                    ..
                } => {
                    self.always_allowed.insert(name.clone());
                }
                EventKind::ToolResult {
                    id,
                    name,
                    content,
                    is_error,
                    ..
                } => {
                    if !is_error {
                        self.tools_run_ok.insert(name.clone());
                    }
                    self.turn_results.push(ContentBlock::ToolResult(ToolResult {
                        tool_use_id: id.clone(),
                        content: content.clone(),
                        is_error: *is_error,
                    }));
                    answered_in_turn += 1;
                    if answered_in_turn == calls_in_turn {
                        self.flush_results();
                        self.phase = Phase::Ready;
                    }
                }
                EventKind::RunFinished(_) => {
                    return Err(
                        "the prefix includes run_finished: fork from an earlier step".to_string(),
                    )
                }
                EventKind::ModelError { .. }
                | EventKind::ApprovalRequested { .. }
                | EventKind::ApprovalDecided { .. } => {}
            }
        }
        if matches!(self.phase, Phase::NotStarted) {
            return Err("the prefix does not start with run_started".to_string());
        }
        self.seq = prefix.last().map_or(0, |e| e.seq + 1);
        self.t_offset_ms = prefix.last().map_or(0.0, |e| e.t_ms as f64);
        Ok(())
    }

    fn start(&mut self, now_ms: f64) {
        self.emit(
            now_ms,
            EventKind::RunStarted {
                scenario: self.config.scenario_name.clone(),
                model: self.config.model_label.clone(),
                approval: self.config.approval,
                tools: self.config.tools.names(),
                limits: self.config.limits.clone(),
                task: self.config.task.clone(),
            },
        );
        let task = Message::user_text(self.config.task.clone());
        self.push_message(task);
        self.phase = Phase::Ready;
    }

    /// The checks made before each model call, in the order seed 000 makes them.
    fn preflight_stop(&self) -> Option<(Status, String)> {
        let limits = &self.config.limits;
        if self.turns >= limits.max_turns {
            return Some((
                Status::TurnLimit,
                format!(
                    "made {} of max {} model calls (max_turns) and the model still wanted to continue",
                    self.turns, limits.max_turns
                ),
            ));
        }
        if let Some(max) = limits.max_total_tokens {
            let used = self.input_tokens + self.output_tokens;
            if used >= max {
                return Some((
                    Status::TokenLimit,
                    format!(
                        "used {used} tokens of max {max} (max_total_tokens) after turn {}",
                        self.turns
                    ),
                ));
            }
        }
        let budget = limits.max_cost_usd?;
        match limits.cost_mode {
            CostMode::Naive => (self.cost_usd > budget).then(|| {
                (
                    Status::CostLimit,
                    format!(
                        "spent {} of {} budget after turn {} (naive mode: checked only between turns, so the last call overshot)",
                        usd(self.cost_usd),
                        usd(budget),
                        self.turns
                    ),
                )
            }),
            CostMode::Strict => {
                let input = self.estimated_input_tokens();
                let output = u64::from(limits.max_output_tokens);
                let worst = self.config.pricing.cost(input, output);
                (self.cost_usd + worst > budget).then(|| {
                    (
                        Status::CostLimit,
                        format!(
                            "spent {} of {} budget after turn {}; the next call could cost up to {} (≈{input} input + {output} output tokens), which could exceed it",
                            usd(self.cost_usd),
                            usd(budget),
                            self.turns,
                            usd(worst)
                        ),
                    )
                })
            }
        }
    }

    fn estimated_input_tokens(&self) -> u64 {
        let by_chars = estimate_tokens(self.fixed_chars + self.history_chars);
        match self.last_usage_total {
            // Input grows by at least what was said since the provider last counted.
            Some(total) => by_chars.max(total + estimate_tokens(self.chars_since_usage)),
            None => by_chars,
        }
    }

    fn send_model_request(&mut self, attempt: u32, now_ms: f64) {
        let estimated_input_tokens = self.estimated_input_tokens();
        self.emit(
            now_ms,
            EventKind::ModelRequest {
                turn: self.turns,
                attempt,
                messages: self.messages.len(),
                estimated_input_tokens,
                max_output_tokens: self.config.limits.max_output_tokens,
            },
        );
        self.phase = Phase::AwaitingModel {
            attempt,
            since_ms: now_ms,
        };
    }

    pub fn feed_model_response(&mut self, response: ModelResponse, now_ms: f64) {
        let Phase::AwaitingModel { since_ms, .. } = self.phase else {
            return;
        };
        let usage = response.usage;
        let cost = self
            .config
            .pricing
            .cost(usage.input_tokens, usage.output_tokens);
        self.input_tokens += usage.input_tokens;
        self.output_tokens += usage.output_tokens;
        self.cost_usd += cost;
        self.emit(
            now_ms,
            EventKind::ModelResponse {
                turn: self.turns,
                text: text_of(&response.content),
                content: response.content.clone(),
                stop_reason: response.stop_reason.clone(),
                usage,
                cost_usd: cost,
                latency_ms: elapsed(since_ms, now_ms),
            },
        );
        let calls: VecDeque<ToolCall> = tool_calls_of(&response.content).cloned().collect();
        let answer = text_of(&response.content);
        self.record_assistant_turn(response.content, usage.total());

        let limits = &self.config.limits;
        if let (CostMode::Strict, Some(budget)) = (limits.cost_mode, limits.max_cost_usd) {
            if self.cost_usd > budget {
                let reason = format!(
                    "spent {} of {} budget in turn {}: the response used more tokens than the pre-flight estimate allowed for",
                    usd(self.cost_usd),
                    usd(budget),
                    self.turns
                );
                return self.finish(Status::CostLimit, reason, now_ms);
            }
        }
        let stop_reason = response.stop_reason;
        let mut kind = StopKind::classify(&stop_reason);
        let naive_stop = self.config.limits.stop_mode == StopMode::Naive
            && calls.is_empty()
            && kind != StopKind::EndTurn;
        if naive_stop {
            // The pitfall on purpose: whatever stopped the turn, its text is taken as the answer.
            kind = StopKind::EndTurn;
        }
        if matches!(
            kind,
            StopKind::MaxTokens | StopKind::Refusal | StopKind::Unknown
        ) {
            // Calls in a cut-off or refused turn are not run, but `finish`
            // answers them so the history stays a valid conversation.
            self.pending_calls = calls.clone();
        }
        match kind {
            StopKind::MaxTokens => {
                let reason = format!(
                    "the model stopped in turn {} because it ran out of tokens (stop_reason {stop_reason}, max_output_tokens {}); a truncated turn is not a final answer",
                    self.turns, self.config.limits.max_output_tokens
                );
                self.finish(Status::MaxTokens, reason, now_ms)
            }
            StopKind::Refusal => {
                let reason = format!(
                    "the model refused in turn {} (stop_reason {stop_reason})",
                    self.turns
                );
                self.finish(Status::Refusal, reason, now_ms)
            }
            StopKind::Unknown => {
                let reason = format!(
                    "the model returned an unknown stop_reason {stop_reason:?} in turn {}",
                    self.turns
                );
                self.finish(Status::ModelError, reason, now_ms)
            }
            // Some OpenAI-compatible servers say "stop" while sending tool calls:
            // the calls are what the model asked for, so they run.
            StopKind::EndTurn | StopKind::ToolUse | StopKind::PauseTurn if !calls.is_empty() => {
                self.pending_calls = calls;
                self.turn_results.clear();
                self.phase = Phase::Calls;
            }
            // Anthropic paused a long turn: sending the content back continues it.
            StopKind::PauseTurn => self.phase = Phase::Ready,
            StopKind::ToolUse => {
                let reason = format!(
                    "the model said stop_reason {stop_reason} in turn {} but sent no tool calls",
                    self.turns
                );
                self.finish(Status::ModelError, reason, now_ms)
            }
            StopKind::EndTurn if answer.trim().is_empty() => {
                let reason = format!(
                    "the model ended turn {} (stop_reason {stop_reason}) without any answer text",
                    self.turns
                );
                self.finish(Status::ModelError, reason, now_ms)
            }
            StopKind::EndTurn => match self.config.verifier.verify(&answer, &self.tools_run_ok) {
                Ok(()) => {
                    let mut reason = if self.config.verifier.is_empty() {
                        format!("the model gave a final answer in turn {}", self.turns)
                    } else {
                        format!(
                            "the model gave a final answer in turn {} and the verifier accepted it",
                            self.turns
                        )
                    };
                    if naive_stop {
                        reason.push_str(&format!(
                            " (stop_reason {stop_reason} taken as final: stop_mode naive)"
                        ));
                    }
                    self.finish(Status::Done, reason, now_ms)
                }
                Err(why) => self.finish(Status::FailedVerification, why, now_ms),
            },
        }
    }

    pub fn feed_model_error(&mut self, error: ModelError, now_ms: f64) {
        let Phase::AwaitingModel { attempt, since_ms } = self.phase else {
            return;
        };
        let will_retry = error.is_retryable() && attempt <= self.config.limits.max_retries;
        let retry_in_ms = will_retry.then(|| match error.retry_after_ms {
            Some(ms) => ms.min(RETRY_CAP_MS),
            None => (RETRY_BASE_MS << (attempt - 1).min(16)).min(RETRY_CAP_MS),
        });
        self.emit(
            now_ms,
            EventKind::ModelError {
                turn: self.turns,
                attempt,
                status: error.status,
                message: error.message.clone(),
                retry_in_ms,
                latency_ms: elapsed(since_ms, now_ms),
            },
        );
        if let Some(ms) = retry_in_ms {
            self.phase = Phase::Backoff { attempt, ms };
            return;
        }
        let why = if !error.is_retryable() {
            "not retried: retrying cannot fix it".to_string()
        } else {
            format!(
                "gave up after {attempt} attempts (max_retries {})",
                self.config.limits.max_retries
            )
        };
        let reason = format!(
            "the model request for turn {} failed: {error} ({why})",
            self.turns
        );
        self.finish(Status::ModelError, reason, now_ms);
    }

    /// The model call took longer than `model_timeout_ms`.
    pub fn feed_model_timeout(&mut self, now_ms: f64) {
        let ms = self.config.limits.model_timeout_ms.unwrap_or(0);
        let error = ModelError::new(
            crate::model::ModelErrorKind::Timeout,
            format!("no response within {ms} ms (model_timeout_ms)"),
        );
        self.feed_model_error(error, now_ms);
    }

    pub fn feed_slept(&mut self, now_ms: f64) {
        if let Phase::Backoff { attempt, .. } = self.phase {
            self.send_model_request(attempt + 1, now_ms);
        }
    }

    fn handle_call(&mut self, call: ToolCall, now_ms: f64) {
        self.tool_calls += 1;
        let checked = self.record_tool_call(&call, now_ms);
        if let Some(max) = self.config.limits.max_tool_calls {
            if self.tool_calls > max {
                let reason = format!(
                    "the model asked for tool call #{} ({}) but max_tool_calls is {max}",
                    self.tool_calls, call.name
                );
                return self.refuse_and_stop(&call, Status::ToolCallLimit, reason, now_ms);
            }
        }
        let repeated = self.repeats.as_mut().and_then(|detector| {
            detector.record(&call.name, &call.input, call.input_raw.as_deref())
        });
        if let Some(reason) = repeated {
            return self.refuse_and_stop(&call, Status::RepeatedCall, reason, now_ms);
        }
        let needs_approval = match checked {
            Err(rejection) => {
                return self.answer(&call.id, &call.name, rejection.message, true, 0, now_ms)
            }
            Ok(needs) => needs,
        };
        let invocation = ToolInvocation {
            call_id: call.id,
            name: call.name,
            args: call.input,
        };
        if !needs_approval {
            return self.await_tool(invocation);
        }
        match self.config.approval {
            ApprovalPolicy::ApproveAll => {
                self.record_decision(
                    &invocation,
                    DecisionKind::Approve,
                    Decider::Policy,
                    None,
                    None,
                    now_ms,
                );
                self.await_tool(invocation)
            }
            ApprovalPolicy::DenyAll => {
                let reason = format!(
                    "{} needs approval and the approval policy is deny_all",
                    invocation.name
                );
                self.record_decision(
                    &invocation,
                    DecisionKind::DenyAndStop,
                    Decider::Policy,
                    None,
                    None,
                    now_ms,
                );
                let text = format!("denied: {reason}");
                self.answer(&invocation.call_id, &invocation.name, text, true, 0, now_ms);
                self.finish(Status::Blocked, reason, now_ms)
            }
            ApprovalPolicy::Ask if self.always_allowed.contains(&invocation.name) => {
                self.record_decision(
                    &invocation,
                    DecisionKind::Approve,
                    Decider::AlwaysAllow,
                    None,
                    None,
                    now_ms,
                );
                self.await_tool(invocation)
            }
            ApprovalPolicy::Ask => {
                self.emit(
                    now_ms,
                    EventKind::ApprovalRequested {
                        id: invocation.call_id.clone(),
                        name: invocation.name.clone(),
                        args: invocation.args.clone(),
                    },
                );
                self.phase = Phase::AwaitingApproval {
                    request: ApprovalRequest {
                        call_id: invocation.call_id,
                        tool: invocation.name,
                        args: invocation.args,
                        turn: self.turns,
                        edit_error: None,
                    },
                };
            }
        }
    }

    /// Checks a call and emits its `tool_call` event; says whether it needs approval.
    fn record_tool_call(
        &mut self,
        call: &ToolCall,
        now_ms: f64,
    ) -> Result<bool, crate::tool::Rejection> {
        let checked = self
            .config
            .tools
            .check(call)
            .map(|tool| tool.needs_approval);
        let (validation, needs_approval) = match &checked {
            Ok(needs) => (Validation::Valid, *needs),
            Err(rejection) => (rejection.validation.clone(), false),
        };
        self.emit(
            now_ms,
            EventKind::ToolCall {
                turn: self.turns,
                id: call.id.clone(),
                name: call.name.clone(),
                args: call.input.clone(),
                args_raw: call.input_raw.clone(),
                validation,
                needs_approval,
            },
        );
        checked
    }

    /// Answers a call that a limit refuses, then ends the run with that limit.
    fn refuse_and_stop(&mut self, call: &ToolCall, status: Status, reason: String, now_ms: f64) {
        let text = format!("not run: {reason}");
        self.answer(&call.id, &call.name, text, true, 0, now_ms);
        self.finish(status, reason, now_ms);
    }

    /// Applies a human decision. Edited arguments that break the tool's schema
    /// are refused with the reason, and the run keeps waiting for a decision.
    pub fn feed_decision(&mut self, decision: Decision, now_ms: f64) -> Result<(), String> {
        let Phase::AwaitingApproval { request } = &self.phase else {
            return Err("no call is waiting for a decision".to_string());
        };
        let mut invocation = ToolInvocation {
            call_id: request.call_id.clone(),
            name: request.tool.clone(),
            args: request.args.clone(),
        };
        let kind = decision.kind();
        match decision {
            Decision::Approve => {
                self.record_decision(&invocation, kind, Decider::User, None, None, now_ms);
                self.await_tool(invocation);
            }
            Decision::AlwaysAllow => {
                self.always_allowed.insert(invocation.name.clone());
                self.record_decision(&invocation, kind, Decider::User, None, None, now_ms);
                self.await_tool(invocation);
            }
            Decision::ApproveEdited(args) => {
                if let Some(tool) = self.config.tools.get(&invocation.name) {
                    self.config
                        .tools
                        .check_args(tool, &args)
                        .map_err(|rejection| rejection.message)?;
                }
                self.record_decision(
                    &invocation,
                    kind,
                    Decider::User,
                    None,
                    Some(args.clone()),
                    now_ms,
                );
                invocation.args = args;
                self.await_tool(invocation);
            }
            Decision::Deny { reason } => {
                self.record_decision(
                    &invocation,
                    kind,
                    Decider::User,
                    reason.clone(),
                    None,
                    now_ms,
                );
                let text = format!(
                    "denied by the user: {}",
                    reason.as_deref().unwrap_or("no reason given")
                );
                self.answer(&invocation.call_id, &invocation.name, text, true, 0, now_ms);
                self.phase = Phase::Calls;
            }
            Decision::DenyAndStop { reason } => {
                self.record_decision(
                    &invocation,
                    kind,
                    Decider::User,
                    reason.clone(),
                    None,
                    now_ms,
                );
                let why = reason.as_deref().unwrap_or("no reason given");
                let text = format!("denied by the user: {why}");
                self.answer(&invocation.call_id, &invocation.name, text, true, 0, now_ms);
                self.phase = Phase::Calls;
                let reason = format!(
                    "the user denied {} and stopped the run ({why})",
                    invocation.name
                );
                self.finish(Status::Blocked, reason, now_ms);
            }
        }
        Ok(())
    }

    /// No approver exists for a call that needs one (e.g. the CLI without `--approve`).
    pub fn feed_no_approver(&mut self, now_ms: f64) {
        if let Phase::AwaitingApproval { request } = &self.phase {
            let reason = format!(
                "{} needs approval and no approver is available",
                request.tool
            );
            self.finish(Status::Blocked, reason, now_ms);
        }
    }

    pub fn feed_tool_result(&mut self, result: Result<Value, String>, now_ms: f64) {
        let Phase::AwaitingTool {
            invocation,
            since_ms,
        } = &self.phase
        else {
            return;
        };
        let (id, name, latency) = (
            invocation.call_id.clone(),
            invocation.name.clone(),
            elapsed(*since_ms, now_ms),
        );
        // A refused write leaves the store as it was, and showing it unchanged
        // is still the answer to "what did this call do".
        let state = self
            .config
            .tools
            .get(&name)
            .and_then(|tool| tool.handler.state());
        let (text, is_error) = match result {
            Ok(value) => {
                self.tools_run_ok.insert(name.clone());
                cap_result(result_text(&value), self.config.limits.max_result_chars)
            }
            Err(message) => (format!("tool error: {message}"), true),
        };
        self.answer_with_state(&id, &name, text, is_error, latency, now_ms, state);
        self.phase = Phase::Calls;
    }

    /// The tool ran past `tool_timeout_ms` and was abandoned.
    pub fn feed_tool_timeout(&mut self, now_ms: f64) {
        let ms = self.config.limits.tool_timeout_ms.unwrap_or(0);
        let message =
            format!("the tool did not finish within {ms} ms (tool_timeout_ms) and was stopped");
        if let Phase::AwaitingTool { .. } = self.phase {
            self.feed_tool_result(Err(message), now_ms);
        }
    }

    /// The run's deadline passed while the driver was waiting.
    pub fn feed_deadline(&mut self, now_ms: f64) {
        if !matches!(self.phase, Phase::Finished(_)) {
            self.finish_deadline(now_ms);
        }
    }

    /// The user stopped the run.
    pub fn cancel(&mut self, now_ms: f64) {
        if matches!(self.phase, Phase::Finished(_)) {
            return;
        }
        let reason = format!(
            "stopped by the user after {} turn{} ({})",
            self.turns,
            plural(self.turns),
            self.waiting_for()
        );
        self.finish(Status::Cancelled, reason, now_ms);
    }

    fn finish_deadline(&mut self, now_ms: f64) {
        let deadline = self.config.limits.deadline_ms.unwrap_or(0);
        let mut reason = format!(
            "the run's {deadline} ms deadline passed at {} ms ({})",
            now_ms as u64,
            self.waiting_for()
        );
        if self.config.limits.deadline_scope == DeadlineScope::Shared {
            reason.push_str(&format!(
                "; the deadline is shared, counted from {} ms before this run started (seed 002's bug)",
                self.clock_origin_ms as u64
            ));
        }
        if self.config.limits.deadline_mode == DeadlineMode::BetweenSteps {
            reason
                .push_str("; it is checked only between steps, so the pending call ran to its end");
        }
        self.finish(Status::Deadline, reason, now_ms);
    }

    /// What the run was doing, for stop reasons.
    fn waiting_for(&self) -> String {
        match &self.phase {
            Phase::AwaitingModel { .. } => {
                format!("while waiting for the model in turn {}", self.turns)
            }
            Phase::Backoff { .. } => format!(
                "while waiting to retry the model call of turn {}",
                self.turns
            ),
            Phase::AwaitingTool { invocation, .. } => {
                format!("while tool {} was running", invocation.name)
            }
            Phase::AwaitingApproval { request } => {
                format!("while waiting for approval of {}", request.tool)
            }
            _ => format!("between turns, before turn {}", self.turns + 1),
        }
    }

    /// Queues a tool run; its clock starts when it really starts (after any pause).
    fn await_tool(&mut self, invocation: ToolInvocation) {
        self.phase = Phase::AwaitingTool {
            invocation,
            since_ms: -1.0,
        };
    }

    /// Turns step mode on or off; takes effect at the next model or tool call.
    pub fn set_step_mode(&mut self, on: bool) {
        self.step_mode = on;
    }

    /// Lets a paused run take its next step.
    pub fn resume(&mut self) {
        self.step_granted = true;
    }

    fn record_decision(
        &mut self,
        invocation: &ToolInvocation,
        decision: DecisionKind,
        by: Decider,
        reason: Option<String>,
        args: Option<Value>,
        now_ms: f64,
    ) {
        self.emit(
            now_ms,
            EventKind::ApprovalDecided {
                id: invocation.call_id.clone(),
                name: invocation.name.clone(),
                decision,
                by,
                reason,
                args,
            },
        );
    }

    /// Records a tool result for the model and the trace.
    fn answer(
        &mut self,
        id: &str,
        name: &str,
        content: String,
        is_error: bool,
        latency_ms: u64,
        now_ms: f64,
    ) {
        self.answer_with_state(id, name, content, is_error, latency_ms, now_ms, None);
    }

    /// `answer`, with the tool's store as it is after the call (trace only).
    #[allow(clippy::too_many_arguments)]
    fn answer_with_state(
        &mut self,
        id: &str,
        name: &str,
        content: String,
        is_error: bool,
        latency_ms: u64,
        now_ms: f64,
        state: Option<Value>,
    ) {
        self.emit(
            now_ms,
            EventKind::ToolResult {
                id: id.to_string(),
                name: name.to_string(),
                content: content.clone(),
                is_error,
                latency_ms,
                state,
            },
        );
        self.turn_results.push(ContentBlock::ToolResult(ToolResult {
            tool_use_id: id.to_string(),
            content,
            is_error,
        }));
    }

    fn finish(&mut self, status: Status, reason: String, now_ms: f64) {
        // A call cut short by the stop still gets its answer, so the trace and
        // the history stay complete (every call answered once).
        let interrupted = match &self.phase {
            Phase::AwaitingTool {
                invocation,
                since_ms,
            } => Some((
                invocation.call_id.clone(),
                invocation.name.clone(),
                if *since_ms < 0.0 {
                    0
                } else {
                    elapsed(*since_ms, now_ms)
                },
            )),
            Phase::AwaitingApproval { request } => {
                Some((request.call_id.clone(), request.tool.clone(), 0))
            }
            _ => None,
        };
        if let Some((id, name, latency)) = interrupted {
            let text = format!("not run to completion: the run stopped ({status}: {reason})");
            self.answer(&id, &name, text, true, latency, now_ms);
        }
        // Calls of this turn that the stop came before are answered too, so the
        // history stays a valid conversation (every tool_use has its result)
        // for anyone who continues it or sends it to a provider.
        let leftover: Vec<ToolCall> = self.pending_calls.drain(..).collect();
        for call in leftover {
            let _ = self.record_tool_call(&call, now_ms);
            let text = format!("not run: the run stopped before this call ({status})");
            self.answer(&call.id, &call.name, text, true, 0, now_ms);
        }
        if !self.turn_results.is_empty() {
            self.flush_results();
        }
        let answer = match status {
            Status::Done | Status::FailedVerification => self
                .messages
                .last()
                .filter(|m| m.role == Role::Assistant)
                .map(|m| text_of(&m.content)),
            _ => None,
        };
        let outcome = Outcome {
            status,
            reason,
            turns: self.turns,
            tool_calls: self.tool_calls,
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            cost_usd: self.cost_usd,
            elapsed_ms: (now_ms + self.t_offset_ms).max(0.0) as u64,
            answer,
        };
        self.emit(now_ms, EventKind::RunFinished(outcome.clone()));
        self.pending_calls.clear();
        self.phase = Phase::Finished(outcome);
    }

    /// Appends the model's turn to the history (as `history_mode` keeps it) and
    /// recalibrates the input estimate with the tokens the provider counted.
    fn record_assistant_turn(&mut self, mut content: Vec<ContentBlock>, usage_total: u64) {
        if self.config.limits.history_mode == HistoryMode::TextOnly {
            content.retain(|block| !matches!(block, ContentBlock::Thinking { .. }));
        }
        self.push_message(Message {
            role: Role::Assistant,
            content,
        });
        self.last_usage_total = Some(usage_total);
        self.chars_since_usage = 0;
    }

    /// Sends the gathered results of a turn back as one user message.
    fn flush_results(&mut self) {
        let results = std::mem::take(&mut self.turn_results);
        let message = results_message(results, self.config.limits.results_mode);
        self.push_message(message);
    }

    fn push_message(&mut self, message: Message) {
        let chars = message.char_len();
        self.history_chars += chars;
        self.chars_since_usage += chars;
        self.messages.push(message);
    }

    fn emit(&mut self, now_ms: f64, kind: EventKind) {
        self.events.push(RunEvent {
            seq: self.seq,
            t_ms: (now_ms + self.t_offset_ms).max(0.0) as u64,
            kind,
        });
        self.seq += 1;
    }
}

fn elapsed(since_ms: f64, now_ms: f64) -> u64 {
    (now_ms - since_ms).max(0.0) as u64
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Dollars with enough digits to see small demo budgets: $0.52, $0.0041, $0.000012.
pub fn usd(amount: f64) -> String {
    let abs = amount.abs();
    if abs == 0.0 || abs >= 0.1 {
        format!("${amount:.2}")
    } else if abs >= 0.001 {
        format!("${amount:.4}")
    } else {
        format!("${amount:.6}")
    }
}
