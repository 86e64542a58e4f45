//! Absurd and non-finite numbers are refused where they enter, and a run's
//! cost can never become `inf` or NaN (which JSON writes as `null`).

mod common;

use harness::event::{EventKind, Outcome, RunEvent, Status};
use harness::model::{Pricing, COST_CEILING_USD};
use harness::scenario::{ModelConfig, Scenario};

fn problems(text: &str) -> Vec<String> {
    match Scenario::load(text) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn absurd_prices_budgets_and_usage_are_each_refused_at_their_path() {
    let text = r#"{
      "name": "absurd", "task": "t",
      "tools": [{"name": "slow", "result": 1, "delay_ms": 1e400}],
      "pricing": {"input_usd_per_mtok": 1e300, "output_usd_per_mtok": 10001},
      "limits": {"max_cost_usd": 1e308, "max_turns": 10000000, "max_tool_calls": 100000000,
                 "deadline_ms": 99999999999999999999, "tool_timeout_ms": 86400001,
                 "max_total_tokens": 1e11, "max_output_tokens": 200000000},
      "model": {"type": "scripted", "responses": [
        {"text": "hi", "usage": {"input_tokens": 1e15, "output_tokens": 5}, "delay_ms": 1e9,
         "branches": [{"when": {"slow": "ok"}, "text": "x", "usage": {"output_tokens": 100000001}}]}
      ]}
    }"#;
    assert_eq!(
        problems(text),
        [
            "tools[0].delay_ms: 1e400 is too large: a delay must be at most 86,400,000 ms (24 hours)",
            "pricing.input_usd_per_mtok: 1e300 is too large: a price must be at most $10,000 per million tokens",
            "pricing.output_usd_per_mtok: 10001 is too large: a price must be at most $10,000 per million tokens",
            "limits.max_cost_usd: 1e308 is too large: a cost budget must be at most $1,000,000",
            "limits.max_turns: 10000000 is too large: the turn limit must be at most 1,000,000 turns",
            "limits.max_tool_calls: 100000000 is too large: the tool call limit must be at most 10,000,000 calls",
            "limits.deadline_ms: 99999999999999999999 is too large: a deadline must be at most 86,400,000 ms (24 hours)",
            "limits.tool_timeout_ms: 86400001 is too large: a timeout must be at most 86,400,000 ms (24 hours)",
            "limits.max_total_tokens: 1e11 is too large: the token limit must be at most 10,000,000,000 tokens",
            "limits.max_output_tokens: 200000000 is too large: a turn's output must be at most 100,000,000 tokens",
            "model.responses[0].usage.input_tokens: 1e15 is too large: a turn's usage must be at most 100,000,000 tokens",
            "model.responses[0].delay_ms: 1e9 is too large: a delay must be at most 86,400,000 ms (24 hours)",
            "model.responses[0].branches[0].usage.output_tokens: 100000001 is too large: a turn's usage must be at most 100,000,000 tokens",
        ]
    );
}

#[test]
fn the_bounds_themselves_are_allowed() {
    let text = r#"{
      "name": "at the bounds", "task": "t",
      "pricing": {"input_usd_per_mtok": 10000, "output_usd_per_mtok": 10000},
      "limits": {"max_cost_usd": 1000000, "max_turns": 1000000, "deadline_ms": 86400000},
      "model": {"type": "scripted", "responses": [
        {"text": "hi", "usage": {"input_tokens": 100000000, "output_tokens": 100000000}}
      ]}
    }"#;
    assert_eq!(problems(text), Vec::<String>::new());
}

/// Defence in depth: prices that never went through validation (a
/// provider's settings, an edited record) still give a finite cost.
#[test]
fn a_cost_is_finite_whatever_the_prices_and_counts() {
    let absurd = Pricing {
        input_usd_per_mtok: f64::MAX,
        output_usd_per_mtok: f64::INFINITY,
    };
    assert_eq!(absurd.cost(u64::MAX, u64::MAX), COST_CEILING_USD);
    assert_eq!(absurd.cost(0, 0), 0.0);
    let nan = Pricing {
        input_usd_per_mtok: f64::NAN,
        output_usd_per_mtok: 1.0,
    };
    assert_eq!(nan.cost(1, 0), COST_CEILING_USD);
}

