//! What the trace says must be what happened: one count of tool
//! calls for every reader, each result's fate as data, the stop cause as
//! data, and step mode's pauses that are not the run's time.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use common::{load, run_builtin, run_json};
use futures::future::LocalBoxFuture;
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::{
    backfill, from_jsonl, to_jsonl, EventKind, Outcome, ResultFate, RunEvent, Status, StopTone,
};
use harness::run::{Activity, PauseBefore, StopCause};
use harness::runtime::TokioRuntime;
use harness::tally::{CallCounts, ToolCallTally};
use harness::RunOptions;
use serde_json::json;

fn fates(events: &[RunEvent]) -> Vec<(String, ResultFate)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolResult { name, fate, .. } => {
                Some((name.clone(), fate.expect("the run writes every fate")))
            }
            _ => None,
        })
        .collect()
}

/// An OTLP/JSON span attribute's value, as written (ints are strings).
fn attribute(span: &serde_json::Value, key: &str) -> Option<serde_json::Value> {
    let found = span["attributes"]
        .as_array()?
        .iter()
        .find(|a| a["key"] == key)?;
    found["value"].as_object()?.values().next().cloned()
}

fn counts(outcome: &Outcome) -> CallCounts {
    outcome.calls.expect("the run writes its counts")
}

#[tokio::test(start_paused = true)]
async fn every_built_in_counts_its_calls_one_way_in_the_trace_and_the_outcome() {
    for builtin in harness::library::BUILTIN {
        let (outcome, events) = run_builtin(builtin).await;
        let calls = counts(&outcome);
        let id = builtin.id;
        // The tally a page keeps over the events is the outcome's.
        assert_eq!(ToolCallTally::of(&events).counts(), calls, "{id}");
        // `tool_calls` is the count the limit checked, by one name.
        assert_eq!(calls.checked, outcome.tool_calls, "{id}");
        // Every requested call is accounted for once.
        assert_eq!(calls.answered(), calls.requested, "{id}: {calls:?}");
        let requested: usize = events
            .iter()
            .map(|e| match &e.kind {
                EventKind::ModelResponse { content, .. } => {
                    harness::message::tool_calls_of(content).count()
                }
                _ => 0,
            })
            .sum();
        assert_eq!(calls.requested as usize, requested, "{id}");
        // A record read back carries the same counts and cause.
        let back = from_jsonl(&to_jsonl(&events)).unwrap();
        assert_eq!(back, events, "{id}");
        // The OpenTelemetry export names them the same way.
        let record = harness::replay::Record {
            scenario: None,
            events: events.clone(),
            forked_at: None,
        };
        let otlp = harness::otel::to_otlp(&record, 0);
        let root = otlp["resourceSpans"][0]["scopeSpans"][0]["spans"]
            .as_array()
            .unwrap()
            .iter()
            .find(|span| attribute(span, "agent_loop.status").is_some())
            .expect("a root span with the outcome");
        for (name, n) in [
            ("requested", calls.requested),
            ("checked", calls.checked),
            ("ran", calls.ran),
            ("not_run", calls.not_run),
            ("cut_short", calls.cut_short),
            ("by_person", calls.by_person),
        ] {
            let key = format!("agent_loop.tool_calls.{name}");
            let value = attribute(root, &key).unwrap_or_else(|| panic!("{id}: {key}"));
            assert_eq!(value, json!(n.to_string()), "{id}: {key}");
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_tool_call_limit_run_requests_eight_checks_seven_and_runs_six() {
    let builtin = harness::library::find("tool-call-limit").unwrap();
    let (outcome, events) = run_builtin(builtin).await;
    assert_eq!(
        counts(&outcome),
        CallCounts {
            requested: 8,
            checked: 7,
            ran: 6,
            not_run: 2,
            cut_short: 0,
            by_person: 0,
        }
    );
    assert_eq!(
        counts(&outcome).summary(0),
        "8 requested (6 ran, 2 not run)"
    );
    let last_two: Vec<ResultFate> = fates(&events).iter().rev().take(2).map(|f| f.1).collect();
    assert_eq!(last_two, [ResultFate::NotReached, ResultFate::OverLimit]);
    assert!(matches!(
        outcome.cause,
        Some(StopCause::ToolCallLimit {
            call: 7,
            max: 6,
            ..
        })
    ));
}

#[tokio::test(start_paused = true)]
async fn run_finished_carries_its_cause_as_tagged_data() {
    let builtin = harness::library::find("turn-limit").unwrap();
    let (outcome, _) = run_builtin(builtin).await;
    let value = serde_json::to_value(&outcome).unwrap();
    assert_eq!(value["cause"]["kind"], "turn_limit");
    assert_eq!(value["cause"]["turns"], value["cause"]["max_turns"]);
    assert_eq!(
        outcome.cause.as_ref().map(ToString::to_string).as_deref(),
        Some(outcome.reason.as_str())
    );
}

#[tokio::test(start_paused = true)]
async fn a_deny_all_policy_ends_the_run_as_the_harness_not_a_person() {
    let (outcome, events) = run_builtin(harness::library::find("blocked").unwrap()).await;
    assert_eq!(outcome.status, Status::Blocked);
    assert_eq!(outcome.tone(), StopTone::Guard);
    assert_eq!(outcome.ended_by(), "the harness's approval policy");
    assert_eq!(fates(&events).last().map(|f| f.1), Some(ResultFate::Denied));
    // A person's "deny and stop" is a person's.
    let person = StopCause::UserDeniedAndStopped {
        tool: "issue_refund".into(),
        why: None,
    };
    assert_eq!(person.tone(), StopTone::Person);
    assert_eq!(person.ended_by(), "a person");
}

/// Step mode throughout: holds the run `hold_ms` at each pause, then lets
/// it go on; or, at the pause numbered `stop_at`, presses Stop.
struct SlowPerson {
    hold_ms: u64,
    stop_at: Option<usize>,
    cancel: CancelToken,
    seen: RefCell<Vec<PauseBefore>>,
}

impl Stepper for SlowPerson {
    fn step_mode(&self) -> bool {
        true
    }

    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        self.seen.borrow_mut().push(pause.before.clone());
        let hold = std::time::Duration::from_millis(self.hold_ms);
        let stop = (Some(self.seen.borrow().len()) == self.stop_at).then(|| self.cancel.clone());
        Box::pin(async move {
            tokio::time::sleep(hold).await;
            match stop {
                Some(cancel) => {
                    cancel.cancel();
                    futures::future::pending().await
                }
                None => Resume::Go,
            }
        })
    }
}

async fn step_through(json: &str, person: &SlowPerson) -> (Outcome, Vec<RunEvent>) {
    let mut events = Vec::new();
    let outcome = harness::run_scenario(
        &load(json),
        Rc::new(TokioRuntime::default()),
        RunOptions {
            cancel: person.cancel.clone(),
            stepper: Some(person),
            ..RunOptions::default()
        },
        &mut |e: &RunEvent| events.push(e.clone()),
    )
    .await
    .expect("builds");
    (outcome, events)
}

fn deadline_per_run() -> &'static str {
    harness::library::find("deadline-per-run").unwrap().json()
}

#[tokio::test(start_paused = true)]
async fn time_held_at_a_step_pause_is_not_the_runs_and_no_deadline_passes_during_it() {
    // Three seconds at every pause, against a 2 s deadline: the run's own
    // time (two 300 ms model calls) is what counts.
    let person = SlowPerson {
        hold_ms: 3000,
        stop_at: None,
        cancel: CancelToken::new(),
        seen: RefCell::default(),
    };
    let (outcome, events) = step_through(deadline_per_run(), &person).await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    assert!(outcome.elapsed_ms < 2000, "{}", outcome.elapsed_ms);
    assert!(events.iter().all(|e| e.t_ms < 2000));
    assert_eq!(person.seen.borrow().len(), 3, "model, tool, model");
}

#[tokio::test(start_paused = true)]
async fn stop_while_paused_before_a_tool_says_so_and_never_claims_it_ran() {
    // Step, Step ("Paused before tool call get_time"), then Stop.
    let person = SlowPerson {
        hold_ms: 3000,
        stop_at: Some(2),
        cancel: CancelToken::new(),
        seen: RefCell::default(),
    };
    let (outcome, events) = step_through(deadline_per_run(), &person).await;
    assert_eq!(outcome.status, Status::Cancelled);
    assert_eq!(
        outcome.reason,
        "stopped by the user after 1 turn (while paused before tool call get_time)"
    );
    assert!(matches!(
        outcome.cause,
        Some(StopCause::Cancelled {
            during: Activity::PausedBeforeTool { .. },
            ..
        })
    ));
    assert_eq!(
        fates(&events),
        [("get_time".to_string(), ResultFate::StoppedBeforeStart)]
    );
    let content = events.iter().find_map(|e| match &e.kind {
        EventKind::ToolResult { content, .. } => Some(content.clone()),
        _ => None,
    });
    assert!(
        content
            .as_deref()
            .unwrap()
            .starts_with("not run: the run stopped before this call started"),
        "{content:?}"
    );
    assert_eq!(counts(&outcome).summary(0), "1 requested (1 not run)");
}

#[tokio::test(start_paused = true)]
async fn a_hung_tool_cut_off_by_the_deadline_is_cut_short() {
    let (outcome, events) =
        run_builtin(harness::library::find("deadline-interrupts-tool").unwrap()).await;
    assert_eq!(outcome.status, Status::Deadline);
    assert_eq!(
        fates(&events).last().map(|f| f.1),
        Some(ResultFate::CutShort)
    );
    assert_eq!(counts(&outcome).cut_short, 1);
}

#[tokio::test(start_paused = true)]
async fn invalid_and_timed_out_calls_carry_their_fate() {
    let json = json!({
        "name": "fates",
        "task": "t",
        "tools": [
            {"name": "echo", "description": "d", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}, "result": {"ok": true}},
            {"name": "slow", "description": "d", "input_schema": {"type": "object"}, "result": {"ok": true}, "delay_ms": 5000}
        ],
        "limits": {"tool_timeout_ms": 100},
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "echo", "args": {"n": "one"}}, {"name": "nope", "args": {}}, {"name": "slow", "args": {}}, {"name": "echo", "args": {"n": 1}}]},
            {"text": "done"}
        ]}
    })
    .to_string();
    let (outcome, events) = run_json(&json).await;
    assert_eq!(
        fates(&events).iter().map(|f| f.1).collect::<Vec<_>>(),
        [
            ResultFate::Invalid,
            ResultFate::Invalid,
            ResultFate::TimedOut,
            ResultFate::Ran
        ]
    );
    assert_eq!(
        counts(&outcome).summary(0),
        "4 requested (1 ran, 2 not run, 1 cut short)"
    );
}

