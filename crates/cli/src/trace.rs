//! The human-readable trace: one or two lines per event, for a terminal.

use harness::approval::{Decider, DecisionKind};
use harness::event::{EventKind, RunEvent, Validation};
use harness::message::ContentBlock;
use harness::quote::plain;
use harness::run::usd;

/// Prints `event`'s lines. A line quotes the scenario's and the model's
/// text, which come from a file: each is shown with its control characters
/// escaped (an escape sequence in a task does not recolour the terminal)
/// and cut to a readable length.
pub fn print(event: &RunEvent) {
    for line in lines(event) {
        println!("{}", plain(&line));
    }
}

/// The run's closing lines when the protocol check found requests a
/// provider would refuse: `refusal` ("but Anthropic Messages would refuse
/// turn 2", `harness::refusal`) comes before the reason, so a `done` that a
/// provider would not have let happen does not read as a plain "done".
pub fn print_finished(outcome: &harness::event::Outcome, refusal: Option<&str>) {
    for line in run_finished(outcome, refusal) {
        println!("{}", plain(&line));
    }
}

fn clip(text: &str, max: usize) -> String {
    let one_line = text.replace('\n', " ⏎ ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        format!("{}…", one_line.chars().take(max).collect::<String>())
    }
}

/// An event's lines: one function per kind that takes more than a line.
pub fn lines(event: &RunEvent) -> Vec<String> {
    let t = format!("{:>6} ms", event.t_ms);
    match &event.kind {
        EventKind::RunStarted {
            scenario,
            model,
            approval,
            tools,
            limits,
            context,
            ..
        } => vec![run_started(
            scenario,
            model,
            approval.as_str(),
            tools,
            limits,
            context,
        )],
        EventKind::ModelRequest {
            turn,
            attempt,
            estimated_input_tokens,
            ..
        } => {
            let retry = if *attempt > 1 {
                format!(" (attempt {attempt})")
            } else {
                String::new()
            };
            vec![format!(
                "{t}  turn {turn}{retry} → model (≈{estimated_input_tokens} input tokens)"
            )]
        }
        EventKind::ModelResponse {
            content,
            stop_reason,
            usage,
            cost_usd,
            latency_ms,
            by_person,
            ..
        } => {
            let head = format!(
                "{t}  ← {stop_reason} · {} in / {} out · {} · {latency_ms} ms{}",
                usage.input_tokens,
                usage.output_tokens,
                usd(*cost_usd),
                if *by_person {
                    " · written by a person, not the model"
                } else {
                    ""
                }
            );
            std::iter::once(head)
                .chain(content.iter().filter_map(block_line))
                .collect()
        }
        EventKind::ModelError {
            attempt,
            status,
            message,
            retry_in_ms,
            ..
        } => {
            let status = status.map(|s| format!("HTTP {s}: ")).unwrap_or_default();
            let next = match retry_in_ms {
                Some(ms) => format!(" — retrying in {ms} ms"),
                None => " — not retried".to_string(),
            };
            vec![format!(
                "{t}  ✗ model error (attempt {attempt}): {status}{message}{next}"
            )]
        }
        EventKind::ToolCall {
            name,
            id,
            validation,
            unchecked,
            needs_approval,
            ..
        } => {
            let approval = if *needs_approval {
                " · needs approval"
            } else {
                ""
            };
            vec![format!(
                "{t}  ⚙ {name} [{id}] {}{approval}",
                verdict(validation, unchecked)
            )]
        }
        EventKind::ApprovalRequested { name, id, .. } => {
            vec![format!("{t}  ? approval requested for {name} [{id}]")]
        }
        EventKind::ApprovalDecided {
            name,
            decision,
            by,
            reason,
            args,
            ..
        } => vec![format!(
            "{t}  {}",
            decision_line(name, *decision, *by, reason.as_deref(), args.as_ref())
        )],
        EventKind::ToolResult {
            id,
            name,
            content,
            is_error,
            latency_ms,
            by_person,
            ..
        } => {
            let mark = if *is_error { "✗ error" } else { "→" };
            let who = if *by_person {
                ", typed by a person: the tool did not run"
            } else {
                ""
            };
            // An imported body may answer a call it never made. The id is
            // the one the result went out under, as on the call's line.
            let name = if name.is_empty() {
                format!("for an unknown call [{id}]")
            } else {
                format!("{name} [{id}]")
            };
            vec![format!(
                "{t}  {mark} {name} ({latency_ms} ms{who}): {}",
                clip(content, 200)
            )]
        }
        EventKind::ContextEdited {
            strategy,
            edit,
            description,
            ..
        } => {
            let head = format!("{t}  ✂ context ({}): {description}", strategy.as_str());
            std::iter::once(head).chain(summary_line(edit)).collect()
        }
        EventKind::RunFinished(outcome) => run_finished(outcome, None),
    }
}

