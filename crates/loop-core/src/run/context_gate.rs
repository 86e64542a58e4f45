//! The context gate: before each model call, the request's estimated input
//! against the scenario's `context` (see `crate::context`).
//!
//! Past the trigger the strategy acts once per turn, and each action is one
//! `context_edited` event. A request that still cannot fit the window
//! (input plus `max_output_tokens`) is not sent: the run ends
//! `context_limit`. `compact` needs the model: the gate sends the history
//! plus a fixed instruction as a request of its own (`Phase::Compacting`,
//! not a turn), and the run continues from the task and the summary.
//!
//! A provider's own `model_context_window_exceeded` comes here too: it ends
//! the run `context_limit`, or, under `compact`, forces a compaction, or,
//! under `on_window_exceeded: retry`, resends the same history (the pitfall).

use std::collections::VecDeque;

use super::{Phase, Run, Step, RETRY_BASE_MS, RETRY_CAP_MS};
use crate::context::{self, ContextEdit, OnWindowExceeded, Strategy, COMPACT_INSTRUCTION};
use crate::event::stop_cause::{RetryEnd, StopCause};
use crate::event::EventKind;
use crate::message::{text_of, ContentBlock, Message, Role, ToolCall};
use crate::model::{ModelError, ModelRequest, ModelResponse};

#[derive(Default)]
pub(super) struct GateState {
    /// The turn the gate last ran for: a strategy acts at most once a turn.
    gated_turn: Option<u32>,
    /// The provider said the window is full: compact whatever the trigger.
    force_compact: bool,
    /// Model turns already dropped or compacted, to number the next ones.
    turns_gone: u32,
    /// The attempt of the request out now (1, then 2 for the first retry).
    pub(super) attempt: u32,
    /// The summary request while `Phase::Compacting`.
    compaction: Option<Compaction>,
}

struct Compaction {
    request: Vec<Message>,
    estimated_input_tokens: u64,
    tokens_before: u64,
    /// Messages after the task the summary replaces.
    messages: usize,
}

impl Run {
    /// Runs the gate for the next turn. Returns `CallModel` when the
    /// summary request must go out first; may finish the run `context_limit`.
    pub(super) fn context_gate(&mut self, now_ms: f64) -> Option<Step> {
        let next_turn = self.turns + 1;
        let context = &self.config.context;
        let max_output = self.config.limits.max_output_tokens;
        let first_look = self.gate.gated_turn != Some(next_turn);
        if first_look || self.gate.force_compact {
            self.gate.gated_turn = Some(next_turn);
            let forced = std::mem::take(&mut self.gate.force_compact);
            let before = self.meter.estimated_input_tokens();
            let trigger = context.trigger(max_output);
            let over = forced || trigger.is_some_and(|t| before > t);
            if over {
                match context.strategy {
                    Strategy::None => {}
                    Strategy::ClearToolResults => {
                        if let Some(edit) = context::plan_clear(&self.messages, context) {
                            self.apply_edit(edit, before, now_ms);
                        }
                    }
                    Strategy::DropOldestTurns => {
                        let target = trigger.unwrap_or(0);
                        let meter = &self.meter;
                        let fits = |rest: &[Message]| {
                            let chars = rest.iter().map(Message::char_len).sum();
                            meter.estimate_for(chars) <= target
                        };
                        let keep_pairs = context.keeps_pairs();
                        if let Some(edit) = context::plan_drop(&self.messages, keep_pairs, fits) {
                            self.apply_edit(edit, before, now_ms);
                        }
                    }
                    Strategy::Compact if self.messages.len() > 1 => {
                        self.start_compaction(before);
                        return Some(Step::CallModel);
                    }
                    Strategy::Compact => {}
                }
            }
        }
        let window = self.config.context.window_tokens?;
        let input_tokens = self.meter.estimated_input_tokens();
        let output_tokens = u64::from(max_output);
        if input_tokens.saturating_add(output_tokens) > window {
            let strategy = self.config.context.strategy;
            let cause = StopCause::ContextLimit {
                turn: next_turn,
                input_tokens,
                output_tokens,
                window_tokens: window,
                strategy: (strategy != Strategy::None).then_some(strategy),
            };
            self.finish(cause, now_ms);
        }
        None
    }

    /// Makes `edit` on the history, recounts it, and emits its event.
    fn apply_edit(&mut self, edit: ContextEdit, tokens_before: u64, now_ms: f64) {
        let turn = self.turns + 1;
        let strategy = self.config.context.strategy;
        // Worded before the edit, while the messages it names are still there.
        let first = self.gate.turns_gone + 1;
        let words = match &edit {
            ContextEdit::Dropped { messages } | ContextEdit::Compacted { messages, .. } => {
                let (words, count) = context::turns_in(&self.messages, *messages, first);
                self.gate.turns_gone += count;
                words
            }
            ContextEdit::Cleared { .. } => String::new(),
        };
        edit.apply(&mut self.messages, &self.config.task);
        let chars = self.messages.iter().map(Message::char_len).sum();
        self.meter.reset_history(chars);
        let tokens_after = self.meter.estimated_input_tokens();
        let description = match &edit {
            ContextEdit::Cleared { results } => context::cleared_sentence(
                results,
                &self.config.context,
                tokens_before,
                tokens_after,
            ),
            ContextEdit::Dropped { .. } => context::dropped_sentence(
                &words,
                self.config.context.keeps_pairs(),
                tokens_before,
                tokens_after,
            ),
            ContextEdit::Compacted { .. } => {
                context::compacted_sentence(&words, tokens_before, tokens_after)
            }
        };
        self.emit(
            now_ms,
            EventKind::ContextEdited {
                turn,
                strategy,
                edit,
                tokens_before,
                tokens_after,
                description,
            },
        );
    }

