//! What became of the tool calls a model asked for, counted one way for
//! everyone: `run_finished`, the page's header, loop diagram and stop
//! banner, the CLI and the OpenTelemetry export all read these numbers.
//!
//! The words, each defined once:
//! - **requested**: the calls the model asked for (every tool_use block of
//!   its responses), one "Tool call" row each in the page;
//! - **checked**: the calls the harness took up, in order, and counted
//!   against `max_tool_calls`, the call that went over the limit included.
//!   A call the run never reached (it stopped first) is not checked;
//! - **ran**: the tool ran and answered (a result or its own error);
//! - **not run**: answered without running the tool: invalid arguments, a
//!   tool that cannot run here (a JavaScript tool outside the browser),
//!   denied, over a limit, or the run stopped before it started;
//! - **cut short**: the tool was stopped before it answered: at
//!   `tool_timeout_ms` (or a JavaScript sandbox's own limit), or when the
//!   run stopped while it ran;
//! - **typed by a person**: a person answered in the tool's place, so the
//!   tool did not run.
//!
//! Invariant: once a run has finished, `ran + not_run + cut_short +
//! by_person == requested`. The counts are read off each `tool_result`'s
//! `fate`, which `Run` writes; nothing here reads event text.

use serde::{Deserialize, Serialize};

use super::{EventKind, ResultFate, RunEvent};

/// The tool-call counts of a run (see the module's words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallCounts {
    pub requested: u32,
    pub checked: u32,
    pub ran: u32,
    pub not_run: u32,
    pub cut_short: u32,
    pub by_person: u32,
}

/// Meanings of the words, for a tooltip or a `--help` text.
pub const CALL_COUNT_WORDS: &str = "requested: the calls the model asked for. checked: the calls the harness took up in order and counted against max_tool_calls (the one over the limit included). ran: the tool ran and answered (a result or its own error). not run: answered without running the tool (invalid arguments, a tool that cannot run here, denied, over a limit, or the run stopped before it started). cut short: the tool was stopped before it answered (at its time limit, or when the run stopped). typed by a person: a person answered in the tool's place.";

impl CallCounts {
    /// Each count with the name the trace's `calls` object and the
    /// OpenTelemetry export (`agent_loop.tool_calls.<name>`) give it.
    pub fn by_name(&self) -> [(&'static str, u32); 6] {
        [
            ("requested", self.requested),
            ("checked", self.checked),
            ("ran", self.ran),
            ("not_run", self.not_run),
            ("cut_short", self.cut_short),
            ("by_person", self.by_person),
        ]
    }

    /// Calls answered so far, whatever became of them.
    pub fn answered(&self) -> u32 {
        self.ran + self.not_run + self.cut_short + self.by_person
    }

    /// E.g. `8 requested (6 ran, 2 not run)`; a count that is zero is left
    /// out. `waiting` adds the calls not answered yet, for a run in flight.
    pub fn summary(&self, waiting: u32) -> String {
        if self.requested == 0 {
            return "none requested".to_string();
        }
        let parts: Vec<String> = [
            (self.ran, "ran"),
            (self.not_run, "not run"),
            (self.cut_short, "cut short"),
            (self.by_person, "typed by a person"),
            (waiting, "waiting"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        format!("{} requested ({})", self.requested, parts.join(", "))
    }
}

impl ResultFate {
    /// Which count a result of this fate adds to.
    fn count_in(self, counts: &mut CallCounts) -> &mut u32 {
        match self {
            ResultFate::Ran => &mut counts.ran,
            ResultFate::Invalid
            | ResultFate::Denied
            | ResultFate::OverLimit
            | ResultFate::StoppedBeforeStart
            | ResultFate::NotReached => &mut counts.not_run,
            // Stopped at its time limit or by the run's end: it never finished.
            ResultFate::TimedOut | ResultFate::CutShort => &mut counts.cut_short,
            ResultFate::ByPerson => &mut counts.by_person,
        }
    }
}

/// The counts of one run, followed event by event in constant time, so a
/// page can keep them live. `Run` keeps one over its own events for the
/// counts in `run_finished`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolCallTally {
    counts: CallCounts,
    finished: bool,
}

impl ToolCallTally {
    pub fn of(events: &[RunEvent]) -> ToolCallTally {
        let mut tally = ToolCallTally::default();
        events.iter().for_each(|event| tally.apply(event));
        tally
    }

    pub fn apply(&mut self, event: &RunEvent) {
        self.apply_kind(&event.kind)
    }

    pub fn apply_kind(&mut self, kind: &EventKind) {
        match kind {
            EventKind::RunStarted { .. } => *self = ToolCallTally::default(),
            EventKind::ModelResponse { content, .. } => {
                self.counts.requested += crate::message::tool_calls_of(content).count() as u32;
            }
            EventKind::ToolCall { .. } => self.counts.checked += 1,
            EventKind::ToolResult { fate, .. } => {
                let fate = fate.unwrap_or(ResultFate::Ran);
                *fate.count_in(&mut self.counts) += 1;
                if fate == ResultFate::NotReached {
                    self.counts.checked = self.counts.checked.saturating_sub(1);
                }
            }
            EventKind::RunFinished(_) => self.finished = true,
            _ => {}
        }
    }

    /// The counts so far. Once the run has finished, a call it never
    /// answered (a trace cut off, an import) counts as not run.
    pub fn counts(&self) -> CallCounts {
        if self.finished {
            self.counts_at_end()
        } else {
            self.counts
        }
    }

    /// The counts as they stand if the run ends now: every call not
    /// answered will never run.
    pub fn counts_at_end(&self) -> CallCounts {
        let mut counts = self.counts;
        counts.not_run += counts.requested.saturating_sub(counts.answered());
        counts
    }

    /// Calls asked for and not answered yet, while the run goes on.
    pub fn waiting(&self) -> u32 {
        if self.finished {
            0
        } else {
            self.counts.requested.saturating_sub(self.counts.answered())
        }
    }

    pub fn finished(&self) -> bool {
        self.finished
    }

    /// E.g. `8 requested (6 ran, 2 not run)`, or with `1 waiting` mid-run.
    pub fn summary(&self) -> String {
        self.counts().summary(self.waiting())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_leaves_out_zero_counts_and_names_every_other() {
        let counts = CallCounts {
            requested: 8,
            checked: 7,
            ran: 6,
            not_run: 2,
            ..CallCounts::default()
        };
        assert_eq!(counts.summary(0), "8 requested (6 ran, 2 not run)");
        let person = CallCounts {
            requested: 1,
            checked: 1,
            by_person: 1,
            ..CallCounts::default()
        };
        assert_eq!(person.summary(0), "1 requested (1 typed by a person)");
        assert_eq!(CallCounts::default().summary(0), "none requested");
    }
}
