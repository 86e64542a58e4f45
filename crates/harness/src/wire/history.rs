//! The history a run sent, rebuilt from its trace, so the wire formats and
//! the checker can show and check the requests of a run that already
//! happened (the CLI's `wire` and `check` commands, the page's Wire panel).
//!
//! Job: the task, each `model_response`'s content, and its `tool_result`
//! events, in the shape the run itself built them, including how the run's
//! `history_mode` and `results_mode` changed what was really sent.

use crate::event::{EventKind, RunEvent};
use crate::message::{ContentBlock, Message, Role, ToolResult};

/// Rebuilds the history a run had from its trace: the task, each
/// `model_response`'s content, and its `tool_result` events (consecutive
/// results form one user message, as the run builds it).
pub fn history_from_trace(events: &[RunEvent]) -> Vec<Message> {
    let mut messages: Vec<Message> = Vec::new();
    // A run with `history_mode: text_only` sent its turns back without their
    // thinking; the rebuilt history must show what was really sent.
    let mut text_only = false;
    let mut results_mode = crate::limits::ResultsMode::Correct;
    for event in events {
        match &event.kind {
            EventKind::RunStarted { task, limits, .. } => {
                text_only = limits.history_mode == crate::limits::HistoryMode::TextOnly;
                results_mode = limits.results_mode;
                messages.push(Message::user_text(task.clone()))
            }
            EventKind::ModelResponse { content, .. } => {
                let mut content = content.clone();
                if text_only {
                    content.retain(|block| !matches!(block, ContentBlock::Thinking { .. }));
                }
                messages.push(Message {
                    role: Role::Assistant,
                    content,
                })
            }
            EventKind::ToolResult {
                id,
                content,
                is_error,
                ..
            } => {
                let block = ContentBlock::ToolResult(ToolResult {
                    tool_use_id: id.clone(),
                    content: content.clone(),
                    is_error: *is_error,
                });
                match messages.last_mut() {
                    Some(last)
                        if last.role == Role::User
                            && matches!(last.content.last(), Some(ContentBlock::ToolResult(_))) =>
                    {
                        last.content.push(block)
                    }
                    _ => messages.push(Message {
                        role: Role::User,
                        content: vec![block],
                    }),
                }
            }
            _ => {}
        }
    }
    // A run whose results_mode reproduces a harness bug sent its results
    // that way; the rebuilt history shows it, so the checker can catch it.
    for message in &mut messages {
        let is_results = message.role == Role::User
            && !message.content.is_empty()
            && message
                .content
                .iter()
                .all(|b| matches!(b, ContentBlock::ToolResult(_)));
        if is_results {
            crate::message::apply_results_mode(message, results_mode);
        }
    }
    messages
}
