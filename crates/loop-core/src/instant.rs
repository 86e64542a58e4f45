//! Driving a run whose model and tools answer at once, with no async
//! executor: the scripted model without delays and the built-in or
//! fixed-result tools complete on their first poll. Benchmarks use it to
//! time each step of the state machine itself, natively and in wasm.

use futures::FutureExt;

use crate::event::Outcome;
use crate::model::ModelClient;
use crate::run::{Run, Step};
use crate::runtime::Runtime;

/// A clock for runs whose model and tools answer at once: time stands still
/// and no timer ever fires, so no deadline or timeout can. With it,
/// `run_scenario` on such a scenario finishes on its first poll, which lets
/// tests drive whole runs without an async executor.
pub struct StillClock;

impl Runtime for StillClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn unix_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _ms: u64) -> futures::future::LocalBoxFuture<'static, ()> {
        Box::pin(futures::future::pending())
    }
}

/// Runs `run` to the end, calling `on_step` with how long each model call or
/// tool call step took on `clock` (milliseconds). A step that would have to
/// wait (a delay, an approval, a backoff) ends the run as a model error, so
/// only instant scenarios should be driven this way.
pub fn drive_instantly(
    run: &mut Run,
    model: &dyn ModelClient,
    clock: &dyn Fn() -> f64,
    on_step: &mut dyn FnMut(f64),
) -> Outcome {
    let origin = clock();
    loop {
        let started = clock();
        let now = started - origin;
        let step = run.next_step(now);
        run.drain_events().for_each(drop);
        match step {
            Step::CallModel => {
                let answer = model.complete(run.model_request()).now_or_never();
                match answer {
                    Some(Ok(response)) => run.feed_model_response(response, now),
                    Some(Err(error)) => run.feed_model_error(error, now),
                    None => run.cancel(now),
                }
            }
            Step::RunTool(invocation) => {
                let handler = run.tools().get(&invocation.name).map(|t| t.handler.clone());
                let result = handler.and_then(|h| h.answer(invocation.args).now_or_never());
                match result {
                    Some(result) => run.feed_tool_output(result, now),
                    None => run.cancel(now),
                }
            }
            Step::Finished(outcome) => return outcome,
            Step::AwaitApproval(_) => run.feed_no_approver(now),
            Step::Sleep { .. } | Step::Paused(_) => run.cancel(now),
        }
        on_step(clock() - started);
    }
}
