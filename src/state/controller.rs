//! The controller owns runs: it loads the scenario text, spawns the harness's
//! driver on the browser's event loop, appends each `RunEvent` to the run log
//! as it happens, holds the cancel token that Stop fires, and holds the two
//! places where a run waits for a person: the pending approval (a oneshot
//! sender the approval bar resolves) and the step-mode pause (a oneshot
//! sender the Step and Run buttons resolve with "go on", and the answer
//! panel with a turn or a result a person wrote).
//!
//! Invariants:
//! - The run log is one append-only `RwSignal<Vec<RunEvent>>`: events are only
//!   pushed, never edited; starting a run replaces the log with an empty one.
//! - Only the newest run writes. Each run gets an id; a superseded run (one
//!   cancelled because another started) may still emit its final event, and
//!   that event is dropped instead of landing in the new run's log.
//! - A pending approval or pause belongs to the newest run and is cleared when
//!   that run ends, so the bar never outlives the call it is about.
//! - The signals live in the root owner, which lives as long as the page, so
//!   the spawned task never touches a disposed signal.
//! - A run hands the main thread back to the browser every few milliseconds
//!   (see `BrowserStepper`), so a long scripted run streams and Stop works.
//! - The page takes a run's events in once a frame (`flush`), and at once
//!   when the run ends or a recorded run is shown: the log, the counters,
//!   the Run state and the cards each change once per frame, however many
//!   events arrived in it.

use std::rc::Rc;

use futures::channel::oneshot;
use futures::future::{self, LocalBoxFuture};
use gloo_timers::future::TimeoutFuture;
use harness::approval::{ApprovalRequest, Approver, Decision};
use harness::cancel::CancelToken;
use harness::driver::{Pause, Resume, Stepper};
use harness::event::RunEvent;
use harness::provider::ProviderRun;
use harness::run::PauseBefore;
use harness::runtime::Runtime;
use harness::scenario::Scenario;
use harness::wire::RequestShape;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;

use crate::browser::runtime::{BrowserRuntime, HostYield};
use crate::lazy::{self, Play};
use crate::run_state::RunStateBook;
use crate::state::mcp::Mcp;
use crate::turn_view::{self, Placement};
use crate::view_model::{self, Counters};

/// A call waiting for the person at the page, as the approval bar shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingApproval {
    pub call_id: String,
    pub tool: String,
    pub args: Value,
    /// Why the last edit of the arguments was refused by the run, if it was.
    pub edit_error: Option<String>,
    /// The tool's input schema, so the bar can check an edit before sending it.
    pub schema: Option<Value>,
}

/// One card of the timeline: a model turn, or the run's start or end. Its
/// events live in their own signal, so an event appended to the newest card
/// re-renders that card's list only, never the whole timeline.
#[derive(Clone)]
pub struct Card {
    /// Position in the run, the keyed list's key.
    pub key: usize,
    /// `None` for the run's start or end.
    pub turn: Option<u32>,
    /// The `seq` of its first event: the cards are in `seq` order, so the
    /// card holding an event is found by binary search on it.
    pub first_seq: u64,
    pub events: ArcRwSignal<Vec<RunEvent>>,
}

/// How often the elapsed-time counter refreshes while a run is in flight.
const CLOCK_TICK_MS: u32 = 100;

