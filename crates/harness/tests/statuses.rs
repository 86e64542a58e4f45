//! Every run status and every error-as-data case, data-driven through one
//! `check` helper: a scenario in, the status, the reason and the tool results
//! the model received out.

mod common;

use common::{event_types, load, run_json, run_with, tool_results, QueueApprover};
use harness::approval::Decision;
use harness::event::{EventKind, Status};
use harness::library::BUILTIN;
use serde_json::json;

/// What a run must show: its status, words its reason must contain, and for
/// each tool result in order, whether it is an error and words it contains.
struct Expect<'a> {
    status: Status,
    reason: &'a [&'a str],
    results: &'a [(bool, &'a str)],
}

async fn check(scenario_json: &str, expect: Expect<'_>) {
    check_with(scenario_json, vec![], expect).await
}

async fn check_with(scenario_json: &str, decisions: Vec<Decision>, expect: Expect<'_>) {
    let approver = QueueApprover::new(decisions);
    let (outcome, events) = run_with(&load(scenario_json), Some(&approver)).await;
    assert_eq!(
        outcome.status, expect.status,
        "status; reason was: {}",
        outcome.reason
    );
    for word in expect.reason {
        assert!(
            outcome.reason.contains(word),
            "reason {:?} should contain {word:?}",
            outcome.reason
        );
    }
    let results = tool_results(&events);
    assert_eq!(
        results.len(),
        expect.results.len(),
        "number of tool results: {results:#?}"
    );
    for ((name, is_error, content), (want_error, want_text)) in results.iter().zip(expect.results) {
        assert_eq!(is_error, want_error, "is_error of {name}: {content}");
        assert!(
            content.contains(want_text),
            "result of {name} {content:?} should contain {want_text:?}"
        );
    }
    let last = events.last().expect("events");
    assert!(matches!(&last.kind, EventKind::RunFinished(o) if *o == outcome));
}

fn scenario(
    tools: serde_json::Value,
    limits: serde_json::Value,
    responses: serde_json::Value,
) -> String {
    json!({
        "name": "test",
        "task": "do the thing",
        "tools": tools,
        "limits": limits,
        "model": {"type": "scripted", "responses": responses}
    })
    .to_string()
}

fn echo_tool() -> serde_json::Value {
    json!({"name": "echo", "description": "echo", "input_schema": {
        "type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}, "required": ["n"],
        "additionalProperties": false}, "result": "echoed"})
}

#[tokio::test(start_paused = true)]
async fn every_builtin_scenario_ends_with_its_documented_status() {
    let mut seen = std::collections::HashSet::new();
    for builtin in BUILTIN {
        let (outcome, events) = common::run_builtin(builtin).await;
        assert_eq!(
            outcome.status.as_str(),
            builtin.expected_status,
            "{}: {}",
            builtin.id,
            outcome.reason
        );
        assert!(!outcome.reason.is_empty());
        assert_eq!(
            event_types(&events).last().map(String::as_str),
            Some("run_finished")
        );
        seen.insert(outcome.status);
    }
    // Every status has a built-in scenario; `cancelled`'s has Stop pressed.
    for status in Status::ALL {
        assert!(seen.contains(&status), "no built-in scenario ends {status}");
    }
}

