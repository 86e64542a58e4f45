//! The harness compiled to wasm, driven by the browser runtime, in real
//! headless Chromium (wasm-bindgen-test): every built-in scenario ends with
//! the same status as natively, and the deadline interrupts a hung call on
//! real browser timers.

#![cfg(target_arch = "wasm32")]
// A test runs the engine directly; the split rule (clippy.toml) is about
// the web app's first paint.
#![allow(clippy::disallowed_methods)]

use std::rc::Rc;

use agent_loop_playground::browser::runtime::BrowserRuntime;
use harness::approval::{ApprovalPolicy, ApprovalRequest, Approver, Decision};
use harness::event::{RunEvent, Status};
use harness::library::BUILTIN;
use harness::scenario::Scenario;
use harness::RunOptions;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

struct ApproveEverything;

impl Approver for ApproveEverything {
    fn decide<'a>(
        &'a self,
        _: &'a ApprovalRequest,
    ) -> futures::future::LocalBoxFuture<'a, Decision> {
        Box::pin(async { Decision::Approve })
    }
}

/// The native test pins these outlines (crates/harness/tests/golden_traces.rs).
const GOLDEN: &str = include_str!("../crates/harness/tests/golden/builtin_traces.txt");

#[wasm_bindgen_test]
async fn every_builtin_scenario_has_the_same_trace_as_natively() {
    let mut runs = Vec::new();
    for builtin in BUILTIN {
        let scenario = Scenario::load(builtin.json()).expect("built-in scenarios load");
        let runtime = BrowserRuntime::new();
        // A shared deadline counts from page load: wait until the page is as
        // old as the scenario needs, as the native test advances its clock.
        let needed = harness::library::clock_age_needed_ms(builtin) as f64;
        let age = harness::runtime::Runtime::now_ms(&runtime);
        if age < needed {
            gloo_timers::future::TimeoutFuture::new((needed - age).ceil() as u32).await;
        }
        let mut events: Vec<RunEvent> = Vec::new();
        // The built-in that ends `cancelled` waits for a person to press Stop.
        let cancel = harness::cancel::CancelToken::new();
        let stop = cancel.cancel_after(&runtime, builtin.stop_pressed_after_ms());
        let mut on_event = |event: &RunEvent| events.push(event.clone());
        let run = harness::run_scenario(
            &scenario,
            Rc::new(runtime),
            RunOptions {
                approver: Some(&ApproveEverything),
                cancel,
                ..RunOptions::default()
            },
            &mut on_event,
        );
        let outcome = futures::join!(run, stop).0.expect("builds");
        assert_eq!(
            outcome.status.as_str(),
            builtin.expected_status,
            "{}: {}",
            builtin.id,
            outcome.reason
        );
        runs.push((builtin.id, events));
    }
    let actual = harness::event::outlines_text(&runs);
    for (i, (a, e)) in actual.lines().zip(GOLDEN.lines()).enumerate() {
        assert_eq!(
            a,
            e,
            "line {} of the trace outlines differs from the native golden file",
            i + 1
        );
    }
    assert_eq!(actual.lines().count(), GOLDEN.lines().count());
}

#[wasm_bindgen_test]
async fn the_deadline_interrupts_a_hung_model_call_on_browser_timers() {
    let json = r#"{"name": "t", "task": "t", "limits": {"deadline_ms": 300},
        "model": {"type": "scripted", "responses": [{"text": "late", "delay_ms": 60000}]}}"#;
    let scenario = Scenario::load(json).unwrap();
    let outcome = harness::run_scenario(
        &scenario,
        Rc::new(BrowserRuntime::new()),
        RunOptions::default(),
        &mut |_| {},
    )
    .await
    .unwrap();
    assert_eq!(outcome.status, Status::Deadline);
    assert!(
        (300..1000).contains(&outcome.elapsed_ms),
        "{}",
        outcome.elapsed_ms
    );
}

#[wasm_bindgen_test]
async fn ask_without_an_approver_is_blocked() {
    let mut scenario = Scenario::load(
        harness::library::find("refund-with-approval")
            .unwrap()
            .json(),
    )
    .unwrap();
    scenario.approval = ApprovalPolicy::Ask;
    let outcome = harness::run_scenario(
        &scenario,
        Rc::new(BrowserRuntime::new()),
        RunOptions::default(),
        &mut |_| {},
    )
    .await
    .unwrap();
    assert_eq!(outcome.status, Status::Blocked);
}

/// The sandbox's messages, through serde-wasm-bindgen, have the fields
/// `static/sandbox/sandbox.js` reads and writes.
#[wasm_bindgen_test]
fn sandbox_messages_carry_the_fields_the_sandbox_script_uses() {
    use agent_loop_playground::browser::sandbox::message::{Ending, FromSandbox, ToSandbox};
    use wasm_bindgen::JsValue;

    let field = |object: &JsValue, name: &str| js_sys::Reflect::get(object, &name.into()).unwrap();
    let run = ToSandbox::Run {
        id: 7,
        source: "return args.a;".into(),
        args: r#"{"a":1}"#.into(),
        timeout_ms: 3000,
    }
    .to_js()
    .unwrap();
    assert_eq!(field(&run, "type").as_string().as_deref(), Some("run"));
    assert_eq!(field(&run, "id").as_f64(), Some(7.0));
    assert_eq!(
        field(&run, "source").as_string().as_deref(),
        Some("return args.a;")
    );
    assert_eq!(
        field(&run, "args").as_string().as_deref(),
        Some(r#"{"a":1}"#)
    );
    assert_eq!(field(&run, "timeoutMs").as_f64(), Some(3000.0));
    let cancel = ToSandbox::Cancel { id: 7 }.to_js().unwrap();
    assert_eq!(
        field(&cancel, "type").as_string().as_deref(),
        Some("cancel")
    );
    assert_eq!(field(&cancel, "id").as_f64(), Some(7.0));

    let read = |json: &str| FromSandbox::from_js(js_sys::JSON::parse(json).unwrap());
    let ending = |json: &str| match read(json) {
        Ok(FromSandbox::Result(end)) => (end.id, end.ending()),
        other => panic!("{json} read as {other:?}"),
    };
    assert_eq!(read(r#"{"type":"ready"}"#), Ok(FromSandbox::Ready));
    assert_eq!(
        ending(r#"{"type":"result","id":7,"ok":true,"json":"{\"x\":1}"}"#),
        (7, Ending::Returned(r#"{"x":1}"#.into()))
    );
    assert_eq!(
        ending(r#"{"type":"result","id":8,"ok":false,"timedOut":true}"#),
        (8, Ending::TimedOut)
    );
    assert_eq!(
        ending(r#"{"type":"result","id":9,"ok":false,"error":"TypeError: x is not a function"}"#),
        (9, Ending::Failed("TypeError: x is not a function".into()))
    );
    assert_eq!(
        ending(r#"{"type":"result","id":10}"#),
        (10, Ending::Failed("the sandbox gave no reason".into()))
    );
    assert!(read(r#"{"type":"something else"}"#).is_err());
    assert!(
        read(r#"{"type":"result"}"#).is_err(),
        "a result names its call"
    );
}
