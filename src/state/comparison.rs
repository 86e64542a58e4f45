//! The Compare panel's state machine (issue 27): what the panel shows under
//! its controls (nothing yet, a comparison going with its progress, why it
//! could not run, or its two sides), and the comparison in flight. Starting
//! one cancels the one going, whose late answer is then dropped; Stop
//! cancels it. The panel (`ui::compare_panel`) does the runs and reports
//! through a `Started`.

use harness::cancel::CancelToken;
use leptos::prelude::*;

use crate::compare::Compared;
use crate::state::generation::{Generation, Ticket};

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
}
