//! The controller owns runs: it holds the runs' model (`run::model`: the
//! log, counters, cards, clock, approval and pause, as plain data changed by
//! messages) and is its adapter to the browser and to Leptos. It sends the
//! model what the person and the harness's driver do, performs the commands
//! the model answers with (start a run on the browser's event loop, cancel
//! it, answer its approval or pause, take events in at the next frame, tick
//! the clock), and shows the model in the signals the components read.
//!
//! What is not data stays here, kept for the newest run only: the cancel
//! token Stop fires, and the oneshot senders a waiting run listens on (the
//! approval bar's decision, step mode's "go on" or a person's answer).
//!
//! Invariants:
//! - The model changes only in `send`, which then shows it (`show`): each
//!   signal is set only when what it shows changed, and the log and the
//!   cards are appended to, so a frame's events redraw the newest card only.
//! - The signals live in the root owner, which lives as long as the page, so
//!   the spawned task never touches a disposed signal.
//! - A run hands the main thread back to the browser every few milliseconds
//!   (see `BrowserStepper`), so a long scripted run streams and Stop works.

use std::rc::Rc;
use std::sync::Arc;

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

use crate::browser::runtime::{BrowserRuntime, HostYield};
use crate::lazy::{self, Play};
use crate::mcp::state::Mcp;
use crate::run::model::{CardSpan, RunCmd, RunModel, RunMsg};
use crate::run::run_state::RunStateBook;
use crate::run::view_model::{self, Counters};
use crate::state::mirror::{set_if_changed, set_option_if_changed};
use crate::update::Update as _;

pub use crate::run::model::PendingApproval;

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

/// What the newest run needs that is not data: Stop's token, the senders
/// its waits listen on, and its clock.
#[derive(Default)]
struct Handles {
    cancel: Option<CancelToken>,
    decision_tx: Option<oneshot::Sender<Decision>>,
    step_tx: Option<oneshot::Sender<Resume>>,
    /// The run's runtime, whose clock the elapsed counter reads.
    clock: Option<Rc<dyn Runtime>>,
}

#[derive(Clone, Copy)]
pub struct Controller {
    /// The runs as plain data (see `run::model`); changed only by `send`.
    model: StoredValue<RunModel, LocalStorage>,
    /// The newest run's token, waits and clock (see `Handles`).
    handles: StoredValue<Handles, LocalStorage>,
    // What the model holds, as the components read it (kept by `show`).
    events: RwSignal<Vec<RunEvent>>,
    counters: RwSignal<Counters>,
    /// The log's cards, each with its own events' signal (see `Card`).
    cards: RwSignal<Vec<Card>>,
    run_state: RwSignal<RunStateBook>,
    /// The event list remounts on it, because a new run's `seq` starts again
    /// at 0 and keyed rows must not be reused.
    run_id: RwSignal<u64>,
    problems: RwSignal<Vec<String>>,
    running: RwSignal<bool>,
    elapsed_ms: RwSignal<u64>,
    pending: RwSignal<Option<PendingApproval>>,
    paused: RwSignal<Option<PauseBefore>>,
    pause_refused: RwSignal<Option<String>>,
    wire_setup: RwSignal<RequestShape>,
    ran: RwSignal<Option<Scenario>>,
    /// The provider the next run talks to, with its key; `None` plays the
    /// scenario's scripted model. Read when a run starts, never logged.
    model_choice: StoredValue<Option<ProviderRun>>,
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
    /// The model's scenario and request shape as last shown (see `show`).
    shown_parts: StoredValue<ShownParts, LocalStorage>,
}

type ShownParts = (Option<Arc<Scenario>>, Arc<RequestShape>);