fn run_started(
    scenario: &str,
    model: &str,
    approval: &str,
    tools: &[String],
    limits: &harness::limits::Limits,
    context: &harness::context::ContextConfig,
) -> String {
    let tools = if tools.is_empty() {
        "none".to_string()
    } else {
        tools.join(", ")
    };
    let mut line = format!(
        "▶ {scenario} · model {model} · approval {approval} · tools: {tools} · max_turns {}",
        limits.max_turns
    );
    if let Some(summary) = context.summary(limits.max_output_tokens) {
        line.push_str(" · context: ");
        line.push_str(&summary);
    }
    line
}

/// A block of the model's answer, indented under its response line.
fn block_line(block: &ContentBlock) -> Option<String> {
    Some(match block {
        ContentBlock::Text { text } => format!("           text: {}", clip(text, 160)),
        ContentBlock::Thinking { thinking, .. } => {
            format!("           thinking: {}", clip(thinking, 120))
        }
        ContentBlock::ToolUse(call) => {
            let args = call
                .input_raw
                .clone()
                .unwrap_or_else(|| call.input.to_string());
            format!(
                "           tool_use {} {} [{}]",
                call.name,
                clip(&args, 120),
                call.id
            )
        }
        ContentBlock::ToolResult(_) => return None,
    })
}

/// What the argument check said of a call.
fn verdict(validation: &Validation, unchecked: &[String]) -> String {
    match validation {
        Validation::Valid if !unchecked.is_empty() => {
            format!("valid here; left to the server: {}", unchecked.join("; "))
        }
        Validation::Valid => "valid".to_string(),
        Validation::UnknownTool { .. } => "unknown tool".to_string(),
        Validation::UnparseableArguments { message } => {
            format!("arguments are not JSON: {message}")
        }
        Validation::SchemaViolation { errors } => format!("invalid: {}", errors.join("; ")),
    }
}

/// A compaction's summary, under its context line.
fn summary_line(edit: &harness::context::ContextEdit) -> Option<String> {
    let harness::context::ContextEdit::Compacted {
        summary,
        usage,
        cost_usd,
        ..
    } = edit
    else {
        return None;
    };
    Some(format!(
        "           summary ({} in / {} out · {}): {}",
        usage.input_tokens,
        usage.output_tokens,
        usd(*cost_usd),
        clip(summary, 200)
    ))
}

fn run_finished(outcome: &harness::event::Outcome, refusal: Option<&str>) -> Vec<String> {
    // The page's shape for who ended the run (`Outcome::tone`), so the
    // terminal and the page agree without colour.
    let icon = outcome.tone().icon();
    let mut out = match refusal {
        Some(refusal) => vec![
            format!("{icon} {} — {refusal}", outcome.status),
            format!("  reason: {}", outcome.reason),
        ],
        None => vec![format!("{icon} {} — {}", outcome.status, outcome.reason)],
    };
    out.push(format!(
        "  turns {} · tool calls: {} · tokens {} in / {} out · {} · {} ms",
        outcome.turns,
        tool_calls_line(outcome),
        outcome.input_tokens,
        outcome.output_tokens,
        usd(outcome.cost_usd),
        outcome.elapsed_ms
    ));
    if let Some(answer) = &outcome.answer {
        out.push(format!("  answer: {}", clip(answer, 400)));
    }
    out
}

/// The calls as the page's header counts them (`harness::tally`): `8
/// requested (6 ran, 2 not run), 7 checked against max_tool_calls`.
fn tool_calls_line(outcome: &harness::event::Outcome) -> String {
    let counts = outcome.calls.unwrap_or_default();
    format!(
        "{}, {} checked against max_tool_calls",
        counts.summary(0),
        outcome.tool_calls
    )
}

