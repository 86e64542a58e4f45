//! The run controller's state as a plain model: the newest run's id, its
//! log and what is derived from it, the clock, and the two places a run
//! waits for a person (the pending approval, the step-mode pause). It
//! changes only by `RunModel::update`, and says what the world must do
//! (start a run, cancel it, answer its approval or pause, take the events
//! in at the next frame, tick the clock) as `RunCmd`s.
//!
//! What cannot be data stays with the controller: the cancel token, and the
//! senders a waiting run listens on. A command names the run it is for, and
//! the controller keeps them for the newest run only.
//!
//! Invariants:
//! - Only the newest run writes. Every message from a run carries its id;
//!   one from a run that a newer start (or Reset, or a recorded run shown)
//!   has superseded is dropped, so a cancelled run's last event never lands
//!   in the next run's log.
//! - The log is append-only between starts: events are added, never edited.
//! - A pending approval or pause belongs to the newest run and goes when
//!   that run ends, so the bar never outlives the call it is about.
//! - Events reach the log once a frame (`Frame`), and at once when the run
//!   ends or a recorded run is shown.

use std::sync::Arc;

use harness::approval::{ApprovalRequest, Decision};
use harness::driver::{Pause, Resume};
use harness::event::RunEvent;
use harness::replay::Record;
use harness::run::PauseBefore;
use harness::scenario::Scenario;
use harness::wire::RequestShape;
use serde_json::Value;

use crate::run::run_state::RunStateBook;
use crate::run::turn_view::{self, Placement};
use crate::run::view_model::Counters;
use crate::update::Update;

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

/// One card of the timeline, as a span of the log: a model turn, or the
/// run's start or end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardSpan {
    /// `None` for the run's start or end.
    pub turn: Option<u32>,
    /// The `seq` of its first event.
    pub first_seq: u64,
    /// Where its events start in the log, and how many there are.
    pub start: usize,
    pub len: usize,
}

/// What happens to the runs: a person's action, or news from a run.
#[derive(Clone, Debug)]
pub enum RunMsg {
    /// Run pressed with the editor's text: starts a run, or lets a paused
    /// one go on without pausing again.
    RunPressed(String),
    /// Step pressed: starts a run paused before its first call, lets a
    /// paused one take one step, or asks a running one to pause.
    StepPressed(String),
    /// Stop pressed: the run in flight is cancelled.
    StopPressed,
    /// Reset pressed: any run stops and the trace empties.
    ResetPressed,
    /// Another scenario comes into the editor: a finished run's trace goes,
    /// a running one stays.
    AnotherScenario,
    /// A recorded run is shown as if it had just finished.
    RecordShown(Record),
    /// The scenario of `run` did not load (or its MCP tools did not), for
    /// these reasons.
    Refused { run: u64, problems: Vec<String> },
    /// The scenario of `run` loaded, and its requests' shape was built (or
    /// why not); `now` is on the run's clock.
    SetUp {
        run: u64,
        scenario: Scenario,
        setup: Result<RequestShape, Vec<String>>,
        now: f64,
    },
    /// An event of `run` happened.
    Event { run: u64, event: RunEvent },
    /// A frame is about to be drawn: the events that arrived go on the page.
    Frame,
    /// The clock's timer fired for `run`, at `now` on the run's clock.
    Tick { run: u64, now: f64 },
    /// `run` ended: its own time, or why it could not be built.
    Ended {
        run: u64,
        result: Result<u64, Vec<String>>,
    },
    /// `run` asks the person about a call.
    ApprovalAsked { run: u64, request: ApprovalRequest },
    /// The person answered the approval bar.
    Decided(Decision),
    /// `run` paused in step mode, at `now` on its clock.
    Paused { run: u64, pause: Pause, now: f64 },
    /// `run` went on from its pause, at `now` on its clock.
    Continued { run: u64, now: f64 },
    /// The person took the paused step's part (a turn or a tool's result).
    Answered(Resume),
    /// The request shape of a shown record was rebuilt (or why not).
    SetupRebuilt {
        run: u64,
        setup: Result<RequestShape, Vec<String>>,
    },
}

