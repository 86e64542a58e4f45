//! "Replay all against the current scenario": which kept runs it plays, and
//! the words of its table, its progress and its summary.
//!
//! A kept run belongs to the scenario in the editor when its `Entry`
//! carries the same scenario name: the name is what the list shows and all
//! the index knows without reading records, and editing a tool's
//! description or schema keeps it. Each matching record is then replayed
//! against the editor's scenario, as `agent-loop replay runs/ --scenario
//! edited.json` does in CI, and each becomes one row.
//!
//! Invariant: nothing here touches signals or the DOM; it is tested natively.

use harness::replay::ReplayReport;

use super::{status_word, Entry};
use crate::run::view_model::plural;

/// The kept runs of the scenario named `name`, in the list's order (newest
/// first), so the table reads in the same order as the list beside it.
pub fn runs_of(entries: &[Entry], name: &str) -> Vec<Entry> {
    entries
        .iter()
        .filter(|e| e.scenario == name)
        .cloned()
        .collect()
}

/// What the panel says about the match: the scenario name it used and how
/// many kept runs it found, or why it found none.
pub fn found_text(name: &str, found: usize, kept: usize) -> String {
    match (found, kept) {
        (0, 0) => format!(
            "Nothing to replay: no runs are kept yet. Run “{name}” and its finished run is kept here."
        ),
        (0, kept) => format!(
            "Nothing to replay: none of the {} is of “{name}”, the scenario in the editor (runs are matched by scenario name). Run it and its finished run is kept here.",
            plural(kept as u64, "kept run")
        ),
        (found, kept) => format!(
            "Scenario in the editor: “{name}”. Found {} of it (of {kept} kept).",
            plural(found as u64, "kept run")
        ),
    }
}

/// One kept run's outcome in the table.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Pass,
    /// The first check that failed, as `name: detail`.
    Fail(String),
    /// Not replayed, and why (its record could not be read, say).
    NotReplayed(String),
}

impl Verdict {
    /// A replay's verdict: its first failing check in plain words, as the
    /// CLI's suite line says it.
    pub fn of(report: &ReplayReport) -> Verdict {
        match report.first_failure() {
            None => Verdict::Pass,
            Some(failure) => Verdict::Fail(format!("{}: {}", failure.name, failure.detail)),
        }
    }

    /// The verdict as a word: text, not only colour, carries it.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail(_) => "FAIL",
            Verdict::NotReplayed(_) => "not replayed",
        }
    }

    /// The verdict as a symbol beside the word.
    pub fn mark(&self) -> &'static str {
        match self {
            Verdict::Pass => "✓",
            Verdict::Fail(_) => "✗",
            Verdict::NotReplayed(_) => "⚠",
        }
    }

    /// A stable key for styling and tests (`data-verdict`).
    pub fn key(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail(_) => "fail",
            Verdict::NotReplayed(_) => "not-replayed",
        }
    }

    /// What the row says beyond the verdict: the first difference of a
    /// failure, why a run was not replayed, nothing for a pass.
    pub fn detail(&self) -> &str {
        match self {
            Verdict::Pass => "",
            Verdict::Fail(first) => first,
            Verdict::NotReplayed(why) => why,
        }
    }
}

/// One row of the table: a kept run and its replay's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The kept run's id, for its Open button.
    pub id: String,
    pub saved_at_ms: f64,
    /// How the run originally ended (`done`, `turn_limit`, `unfinished`, …).
    pub original: &'static str,
    pub verdict: Verdict,
}

impl Row {
    pub fn new(entry: &Entry, verdict: Verdict) -> Row {
        Row {
            id: entry.id.clone(),
            saved_at_ms: entry.saved_at_ms,
            original: status_word(entry.status),
            verdict,
        }
    }
}

/// A "Replay all" under way or finished.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// The scenario name the kept runs were matched by.
    pub scenario: String,
    /// How many runs the history kept in all when it started.
    pub kept: usize,
    /// How many kept runs matched.
    pub total: usize,
    /// One per kept run replayed so far, in the list's order.
    pub rows: Vec<Row>,
    pub running: bool,
    /// Stopped by a person before the last run.
    pub stopped: bool,
}

impl Batch {
    /// Which scenario name it matched and how many kept runs it found.
    pub fn found(&self) -> String {
        found_text(&self.scenario, self.total, self.kept)
    }

    /// The line above the table: progress while it runs, then the summary.
    pub fn status_line(&self) -> String {
        if self.running {
            progress_text(self.rows.len(), self.total)
        } else {
            summary(&self.rows, self.total, self.stopped)
        }
    }
}

/// "Replaying 2 of 3…" once `done` runs have their verdict.
pub fn progress_text(done: usize, total: usize) -> String {
    format!("Replaying {} of {total}…", (done + 1).min(total))
}