#[derive(Clone, Copy)]
pub struct Controller {
    events: RwSignal<Vec<RunEvent>>,
    /// Events of the newest run not on the page yet (see `flush`).
    arrived: StoredValue<Vec<RunEvent>>,
    flush_queued: StoredValue<bool>,
    /// The top bar's numbers, kept up to date per event (see `Counters::apply`).
    counters: RwSignal<Counters>,
    /// The same events grouped into cards (see `turn_view::placement`).
    cards: RwSignal<Vec<Card>>,
    /// The Run state panel's facts and stores, followed per event.
    run_state: RwSignal<RunStateBook>,
    /// Bumped when a run starts or the trace is reset; the event list
    /// remounts on it, because a new run's `seq` starts again at 0 and keyed
    /// rows must not be reused.
    run_id: RwSignal<u64>,
    /// Why the last scenario could not run, as `path: message` lines.
    problems: RwSignal<Vec<String>>,
    running: RwSignal<bool>,
    /// The run in flight's own time, as its driver counts it: milliseconds
    /// since it started, less the time step mode held it for a person
    /// (refreshed by a timer; see `harness::driver`).
    elapsed_ms: RwSignal<u64>,
    /// Time step mode has held the run in flight: the total, and since when
    /// it is held now, on the run's runtime clock.
    held: StoredValue<Held>,
    pending: RwSignal<Option<PendingApproval>>,
    /// What a paused run does next, while it is paused in step mode.
    paused: RwSignal<Option<PauseBefore>>,
    /// Why the run refused the last answer given at this pause (one that
    /// did not fit it), shown by the answer panel.
    pause_refused: RwSignal<Option<String>>,
    /// Step mode for the next pause decision; read by the driver before every step.
    step_mode: StoredValue<bool>,
    /// The cancel token of the run in flight; the token is `!Send`, hence local storage.
    cancel: StoredValue<Option<CancelToken>, LocalStorage>,
    decision_tx: StoredValue<Option<oneshot::Sender<Decision>>, LocalStorage>,
    step_tx: StoredValue<Option<oneshot::Sender<Resume>>, LocalStorage>,
    /// Tool name → input schema of the run in flight.
    schemas: StoredValue<Vec<(String, Value)>>,
    /// The system prompt and tool specs of the last run, for the inspector.
    wire_setup: RwSignal<RequestShape>,
    /// The provider the next run talks to, with its key; `None` plays the
    /// scenario's scripted model. Read when a run starts, never logged.
    model: StoredValue<Option<ProviderRun>>,
    /// The scenario the run in the log ran (as loaded when it started), so the
    /// run can be exported as a record, kept in the history and forked.
    ran: RwSignal<Option<Scenario>>,
    /// The trace event the person picked (its `seq`), for the loop diagram
    /// to show where it happened.
    picked_event: RwSignal<Option<u64>>,
    /// The trace event the person asked to see (its `seq`), for the
    /// timeline to draw its card and scroll to it; set again for each ask.
    shown_event: RwSignal<Option<u64>>,
    /// The scenario's MCP servers: a run takes their loaded tools.
    mcp: Mcp,
    /// Whether the engine's module has arrived, once `quiet` first asked
    /// (`engine_awaited`): asking at start would fetch it sooner than the
    /// page's own first need. Made here so it lives as long as the page.
    engine_here: RwSignal<bool>,
    engine_awaited: StoredValue<bool>,
}

impl Controller {
    /// Call once, in the root component, so the signals live as long as the
    /// page. It is also provided as context, for the components that show
    /// what it holds without being handed it (the stop banner).
    pub fn new(mcp: Mcp) -> Self {
        let controller = Controller {
            events: RwSignal::new(Vec::new()),
            arrived: StoredValue::new(Vec::new()),
            flush_queued: StoredValue::new(false),
            cards: RwSignal::new(Vec::new()),
            run_state: RwSignal::new(RunStateBook::default()),
            counters: RwSignal::new(Counters::default()),
            run_id: RwSignal::new(0),
            problems: RwSignal::new(Vec::new()),
            running: RwSignal::new(false),
            elapsed_ms: RwSignal::new(0),
            held: StoredValue::new(Held::default()),
            pending: RwSignal::new(None),
            paused: RwSignal::new(None),
            pause_refused: RwSignal::new(None),
            step_mode: StoredValue::new(false),
            cancel: StoredValue::new_local(None),
            decision_tx: StoredValue::new_local(None),
            step_tx: StoredValue::new_local(None),
            schemas: StoredValue::new(Vec::new()),
            wire_setup: RwSignal::new(RequestShape::default()),
            model: StoredValue::new(None),
            ran: RwSignal::new(None),
            picked_event: RwSignal::new(None),
            shown_event: RwSignal::new(None),
            mcp,
            engine_here: RwSignal::new(false),
            engine_awaited: StoredValue::new(false),
        };
        provide_context(controller);
        controller
    }