/// What the world must do for the runs.
#[derive(Clone, Debug, PartialEq)]
pub enum RunCmd {
    /// Load `text` and play it as run `run` (with a fresh cancel token).
    Start { run: u64, text: String },
    /// Fire the cancel token of the run in flight.
    Cancel { run: u64 },
    /// Drop the cancel token and the senders kept for waiting runs: the
    /// run they were for has ended or been superseded.
    LetGo,
    /// Answer the approval `run` waits on.
    Decide { run: u64, decision: Decision },
    /// Let the paused `run` go on.
    Resume { run: u64, resume: Resume },
    /// Send `Frame` before the next frame is drawn.
    FlushAtNextFrame,
    /// Send `Tick` for `run` after a clock interval.
    ScheduleTick { run: u64 },
    /// Rebuild a shown record's request shape (with the engine) for `run`.
    BuildSetup { run: u64, scenario: Box<Scenario> },
}

/// The time step mode held a run for a person, on its runtime's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Held {
    total_ms: f64,
    since: Option<f64>,
}

impl Held {
    fn total_at(self, now: f64) -> f64 {
        self.total_ms + self.since.map_or(0.0, |since| (now - since).max(0.0))
    }
}

/// The runs as the page shows them (see the module's invariants).
#[derive(Clone, Debug, Default)]
pub struct RunModel {
    /// The newest run's id; 0 before any. Reset and a shown record take a
    /// new one too, so what a superseded run still sends is dropped.
    run: u64,
    events: Vec<RunEvent>,
    /// Events of the newest run not in the log yet (see `Frame`).
    arrived: Vec<RunEvent>,
    flush_queued: bool,
    counters: Counters,
    cards: Vec<CardSpan>,
    run_state: RunStateBook,
    problems: Vec<String>,
    running: bool,
    /// Where the run's own time started, on its clock.
    started_at: Option<f64>,
    held: Held,
    elapsed_ms: u64,
    pending: Option<PendingApproval>,
    paused: Option<PauseBefore>,
    pause_refused: Option<String>,
    step_mode: bool,
    /// Tool name → input schema of the run in flight.
    schemas: Vec<(String, Value)>,
    wire_setup: Arc<RequestShape>,
    ran: Option<Arc<Scenario>>,
}

impl RunModel {
    /// The newest run's id (see the field).
    pub fn run(&self) -> u64 {
        self.run
    }

    /// The newest run's log, as far as it is on the page.
    pub fn events(&self) -> &[RunEvent] {
        &self.events
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The log grouped into cards (`turn_view::placement`), in log order.
    pub fn cards(&self) -> &[CardSpan] {
        &self.cards
    }

    pub fn run_state(&self) -> &RunStateBook {
        &self.run_state
    }

    /// Why the last scenario could not run, as `path: message` lines.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    pub fn running(&self) -> bool {
        self.running
    }

    /// The run's own time: since it started, less the time it was held.
    pub fn elapsed_ms(&self) -> u64 {
        self.elapsed_ms
    }

    pub fn pending(&self) -> Option<&PendingApproval> {
        self.pending.as_ref()
    }

    /// What the paused run does next, while it is paused.
    pub fn paused(&self) -> Option<&PauseBefore> {
        self.paused.as_ref()
    }

    /// Why the run refused the last answer given at this pause.
    pub fn pause_refused(&self) -> Option<&String> {
        self.pause_refused.as_ref()
    }

    /// The run goes a step at a time rather than on to its end.
    pub fn step_mode(&self) -> bool {
        self.step_mode
    }

    /// The system prompt and tool specs of the run in the log.
    pub fn wire_setup(&self) -> &Arc<RequestShape> {
        &self.wire_setup
    }

    /// The scenario the run in the log ran; `None` before a run or after Reset.
    pub fn ran(&self) -> Option<&Arc<Scenario>> {
        self.ran.as_ref()
    }

    fn is_current(&self, run: u64) -> bool {
        run == self.run
    }

    /// Run or Step: goes on from a pause if a run is in flight, else starts one.
    fn press(&mut self, step_mode: bool, text: String) -> Vec<RunCmd> {
        self.step_mode = step_mode;
        if self.running {
            self.resume(Resume::Go)
        } else {
            self.start(text)
        }
    }

