//! Ctrl+C during a run is the command line's Stop button: the run ends
//! `cancelled`, and its trace up to then is printed and recorded, as the
//! playground keeps it. Without this, Ctrl+C killed the process and the
//! trace of a hung run was lost.

use std::future::Future;

use harness::cancel::CancelToken;
use harness::library;

/// Runs `run` (whose `RunOptions` carry `cancel`) to its end; a Ctrl+C on
/// the way presses Stop, and the run then ends by itself.
pub async fn stoppable<F: Future>(cancel: CancelToken, run: F) -> F::Output {
    tokio::pin!(run);
    tokio::select! {
        biased;
        outcome = &mut run => outcome,
        pressed = tokio::signal::ctrl_c() => {
            if pressed.is_ok() {
                cancel.cancel();
            }
            run.await
        }
    }
}

/// Says on stderr, before a built-in that only a person can end, how to end
/// it (nothing is printed while its call hangs).
pub fn say_how_to_stop(source: &str) {
    if library::find(source).is_some_and(|b| b.stop_pressed_after_ms().is_some()) {
        eprintln!("note: this run waits until you press Ctrl+C, the playground's Stop; it then ends cancelled, its trace kept");
    }
}
