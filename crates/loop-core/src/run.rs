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
//!
//! Around it: `meter.rs` counts tokens and dollars and makes the token and
//! cost checks, and `restore.rs` rebuilds a run's state for a fork. Why a
//! run stopped, and every sentence that says so, is part of the trace
//! (`event::stop_cause`); what became of each call is `event::tally`.

mod context_gate;
mod meter;
mod restore;

use std::collections::{HashSet, VecDeque};

use serde_json::Value;

use crate::approval::{ApprovalPolicy, ApprovalRequest, Decider, Decision, DecisionKind};
use crate::context::ContextConfig;
use crate::event::writer::TraceWriter;
use crate::event::{EventKind, Outcome, ResultFate, RunEvent, Status, Validation};
use crate::limits::{DeadlineMode, DeadlineScope, HistoryMode, Limits, RepeatDetector, StopMode};
use crate::message::{
    results_message, sent_result_id, text_of, tool_calls_of, ContentBlock, Media, Message, Role,
    ToolCall, ToolResult,
};
use crate::model::{ModelError, ModelRequest, ModelResponse, Pricing, StopKind};
use crate::tool::{cap_result, result_text, ToolFailure, ToolOutput, ToolRegistry};
use crate::tool_choice::ToolChoice;
use crate::verify::{RanOk, Verifier};

use crate::event::stop_cause::NO_REASON_GIVEN;
pub use crate::event::stop_cause::{usd, Activity, RetryEnd, StopCause};
use meter::Meter;

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
    pub context: ContextConfig,
    pub pricing: Pricing,
    pub approval: ApprovalPolicy,
    pub verifier: Verifier,
    pub tools: ToolRegistry,
    /// Sent with every model request (see `tool_choice`).
    pub tool_choice: ToolChoice,
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
    /// The `compact` strategy's summary request is out (`context_gate.rs`).
    Compacting,
    Backoff {
        attempt: u32,
        ms: u64,
    },
    /// Working through the tool calls of the current turn.
    Calls,
    AwaitingApproval {
        request: ApprovalRequest,
    },
    /// A call cleared to run that has not started: step mode may still hold
    /// it back, and its latency is counted only from when it starts.
    ToolQueued {
        invocation: ToolInvocation,
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
    /// The trace, written as the run goes and drained by the driver.
    trace: TraceWriter,
    turns: u32,
    tool_calls: u32,
    meter: Meter,
    /// Why the run stopped, once it has; the trace carries it as a sentence.
    stop_cause: Option<StopCause>,
    repeats: Option<RepeatDetector>,
    /// Where this run's zero lies on the runtime's clock (for a shared deadline).
    clock_origin_ms: f64,
    /// Added to event times: a fork's events continue its parent's timeline.
    t_offset_ms: f64,
    /// Step mode: pause before each model call and tool call until `resume`.
    step_mode: bool,
    step_granted: bool,
    /// Step mode is holding the run for a person (a `Paused` step is out).
    paused: bool,
    always_allowed: HashSet<String>,
    tools_run_ok: RanOk,
    /// The context gate's own state (`context_gate.rs`).
    gate: context_gate::GateState,
}