/// "✔ issue_refund: approved by the user (approve)", "✘ issue_refund: denied
/// by policy (deny_and_stop)". The mark says which way it went; the word in
/// brackets is the decision as the JSON trace names it.
fn decision_line(
    name: &str,
    decision: DecisionKind,
    by: Decider,
    reason: Option<&str>,
    edited_args: Option<&serde_json::Value>,
) -> String {
    let mark = if decision.is_denial() { "✘" } else { "✔" };
    let (verb, then) = match decision {
        DecisionKind::Approve => ("approved", ""),
        DecisionKind::ApproveEdited => ("approved with edited arguments", ""),
        DecisionKind::AlwaysAllow => ("approved for the rest of the run", ""),
        DecisionKind::Deny => ("denied", "; the model is told and the loop goes on"),
        DecisionKind::DenyAndStop => ("denied", ""),
    };
    let kind = decision.as_str();
    let who = match by {
        Decider::User => "the user",
        Decider::Policy => "policy",
        Decider::AlwaysAllow => "an earlier \"always allow\"",
        Decider::Setting => "a setting made before the run",
    };
    let args = edited_args
        .map(|args| format!(" {}", clip(&args.to_string(), 120)))
        .unwrap_or_default();
    let reason = reason.map(|r| format!(": {r}")).unwrap_or_default();
    format!("{mark} {name}: {verb}{args} by {who} ({kind}){reason}{then}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(decision: DecisionKind, by: Decider, reason: Option<&str>) -> String {
        let event = RunEvent {
            seq: 4,
            t_ms: 12,
            kind: EventKind::ApprovalDecided {
                id: "call_1".into(),
                name: "issue_refund".into(),
                decision,
                by,
                reason: reason.map(str::to_string),
                args: (decision == DecisionKind::ApproveEdited)
                    .then(|| serde_json::json!({"order_id": "ord_2"})),
            },
        };
        lines(&event).join("\n")
    }

    #[test]
    fn every_decision_prints_with_an_honest_mark() {
        assert_eq!(
            decided(DecisionKind::Approve, Decider::Policy, None),
            "    12 ms  ✔ issue_refund: approved by policy (approve)"
        );
        assert_eq!(
            decided(DecisionKind::Approve, Decider::AlwaysAllow, None),
            "    12 ms  ✔ issue_refund: approved by an earlier \"always allow\" (approve)"
        );
        assert_eq!(
            decided(DecisionKind::ApproveEdited, Decider::User, None),
            "    12 ms  ✔ issue_refund: approved with edited arguments {\"order_id\":\"ord_2\"} by the user (approve_edited)"
        );
        assert_eq!(
            decided(DecisionKind::AlwaysAllow, Decider::User, None),
            "    12 ms  ✔ issue_refund: approved for the rest of the run by the user (always_allow)"
        );
        assert_eq!(
            decided(DecisionKind::Deny, Decider::User, Some("wrong order")),
            "    12 ms  ✘ issue_refund: denied by the user (deny): wrong order; the model is told and the loop goes on"
        );
        assert_eq!(
            decided(DecisionKind::DenyAndStop, Decider::Policy, None),
            "    12 ms  ✘ issue_refund: denied by policy (deny_and_stop)"
        );
        assert_eq!(
            decided(DecisionKind::Approve, Decider::Setting, None),
            "    12 ms  ✔ issue_refund: approved by a setting made before the run (approve)"
        );
    }

    #[test]
    fn a_persons_turn_and_result_say_who_wrote_them() {
        let response = RunEvent {
            seq: 2,
            t_ms: 12,
            kind: EventKind::ModelResponse {
                turn: 1,
                text: "Hi".into(),
                content: vec![ContentBlock::Text { text: "Hi".into() }],
                stop_reason: "end_turn".into(),
                usage: Default::default(),
                cost_usd: 0.0,
                latency_ms: 0,
                by_person: true,
            },
        };
        assert!(
            lines(&response)[0].ends_with(" · written by a person, not the model"),
            "{:?}",
            lines(&response)
        );
        let result = RunEvent {
            seq: 4,
            t_ms: 12,
            kind: EventKind::ToolResult {
                id: "toolu_1".into(),
                name: "get_time".into(),
                content: "tool error: broken".into(),
                is_error: true,
                latency_ms: 0,
                state: None,
                by_person: true,
                fate: Some(harness::event::ResultFate::ByPerson),
                media: Vec::new(),
            },
        };
        assert_eq!(
            lines(&result),
            ["    12 ms  ✗ error get_time [toolu_1] (0 ms, typed by a person: the tool did not run): tool error: broken"]
        );
    }
}
