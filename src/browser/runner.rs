//! The runner: the one place the page starts asynchronous work. Everything
//! the page awaits (the split-loaded engine, a fetch, storage, a file read,
//! a timer, a run's driver) is started here, and its answer is handed to
//! the code that asked for it, so a model's adapter receives it as a
//! message and its `update` decides what it means.
//!
//! Work can be overtaken by a newer start before it answers; the newer one
//! wins and the older answer is dropped. Where a feature is a model, its
//! command carries a number (a run's id, a pick's, a load's, a
//! comparison's) and the model's `update` drops a stale answer, a rule its
//! native tests hold. Work without a model (the live protocol check) keeps
//! a `Generation`, takes a `Ticket` when it starts, and
//! [`answer_if_current`] drops what lands after the ticket went stale.

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;

/// A line of attempts, each newer one making the older ones stale.
#[derive(Clone, Copy)]
pub struct Generation(StoredValue<u64>);

/// One attempt: current until the next one starts.
#[derive(Clone, Copy)]
pub struct Ticket {
    generation: Generation,
    number: u64,
}

impl Generation {
    pub fn new() -> Self {
        Generation(StoredValue::new(0))
    }

    /// Starts an attempt: every ticket taken before is stale from now on.
    pub fn next(self) -> Ticket {
        self.0.update_value(|n| *n += 1);
        Ticket {
            generation: self,
            number: self.0.get_value(),
        }
    }

    /// Makes every ticket taken so far stale, starting nothing new (an
    /// edit that makes the work in flight moot).
    pub fn drop_all(self) {
        self.next();
    }
}

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

/// Like [`answer`], but the answer is dropped if a newer attempt of the
/// same kind started after `ticket` was taken (the newer one wins).
pub fn answer_if_current<T: 'static>(
    ticket: Ticket,
    work: impl Future<Output = T> + 'static,
    deliver: impl FnOnce(T) + 'static,
) {
    start(async move {
        let answer = work.await;
        if ticket.is_current() {
            deliver(answer);
        }
    });
}

impl Default for Generation {
    fn default() -> Self {
        Self::new()
    }
}

impl Ticket {
    /// No newer attempt has started since this one.
    pub fn is_current(self) -> bool {
        self.generation.0.get_value() == self.number
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_ticket_is_current() {
        let line = Generation::new();
        let first = line.next();
        assert!(first.is_current());
        let second = line.next();
        assert!(!first.is_current() && second.is_current());
        line.drop_all();
        assert!(!second.is_current());
        // Lines are independent.
        let other = Generation::new();
        let mine = other.next();
        line.next();
        assert!(mine.is_current());
    }
}
