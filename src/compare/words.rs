//! The first divergent step of two runs, said in plain words: which call
//! each run made, with which arguments, and what came of it ("B called
//! get_order with order_id "ORD-1001"; A with order_id "A1001"").

use harness::event::{EventKind, ResultFate, RunEvent, Validation};
use harness::message::ContentBlock;
use serde_json::Value;

use super::steps::{Step, StepKey, StepKind};

/// The longest piece of an argument, result or text quoted in a sentence.
const QUOTE_CHARS: usize = 90;
/// How far back from QUOTE_CHARS a clip looks for a word's end.
const WORD_SLACK: usize = 20;

/// One side of the divergent row: its label, its step (if it took one) and
/// its events.
pub struct Said<'a> {
    pub label: &'a str,
    pub step: Option<&'a Step>,
    pub events: &'a [RunEvent],
}

/// "In turn 2, naive: x called issue_refund …; fixed: y …." (no final period).
pub fn divergence(key: StepKey, left: Said<'_>, right: Said<'_>) -> String {
    let at = match key {
        StepKey::Start => "At the start".to_string(),
        StepKey::Turn { turn, .. } => format!("In turn {turn}"),
        StepKey::End => "At the end".to_string(),
    };
    let (l, r) = (phrase(&left, key), phrase(&right, key));
    // The same call on both sides: name it once, then what differed.
    let calls = |s: &Said<'_>| s.step.and_then(|step| single_call(step, s.events));
    if let (Some(lc), Some(rc)) = (calls(&left), calls(&right)) {
        let (ls, rs) = (left.step.unwrap(), right.step.unwrap());
        if ls.kind == StepKind::ToolCall && rs.kind == StepKind::ToolCall && lc == rc {
            let (lo, ro) = (
                tool_outcome(ls, left.events),
                tool_outcome(rs, right.events),
            );
            return format!(
                "{at}, both {} and {} {}; in {} it {lo}, in {} it {ro}",
                left.label,
                right.label,
                call_words(&lc.0, &lc.1),
                left.label,
                right.label
            );
        }
        if ls.kind == StepKind::ModelCall
            && rs.kind == StepKind::ModelCall
            && lc.0 == rc.0
            && lc.1 != rc.1
        {
            return format!(
                "{at}, {} called {} with {}; {} with {}",
                left.label,
                lc.0,
                args_words(&lc.1),
                right.label,
                args_words(&rc.1)
            );
        }
    }
    // The same calls, said differently: quote what each said.
    let model_calls = [&left, &right]
        .iter()
        .all(|s| s.step.is_some_and(|step| step.kind == StepKind::ModelCall));
    if l == r && model_calls {
        let said = |s: &Said<'_>| {
            s.step
                .map(|step| said_text(step, s.events))
                .unwrap_or_default()
        };
        return format!(
            "{at}, {} said {}; {} said {}",
            left.label,
            said(&left),
            right.label,
            said(&right)
        );
    }
    if l == r {
        return format!(
            "{at}, {} and {} {l}, and differ only in details the two cells show",
            left.label, right.label
        );
    }
    format!("{at}, {} {l}; {} {r}", left.label, right.label)
}

/// The model's text in a model call step, quoted.
fn said_text(step: &Step, events: &[RunEvent]) -> String {
    let text = step
        .events
        .iter()
        .rev()
        .find_map(|&i| match &events[i].kind {
            EventKind::ModelResponse { content, .. } => Some(harness::message::text_of(content)),
            _ => None,
        });
    quote(text.as_deref().unwrap_or("").trim())
}

