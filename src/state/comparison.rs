//! The Compare panel's state machine: what the panel shows under
//! its controls (nothing yet, a comparison going with its progress, why it
//! could not run, or its two sides), and the comparison in flight. Starting
//! one cancels the one going, whose late answer is then dropped; Stop
//! cancels it. The panel (`ui::compare_panel`) does the runs and reports
//! through a `Started`. Beside it, the panel's two counts (runs per side,
//! a fork's turn) and its fork picker (`ForkPicker`).

use harness::cancel::CancelToken;
use harness::fork::ForkPoint;
use leptos::prelude::*;

use crate::browser::runner::{Generation, Ticket};
use crate::compare::Compared;

/// The most runs a side may have with a provider: each is a paid request
/// or several, and ten already shows how often a description misleads.
pub const MOST_TIMES: u32 = 10;

/// Past this many steps, the fork picker lists one turn's steps at a time,
/// picked with a turn field: a 10,000-turn run has 20,000 steps, too many
/// for one list (and for the page, as 20,000 options).
const LIST_EVERY_FORK_POINT_UP_TO: usize = 200;

/// What the panel shows under its controls.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    Nothing,
    /// A comparison going, and where it is.
    Running(String),
    /// Why the comparison could not run.
    Failed(Vec<String>),
    /// Boxed: records are large, and the other states are small.
    Compared(Box<Compared>),
}

#[derive(Clone, Copy)]
pub struct Comparison {
    shown: RwSignal<Shown>,
    /// The comparison in flight's token; `None` when none is.
    in_flight: StoredValue<Option<CancelToken>, LocalStorage>,
    runs: Generation,
}

/// One comparison started: its progress and its end are shown only while
/// no newer one has started.
#[derive(Clone, Copy)]
pub struct Started {
    comparison: Comparison,
    ticket: Ticket,
}

impl Comparison {
    pub fn new() -> Self {
        Comparison {
            shown: RwSignal::new(Shown::Nothing),
            in_flight: StoredValue::new_local(None),
            runs: Generation::new(),
        }
    }

    pub fn shown(self) -> ReadSignal<Shown> {
        self.shown.read_only()
    }

    /// A comparison is going (tracked).
    pub fn busy(self) -> bool {
        self.shown.with(|s| matches!(s, Shown::Running(_)))
    }

    /// Starts a comparison that says `what` while it runs, cancelling the
    /// one going; returns how it reports, and the token its runs obey.
    pub fn start(self, what: String) -> (Started, CancelToken) {
        self.stop();
        let token = CancelToken::new();
        self.in_flight.set_value(Some(token.clone()));
        self.shown.set(Shown::Running(what));
        let started = Started {
            comparison: self,
            ticket: self.runs.next(),
        };
        (started, token)
    }

    /// Stop: the comparison going ends as its runs see the token cancelled.
    pub fn stop(self) {
        if let Some(token) = self.in_flight.get_value() {
            token.cancel();
        }
    }
}

impl Default for Comparison {
    fn default() -> Self {
        Self::new()
    }
}

impl Started {
    /// Where it is now ("Running A and B… Round 2 of 3.").
    pub fn progress(self, text: String) {
        if self.ticket.is_current() {
            self.comparison.shown.set(Shown::Running(text));
        }
    }

    /// Round `round` of `rounds` has begun: said only when there are several.
    pub fn round(self, what: &str, round: u32, rounds: u32) {
        if rounds > 1 {
            self.progress(format!("{what} Round {round} of {rounds}."));
        }
    }

