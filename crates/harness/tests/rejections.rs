//! Which turn each provider would reject, found in a finished run's trace:
//! the three protocol-breaking built-ins are rejected at turn 2 by the
//! providers their lessons name, and every other built-in by none.

mod common;

use harness::library::{self, BUILTIN};
use harness::wire::rejections::{first_per_provider, sentence};
use harness::wire::{check, rejections, replayed_requests, Provider, RequestShape};

async fn rejections_of(id: &str) -> Vec<harness::wire::Rejection> {
    let builtin = library::find(id).unwrap();
    let (_, events) = common::run_builtin(builtin).await;
    let shape = RequestShape::of(&common::load(builtin.json())).unwrap();
    rejections(&shape, &events)
}

#[tokio::test(start_paused = true)]
async fn duplicate_ids_are_rejected_at_turn_2_by_every_provider_saying_which_refusal_is_documented()
{
    let found = rejections_of("protocol-duplicate-ids").await;
    let first = first_per_provider(&found);
    let providers: Vec<Provider> = first.iter().map(|r| r.violation.provider).collect();
    assert_eq!(
        providers,
        [
            Provider::Anthropic,
            Provider::OpenaiChat,
            Provider::OpenaiResponses
        ]
    );
    assert!(first.iter().all(|r| r.turn == 2), "{first:?}");
    assert_eq!(
        sentence(first[0]),
        "Anthropic Messages would reject turn 2: HTTP 400 messages.1.content.1: `tool_use` ids must be unique"
    );
    // Responses' refusal is known from issue threads, and says so.
    assert_eq!(
        sentence(first[2]),
        "OpenAI Responses is reported to reject turn 2 (not documented): HTTP 400 Duplicate 'call_id': toolu_dup"
    );
    assert!(
        harness::wire::rejections::why(first[2]).contains("not documented"),
        "{}",
        harness::wire::rejections::why(first[2])
    );
    // The card's place and reason count in the run's history; the wire
    // explanation (for the inspector) in the provider's body.
    assert_eq!(
        first[1].place.as_deref(),
        Some("the 3rd message (user), its 2nd block, a tool_result")
    );
    assert!(first[1]
        .violation
        .explanation
        .starts_with("The 4th message (tool)"));
    assert_eq!(
        first[0].place.as_deref(),
        Some("the 2nd message (assistant), its 2nd block, a tool_use")
    );
}

#[tokio::test(start_paused = true)]
async fn text_before_results_and_invented_ids_are_rejected_at_turn_2() {
    for id in [
        "protocol-text-before-results",
        "protocol-invented-result-ids",
    ] {
        let found = rejections_of(id).await;
        let first = first_per_provider(&found);
        assert!(!first.is_empty(), "{id}: no provider rejects it");
        assert!(first.iter().all(|r| r.turn == 2), "{id}: {first:?}");
        assert!(
            first
                .iter()
                .any(|r| r.violation.provider == Provider::Anthropic),
            "{id}: Anthropic accepts it"
        );
        for r in &found {
            assert!(r.place.is_some(), "{id}: {} has no place", r.violation.path);
        }
    }
}

#[tokio::test(start_paused = true)]
async fn every_other_builtin_is_accepted_by_every_provider() {
    // The naive context window's refusal is `context_window.rs`'s to check;
    // the dropped thinking block's is checked below.
    let breaks = |id: &str| {
        id.starts_with("protocol-") || id == "context-drop-naive" || id == "history-text-only"
    };
    for builtin in BUILTIN.iter().filter(|b| !breaks(b.id)) {
        let found = rejections_of(builtin.id).await;
        assert!(
            found.is_empty(),
            "{}: {:?}",
            builtin.id,
            found.iter().map(sentence).collect::<Vec<_>>()
        );
    }
}