impl Run {
    pub fn new(config: RunConfig) -> Run {
        let meter = Meter::new(config.pricing, &config.system, &config.tools);
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
            trace: TraceWriter::new(),
            turns: 0,
            tool_calls: 0,
            meter,
            stop_cause: None,
            repeats,
            clock_origin_ms: 0.0,
            t_offset_ms: 0.0,
            step_mode: false,
            step_granted: false,
            paused: false,
            always_allowed: HashSet::new(),
            tools_run_ok: RanOk::default(),
            gate: context_gate::GateState::default(),
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

    /// Why the run stopped, with its numbers; `None` while it runs.
    pub fn stop_cause(&self) -> Option<&StopCause> {
        self.stop_cause.as_ref()
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
        self.trace.drain()
    }

    /// The request for the pending model call. It borrows the history.
    pub fn model_request(&self) -> ModelRequest<'_> {
        if let Some(request) = self.compaction_request() {
            return request;
        }
        ModelRequest {
            turn: self.turns,
            system: &self.config.system,
            messages: &self.messages,
            tools: self.config.tools.specs(),
            tool_choice: &self.config.tool_choice,
            max_output_tokens: self.config.limits.max_output_tokens,
            estimated_input_tokens: self.meter.estimated_input_tokens(),
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
                    if let Some(cause) = self.preflight_stop() {
                        self.finish(cause, now_ms);
                        continue;
                    }
                    // The strategy edits the history (or asks for a summary)
                    // before the pause, so step mode shows the request as sent.
                    if let Some(step) = self.context_gate(now_ms) {
                        return step;
                    }
                    if matches!(self.phase, Phase::Finished(_)) {
                        continue;
                    }
                    if self.step_mode && !std::mem::take(&mut self.step_granted) {
                        self.paused = true;
                        return Step::Paused(PauseBefore::ModelCall {
                            turn: self.turns + 1,
                        });
                    }
                    self.turns += 1;
                    self.send_model_request(1, now_ms);
                    return Step::CallModel;
                }
                Phase::AwaitingModel { .. } | Phase::Compacting => return Step::CallModel,
                Phase::Backoff { ms, .. } => return Step::Sleep { ms: *ms },
                Phase::Calls => match self.pending_calls.pop_front() {
                    Some(call) => self.handle_call(call, now_ms),
                    None => {
                        self.flush_results();
                        self.phase = Phase::Ready;
                    }
                },
                Phase::AwaitingApproval { request } => return Step::AwaitApproval(request.clone()),
                Phase::ToolQueued { invocation } => {
                    if self.step_mode && !self.step_granted {
                        self.paused = true;
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
                }
                Phase::AwaitingTool { invocation, .. } => return Step::RunTool(invocation.clone()),
                Phase::Finished(outcome) => return Step::Finished(outcome.clone()),
            }
        }
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
                context: self.config.context.clone(),
                task: self.config.task.clone(),
            },
        );
        let task = Message::user_text(self.config.task.clone());
        self.push_message(task);
        self.phase = Phase::Ready;
    }

    /// The checks made before each model call, in the order seed 000 makes them.
    fn preflight_stop(&self) -> Option<StopCause> {
        let limits = &self.config.limits;
        if self.turns >= limits.max_turns {
            return Some(StopCause::TurnLimit {
                turns: self.turns,
                max_turns: limits.max_turns,
            });
        }
        self.meter.stop_before_call(limits, self.turns)
    }

    fn send_model_request(&mut self, attempt: u32, now_ms: f64) {
        self.gate.attempt = attempt;
        let estimated_input_tokens = self.meter.estimated_input_tokens();
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

    /// Takes in a model turn: records it, then stops the run, runs its tool
    /// calls, or continues, as its stop reason and the limits decide.
    pub fn feed_model_response(&mut self, response: ModelResponse, now_ms: f64) {
        if let Phase::Compacting = self.phase {
            return self.take_summary(response, now_ms);
        }
        self.take_model_turn(response, false, now_ms);
    }

    /// Takes in a turn a person wrote in the model's place ("Answer as the
    /// model"), after `model_request` was emitted for it. The run treats it
    /// exactly as a model's turn, and the trace marks it `by_person`. A
    /// person's turn has no provider count, so its usage is the harness's
    /// estimate, as for a scripted response without `usage`: the request's
    /// estimated input and the turn's own characters as output.
    pub fn feed_person_model_response(&mut self, mut response: ModelResponse, now_ms: f64) {
        if let Phase::Compacting = self.phase {
            return self.take_summary(response, now_ms);
        }
        let output_chars: usize = response.content.iter().map(ContentBlock::char_len).sum();
        response.usage = crate::model::Usage {
            input_tokens: self.meter.estimated_input_tokens(),
            output_tokens: crate::model::estimate_tokens(output_chars),
        };
        self.take_model_turn(response, true, now_ms);
    }

    fn take_model_turn(&mut self, response: ModelResponse, by_person: bool, now_ms: f64) {
        let Phase::AwaitingModel { since_ms, .. } = self.phase else {
            return;
        };
        let text = text_of(&response.content);
        self.record_response(&response, &text, since_ms, by_person, now_ms);
        let ModelResponse {
            content,
            stop_reason,
            usage,
        } = response;
        let calls: VecDeque<ToolCall> = tool_calls_of(&content).cloned().collect();
        self.record_assistant_turn(content, usage.total());
        if let Some(cause) = self
            .meter
            .stop_after_response(&self.config.limits, self.turns)
        {
            return self.finish(cause, now_ms);
        }
        self.follow_stop_reason(stop_reason, calls, text, now_ms);
    }

    /// Charges the response and emits its `model_response` event.
    fn record_response(
        &mut self,
        response: &ModelResponse,
        text: &str,
        since_ms: f64,
        by_person: bool,
        now_ms: f64,
    ) {
        let cost_usd = self.meter.charge(response.usage);
        self.emit(
            now_ms,
            EventKind::ModelResponse {
                turn: self.turns,
                text: text.to_string(),
                content: response.content.clone(),
                stop_reason: response.stop_reason.clone(),
                usage: response.usage,
                cost_usd,
                latency_ms: elapsed(since_ms, now_ms),
                by_person,
            },
        );
    }

    /// What the provider's stop reason means here. Under `stop_mode: naive`
    /// a turn without calls counts as a normal end whatever stopped it (the
    /// pitfall on purpose); the second value says the override happened.
    fn classify_stop(&self, stop_reason: &str, has_calls: bool) -> (StopKind, bool) {
        let kind = StopKind::classify(stop_reason);
        let naive_stop = self.config.limits.stop_mode == StopMode::Naive
            && !has_calls
            && kind != StopKind::EndTurn;
        if naive_stop {
            (StopKind::EndTurn, true)
        } else {
            (kind, false)
        }
    }

    /// Acts on a recorded turn by what its stop reason means.
    fn follow_stop_reason(
        &mut self,
        stop_reason: String,
        calls: VecDeque<ToolCall>,
        text: String,
        now_ms: f64,
    ) {
        let (kind, naive_stop) = self.classify_stop(&stop_reason, !calls.is_empty());
        let turn = self.turns;
        match kind {
            StopKind::MaxTokens => {
                let max_output_tokens = self.config.limits.max_output_tokens;
                let cause = StopCause::MaxTokens {
                    turn,
                    stop_reason,
                    max_output_tokens,
                };
                self.stop_in_turn(cause, calls, now_ms)
            }
            StopKind::Refusal => {
                self.stop_in_turn(StopCause::Refusal { turn, stop_reason }, calls, now_ms)
            }
            StopKind::ContextWindowExceeded => {
                self.window_exceeded_by_provider(stop_reason, calls, now_ms)
            }
            StopKind::Unknown => {
                let cause = StopCause::UnknownStopReason { turn, stop_reason };
                self.stop_in_turn(cause, calls, now_ms)
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
                let cause = StopCause::ToolUseWithoutCalls { turn, stop_reason };
                self.finish(cause, now_ms)
            }
            StopKind::EndTurn => {
                let cause = self.judge_answer(&text, stop_reason, naive_stop);
                self.finish(cause, now_ms)
            }
        }
    }

    /// Ends the run in a cut-off or refused turn. Its calls are not run, but
    /// `finish` answers them so the history stays a valid conversation.
    fn stop_in_turn(&mut self, cause: StopCause, calls: VecDeque<ToolCall>, now_ms: f64) {
        self.pending_calls = calls;
        self.finish(cause, now_ms);
    }

    /// A turn that ended normally: only text the verifier accepts is an answer.
    fn judge_answer(&self, text: &str, stop_reason: String, naive_stop: bool) -> StopCause {
        let turn = self.turns;
        if text.trim().is_empty() {
            return StopCause::EmptyAnswer { turn, stop_reason };
        }
        match self.config.verifier.verify(text, &self.tools_run_ok) {
            Ok(()) => StopCause::FinalAnswer {
                turn,
                verified: !self.config.verifier.is_empty(),
                taken_as_final: naive_stop.then_some(stop_reason),
            },
            Err(why) => StopCause::VerifierRejected { why },
        }
    }

    pub fn feed_model_error(&mut self, error: ModelError, now_ms: f64) {
        if let Phase::Compacting = self.phase {
            return self.summary_failed(error, now_ms);
        }
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
        let retries = if error.is_retryable() {
            RetryEnd::GaveUp {
                attempts: attempt,
                max_retries: self.config.limits.max_retries,
            }
        } else {
            RetryEnd::NotRetryable
        };
        let cause = StopCause::ModelFailed {
            turn: self.turns,
            error,
            retries,
        };
        self.finish(cause, now_ms);
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

    /// Takes the next call of the turn: records it, stops the run if a limit
    /// refuses it, answers it if it is invalid, and otherwise clears it to
    /// run or asks for approval.
    fn handle_call(&mut self, call: ToolCall, now_ms: f64) {
        self.tool_calls += 1;
        let checked = self.record_tool_call(&call, now_ms);
        if let Some(max) = self.config.limits.max_tool_calls {
            if self.tool_calls > max {
                let cause = StopCause::ToolCallLimit {
                    call: self.tool_calls,
                    tool: call.name.clone(),
                    max,
                };
                return self.refuse_and_stop(&call, cause, now_ms);
            }
        }
        let repeated = self.repeats.as_mut().and_then(|detector| {
            detector.record(&call.name, &call.input, call.input_raw.as_deref())
        });
        if let Some(pattern) = repeated {
            let cause = StopCause::RepeatedCall { pattern };
            return self.refuse_and_stop(&call, cause, now_ms);
        }
        let needs_approval = match checked {
            Err(rejection) => {
                let answer = ToolAnswer::not_run(
                    &call.id,
                    &call.name,
                    rejection.message,
                    ResultFate::Invalid,
                );
                return self.answer(answer, now_ms);
            }
            Ok(needs) => needs,
        };
        let invocation = ToolInvocation {
            call_id: call.id,
            name: call.name,
            args: call.input,
        };
        if needs_approval {
            self.apply_approval_policy(invocation, now_ms);
        } else {
            self.await_tool(invocation);
        }
    }

    /// A call that needs approval: the policy decides, or the run asks.
    fn apply_approval_policy(&mut self, invocation: ToolInvocation, now_ms: f64) {
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
                let cause = StopCause::PolicyDenied {
                    tool: invocation.name.clone(),
                };
                self.record_decision(
                    &invocation,
                    DecisionKind::DenyAndStop,
                    Decider::Policy,
                    None,
                    None,
                    now_ms,
                );
                let text = format!("denied: {cause}");
                let answer = ToolAnswer::not_run(
                    &invocation.call_id,
                    &invocation.name,
                    text,
                    ResultFate::Denied,
                );
                self.answer(answer, now_ms);
                self.finish(cause, now_ms)
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
        let (validation, needs_approval, unchecked) = match &checked {
            Ok(needs) => (
                Validation::Valid,
                *needs,
                self.config.tools.unchecked(&call.name).to_vec(),
            ),
            Err(rejection) => (rejection.validation.clone(), false, Vec::new()),
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
                unchecked,
                needs_approval,
            },
        );
        checked
    }

    /// Answers a call that a limit refuses, then ends the run with that limit.
    fn refuse_and_stop(&mut self, call: &ToolCall, cause: StopCause, now_ms: f64) {
        let text = format!("not run: {cause}");
        let answer = ToolAnswer::not_run(&call.id, &call.name, text, ResultFate::OverLimit);
        self.answer(answer, now_ms);
        self.finish(cause, now_ms);
    }

    /// Applies a decision made `by` a person, there and then or before the
    /// run (`Decider::Setting`). Edited arguments that break the tool's schema
    /// are refused with the reason, and the run keeps waiting for a decision.
    pub fn feed_decision(
        &mut self,
        decision: Decision,
        by: Decider,
        now_ms: f64,
    ) -> Result<(), DecisionError> {
        let Phase::AwaitingApproval { request } = &self.phase else {
            return Err(DecisionError::NotWaiting);
        };
        let mut invocation = ToolInvocation {
            call_id: request.call_id.clone(),
            name: request.tool.clone(),
            args: request.args.clone(),
        };
        let kind = decision.kind();
        match decision {
            Decision::Approve => {
                self.record_decision(&invocation, kind, by, None, None, now_ms);
                self.await_tool(invocation);
            }
            Decision::AlwaysAllow => {
                self.always_allowed.insert(invocation.name.clone());
                self.record_decision(&invocation, kind, by, None, None, now_ms);
                self.await_tool(invocation);
            }
            Decision::ApproveEdited(args) => {
                if let Some(tool) = self.config.tools.get(&invocation.name) {
                    self.config
                        .tools
                        .check_args(tool, &args)
                        .map_err(|rejection| DecisionError::EditedArguments(rejection.message))?;
                }
                self.record_decision(&invocation, kind, by, None, Some(args.clone()), now_ms);
                invocation.args = args;
                self.await_tool(invocation);
            }
            Decision::Deny { reason } => {
                self.record_decision(&invocation, kind, by, reason.clone(), None, now_ms);
                let text = denial_text(by, reason.as_deref());
                let answer = ToolAnswer::not_run(
                    &invocation.call_id,
                    &invocation.name,
                    text,
                    ResultFate::Denied,
                );
                self.answer(answer, now_ms);
                self.phase = Phase::Calls;
            }
            Decision::DenyAndStop { reason } => {
                self.record_decision(&invocation, kind, by, reason.clone(), None, now_ms);
                let text = denial_text(by, reason.as_deref());
                let answer = ToolAnswer::not_run(
                    &invocation.call_id,
                    &invocation.name,
                    text,
                    ResultFate::Denied,
                );
                self.answer(answer, now_ms);
                self.phase = Phase::Calls;
                let cause = StopCause::UserDeniedAndStopped {
                    tool: invocation.name,
                    why: reason,
                };
                self.finish(cause, now_ms);
            }
        }
        Ok(())
    }

    /// No approver exists for a call that needs one (e.g. the CLI without `--approve`).
    pub fn feed_no_approver(&mut self, now_ms: f64) {
        if let Phase::AwaitingApproval { request } = &self.phase {
            let cause = StopCause::NoApprover {
                tool: request.tool.clone(),
            };
            self.finish(cause, now_ms);
        }
    }

    pub fn feed_tool_result(&mut self, result: Result<Value, String>, now_ms: f64) {
        self.feed_tool_output(
            result.map(ToolOutput::from).map_err(ToolFailure::Error),
            now_ms,
        );
    }

    /// `feed_tool_result` with the parts of the result that are not text
    /// (`ToolHandler::answer`), which the trace and the model's request carry.
    pub fn feed_tool_output(&mut self, result: Result<ToolOutput, ToolFailure>, now_ms: f64) {
        let (result, fate) = match result {
            Ok(output) => (Ok(output), ResultFate::Ran),
            Err(ToolFailure::Error(message)) => (Err(message), ResultFate::Ran),
            // The tool never finished: the tally counts it cut short.
            Err(ToolFailure::TimedOut(message)) => (Err(message), ResultFate::TimedOut),
            // It never started: refused, as a tool that is not there is.
            Err(ToolFailure::NotRun(message)) => (Err(message), ResultFate::Invalid),
        };
        self.take_tool_result(result, fate, now_ms);
    }

    /// Takes in a result a person typed in the tool's place ("Answer as the
    /// tool"): the handler never ran, and the trace marks it `by_person`.
    /// Otherwise it is a tool's result: an error reads "tool error: …" and
    /// a value is capped by `max_result_chars`, as the model would get them.
    pub fn feed_person_tool_result(&mut self, result: Result<Value, String>, now_ms: f64) {
        self.take_tool_result(result.map(ToolOutput::from), ResultFate::ByPerson, now_ms);
    }

    /// A result of the running tool (`Ran`, `TimedOut`) or a person's (`ByPerson`).
    fn take_tool_result(
        &mut self,
        result: Result<ToolOutput, String>,
        fate: ResultFate,
        now_ms: f64,
    ) {
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
        let (text, is_error, media) = match result {
            Ok(output) => {
                self.tools_run_ok
                    .record(&self.config.verifier, &name, &invocation.args);
                let (text, capped) = cap_result(
                    result_text(&output.value),
                    self.config.limits.max_result_chars,
                );
                (text, capped, output.media)
            }
            Err(message) => (format!("tool error: {message}"), true, Vec::new()),
        };
        let answer = ToolAnswer {
            id: &id,
            name: &name,
            content: text,
            is_error,
            latency_ms: latency,
            state,
            by_person: fate == ResultFate::ByPerson,
            fate,
            media,
        };
        self.answer(answer, now_ms);
        self.phase = Phase::Calls;
    }

    /// The tool ran past `tool_timeout_ms` and was abandoned.
    pub fn feed_tool_timeout(&mut self, now_ms: f64) {
        let ms = self.config.limits.tool_timeout_ms.unwrap_or(0);
        let message =
            format!("the tool did not finish within {ms} ms (tool_timeout_ms) and was stopped");
        if let Phase::AwaitingTool { .. } = self.phase {
            self.take_tool_result(Err(message), ResultFate::TimedOut, now_ms);
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
        self.cancel_by_signal(None, now_ms);
    }

    /// The run was stopped: by a person (`None`), or by the signal a
    /// command-line run received ("SIGTERM"), which its reason names.
    pub fn cancel_by_signal(&mut self, signal: Option<String>, now_ms: f64) {
        if matches!(self.phase, Phase::Finished(_)) {
            return;
        }
        let cause = StopCause::Cancelled {
            turns: self.turns,
            during: self.activity(),
            signal,
        };
        self.finish(cause, now_ms);
    }

    fn finish_deadline(&mut self, now_ms: f64) {
        let limits = &self.config.limits;
        let cause = StopCause::Deadline {
            deadline_ms: limits.deadline_ms.unwrap_or(0),
            at_ms: now_ms as u64,
            during: self.activity(),
            shared_since_ms: (limits.deadline_scope == DeadlineScope::Shared)
                .then_some(self.clock_origin_ms as u64),
            checked_between_steps: limits.deadline_mode == DeadlineMode::BetweenSteps,
        };
        self.finish(cause, now_ms);
    }

    /// What the run was doing, for stop reasons.
    fn activity(&self) -> Activity {
        match &self.phase {
            Phase::ToolQueued { invocation } if self.paused => Activity::PausedBeforeTool {
                tool: invocation.name.clone(),
            },
            Phase::Ready if self.paused => Activity::PausedBeforeModel {
                turn: self.turns + 1,
            },
            Phase::AwaitingModel { .. } => Activity::WaitingForModel { turn: self.turns },
            Phase::Compacting => Activity::WaitingForModel {
                turn: self.turns + 1,
            },
            Phase::Backoff { .. } => Activity::WaitingToRetry { turn: self.turns },
            Phase::ToolQueued { invocation } | Phase::AwaitingTool { invocation, .. } => {
                Activity::ToolRunning {
                    tool: invocation.name.clone(),
                }
            }
            Phase::AwaitingApproval { request } => Activity::WaitingForApproval {
                tool: request.tool.clone(),
            },
            _ => Activity::BetweenTurns {
                next_turn: self.turns + 1,
            },
        }
    }

    /// Queues a tool run; its clock starts when it really starts (after any pause).
    fn await_tool(&mut self, invocation: ToolInvocation) {
        self.phase = Phase::ToolQueued { invocation };
    }

    /// Turns step mode on or off; takes effect at the next model or tool call.
    pub fn set_step_mode(&mut self, on: bool) {
        self.step_mode = on;
    }

    /// Lets a paused run take its next step.
    pub fn resume(&mut self) {
        self.step_granted = true;
        self.paused = false;
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
    fn answer(&mut self, answer: ToolAnswer<'_>, now_ms: f64) {
        // The trace and the history carry the id the result is sent under,
        // which a `results_mode` that reproduces a harness bug makes up.
        let id = sent_result_id(
            self.config.limits.results_mode,
            self.turn_results.len(),
            answer.id,
        );
        self.emit(
            now_ms,
            EventKind::ToolResult {
                id: id.clone(),
                name: answer.name.to_string(),
                content: answer.content.clone(),
                is_error: answer.is_error,
                latency_ms: answer.latency_ms,
                state: answer.state,
                by_person: answer.by_person,
                fate: Some(answer.fate),
                media: answer.media.clone(),
            },
        );
        self.turn_results.push(ContentBlock::ToolResult(ToolResult {
            tool_use_id: id,
            content: answer.content,
            is_error: answer.is_error,
            media: answer.media,
        }));
    }

    fn finish(&mut self, cause: StopCause, now_ms: f64) {
        let status = cause.status();
        let reason = cause.to_string();
        self.answer_cut_short(status, &reason, now_ms);
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
            cause: Some(cause.clone()),
            turns: self.turns,
            tool_calls: self.tool_calls,
            calls: Some(self.trace.tally().counts_at_end()),
            input_tokens: self.meter.input_tokens(),
            output_tokens: self.meter.output_tokens(),
            cost_usd: self.meter.cost_usd(),
            elapsed_ms: (now_ms + self.t_offset_ms).max(0.0) as u64,
            answer,
        };
        self.emit(now_ms, EventKind::RunFinished(outcome.clone()));
        self.pending_calls.clear();
        self.stop_cause = Some(cause);
        self.phase = Phase::Finished(outcome);
    }

    /// Answers every call the stop came before or during, so the trace and
    /// the history stay complete (every tool_use has its one result) for
    /// anyone who continues the conversation or sends it to a provider.
    fn answer_cut_short(&mut self, status: Status, reason: &str, now_ms: f64) {
        // A call the harness had taken up: cut short if its tool was
        // running, else it never started (held for approval or by step mode).
        let interrupted = match &self.phase {
            Phase::ToolQueued { invocation } => {
                Some((invocation.call_id.clone(), invocation.name.clone(), None))
            }
            Phase::AwaitingTool {
                invocation,
                since_ms,
            } => Some((
                invocation.call_id.clone(),
                invocation.name.clone(),
                Some(elapsed(*since_ms, now_ms)),
            )),
            Phase::AwaitingApproval { request } => {
                Some((request.call_id.clone(), request.tool.clone(), None))
            }
            _ => None,
        };
        if let Some((id, name, running_ms)) = interrupted {
            let answer = match running_ms {
                Some(latency_ms) => ToolAnswer {
                    latency_ms,
                    ..ToolAnswer::not_run(
                        &id,
                        &name,
                        format!("not run to completion: the run stopped ({status}: {reason})"),
                        ResultFate::CutShort,
                    )
                },
                None => ToolAnswer::not_run(
                    &id,
                    &name,
                    format!(
                        "not run: the run stopped before this call started ({status}: {reason})"
                    ),
                    ResultFate::StoppedBeforeStart,
                ),
            };
            self.answer(answer, now_ms);
        }
        let leftover: Vec<ToolCall> = self.pending_calls.drain(..).collect();
        for call in leftover {
            let _ = self.record_tool_call(&call, now_ms);
            let text = format!("not run: the run stopped before this call ({status})");
            let answer = ToolAnswer::not_run(&call.id, &call.name, text, ResultFate::NotReached);
            self.answer(answer, now_ms);
        }
    }

    /// Appends the model's turn to the history (as `history_mode` keeps it) and
    /// recalibrates the input estimate with the tokens the provider counted.
    fn record_assistant_turn(&mut self, mut content: Vec<ContentBlock>, usage_total: u64) {
        if self.config.limits.history_mode == HistoryMode::TextOnly {
            content.retain(|block| !matches!(block, ContentBlock::Thinking { .. }));
        }
        // A turn that brought nothing back (a provider that stopped before
        // writing, e.g. a full context window) adds no message: providers
        // refuse an empty assistant message. `wire::history` skips it too.
        if !content.is_empty() {
            self.push_message(Message {
                role: Role::Assistant,
                content,
            });
        }
        self.meter.calibrate(usage_total);
    }

    /// Sends the gathered results of a turn back as one user message.
    fn flush_results(&mut self) {
        let results = std::mem::take(&mut self.turn_results);
        let message = results_message(results, self.config.limits.results_mode);
        self.push_message(message);
    }

    fn push_message(&mut self, message: Message) {
        self.meter.add_history_chars(message.char_len());
        self.messages.push(message);
    }

    fn emit(&mut self, now_ms: f64, kind: EventKind) {
        let t_ms = (now_ms + self.t_offset_ms).max(0.0) as u64;
        self.trace.push(t_ms, kind);
    }
}

/// A tool_result as the model and the trace receive it.
struct ToolAnswer<'a> {
    id: &'a str,
    name: &'a str,
    content: String,
    is_error: bool,
    latency_ms: u64,
    /// The tool's store after the call, for the trace only.
    state: Option<Value>,
    /// A person typed it in the tool's place.
    by_person: bool,
    fate: ResultFate,
    /// The result's parts that are not text.
    media: Vec<Media>,
}