impl Controller {
    /// Call once, in the root component, so the signals live as long as the
    /// page. It is also provided as context, for the components that show
    /// what it holds without being handed it (the stop banner).
    pub fn new(mcp: Mcp) -> Self {
        let model = RunModel::default();
        let shown_parts = (None, model.wire_setup().clone());
        let controller = Controller {
            model: StoredValue::new_local(model),
            shown_parts: StoredValue::new_local(shown_parts),
            handles: StoredValue::new_local(Handles::default()),
            events: RwSignal::new(Vec::new()),
            cards: RwSignal::new(Vec::new()),
            run_state: RwSignal::new(RunStateBook::default()),
            counters: RwSignal::new(Counters::default()),
            run_id: RwSignal::new(0),
            problems: RwSignal::new(Vec::new()),
            running: RwSignal::new(false),
            elapsed_ms: RwSignal::new(0),
            pending: RwSignal::new(None),
            paused: RwSignal::new(None),
            pause_refused: RwSignal::new(None),
            wire_setup: RwSignal::new(RequestShape::default()),
            model_choice: StoredValue::new(None),
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
        self.model.with_value(RunModel::step_mode)
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
            spawn(Box::pin(async move {
                lazy::engine().await;
                here.set(true);
            }));
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
        self.model_choice.set_value(model);
    }

    /// Run: starts a run, or lets a paused one continue without pausing again.
    pub fn run(self, scenario_text: &str) {
        self.send(RunMsg::RunPressed(scenario_text.to_string()));
    }

    /// Step: starts a run paused before its first model call; releases a
    /// paused run for one model or tool call; or asks a running one to pause
    /// before its next call.
    pub fn step(self, scenario_text: &str) {
        self.send(RunMsg::StepPressed(scenario_text.to_string()));
    }

    /// Cancels the run in flight, if any; it ends `cancelled` at its next
    /// await, including a pending approval, a pause or a delayed call.
    pub fn stop(self) {
        self.send(RunMsg::StopPressed);
    }

    /// Stops any run and empties the trace.
    pub fn reset(self) {
        self.send(RunMsg::ResetPressed);
    }

    /// The answer to the pending call (from the approval bar, see
    /// `run::view::approval_bar::Approvals`).
    pub fn decide(self, decision: Decision) {
        self.send(RunMsg::Decided(decision));
    }

    /// Another scenario is coming into the editor (picked, imported, opened
    /// from a link): the trace, counters and exports belong to the run that
    /// made them, so they go (the run stays in the history). A run still
    /// going is left alone, and the trace's heading names its scenario.
    pub fn clear_for_another_scenario(self) {
        self.send(RunMsg::AnotherScenario);
    }

    /// A person takes the paused step's part (see `run::view::answer_panel`): a
    /// turn written as the model, or a result typed as the tool. The run
    /// stays in step mode and pauses again before its next call.
    pub fn answer(self, resume: Resume) {
        self.send(RunMsg::Answered(resume));
    }

    /// Shows a recorded run (opened from the history or imported) as if it
    /// had just finished: cards, counters, banner and inspector, read-only.
    /// Any run in flight is stopped and the log replaced; nothing is started,
    /// and Run starts a fresh run as usual.
    pub fn show_record(self, record: &harness::replay::Record) {
        self.send(RunMsg::RecordShown(record.clone()));
    }

    /// The one way the runs change: the model takes `msg`, the page shows
    /// the model, and the commands it answered with are performed.
    fn send(self, msg: RunMsg) {
        // An event waits in the model for the next frame: nothing shown
        // changes until then, so there is nothing to show yet.
        let shows = !matches!(msg, RunMsg::Event { .. });
        let Some(commands) = self.model.try_update_value(|model| model.update(msg)) else {
            return; // The page is gone.
        };
        if shows {
            self.show();
        }
        for command in commands {
            self.perform(command);
        }
    }

    /// Whether `run` is still the newest run (work for an older one stops).
    fn is_current(self, run: u64) -> bool {
        self.model
            .try_with_value(|model| model.run() == run)
            .unwrap_or(false)
    }

    /// Does what the model asked. Everything asynchronous the runs need is
    /// spawned here, and reports back through `send`.
    fn perform(self, command: RunCmd) {
        if let Some(work) = self.work_for(command) {
            spawn(work);
        }
    }

    /// Does at once what `command` needs now, and returns what it awaits.
    fn work_for(self, command: RunCmd) -> Option<LocalBoxFuture<'static, ()>> {
        match command {
            RunCmd::Start { run, text } => {
                let token = CancelToken::new();
                self.handles.set_value(Handles {
                    cancel: Some(token.clone()),
                    ..Handles::default()
                });
                return Some(Box::pin(self.play(run, text, token)));
            }
            RunCmd::Cancel { .. } => {
                let token = self.handles.with_value(|h| h.cancel.clone());
                if let Some(token) = token {
                    token.cancel();
                }
            }
            // Dropped senders leave their receivers waiting forever, and the
            // run's race against cancel ends them.
            RunCmd::LetGo => self.handles.set_value(Handles::default()),
            RunCmd::Decide { decision, .. } => {
                let sender = self.handles.try_update_value(|h| h.decision_tx.take());
                if let Some(sender) = sender.flatten() {
                    // A dropped receiver means the run already ended; nothing to tell it.
                    let _ = sender.send(decision);
                }
            }
            RunCmd::Resume { resume, .. } => {
                let sender = self.handles.try_update_value(|h| h.step_tx.take());
                if let Some(sender) = sender.flatten() {
                    // A dropped receiver means the run already ended; nothing to tell it.
                    let _ = sender.send(resume);
                }
            }
            RunCmd::FlushAtNextFrame => request_animation_frame(move || self.send(RunMsg::Frame)),
            RunCmd::ScheduleTick { run } => {
                let clock = self.handles.with_value(|h| h.clock.clone())?;
                return Some(Box::pin(async move {
                    TimeoutFuture::new(CLOCK_TICK_MS).await;
                    let now = clock.now_ms();
                    self.send(RunMsg::Tick { run, now });
                }));
            }
            // The inspector's setup comes from the engine (a split module).
            RunCmd::BuildSetup { run, scenario } => {
                return Some(Box::pin(async move {
                    let setup = lazy::engine()
                        .await
                        .wire_setup(&scenario)
                        .map_err(|problems| view_model::problem_lines(&problems));
                    self.send(RunMsg::SetupRebuilt { run, setup });
                }));
            }
        }
        None
    }

