//! The Compare panel's state as a plain model: what the panel shows under
//! its controls (nothing yet, a comparison going with its round, why it
//! could not run, or its two sides), the comparison in flight, the runs per
//! side asked for, how the runs' approval requests are answered, the fork
//! picker's steps and choice, the "go on from here" fork's editor, and what
//! the page did to variant B. It changes only by `CompareModel::update`, and
//! says what the world must do (start or cancel a comparison, list a run's
//! steps, fetch a built-in or a scenario's text, put a text into B or into
//! the fork's editor) as `CompareCmd`s; `compare::state` performs them.
//!
//! Invariants:
//! - Latest wins. Every answer carries the number of the attempt it is for
//!   (a comparison, a listing of steps, a fork's draft, a built-in fetched
//!   for B); one a newer attempt has overtaken is dropped, so a replaced
//!   comparison's late end never covers the newer one's.
//! - At most one comparison is in flight: starting one cancels the one going.
//! - B is the person's work once they edited it: the page replacing it puts
//!   it aside, to be brought back, never drops it.

use harness::fork::ForkPoint;
use harness::wire::Provider;

use crate::compare::{fork_point_at, variant_b, Compared};
use crate::update::Update;

/// The most runs a side may have with a provider: each is a paid request
/// or several, and ten already shows how often a description misleads.
pub const MOST_TIMES: u32 = 10;

/// Past this many steps, the fork picker lists one turn's steps at a time,
/// picked with a turn field: a 10,000-turn run has 20,000 steps, too many
/// for one list (and for the page, as 20,000 options).
const LIST_EVERY_FORK_POINT_UP_TO: usize = 200;

/// What the panel shows under its controls.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Shown {
    #[default]
    Nothing,
    /// A comparison going, and where it is.
    Running(String),
    /// Why the comparison could not run.
    Failed(Vec<String>),
    /// Boxed: records are large, and the other states are small.
    Compared(Box<Compared>),
}

/// What happens to the panel: a person's action, or an answer.
#[derive(Clone, Debug)]
pub enum CompareMsg {
    /// A way in was pressed: a comparison that says `what` while it runs,
    /// with a provider (run as often as asked) or the scenarios' own models.
    Started {
        what: String,
        with_provider: bool,
    },
    /// Round `round` of `rounds` of `comparison` has begun.
    Round {
        comparison: u64,
        round: u32,
        rounds: u32,
    },
    /// `comparison` ended: its two sides, or why it could not run.
    Finished {
        comparison: u64,
        result: Result<Compared, Vec<String>>,
    },
    StopPressed,
    /// A count typed into "Runs per side".
    TimesTyped(String),
    /// "Approval requests in these runs": denied each (or approved each).
    ApprovalsDenied(bool),
    /// The run in the Trace changed; its steps can be forked from when it
    /// has ended or is paused.
    TraceChanged {
        forkable: bool,
    },
    /// The run's steps, each with its turn, as listed for `listing`.
    StepsListed {
        listing: u64,
        points: Vec<(u32, ForkPoint)>,
    },
    /// A turn typed into "Fork from turn".
    TurnTyped(String),
    /// A step picked in "Fork from", by its `seq` as the option's value.
    StepPicked(String),
    /// "Go on from here with an edit" on the step whose event is `seq`.
    ForkAsked(u64),
    /// The text of the scenario that ran, for the fork's editor of `ask`.
    ForkDraftArrived {
        ask: u64,
        text: String,
    },
    ForkEditorClosed,
    /// The page puts `text` into B (a copy of A), saying `notice`; B held
    /// `current`.
    BPut {
        current: String,
        text: String,
        notice: Option<String>,
    },
    /// Another scenario was picked (or a pair run): B follows it.
    PickFollowed(String),
    /// The built-in fetched for B's follow `follow` (`None`: not found);
    /// B held `current`.
    BuiltinArrived {
        follow: u64,
        current: String,
        json: Option<String>,
    },
    /// "Bring back my edited B"; B held `current`.
    BringBackPressed {
        current: String,
    },
}

