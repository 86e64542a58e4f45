//! Each pitfall from the seed reviews, as a naive/fixed pair: the two runs
//! differ in the way the lesson says.

mod common;

use std::rc::Rc;

use common::{load, run_with, tool_results, QueueApprover};
use harness::approval::Decision;
use harness::event::{EventKind, Outcome, RunEvent, Status};
use harness::library::{find, pair_of, PITFALL_PAIRS};
use harness::message::ContentBlock;
use harness::runtime::TokioRuntime;

async fn run(id: &str) -> (Outcome, Vec<RunEvent>) {
    let scenario = load(
        find(id)
            .unwrap_or_else(|| panic!("no scenario {id}"))
            .json(),
    );
    let approver = QueueApprover::new(vec![Decision::Approve; 4]);
    run_with(&scenario, Some(&approver)).await
}

fn tool_call_count(events: &[RunEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ToolCall { .. }))
        .count()
}

#[test]
fn every_pair_names_two_builtin_scenarios() {
    for (naive, fixed) in PITFALL_PAIRS {
        assert!(
            find(naive).is_some() && find(fixed).is_some(),
            "{naive} / {fixed}"
        );
        assert_eq!(pair_of(naive), Some(*fixed));
    }
}

#[tokio::test(start_paused = true)]
async fn cost_naive_overshoots_and_strict_never_does() {
    let (naive, _) = run("cost-limit-naive").await;
    let (strict, _) = run("cost-limit-strict").await;
    assert!(
        naive.cost_usd > 0.02 && strict.cost_usd <= 0.02,
        "{} / {}",
        naive.cost_usd,
        strict.cost_usd
    );
}

#[tokio::test(start_paused = true)]
async fn cycles_and_whitespace_slip_past_the_naive_repeat_check() {
    let (naive, _) = run("repeated-call-naive").await;
    let (fixed, _) = run("repeated-call").await;
    assert_eq!(
        (naive.status, fixed.status),
        (Status::Done, Status::RepeatedCall)
    );
    let (naive, naive_events) = run("whitespace-searches-naive").await;
    let (fixed, fixed_events) = run("whitespace-searches-canonical").await;
    assert_eq!(
        (naive.status, fixed.status),
        (Status::Done, Status::RepeatedCall)
    );
    assert_eq!(tool_call_count(&naive_events), 4, "all four searches ran");
    assert_eq!(
        tool_results(&fixed_events).iter().filter(|r| !r.1).count(),
        1,
        "only the first ran"
    );
}

#[tokio::test(start_paused = true)]
async fn a_between_steps_deadline_waits_out_the_hung_tool() {
    let (naive, _) = run("deadline-between-steps").await;
    let (fixed, fixed_events) = run("deadline-interrupts-tool").await;
    assert_eq!(
        (naive.status, fixed.status),
        (Status::Deadline, Status::Deadline)
    );
    assert!(
        naive.elapsed_ms >= 3000,
        "waited for the 3 s tool: {}",
        naive.elapsed_ms
    );
    assert!(
        (1500..1600).contains(&fixed.elapsed_ms),
        "interrupted at the deadline: {}",
        fixed.elapsed_ms
    );
    assert!(naive.reason.contains("checked only between steps"));
    assert!(tool_results(&fixed_events)[0]
        .2
        .starts_with("not run to completion"));
}

#[tokio::test(start_paused = true)]
async fn a_shared_deadline_is_half_spent_before_the_second_run_starts() {
    let json = r#"{"name": "shared", "task": "t", "limits": {"deadline_ms": 1000, "deadline_scope": "shared"},
        "model": {"type": "scripted", "responses": [{"text": "ok", "delay_ms": 400}]}}"#;
    let per_run = json.replace("\"shared\"}", "\"run\"}");
    for (json, second_status) in [
        (json.to_string(), Status::Deadline),
        (per_run, Status::Done),
    ] {
        let scenario = load(&json);
        // One runtime for both runs, as one page (or one imported module) would be.
        let runtime: Rc<dyn harness::runtime::Runtime> = Rc::new(TokioRuntime::default());
        let first =
            harness::run_scenario(&scenario, runtime.clone(), Default::default(), &mut |_| {})
                .await
                .unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let second = harness::run_scenario(&scenario, runtime, Default::default(), &mut |_| {})
            .await
            .unwrap();
        assert_eq!(first.status, Status::Done);
        assert_eq!(second.status, second_status, "{}", second.reason);
        if second_status == Status::Deadline {
            assert!(
                second.elapsed_ms < 200,
                "only {} ms of the deadline were left",
                second.elapsed_ms
            );
            assert!(
                second.reason.contains("the deadline is shared"),
                "{}",
                second.reason
            );
        }
    }
}