impl<'a> ToolAnswer<'a> {
    /// The answer to a call that did not run (or not to its end): refused,
    /// denied or cut off, as `fate` says.
    fn not_run(id: &'a str, name: &'a str, content: String, fate: ResultFate) -> ToolAnswer<'a> {
        ToolAnswer {
            id,
            name,
            content,
            is_error: true,
            latency_ms: 0,
            state: None,
            by_person: false,
            fate,
            media: Vec::new(),
        }
    }
}

/// The tool_result a refused call gets. Only a person who saw the request
/// is "the user"; a setting made before the run is worded like the policy,
/// since nobody saw the call (scripted branches read both as denials).
fn denial_text(by: Decider, reason: Option<&str>) -> String {
    let why = reason.unwrap_or(NO_REASON_GIVEN);
    match by {
        Decider::User => format!("denied by the user: {why}"),
        Decider::Policy | Decider::AlwaysAllow | Decider::Setting => format!("denied: {why}"),
    }
}

fn elapsed(since_ms: f64, now_ms: f64) -> u64 {
    (now_ms - since_ms).max(0.0) as u64
}

/// Why a person's decision on a waiting call was not taken; the run keeps
/// waiting, and the approver is asked again with this sentence.
#[derive(Clone, Debug, PartialEq)]
pub enum DecisionError {
    /// No call is waiting for a decision.
    NotWaiting,
    /// The edited arguments break the tool's schema: the check's own words,
    /// which name the argument and the rule.
    EditedArguments(String),
}

