//! The history a run sent, rebuilt from its trace, so the wire formats and
//! the checker can show and check the requests of a run that already
//! happened (the CLI's `wire` and `check` commands, the page's Wire panel).
//!
//! Job: the task, each `model_response`'s content, and its `tool_result`
//! events, in the shape the run itself built them, including how the run's
//! `history_mode` and `results_mode` changed what was really sent, and each
//! `context_edited` event's edit (cleared results, dropped turns, a summary).

use super::Thinking;
use crate::event::{EventKind, RunEvent};
use crate::message::{ContentBlock, Message, Role, ToolResult};

/// Rebuilds the history a run had from its trace: the task, each
/// `model_response`'s content, and its `tool_result` events (consecutive
/// results form one user message, as the run builds it).
pub fn history_from_trace(events: &[RunEvent]) -> Vec<Message> {
    let mut history = TraceHistory::default();
    for event in events {
        history.push(event);
    }
    history.finish()
}

/// Whether the run's requests asked for extended thinking: they did when
/// its model wrote a thinking block, as a model writes one only when the
/// request turns thinking on ("When extended thinking is turned on, Claude
/// creates `thinking` content blocks",
/// <https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking>),
/// and a run sends every request with the same settings. A history that
/// dropped the blocks (`history_mode: text_only`) no longer shows them, so
/// the trace's responses are read.
pub fn thinking_of_trace(events: &[RunEvent]) -> Thinking {
    let thought = events.iter().any(|event| match &event.kind {
        EventKind::ModelResponse { content, .. } => content
            .iter()
            .any(|block| matches!(block, ContentBlock::Thinking { .. })),
        _ => false,
    });
    if thought {
        Thinking::Enabled
    } else {
        Thinking::Off
    }
}

/// A history rebuilt one event at a time, so a caller that needs its length
/// at many points of a trace (`rejections`) walks the trace once.
#[derive(Default)]
pub struct TraceHistory {
    messages: Vec<Message>,
    // A run with `history_mode: text_only` sent its turns back without their
    // thinking; the rebuilt history must show what was really sent.
    text_only: bool,
    /// The task, which a compaction keeps ahead of the summary.
    task: String,
    results_mode: crate::limits::ResultsMode,
}

impl TraceHistory {
    /// Adds what `event` put in the history, if anything.
    pub fn push(&mut self, event: &RunEvent) {
        match &event.kind {
            EventKind::RunStarted { task, limits, .. } => {
                self.text_only = limits.history_mode == crate::limits::HistoryMode::TextOnly;
                self.results_mode = limits.results_mode;
                self.task = task.clone();
                self.messages.push(Message::user_text(task.clone()))
            }
            EventKind::ModelResponse { content, .. } => {
                let mut content = content.clone();
                if self.text_only {
                    content.retain(|block| !matches!(block, ContentBlock::Thinking { .. }));
                }
                // As the run: a turn that brought nothing back adds no message.
                if !content.is_empty() {
                    self.messages.push(Message {
                        role: Role::Assistant,
                        content,
                    })
                }
            }
            // A context strategy's edit, made as the run made it, so later
            // requests show what was really sent.
            EventKind::ContextEdited { edit, .. } => edit.apply(&mut self.messages, &self.task),
            EventKind::ToolResult {
                id,
                content,
                is_error,
                media,
                ..
            } => {
                let block = ContentBlock::ToolResult(ToolResult {
                    tool_use_id: id.clone(),
                    content: content.clone(),
                    is_error: *is_error,
                    media: media.clone(),
                });
                match self.messages.last_mut() {
                    Some(last)
                        if last.role == Role::User
                            && matches!(last.content.last(), Some(ContentBlock::ToolResult(_))) =>
                    {
                        last.content.push(block)
                    }
                    _ => self.messages.push(Message {
                        role: Role::User,
                        content: vec![block],
                    }),
                }
            }
            _ => {}
        }
    }

    /// How many messages the history holds so far; `finish` keeps the count.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// No event has put a message in the history yet.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// The history so far, as the run built it (before `finish` applies a
    /// `results_mode` that reproduces a harness bug).
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The history as it was sent.
    pub fn finish(mut self) -> Vec<Message> {
        // A run whose results_mode reproduces a harness bug sent its results
        // that way; the rebuilt history shows it, so the checker can catch it.
        for message in &mut self.messages {
            let is_results = message.role == Role::User
                && !message.content.is_empty()
                && message
                    .content
                    .iter()
                    .all(|b| matches!(b, ContentBlock::ToolResult(_)));
            if is_results {
                crate::message::apply_results_mode(message, self.results_mode);
            }
        }
        self.messages
    }
}
