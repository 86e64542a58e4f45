//! The controller owns runs: it loads the scenario text, spawns the harness's
//! driver on the browser's event loop, appends each `RunEvent` to the run log
//! as it happens, and holds the cancel token that Stop fires.
//!
//! Invariants:
//! - The run log is one append-only `RwSignal<Vec<RunEvent>>`: events are only
//!   pushed, never edited; starting a run replaces the log with an empty one.
//! - Only the newest run writes. Each run gets an id; a superseded run (one
//!   cancelled because another started) may still emit its final event, and
//!   that event is dropped instead of landing in the new run's log.
//! - The signals live in the root owner, which lives as long as the page, so
//!   the spawned task never touches a disposed signal.

use std::rc::Rc;

use harness::cancel::CancelToken;
use harness::event::RunEvent;
use harness::runtime::Runtime;
use harness::scenario::Scenario;
use harness::{run_scenario, RunOptions};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::browser::runtime::BrowserRuntime;
use crate::view_model;

#[derive(Clone, Copy)]
pub struct Controller {
    events: RwSignal<Vec<RunEvent>>,
    /// Bumped when a run starts; the event list remounts on it, because a new
    /// run's `seq` starts again at 0 and keyed rows must not be reused.
    run_id: RwSignal<u64>,
    /// Why the last scenario could not run, as `path: message` lines.
    problems: RwSignal<Vec<String>>,
    running: RwSignal<bool>,
    /// The cancel token of the run in flight; the token is `!Send`, hence local storage.
    cancel: StoredValue<Option<CancelToken>, LocalStorage>,
}

impl Default for Controller {
    fn default() -> Self {
        Self::new()
    }
}

impl Controller {
    /// Call once, in the root component, so the signals live as long as the page.
    pub fn new() -> Self {
        Controller {
            events: RwSignal::new(Vec::new()),
            run_id: RwSignal::new(0),
            problems: RwSignal::new(Vec::new()),
            running: RwSignal::new(false),
            cancel: StoredValue::new_local(None),
        }
    }

    pub fn events(&self) -> ReadSignal<Vec<RunEvent>> {
        self.events.read_only()
    }

    pub fn run_id(&self) -> ReadSignal<u64> {
        self.run_id.read_only()
    }

    pub fn problems(&self) -> ReadSignal<Vec<String>> {
        self.problems.read_only()
    }

    pub fn running(&self) -> ReadSignal<bool> {
        self.running.read_only()
    }

    /// Loads `scenario_text` and runs it. A scenario that does not load lists
    /// its problems and runs nothing. A run already in flight is cancelled first.
    pub fn start(self, scenario_text: &str) {
        self.stop();
        let run = self.run_id.get_untracked() + 1;
        self.run_id.set(run);
        self.events.set(Vec::new());
        let scenario = match Scenario::load(scenario_text) {
            Ok(scenario) => scenario,
            Err(problems) => {
                self.problems.set(view_model::problem_lines(&problems));
                self.running.set(false);
                self.cancel.set_value(None);
                return;
            }
        };
        self.problems.set(Vec::new());
        self.running.set(true);
        let token = CancelToken::new();
        self.cancel.set_value(Some(token.clone()));

        spawn_local(async move {
            let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
            let options = RunOptions {
                // No approval bar yet: a call that needs a human ends the run `blocked`.
                approver: None,
                cancel: token,
                stepper: None,
            };
            let current = move || self.run_id.get_untracked() == run;
            let mut on_event = |event: &RunEvent| {
                if current() {
                    self.events.update(|events| events.push(event.clone()));
                }
            };
            let result = run_scenario(&scenario, runtime, options, &mut on_event).await;
            if !current() {
                return;
            }
            if let Err(problems) = result {
                // Loading passed but building the run failed: same alert, same words.
                self.problems.set(view_model::problem_lines(&problems));
            }
            self.running.set(false);
            self.cancel.set_value(None);
        });
    }

    /// Cancels the run in flight, if any; it ends `cancelled` at its next await.
    pub fn stop(self) {
        if let Some(token) = self.cancel.get_value() {
            token.cancel();
        }
    }
}
