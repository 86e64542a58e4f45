//! A run's requests rebuilt from its trace are the requests the model really
//! received: for every built-in scenario, each rebuilt body equals, in all
//! three formats, the body made from the request the model was handed. And
//! the tools' specs read from a scenario without building a run are the
//! ones a run sends.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::approval::Decision;
use harness::event::{EventKind, RunEvent};
use harness::library::{clock_age_needed_ms, BUILTIN};
use harness::model::{ModelClient, ModelError, ModelRequest, ModelResponse};
use harness::runtime::TokioRuntime;
use harness::scenario::{Scenario, ToolEntry};
use harness::wire::{
    replayed::MODEL, replayed_requests, request_at_turn, Provider, RequestShape, WireRequest,
};
use harness::RunOptions;
use serde_json::Value;

/// The scenario's own model, keeping each request's body in every format.
struct Recording {
    inner: Box<dyn ModelClient>,
    sent: RefCell<Vec<[Value; 3]>>,
}

impl ModelClient for Recording {
    fn label(&self) -> String {
        self.inner.label()
    }

    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        // The compact strategy's summary request is the harness's own, not
        // a turn: the trace keeps its answer in `context_edited`, not a request.
        let summary_request = request.messages.last().is_some_and(|m| {
            m.content.last()
                == Some(&harness::message::ContentBlock::Text {
                    text: harness::context::COMPACT_INSTRUCTION.to_string(),
                })
        });
        if summary_request {
            return self.inner.complete(request);
        }
        let wire = WireRequest::from_model_request(MODEL, &request, false);
        self.sent
            .borrow_mut()
            .push(Provider::ALL.map(|provider| provider.request_body(&wire)));
        self.inner.complete(request)
    }
}

/// Runs a built-in as the page does (approving, on an aged clock), keeping
/// its trace and the bodies its model was sent.
async fn run_recorded(
    builtin: &harness::library::BuiltinScenario,
) -> (Scenario, Vec<RunEvent>, Vec<[Value; 3]>) {
    let scenario = common::load(builtin.json());
    let runtime = Rc::new(TokioRuntime::default());
    tokio::time::sleep(std::time::Duration::from_millis(clock_age_needed_ms(
        builtin,
    )))
    .await;
    let (_, model) = scenario.build(runtime.clone()).expect("builds");
    let model = Recording {
        inner: model,
        sent: RefCell::new(Vec::new()),
    };
    let approver = common::QueueApprover::new(vec![Decision::Approve; 4]);
    let mut events = Vec::new();
    let cancel = harness::cancel::CancelToken::new();
    let stop = cancel.cancel_after(runtime.as_ref(), builtin.stop_pressed_after_ms());
    let mut on_event = |event: &RunEvent| events.push(event.clone());
    let run = harness::run_scenario_with_model(
        &scenario,
        runtime,
        &model,
        RunOptions {
            approver: Some(&approver),
            cancel,
            ..RunOptions::default()
        },
        &mut on_event,
    );
    futures::join!(run, stop).0.expect("runs");
    (scenario, events, model.sent.take())
}

#[tokio::test(start_paused = true)]
async fn every_rebuilt_request_is_the_body_the_model_was_sent() {
    for builtin in BUILTIN {
        let (scenario, events, sent) = run_recorded(builtin).await;
        let shape = RequestShape::of(&scenario).expect("a loaded scenario has a shape");
        let rebuilt = replayed_requests(&events);
        let requests = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ModelRequest { .. }))
            .count();
        assert_eq!(
            rebuilt.len(),
            requests,
            "{}: one per model_request",
            builtin.id
        );
        assert_eq!(
            rebuilt.len(),
            sent.len(),
            "{}: one per model call",
            builtin.id
        );
        for (request, sent) in rebuilt.iter().zip(&sent) {
            for (provider, sent) in Provider::ALL.iter().zip(sent) {
                assert_eq!(
                    &request.body(*provider, &shape),
                    sent,
                    "{} turn {} attempt {} as {}",
                    builtin.id,
                    request.turn,
                    request.attempt,
                    provider.label()
                );
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_turns_request_is_its_first_attempt_and_a_turn_without_one_has_none() {
    let retried = harness::library::find("rate-limit-retry").expect("a built-in that retries");
    let (_, events, _) = run_recorded(retried).await;
    let all = replayed_requests(&events);
    assert!(
        all.iter().any(|r| r.attempt > 1),
        "the run retried: {:?}",
        all.iter().map(|r| (r.turn, r.attempt)).collect::<Vec<_>>()
    );
    for request in &all {
        let at_turn = request_at_turn(&events, request.turn).expect("the turn sent a request");
        assert_eq!(at_turn.attempt, 1);
        assert_eq!(
            at_turn.messages, request.messages,
            "a retry resends the history"
        );
    }
    let last = all.last().expect("the run made requests").turn;
    assert_eq!(request_at_turn(&events, last + 1), None);
    assert_eq!(request_at_turn(&[], 1), None);
}

#[test]
fn tool_specs_are_what_a_run_sends_without_building_one() {
    for builtin in BUILTIN {
        let scenario = common::load(builtin.json());
        let (config, _) = scenario
            .build(Rc::new(TokioRuntime::default()))
            .expect("builds");
        assert_eq!(
            scenario.tool_specs().expect("a loaded scenario's tools"),
            config.tools.specs(),
            "{}",
            builtin.id
        );
        let needing: Vec<String> = config
            .tools
            .specs()
            .iter()
            .filter(|spec| config.tools.get(&spec.name).unwrap().needs_approval)
            .map(|spec| spec.name.clone())
            .collect();
        assert_eq!(
            scenario
                .tools_needing_approval()
                .expect("a loaded scenario's tools"),
            needing,
            "{}",
            builtin.id
        );
    }
}

#[test]
fn an_inline_tool_on_a_builtin_handler_is_described_by_the_scenario() {
    let scenario = common::load(
        r#"{"name": "n", "task": "t", "model": {"type": "scripted", "responses": []},
            "tools": ["issue_refund",
                {"name": "refund", "description": "Refund it.", "builtin": "issue_refund",
                 "input_schema": {"type": "object"}}]}"#,
    );
    let specs = scenario.tool_specs().unwrap();
    assert_eq!(specs[0].name, "issue_refund");
    assert!(specs[0].description.starts_with("Refund an order in full."));
    assert_eq!(
        (specs[1].name.as_str(), specs[1].description.as_str()),
        ("refund", "Refund it.")
    );
    // The built-in asks for approval; the inline tool says it does not.
    assert_eq!(scenario.tools_needing_approval().unwrap(), ["issue_refund"]);
}

#[test]
fn an_unknown_builtin_in_an_edited_scenario_is_a_problem_at_its_path() {
    let mut scenario = common::load(harness::library::OPENING_JSON);
    scenario.tools.push(ToolEntry::Builtin("get_tme".into()));
    let problems = RequestShape::of(&scenario).unwrap_err();
    assert_eq!(
        problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["tools[1]: unknown built-in tool \"get_tme\" (did you mean `get_time`?)"]
    );
    assert_eq!(scenario.tools_needing_approval().unwrap_err(), problems);
}