/// "3 kept runs replayed: 2 pass, 1 fail", with what was not replayed and
/// why (unreadable, or stopped by a person) when anything was not.
pub fn summary(rows: &[Row], total: usize, stopped: bool) -> String {
    let count = |key: &str| rows.iter().filter(|r| r.verdict.key() == key).count();
    let (pass, fail, unread) = (count("pass"), count("fail"), count("not-replayed"));
    let mut counts = format!("{pass} pass, {fail} fail");
    if unread > 0 {
        counts.push_str(&format!(", {unread} could not be replayed"));
    }
    if stopped {
        format!(
            "Stopped after {} of {total} kept runs: {counts}",
            rows.len()
        )
    } else if unread > 0 {
        format!(
            "{} checked: {counts}",
            plural(rows.len() as u64, "kept run")
        )
    } else {
        format!(
            "{} replayed: {counts}",
            plural(rows.len() as u64, "kept run")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::Origin;
    use harness::event::{Outcome, Status};
    use harness::replay::AssertionResult;

    fn entry(id: &str, scenario: &str, status: Option<Status>) -> Entry {
        Entry {
            id: id.into(),
            scenario: scenario.into(),
            status,
            turns: 1,
            cost_usd: 0.0,
            saved_at_ms: 1000.0,
            size: 1,
            origin: Origin::Run,
            stored: true,
        }
    }

    fn report(results: &[(&str, bool, &str)]) -> ReplayReport {
        ReplayReport {
            outcome: Outcome {
                status: Status::Done,
                reason: "answered".into(),
                cause: None,
                turns: 1,
                tool_calls: 0,
                calls: None,
                input_tokens: 0,
                output_tokens: 0,
                cost_usd: 0.0,
                elapsed_ms: 0,
                answer: None,
            },
            events: vec![],
            results: results
                .iter()
                .map(|(name, passed, detail)| AssertionResult {
                    name: (*name).into(),
                    passed: *passed,
                    detail: (*detail).into(),
                })
                .collect(),
        }
    }

    #[test]
    fn only_the_kept_runs_of_the_named_scenario_are_replayed_newest_first() {
        let entries = vec![
            entry("3", "Refund", Some(Status::Done)),
            entry("2", "Clock", Some(Status::Done)),
            entry("1", "Refund", None),
        ];
        let ids: Vec<String> = runs_of(&entries, "Refund")
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(ids, ["3", "1"]);
        assert!(
            runs_of(&entries, "refund").is_empty(),
            "names match exactly"
        );
    }

    #[test]
    fn the_match_names_the_scenario_and_says_why_when_nothing_matched() {
        assert_eq!(
            found_text("Refund", 2, 5),
            "Scenario in the editor: “Refund”. Found 2 kept runs of it (of 5 kept)."
        );
        assert_eq!(
            found_text("Refund", 1, 1),
            "Scenario in the editor: “Refund”. Found 1 kept run of it (of 1 kept)."
        );
        assert_eq!(
            found_text("Refund", 0, 3),
            "Nothing to replay: none of the 3 kept runs is of “Refund”, the scenario in the editor (runs are matched by scenario name). Run it and its finished run is kept here."
        );
        assert_eq!(
            found_text("Refund", 0, 0),
            "Nothing to replay: no runs are kept yet. Run “Refund” and its finished run is kept here."
        );
    }

    #[test]
    fn a_failure_reads_as_its_first_failing_check_in_words_and_a_symbol() {
        let failed = report(&[
            ("status", true, "ended done"),
            ("same_errors", false, "call 3 (refund_order): now an error"),
            ("ids_exist", false, "A9 was never returned"),
        ]);
        let verdict = Verdict::of(&failed);
        assert_eq!(
            verdict,
            Verdict::Fail("same_errors: call 3 (refund_order): now an error".into())
        );
        assert_eq!(
            (verdict.word(), verdict.mark(), verdict.key()),
            ("FAIL", "✗", "fail")
        );
        let passed = Verdict::of(&report(&[("status", true, "ended done")]));
        assert_eq!(
            (passed.word(), passed.mark(), passed.detail()),
            ("pass", "✓", "")
        );
        let unread =
            Verdict::NotReplayed("its record is no longer in this browser's storage".into());
        assert_eq!((unread.word(), unread.mark()), ("not replayed", "⚠"));
        assert_eq!(
            unread.detail(),
            "its record is no longer in this browser's storage"
        );
        let row = Row::new(&entry("7", "Refund", None), unread);
        assert_eq!((row.id.as_str(), row.original), ("7", "unfinished"));
    }

    fn rows(verdicts: &[Verdict]) -> Vec<Row> {
        verdicts
            .iter()
            .map(|v| Row::new(&entry("1", "s", Some(Status::Done)), v.clone()))
            .collect()
    }

    #[test]
    fn the_summary_counts_pass_and_fail_and_says_what_was_not_replayed() {
        let fail = Verdict::Fail("status: expected done".into());
        let three = rows(&[Verdict::Pass, fail.clone(), Verdict::Pass]);
        assert_eq!(
            summary(&three, 3, false),
            "3 kept runs replayed: 2 pass, 1 fail"
        );
        assert_eq!(
            summary(&rows(&[Verdict::Pass]), 1, false),
            "1 kept run replayed: 1 pass, 0 fail"
        );
        let with_hole = rows(&[Verdict::Pass, Verdict::NotReplayed("why".into()), fail]);
        assert_eq!(
            summary(&with_hole, 3, false),
            "3 kept runs checked: 1 pass, 1 fail, 1 could not be replayed"
        );
        assert_eq!(
            summary(&rows(&[Verdict::Pass]), 3, true),
            "Stopped after 1 of 3 kept runs: 1 pass, 0 fail"
        );
        assert_eq!(
            summary(&[], 2, true),
            "Stopped after 0 of 2 kept runs: 0 pass, 0 fail"
        );
    }

    #[test]
    fn progress_counts_the_run_being_replayed_then_the_line_becomes_the_summary() {
        let mut batch = Batch {
            scenario: "Refund".into(),
            kept: 4,
            total: 3,
            rows: vec![],
            running: true,
            stopped: false,
        };
        assert_eq!(batch.status_line(), "Replaying 1 of 3…");
        assert_eq!(
            batch.found(),
            "Scenario in the editor: “Refund”. Found 3 kept runs of it (of 4 kept)."
        );
        batch.rows = rows(&[Verdict::Pass]);
        assert_eq!(batch.status_line(), "Replaying 2 of 3…");
        batch.rows = rows(&[Verdict::Pass, Verdict::Pass, Verdict::Pass]);
        batch.running = false;
        assert_eq!(batch.status_line(), "3 kept runs replayed: 3 pass, 0 fail");
    }
}