#[tokio::test(start_paused = true)]
async fn an_empty_list_without_a_reason_reads_as_no_rooms() {
    let (naive, _) = run("empty-result-no-reason").await;
    let (fixed, events) = run("empty-result-with-reason").await;
    assert!(naive.answer.unwrap().contains("no rooms"));
    assert!(fixed.answer.unwrap().contains("h_lis_01"));
    assert!(tool_results(&events)[0]
        .2
        .contains("\"reason\":\"invalid_request: check_in 2024-03-14 is in the past"));
}

#[tokio::test(start_paused = true)]
async fn an_environment_flag_approves_the_wrong_refund_unasked() {
    let (_, events) = run("refund-env-flag").await;
    assert!(events
        .iter()
        .all(|e| !matches!(e.kind, EventKind::ApprovalRequested { .. })));
    assert!(
        tool_results(&events)[0]
            .2
            .contains("\"order_id\":\"ord_k1l2m3n4o5\""),
        "the wrong order was refunded"
    );
    let (_, events) = run("refund-with-approval").await;
    assert!(events
        .iter()
        .any(|e| matches!(e.kind, EventKind::ApprovalRequested { .. })));
}

#[tokio::test(start_paused = true)]
async fn a_weak_verifier_passes_a_wrong_answer() {
    let (weak, _) = run("verifier-weak").await;
    let (precise, _) = run("failed-verification").await;
    assert_eq!(
        (weak.status, precise.status),
        (Status::Done, Status::FailedVerification)
    );
    assert!(
        weak.answer.unwrap().contains("ord_a1b2c3d4e5"),
        "the wrong order, accepted"
    );
}

#[tokio::test(start_paused = true)]
async fn a_precondition_in_the_description_is_not_enforced() {
    let (_, naive) = run("precondition-in-description").await;
    let (_, fixed) = run("precondition-in-code").await;
    assert!(!tool_results(&naive)[0].1, "refunded twice");
    let (_, is_error, text) = &tool_results(&fixed)[0];
    assert!(*is_error && text.contains("already refunded"), "{text}");
}

#[tokio::test(start_paused = true)]
async fn a_cut_off_answer_is_only_success_in_naive_mode() {
    let (naive, _) = run("max-tokens-naive").await;
    let (strict, _) = run("max-tokens").await;
    assert_eq!(
        (naive.status, strict.status),
        (Status::Done, Status::MaxTokens)
    );
    assert!(naive
        .reason
        .contains("stop_reason max_tokens taken as final"));
}

#[tokio::test(start_paused = true)]
async fn a_text_only_history_loses_the_thinking_block() {
    let request_with_thinking = |events: &[RunEvent]| {
        // The second request's history, as the run kept it.
        let history = harness::wire::history_from_trace(events);
        history.iter().any(|m| {
            m.content
                .iter()
                .any(|b| matches!(b, ContentBlock::Thinking { .. }))
        })
    };
    let (_, whole) = run("get-time").await;
    let (_, text_only) = run("history-text-only").await;
    assert!(request_with_thinking(&whole));
    assert!(
        !request_with_thinking(&text_only),
        "the thinking block is not sent back"
    );
    // The wire shows it: Anthropic's second request has no thinking block.
    let second_request_blocks = |events: &[RunEvent]| {
        let history = harness::wire::history_from_trace(events);
        history[1].content.len()
    };
    assert_eq!(second_request_blocks(&whole), 3, "thinking, text, tool_use");
    assert_eq!(second_request_blocks(&text_only), 2, "text, tool_use");
}

#[tokio::test(start_paused = true)]
async fn an_untrimmed_result_costs_far_more_than_ids_and_prices() {
    let (_, fat) = run("result-untrimmed").await;
    let (_, lean) = run("hotel-search").await;
    let fat_len = tool_results(&fat)[0].2.len();
    let lean_len = tool_results(&lean)[1].2.len();
    assert!(fat_len > 3_500, "{fat_len}");
    assert!(fat_len > 15 * lean_len, "{fat_len} vs {lean_len}");
}

/// The built-in pair for seed 002's shared deadline, on a page open 2.5 s:
/// the shared one is spent before its first turn, the per-run one finishes.
#[tokio::test(start_paused = true)]
async fn the_builtin_shared_deadline_is_spent_before_turn_one_on_an_open_page() {
    let shared = find("deadline-shared").unwrap();
    let per_run = find("deadline-per-run").unwrap();
    let age = harness::library::clock_age_needed_ms(shared);
    assert_eq!(age, 2500);
    assert_eq!(harness::library::clock_age_needed_ms(per_run), 0);
    let (naive, events) = common::run_aged(&load(shared.json()), None, age).await;
    assert_eq!(naive.status, Status::Deadline, "{}", naive.reason);
    assert_eq!(naive.turns, 0, "the model was called: {}", naive.reason);
    assert!(naive.reason.contains("shared"), "{}", naive.reason);
    assert!(!events
        .iter()
        .any(|e| matches!(e.kind, EventKind::ModelRequest { .. })));
    let (fixed, _) = common::run_aged(&load(per_run.json()), None, age).await;
    assert_eq!(fixed.status, Status::Done, "{}", fixed.reason);
}
