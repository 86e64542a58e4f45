//! Restoring a run from a recorded prefix, for forks (`fork.rs`).
//!
//! Only forks need this, and it reads events rather than making decisions,
//! so it lives apart from the loop. It replays the prefix's effects on the
//! run's state — never calling the model or emitting anything — so that the
//! run continues exactly where the parent stood.

use std::collections::HashMap;

use serde_json::Value;

use crate::approval::DecisionKind;
use crate::error::RestoreError;
use crate::event::writer::TraceWriter;
use crate::event::{EventKind, RunEvent};
use crate::message::{tool_calls_of, ContentBlock, Message, ToolResult};
use crate::run::{Phase, Run};

/// How far the restored turn's tool calls have been answered, and the
/// arguments each runs with (an approval's edit, if it had one).
#[derive(Default)]
struct TurnProgress {
    calls: usize,
    answered: usize,
    args_by_id: HashMap<String, Value>,
}

impl Run {
    /// Puts a new run in the state an earlier run had just before `prefix`
    /// ended, without calling the model or emitting anything: the history,
    /// the counters, the repeat detector, "always allow" decisions and the
    /// calls of the current turn still to handle. The run then continues
    /// under this run's (possibly edited) configuration. `prefix` must end
    /// just before a model call or a tool call (see `fork::fork_points`).
    pub fn restore(&mut self, prefix: &[RunEvent]) -> Result<(), RestoreError> {
        if !matches!(self.phase, Phase::NotStarted) {
            return Err(RestoreError::AlreadyStarted);
        }
        let mut turn = TurnProgress::default();
        for event in prefix {
            self.restore_event(&event.kind, &mut turn)?;
        }
        if matches!(self.phase, Phase::NotStarted) {
            return Err(RestoreError::NoRunStarted);
        }
        self.trace = TraceWriter::after(prefix);
        self.t_offset_ms = prefix.last().map_or(0.0, |e| e.t_ms as f64);
        Ok(())
    }

    fn restore_event(
        &mut self,
        kind: &EventKind,
        turn: &mut TurnProgress,
    ) -> Result<(), RestoreError> {
        match kind {
            EventKind::RunStarted { task, .. } => {
                self.push_message(Message::user_text(task.clone()));
                self.phase = Phase::Ready;
            }
            EventKind::ModelRequest { turn: n, .. } => self.turns = *n,
            EventKind::ModelResponse {
                content,
                usage,
                cost_usd,
                ..
            } => {
                self.meter.add_recorded(*usage, *cost_usd);
                self.pending_calls = tool_calls_of(content).cloned().collect();
                *turn = TurnProgress {
                    calls: self.pending_calls.len(),
                    ..TurnProgress::default()
                };
                self.turn_results.clear();
                self.record_assistant_turn(content.clone(), usage.total());
                self.phase = if turn.calls > 0 {
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
                turn.args_by_id.insert(id.clone(), args.clone());
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
            EventKind::ApprovalDecided {
                id,
                args: Some(edited),
                ..
            } => {
                turn.args_by_id.insert(id.clone(), edited.clone());
            }
            EventKind::ToolResult {
                id,
                name,
                content,
                is_error,
                media,
                ..
            } => {
                if !is_error {
                    let args = turn.args_by_id.get(id).unwrap_or(&Value::Null);
                    self.tools_run_ok.record(&self.config.verifier, name, args);
                }
                self.turn_results.push(ContentBlock::ToolResult(ToolResult {
                    tool_use_id: id.clone(),
                    content: content.clone(),
                    is_error: *is_error,
                    media: media.clone(),
                }));
                turn.answered += 1;
                if turn.answered == turn.calls {
                    self.flush_results();
                    self.phase = Phase::Ready;
                }
            }
            EventKind::RunFinished(_) => return Err(RestoreError::IncludesFinish),
            EventKind::ContextEdited { edit, .. } => self.restore_edit(edit),
            EventKind::ModelError { .. }
            | EventKind::ApprovalRequested { .. }
            | EventKind::ApprovalDecided { .. } => {}
        }
        Ok(())
    }
}