#[tokio::test(start_paused = true)]
async fn done_needs_a_final_answer() {
    check(
        &scenario(
            json!([echo_tool()]),
            json!({}),
            json!([
                {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
                {"text": "all done"}
            ]),
        ),
        Expect {
            status: Status::Done,
            reason: &["final answer in turn 2"],
            results: &[(false, "echoed")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn unknown_tool_lists_the_tools_that_exist() {
    check(
        &scenario(
            json!([echo_tool(), "get_time"]),
            json!({}),
            json!([
                {"tool_calls": [{"name": "ech0", "args": {"n": 1}}]},
                {"text": "ok"}
            ]),
        ),
        Expect {
            status: Status::Done,
            reason: &[],
            results: &[(
                true,
                "unknown tool \"ech0\". Available tools: echo, get_time.",
            )],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn unparseable_arguments_say_where() {
    check(
        &scenario(
            json!([echo_tool()]),
            json!({}),
            json!([
                {"tool_calls": [{"name": "echo", "args_raw": "{\"n\": 1,"}]},
                {"text": "ok"}
            ]),
        ),
        Expect {
            status: Status::Done,
            reason: &[],
            results: &[(true, "not valid JSON: EOF while parsing")],
        },
    )
    .await;
    check(
        &scenario(
            json!([echo_tool()]),
            json!({}),
            json!([
                {"tool_calls": [{"name": "echo", "args_raw": "{\"n\": 1,"}]},
                {"text": "ok"}
            ]),
        ),
        Expect {
            status: Status::Done,
            reason: &[],
            results: &[(true, "column 8")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn schema_violations_name_the_pointer_and_the_expectation() {
    check(
        &scenario(
            json!([echo_tool()]),
            json!({}),
            json!([
                {"tool_calls": [{"name": "echo", "args": {"n": "3"}}]},
                {"tool_calls": [{"name": "echo", "args": {"n": 9}}]},
                {"tool_calls": [{"name": "echo", "args": {}}]},
                {"tool_calls": [{"name": "echo", "args": {"n": 1, "extra": true}}]},
                {"text": "ok"}
            ]),
        ),
        Expect {
            status: Status::Done,
            reason: &[],
            results: &[
                (true, "/n: expected an integer, found a string"),
                (true, "/n: 9 is too large: it must be at most 5"),
                (true, "missing required property \"n\""),
                (true, "unexpected property \"extra\""),
            ],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn oversized_results_are_capped_and_say_so() {
    let tool =
        json!({"name": "big", "input_schema": {"type": "object"}, "result": "x".repeat(500)});
    check(
        &scenario(json!([tool]), json!({"max_result_chars": 100}), json!([
            {"tool_calls": [{"name": "big"}]},
            {"text": "ok"}
        ])),
        Expect {
            status: Status::Done,
            reason: &[],
            results: &[(true, "[truncated: the result was 500 characters; only the first 100 are shown (max_result_chars 100)]")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn a_tool_timeout_is_an_error_result_and_the_run_goes_on() {
    let slow = json!({"name": "slow", "input_schema": {"type": "object"}, "result": "late", "delay_ms": 60000});
    let (outcome, events) = run_json(&scenario(
        json!([slow]),
        json!({"tool_timeout_ms": 2000}),
        json!([
            {"tool_calls": [{"name": "slow"}]},
            {"text": "the tool timed out"}
        ]),
    ))
    .await;
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(
        tool_results(&events),
        vec![(
            "slow".to_string(),
            true,
            "tool error: the tool did not finish within 2000 ms (tool_timeout_ms) and was stopped"
                .to_string()
        )]
    );
    assert!(
        (2000..2100).contains(&outcome.elapsed_ms),
        "stopped at the timeout: {}",
        outcome.elapsed_ms
    );
}

#[tokio::test(start_paused = true)]
async fn a_slow_model_call_times_out_and_is_retried() {
    check(
        &scenario(
            json!([]),
            json!({"model_timeout_ms": 1000, "max_retries": 1}),
            json!([
                {"text": "slow", "delay_ms": 5000},
                {"text": "fast"}
            ]),
        ),
        Expect {
            status: Status::Done,
            reason: &["final answer in turn 1"],
            results: &[],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn turn_limit_fires_when_the_model_still_wants_to_continue() {
    check(
        &scenario(
            json!([echo_tool()]),
            json!({"max_turns": 2}),
            json!([
                {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
                {"tool_calls": [{"name": "echo", "args": {"n": 2}}]},
                {"text": "never reached"}
            ]),
        ),
        Expect {
            status: Status::TurnLimit,
            reason: &["made 2 of max 2 model calls"],
            results: &[(false, "echoed"), (false, "echoed")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn strict_cost_stops_before_the_call_that_could_overshoot() {
    let json = json!({
        "name": "t", "task": "t",
        "limits": {"max_cost_usd": 0.01, "max_output_tokens": 500},
        "pricing": {"input_usd_per_mtok": 1.0, "output_usd_per_mtok": 10.0},
        "tools": [echo_tool()],
        "model": {"type": "scripted", "loop_from": 0, "responses": [
            {"tool_calls": [{"name": "echo", "args": {"n": 1}}], "usage": {"input_tokens": 1000, "output_tokens": 300}}
        ]}
    });
    let (outcome, _) = run_json(&json.to_string()).await;
    assert_eq!(outcome.status, Status::CostLimit);
    assert!(
        outcome.cost_usd <= 0.01,
        "strict never overspends: {}",
        outcome.cost_usd
    );
    assert!(
        outcome
            .reason
            .contains("spent $0.0040 of $0.0100 budget after turn 1"),
        "{}",
        outcome.reason
    );
    assert!(
        outcome.reason.contains("could cost up to"),
        "{}",
        outcome.reason
    );
}

#[tokio::test(start_paused = true)]
async fn naive_cost_overshoots_like_seed_000() {
    let json = json!({
        "name": "t", "task": "t",
        "limits": {"max_cost_usd": 0.01, "cost_mode": "naive"},
        "pricing": {"input_usd_per_mtok": 1.0, "output_usd_per_mtok": 10.0},
        "tools": [echo_tool()],
        "model": {"type": "scripted", "loop_from": 0, "responses": [
            {"tool_calls": [{"name": "echo", "args": {"n": 1}}], "usage": {"input_tokens": 1000, "output_tokens": 300}}
        ]}
    });
    let (outcome, _) = run_json(&json.to_string()).await;
    assert_eq!(outcome.status, Status::CostLimit);
    assert!(outcome.cost_usd > 0.01);
    assert!(
        outcome
            .reason
            .contains("spent $0.0120 of $0.0100 budget after turn 3"),
        "{}",
        outcome.reason
    );
}

#[tokio::test(start_paused = true)]
async fn naive_cost_lets_a_final_answer_through_even_over_budget() {
    let json = json!({
        "name": "t", "task": "t",
        "limits": {"max_cost_usd": 0.001, "cost_mode": "naive"},
        "pricing": {"input_usd_per_mtok": 1.0, "output_usd_per_mtok": 10.0},
        "model": {"type": "scripted", "responses": [{"text": "answer", "usage": {"input_tokens": 5000, "output_tokens": 500}}]}
    });
    let (outcome, _) = run_json(&json.to_string()).await;
    assert_eq!(
        outcome.status,
        Status::Done,
        "seed 000's pitfall: {}",
        outcome.reason
    );
    assert!(outcome.cost_usd > 0.001);
}

#[tokio::test(start_paused = true)]
async fn token_limit_counts_input_and_output() {
    check(
        &scenario(json!([echo_tool()]), json!({"max_total_tokens": 1000}), json!([
            {"tool_calls": [{"name": "echo", "args": {"n": 1}}], "usage": {"input_tokens": 600, "output_tokens": 500}},
            {"text": "never"}
        ])),
        Expect {
            status: Status::TokenLimit,
            reason: &["used 1100 tokens of max 1000 (max_total_tokens) after turn 1"],
            results: &[(false, "echoed")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn tool_call_limit_names_the_call_that_broke_it() {
    check(
        &scenario(json!([echo_tool()]), json!({"max_tool_calls": 2}), json!([
            {"tool_calls": [{"name": "echo", "args": {"n": 1}}, {"name": "echo", "args": {"n": 2}}, {"name": "echo", "args": {"n": 3}}]},
            {"text": "never"}
        ])),
        Expect {
            status: Status::ToolCallLimit,
            reason: &["tool call #3 (echo) but max_tool_calls is 2"],
            results: &[(false, "echoed"), (false, "echoed"), (true, "not run")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn repeated_call_with_threshold_two_stops_on_the_second_occurrence() {
    check(
        &scenario(
            json!([echo_tool()]),
            json!({"repeat_threshold": 2}),
            json!([
                {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
                {"tool_calls": [{"name": "echo", "args": {"n": 2}}]},
                {"tool_calls": [{"name": "echo", "args": {"n": 1.0}}]},
                {"text": "never"}
            ]),
        ),
        Expect {
            status: Status::RepeatedCall,
            reason: &["echo({\"n\":1}) was requested for the 2nd time"],
            results: &[(false, "echoed"), (false, "echoed"), (true, "not run")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn consecutive_repeats_are_named_as_such() {
    check(
        &scenario(
            json!([echo_tool()]),
            json!({"repeat_threshold": 3}),
            json!([
                {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
                {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
                {"tool_calls": [{"name": "echo", "args": {"n": 1}}]}
            ]),
        ),
        Expect {
            status: Status::RepeatedCall,
            reason: &["called 3 times in a row"],
            results: &[(false, "echoed"), (false, "echoed"), (true, "not run")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn naive_repeat_detection_misses_a_cycle() {
    let (outcome, _) = run_json(&scenario(
        json!([echo_tool()]),
        json!({"repeat_threshold": 2, "repeat_mode": "naive", "max_turns": 6}),
        json!([
            {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
            {"tool_calls": [{"name": "echo", "args": {"n": 2}}]},
            {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
            {"tool_calls": [{"name": "echo", "args": {"n": 2}}]},
            {"tool_calls": [{"name": "echo", "args": {"n": 1}}]},
            {"tool_calls": [{"name": "echo", "args": {"n": 2}}]},
        ]),
    ))
    .await;
    assert_eq!(outcome.status, Status::TurnLimit, "{}", outcome.reason);
}

#[tokio::test(start_paused = true)]
async fn max_tokens_refusal_and_pause_turn_are_not_success() {
    for (stop_reason, status) in [
        ("max_tokens", Status::MaxTokens),
        ("length", Status::MaxTokens),
        ("model_context_window_exceeded", Status::ContextLimit),
        ("refusal", Status::Refusal),
        ("content_filter", Status::Refusal),
        ("mystery", Status::ModelError),
    ] {
        let json = scenario(
            json!([]),
            json!({}),
            json!([{"text": "partial", "stop_reason": stop_reason}]),
        );
        let (outcome, _) = run_json(&json).await;
        assert_eq!(outcome.status, status, "{stop_reason}: {}", outcome.reason);
        assert!(outcome.reason.contains(stop_reason));
        assert_eq!(outcome.answer, None);
    }
    // pause_turn continues by sending the content back: the next call is made.
    let json = scenario(
        json!([]),
        json!({}),
        json!([
            {"text": "working…", "stop_reason": "pause_turn"},
            {"text": "finished"}
        ]),
    );
    let (outcome, events) = run_json(&json).await;
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(outcome.turns, 2);
    assert_eq!(outcome.answer.as_deref(), Some("finished"));
    let second_request = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelRequest { messages, .. } => Some(*messages),
            _ => None,
        })
        .nth(1);
    assert_eq!(second_request, Some(2), "task + the paused assistant turn");
}

#[tokio::test(start_paused = true)]
async fn empty_end_turn_and_tool_use_without_calls_are_model_errors() {
    let (outcome, _) = run_json(&scenario(json!([]), json!({}), json!([{"text": "  "}]))).await;
    assert_eq!(outcome.status, Status::ModelError);
    assert!(outcome.reason.contains("without any answer text"));
    let (outcome, _) = run_json(&scenario(
        json!([]),
        json!({}),
        json!([{"text": "x", "stop_reason": "tool_use"}]),
    ))
    .await;
    assert_eq!(outcome.status, Status::ModelError);
    assert!(outcome.reason.contains("sent no tool calls"));
}

#[tokio::test(start_paused = true)]
async fn a_script_that_runs_out_is_a_model_error() {
    check(
        &scenario(
            json!([echo_tool()]),
            json!({}),
            json!([{"tool_calls": [{"name": "echo", "args": {"n": 1}}]}]),
        ),
        Expect {
            status: Status::ModelError,
            reason: &["no response for request 2: the script has 1 response and no loop_from"],
            results: &[(false, "echoed")],
        },
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn retryable_errors_back_off_and_others_do_not_retry() {
    let (outcome, events) = run_json(&scenario(
        json!([]),
        json!({"max_retries": 2}),
        json!([
            {"error": {"status": 429, "retry_after_ms": 250}},
            {"error": {"status": 503}},
            {"text": "ok"}
        ]),
    ))
    .await;
    assert_eq!(outcome.status, Status::Done);
    let retries: Vec<Option<u64>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelError { retry_in_ms, .. } => Some(*retry_in_ms),
            _ => None,
        })
        .collect();
    assert_eq!(
        retries,
        vec![Some(250), Some(1000)],
        "retry-after honoured, then backoff doubles"
    );
    assert!(outcome.elapsed_ms >= 1250);

    let (outcome, _) = run_json(&scenario(
        json!([]),
        json!({"max_retries": 1}),
        json!([
            {"error": {"status": 529}}, {"error": {"status": 529}}, {"text": "never"}
        ]),
    ))
    .await;
    assert_eq!(outcome.status, Status::ModelError);
    assert!(
        outcome
            .reason
            .contains("gave up after 2 attempts (max_retries 1)"),
        "{}",
        outcome.reason
    );
    assert!(outcome.reason.contains("HTTP 529"));

    let (outcome, events) = run_json(&scenario(
        json!([]),
        json!({"max_retries": 5}),
        json!([
            {"error": {"status": 401, "message": "invalid x-api-key"}}, {"text": "never"}
        ]),
    ))
    .await;
    assert_eq!(outcome.status, Status::ModelError);
    assert!(
        outcome
            .reason
            .contains("HTTP 401: invalid x-api-key (not retried"),
        "{}",
        outcome.reason
    );
    assert_eq!(
        event_types(&events)
            .iter()
            .filter(|t| *t == "model_request")
            .count(),
        1
    );

    // A huge retry-after is capped.
    let (_, events) = run_json(&scenario(
        json!([]),
        json!({}),
        json!([
            {"error": {"status": 429, "retry_after_ms": 3_600_000}}, {"text": "ok"}
        ]),
    ))
    .await;
    assert!(events.iter().any(|e| matches!(
        e.kind,
        EventKind::ModelError {
            retry_in_ms: Some(20_000),
            ..
        }
    )));
}

#[tokio::test(start_paused = true)]
async fn deadline_interrupts_a_long_delay_near_the_deadline() {
    let json = scenario(
        json!([]),
        json!({"deadline_ms": 1500}),
        json!([{"text": "late", "delay_ms": 60000}]),
    );
    let (outcome, _) = run_json(&json).await;
    assert_eq!(outcome.status, Status::Deadline);
    assert!(
        (1500..1600).contains(&outcome.elapsed_ms),
        "interrupted at {} ms, not after the 60 s delay",
        outcome.elapsed_ms
    );
    assert!(outcome.reason.contains("1500 ms deadline passed"));
    assert!(outcome.reason.contains("waiting for the model in turn 1"));
}

#[tokio::test(start_paused = true)]
async fn each_run_has_its_own_deadline() {
    // Seed 002 computed the deadline once at import: a second run inherited a
    // deadline already half spent. Two runs back to back each get the full time.
    let json = scenario(
        json!([]),
        json!({"deadline_ms": 1000}),
        json!([{"text": "ok", "delay_ms": 700}]),
    );
    let scenario = load(&json);
    for _ in 0..3 {
        let (outcome, _) = run_with(&scenario, None).await;
        assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    }
}

#[tokio::test(start_paused = true)]
async fn approval_decisions() {
    let tool = json!({"name": "refund", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}, "needs_approval": true, "result": "refunded"});
    let two_calls = json!([
        {"tool_calls": [{"name": "refund", "args": {"id": "a"}}]},
        {"tool_calls": [{"name": "refund", "args": {"id": "b"}}]},
        {"text": "done"}
    ]);
    let json = scenario(json!([tool]), json!({}), two_calls);
    // Deny: the model sees why and goes on.
    check_with(
        &json,
        vec![
            Decision::Deny {
                reason: Some("wrong customer".into()),
            },
            Decision::Approve,
        ],
        Expect {
            status: Status::Done,
            reason: &[],
            results: &[
                (true, "denied by the user: wrong customer"),
                (false, "refunded"),
            ],
        },
    )
    .await;
    // Deny and stop: blocked.
    check_with(
        &json,
        vec![Decision::DenyAndStop { reason: None }],
        Expect {
            status: Status::Blocked,
            reason: &["the user denied refund and stopped the run"],
            results: &[(true, "denied by the user")],
        },
    )
    .await;
    // Always allow: the second call is approved without asking.
    let approver = QueueApprover::new(vec![Decision::AlwaysAllow]);
    let (outcome, events) = run_with(&load(&json), Some(&approver)).await;
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(approver.seen.borrow().len(), 1);
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::ApprovalDecided {
            by: harness::approval::Decider::AlwaysAllow,
            ..
        }
    )));
    // Edited arguments are validated again: an invalid edit is refused and
    // the approver is asked again, told why; a valid edit is what runs.
    let approver = QueueApprover::new(vec![
        Decision::ApproveEdited(json!({"id": 7})),
        Decision::ApproveEdited(json!({"id": "c"})),
        Decision::Approve,
    ]);
    let (outcome, events) = run_with(&load(&json), Some(&approver)).await;
    assert_eq!(outcome.status, Status::Done);
    let edit_error = approver.seen.borrow()[1]
        .edit_error
        .clone()
        .unwrap_or_default();
    assert_eq!(approver.seen.borrow().len(), 3);
    assert!(
        edit_error.contains("/id: expected a string, found a number (7)"),
        "{edit_error}"
    );
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::ApprovalDecided { args: Some(args), .. } if *args == json!({"id": "c"}))));
    // No approver at all: blocked.
    let (outcome, _) = run_json(&json).await;
    assert_eq!(outcome.status, Status::Blocked);
    assert!(outcome
        .reason
        .contains("needs approval and no approver is available"));
}

#[tokio::test(start_paused = true)]
async fn approval_policies() {
    let tool = json!({"name": "refund", "input_schema": {"type": "object"}, "needs_approval": true, "result": "refunded"});
    let mut value: serde_json::Value = serde_json::from_str(&scenario(
        json!([tool]),
        json!({}),
        json!([
            {"tool_calls": [{"name": "refund", "args": {}}]}, {"text": "done"}
        ]),
    ))
    .unwrap();
    value["approval"] = json!("approve_all");
    let (outcome, _) = run_json(&value.to_string()).await;
    assert_eq!(outcome.status, Status::Done);
    value["approval"] = json!("deny_all");
    let (outcome, events) = run_json(&value.to_string()).await;
    assert_eq!(outcome.status, Status::Blocked);
    assert!(outcome.reason.contains("the approval policy is deny_all"));
    assert_eq!(
        tool_results(&events).len(),
        1,
        "the refused call is answered"
    );
}

#[tokio::test(start_paused = true)]
async fn verifiers_name_the_failed_check() {
    let base = |verify: serde_json::Value, answer: &str| {
        json!({"name": "t", "task": "t", "tools": [echo_tool()], "verify": verify,
            "model": {"type": "scripted", "responses": [
                {"tool_calls": [{"name": "echo", "args": {"n": 1}}]}, {"text": answer}]}})
        .to_string()
    };
    for (verify, answer, status, reason) in [
        (
            json!([{"contains": "ord_1"}]),
            "ord_1 refunded",
            Status::Done,
            "verifier accepted",
        ),
        (
            json!([{"contains": "ord_1"}]),
            "ord_2 refunded",
            Status::FailedVerification,
            "verifier check 1 (contains \"ord_1\") failed",
        ),
        (
            json!([{"not_contains": "sorry"}]),
            "sorry",
            Status::FailedVerification,
            "check 1 (not_contains \"sorry\")",
        ),
        (
            json!([{"regex": "^ord_[0-9]+ refunded$"}]),
            "ord_12 refunded",
            Status::Done,
            "accepted",
        ),
        (
            json!([{"regex": "^ord_[0-9]+$"}]),
            "ord_12 refunded",
            Status::FailedVerification,
            "does not match",
        ),
        (
            json!([{"tool_called": "echo"}]),
            "x",
            Status::Done,
            "accepted",
        ),
        (
            json!([{"contains": "x"}, {"tool_called": "refund"}]),
            "x",
            Status::FailedVerification,
            "check 2 (tool_called \"refund\") failed: refund never ran",
        ),
        (
            json!([{"tool_not_called": "echo"}]),
            "x",
            Status::FailedVerification,
            "echo ran in this run",
        ),
        (
            json!([{"tool_called_with": {"tool": "echo", "args": {"n": 1}}}]),
            "x",
            Status::Done,
            "accepted",
        ),
        (
            json!([{"tool_called_with": {"tool": "echo", "args": {"n": 2}}}]),
            "x",
            Status::FailedVerification,
            "check 1 (tool_called_with \"echo\" {\"n\":2}) failed: echo ran, but its last successful run had n 1 (wanted 2)",
        ),
        (
            json!([{"tool_called_with": {"tool": "echo", "args": {"n": 1, "m": true}}}]),
            "x",
            Status::FailedVerification,
            "echo ran, but its last successful run had no m (wanted true)",
        ),
        (
            json!([{"tool_called_with": {"tool": "refund", "args": {"n": 1}}}]),
            "x",
            Status::FailedVerification,
            "refund never ran successfully in this run",
        ),
    ] {
        let (outcome, _) = run_json(&base(verify, answer)).await;
        assert_eq!(outcome.status, status, "{}", outcome.reason);
        assert!(
            outcome.reason.contains(reason),
            "{:?} should contain {reason:?}",
            outcome.reason
        );
        assert_eq!(outcome.answer.as_deref(), Some(answer));
    }
}

#[tokio::test(start_paused = true)]
async fn cancel_stops_a_pending_call_at_once() {
    use harness::cancel::CancelToken;
    use harness::runtime::TokioRuntime;
    use std::rc::Rc;

    let scenario = load(&scenario(
        json!([]),
        json!({}),
        json!([{"text": "slow", "delay_ms": 30000}]),
    ));
    let cancel = CancelToken::new();
    let trigger = cancel.clone();
    let mut ignore = |_: &harness::event::RunEvent| {};
    let run = harness::run_scenario(
        &scenario,
        Rc::new(TokioRuntime::default()),
        harness::RunOptions {
            cancel,
            ..Default::default()
        },
        &mut ignore,
    );
    let stopper = async move {
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        trigger.cancel();
    };
    let (outcome, ()) = futures::join!(run, stopper);
    let outcome = outcome.unwrap();
    assert_eq!(outcome.status, Status::Cancelled);
    assert!(
        (250..300).contains(&outcome.elapsed_ms),
        "{}",
        outcome.elapsed_ms
    );
    assert!(
        outcome
            .reason
            .contains("stopped by the user after 1 turn (while waiting for the model in turn 1)"),
        "{}",
        outcome.reason
    );
}

#[tokio::test(start_paused = true)]
async fn trace_round_trips_through_json_lines() {
    for builtin in BUILTIN {
        let (_, events) = common::run_builtin(builtin).await;
        let text = harness::event::to_jsonl(&events);
        assert_eq!(text.lines().count(), events.len());
        let back = harness::event::from_jsonl(&text).expect("parses");
        assert_eq!(back, events, "{}", builtin.id);
    }
    let err = harness::event::from_jsonl("{\"seq\":0}\nnot json").unwrap_err();
    assert_eq!(err.line(), 1, "{err}");
    assert!(err.to_string().starts_with("line 1:"), "{err}");
}

#[tokio::test(start_paused = true)]
async fn a_handler_error_is_an_error_result_and_the_run_goes_on() {
    use futures::future::LocalBoxFuture;
    use harness::driver::{drive, Env};
    use harness::model::ToolSpec;
    use harness::run::Run;
    use harness::runtime::TokioRuntime;
    use harness::tool::{ToolDef, ToolHandler, ToolRegistry};
    use std::rc::Rc;

    struct DiskFull;
    impl ToolHandler for DiskFull {
        fn call(
            &self,
            _args: serde_json::Value,
        ) -> LocalBoxFuture<'static, Result<serde_json::Value, String>> {
            Box::pin(async { Err("disk full".to_string()) })
        }
    }

    let runtime: Rc<dyn harness::runtime::Runtime> = Rc::new(TokioRuntime::default());
    let scenario = load(&scenario(
        json!([]),
        json!({}),
        json!([
            {"tool_calls": [{"name": "save", "args": {}}]},
            {"text": "could not save: the disk is full"}
        ]),
    ));
    let (mut config, model) = scenario.build(runtime.clone()).unwrap();
    let schema = json!({"type": "object"});
    config.tools = ToolRegistry::new(vec![ToolDef {
        spec: ToolSpec {
            name: "save".into(),
            description: "Saves.".into(),
            input_schema: schema.clone(),
        },
        schema: tool_schema::Schema::compile(&schema).unwrap(),
        needs_approval: false,
        handler: Rc::new(DiskFull),
    }]);
    let mut run = Run::new(config);
    let env = Env {
        runtime: runtime.as_ref(),
        model: model.as_ref(),
        approver: None,
        cancel: Default::default(),
        stepper: None,
    };
    let mut events = Vec::new();
    let outcome = drive(&mut run, &env, &mut |e| events.push(e.clone())).await;
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(
        tool_results(&events),
        vec![(
            "save".to_string(),
            true,
            "tool error: disk full".to_string()
        )]
    );
    // The model received it: the history's last user message carries the error result.
    let results = &run.history()[2];
    assert_eq!(results.role, harness::message::Role::User);
    assert!(matches!(&results.content[0],
        harness::message::ContentBlock::ToolResult(r) if r.is_error && r.content == "tool error: disk full"));
}

#[tokio::test(start_paused = true)]
async fn a_scenario_clock_makes_tool_results_reproducible() {
    let (_, events) = run_json(harness::library::find("get-time").unwrap().json()).await;
    assert_eq!(
        tool_results(&events),
        vec![(
            "get_time".to_string(),
            false,
            r#"{"utc":"2026-11-29T12:00:00Z","unix_ms":1795953600000}"#.to_string()
        )]
    );
    let problems = harness::scenario::Scenario::load(
        r#"{"name": "n", "task": "t", "now": "2026-02-30T00:00:00Z", "model": {"type": "scripted", "responses": []}}"#,
    )
    .unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].path, "now");
}

#[tokio::test(start_paused = true)]
async fn seed_tools_enforce_their_rules_inside_a_run() {
    // Seed 003: a refund before the policy check is refused by the handler,
    // whatever the model believes; the model then follows the order.
    let json = json!({
        "name": "t", "task": "refund A1001", "tools": ["get_order", "check_refund_policy", "refund_order"],
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "refund_order", "args": {"order_id": "A1001"}}]},
            {"tool_calls": [{"name": "check_refund_policy", "args": {"order_id": "A1001"}}]},
            {"tool_calls": [{"name": "refund_order", "args": {"order_id": "A1001"}}]},
            {"text": "refunded A1001"}
        ]}
    });
    let (outcome, events) = run_json(&json.to_string()).await;
    assert_eq!(outcome.status, Status::Done);
    let results = tool_results(&events);
    assert!(
        results[0].1
            && results[0]
                .2
                .contains("check_refund_policy has not been called")
    );
    assert!(!results[2].1 && results[2].2.contains("\"ok\":true"));
}

#[tokio::test(start_paused = true)]
async fn the_host_gets_the_thread_after_every_step_with_its_events_already_out() {
    use futures::future::LocalBoxFuture;
    use harness::driver::{Pause, Resume, Stepper};
    use harness::event::RunEvent;
    use harness::runtime::TokioRuntime;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Never pauses; at each yield, notes how many events the host had by then.
    struct Host {
        seen: Rc<RefCell<Vec<RunEvent>>>,
        at_yields: RefCell<Vec<usize>>,
    }
    impl Stepper for Host {
        fn step_mode(&self) -> bool {
            false
        }
        fn wait(&self, _: &Pause) -> LocalBoxFuture<'static, Resume> {
            unreachable!("never in step mode")
        }
        fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
            self.at_yields.borrow_mut().push(self.seen.borrow().len());
            Some(Box::pin(tokio::task::yield_now()))
        }
    }

    let json = scenario(
        json!([echo_tool()]),
        json!({}),
        json!([{"tool_calls": [{"name": "echo", "args": {"n": 1}}]}, {"text": "done"}]),
    );
    let seen = Rc::new(RefCell::new(Vec::new()));
    let host = Host {
        seen: seen.clone(),
        at_yields: RefCell::new(Vec::new()),
    };
    let sink = seen.clone();
    let outcome = harness::run_scenario(
        &load(&json),
        Rc::new(TokioRuntime::default()),
        harness::RunOptions {
            stepper: Some(&host),
            ..Default::default()
        },
        &mut |event: &RunEvent| sink.borrow_mut().push(event.clone()),
    )
    .await
    .expect("builds");

    assert_eq!(outcome.status, Status::Done);
    let at_yields = host.at_yields.take();
    // Model call, tool call: a yield after each, with the step's events
    // already out; the final answer ends the run, and nothing yields after
    // the end.
    assert_eq!(at_yields.len(), 2, "{at_yields:?}");
    assert!(at_yields.windows(2).all(|w| w[0] < w[1]), "{at_yields:?}");
    let kind_at = |n: usize| serde_json::to_value(&seen.borrow()[n - 1]).unwrap()["type"].clone();
    assert_eq!(kind_at(at_yields[0]), "model_response");
    assert_eq!(kind_at(at_yields[1]), "tool_result");
    assert!(*at_yields.last().unwrap() < seen.borrow().len());
    // Yielding changes nothing the run records.
    let (_, plain) = run_json(&json).await;
    assert_eq!(*seen.borrow(), plain);
}
