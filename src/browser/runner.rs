//! The runner: the one place the page starts asynchronous work. Everything
//! the page awaits (the split-loaded engine, a fetch, storage, a file read,
//! a timer, a run's driver) is started here, and its answer is handed to
//! the code that asked for it, so a model's adapter receives it as a
//! message and its `update` decides what it means.
//!
//! Work can be overtaken by a newer start before it answers; the newer one
//! wins and the older answer is dropped. Where a feature is a model, its
//! command carries a number (a run's id, a pick's, a load's, a
//! comparison's, a protocol check's) and the model's `update` drops a stale
//! answer, a rule its native tests hold. A component that starts work of
//! its own (a lesson's Check, the tool bench's call, a stylesheet) checks
//! when the answer lands that it still applies (a lesson's Check, that the
//! text is the one it checked). The runner keeps no record of what is
//! current.

use std::future::Future;
use std::pin::Pin;

/// Starts `work` on the browser's event loop, to its end.
pub fn start(work: impl Future<Output = ()> + 'static) {
    start_boxed(Box::pin(work));
}

/// One task type for the whole page: every start is boxed once here, so
/// each caller does not instantiate its own copy of the executor's spawn.
#[inline(never)]
fn start_boxed(work: Pin<Box<dyn Future<Output = ()>>>) {
    leptos::task::spawn_local(work);
}

/// Starts `work` and hands what it ends with to `deliver` (a model's
/// `send`, or the setter of what shows the answer).
pub fn answer<T: 'static>(
    work: impl Future<Output = T> + 'static,
    deliver: impl FnOnce(T) + 'static,
) {
    start(async move { deliver(work.await) });
}
