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
//! history (a 10,000-turn run stays n·log n). Extended thinking's rule holds
//! too: a run has one user message, so its tool loop opens at message 2 and
//! stays open while requests end with results, as every request after the
//! first does.
//!
//! Settings: a run's requests asked for thinking when its model thought
//! (`thinking_of_trace`), so they are checked as such, with the scenario's
//! `tool_choice` (the shape's).

use super::check::Thinking;
use super::history::{thinking_of_trace, TraceHistory};
use super::{
    check_request, history_from_trace, place, Provider, RequestShape, Violation, WireRequest,
};
use crate::event::{EventKind, RunEvent};
use crate::message::{ContentBlock, Message, Role};

/// `history` checked as `provider` would receive it in a request of `shape`.
fn check_shaped(
    provider: Provider,
    shape: &RequestShape,
    history: &[Message],
    thinking: Thinking,
) -> Vec<Violation> {
    let request = WireRequest {
        model: "",
        system: &shape.system,
        messages: history,
        tools: &shape.tools,
        tool_choice: &shape.tool_choice,
        max_output_tokens: 0,
        stream: false,
    };
    check_request(provider, &request, thinking)
}

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
    // One setting for every request: the model thought, so they asked it to.
    let thinking = thinking_of_trace(events);
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
        let violations = check_shaped(provider, shape, &history, thinking);
        for violation in violations {
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

/// Every violation of a finished run, per provider in provider order: the
/// history it ended with, checked as its next request would carry it, then
/// what an earlier request carried that the end no longer shows. Extended
/// thinking's rule binds only while a tool loop is open, so a run that
/// dropped its thinking and then answered ends clean, though the requests
/// it sent in the loop were refused.
pub fn run_violations(shape: &RequestShape, events: &[RunEvent]) -> Vec<Violation> {
    let history = history_from_trace(events);
    let thinking = thinking_of_trace(events);
    let sent = rejections(shape, events);
    let mut found = Vec::new();
    for provider in Provider::ALL {
        let at_the_end = check_shaped(provider, shape, &history, thinking);
        let earlier: Vec<Violation> = sent
            .iter()
            .map(|r| &r.violation)
            .filter(|v| {
                v.provider == provider && !at_the_end.iter().any(|e| e.message == v.message)
            })
            .cloned()
            .collect();
        found.extend(at_the_end);
        found.extend(earlier);
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
    let thinking = thinking_of_trace(events);
    let mut found: Vec<Rejection> = Vec::new();
    for &(turn, at) in requests {
        let history = history_from_trace(&events[..at]);
        for provider in Provider::ALL {
            let violations = check_shaped(provider, shape, &history, thinking);
            for violation in violations {
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