/// A valid scenario edited past validation, as a page's typed price or an
/// edited record could be: absurd prices, and a turn reporting u64::MAX tokens.
fn absurd(limits: &str) -> Scenario {
    let mut scenario = common::load(&format!(
        r#"{{"name": "absurd", "task": "t", "limits": {limits},
            "model": {{"type": "scripted", "responses": [
              {{"text": "hi", "usage": {{"input_tokens": 100000000, "output_tokens": 5}}}}]}}}}"#
    ));
    scenario.pricing = Pricing {
        input_usd_per_mtok: 1e300,
        output_usd_per_mtok: f64::INFINITY,
    };
    if let ModelConfig::Scripted { responses, .. } = &mut scenario.model {
        responses[0].usage.as_mut().unwrap().input_tokens = Some(u64::MAX);
    }
    scenario
}

/// Every money and count field of every event is a JSON number (a
/// non-finite float would be written `null`).
fn assert_no_null(events: &[RunEvent]) {
    fn numbers_are_numbers(value: &serde_json::Value, line: &str) {
        match value {
            serde_json::Value::Object(members) => {
                for (key, member) in members {
                    if [
                        "cost_usd",
                        "spent",
                        "budget",
                        "worst_case",
                        "input_tokens",
                        "output_tokens",
                    ]
                    .contains(&key.as_str())
                    {
                        assert!(member.is_number(), "{key} in {line}");
                    }
                    numbers_are_numbers(member, line);
                }
            }
            serde_json::Value::Array(items) => items
                .iter()
                .for_each(|item| numbers_are_numbers(item, line)),
            _ => {}
        }
    }
    for event in events {
        let line = serde_json::to_string(event).unwrap();
        numbers_are_numbers(&serde_json::from_str(&line).unwrap(), &line);
    }
}

#[tokio::test(start_paused = true)]
async fn a_run_at_absurd_prices_ends_with_a_finite_cost_and_no_null_in_its_trace() {
    let (outcome, events) = common::run_with(&absurd("{}"), None).await;
    assert_eq!(outcome.status, Status::Done);
    assert_eq!(outcome.cost_usd, COST_CEILING_USD);
    assert_eq!(outcome.input_tokens, u64::MAX);
    assert_eq!(harness::run::usd(outcome.cost_usd), "$1e16 or more");
    assert_no_null(&events);

    let (outcome, events) = common::run_with(&absurd(r#"{"max_cost_usd": 1}"#), None).await;
    assert_eq!(outcome.status, Status::CostLimit);
    assert!(
        outcome.reason.contains("$1e16 or more"),
        "{}",
        outcome.reason
    );
    assert_no_null(&events);
}

#[test]
fn a_non_finite_cost_is_never_written_as_null() {
    let outcome = Outcome {
        status: Status::CostLimit,
        reason: "r".into(),
        cause: Some(harness::event::stop_cause::StopCause::CostOvershot {
            spent: f64::INFINITY,
            budget: f64::NAN,
            turn: 1,
        }),
        turns: 1,
        tool_calls: 0,
        calls: None,
        input_tokens: u64::MAX,
        output_tokens: 0,
        cost_usd: f64::NAN,
        elapsed_ms: 0,
        answer: None,
    };
    let event = RunEvent {
        seq: 0,
        t_ms: 0,
        kind: EventKind::RunFinished(outcome),
    };
    let json: serde_json::Value = serde_json::to_value(&event).unwrap();
    assert_eq!(json["cost_usd"], serde_json::json!(COST_CEILING_USD));
    assert_eq!(json["cause"]["spent"], serde_json::json!(COST_CEILING_USD));
    assert_eq!(json["cause"]["budget"], serde_json::json!(COST_CEILING_USD));
}
