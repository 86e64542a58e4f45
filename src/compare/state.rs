//! The Compare panel's adapter: it holds the panel's plain model
//! (`compare::model`), sends it what the person and the work it started
//! do, and performs its commands: a comparison's runs (through the runner,
//! with the cancel token Stop fires), the listing of the Trace's steps, the
//! fetch of a built-in for B or of the scenario that ran for a fork's
//! editor, and the texts put into B and into that editor. What the panel
//! reads of the model is memoized here, so a view redraws only when what
//! it shows changed.
//!
//! Beside it, the step a fork was asked from on a card or the drawn loop
//! (`want_fork`): the cards are in the first paint, the panel is not.

use futures::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use harness::cancel::CancelToken;
use harness::event::RunEvent;
use harness::fork::ForkPoint;
use harness::provider::ProviderRun;
use harness::scenario::Scenario;
use leptos::prelude::*;

use crate::browser::runner;
use crate::compare::model::{CompareCmd, CompareModel, CompareMsg};
use crate::compare::{self, Compared};
use crate::lazy::{AutoDecision, Rounds};
use crate::state::form_doc::{FormDoc, FormText, Variant};
use crate::update::Update as _;

pub use crate::compare::model::Shown;

/// A comparison's work: given its cancel token and rounds, the two
/// finished sides or why they could not run.
pub type Work =
    Box<dyn FnOnce(CancelToken, Rounds) -> LocalBoxFuture<'static, Result<Compared, Vec<String>>>>;

/// The Compare panel's state (see the module's doc).
#[derive(Clone, Copy)]
pub struct Comparison {
    /// The panel as plain data; changed only by `send`.
    model: RwSignal<CompareModel>,
    shown: Memo<Shown>,
    /// Bound to fields' values: set anew only when they change, so a
    /// count being typed is not overwritten by an unrelated message.
    times: Memo<u32>,
    chosen_turn: Memo<u32>,
    listed: Memo<Vec<ForkPoint>>,
    fork_here: Memo<Option<(u64, ForkPoint)>>,
    b_notice: Memo<Option<String>>,
    b_aside: Memo<usize>,
    /// The work pressed, till the model launches it, and the provider its
    /// runs go to (`None`: the scenarios' own models).
    pressed: StoredValue<Option<(Work, Option<ProviderRun>)>, LocalStorage>,
    /// The newest comparison's cancel token.
    token: StoredValue<Option<CancelToken>, LocalStorage>,
    /// The run in the Trace, and the scenario it ran: what a fork starts from.
    events: ReadSignal<Vec<RunEvent>>,
    ran: ReadSignal<Option<Scenario>>,
    /// Variant B's text, and the scenario a "go on from here" fork runs.
    variant: Variant,
    fork_draft: FormText,
}

impl Comparison {
    pub fn new(events: ReadSignal<Vec<RunEvent>>, ran: ReadSignal<Option<Scenario>>) -> Self {
        let model = RwSignal::new(CompareModel::default());
        Comparison {
            model,
            shown: Memo::new(move |_| model.with(|m| m.shown().clone())),
            times: Memo::new(move |_| model.with(CompareModel::times)),
            chosen_turn: Memo::new(move |_| model.with(CompareModel::chosen_turn)),
            listed: Memo::new(move |_| model.with(CompareModel::listed)),
            fork_here: Memo::new(move |_| model.with(CompareModel::fork_here_opened)),
            b_notice: Memo::new(move |_| model.with(|m| m.b_notice().map(str::to_string))),
            b_aside: Memo::new(move |_| model.with(CompareModel::b_aside)),
            pressed: StoredValue::new_local(None),
            token: StoredValue::new_local(None),
            events,
            ran,
            variant: Variant::new(),
            fork_draft: FormText::new(String::new(), "fork-"),
        }
    }

    /// What the panel shows under its controls.
    pub fn shown(self) -> Memo<Shown> {
        self.shown
    }