    pub fn events(&self) -> ReadSignal<Vec<RunEvent>> {
        self.events.read_only()
    }

    pub fn counters(&self) -> ReadSignal<Counters> {
        self.counters.read_only()
    }

    pub fn cards(&self) -> ReadSignal<Vec<Card>> {
        self.cards.read_only()
    }

    pub fn run_state(&self) -> ReadSignal<RunStateBook> {
        self.run_state.read_only()
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

    pub fn elapsed_ms(&self) -> ReadSignal<u64> {
        self.elapsed_ms.read_only()
    }

    pub fn pending(&self) -> ReadSignal<Option<PendingApproval>> {
        self.pending.read_only()
    }

    pub fn paused(&self) -> ReadSignal<Option<PauseBefore>> {
        self.paused.read_only()
    }

    /// The run goes a step at a time (Step, or an answer typed at a pause)
    /// rather than on to its end (Run): a lesson counts the steps.
    pub fn stepping(&self) -> bool {
        self.step_mode.get_value()
    }

    /// Why the run refused the answer last given at the current pause.
    pub fn pause_refused(&self) -> ReadSignal<Option<String>> {
        self.pause_refused.read_only()
    }

    /// Resolves the first time a run is paused in step mode (at once if one
    /// is paused now), so what only a pause needs is fetched then.
    pub async fn first_pause(self) {
        let (tx, rx) = oneshot::channel::<()>();
        let mut tx = Some(tx);
        let paused = self.paused;
        Effect::new(move |_| {
            if paused.with(Option::is_some) {
                if let Some(tx) = tx.take() {
                    let _ = tx.send(());
                }
            }
        });
        // A dropped sender (the page going away) ends the wait too.
        let _ = rx.await;
    }

    /// Turns true, and stays so, once the page may fetch what a run does not
    /// show (the inspector): when
    /// the engine (the run's own module) has arrived and no run is going, or
    /// a run waits for the person (paused in step mode, or for an approval),
    /// or `opened` is true (the person opened what needs it). So a first run,
    /// clicked as soon as Run is enabled, has the network to itself, and a
    /// person who reads first gets those panels while reading.
    pub fn quiet(self, opened: Signal<bool>) -> Signal<bool> {
        let engine_here = self.engine_here();
        let due = RwSignal::new(false);
        let (running, paused, pending) = (self.running, self.paused, self.pending);
        Effect::new(move |_| {
            if opened.get()
                || engine_here.get()
                    && (!running.get()
                        || paused.with(Option::is_some)
                        || pending.with(Option::is_some))
            {
                due.set(true);
            }
        });
        due.into()
    }

    /// Turns true once the engine's module has arrived. Every caller shares
    /// one wait for it.
    fn engine_here(self) -> RwSignal<bool> {
        let here = self.engine_here;
        if !self.engine_awaited.get_value() {
            self.engine_awaited.set_value(true);
            spawn_local(async move {
                lazy::engine().await;
                here.set(true);
            });
        }
        here
    }

    /// The scenario of the run in the log; `None` before a run or after Reset.
    pub fn ran_scenario(&self) -> ReadSignal<Option<Scenario>> {
        self.ran.read_only()
    }

    pub fn wire_setup(&self) -> ReadSignal<RequestShape> {
        self.wire_setup.read_only()
    }

    /// Chooses the model the next run starts with (see the `model` field).
    /// The trace event last picked, if any (see `pick_event`).
    pub fn picked_event(&self) -> ReadSignal<Option<u64>> {
        self.picked_event.read_only()
    }

    /// A trace event was picked: the loop diagram shows where it happened.
    pub fn pick_event(self, seq: u64) {
        self.picked_event.set(Some(seq));
    }

    /// The event the trace was last asked to show (see `show_event`).
    pub fn shown_event(&self) -> ReadSignal<Option<u64>> {
        self.shown_event.read_only()
    }

    /// Asks the timeline to show the event with `seq`: it draws the event's
    /// card if it was far off screen, scrolls to it and moves focus to it.
    /// Asking again for the same event shows it again.
    pub fn show_event(self, seq: u64) {
        self.shown_event.set(Some(seq));
    }

    pub fn set_model(self, model: Option<ProviderRun>) {
        self.model.set_value(model);
    }

    /// Run: starts a run, or lets a paused one continue without pausing again.
    pub fn run(self, scenario_text: &str) {
        self.step_mode.set_value(false);
        if self.running.get_untracked() {
            self.release_step();
        } else {
            self.start(scenario_text);
        }
    }

    /// Step: starts a run paused before its first model call; releases a
    /// paused run for one model or tool call; or asks a running one to pause
    /// before its next call.
    pub fn step(self, scenario_text: &str) {
        self.step_mode.set_value(true);
        if self.running.get_untracked() {
            self.release_step();
        } else {
            self.start(scenario_text);
        }
    }

    /// Loads `scenario_text` and runs it. A scenario that does not load lists
    /// its problems and runs nothing. A run already in flight is cancelled first.
    /// The run engine is a split module (see `lazy`): the run shows as
    /// running at once, and loads when the engine has arrived.
    fn start(self, scenario_text: &str) {
        self.stop();
        self.clear_waits();
        let run = self.run_id.get_untracked() + 1;
        self.run_id.set(run);
        self.arrived.set_value(Vec::new());
        self.events.set(Vec::new());
        self.cards.set(Vec::new());
        self.run_state.set(RunStateBook::default());
        self.counters.set(Counters::default());
        self.elapsed_ms.set(0);
        self.held.set_value(Held::default());
        self.picked_event.set(None);
        self.shown_event.set(None);
        self.problems.set(Vec::new());
        self.running.set(true);
        let token = CancelToken::new();
        self.cancel.set_value(Some(token.clone()));
        let provider = self.model.get_value();
        let text = scenario_text.to_string();
        let current = move || self.run_id.get_untracked() == run;
        spawn_local(async move {
            let engine = lazy::engine().await;
            let loaded = engine.load(&text).await;
            if !current() {
                return;
            }
            let scenario = match loaded {
                Ok(scenario) => scenario,
                Err(problems) => {
                    self.problems.set(view_model::problem_lines(&problems));
                    self.ran.set(None);
                    self.end_run();
                    return;
                }
            };
            // Tools from MCP servers: the loaded ones, or loaded now.
            let ready = self.mcp.ready(&text, scenario).await;
            if !current() {
                return;
            }
            let scenario = match ready {
                Ok(scenario) => scenario,
                Err(lines) => {
                    self.problems.set(lines);
                    self.ran.set(None);
                    self.end_run();
                    return;
                }
            };
            // A provider run sends the settings' output cap and is costed at
            // their price (counters, cost budget, banner), not the scenario's;
            // the kept scenario says so too, so a replay of it ends the same way.
            let scenario = match &provider {
                Some(provider) => provider.apply(scenario),
                None => scenario,
            };
            self.ran.set(Some(scenario.clone()));
            let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
            // A loaded scenario names only tools the harness has, so this is
            // the building problem the run would report, shown before it starts.
            let setup = match engine.wire_setup(&scenario) {
                Ok(setup) => setup,
                Err(problems) => {
                    self.problems.set(view_model::problem_lines(&problems));
                    self.end_run();
                    return;
                }
            };
            self.schemas.set_value(
                setup
                    .tools
                    .iter()
                    .map(|spec| (spec.name.clone(), spec.input_schema.clone()))
                    .collect(),
            );
            self.wire_setup.set(setup);
            self.tick_clock(run, runtime.clone());

            let model = match provider {
                Some(provider) => Some(lazy::provider_model(provider).await),
                None => None,
            };
            let play = Play {
                scenario,
                runtime: runtime.clone(),
                model,
                approver: Box::new(BrowserApprover {
                    controller: self,
                    run,
                }),
                stepper: Box::new(BrowserStepper {
                    controller: self,
                    run,
                    clock: runtime.clone(),
                    host: HostYield::new(runtime),
                }),
                cancel: token,
                on_event: Box::new(move |event: &RunEvent| {
                    if current() {
                        self.append(event);
                    }
                }),
            };
            let result = engine.play(play).await;
            if !current() {
                return;
            }
            match result {
                Ok(outcome) => self.elapsed_ms.set(outcome.elapsed_ms),
                // Loading passed but building the run failed: same alert, same words.
                Err(problems) => self.problems.set(view_model::problem_lines(&problems)),
            }
            self.end_run();
        });
    }

    /// The elapsed counter of run `run`: a timer task, not an effect, that
    /// stops with its run. It stands still while step mode holds the run,
    /// as the run's own clock does (`harness::driver`).
    fn tick_clock(self, run: u64, clock: Rc<dyn Runtime>) {
        let started = clock.now_ms();
        spawn_local(async move {
            while self.run_id.get_untracked() == run && self.running.get_untracked() {
                let now = clock.now_ms();
                let held = self.held.with_value(|held| held.total_at(now));
                self.elapsed_ms.set((now - started - held).max(0.0) as u64);
                TimeoutFuture::new(CLOCK_TICK_MS).await;
            }
        });
    }

    /// The newest run has ended: its last events shown, no wait, no token,
    /// not running.
    fn end_run(self) {
        self.flush();
        self.clear_waits();
        self.running.set(false);
        self.cancel.set_value(None);
    }

    /// Takes in an event of the newest run: it reaches the page with the
    /// others of its frame (see `flush`).
    fn append(self, event: &RunEvent) {
        self.arrived
            .update_value(|arrived| arrived.push(event.clone()));
        if !self.flush_queued.get_value() {
            self.flush_queued.set_value(true);
            request_animation_frame(move || {
                if self.flush_queued.try_set_value(false).is_none() {
                    self.flush();
                }
            });
        }
    }

    /// Puts the events that arrived since the last frame on the page: the
    /// log, the counters, the Run state and the cards each change once, so
    /// what the page redraws per frame does not grow with the events in it.
    fn flush(self) {
        let arrived = self
            .arrived
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        if arrived.is_empty() {
            return;
        }
        self.counters
            .update(|counters| arrived.iter().for_each(|e| counters.apply(e)));
        self.run_state.maybe_update(|book| {
            arrived
                .iter()
                .fold(false, |changed, e| book.observe(e) | changed)
        });
        self.add_to_cards(&arrived);
        self.events.update(|events| events.extend(arrived));
    }

    /// Adds events to the newest card and opens the cards they start
    /// (`turn_view::placement`): one update of the newest card's events and
    /// one of the card list, whatever the number of events.
    fn add_to_cards(self, arrived: &[RunEvent]) {
        let last = self
            .cards
            .with_untracked(|cards| cards.last().map(|c| (c.turn, c.events.clone())));
        let mut current = last.as_ref().and_then(|(turn, _)| *turn);
        let mut to_last = Vec::new();
        // The cards these events open: (turn, first event's seq, events).
        let mut opened: Vec<(Option<u32>, u64, Vec<RunEvent>)> = Vec::new();
        for event in arrived {
            match turn_view::placement(current, event) {
                Placement::Append => match opened.last_mut() {
                    Some((_, _, events)) => events.push(event.clone()),
                    None if last.is_some() => to_last.push(event.clone()),
                    // An event before any card (none is expected) opens a run-level one.
                    None => opened.push((None, event.seq, vec![event.clone()])),
                },
                Placement::NewCard(turn) => {
                    current = turn;
                    opened.push((turn, event.seq, vec![event.clone()]));
                }
            }
        }
        if let (Some((_, events)), false) = (last, to_last.is_empty()) {
            events.update(|events| events.extend(to_last));
        }
        if !opened.is_empty() {
            self.cards.update(|cards| {
                for (turn, first_seq, events) in opened {
                    cards.push(Card {
                        key: cards.len(),
                        turn,
                        first_seq,
                        events: ArcRwSignal::new(events),
                    });
                }
            });
        }
    }

    /// Cancels the run in flight, if any; it ends `cancelled` at its next
    /// await, including a pending approval, a pause or a delayed call.
    pub fn stop(self) {
        if let Some(token) = self.cancel.get_value() {
            token.cancel();
        }
    }

    /// Stops any run and empties the trace.
    pub fn reset(self) {
        self.stop();
        self.clear_waits();
        // A new id: the cancelled run's last event is dropped, not shown.
        self.run_id.update(|id| *id += 1);
        self.arrived.set_value(Vec::new());
        self.events.set(Vec::new());
        self.cards.set(Vec::new());
        self.run_state.set(RunStateBook::default());
        self.counters.set(Counters::default());
        self.problems.set(Vec::new());
        self.ran.set(None);
        self.elapsed_ms.set(0);
        self.picked_event.set(None);
        self.shown_event.set(None);
        self.running.set(false);
        self.cancel.set_value(None);
    }

    /// The answer to the pending call (from the approval bar, see
    /// `ui::approval_bar::Approvals`).
    pub fn decide(self, decision: Decision) {
        let sender = self.decision_tx.try_update_value(Option::take).flatten();
        if let Some(sender) = sender {
            self.pending.set(None);
            // A dropped receiver means the run already ended; nothing to tell it.
            let _ = sender.send(decision);
        }
    }

    /// Another scenario is coming into the editor (picked, imported, opened
    /// from a link): the trace, counters and exports belong to the run that
    /// made them, so they go (the run stays in the history). A run still
    /// going is left alone, and the trace's heading names its scenario.
    pub fn clear_for_another_scenario(self) {
        if !self.running.get_untracked() {
            self.reset();
        }
    }

    fn release_step(self) {
        self.resume(Resume::Go);
    }

    /// A person takes the paused step's part (see `ui::answer_panel`): a
    /// turn written as the model, or a result typed as the tool. The run
    /// stays in step mode and pauses again before its next call.
    pub fn answer(self, resume: Resume) {
        self.step_mode.set_value(true);
        self.resume(resume);
    }

    fn resume(self, resume: Resume) {
        let sender = self.step_tx.try_update_value(Option::take).flatten();
        if let Some(sender) = sender {
            self.paused.set(None);
            // A dropped receiver means the run already ended; nothing to tell it.
            let _ = sender.send(resume);
        }
    }

    /// Drops the senders (their receivers then wait forever, and the run's
    /// race against cancel ends them) and hides the bar and the pause.
    fn clear_waits(self) {
        self.decision_tx.set_value(None);
        self.step_tx.set_value(None);
        if self.pending.get_untracked().is_some() {
            self.pending.set(None);
        }
        if self.paused.get_untracked().is_some() {
            self.paused.set(None);
        }
        if self.pause_refused.get_untracked().is_some() {
            self.pause_refused.set(None);
        }
    }

    fn schema_of(self, tool: &str) -> Option<Value> {
        self.schemas.with_value(|schemas| {
            schemas
                .iter()
                .find(|(name, _)| name == tool)
                .map(|(_, schema)| schema.clone())
        })
    }

    /// Shows a recorded run (opened from the history or imported) as if it
    /// had just finished: cards, counters, banner and inspector, read-only.
    /// Any run in flight is stopped and the log replaced; nothing is started,
    /// and Run starts a fresh run as usual.
    pub fn show_record(self, record: &harness::replay::Record) {
        // A new id (in reset): the stopped run's last event is dropped, and
        // the keyed rows remount (the record's `seq` starts at 0 again).
        self.reset();
        self.arrived.set_value(record.events.clone());
        self.flush();
        self.elapsed_ms
            .set(record.outcome().map_or(0, |outcome| outcome.elapsed_ms));
        self.wire_setup.set(RequestShape::default());
        self.ran.set(record.scenario.clone());
        // The inspector's setup comes from the engine (a split module).
        if let Some(scenario) = record.scenario.clone() {
            let run = self.run_id.get_untracked();
            spawn_local(async move {
                let setup = lazy::engine().await.wire_setup(&scenario);
                if self.run_id.get_untracked() != run {
                    return;
                }
                // A record from elsewhere may name a tool this harness lacks:
                // its requests cannot be rebuilt, and the alert says why.
                match setup {
                    Ok(setup) => self.wire_setup.set(setup),
                    Err(problems) => self.problems.set(view_model::problem_lines(&problems)),
                }
            });
        }
    }
}

/// The time step mode held a run for a person, on its runtime's clock.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    total_ms: f64,
    since: Option<f64>,
}

