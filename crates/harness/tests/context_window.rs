//! The context window: the gate before each model call, each
//! strategy's edit as the model and the inspector see it, the new
//! `context_limit` status, and the provider's `model_context_window_exceeded`
//! told apart from `max_tokens`. Each built-in pair ends as its lesson says.

mod common;

use harness::context::{ContextEdit, CLEARED_PLACEHOLDER, COMPACT_INSTRUCTION, SUMMARY_HEADING};
use harness::event::{EventKind, RunEvent, Status};
use harness::library;
use harness::message::{ContentBlock, Role};
use harness::model::StopKind;
use harness::wire::rejections::{first_per_provider, sentence};
use harness::wire::{rejections, replayed_requests, Provider, RequestShape};

async fn run(id: &str) -> (harness::event::Outcome, Vec<RunEvent>) {
    common::run_builtin(library::find(id).expect("built in")).await
}

/// The `context_edited` events: (turn, strategy, before, after, sentence).
fn edits(events: &[RunEvent]) -> Vec<(u32, &'static str, u64, u64, String, ContextEdit)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ContextEdited {
                turn,
                strategy,
                edit,
                tokens_before,
                tokens_after,
                description,
            } => Some((
                *turn,
                strategy.as_str(),
                *tokens_before,
                *tokens_after,
                description.clone(),
                edit.clone(),
            )),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn with_no_strategy_the_request_that_cannot_fit_is_not_sent() {
    let (outcome, events) = run("context-limit").await;
    assert_eq!(outcome.status, Status::ContextLimit);
    assert_eq!(
        outcome.reason,
        "the next request needs ≈7,279 input tokens + 1,024 output; the window is 8,000 (window_tokens), so turn 5 was not sent; no context strategy is set"
    );
    assert_eq!(outcome.turns, 4, "turn 5 was never sent");
    assert!(edits(&events).is_empty());
    assert_eq!(outcome.tone().as_str(), "guard");
}

#[tokio::test(start_paused = true)]
async fn clearing_old_results_puts_the_placeholder_in_the_request_as_sent() {
    let (outcome, events) = run("context-clear-tool-results").await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    let found = edits(&events);
    assert_eq!(found.len(), 1, "{found:?}");
    let (turn, strategy, before, after, sentence, _) = &found[0];
    assert_eq!((*turn, *strategy), (5, "clear_tool_results"));
    assert_eq!((*before, *after), (7279, 2549));
    assert_eq!(
        sentence,
        "cleared 2 tool results (get_checkout_log, get_inventory_log), 7,279 → 2,549 tokens; kept the newest 1 and get_policy"
    );
    // Turn 5's request, rebuilt from the trace as the inspector shows it.
    let requests = replayed_requests(&events);
    let last = requests.last().unwrap();
    assert_eq!(last.turn, 5);
    let results: Vec<&str> = last
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::ToolResult(r) => Some(r.content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 4);
    assert!(results[0].contains("never retried"), "the policy stays");
    assert_eq!(results[1], CLEARED_PLACEHOLDER);
    assert_eq!(results[2], CLEARED_PLACEHOLDER);
    assert!(results[3].contains("ORD-7731"), "the newest stays");
    // The earlier requests were sent before the edit, whole.
    assert!(!requests[3]
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .any(|b| matches!(b, ContentBlock::ToolResult(r) if r.content == CLEARED_PLACEHOLDER)));
}

#[tokio::test(start_paused = true)]
async fn the_naive_window_keeps_an_orphaned_result_that_every_provider_refuses() {
    let (outcome, events) = run("context-drop-naive").await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    let found = edits(&events);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].5, ContextEdit::Dropped { messages: 3 });
    assert_eq!(
        found[0].4,
        "dropped turns 1–2 (keep_pairs false: messages dropped one by one, whatever they hold), 3,930 → 3,029 tokens"
    );
    let request = replayed_requests(&events).pop().unwrap();
    assert_eq!(request.turn, 4);
    assert_eq!(request.messages[1].role, Role::User);
    assert!(matches!(
        request.messages[1].content[0],
        ContentBlock::ToolResult(_)
    ));
    let shape = RequestShape::of(&common::load(
        library::find("context-drop-naive").unwrap().json(),
    ))
    .unwrap();
    let found = rejections(&shape, &events);
    let first = first_per_provider(&found);
    let providers: Vec<Provider> = first.iter().map(|r| r.violation.provider).collect();
    assert_eq!(providers, Provider::ALL.to_vec());
    assert!(first.iter().all(|r| r.turn == 4), "{first:?}");
    assert!(
        sentence(first[0]).starts_with(
            "Anthropic Messages would reject turn 4: HTTP 400 messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks: "
        ),
        "{}",
        sentence(first[0])
    );
}

