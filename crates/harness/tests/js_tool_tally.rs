//! What the tool-call tally says of a JavaScript tool that never finished:
//! stopped at its time limit (by the driver or by the sandbox itself) it
//! was cut short, and with no sandbox to run it (the CLI) it did not run.

mod common;

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use harness::event::{EventKind, Outcome, ResultFate, RunEvent};
use harness::runtime::TokioRuntime;
use harness::script::{ScriptError, ScriptHost};
use harness::RunOptions;
use serde_json::Value;

/// A sandbox whose script never returns: it stops the script at its own
/// limit (`stops_itself`), or spins until the driver drops it.
struct EndlessLoop {
    stops_itself: bool,
}

impl ScriptHost for EndlessLoop {
    fn run(
        &self,
        _source: &str,
        _args: Value,
        _timeout_ms: u64,
    ) -> LocalBoxFuture<'static, Result<Value, ScriptError>> {
        if self.stops_itself {
            Box::pin(async { Err(ScriptError::TimedOut) })
        } else {
            Box::pin(futures::future::pending())
        }
    }
}

async fn infinite_loop_with(host: Option<Rc<dyn ScriptHost>>) -> (Outcome, Vec<RunEvent>) {
    let json = harness::library::find("js-tool-infinite-loop")
        .unwrap()
        .json();
    let mut events = Vec::new();
    let outcome = harness::run_scenario(
        &common::load(json),
        Rc::new(TokioRuntime::default()),
        RunOptions {
            scripts: host,
            ..RunOptions::default()
        },
        &mut |e: &RunEvent| events.push(e.clone()),
    )
    .await
    .expect("builds");
    (outcome, events)
}

fn fate(events: &[RunEvent]) -> Option<ResultFate> {
    events.iter().find_map(|e| match &e.kind {
        EventKind::ToolResult { fate, .. } => *fate,
        _ => None,
    })
}

fn tally(outcome: &Outcome) -> String {
    outcome.calls.expect("counted").summary(0)
}

#[tokio::test(start_paused = true)]
async fn a_script_the_sandbox_stops_at_its_limit_is_cut_short() {
    let (outcome, events) =
        infinite_loop_with(Some(Rc::new(EndlessLoop { stops_itself: true }))).await;
    assert_eq!(fate(&events), Some(ResultFate::TimedOut));
    assert_eq!(tally(&outcome), "1 requested (1 cut short)");
}

#[tokio::test(start_paused = true)]
async fn a_script_the_driver_stops_at_tool_timeout_ms_is_cut_short() {
    let (outcome, events) = infinite_loop_with(Some(Rc::new(EndlessLoop {
        stops_itself: false,
    })))
    .await;
    assert_eq!(fate(&events), Some(ResultFate::TimedOut));
    assert_eq!(tally(&outcome), "1 requested (1 cut short)");
}

#[tokio::test(start_paused = true)]
async fn a_script_with_no_sandbox_to_run_in_did_not_run() {
    let (outcome, events) = infinite_loop_with(None).await;
    assert_eq!(fate(&events), Some(ResultFate::Invalid));
    assert_eq!(tally(&outcome), "1 requested (1 not run)");
}