impl DecisionError {
    /// Both are the approver's to put right: decide when a call waits, or
    /// edit the arguments until the schema takes them.
    pub fn fixed_by(&self) -> crate::fixed_by::FixedBy {
        crate::fixed_by::FixedBy::TheCaller
    }
}

impl std::fmt::Display for DecisionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecisionError::NotWaiting => f.write_str("no call is waiting for a decision"),
            DecisionError::EditedArguments(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DecisionError {}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::instant::drive_instantly;
    use crate::runtime::TokioRuntime;
    use crate::scenario::Scenario;

    #[test]
    fn the_run_keeps_the_typed_cause_of_the_reason_it_emitted() {
        let json = serde_json::json!({
            "name": "two tool turns, one allowed",
            "task": "Count.",
            "tools": [{"name": "tick", "description": "Returns ok.", "input_schema": {"type": "object"}, "result": {"ok": true}}],
            "limits": {"max_turns": 1},
            "model": {"type": "scripted", "loop_from": 0, "responses": [
                {"tool_calls": [{"name": "tick", "args": {}}]}
            ]}
        });
        let scenario = Scenario::load(&json.to_string()).expect("loads");
        let (config, model) = scenario
            .build(Rc::new(TokioRuntime::default()))
            .expect("builds");
        let mut run = Run::new(config);
        assert_eq!(run.stop_cause(), None);
        let outcome = drive_instantly(&mut run, model.as_ref(), &|| 0.0, &mut |_| {});
        let cause = run.stop_cause().expect("a finished run has a cause");
        assert_eq!(
            cause,
            &StopCause::TurnLimit {
                turns: 1,
                max_turns: 1
            }
        );
        assert_eq!(outcome.status, cause.status());
        assert_eq!(outcome.reason, cause.to_string());
        assert_eq!(
            outcome.reason,
            "made 1 of max 1 model calls (max_turns) and the model still wanted to continue"
        );
    }

    #[test]
    fn a_decision_with_no_call_waiting_is_refused_and_says_so() {
        let json = serde_json::json!({
            "name": "n", "task": "t",
            "model": {"type": "scripted", "responses": [{"text": "done"}]}
        });
        let scenario = Scenario::load(&json.to_string()).expect("loads");
        let (config, _model) = scenario
            .build(Rc::new(TokioRuntime::default()))
            .expect("builds");
        let mut run = Run::new(config);
        let refused = run
            .feed_decision(Decision::Approve, Decider::User, 0.0)
            .unwrap_err();
        assert_eq!(refused, DecisionError::NotWaiting);
        assert_eq!(refused.to_string(), "no call is waiting for a decision");
        assert_eq!(refused.fixed_by(), crate::fixed_by::FixedBy::TheCaller);
    }
}