#[tokio::test(start_paused = true)]
async fn dropping_whole_turns_keeps_every_request_valid() {
    let (outcome, events) = run("context-drop-pairs").await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    let found = edits(&events);
    assert_eq!(found[0].5, ContextEdit::Dropped { messages: 4 });
    assert_eq!(found[0].4, "dropped turns 1–2, 3,930 → 1,825 tokens");
    let shape = RequestShape::of(&common::load(
        library::find("context-drop-pairs").unwrap().json(),
    ))
    .unwrap();
    assert_eq!(rejections(&shape, &events), Vec::new());
    let request = replayed_requests(&events).pop().unwrap();
    assert_eq!(request.messages[1].role, Role::Assistant);
}

#[tokio::test(start_paused = true)]
async fn compaction_continues_from_the_task_and_the_summary() {
    for (id, status) in [
        ("context-compact-lossy", Status::FailedVerification),
        ("context-compact-keeps-id", Status::Done),
    ] {
        let (outcome, events) = run(id).await;
        assert_eq!(outcome.status, status, "{id}: {}", outcome.reason);
        let found = edits(&events);
        assert_eq!(found.len(), 1, "{id}");
        assert_eq!(found[0].1, "compact");
        assert!(
            found[0]
                .4
                .starts_with("compacted turns 1–3 into a summary, "),
            "{}",
            found[0].4
        );
        let ContextEdit::Compacted { summary, .. } = &found[0].5 else {
            panic!("{:?}", found[0].5)
        };
        let request = replayed_requests(&events).pop().unwrap();
        assert_eq!(request.messages.len(), 1, "{id}: task and summary only");
        assert_eq!(
            request.messages[0].content[1],
            ContentBlock::Text {
                text: format!("{SUMMARY_HEADING}\n{summary}")
            }
        );
        assert_eq!(summary.contains("ORD-7731"), status == Status::Done);
    }
}

#[tokio::test(start_paused = true)]
async fn a_provider_full_window_is_not_max_tokens_and_retrying_it_fails_each_time() {
    assert_eq!(
        StopKind::classify("model_context_window_exceeded"),
        StopKind::ContextWindowExceeded
    );
    assert_eq!(StopKind::classify("max_tokens"), StopKind::MaxTokens);
    let (outcome, events) = run("context-exceeded-retry").await;
    assert_eq!(outcome.status, Status::ContextLimit);
    assert_eq!(
        outcome.reason,
        "the provider stopped turn 3: the request no longer fits the model's context window (stop_reason model_context_window_exceeded); it was sent 3 times, each retry resending the same history (on_window_exceeded retry)"
    );
    assert_eq!(outcome.tone().as_str(), "model");
    let attempts: Vec<u32> = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::ModelRequest {
                turn: 3, attempt, ..
            } => Some(attempt),
            _ => None,
        })
        .collect();
    assert_eq!(attempts, [1, 2, 3]);
    // Every retry resent the same history.
    let requests = replayed_requests(&events);
    let third: Vec<_> = requests.iter().filter(|r| r.turn == 3).collect();
    assert!(third.windows(2).all(|w| w[0].messages == w[1].messages));

    let (outcome, events) = run("context-exceeded-compact").await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    let found = edits(&events);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, 4, "the compaction comes before the next turn");
}

#[test]
fn the_compact_instruction_asks_for_every_id() {
    assert!(COMPACT_INSTRUCTION.contains("every id"));
}

/// The trace's `run_started` carries the window and the strategy, so the
/// page's Context gate reads them from the events as it reads the limits; a
/// trace without them (no window, or written before) loads as no window.
#[tokio::test(start_paused = true)]
async fn run_started_carries_the_context_and_old_traces_still_load() {
    let (_, events) = run("context-clear-tool-results").await;
    let first = harness::event::to_jsonl(&events[..1]);
    let line: serde_json::Value = serde_json::from_str(first.trim()).unwrap();
    assert_eq!(line["type"], "run_started");
    assert_eq!(line["context"]["strategy"], "clear_tool_results");
    assert!(line["context"]["window_tokens"].as_u64().is_some());
    let back = harness::event::from_jsonl(&first).unwrap();
    assert_eq!(back[0], events[0]);

    let (_, plain) = run("turn-limit").await;
    let first = harness::event::to_jsonl(&plain[..1]);
    assert!(!first.contains("\"context\""), "{first}");
    let back = harness::event::from_jsonl(&first).unwrap();
    match &back[0].kind {
        EventKind::RunStarted { context, .. } => assert!(context.is_unset()),
        other => panic!("{other:?}"),
    }
}