impl Held {
    fn total_at(self, now: f64) -> f64 {
        self.total_ms + self.since.map_or(0.0, |since| (now - since).max(0.0))
    }
}

/// Waits for the approval bar: each request shows the bar and parks a sender
/// that `Controller::decide` resolves.
struct BrowserApprover {
    controller: Controller,
    run: u64,
}

impl Approver for BrowserApprover {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let c = self.controller;
        let (tx, rx) = oneshot::channel();
        if c.run_id.get_untracked() == self.run {
            c.decision_tx.set_value(Some(tx));
            c.pending.set(Some(PendingApproval {
                call_id: request.call_id.clone(),
                tool: request.tool.clone(),
                args: request.args.clone(),
                edit_error: request.edit_error.clone(),
                schema: c.schema_of(&request.tool),
            }));
        }
        Box::pin(async move {
            match rx.await {
                Ok(decision) => decision,
                // The sender was dropped (reset or a new run): only cancel ends this wait.
                Err(_) => future::pending().await,
            }
        })
    }
}

/// Step mode: reads the controller's flag before every step, and parks a
/// sender that the Step or Run button resolves. Between steps it hands the
/// page back (`HostYield`), so a long run renders as it goes and Stop works.
struct BrowserStepper {
    controller: Controller,
    run: u64,
    /// The run's runtime, whose clock the driver stops at each pause.
    clock: Rc<dyn Runtime>,
    host: HostYield,
}

impl Stepper for BrowserStepper {
    fn step_mode(&self) -> bool {
        self.controller.step_mode.get_value()
    }

    fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
        Some(self.host.next())
    }

    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        let c = self.controller;
        let (tx, rx) = oneshot::channel();
        let current = c.run_id.get_untracked() == self.run;
        if current {
            c.step_tx.set_value(Some(tx));
            c.pause_refused.set(pause.refused.clone());
            c.paused.set(Some(pause.before.clone()));
            let now = self.clock.now_ms();
            c.held.update_value(|held| held.since = Some(now));
        }
        let clock = self.clock.clone();
        let run = self.run;
        Box::pin(async move {
            let resume = rx.await;
            // The driver's clock goes on from here, and the header's with it.
            if c.run_id.get_untracked() == run {
                let now = clock.now_ms();
                c.held.update_value(|held| {
                    *held = Held {
                        total_ms: held.total_at(now),
                        since: None,
                    }
                });
            }
            match resume {
                Ok(resume) => resume,
                // The sender was dropped (reset or a new run): only cancel ends this wait.
                Err(_) => future::pending().await,
            }
        })
    }
}
