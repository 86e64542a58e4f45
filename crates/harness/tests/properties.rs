//! Properties that hold for any script: random responses (tool calls valid,
//! invalid, unknown or malformed; errors; odd stop reasons; delays), random
//! limits and approval decisions. Whatever the model does, the run ends with
//! exactly one status, every call is answered once with its own id, turns
//! never exceed `max_turns`, and strict mode never spends over its budget.

mod common;

use std::collections::HashMap;

use harness::approval::{ApprovalPolicy, ApprovalRequest, Approver, Decision};
use harness::event::{EventKind, Status};
use harness::limits::CostMode;
use harness::model::StopKind;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Cycles through a fixed list of decisions, so no run waits forever.
struct CyclingApprover {
    decisions: Vec<Decision>,
    next: std::cell::Cell<usize>,
}

impl Approver for CyclingApprover {
    fn decide<'a>(
        &'a self,
        request: &'a ApprovalRequest,
    ) -> futures::future::LocalBoxFuture<'a, Decision> {
        // A person whose edit was refused fixes it rather than resubmitting it forever.
        if request.edit_error.is_some() {
            return Box::pin(async { Decision::Approve });
        }
        let i = self.next.get();
        self.next.set(i + 1);
        let decision = self.decisions[i % self.decisions.len()].clone();
        Box::pin(async move { decision })
    }
}

fn call() -> impl Strategy<Value = Value> {
    let name = prop::sample::select(vec!["echo", "gate", "slow", "nope"]);
    let args = prop_oneof![
        (0i64..8).prop_map(|n| json!({"args": {"n": n}})),
        Just(json!({"args": {"n": "3"}})),
        Just(json!({"args": {}})),
        Just(json!({"args_raw": "{\"n\": "})),
        Just(json!({"args_raw": "{\"n\": 2}"})),
    ];
    (name, args).prop_map(|(name, mut args)| {
        args["name"] = json!(name);
        args
    })
}

fn response(max_output: u32) -> impl Strategy<Value = Value> {
    let stop = prop::option::weighted(
        0.25,
        prop::sample::select(vec![
            "end_turn",
            "tool_use",
            "max_tokens",
            "refusal",
            "pause_turn",
            "stop",
            "length",
            "weird",
        ]),
    );
    let text = prop::option::weighted(
        0.8,
        prop::sample::select(vec!["", "ok", "the answer is 42"]),
    );
    let calls = prop::collection::vec(call(), 0..3);
    let error = prop::option::weighted(0.08, prop::sample::select(vec![401u16, 429, 500, 529]));
    let delay = prop::option::weighted(0.3, 0u64..3000);
    let output = prop::option::of(0..=max_output);
    (stop, text, calls, error, delay, output).prop_map(
        |(stop, text, calls, error, delay, output)| {
            let mut r = json!({});
            if let Some(stop) = stop {
                r["stop_reason"] = json!(stop);
            }
            if let Some(text) = text {
                r["text"] = json!(text);
            }
            if !calls.is_empty() {
                r["tool_calls"] = json!(calls);
            }
            if let Some(status) = error {
                r["error"] = json!({"status": status});
            }
            if let Some(ms) = delay {
                r["delay_ms"] = json!(ms);
            }
            // Input tokens are left to the scripted model's estimate: strict mode's
            // guarantee is relative to what the provider reports.
            if let Some(out) = output {
                r["usage"] = json!({"output_tokens": out});
            }
            r
        },
    )
}

#[derive(Debug, Clone)]
struct Case {
    scenario: Value,
    decisions: Vec<Decision>,
}