/// What one side did at this step, as a verb phrase.
fn phrase(side: &Said<'_>, key: StepKey) -> String {
    let Some(step) = side.step else {
        return match key {
            StepKey::Start => "has no start".to_string(),
            StepKey::End => "did not finish".to_string(),
            _ if side
                .events
                .iter()
                .any(|e| matches!(e.kind, EventKind::RunFinished(_)))
                && ended_before(side.events, key) =>
            {
                "had already ended".to_string()
            }
            StepKey::Turn { position: 0, turn } => format!("had no turn {turn}"),
            StepKey::Turn { .. } => "made no such call".to_string(),
        };
    };
    let events = step.events.iter().map(|&i| &side.events[i]);
    match step.kind {
        StepKind::Start => events
            .filter_map(|e| match &e.kind {
                EventKind::RunStarted { task, tools, .. } => Some(format!(
                    "had the task {} and the tools {}",
                    quote(task),
                    if tools.is_empty() {
                        "none".to_string()
                    } else {
                        tools.join(", ")
                    }
                )),
                _ => None,
            })
            .next()
            .unwrap_or_default(),
        StepKind::End => events
            .filter_map(|e| match &e.kind {
                EventKind::RunFinished(outcome) => Some(format!(
                    "ended {}: {}",
                    outcome.status.as_str(),
                    outcome.reason
                )),
                _ => None,
            })
            .next()
            .unwrap_or_default(),
        StepKind::ModelCall => model_phrase(step, side.events),
        StepKind::ToolCall => match single_call(step, side.events) {
            Some((name, args)) => {
                format!(
                    "{}, and it {}",
                    call_words(&name, &args),
                    tool_outcome(step, side.events)
                )
            }
            None => tool_outcome(step, side.events),
        },
    }
}

/// Whether the run's last step comes before `key`.
fn ended_before(events: &[RunEvent], key: StepKey) -> bool {
    let last_turn = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelRequest { turn, .. } | EventKind::ToolCall { turn, .. } => Some(*turn),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    key.turn().is_some_and(|turn| turn > last_turn)
}

/// The model call: the tools it asked for, else what it said, else how it stopped.
fn model_phrase(step: &Step, events: &[RunEvent]) -> String {
    let response = step
        .events
        .iter()
        .rev()
        .find_map(|&i| match &events[i].kind {
            EventKind::ModelResponse {
                content,
                stop_reason,
                ..
            } => Some((content, stop_reason)),
            _ => None,
        });
    let Some((content, stop_reason)) = response else {
        let error = step
            .events
            .iter()
            .rev()
            .find_map(|&i| match &events[i].kind {
                EventKind::ModelError { message, .. } => Some(message.as_str()),
                _ => None,
            });
        return match error {
            Some(message) => format!("got no answer from the model ({})", clip(message)),
            None => "is still waiting for the model".to_string(),
        };
    };
    let calls: Vec<String> = content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolUse(call) => Some(call_words(&call.name, &call.input)),
            _ => None,
        })
        .collect();
    if !calls.is_empty() {
        return calls.join(" and ");
    }
    let text = harness::message::text_of(content);
    if text.trim().is_empty() {
        format!("stopped ({stop_reason}) without text")
    } else {
        format!("answered {}", quote(text.trim()))
    }
}

/// The one tool call a step made or asked for: its name and arguments.
fn single_call(step: &Step, events: &[RunEvent]) -> Option<(String, Value)> {
    let mut calls = step.events.iter().flat_map(|&i| match &events[i].kind {
        EventKind::ToolCall { name, args, .. } => vec![(name.clone(), args.clone())],
        EventKind::ModelResponse { content, .. } => content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ToolUse(call) => Some((call.name.clone(), call.input.clone())),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    });
    let first = calls.next()?;
    calls.next().is_none().then_some(first)
}