    fn start(&mut self, text: String) -> Vec<RunCmd> {
        let mut cmds = self.stop();
        self.clear_waits();
        self.clear_log();
        self.run += 1;
        self.running = true;
        cmds.push(RunCmd::Start {
            run: self.run,
            text,
        });
        cmds
    }

    fn stop(&self) -> Vec<RunCmd> {
        if self.running {
            vec![RunCmd::Cancel { run: self.run }]
        } else {
            Vec::new()
        }
    }

    fn reset(&mut self) -> Vec<RunCmd> {
        let mut cmds = self.stop();
        self.clear_waits();
        self.clear_log();
        self.run += 1;
        self.ran = None;
        self.running = false;
        cmds.push(RunCmd::LetGo);
        cmds
    }

    /// Empties the log and what is derived from it, for a new run.
    fn clear_log(&mut self) {
        self.arrived.clear();
        self.events.clear();
        self.cards.clear();
        self.run_state = RunStateBook::default();
        self.counters = Counters::default();
        self.problems.clear();
        self.elapsed_ms = 0;
        self.started_at = None;
        self.held = Held::default();
    }

    /// The bar and the pause go; the run's senders are let go with them.
    fn clear_waits(&mut self) {
        self.pending = None;
        self.paused = None;
        self.pause_refused = None;
    }

    /// The newest run has ended: its last events shown, no wait, not running.
    fn end_run(&mut self) -> Vec<RunCmd> {
        self.flush();
        self.clear_waits();
        self.running = false;
        vec![RunCmd::LetGo]
    }

    fn resume(&mut self, resume: Resume) -> Vec<RunCmd> {
        match self.paused.take() {
            Some(_) => vec![RunCmd::Resume {
                run: self.run,
                resume,
            }],
            None => Vec::new(),
        }
    }

    /// Puts the events that arrived since the last frame in the log, the
    /// counters, the Run state and the cards.
    fn flush(&mut self) {
        let arrived = std::mem::take(&mut self.arrived);
        for event in arrived {
            self.counters.apply(&event);
            self.run_state.observe(&event);
            self.place(&event);
            self.events.push(event);
        }
    }

    /// Adds `event` (about to be pushed to the log) to the newest card, or
    /// opens the card it starts.
    fn place(&mut self, event: &RunEvent) {
        let current = self.cards.last().and_then(|card| card.turn);
        match (turn_view::placement(current, event), self.cards.last_mut()) {
            (Placement::Append, Some(card)) => card.len += 1,
            // An event before any card (none is expected) opens a run-level one.
            (Placement::Append, None) => self.open_card(None, event),
            (Placement::NewCard(turn), _) => self.open_card(turn, event),
        }
    }

    fn open_card(&mut self, turn: Option<u32>, event: &RunEvent) {
        self.cards.push(CardSpan {
            turn,
            first_seq: event.seq,
            start: self.events.len(),
            len: 1,
        });
    }

    fn schema_of(&self, tool: &str) -> Option<Value> {
        self.schemas
            .iter()
            .find(|(name, _)| name == tool)
            .map(|(_, schema)| schema.clone())
    }

    fn show_record(&mut self, record: Record) -> Vec<RunCmd> {
        let mut cmds = self.reset();
        let elapsed_ms = record.outcome().map_or(0, |outcome| outcome.elapsed_ms);
        self.arrived = record.events;
        self.flush();
        self.elapsed_ms = elapsed_ms;
        self.wire_setup = Arc::default();
        self.ran = record.scenario.clone().map(Arc::new);
        if let Some(scenario) = record.scenario {
            cmds.push(RunCmd::BuildSetup {
                run: self.run,
                scenario: Box::new(scenario),
            });
        }
        cmds
    }

    fn set_up(
        &mut self,
        scenario: Scenario,
        setup: Result<RequestShape, Vec<String>>,
        now: f64,
    ) -> Vec<RunCmd> {
        self.ran = Some(Arc::new(scenario));
        match setup {
            Err(problems) => {
                self.problems = problems;
                self.end_run()
            }
            Ok(setup) => {
                self.schemas = setup
                    .tools
                    .iter()
                    .map(|spec| (spec.name.clone(), spec.input_schema.clone()))
                    .collect();
                self.wire_setup = Arc::new(setup);
                self.started_at = Some(now);
                self.tick(now)
            }
        }
    }