    /// A comparison is going (tracked).
    pub fn busy(self) -> bool {
        self.model.with(CompareModel::busy)
    }

    /// Starts a comparison that says `what` while it runs, cancelling the
    /// one going: `work` runs with `provider` (or the scenarios' own models).
    pub fn start(self, what: String, provider: Option<ProviderRun>, work: Work) {
        let with_provider = provider.is_some();
        self.pressed.set_value(Some((work, provider)));
        self.send(CompareMsg::Started {
            what,
            with_provider,
        });
    }

    /// Stop: the comparison going ends as its runs see the token cancelled.
    pub fn stop(self) {
        self.send(CompareMsg::StopPressed);
    }

    /// Runs per side asked for (tracked).
    pub fn times(self) -> u32 {
        self.times.get()
    }

    pub fn type_times(self, typed: String) {
        self.send(CompareMsg::TimesTyped(typed));
    }

    /// How the runs' approval requests are answered.
    pub fn decide(self) -> AutoDecision {
        if self.model.with_untracked(CompareModel::deny_approvals) {
            AutoDecision::Deny
        } else {
            AutoDecision::Approve
        }
    }

    pub fn choose_deny(self, deny: bool) {
        self.send(CompareMsg::ApprovalsDenied(deny));
    }

    /// The run in the Trace changed: forkable once it ended or paused.
    pub fn trace_changed(self, forkable: bool) {
        self.send(CompareMsg::TraceChanged { forkable });
    }

    /// Nothing to fork from (tracked).
    pub fn no_steps(self) -> bool {
        self.model.with(CompareModel::no_steps)
    }

    /// Too many steps for one list: one turn's are listed (tracked).
    pub fn by_turn(self) -> bool {
        self.model.with(CompareModel::by_turn)
    }

    /// The run's last turn (tracked).
    pub fn last_turn(self) -> u32 {
        self.model.with(CompareModel::last_turn)
    }

    /// The turn whose steps are listed (tracked).
    pub fn chosen_turn(self) -> u32 {
        self.chosen_turn.get()
    }

    pub fn type_turn(self, typed: String) {
        self.send(CompareMsg::TurnTyped(typed));
    }

    /// The steps the fork picker lists.
    pub fn listed(self) -> Memo<Vec<ForkPoint>> {
        self.listed
    }

    pub fn pick_step(self, value: String) {
        self.send(CompareMsg::StepPicked(value));
    }

    /// The step a fork starts from (untracked).
    pub fn fork_from(self) -> Option<ForkPoint> {
        self.model.with_untracked(CompareModel::fork_from)
    }

    /// "Go on from here" asked at the event `seq`.
    pub fn ask_fork(self, seq: u64) {
        self.send(CompareMsg::ForkAsked(seq));
    }

    /// The step whose "go on from here" editor is open, with the ask that
    /// opened it.
    pub fn fork_here(self) -> Memo<Option<(u64, ForkPoint)>> {
        self.fork_here
    }

    pub fn close_fork_here(self) {
        self.send(CompareMsg::ForkEditorClosed);
    }

    /// The scenario a "go on from here" fork runs, as its editor edits it.
    pub fn fork_draft(self) -> FormText {
        self.fork_draft
    }

    /// The run in the Trace.
    pub fn events(self) -> ReadSignal<Vec<RunEvent>> {
        self.events
    }

    /// The run in the Trace and the scenario it ran (untracked).
    pub fn trace(self) -> (Vec<RunEvent>, Option<Scenario>) {
        (self.events.get_untracked(), self.ran.get_untracked())
    }

    /// Variant B's text.
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// Puts `text` into B, saying `notice`; the person's own B is put aside.
    pub fn put_b(self, text: String, notice: Option<String>) {
        let current = self.variant.text().get_untracked();
        self.send(CompareMsg::BPut {
            current,
            text,
            notice,
        });
    }

    /// B follows the scenario `picked` (`compare::variant_b`).
    pub fn follow(self, picked: String) {
        self.send(CompareMsg::PickFollowed(picked));
    }