    /// Its end: the two sides, or why it could not run.
    pub fn finish(self, result: Result<Compared, Vec<String>>) {
        if !self.ticket.is_current() {
            return;
        }
        self.comparison.in_flight.set_value(None);
        self.comparison.shown.set(match result {
            Ok(sides) => Shown::Compared(Box::new(sides)),
            Err(problems) => Shown::Failed(problems),
        });
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

/// The steps of the run in the Trace a fork can start from, each with its
/// turn, and the one picked. A long run's steps are listed one turn at a
/// time (the turn picked with a field of its own).
#[derive(Clone, Copy)]
pub struct ForkPicker {
    points: RwSignal<Vec<(u32, ForkPoint)>>,
    turn: RwSignal<u32>,
    /// The `seq` of the step picked, while one is.
    picked: RwSignal<Option<u64>>,
}

impl ForkPicker {
    pub fn new() -> Self {
        ForkPicker {
            points: RwSignal::new(Vec::new()),
            turn: RwSignal::new(1),
            picked: RwSignal::new(None),
        }
    }

    /// The run's steps, each with its turn (`compare::fork_points_by_turn`).
    pub fn set_points(self, points: Vec<(u32, ForkPoint)>) {
        self.points.set(points);
    }

    /// No step to fork from: a run started, which has none yet.
    pub fn clear(self) {
        if self.points.with_untracked(|p| !p.is_empty()) {
            self.points.set(Vec::new());
        }
    }

    /// Nothing to fork from (tracked).
    pub fn is_empty(self) -> bool {
        self.points.with(Vec::is_empty)
    }

    /// Too many steps for one list: the picker lists one turn's (tracked).
    pub fn by_turn(self) -> bool {
        self.points.with(|p| p.len() > LIST_EVERY_FORK_POINT_UP_TO)
    }

    /// The run's last turn, 1 when it has no steps (tracked).
    pub fn last_turn(self) -> u32 {
        self.points.with(|p| p.last().map_or(1, |(turn, _)| *turn))
    }

    /// The turn chosen, within this run: a turn chosen for a longer run
    /// before stands for this run's last (tracked).
    pub fn chosen_turn(self) -> u32 {
        self.turn.get().clamp(1, self.last_turn())
    }

    /// A turn typed: its steps are listed, none of them picked yet. The
    /// field then shows `chosen_turn`, whatever was typed.
    pub fn choose_turn(self, typed: &str) {
        if let Some(turn) = typed_count(typed, self.last_turn()) {
            self.turn.set(turn);
            self.picked.set(None);
        }
    }

    /// A step picked in the list, by its `seq` as the option's value.
    pub fn pick(self, value: &str) {
        self.picked.set(value.parse().ok());
    }

    /// The steps the picker lists: all of them, or those of the turn
    /// chosen (tracked).
    pub fn listed(self) -> Vec<ForkPoint> {
        let turn = self.chosen_turn();
        let by_turn = self.by_turn();
        self.points.with(|p| {
            p.iter()
                .filter(|(t, _)| !by_turn || *t == turn)
                .map(|(_, point)| point.clone())
                .collect()
        })
    }

    /// The step the picker shows, which a fork starts from: the one
    /// picked if it is listed, else the first listed.
    pub fn shown(self) -> Option<ForkPoint> {
        let listed = untrack(|| self.listed());
        let picked = self.picked.get_untracked();
        listed
            .iter()
            .find(|p| Some(p.seq) == picked)
            .or(listed.first())
            .cloned()
    }
}

impl Default for ForkPicker {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_comparison_cancels_the_older_and_drops_its_answer() {
        let comparison = Comparison::new();
        assert_eq!(comparison.shown().get_untracked(), Shown::Nothing);
        let (first, first_token) = comparison.start("Running A and B…".into());
        assert!(comparison.busy());
        let (second, second_token) = comparison.start("Running the pair…".into());
        assert!(first_token.is_cancelled() && !second_token.is_cancelled());
        // The older one's progress and end come too late to be shown.
        first.progress("Running A and B… Round 2 of 3.".into());
        first.finish(Ok(Compared::default()));
        assert_eq!(
            comparison.shown().get_untracked(),
            Shown::Running("Running the pair…".into())
        );
        second.progress("Running the pair… Round 2 of 3.".into());
        assert_eq!(
            comparison.shown().get_untracked(),
            Shown::Running("Running the pair… Round 2 of 3.".into())
        );
        second.finish(Err(vec!["B: tools: expected a list".into()]));
        assert_eq!(
            comparison.shown().get_untracked(),
            Shown::Failed(vec!["B: tools: expected a list".into()])
        );
        assert!(!comparison.busy());
    }

    #[test]
    fn stop_cancels_the_comparison_going_and_nothing_when_none_is() {
        let comparison = Comparison::new();
        comparison.stop();
        let (started, token) = comparison.start("Running A and B…".into());
        comparison.stop();
        assert!(token.is_cancelled());
        // The runs, cancelled, still report their end: shown as it comes.
        started.finish(Ok(Compared::default()));
        assert_eq!(
            comparison.shown().get_untracked(),
            Shown::Compared(Box::default())
        );
        // After its end, Stop has no token left to cancel.
        comparison.stop();
    }

    #[test]
    fn a_side_runs_as_often_as_asked_only_with_a_provider() {
        assert_eq!(runs_per_side(false, 5), 1);
        assert_eq!(runs_per_side(true, 5), 5);
        assert_eq!(runs_per_side(true, 0), 1);
        assert_eq!(runs_per_side(true, 99), MOST_TIMES);
    }

    #[test]
    fn a_typed_count_goes_to_the_nearest_and_text_changes_nothing() {
        assert_eq!(typed_count(" 3 ", 10), Some(3));
        assert_eq!(typed_count("0", 10), Some(1));
        assert_eq!(typed_count("12", 10), Some(10));
        assert_eq!(typed_count("three", 10), None);
        assert_eq!(typed_count("", 10), None);
        assert_eq!(typed_count("-1", 10), Some(1));
        assert_eq!(typed_count("1e300", 10), Some(10));
        assert_eq!(typed_count("99999999999999999999", 10), Some(10));
        assert_eq!(typed_count("2.4", 10), Some(2));
    }

    #[test]
    fn rounds_are_told_only_when_there_are_several() {
        let comparison = Comparison::new();
        let (started, _) = comparison.start("Running A and B…".into());
        started.round("Running A and B…", 1, 1);
        assert_eq!(
            comparison.shown().get_untracked(),
            Shown::Running("Running A and B…".into())
        );
        started.round("Running A and B…", 2, 3);
        assert_eq!(
            comparison.shown().get_untracked(),
            Shown::Running("Running A and B… Round 2 of 3.".into())
        );
    }

    /// Two steps a turn (a model call and a tool call) for `turns` turns.
    fn steps(turns: u32) -> Vec<(u32, ForkPoint)> {
        let mut seq = 0;
        (1..=turns)
            .flat_map(|turn| ["before turn", "before tool call"].map(|what| (turn, what)))
            .map(|(turn, what)| {
                seq += 1;
                let label = format!("{what} {turn}");
                (turn, ForkPoint { seq, label })
            })
            .collect()
    }

    #[test]
    fn a_short_run_lists_every_step_and_forks_from_the_one_picked() {
        let picker = ForkPicker::new();
        assert!(picker.is_empty() && picker.shown().is_none());
        picker.set_points(steps(3));
        assert!(!picker.by_turn());
        assert_eq!(picker.listed().len(), 6);
        assert_eq!(picker.shown().map(|p| p.seq), Some(1));
        picker.pick("4");
        assert_eq!(picker.shown().map(|p| p.seq), Some(4));
        // A value that names no listed step stands for the first.
        picker.pick("99");
        assert_eq!(picker.shown().map(|p| p.seq), Some(1));
        picker.clear();
        assert!(picker.is_empty() && picker.shown().is_none());
    }

    #[test]
    fn a_long_run_lists_one_turn_and_a_turn_typed_clears_the_pick() {
        let picker = ForkPicker::new();
        picker.set_points(steps(150));
        assert!(picker.by_turn());
        assert_eq!(picker.last_turn(), 150);
        let seqs = |picker: ForkPicker| picker.listed().iter().map(|p| p.seq).collect::<Vec<_>>();
        assert_eq!(seqs(picker), vec![1, 2]);
        picker.pick("2");
        picker.choose_turn("not a turn");
        assert_eq!(picker.shown().map(|p| p.seq), Some(2));
        picker.choose_turn("500");
        assert_eq!(picker.chosen_turn(), 150);
        assert_eq!(seqs(picker), vec![299, 300]);
        assert_eq!(picker.shown().map(|p| p.seq), Some(299));
        // A shorter run next: the turn chosen stands for its last.
        picker.set_points(steps(120));
        assert_eq!(picker.chosen_turn(), 120);
        assert_eq!(seqs(picker), vec![239, 240]);
    }
}
