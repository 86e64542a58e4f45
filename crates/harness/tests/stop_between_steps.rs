//! Stop pressed while a run has handed the thread to its host (a browser
//! page between two steps of a fast scripted run) ends the run before its
//! next model call: the model is not asked again, and no request is
//! recorded after the click.

mod common;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use common::load;
use futures::future::LocalBoxFuture;
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::{EventKind, RunEvent, Status};
use harness::model::{ModelClient, ModelError, ModelRequest, ModelResponse};
use harness::runtime::TokioRuntime;
use serde_json::json;

/// The scenario's own model, counting the times it is asked.
struct Counting {
    inner: Box<dyn ModelClient>,
    calls: Rc<Cell<usize>>,
}

impl ModelClient for Counting {
    fn label(&self) -> String {
        self.inner.label()
    }

    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<ModelResponse, ModelError>> {
        self.calls.set(self.calls.get() + 1);
        self.inner.complete(request)
    }
}

/// Never pauses; at its `stop_at`-th turn of the thread, presses Stop and
/// notes how often the model had been asked, and the requests recorded.
struct Host {
    cancel: CancelToken,
    stop_at: usize,
    yields: Cell<usize>,
    calls: Rc<Cell<usize>>,
    seen: Rc<RefCell<Vec<RunEvent>>>,
    at_stop: Cell<Option<(usize, usize)>>,
}

impl Stepper for Host {
    fn step_mode(&self) -> bool {
        false
    }
    fn wait(&self, _: &Pause) -> LocalBoxFuture<'static, Resume> {
        unreachable!("never in step mode")
    }
    fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
        self.yields.set(self.yields.get() + 1);
        if self.yields.get() == self.stop_at {
            self.cancel.cancel();
            let requests = requests(&self.seen.borrow());
            self.at_stop.set(Some((self.calls.get(), requests)));
        }
        Some(Box::pin(tokio::task::yield_now()))
    }
}

fn requests(events: &[RunEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelRequest { .. }))
        .count()
}

/// A model that calls a trivial tool every turn, for a thousand turns.
fn endless() -> String {
    json!({
        "name": "Endless", "task": "Keep going.",
        "tools": [{"name": "noop", "description": "Does nothing.", "input_schema": {"type": "object"}, "result": {"ok": true}}],
        "limits": {"max_turns": 1000},
        "model": {"type": "scripted", "responses": [{"tool_calls": [{"name": "noop", "args": {}}]}], "loop_from": 0}
    })
    .to_string()
}

#[tokio::test(start_paused = true)]
async fn stop_pressed_between_steps_ends_the_run_before_the_next_model_call() {
    let scenario = load(&endless());
    // Stop at each of the first turns of the thread: after a model call,
    // after a tool call, and later in the run.
    for stop_at in 1..=8 {
        let runtime = Rc::new(TokioRuntime::default());
        let (_, model) = scenario.build(runtime.clone()).expect("builds");
        let calls = Rc::new(Cell::new(0));
        let model = Counting {
            inner: model,
            calls: calls.clone(),
        };
        let cancel = CancelToken::new();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let host = Host {
            cancel: cancel.clone(),
            stop_at,
            yields: Cell::new(0),
            calls: calls.clone(),
            seen: seen.clone(),
            at_stop: Cell::new(None),
        };
        let sink = seen.clone();
        let outcome = harness::run_scenario_with_model(
            &scenario,
            runtime,
            &model,
            harness::RunOptions {
                stepper: Some(&host),
                cancel,
                ..Default::default()
            },
            &mut |event: &RunEvent| sink.borrow_mut().push(event.clone()),
        )
        .await
        .expect("builds");

        assert_eq!(outcome.status, Status::Cancelled, "Stop at yield {stop_at}");
        let (calls_at_stop, requests_at_stop) = host.at_stop.get().expect("Stop was pressed");
        assert_eq!(
            calls.get(),
            calls_at_stop,
            "Stop at yield {stop_at}: the model was asked again after the click"
        );
        let events = seen.borrow();
        assert_eq!(
            requests(&events),
            requests_at_stop,
            "Stop at yield {stop_at}: a request recorded after the click"
        );
        // Every request recorded is one the model was asked.
        assert_eq!(requests(&events), calls.get(), "Stop at yield {stop_at}");
    }
}