/// The pitfall `history-text-only` teaches: its model thought, so its
/// requests asked for thinking, and turn 2 sent the loop's opener back
/// without its thinking block. Anthropic refuses that; the run with its
/// thinking kept (`get-time`) passes.
#[tokio::test(start_paused = true)]
async fn a_dropped_thinking_block_is_rejected_by_anthropic_at_turn_2() {
    let found = rejections_of("history-text-only").await;
    let first = first_per_provider(&found);
    assert_eq!(
        first.len(),
        1,
        "{:?}",
        first.iter().map(|r| sentence(r)).collect::<Vec<_>>()
    );
    assert_eq!(
        sentence(first[0]),
        "Anthropic Messages would reject turn 2: HTTP 400 messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    );
    assert_eq!(
        first[0].place.as_deref(),
        Some("the 2nd message (assistant), its 1st block, a text")
    );
    assert!(
        harness::wire::rejections::why(first[0]).starts_with("With extended thinking on,"),
        "{}",
        harness::wire::rejections::why(first[0])
    );
    assert!(rejections_of("get-time").await.is_empty());
}

/// `check RUN` reads the whole run: the run above ends with an answer, which
/// closes the loop, yet the requests it sent in the loop were refused.
#[tokio::test(start_paused = true)]
async fn a_finished_run_still_answers_for_the_requests_it_sent() {
    let builtin = library::find("history-text-only").unwrap();
    let (_, events) = common::run_builtin(builtin).await;
    let shape = RequestShape::of(&common::load(builtin.json())).unwrap();
    let found = harness::wire::run_violations(&shape, &events);
    assert_eq!(
        found
            .iter()
            .map(|v| (v.provider, v.path.as_str()))
            .collect::<Vec<_>>(),
        vec![(Provider::Anthropic, "messages.1.content.0.type")]
    );
    // The body a view shows leaves the setting out, and the reason says so.
    assert!(
        found[0].explanation.ends_with(
            "These requests asked for thinking (the model wrote thinking blocks); the body shown here leaves the `thinking` setting out."
        ),
        "{}",
        found[0].explanation
    );
    // The final history alone no longer shows it.
    let history = harness::wire::history_from_trace(&events);
    let at_the_end = harness::wire::check_with_thinking(
        Provider::Anthropic,
        &shape.system,
        &history,
        &shape.tools,
        harness::wire::thinking_of_trace(&events),
    );
    assert_eq!(at_the_end, vec![]);
}

#[test]
fn a_trace_without_requests_has_no_rejections() {
    assert!(rejections(&RequestShape::default(), &[]).is_empty());
}

/// A break in a later turn is placed at the first turn whose request carried
/// it, not at turn 2 nor at the last turn.
#[tokio::test(start_paused = true)]
async fn a_later_break_is_placed_at_the_first_turn_that_sent_it() {
    let json = serde_json::json!({
        "name": "late duplicate", "task": "t",
        "tools": [{"name": "look", "description": "d", "input_schema": {"type": "object"}, "result": {"ok": true}}],
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "look", "args": {}}]},
            {"tool_calls": [{"name": "look", "args": {}}]},
            {"tool_calls": [
                {"id": "toolu_dup", "name": "look", "args": {"a": 1}},
                {"id": "toolu_dup", "name": "look", "args": {"a": 2}}
            ]},
            {"tool_calls": [{"name": "look", "args": {"b": 1}}]},
            {"text": "done"}
        ]}
    })
    .to_string();
    let scenario = common::load(&json);
    let (_, events) = common::run_with(&scenario, None).await;
    let found = rejections(&RequestShape::of(&scenario).unwrap(), &events);
    let first = first_per_provider(&found);
    assert!(!first.is_empty());
    assert!(
        first.iter().all(|r| r.turn == 4),
        "{:?}",
        first.iter().map(|r| sentence(r)).collect::<Vec<_>>()
    );
}

/// Each rejection's turn is the first turn whose own request, checked on its
/// own, carries the same violation: the one-walk placement agrees with
/// checking every turn.
#[tokio::test(start_paused = true)]
async fn each_rejection_is_placed_where_checking_every_turn_would_place_it() {
    let json = serde_json::json!({
        "name": "breaks late and often", "task": "t",
        "tools": [{"name": "look", "description": "d", "input_schema": {"type": "object"}, "result": {"ok": true}}],
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [
                {"id": "toolu_dup", "name": "look", "args": {"a": 1}},
                {"id": "toolu_dup", "name": "look", "args": {"a": 2}}
            ]},
            {"tool_calls": [{"name": "look", "args": {"b": 1}}]},
            {"tool_calls": [{"id": "toolu_dup", "name": "look", "args": {"a": 3}}]},
            {"tool_calls": [{"name": "look", "args": {"b": 2}}]},
            {"text": "done"}
        ]}
    })
    .to_string();
    let scenario = common::load(&json);
    let (_, events) = common::run_with(&scenario, None).await;
    let shape = RequestShape::of(&scenario).unwrap();
    let found = rejections(&shape, &events);
    assert!(
        found.len() >= 4,
        "{:?}",
        found.iter().map(sentence).collect::<Vec<_>>()
    );
    let requests = replayed_requests(&events);
    let turns: Vec<u32> = found.iter().map(|r| r.turn).collect();
    let by_every_turn: Vec<u32> = found
        .iter()
        .map(|r| {
            let v = &r.violation;
            let carries = |messages| {
                check(v.provider, &shape.system, messages, &shape.tools)
                    .iter()
                    .any(|w| (w.rule, &w.path, &w.message) == (v.rule, &v.path, &v.message))
            };
            requests
                .iter()
                .find(|q| q.attempt == 1 && carries(&q.messages))
                .map_or(0, |q| q.turn)
        })
        .collect();
    assert_eq!(turns, by_every_turn);
    // Breaks sent first at turn 2 and at turn 4, so both placements are tried.
    assert!(turns.contains(&2) && turns.contains(&4), "{turns:?}");
}
