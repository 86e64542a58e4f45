//! Which turns of a run each provider would have rejected: the protocol
//! checker run on a trace, each violation placed at the first turn whose
//! request carried it, and said in plain words.
//!
//! Job: a scripted run never meets a provider, so a history that breaks the
//! protocol still ends `done`. This says where a real provider would have
//! answered HTTP 400 instead, for a view beside the trace and the banner.
//!
//! How: a history only grows, and a violation's place never changes once its
//! message is in it, so checking the last request once finds every
//! violation; the first turn that carried one is the first request whose
//! history reaches the message it blames. That is one check and a binary
//! search per violation, not a check per turn, over the history's length
//! at each request, found in the same walk over the trace that rebuilds the
//! history (a 10,000-turn run stays n·log n).

use super::history::TraceHistory;
use super::{check, place, Provider, RequestShape, Violation};
use crate::event::{EventKind, RunEvent};
use crate::message::{ContentBlock, Message, Role};

/// One violation, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection {
    /// The first turn whose request carried it.
    pub turn: u32,
    pub violation: Violation,
    /// Where in that request, in plain words ("the 2nd message (assistant),
    /// its 2nd block, a tool_use"), when the checker knows.
    pub place: Option<String>,
}

/// Every violation the run's requests carried, in provider order, then in
/// wire order; empty for a run that sent no request or broke no rule.
pub fn rejections(shape: &RequestShape, events: &[RunEvent]) -> Vec<Rejection> {
    // Each turn's first request (a retry resends the same history).
    let requests: Vec<(u32, usize)> = events
        .iter()
        .enumerate()
        .filter_map(|(at, event)| match event.kind {
            EventKind::ModelRequest {
                turn, attempt: 1, ..
            } => Some((turn, at)),
            _ => None,
        })
        .collect();
    let Some(&(_, last)) = requests.last() else {
        return Vec::new();
    };
    // A context strategy edits the history, so it no longer only grows: a
    // violation may live in one request and be gone from the next.
    if events
        .iter()
        .any(|e| matches!(e.kind, EventKind::ContextEdited { .. }))
    {
        return each_request(shape, events, &requests);
    }
    let (history, lengths) = history_and_lengths(&events[..last], &requests);
    let mut found = Vec::new();
    for provider in Provider::ALL {
        for violation in check(provider, &shape.system, &history, &shape.tools) {
            // Blamed on no message (the tools list): every request carried it.
            let first = match violation.message_index {
                None => 0,
                Some(m) => lengths.partition_point(|&length| length <= m),
            };
            let turn = requests.get(first).map_or(requests[0].0, |&(turn, _)| turn);
            let place = violation
                .message_index
                .and_then(|m| plain_place(&history, m, violation.block_index));
            found.push(Rejection {
                turn,
                violation,
                place,
            });
        }
    }
    found
}

/// The history `events` rebuild, and how many messages it held when each
/// request (`(turn, event index)`, in trace order) was sent: one walk over
/// the trace, however many violations are then placed.
/// Every first-attempt request checked on its own; each violation is
/// reported once, at the first turn whose request carried it.
fn each_request(
    shape: &RequestShape,
    events: &[RunEvent],
    requests: &[(u32, usize)],
) -> Vec<Rejection> {
    let mut found: Vec<Rejection> = Vec::new();
    for &(turn, at) in requests {
        let history = super::history_from_trace(&events[..at]);
        for provider in Provider::ALL {
            for violation in check(provider, &shape.system, &history, &shape.tools) {
                let seen = found.iter().any(|r| {
                    r.violation.provider == provider && r.violation.message == violation.message
                });
                if seen {
                    continue;
                }
                let place = violation
                    .message_index
                    .and_then(|m| plain_place(&history, m, violation.block_index));
                found.push(Rejection {
                    turn,
                    violation,
                    place,
                });
            }
        }
    }
    found
}

fn history_and_lengths(
    events: &[RunEvent],
    requests: &[(u32, usize)],
) -> (Vec<Message>, Vec<usize>) {
    let mut history = TraceHistory::default();
    let mut lengths = Vec::with_capacity(requests.len());
    let mut next = requests.iter().map(|&(_, at)| at).peekable();
    for (at, event) in events.iter().enumerate() {
        while next.next_if(|&request| request == at).is_some() {
            lengths.push(history.len());
        }
        history.push(event);
    }
    // The last request stands at the end of `events`, past every event.
    lengths.extend(next.map(|_| history.len()));
    (history.finish(), lengths)
}

/// The first turn each provider would reject, with the violation found
/// there first; providers that accept every turn are left out.
pub fn first_per_provider(rejections: &[Rejection]) -> Vec<&Rejection> {
    Provider::ALL
        .into_iter()
        .filter_map(|provider| {
            rejections
                .iter()
                .filter(|r| r.violation.provider == provider)
                .min_by_key(|r| r.turn)
        })
        .collect()
}

/// One line for a banner: "Anthropic Messages would reject turn 2: HTTP 400
/// messages.1.content.1: `tool_use` ids must be unique". A refusal known
/// only from public issue threads says so: "… is reported to reject turn 2
/// (not documented): …".
pub fn sentence(rejection: &Rejection) -> String {
    let v = &rejection.violation;
    let verb = if v.rule.documented() {
        "would reject"
    } else {
        "is reported to reject"
    };
    let note = if v.rule.documented() {
        ""
    } else {
        " (not documented)"
    };
    format!(
        "{} {verb} turn {}{note}: HTTP 400 {}",
        v.provider.label(),
        rejection.turn,
        v.message
    )
}

/// What is wrong, for a view in the run's history's numbering: the rule's
/// reason, and where it is known from when the provider does not document it.
pub fn why(rejection: &Rejection) -> String {
    let rule = rejection.violation.rule;
    match rule.evidence() {
        Some(evidence) => format!("{} ({evidence}.)", rule.why()),
        None => rule.why().to_string(),
    }
}

/// "the 2nd message (assistant), its 2nd block, a tool_use": a place in the
/// harness history, in the words the checker uses for wire places.
fn plain_place(history: &[Message], message: usize, block: Option<usize>) -> Option<String> {
    let m = history.get(message)?;
    let role = match m.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let part = block.and_then(|b| {
        let kind = match m.content.get(b)? {
            ContentBlock::Text { .. } => "text",
            ContentBlock::Thinking { .. } => "thinking",
            ContentBlock::ToolUse(_) => "tool_use",
            ContentBlock::ToolResult(_) => "tool_result",
        };
        Some(place::part("block", b, Some(kind)))
    });
    Some(place::joined(
        place::item("message", message, Some(role)),
        part,
    ))
}