/// What the world must do for the panel.
#[derive(Clone, Debug, PartialEq)]
pub enum CompareCmd {
    /// Fire the cancel token of `comparison`.
    Cancel { comparison: u64 },
    /// Run the work pressed as `comparison`, each side `times` times.
    Launch { comparison: u64, times: u32 },
    /// List the run's steps after the frame (a long run has many), as
    /// `StepsListed` for `listing`.
    ListSteps { listing: u64 },
    /// Fetch the text of the scenario that ran, as `ForkDraftArrived`.
    LoadForkDraft { ask: u64 },
    /// Put `text` into the fork's editor.
    FillForkDraft(String),
    /// Fetch the built-in `id`, as `BuiltinArrived` for `follow`.
    FetchBuiltin { follow: u64, id: &'static str },
    /// Put `text` into B.
    SetB(String),
}

/// The Compare panel as a person sees it (see the module's invariants).
#[derive(Clone, Debug, Default)]
pub struct CompareModel {
    shown: Shown,
    /// The newest comparison's number; 0 before any.
    comparison: u64,
    /// What the newest comparison says while it runs, before its round.
    what: String,
    in_flight: bool,
    /// Runs per side asked for; 0 until typed, which means 1.
    times: u32,
    deny_approvals: bool,
    /// The newest listing of the run's steps (see `TraceChanged`).
    listing: u64,
    points: Vec<(u32, ForkPoint)>,
    /// The turn typed; 0 until typed, which means the first.
    turn: u32,
    /// The `seq` of the step picked, while one is.
    picked: Option<u64>,
    /// The newest "go on from here" asked, the step it waits to open at,
    /// and the step whose editor is open.
    ask: u64,
    asked_at: Option<ForkPoint>,
    fork_here: Option<(u64, ForkPoint)>,
    /// The text the page put into B last (a copy, a pair's half): replacing
    /// it loses nothing the person made.
    put: Option<String>,
    /// The person's Bs put aside when the page replaced them, the latest last.
    aside: Vec<String>,
    /// What happened to B last, said above it.
    notice: Option<String>,
    /// The newest built-in fetched for B, and what B's notice will say.
    follow: u64,
    follow_notice: String,
}

impl CompareModel {
    pub fn shown(&self) -> &Shown {
        &self.shown
    }

    /// A comparison is going.
    pub fn busy(&self) -> bool {
        matches!(self.shown, Shown::Running(_))
    }

    /// The runs per side as the field shows them (1 to `MOST_TIMES`).
    pub fn times(&self) -> u32 {
        self.times.max(1)
    }

    pub fn deny_approvals(&self) -> bool {
        self.deny_approvals
    }

    /// Nothing to fork from.
    pub fn no_steps(&self) -> bool {
        self.points.is_empty()
    }

    /// Too many steps for one list: the picker lists one turn's.
    pub fn by_turn(&self) -> bool {
        self.points.len() > LIST_EVERY_FORK_POINT_UP_TO
    }

    /// The run's last turn, 1 when it has no steps.
    pub fn last_turn(&self) -> u32 {
        self.points.last().map_or(1, |(turn, _)| *turn)
    }

    /// The turn chosen, within this run: a turn chosen for a longer run
    /// before stands for this run's last.
    pub fn chosen_turn(&self) -> u32 {
        self.turn.clamp(1, self.last_turn())
    }

    /// The steps the picker lists: all of them, or those of the turn chosen.
    pub fn listed(&self) -> Vec<ForkPoint> {
        let (turn, by_turn) = (self.chosen_turn(), self.by_turn());
        self.points
            .iter()
            .filter(|(t, _)| !by_turn || *t == turn)
            .map(|(_, point)| point.clone())
            .collect()
    }

    /// The step the picker shows, which a fork starts from: the one
    /// picked if it is listed, else the first listed.
    pub fn fork_from(&self) -> Option<ForkPoint> {
        let listed = self.listed();
        let picked = listed.iter().position(|p| Some(p.seq) == self.picked);
        listed.into_iter().nth(picked.unwrap_or(0))
    }

    /// The step whose "go on from here" editor is open.
    pub fn fork_here(&self) -> Option<&ForkPoint> {
        self.fork_here.as_ref().map(|(_, at)| at)
    }

    /// The step whose "go on from here" editor is open, with the number of
    /// the ask that opened it: asked again at the same step, it is a new
    /// opening (the editor is brought into view again).
    pub fn fork_here_opened(&self) -> Option<(u64, ForkPoint)> {
        self.fork_here.clone()
    }

    /// What happened to B last.
    pub fn b_notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// How many of the person's Bs are put aside.
    pub fn b_aside(&self) -> usize {
        self.aside.len()
    }

    fn start(&mut self, what: String, with_provider: bool) -> Vec<CompareCmd> {
        let mut commands = self.stop();
        self.comparison += 1;
        self.in_flight = true;
        self.shown = Shown::Running(what.clone());
        self.what = what;
        commands.push(CompareCmd::Launch {
            comparison: self.comparison,
            times: runs_per_side(with_provider, self.times()),
        });
        commands
    }

    /// The comparison going ends as its runs see their token cancelled.
    fn stop(&self) -> Vec<CompareCmd> {
        self.in_flight
            .then_some(CompareCmd::Cancel {
                comparison: self.comparison,
            })
            .into_iter()
            .collect()
    }

    /// Puts `text` into B, saying `notice`; the person's own B, `current`,
    /// is put aside. Nothing happens when B holds `text` already.
    fn put_in(&mut self, current: String, text: String, notice: Option<String>) -> Vec<CompareCmd> {
        if current == text {
            return Vec::new();
        }
        self.keep_aside(current);
        self.put = Some(text.clone());
        self.notice = notice;
        vec![CompareCmd::SetB(text)]
    }

    /// B's `current` text, put aside if it is the person's own work.
    fn keep_aside(&mut self, current: String) {
        if variant_b::worth_keeping(&current, self.put.as_deref()) {
            self.aside.push(current);
        }
    }
}

impl Update for CompareModel {
    type Msg = CompareMsg;
    type Cmd = CompareCmd;

