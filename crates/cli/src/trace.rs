//! The human-readable trace: one or two lines per event, for a terminal.

use harness::event::{EventKind, RunEvent, Validation};
use harness::message::ContentBlock;
use harness::run::usd;

pub fn print(event: &RunEvent) {
    for line in lines(event) {
        println!("{line}");
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

pub fn lines(event: &RunEvent) -> Vec<String> {
    let t = format!("{:>6} ms", event.t_ms);
    match &event.kind {
        EventKind::RunStarted {
            scenario,
            model,
            approval,
            tools,
            limits,
            ..
        } => vec![format!(
            "▶ {scenario} · model {model} · approval {} · tools: {} · max_turns {}",
            serde_json::to_value(approval)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            if tools.is_empty() {
                "none".to_string()
            } else {
                tools.join(", ")
            },
            limits.max_turns
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
            ..
        } => {
            let mut out = vec![format!(
                "{t}  ← {stop_reason} · {} in / {} out · {} · {latency_ms} ms",
                usage.input_tokens,
                usage.output_tokens,
                usd(*cost_usd)
            )];
            for block in content {
                match block {
                    ContentBlock::Text { text } => {
                        out.push(format!("           text: {}", clip(text, 160)))
                    }
                    ContentBlock::Thinking { thinking, .. } => {
                        out.push(format!("           thinking: {}", clip(thinking, 120)))
                    }
                    ContentBlock::ToolUse(call) => {
                        let args = call
                            .input_raw
                            .clone()
                            .unwrap_or_else(|| call.input.to_string());
                        out.push(format!(
                            "           tool_use {} {} [{}]",
                            call.name,
                            clip(&args, 120),
                            call.id
                        ))
                    }
                    ContentBlock::ToolResult(_) => {}
                }
            }
            out
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
            needs_approval,
            ..
        } => {
            let verdict = match validation {
                Validation::Valid => "valid".to_string(),
                Validation::UnknownTool { .. } => "unknown tool".to_string(),
                Validation::UnparseableArguments { message } => {
                    format!("arguments are not JSON: {message}")
                }
                Validation::SchemaViolation { errors } => format!("invalid: {}", errors.join("; ")),
            };
            let approval = if *needs_approval {
                " · needs approval"
            } else {
                ""
            };
            vec![format!("{t}  ⚙ {name} [{id}] {verdict}{approval}")]
        }
        EventKind::ApprovalRequested { name, id, .. } => {
            vec![format!("{t}  ? approval requested for {name} [{id}]")]
        }
        EventKind::ApprovalDecided {
            name,
            decision,
            by,
            reason,
            ..
        } => {
            let word = |v: serde_json::Result<serde_json::Value>| {
                v.ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            };
            let reason = reason
                .as_ref()
                .map(|r| format!(": {r}"))
                .unwrap_or_default();
            vec![format!(
                "{t}  ✔ {name}: {} by {}{reason}",
                word(serde_json::to_value(decision)),
                word(serde_json::to_value(by))
            )]
        }
        EventKind::ToolResult {
            name,
            content,
            is_error,
            latency_ms,
            ..
        } => {
            let mark = if *is_error { "✗ error" } else { "→" };
            vec![format!(
                "{t}  {mark} {name} ({latency_ms} ms): {}",
                clip(content, 200)
            )]
        }
        EventKind::RunFinished(outcome) => {
            let mut out = vec![
                format!("■ {} — {}", outcome.status, outcome.reason),
                format!(
                    "  turns {} · tool calls {} · tokens {} in / {} out · {} · {} ms",
                    outcome.turns,
                    outcome.tool_calls,
                    outcome.input_tokens,
                    outcome.output_tokens,
                    usd(outcome.cost_usd),
                    outcome.elapsed_ms
                ),
            ];
            if let Some(answer) = &outcome.answer {
                out.push(format!("  answer: {}", clip(answer, 400)));
            }
            out
        }
    }
}