/// What became of a tool call: rejected, denied, or its result.
fn tool_outcome(step: &Step, events: &[RunEvent]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for &i in &step.events {
        match &events[i].kind {
            EventKind::ToolCall { validation, .. } => match validation {
                Validation::Valid => {}
                Validation::UnknownTool { .. } => parts.push("was rejected: no such tool".into()),
                Validation::UnparseableArguments { message } => {
                    parts.push(format!("was rejected: {}", clip(message)))
                }
                Validation::SchemaViolation { errors } => parts.push(format!(
                    "was rejected: {}",
                    clip(errors.first().map_or("", String::as_str))
                )),
            },
            EventKind::ApprovalRequested { .. } => parts.push("waited for approval".into()),
            EventKind::ApprovalDecided { decision, .. } => parts.push(if decision.is_denial() {
                "was denied".into()
            } else {
                "was approved".into()
            }),
            EventKind::ToolResult {
                content,
                is_error,
                fate,
                ..
            } => parts.push(match (fate.unwrap_or(ResultFate::Ran), is_error) {
                (ResultFate::Ran | ResultFate::ByPerson, false) => {
                    format!("returned {}", clip(content))
                }
                (
                    ResultFate::Ran
                    | ResultFate::ByPerson
                    | ResultFate::TimedOut
                    | ResultFate::CutShort,
                    _,
                ) => format!("failed: {}", clip(content)),
                // Refused, denied or never reached: the tool did not fail,
                // it never ran ("not run: …" says why).
                _ => format!(
                    "was not run ({})",
                    clip(content.strip_prefix("not run: ").unwrap_or(content))
                ),
            }),
            _ => {}
        }
    }
    if parts.is_empty() {
        "has no result yet".to_string()
    } else {
        parts.join(", then ")
    }
}

/// "get_order with order_id "A1001"".
fn call_words(name: &str, args: &Value) -> String {
    format!("called {name} with {}", args_words(args))
}

/// `order_id "A1001", nights 5`, or "no arguments".
pub fn args_words(args: &Value) -> String {
    match args {
        Value::Object(map) if map.is_empty() => "no arguments".to_string(),
        Value::Object(map) => map
            .iter()
            .map(|(key, value)| match value {
                Value::String(s) => format!("{key} {}", quote_exactly(s)),
                other => format!("{key} {}", clip(&other.to_string())),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => clip(&other.to_string()),
    }
}

/// A string argument as the model sent it, JSON-quoted: spaces at its ends
/// and line breaks show, so `" Paris "` is never quoted as `"Paris"` (the
/// whitespace pitfall hangs on that difference). Cut at QUOTE_CHARS.
fn quote_exactly(text: &str) -> String {
    let json = Value::String(text.to_string()).to_string();
    let inner = &json[1..json.len() - 1];
    if inner.chars().count() > QUOTE_CHARS {
        let clipped: String = inner.chars().take(QUOTE_CHARS).collect();
        format!("\"{clipped}…\"")
    } else {
        json
    }
}

fn quote(text: &str) -> String {
    format!("\"{}\"", clip(text))
}

fn clip(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > QUOTE_CHARS {
        let mut clipped: String = flat.chars().take(QUOTE_CHARS).collect();
        // At the last word's end, if one ends near the cut ("the 2n…" reads
        // as a typo); a long word with no space near is cut where it is.
        if let Some(space) = clipped.rfind(' ') {
            if clipped[space..].chars().count() <= WORD_SLACK {
                clipped.truncate(space);
            }
        }
        clipped.push('…');
        clipped
    } else {
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clip_ends_at_a_word_and_a_long_word_is_cut_where_it_is() {
        let words = "was requested for the 2nd time with the same arguments, so the harness stopped the run there";
        let clipped = clip(words);
        assert_eq!(
            clipped,
            "was requested for the 2nd time with the same arguments, so the harness stopped the run…"
        );
        let one_word = "x".repeat(QUOTE_CHARS + 10);
        assert_eq!(clip(&one_word).chars().count(), QUOTE_CHARS + 1);
        assert_eq!(clip("short text"), "short text");
    }

    #[test]
    fn a_string_argument_is_quoted_exactly() {
        assert_eq!(quote_exactly(" Paris "), "\" Paris \"");
        assert_eq!(quote_exactly("a\nb"), "\"a\\nb\"");
    }
}
