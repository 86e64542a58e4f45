//! JavaScript tools through a whole run: the host a caller passes in
//! `RunOptions` runs them, a host's timeout reads like the driver's own, a
//! hung script's future is dropped at `tool_timeout_ms`, and without a host
//! (the CLI) the model is told where they run.

mod common;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::library;
use harness::runtime::TokioRuntime;
use harness::script::{ScriptError, ScriptHost, NO_HOST_MESSAGE};
use harness::RunOptions;
use serde_json::{json, Value};

/// How the test host answers.
enum Answer {
    Value(Value),
    Error(ScriptError),
    /// Never answers, like `while (true) {}`; counts the drop that stops it.
    Hang,
}

struct TestHost {
    answer: Answer,
    calls: RefCell<Vec<(String, Value, u64)>>,
    dropped: Rc<Cell<usize>>,
}

impl TestHost {
    fn new(answer: Answer) -> Rc<TestHost> {
        Rc::new(TestHost {
            answer,
            calls: RefCell::new(Vec::new()),
            dropped: Rc::new(Cell::new(0)),
        })
    }
}

/// Counts a drop, the way the browser host terminates its worker.
struct OnDrop(Rc<Cell<usize>>);

impl Drop for OnDrop {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

impl ScriptHost for TestHost {
    fn run(
        &self,
        source: &str,
        args: Value,
        timeout_ms: u64,
    ) -> LocalBoxFuture<'static, Result<Value, ScriptError>> {
        self.calls
            .borrow_mut()
            .push((source.to_string(), args, timeout_ms));
        match &self.answer {
            Answer::Value(v) => {
                let v = v.clone();
                Box::pin(async move { Ok(v) })
            }
            Answer::Error(e) => {
                let e = e.clone();
                Box::pin(async move { Err(e) })
            }
            Answer::Hang => {
                let guard = OnDrop(self.dropped.clone());
                Box::pin(async move {
                    let _guard = guard;
                    futures::future::pending().await
                })
            }
        }
    }
}

async fn run_with_host(
    json: &str,
    host: Option<Rc<dyn ScriptHost>>,
) -> (harness::event::Outcome, Vec<harness::event::RunEvent>) {
    let mut events = Vec::new();
    let outcome = harness::run_scenario(
        &common::load(json),
        Rc::new(TokioRuntime::default()),
        RunOptions {
            scripts: host,
            ..RunOptions::default()
        },
        &mut |e| events.push(e.clone()),
    )
    .await
    .expect("builds");
    (outcome, events)
}

fn builtin(id: &str) -> &'static str {
    library::find(id).expect("built in").json()
}

#[tokio::test(start_paused = true)]
async fn the_host_runs_the_body_with_the_validated_arguments() {
    let host = TestHost::new(Answer::Value(json!({"cost_cents": 900})));
    let (outcome, events) = run_with_host(builtin("js-tool"), Some(host.clone())).await;
    assert_eq!(outcome.status.as_str(), "done", "{}", outcome.reason);
    let calls = host.calls.borrow();
    assert_eq!(calls.len(), 1);
    assert!(
        calls[0].0.contains("Math.ceil(args.weight_kg * 2)"),
        "{}",
        calls[0].0
    );
    assert_eq!(calls[0].1, json!({"weight_kg": 2.5, "zone": "domestic"}));
    assert_eq!(calls[0].2, 3000, "the scenario's tool_timeout_ms");
    assert_eq!(
        common::tool_results(&events),
        vec![(
            "shipping_cost".to_string(),
            false,
            r#"{"cost_cents":900}"#.to_string()
        )]
    );
}

#[tokio::test(start_paused = true)]
async fn without_a_host_the_model_reads_that_js_tools_run_in_the_browser() {
    for id in ["js-tool", "js-tool-infinite-loop"] {
        let (outcome, events) = run_with_host(builtin(id), None).await;
        let results = common::tool_results(&events);
        assert_eq!(results.len(), 1, "{id}");
        assert!(results[0].1, "{id}: not an error result");
        assert!(
            results[0].2.contains(NO_HOST_MESSAGE),
            "{id}: {}",
            results[0].2
        );
        // The rules model stops there and says why: the documented status holds natively.
        assert_eq!(
            outcome.status.as_str(),
            library::find(id).unwrap().expected_status
        );
        assert!(outcome
            .answer
            .as_deref()
            .unwrap_or("")
            .contains("could not finish"));
    }
}

#[tokio::test(start_paused = true)]
async fn a_hung_script_is_dropped_at_the_tool_timeout_like_any_hung_tool() {
    let host = TestHost::new(Answer::Hang);
    let (outcome, events) =
        run_with_host(builtin("js-tool-infinite-loop"), Some(host.clone())).await;
    assert_eq!(outcome.status.as_str(), "done", "{}", outcome.reason);
    assert_eq!(host.dropped.get(), 1, "the pending script was not dropped");
    assert_eq!(host.calls.borrow()[0].2, 1000);
    // The same words as a fixed-result tool that outlives its timeout.
    let hung_fixed = json!({
        "name": "hung", "task": "t",
        "tools": [{"name": "count_forever", "result": 1, "delay_ms": 60000}],
        "limits": {"tool_timeout_ms": 1000},
        "model": {"type": "scripted", "responses": [
            {"tool_calls": [{"name": "count_forever", "args": {}}]}, {"text": "gave up"}]}
    });
    let (_, fixed_events) = run_with_host(&hung_fixed.to_string(), None).await;
    let js = common::tool_results(&events);
    let fixed = common::tool_results(&fixed_events);
    assert!(js[0].1);
    assert_eq!(js[0].2, fixed[0].2);
    assert!(
        js[0].2.contains("did not finish within 1000 ms"),
        "{}",
        js[0].2
    );
}

#[tokio::test(start_paused = true)]
async fn the_hosts_own_timeout_reads_like_the_drivers() {
    let host = TestHost::new(Answer::Error(ScriptError::TimedOut));
    let (_, events) = run_with_host(builtin("js-tool-infinite-loop"), Some(host)).await;
    let hung = TestHost::new(Answer::Hang);
    let (_, driver_events) = run_with_host(builtin("js-tool-infinite-loop"), Some(hung)).await;
    assert_eq!(
        common::tool_results(&events),
        common::tool_results(&driver_events)
    );
}

#[tokio::test(start_paused = true)]
async fn a_script_error_is_an_error_result_the_model_reads() {
    let host = TestHost::new(Answer::Error(ScriptError::Failed(
        "RangeError: weight over 30 kg".into(),
    )));
    let (_, events) = run_with_host(builtin("js-tool"), Some(host)).await;
    let results = common::tool_results(&events);
    assert!(results[0].1);
    assert!(
        results[0]
            .2
            .contains("the JavaScript tool failed: RangeError: weight over 30 kg"),
        "{}",
        results[0].2
    );
}