    /// Run `run`: loads `text`, readies its MCP tools and plays it, telling
    /// the model as it goes. The run engine is a split module (see `lazy`):
    /// the run shows as running at once, and loads when the engine has arrived.
    async fn play(self, run: u64, text: String, token: CancelToken) {
        let engine = lazy::engine().await;
        let loaded = engine.load(&text).await;
        if !self.is_current(run) {
            return;
        }
        let scenario = match loaded {
            Ok(scenario) => scenario,
            Err(problems) => {
                let problems = view_model::problem_lines(&problems);
                return self.send(RunMsg::Refused { run, problems });
            }
        };
        // Tools from MCP servers: the loaded ones, or loaded now.
        let ready = self.mcp.ready(&text, scenario).await;
        if !self.is_current(run) {
            return;
        }
        let scenario = match ready {
            Ok(scenario) => scenario,
            Err(problems) => return self.send(RunMsg::Refused { run, problems }),
        };
        // A provider run sends the settings' output cap and is costed at
        // their price (counters, cost budget, banner), not the scenario's;
        // the kept scenario says so too, so a replay of it ends the same way.
        let provider = self.model_choice.get_value();
        let scenario = match &provider {
            Some(provider) => provider.apply(scenario),
            None => scenario,
        };
        let runtime: Rc<dyn Runtime> = Rc::new(BrowserRuntime::new());
        self.handles
            .update_value(|h| h.clock = Some(runtime.clone()));
        // A loaded scenario names only tools the harness has, so this is
        // the building problem the run would report, shown before it starts.
        let setup = engine
            .wire_setup(&scenario)
            .map_err(|problems| view_model::problem_lines(&problems));
        let built = setup.is_ok();
        self.send(RunMsg::SetUp {
            run,
            scenario: scenario.clone(),
            setup,
            now: runtime.now_ms(),
        });
        if !built {
            return;
        }
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
                self.send(RunMsg::Event {
                    run,
                    event: event.clone(),
                })
            }),
        };
        let result = engine
            .play(play)
            .await
            .map(|outcome| outcome.elapsed_ms)
            // Loading passed but building the run failed: same alert, same words.
            .map_err(|problems| view_model::problem_lines(&problems));
        self.send(RunMsg::Ended { run, result });
    }

    /// Shows the model in the signals the components read, each set only
    /// when what it shows changed.
    fn show(self) {
        self.model.with_value(|model| {
            let new_run = model.run() != self.run_id.get_untracked();
            if new_run {
                self.run_id.set(model.run());
                self.picked_event.set(None);
                self.shown_event.set(None);
            }
            self.show_log(model, new_run);
            set_if_changed(self.counters, model.counters());
            set_if_changed(self.run_state, model.run_state());
            set_if_changed(self.problems, model.problems());
            set_if_changed(self.running, &model.running());
            set_if_changed(self.elapsed_ms, &model.elapsed_ms());
            set_option_if_changed(self.pending, model.pending());
            set_option_if_changed(self.paused, model.paused());
            set_option_if_changed(self.pause_refused, model.pause_refused());
            // The scenario and the request shape are shared, not compared:
            // a new one is a new `Arc`.
            let (ran, setup) = (model.ran(), model.wire_setup());
            self.shown_parts.update_value(|(shown_ran, shown_setup)| {
                if !Arc::ptr_eq(shown_setup, setup) {
                    *shown_setup = setup.clone();
                    self.wire_setup.set((**setup).clone());
                }
                if shown_ran.as_ref().map(Arc::as_ptr) != ran.map(Arc::as_ptr) {
                    *shown_ran = ran.cloned();
                    self.ran.set(ran.map(|ran| (**ran).clone()));
                }
            });
        });
    }

    /// The log and the cards: appended to as the model's grow, built again
    /// when a new run (or a record) replaced them.
    fn show_log(self, model: &RunModel, new_run: bool) {
        let log = model.events();
        let shown = self.events.with_untracked(Vec::len);
        if new_run || log.len() < shown {
            self.events.set(log.to_vec());
            let cards = model.cards().iter().enumerate();
            self.cards
                .set(cards.map(|(key, span)| card(log, key, span)).collect());
            return;
        }
        if log.len() == shown {
            return;
        }
        self.events
            .update(|events| events.extend_from_slice(&log[shown..]));
        let spans = model.cards();
        let cards_shown = self.cards.with_untracked(Vec::len);
        // The newest card shown may have grown.
        if let Some(span) = cards_shown.checked_sub(1).and_then(|last| spans.get(last)) {
            let events = self
                .cards
                .with_untracked(|cards| cards[cards_shown - 1].events.clone());
            let had = events.with_untracked(Vec::len);
            if span.len > had {
                let grown = &log[span.start + had..span.start + span.len];
                events.update(|events| events.extend_from_slice(grown));
            }
        }
        if spans.len() > cards_shown {
            self.cards.update(|cards| {
                let opened = spans.iter().enumerate().skip(cards_shown);
                cards.extend(opened.map(|(key, span)| card(log, key, span)));
            });
        }
    }
}

