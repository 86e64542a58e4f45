//! The command runner: the one place where the page's plain models (see
//! `crate::update`) meet time. A model is held in one signal; `send` changes
//! it with the model's `update` and then performs each command that update
//! returned, through the `perform` function its feature supplies (the
//! effects: storage, the split-loaded engine, the controller, a download).
//! A command answers at once (`Answer::Now`, for synchronous work such as
//! `localStorage`) or later (`Answer::Later`, a future the runner spawns);
//! either way its answer comes back to the model through `send`, so every
//! change to the model goes through `update`.
//!
//! Staleness is the model's job, not the runner's: a command carries what
//! it was started for (a run's id, a `Ticket`), its answer brings that back,
//! and `update` drops an answer that a newer start made moot. That keeps the
//! rule a native test. The runner drops nothing on its own.
//!
//! It takes the model's step as a plain function, not the `Update` trait, so
//! this browser glue imports nothing from the layers above it.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use leptos::task::spawn_local;

/// A command performed: its answer now, or a future that brings it.
pub enum Answer<Msg> {
    /// Done synchronously; the answer, if the model wants one.
    Now(Option<Msg>),
    /// Under way; the answer arrives when the future ends.
    Later(Pin<Box<dyn Future<Output = Option<Msg>>>>),
}

impl<Msg> Answer<Msg> {
    /// Done, with nothing to tell the model.
    pub fn none() -> Self {
        Answer::Now(None)
    }

    /// Done, answering `msg`.
    pub fn now(msg: Msg) -> Self {
        Answer::Now(Some(msg))
    }

    /// Answers with what `work` ends with.
    pub fn later(work: impl Future<Output = Option<Msg>> + 'static) -> Self {
        Answer::Later(Box::pin(work))
    }
}

type Step<M, Msg, Cmd> = fn(&mut M, Msg) -> Vec<Cmd>;
type Perform<M, Msg, Cmd> = Box<dyn Fn(Cmd, Runner<M, Msg, Cmd>) -> Answer<Msg>>;

struct Wiring<M: 'static, Msg: 'static, Cmd: 'static> {
    step: Step<M, Msg, Cmd>,
    perform: Perform<M, Msg, Cmd>,
}

/// A model in its signal, with the way its commands are performed.
pub struct Runner<M: 'static, Msg: 'static, Cmd: 'static> {
    model: RwSignal<M, LocalStorage>,
    wiring: StoredValue<Wiring<M, Msg, Cmd>, LocalStorage>,
}

impl<M, Msg, Cmd> Clone for Runner<M, Msg, Cmd> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M, Msg, Cmd> Copy for Runner<M, Msg, Cmd> {}

impl<M: 'static, Msg: 'static, Cmd: 'static> Runner<M, Msg, Cmd> {
    /// Holds `model`, changed by `step` (the model's `update`), its commands
    /// performed by `perform`, which is handed this runner so that work that
    /// reports as it goes (exchanges on the wire) can `send` more than once.
    pub fn new(
        model: M,
        step: Step<M, Msg, Cmd>,
        perform: impl Fn(Cmd, Runner<M, Msg, Cmd>) -> Answer<Msg> + 'static,
    ) -> Self {
        Runner {
            model: RwSignal::new_local(model),
            wiring: StoredValue::new_local(Wiring {
                step,
                perform: Box::new(perform),
            }),
        }
    }

    /// Sends the model `msg`, performs the commands it answers with, and
    /// sends their answers in turn: those ready now before this returns (in
    /// the order asked), the others as they arrive.
    pub fn send(self, msg: Msg) {
        let mut queue = VecDeque::from([msg]);
        while let Some(msg) = queue.pop_front() {
            let Some(step) = self.wiring.try_with_value(|w| w.step) else {
                return; // The page that held the model is gone.
            };
            let commands = self.model.try_update(|m| step(m, msg)).unwrap_or_default();
            for command in commands {
                let effect = self
                    .wiring
                    .try_with_value(|w| (w.perform)(command, self))
                    .unwrap_or(Answer::Now(None));
                match effect {
                    Answer::Now(answer) => queue.extend(answer),
                    Answer::Later(work) => spawn_local(async move {
                        if let Some(answer) = work.await {
                            self.send(answer);
                        }
                    }),
                }
            }
        }
    }

    /// Reads the model (tracked: a memo or a view reading it reruns when it
    /// changes).
    pub fn with<R>(self, read: impl FnOnce(&M) -> R) -> R {
        self.model.with(read)
    }

    /// Reads the model without tracking it (in an event handler).
    pub fn with_untracked<R>(self, read: impl FnOnce(&M) -> R) -> R {
        self.model.with_untracked(read)
    }
}