    #[inline(never)]
    fn update(&mut self, msg: CompareMsg) -> Vec<CompareCmd> {
        use CompareMsg as M;
        match msg {
            M::Started {
                what,
                with_provider,
            } => return self.start(what, with_provider),
            M::Round {
                comparison,
                round,
                rounds,
            } => {
                if comparison == self.comparison && self.in_flight && rounds > 1 {
                    self.shown =
                        Shown::Running(format!("{} Round {round} of {rounds}.", self.what));
                }
            }
            M::Finished { comparison, result } => {
                if comparison == self.comparison && self.in_flight {
                    self.in_flight = false;
                    self.shown = match result {
                        Ok(sides) => Shown::Compared(Box::new(sides)),
                        Err(problems) => Shown::Failed(problems),
                    };
                }
            }
            M::StopPressed => return self.stop(),
            M::TimesTyped(typed) => {
                if let Some(times) = typed_count(&typed, MOST_TIMES) {
                    self.times = times;
                }
            }
            M::ApprovalsDenied(deny) => self.deny_approvals = deny,
            M::TraceChanged { forkable } => {
                self.listing += 1;
                if forkable {
                    return vec![CompareCmd::ListSteps {
                        listing: self.listing,
                    }];
                }
                self.points.clear();
            }
            M::StepsListed { listing, points } => {
                if listing == self.listing {
                    self.points = points;
                }
            }
            M::TurnTyped(typed) => {
                if let Some(turn) = typed_count(&typed, self.last_turn()) {
                    self.turn = turn;
                    self.picked = None;
                }
            }
            M::StepPicked(value) => self.picked = value.parse().ok(),
            M::ForkAsked(seq) => {
                let Some(at) = fork_point_at(&self.points, seq) else {
                    return Vec::new();
                };
                self.picked = Some(at.seq);
                self.ask += 1;
                self.asked_at = Some(at);
                return vec![CompareCmd::LoadForkDraft { ask: self.ask }];
            }
            M::ForkDraftArrived { ask, text } => {
                if ask == self.ask {
                    if let Some(at) = self.asked_at.take() {
                        self.fork_here = Some((ask, at));
                        return vec![CompareCmd::FillForkDraft(text)];
                    }
                }
            }
            M::ForkEditorClosed => {
                self.fork_here = None;
                self.asked_at = None;
            }
            M::BPut {
                current,
                text,
                notice,
            } => return self.put_in(current, text, notice),
            M::PickFollowed(picked) => {
                let (id, notice) = variant_b::follows(&picked);
                if !id.is_empty() {
                    self.follow += 1;
                    self.follow_notice = notice;
                    return vec![CompareCmd::FetchBuiltin {
                        follow: self.follow,
                        id,
                    }];
                }
            }
            M::BuiltinArrived {
                follow,
                current,
                json,
            } => {
                if let (true, Some(json)) = (follow == self.follow, json) {
                    let notice = std::mem::take(&mut self.follow_notice);
                    return self.put_in(current, json, Some(notice));
                }
            }
            M::BringBackPressed { current } => {
                if let Some(text) = self.aside.pop() {
                    self.keep_aside(current);
                    self.put = None;
                    self.notice = Some("Your edited B is back.".to_string());
                    return vec![CompareCmd::SetB(text)];
                }
            }
        }
        Vec::new()
    }
}

/// The runs a side gets: with a provider, as many as asked (1 to
/// `MOST_TIMES`); the scenarios' own models answer the same way every
/// time, so once.
pub fn runs_per_side(with_provider: bool, asked: u32) -> u32 {
    if with_provider {
        asked.clamp(1, MOST_TIMES)
    } else {
        1
    }
}

/// A count typed into a number field from 1 to `most`: any number goes to
/// the nearest whole count in range (`-1` is 1, `1e300` is `most`, `2.4`
/// is 2); not a number is `None` and changes nothing.
pub fn typed_count(typed: &str, most: u32) -> Option<u32> {
    let number = typed.trim().parse::<f64>().ok().filter(|n| !n.is_nan())?;
    Some(number.round().clamp(1.0, f64::from(most)) as u32)
}

/// Why a side runs as often as it does, said under "Runs per side": the
/// `provider` chosen in the Model settings, whether its settings have
/// problems (`blocked`), and its `model`.
pub fn times_hint(provider: Option<Provider>, blocked: bool, model: &str) -> String {
    match provider {
        None => format!("1: the scenario's own model (scripted or rules) answers the same way every time, so one run a side shows all it does. Choose a provider in the Model settings (the Scenario tab, below the editor) to run each side up to {MOST_TIMES} times and count what the real model did."),
        Some(_) if blocked => "The Model settings have problems (listed there): fix them, and the runs go to the provider.".to_string(),
        Some(p) => format!("Each side runs up to {MOST_TIMES} times with {} ({}); the result counts how each run went. A fork runs once, with this provider.", p.label(), model.trim()),
    }
}

#[cfg(test)]
mod tests;
