//! The HTTP provider adapter on the browser's fetch, in headless Chromium,
//! against `agent-loop serve` (scripts/test.sh starts one server per
//! scenario and passes their ports at build time). Each format, streamed and
//! not, runs a tool turn to `done`; a 429 is retried after the server's
//! retry-after; a 401 ends `model_error` saying what to do; Stop aborts a
//! slow request at once.

#![cfg(target_arch = "wasm32")]
// A test runs the engine directly; the split rule (clippy.toml) is about
// the web app's first paint.
#![allow(clippy::disallowed_methods)]

use std::rc::Rc;

use agent_loop_playground::browser::fetch::FetchTransport;
use agent_loop_playground::browser::runtime::BrowserRuntime;
use harness::event::{EventKind, RunEvent, Status};
use harness::provider::{ApiKey, HttpModel, ProviderSettings};
use harness::scenario::Scenario;
use harness::wire::Provider;
use harness::RunOptions;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn model(port: &str, provider: Provider, stream: bool) -> HttpModel<FetchTransport> {
    HttpModel::new(
        ProviderSettings {
            provider,
            base_url: format!("http://127.0.0.1:{port}"),
            model: "scripted".into(),
            stream,
        },
        ApiKey::new("sk-test-not-a-real-key"),
        FetchTransport,
    )
}

fn builtin(id: &str) -> Scenario {
    Scenario::load(harness::library::find(id).unwrap().json()).unwrap()
}

async fn run(
    scenario: &Scenario,
    model: &HttpModel<FetchTransport>,
    options: RunOptions<'_>,
) -> (harness::event::Outcome, Vec<RunEvent>) {
    let mut events = Vec::new();
    let outcome = harness::run_scenario_with_model(
        scenario,
        Rc::new(BrowserRuntime::new()),
        model,
        options,
        &mut |e: &RunEvent| events.push(e.clone()),
    )
    .await
    .unwrap();
    (outcome, events)
}

macro_rules! port_or_skip {
    ($var:literal) => {
        match option_env!($var) {
            Some(port) => port,
            None => {
                console_log!(concat!(
                    "skipped: ",
                    $var,
                    " is not set (scripts/test.sh starts the mock servers)"
                ));
                return;
            }
        }
    };
}

#[wasm_bindgen_test]
async fn every_format_streamed_and_not_runs_to_done_over_fetch() {
    let port = port_or_skip!("AGENT_LOOP_MOCK_PORT");
    let scenario = builtin("get-time");
    for provider in Provider::ALL {
        for stream in [true, false] {
            let (outcome, _) = run(
                &scenario,
                &model(port, provider, stream),
                RunOptions::default(),
            )
            .await;
            assert_eq!(
                outcome.status,
                Status::Done,
                "{provider:?} stream={stream}: {}",
                outcome.reason
            );
            assert_eq!(outcome.tool_calls, 1);
        }
    }
}

#[wasm_bindgen_test]
async fn a_429_is_retried_and_a_401_says_what_to_do() {
    let port = port_or_skip!("AGENT_LOOP_MOCK_PORT_RETRY");
    let (outcome, events) = run(
        &builtin("rate-limit-retry"),
        &model(port, Provider::Anthropic, true),
        RunOptions::default(),
    )
    .await;
    assert_eq!(outcome.status, Status::Done, "{}", outcome.reason);
    let errors: Vec<Option<u16>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ModelError { status, .. } => Some(*status),
            _ => None,
        })
        .collect();
    assert_eq!(errors, vec![Some(429), Some(529)]);

    let port = port_or_skip!("AGENT_LOOP_MOCK_PORT_AUTH");
    let (outcome, _) = run(
        &builtin("model-error"),
        &model(port, Provider::OpenaiChat, false),
        RunOptions::default(),
    )
    .await;
    assert_eq!(outcome.status, Status::ModelError);
    assert!(outcome.reason.contains("HTTP 401"), "{}", outcome.reason);
    assert!(
        outcome.reason.contains("the API key was refused"),
        "{}",
        outcome.reason
    );
    assert!(!outcome.reason.contains("sk-test"), "the key never shows");
}

#[wasm_bindgen_test]
async fn stop_aborts_a_slow_request_at_once() {
    let port = port_or_skip!("AGENT_LOOP_MOCK_PORT_SLOW");
    let cancel = harness::cancel::CancelToken::new();
    let stopper = cancel.clone();
    let runtime = BrowserRuntime::new();
    let started = harness::runtime::Runtime::now_ms(&runtime);
    wasm_bindgen_futures::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(400).await;
        stopper.cancel();
    });
    let (outcome, _) = run(
        &builtin("deadline"),
        &model(port, Provider::OpenaiResponses, true),
        RunOptions {
            cancel,
            ..RunOptions::default()
        },
    )
    .await;
    let waited = harness::runtime::Runtime::now_ms(&runtime) - started;
    assert_eq!(outcome.status, Status::Cancelled, "{}", outcome.reason);
    assert!(
        waited < 1000.0,
        "stopped {waited} ms after start, not after the 60 s delay"
    );
}

#[wasm_bindgen_test]
async fn the_deadline_aborts_a_slow_request_at_once() {
    let port = port_or_skip!("AGENT_LOOP_MOCK_PORT_SLOW");
    let scenario = builtin("deadline");
    let deadline_ms = scenario.limits.deadline_ms.unwrap() as f64;
    let runtime = BrowserRuntime::new();
    let started = harness::runtime::Runtime::now_ms(&runtime);
    let (outcome, _) = run(
        &scenario,
        &model(port, Provider::Anthropic, true),
        RunOptions::default(),
    )
    .await;
    let waited = harness::runtime::Runtime::now_ms(&runtime) - started;
    assert_eq!(outcome.status, Status::Deadline, "{}", outcome.reason);
    assert!(
        waited < deadline_ms + 1000.0,
        "ended {waited} ms after start: the {deadline_ms} ms deadline did not cut the request"
    );
}

#[wasm_bindgen_test]
async fn a_key_the_browser_cannot_send_as_a_header_ends_model_error_saying_why() {
    // A key pasted with a character outside Latin-1 (here an arrow): the
    // browser refuses it as a header value. The run must end saying so, not
    // stall on an exception thrown past the transport.
    let port = port_or_skip!("AGENT_LOOP_MOCK_PORT");
    let model = HttpModel::new(
        ProviderSettings {
            provider: Provider::Anthropic,
            base_url: format!("http://127.0.0.1:{port}"),
            model: "scripted".into(),
            stream: false,
        },
        ApiKey::new("sk-test\u{2192}pasted"),
        FetchTransport,
    );
    let (outcome, _) = run(&builtin("get-time"), &model, RunOptions::default()).await;
    assert_eq!(outcome.status, Status::ModelError, "{}", outcome.reason);
    assert!(outcome.reason.contains("ISO-8859-1"), "{}", outcome.reason);
    assert!(!outcome.reason.contains("sk-test"), "the key never shows");
}