/// A trace written before results carried their fate: the harness's own
/// words of the time say it, and nothing else does.
#[test]
fn an_old_trace_gets_its_fates_and_counts_from_the_harness_words_of_its_time() {
    let lines = [
        json!({"seq":0,"t_ms":0,"type":"run_started","scenario":"s","model":"scripted","approval":"ask","tools":["t"],"limits":{"max_turns":10},"task":"t"}),
        json!({"seq":1,"t_ms":0,"type":"model_request","turn":1,"attempt":1,"messages":1,"estimated_input_tokens":1,"max_output_tokens":1024}),
        json!({"seq":2,"t_ms":0,"type":"model_response","turn":1,"text":"","content":[
            {"type":"tool_use","id":"a","name":"t","input":{}},
            {"type":"tool_use","id":"b","name":"t","input":{}},
            {"type":"tool_use","id":"c","name":"t","input":{}},
            {"type":"tool_use","id":"d","name":"t","input":{}},
            {"type":"tool_use","id":"e","name":"t","input":{}}],
            "stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},"cost_usd":0.0,"latency_ms":0}),
        json!({"seq":3,"t_ms":0,"type":"tool_call","turn":1,"id":"a","name":"t","args":{},"validation":{"outcome":"schema_violation","errors":["/n: required"]},"needs_approval":false}),
        json!({"seq":4,"t_ms":0,"type":"tool_result","id":"a","name":"t","content":"arguments break the schema","is_error":true,"latency_ms":0}),
        json!({"seq":5,"t_ms":0,"type":"tool_call","turn":1,"id":"b","name":"t","args":{},"validation":{"outcome":"valid"},"needs_approval":false}),
        json!({"seq":6,"t_ms":0,"type":"tool_result","id":"b","name":"t","content":"tool error: not run: said the tool","is_error":true,"latency_ms":0}),
        json!({"seq":7,"t_ms":0,"type":"tool_call","turn":1,"id":"c","name":"t","args":{},"validation":{"outcome":"valid"},"needs_approval":true}),
        json!({"seq":8,"t_ms":0,"type":"approval_decided","id":"c","name":"t","decision":"deny","by":"user"}),
        json!({"seq":9,"t_ms":0,"type":"tool_result","id":"c","name":"t","content":"denied by the user: no","is_error":true,"latency_ms":0}),
        json!({"seq":10,"t_ms":0,"type":"tool_call","turn":1,"id":"d","name":"t","args":{},"validation":{"outcome":"valid"},"needs_approval":false}),
        json!({"seq":11,"t_ms":0,"type":"tool_result","id":"d","name":"t","content":"not run to completion: the run stopped (cancelled: stopped by the user)","is_error":true,"latency_ms":0}),
        json!({"seq":12,"t_ms":0,"type":"tool_call","turn":1,"id":"e","name":"t","args":{},"validation":{"outcome":"valid"},"needs_approval":false}),
        json!({"seq":13,"t_ms":0,"type":"tool_result","id":"e","name":"t","content":"not run: the run stopped before this call (cancelled)","is_error":true,"latency_ms":0}),
        json!({"seq":14,"t_ms":0,"type":"run_finished","status":"cancelled","reason":"stopped by the user","turns":1,"tool_calls":4,"input_tokens":1,"output_tokens":1,"cost_usd":0.0,"elapsed_ms":0,"answer":null}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let events = from_jsonl(&text).unwrap();
    assert_eq!(
        fates(&events).iter().map(|f| f.1).collect::<Vec<_>>(),
        [
            ResultFate::Invalid,
            // A tool's own error may say anything.
            ResultFate::Ran,
            ResultFate::Denied,
            ResultFate::CutShort,
            ResultFate::NotReached
        ]
    );
    let EventKind::RunFinished(outcome) = &events.last().unwrap().kind else {
        panic!("ends with run_finished");
    };
    assert_eq!(
        outcome.calls.map(|c| (c.summary(0), c.checked)),
        Some(("5 requested (1 ran, 3 not run, 1 cut short)".to_string(), 4))
    );
    // A trace that has its fates keeps them.
    let mut again = events.clone();
    backfill(&mut again);
    assert_eq!(again, events);
}