fn case() -> impl Strategy<Value = Case> {
    (16u32..300).prop_flat_map(|max_output| {
        let limits = (
            1u32..7,
            prop::option::of(0.0005f64..0.02),
            prop::bool::ANY,
            prop::option::of(300u64..6000),
            prop::option::of(2u32..4),
            prop::option::of(0u32..6),
            prop::option::of(200u64..4000),
            0u32..3,
            prop::option::of(100u64..2500),
        );
        let responses = prop::collection::vec(response(max_output), 1..8);
        let looping = prop::bool::ANY;
        let approval = prop::sample::select(vec!["ask", "approve_all", "deny_all"]);
        let decisions = prop::collection::vec(
            prop::sample::select(vec![
                Decision::Approve,
                Decision::Deny { reason: Some("no".into()) },
                Decision::DenyAndStop { reason: None },
                Decision::AlwaysAllow,
                Decision::ApproveEdited(json!({"n": 1})),
                Decision::ApproveEdited(json!({"n": "bad"})),
            ]),
            1..4,
        );
        (limits, responses, looping, approval, decisions).prop_map(
            move |((turns, budget, strict, deadline, repeat, max_calls, max_tokens, retries, tool_timeout), responses, looping, approval, decisions)| {
                let mut limits = json!({"max_turns": turns, "max_output_tokens": max_output, "max_retries": retries,
                    "cost_mode": if strict { "strict" } else { "naive" }});
                for (key, value) in [
                    ("max_cost_usd", budget.map(|b| json!(b))),
                    ("deadline_ms", deadline.map(|d| json!(d))),
                    ("repeat_threshold", repeat.map(|r| json!(r))),
                    ("max_tool_calls", max_calls.map(|m| json!(m))),
                    ("max_total_tokens", max_tokens.map(|m| json!(m))),
                    ("tool_timeout_ms", tool_timeout.map(|t| json!(t))),
                ] {
                    if let Some(value) = value {
                        limits[key] = value;
                    }
                }
                let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}, "required": ["n"]});
                let mut model = json!({"type": "scripted", "responses": responses});
                if looping {
                    model["loop_from"] = json!(0);
                }
                Case {
                    scenario: json!({
                        "name": "property", "task": "t", "approval": approval,
                        "tools": [
                            {"name": "echo", "input_schema": schema, "result": "echoed"},
                            {"name": "gate", "input_schema": schema, "needs_approval": true, "result": "written"},
                            {"name": "slow", "input_schema": schema, "result": "slow", "delay_ms": 1500}
                        ],
                        "limits": limits,
                        "pricing": {"input_usd_per_mtok": 1.0, "output_usd_per_mtok": 10.0},
                        "model": model
                    }),
                    decisions,
                }
            },
        )
    })
}