/// Puts `work` on the browser's event loop: the controller's one way to
/// start something asynchronous.
fn spawn(work: LocalBoxFuture<'static, ()>) {
    crate::browser::runner::start(work);
}

/// A card of the timeline from its span of the log.
fn card(log: &[RunEvent], key: usize, span: &CardSpan) -> Card {
    Card {
        key,
        turn: span.turn,
        first_seq: span.first_seq,
        events: ArcRwSignal::new(log[span.start..span.start + span.len].to_vec()),
    }
}

/// Waits for the approval bar: each request parks a sender that the
/// person's decision resolves, and tells the model to show the bar.
struct BrowserApprover {
    controller: Controller,
    run: u64,
}

impl Approver for BrowserApprover {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let c = self.controller;
        let (tx, rx) = oneshot::channel();
        if c.is_current(self.run) {
            c.handles.update_value(|h| h.decision_tx = Some(tx));
            c.send(RunMsg::ApprovalAsked {
                run: self.run,
                request: request.clone(),
            });
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

/// Step mode: asks the model whether to pause before every step, and parks a
/// sender that the Step or Run button (or an answer) resolves. Between steps
/// it hands the page back (`HostYield`), so a long run renders as it goes
/// and Stop works.
struct BrowserStepper {
    controller: Controller,
    run: u64,
    /// The run's runtime, whose clock the driver stops at each pause.
    clock: Rc<dyn Runtime>,
    host: HostYield,
}

impl Stepper for BrowserStepper {
    fn step_mode(&self) -> bool {
        self.controller.stepping()
    }

    fn yield_to_host(&self) -> Option<LocalBoxFuture<'static, ()>> {
        Some(self.host.next())
    }

    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        let c = self.controller;
        let (tx, rx) = oneshot::channel();
        let run = self.run;
        if c.is_current(run) {
            c.handles.update_value(|h| h.step_tx = Some(tx));
            c.send(RunMsg::Paused {
                run,
                pause: pause.clone(),
                now: self.clock.now_ms(),
            });
        }
        let clock = self.clock.clone();
        Box::pin(async move {
            let resume = rx.await;
            // The driver's clock goes on from here, and the header's with it.
            let now = clock.now_ms();
            c.send(RunMsg::Continued { run, now });
            match resume {
                Ok(resume) => resume,
                // The sender was dropped (reset or a new run): only cancel ends this wait.
                Err(_) => future::pending().await,
            }
        })
    }
}
