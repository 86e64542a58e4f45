//! Ctrl+C (SIGINT) or SIGTERM during a run is the command line's Stop
//! button: the run ends `cancelled`, its reason naming the signal, and its
//! trace up to then is printed and recorded, as the playground keeps it.
//! Without this, a signal killed the process and the trace was lost.

use std::future::Future;

use futures::future::LocalBoxFuture;
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::library;
use tokio::signal::unix::{signal, Signal, SignalKind};

/// Runs `run` (whose `RunOptions` carry `cancel` and `BETWEEN_STEPS`) to its
/// end; a SIGINT or SIGTERM on the way presses Stop, and the run then ends
/// by itself, its `run_finished` recorded.
pub async fn stoppable<F: Future>(cancel: CancelToken, run: F) -> F::Output {
    // Listening starts here, before the run's first step: a signal that
    // comes at any moment after is the run's Stop, never the default kill.
    let mut interrupt = listen(SignalKind::interrupt());
    let mut terminate = listen(SignalKind::terminate());
    tokio::pin!(run);
    let name = tokio::select! {
        biased;
        outcome = &mut run => return outcome,
        _ = received(&mut interrupt) => "SIGINT",
        _ = received(&mut terminate) => "SIGTERM",
    };
    cancel.cancel_by_signal(name);
    run.await
}

/// `None` when the signal cannot be listened for (no such handler can be
/// set): that signal then keeps its default, as before.
fn listen(kind: SignalKind) -> Option<Signal> {
    signal(kind).ok()
}

async fn received(listener: &mut Option<Signal>) {
    match listener {
        Some(listener) => {
            listener.recv().await;
        }
        None => std::future::pending().await,
    }
}

/// A command-line run's stepper: never step mode, but after every step it
/// lets the runtime look at its signals. A scripted run without delays
/// answers every call at once and would never give `stoppable` a chance to
/// see Ctrl+C.
pub struct YieldBetweenSteps;

/// The one `YieldBetweenSteps`, for `RunOptions::stepper`.
pub const BETWEEN_STEPS: &YieldBetweenSteps = &YieldBetweenSteps;

impl Stepper for YieldBetweenSteps {
    fn step_mode(&self) -> bool {
        false
    }

    /// Never asked: a run out of step mode does not pause.
    fn wait(&self, _pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        Box::pin(std::future::ready(Resume::Go))
    }

    fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
        Some(Box::pin(tokio::task::yield_now()))
    }
}

/// Says on stderr, before a built-in that only a person can end, how to end
/// it (nothing is printed while its call hangs).
pub fn say_how_to_stop(source: &str) {
    if library::find(source).is_some_and(|b| b.stop_pressed_after_ms().is_some()) {
        eprintln!("note: this run waits until you press Ctrl+C, the playground's Stop; it then ends cancelled, its trace kept");
    }
}