fn check_case(case: &Case) -> Result<(), TestCaseError> {
    let scenario = common::load(&case.scenario.to_string());
    let approver = CyclingApprover {
        decisions: case.decisions.clone(),
        next: Default::default(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    let (outcome, events) = runtime.block_on(common::run_with(&scenario, Some(&approver)));
    if std::env::var("PROPERTY_STATS").is_ok() {
        eprintln!("STATUS {}", outcome.status);
    }

    // One status, last, and the same as the returned outcome.
    let finished: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::RunFinished(_)))
        .map(|(i, _)| i)
        .collect();
    prop_assert_eq!(finished, vec![events.len() - 1]);
    prop_assert!(
        matches!(&events[events.len() - 1].kind, EventKind::RunFinished(o) if *o == outcome)
    );
    for (i, event) in events.iter().enumerate() {
        prop_assert_eq!(event.seq, i as u64);
    }

    // Every tool_call answered exactly once, after it, with its own id.
    let mut open: HashMap<String, usize> = HashMap::new();
    let mut answered: HashMap<String, usize> = HashMap::new();
    for event in &events {
        match &event.kind {
            EventKind::ToolCall { id, .. } => {
                prop_assert!(open.insert(id.clone(), 0).is_none(), "ids are unique");
            }
            EventKind::ToolResult { id, .. } => {
                prop_assert!(
                    open.contains_key(id),
                    "result for a call that was made: {}",
                    id
                );
                *answered.entry(id.clone()).or_default() += 1;
            }
            _ => {}
        }
    }
    for id in open.keys() {
        prop_assert_eq!(answered.get(id), Some(&1), "call {} answered once", id);
    }

    // However the run ended, its history is a conversation a provider would
    // accept as far as tool calls go: no tool_use is left without its result.
    let history = harness::wire::history_from_trace(&events);
    let unanswered: Vec<String> =
        harness::wire::check(harness::wire::Provider::Anthropic, "", &history, &[])
            .into_iter()
            .filter(|v| v.rule == harness::wire::check::Rule::AnthropicUnansweredToolUse)
            .map(|v| v.message)
            .collect();
    prop_assert!(
        unanswered.is_empty(),
        "unanswered calls after {}: {:?}",
        outcome.status,
        unanswered
    );

    let limits = scenario.limits.clone();
    prop_assert!(outcome.turns <= limits.max_turns);
    let requests = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelRequest { attempt: 1, .. }))
        .count();
    prop_assert!(requests as u32 <= limits.max_turns);

    if let (CostMode::Strict, Some(budget)) = (limits.cost_mode, limits.max_cost_usd) {
        prop_assert!(
            outcome.cost_usd <= budget + 1e-12,
            "strict spent {} of {}: {}",
            outcome.cost_usd,
            budget,
            outcome.reason
        );
    }

    if let Some(max) = limits.max_tool_calls {
        let executed = events
            .iter()
            .filter(|e| matches!(&e.kind, EventKind::ToolResult { content, .. } if !content.starts_with("not run")))
            .count();
        let limit_note = "no more than max_tool_calls answered for real";
        prop_assert!(executed as u32 <= max, "{}", limit_note);
    }

    if outcome.status == Status::Done {
        let last_response = events.iter().rev().find_map(|e| match &e.kind {
            EventKind::ModelResponse {
                text,
                stop_reason,
                content,
                ..
            } => Some((text, stop_reason, content)),
            _ => None,
        });
        let (text, stop_reason, content) = last_response.expect("done needs a response");
        prop_assert_eq!(StopKind::classify(stop_reason), StopKind::EndTurn);
        prop_assert!(!text.trim().is_empty());
        prop_assert!(harness::message::tool_calls_of(content).next().is_none());
        prop_assert_eq!(outcome.answer.as_deref(), Some(text.as_str()));
    }
    if scenario.approval == ApprovalPolicy::DenyAll {
        let wrote = events.iter().any(|e| {
            matches!(&e.kind, EventKind::ToolResult { name, content, .. } if name == "gate" && content == "written")
        });
        prop_assert!(!wrote, "deny_all never runs a tool that needs approval");
    }
    if let Some(deadline) = limits.deadline_ms {
        prop_assert!(
            outcome.elapsed_ms <= deadline + 1,
            "elapsed {} past deadline {}",
            outcome.elapsed_ms,
            deadline
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_script_ends_once_with_every_call_answered(case in case()) {
        check_case(&case)?;
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[a-z_ ]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "name",
                        "task",
                        "tools",
                        "limits",
                        "model",
                        "type",
                        "responses",
                        "loop_from",
                        "tool_calls",
                        "args",
                        "args_raw",
                        "input_schema",
                        "result",
                        "verify",
                        "regex",
                        "max_turns",
                        "approval",
                        "pricing",
                        "properties",
                        "required",
                        "x",
                    ]),
                    inner
                ),
                0..6
            )
            .prop_map(|pairs| Value::Object(
                pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
        ..ProptestConfig::default()
    })]

    /// Loading never panics, and a rejection always says what is wrong.
    #[test]
    fn loading_any_json_reports_problems_instead_of_panicking(value in json_value()) {
        if let Err(problems) = harness::scenario::Scenario::from_value(value) {
            prop_assert!(!problems.is_empty());
            prop_assert!(problems.iter().all(|p| !p.message.is_empty()));
        }
    }

    #[test]
    fn loading_any_text_never_panics(text in ".{0,200}") {
        let _ = harness::scenario::Scenario::load(&text);
    }
}