    /// The elapsed counter follows the run's clock, standing still while
    /// step mode holds the run, as the run's own clock does.
    fn tick(&mut self, now: f64) -> Vec<RunCmd> {
        let Some(started) = self.started_at.filter(|_| self.running) else {
            return Vec::new();
        };
        self.elapsed_ms = (now - started - self.held.total_at(now)).max(0.0) as u64;
        vec![RunCmd::ScheduleTick { run: self.run }]
    }
}

impl Update for RunModel {
    type Msg = RunMsg;
    type Cmd = RunCmd;

    fn update(&mut self, msg: RunMsg) -> Vec<RunCmd> {
        match msg {
            RunMsg::RunPressed(text) => self.press(false, text),
            RunMsg::StepPressed(text) => self.press(true, text),
            RunMsg::StopPressed => self.stop(),
            RunMsg::ResetPressed => self.reset(),
            RunMsg::AnotherScenario if self.running => Vec::new(),
            RunMsg::AnotherScenario => self.reset(),
            RunMsg::RecordShown(record) => self.show_record(record),
            RunMsg::Frame => {
                self.flush_queued = false;
                self.flush();
                Vec::new()
            }
            RunMsg::Decided(decision) => match self.pending.take() {
                Some(_) => vec![RunCmd::Decide {
                    run: self.run,
                    decision,
                }],
                None => Vec::new(),
            },
            RunMsg::Answered(resume) => {
                self.step_mode = true;
                self.resume(resume)
            }
            // Everything below is news from a run: only the newest one's counts.
            RunMsg::Refused { run, .. }
            | RunMsg::SetUp { run, .. }
            | RunMsg::Event { run, .. }
            | RunMsg::Tick { run, .. }
            | RunMsg::Ended { run, .. }
            | RunMsg::ApprovalAsked { run, .. }
            | RunMsg::Paused { run, .. }
            | RunMsg::Continued { run, .. }
            | RunMsg::SetupRebuilt { run, .. }
                if !self.is_current(run) =>
            {
                Vec::new()
            }
            RunMsg::Refused { problems, .. } => {
                self.problems = problems;
                self.ran = None;
                self.end_run()
            }
            RunMsg::SetUp {
                scenario,
                setup,
                now,
                ..
            } => self.set_up(scenario, setup, now),
            RunMsg::Event { event, .. } => {
                self.arrived.push(event);
                if self.flush_queued {
                    Vec::new()
                } else {
                    self.flush_queued = true;
                    vec![RunCmd::FlushAtNextFrame]
                }
            }
            RunMsg::Tick { now, .. } => self.tick(now),
            RunMsg::Ended { result, .. } => {
                match result {
                    Ok(elapsed_ms) => self.elapsed_ms = elapsed_ms,
                    // Loading passed but building the run failed: same alert, same words.
                    Err(problems) => self.problems = problems,
                }
                self.end_run()
            }
            RunMsg::ApprovalAsked { request, .. } => {
                self.pending = Some(PendingApproval {
                    schema: self.schema_of(&request.tool),
                    call_id: request.call_id,
                    tool: request.tool,
                    args: request.args,
                    edit_error: request.edit_error,
                });
                Vec::new()
            }
            RunMsg::Paused { pause, now, .. } => {
                self.pause_refused = pause.refused;
                self.paused = Some(pause.before);
                self.held.since = Some(now);
                Vec::new()
            }
            RunMsg::Continued { now, .. } => {
                self.held = Held {
                    total_ms: self.held.total_at(now),
                    since: None,
                };
                Vec::new()
            }
            RunMsg::SetupRebuilt { setup, .. } => {
                match setup {
                    Ok(setup) => self.wire_setup = Arc::new(setup),
                    // A record from elsewhere may name a tool this harness
                    // lacks: its requests cannot be rebuilt, and the alert says why.
                    Err(problems) => self.problems = problems,
                }
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests;