    /// A fork's prefix edited the history: the same edit, no event, and the
    /// summary call's spending as it was charged then.
    pub(super) fn restore_edit(&mut self, edit: &ContextEdit) {
        if let ContextEdit::Dropped { messages } | ContextEdit::Compacted { messages, .. } = edit {
            let first = self.gate.turns_gone + 1;
            self.gate.turns_gone += context::turns_in(&self.messages, *messages, first).1;
        }
        if let ContextEdit::Compacted {
            usage, cost_usd, ..
        } = edit
        {
            self.meter.add_recorded(*usage, *cost_usd);
        }
        edit.apply(&mut self.messages, &self.config.task);
        let chars = self.messages.iter().map(Message::char_len).sum();
        self.meter.reset_history(chars);
        self.gate.gated_turn = Some(self.turns + 1);
    }

    /// Sends the history with the fixed instruction, for a summary.
    fn start_compaction(&mut self, tokens_before: u64) {
        let mut request = self.messages.clone();
        let instruction = ContentBlock::Text {
            text: COMPACT_INSTRUCTION.to_string(),
        };
        match request.last_mut() {
            // Results come first in their message; the instruction follows them.
            Some(last) if last.role == Role::User => last.content.push(instruction),
            _ => request.push(Message {
                role: Role::User,
                content: vec![instruction],
            }),
        }
        let chars = request.iter().map(Message::char_len).sum();
        self.gate.compaction = Some(Compaction {
            estimated_input_tokens: self.meter.estimate_for(chars),
            request,
            tokens_before,
            messages: self.messages.len() - 1,
        });
        self.phase = Phase::Compacting;
    }

    /// The summary request, while one is out.
    pub(super) fn compaction_request(&self) -> Option<ModelRequest<'_>> {
        let compaction = self.gate.compaction.as_ref()?;
        Some(ModelRequest {
            turn: self.turns,
            system: &self.config.system,
            messages: &compaction.request,
            tools: self.config.tools.specs(),
            // The summary is asked for in words whatever the run's choice:
            // a forced tool call would leave nothing to keep.
            tool_choice: &crate::tool_choice::ToolChoice::Auto,
            max_output_tokens: self.config.limits.max_output_tokens,
            estimated_input_tokens: compaction.estimated_input_tokens,
        })
    }

    /// The model's summary: the history becomes the task and the summary.
    pub(super) fn take_summary(&mut self, response: ModelResponse, now_ms: f64) {
        let Some(compaction) = self.gate.compaction.take() else {
            return;
        };
        let cost_usd = self.meter.charge(response.usage);
        let summary = text_of(&response.content);
        self.phase = Phase::Ready;
        if summary.trim().is_empty() {
            let cause = StopCause::EmptyAnswer {
                turn: self.turns + 1,
                stop_reason: response.stop_reason,
            };
            return self.finish(cause, now_ms);
        }
        let edit = ContextEdit::Compacted {
            messages: compaction.messages,
            summary,
            usage: response.usage,
            cost_usd,
        };
        self.apply_edit(edit, compaction.tokens_before, now_ms);
    }

    /// The summary request failed: the run stops, as for a failed turn.
    pub(super) fn summary_failed(&mut self, error: ModelError, now_ms: f64) {
        self.gate.compaction = None;
        self.phase = Phase::Ready;
        let cause = StopCause::ModelFailed {
            turn: self.turns + 1,
            error,
            retries: RetryEnd::SummaryNotRetried,
        };
        self.finish(cause, now_ms);
    }

    /// The provider stopped the turn with `model_context_window_exceeded`.
    pub(super) fn window_exceeded_by_provider(
        &mut self,
        stop_reason: String,
        calls: VecDeque<ToolCall>,
        now_ms: f64,
    ) {
        let attempt = self.gate.attempt.max(1);
        let context = &self.config.context;
        if calls.is_empty() && context.strategy == Strategy::Compact {
            self.gate.force_compact = true;
            self.phase = Phase::Ready;
            return;
        }
        let retry = calls.is_empty()
            && context.on_window_exceeded == OnWindowExceeded::Retry
            && attempt <= self.config.limits.max_retries;
        if retry {
            let ms = (RETRY_BASE_MS << (attempt - 1).min(16)).min(RETRY_CAP_MS);
            self.phase = Phase::Backoff { attempt, ms };
            return;
        }
        let cause = StopCause::ContextWindowExceeded {
            turn: self.turns,
            stop_reason,
            attempts: attempt,
        };
        self.stop_in_turn(cause, calls, now_ms);
    }
}