    pub fn bring_back_b(self) {
        let current = self.variant.text().get_untracked();
        self.send(CompareMsg::BringBackPressed { current });
    }

    /// What happened to B last.
    pub fn b_notice(self) -> Memo<Option<String>> {
        self.b_notice
    }

    /// How many of the person's Bs are put aside.
    pub fn b_aside(self) -> Memo<usize> {
        self.b_aside
    }

    /// The one way the panel changes: the model takes `msg`, and the
    /// commands it answered with are performed.
    fn send(self, msg: CompareMsg) {
        let Some(commands) = self.model.try_update(|model| model.update(msg)) else {
            return; // The panel is gone.
        };
        for command in commands {
            self.perform(command);
        }
    }

    /// Does what the model asked; what is awaited goes through the runner
    /// and comes back through `send`.
    fn perform(self, command: CompareCmd) {
        match command {
            CompareCmd::Cancel { .. } => {
                if let Some(token) = self.token.get_value() {
                    token.cancel();
                }
            }
            CompareCmd::Launch { comparison, times } => {
                let Some((work, model)) = self.pressed.try_update_value(Option::take).flatten()
                else {
                    return;
                };
                let token = CancelToken::new();
                self.token.set_value(Some(token.clone()));
                let progress = Box::new(move |round, rounds| {
                    self.send(CompareMsg::Round {
                        comparison,
                        round,
                        rounds,
                    })
                });
                let rounds = Rounds {
                    model,
                    times,
                    progress,
                };
                runner::answer(work(token, rounds), move |result| {
                    self.send(CompareMsg::Finished { comparison, result })
                });
            }
            // After a frame: the task that paints a long run's end should
            // not list its 20,000 steps too.
            CompareCmd::ListSteps { listing } => {
                let events = self.events;
                let steps = async move {
                    TimeoutFuture::new(0).await;
                    events
                        .try_with_untracked(|e| compare::fork_points_by_turn(e))
                        .unwrap_or_default()
                };
                runner::answer(steps, move |points| {
                    self.send(CompareMsg::StepsListed { listing, points })
                });
            }
            CompareCmd::LoadForkDraft { ask } => {
                let scenario = self.ran.get_untracked();
                let text = async move {
                    match scenario {
                        Some(scenario) => crate::lazy::scenario_text(scenario).await,
                        None => String::new(),
                    }
                };
                runner::answer(text, move |text| {
                    self.send(CompareMsg::ForkDraftArrived { ask, text })
                });
            }
            CompareCmd::FillForkDraft(text) => self.fork_draft.replace(text),
            CompareCmd::FetchBuiltin { follow, id } => {
                runner::answer(crate::lazy::builtin_json(id.to_string()), move |json| {
                    let current = self.variant.text().get_untracked();
                    self.send(CompareMsg::BuiltinArrived {
                        follow,
                        current,
                        json: json.map(str::to_string),
                    })
                });
            }
            CompareCmd::SetB(text) => self.variant.replace(text),
        }
    }
}

thread_local! {
    /// The step a fork was asked from, on a card or the drawn loop, by the
    /// `seq` of its event; taken by the Compare panel (fetched on demand,
    /// so the request waits here for it). Reference-counted, so no
    /// component's cleanup disposes of it.
    static FORK_WANTED: ArcRwSignal<Option<u64>> = ArcRwSignal::new(None);
}

/// A fork asked from the step whose event is `seq`.
pub fn want_fork(seq: u64) {
    FORK_WANTED.with(|wanted| wanted.set(Some(seq)));
}

/// The fork asked for and not yet taken (tracked).
pub fn fork_wanted() -> Option<u64> {
    FORK_WANTED.with(|wanted| wanted.get())
}

/// The fork asked for, taken: asked for again, it opens again.
pub fn take_fork_wanted() {
    FORK_WANTED.with(|wanted| wanted.set(None));
}
