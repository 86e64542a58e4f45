//! Side-by-side comparison of two runs: a pair of built-ins (a pitfall's
//! naive and fixed scenarios, or a tool-schema pair's A and B), a scenario
//! and a variant of its tools (A/B), or a run and its fork. The rows pair the
//! two runs step by step (`steps`: a model call with its response, a tool
//! call with its validation, approval and result), aligned by turn and
//! position within the turn; the first row whose steps differ (compared as
//! `harness::fork::step_key` does: tool arguments, results and the model's
//! text, not timings or token counts) is the divergence the page highlights,
//! scrolls to and says in plain words (`words`).
//!
//! The Compare panel's state is a plain model (`model`), held by its
//! adapter (`state`) and drawn by `view`.

pub mod change;
pub mod fields;
pub mod model;
pub mod repeats;
pub mod state;
mod steps;
pub mod variant_b;
pub mod view;
mod words;

pub use steps::{StepKey, StepKind};

use harness::event::{EventKind, RunEvent, Status};
use harness::fork::{fork_points, ForkPoint};
use harness::message::ContentBlock;
use harness::replay::Record;
use harness::run::usd;

use crate::run::turn_view::{self, EventType};
use crate::run::view_model::{self, Tone};

/// One run of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// "A", "naive: cost-limit-naive", "fork from before turn 2", ...
    pub label: String,
    /// The run with the scenario it ran (and, for a fork, where it forked),
    /// so each column can be exported as a record.
    pub record: Record,
    /// This side is the run in the Trace (a fork's parent), so its steps can
    /// be shown there.
    pub in_trace: bool,
}

impl Side {
    pub fn new(label: impl Into<String>, record: Record) -> Self {
        Side {
            label: label.into(),
            record,
            in_trace: false,
        }
    }

    /// The run in the Trace, as one side of a comparison.
    pub fn of_trace(label: impl Into<String>, record: Record) -> Self {
        Side {
            in_trace: true,
            ..Side::new(label, record)
        }
    }

    pub fn events(&self) -> &[RunEvent] {
        &self.record.events
    }
}

/// A comparison's runs: each side run once, or N times with a provider.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Compared {
    pub left: Vec<Side>,
    pub right: Vec<Side>,
}

/// Where a row stands relative to the first divergence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Both runs took this step the same way.
    Same,
    /// The first step the runs took differently.
    Divergence,
    /// After the runs parted: the rows are side by side, no longer the same step.
    After,
}

impl Place {
    pub fn class(self) -> &'static str {
        match self {
            Place::Same => "same",
            Place::Divergence => "divergence",
            Place::After => "after",
        }
    }
}

/// One event of one side, as a row cell shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub seq: u64,
    pub kind: EventType,
    pub tone: Tone,
    pub title: String,
    /// The event's arguments, result or text on one line, clipped.
    pub detail: Option<String>,
}

/// One step of one side: its events, as one row cell shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct StepCell {
    pub kind: StepKind,
    pub events: Vec<Cell>,
}

impl StepCell {
    /// The seqs of the step's events, for `data-seqs` (what a loop diagram's
    /// node finds its step by).
    pub fn seqs(&self) -> String {
        self.events
            .iter()
            .map(|c| c.seq.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row's position: "step N" is `index + 1`.
    pub index: usize,
    /// Where both sides' steps sit in their runs.
    pub key: StepKey,
    pub left: Option<StepCell>,
    pub right: Option<StepCell>,
    pub place: Place,
}

/// The longest detail a cell shows; the full text is in each run's own trace.
const DETAIL_CHARS: usize = 160;

/// Both runs' steps aligned, and the row where they first differ.
struct Aligned {
    rows: Vec<(Option<steps::Step>, Option<steps::Step>)>,
    divergence: Option<usize>,
}

fn aligned(left: &[RunEvent], right: &[RunEvent]) -> Aligned {
    let rows = steps::align(steps::steps(left), steps::steps(right));
    let divergence = steps::first_divergent(&rows, left, right);
    Aligned { rows, divergence }
}

pub fn rows(left: &[RunEvent], right: &[RunEvent]) -> Vec<Row> {
    let Aligned { rows, divergence } = aligned(left, right);
    let step_cell = |step: Option<steps::Step>, events: &[RunEvent]| {
        step.map(|step| StepCell {
            kind: step.kind,
            events: step
                .events
                .iter()
                .filter_map(|&i| cell(&events[i]))
                .collect(),
        })
    };
    rows.into_iter()
        .enumerate()
        .map(|(index, (l, r))| Row {
            index,
            key: l.as_ref().or(r.as_ref()).map_or(StepKey::End, |s| s.key),
            left: step_cell(l, left),
            right: step_cell(r, right),
            place: match divergence {
                Some(at) if index == at => Place::Divergence,
                Some(at) if index > at => Place::After,
                _ => Place::Same,
            },
        })
        .collect()
}

fn cell(event: &RunEvent) -> Option<Cell> {
    let item = turn_view::card_item(event)?;
    let detail = match &event.kind {
        // The calls a response makes are what usually differs; show them
        // with their arguments after the text.
        EventKind::ModelResponse { content, .. } => {
            let mut parts: Vec<String> = Vec::new();
            for block in content {
                match block {
                    ContentBlock::Text { text } if !text.trim().is_empty() => {
                        parts.push(text.trim().to_string())
                    }
                    ContentBlock::ToolUse(call) => {
                        parts.push(format!("→ {}({})", call.name, call.input))
                    }
                    _ => {}
                }
            }
            (!parts.is_empty()).then(|| one_line(&parts.join(" ")))
        }
        _ => item
            .body
            .as_deref()
            .or(item.lines.first().map(String::as_str))
            .map(one_line),
    };
    Some(Cell {
        seq: event.seq,
        kind: item.kind,
        tone: item.tone,
        title: item.title,
        detail,
    })
}

fn one_line(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > DETAIL_CHARS {
        let mut clipped: String = flat.chars().take(DETAIL_CHARS).collect();
        clipped.push('…');
        clipped
    } else {
        flat
    }
}

/// What differs between the two sides' scenarios (see `change`), or `None`
/// when a side has no scenario to compare (a bare trace).
pub fn scenario_changes(left: &Side, right: &Side) -> Option<Vec<change::Change>> {
    let json = |side: &Side| {
        side.record
            .scenario
            .as_ref()
            .and_then(|s| serde_json::to_value(s).ok())
    };
    Some(change::between(&json(left)?, &json(right)?))
}

/// The sentence above the columns: the first step where the runs part, in
/// plain words, or that they do not.
pub fn summary(left: &Side, right: &Side) -> String {
    let Aligned { rows, divergence } = aligned(left.events(), right.events());
    let Some(at) = divergence else {
        // Two copies of one scenario (A/B before B is edited) changed nothing.
        if scenario_changes(left, right).is_some_and(|changes| changes.is_empty()) {
            return format!(
                "{} and {} ran the same scenario (names and lessons aside) and took the same {} steps.",
                left.label,
                right.label,
                rows.len()
            );
        }
        return format!(
            "{} and {} took the same {} steps: this change made no difference to what the agent did.",
            left.label,
            right.label,
            rows.len()
        );
    };
    let (l, r) = &rows[at];
    let key = l.as_ref().or(r.as_ref()).map_or(StepKey::End, |s| s.key);
    let words = words::divergence(
        key,
        words::Said {
            label: &left.label,
            step: l.as_ref(),
            events: left.events(),
        },
        words::Said {
            label: &right.label,
            step: r.as_ref(),
            events: right.events(),
        },
    );
    format!("The runs part at step {}. {words}.", at + 1)
}

/// Where the Trace shows the first step at which the runs part: the row's
/// step number, and the left run's event there (the first of the step's
/// events that differs from the right run's, else the step's first) with
/// its position in that run's trace. `None` when the left side is not the
/// run in the Trace, the runs do not part, or the left run did not take
/// that step.
pub fn divergence_in_trace(left: &Side, right: &Side) -> Option<(usize, usize, RunEvent)> {
    if !left.in_trace {
        return None;
    }
    let Aligned { rows, divergence } = aligned(left.events(), right.events());
    let at = divergence?;
    let (l, r) = &rows[at];
    let l = l.as_ref()?;
    let theirs = r
        .as_ref()
        .map(|r| r.signature(right.events()))
        .unwrap_or_default();
    let differs = l
        .signature(left.events())
        .iter()
        .zip(theirs.iter().map(Some).chain(std::iter::repeat(None)))
        .position(|(mine, theirs)| Some(mine) != theirs)
        .unwrap_or(0);
    let index = l.events[differs];
    Some((at + 1, index, left.events().get(index)?.clone()))
}

/// The steps a run can be forked from (`harness::fork::fork_points`), each
/// with the turn it belongs to, so a long run's picker can list one turn's.
pub fn fork_points_by_turn(events: &[RunEvent]) -> Vec<(u32, ForkPoint)> {
    // Every fork point is a model request or a tool call, both in order.
    let mut turns = events.iter().filter_map(|e| match &e.kind {
        EventKind::ModelRequest { turn, .. } | EventKind::ToolCall { turn, .. } => {
            Some((e.seq, *turn))
        }
        _ => None,
    });
    fork_points(events)
        .into_iter()
        .map(|point| {
            let turn = turns
                .find(|(seq, _)| *seq == point.seq)
                .map_or(0, |(_, turn)| turn);
            (turn, point)
        })
        .collect()
}

/// The step a fork asked from the event `seq` starts from: the last fork
/// point at or before it (a card's request is one; a tool result goes on
/// from the call it answers), else the first.
pub fn fork_point_at(points: &[(u32, ForkPoint)], seq: u64) -> Option<ForkPoint> {
    points
        .iter()
        .rev()
        .find(|(_, p)| p.seq <= seq)
        .or(points.first())
        .map(|(_, p)| p.clone())
}

/// A column's header line: status, turns, tool calls and cost.
pub fn side_stats(events: &[RunEvent]) -> String {
    match view_model::outcome_of(events) {
        Some(outcome) => format!(
            "{} · {} turn{} · {} tool call{} · {}",
            outcome.status,
            outcome.turns,
            if outcome.turns == 1 { "" } else { "s" },
            outcome.tool_calls,
            if outcome.tool_calls == 1 { "" } else { "s" },
            usd(outcome.cost_usd)
        ),
        None => "did not finish".to_string(),
    }
}

/// A file name for a side's export: `fork-before-turn-2.jsonl`.
pub fn file_name(label: &str) -> String {
    let mut name = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    format!("{}.jsonl", if name.is_empty() { "run" } else { name })
}

/// The status a side ended with, for the column's `data-status`.
pub fn side_status(events: &[RunEvent]) -> Option<Status> {
    events.iter().rev().find_map(|e| match &e.kind {
        EventKind::RunFinished(outcome) => Some(outcome.status),
        _ => None,
    })
}

/// Problems of one side of a comparison, each prefixed with the side's
/// label, so a list of both sides' problems says which is which.
pub fn prefixed(side: &str, problems: &[String]) -> Vec<String> {
    problems.iter().map(|p| format!("{side}: {p}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;
    use harness::library;
    use std::rc::Rc;

    fn record(events: Vec<RunEvent>) -> Record {
        Record {
            scenario: None,
            events,
            forked_at: None,
        }
    }

    fn run(id: &str) -> Vec<RunEvent> {
        let json = library::find(id).unwrap().json();
        let scenario = harness::scenario::Scenario::load(json).unwrap();
        let mut events = Vec::new();
        let outcome = harness::run_scenario(
            &scenario,
            Rc::new(harness::instant::StillClock),
            harness::RunOptions::default(),
            &mut |e: &RunEvent| events.push(e.clone()),
        )
        .now_or_never();
        assert!(
            matches!(outcome, Some(Ok(_))),
            "{id} did not finish at once"
        );
        events
    }

    #[test]
    fn a_description_with_an_example_parts_at_the_call_it_shaped() {
        let a = run("rules-with-example");
        let b = run("rules-without-example");
        let rows = rows(&a, &b);
        let at = rows
            .iter()
            .position(|r| r.place == Place::Divergence)
            .expect("the runs differ");
        assert!(rows[..at].iter().all(|r| r.place == Place::Same));
        assert!(rows[at + 1..].iter().all(|r| r.place == Place::After));
        // Step 1 is the start, step 2 the first model call: where the id is chosen.
        assert_eq!(at, 1);
        assert_eq!(
            rows[at].key,
            StepKey::Turn {
                turn: 1,
                position: 0
            }
        );
        let left = rows[at].left.as_ref().unwrap();
        let right = rows[at].right.as_ref().unwrap();
        assert_eq!(left.kind, StepKind::ModelCall);
        let kinds: Vec<EventType> = left.events.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, [EventType::ModelRequest, EventType::ModelResponse]);
        assert!(left.events[1].detail.as_deref().unwrap().contains("A1001"));
        assert!(right.events[1]
            .detail
            .as_deref()
            .unwrap()
            .contains("ORD-1001"));

        let text = summary(&Side::new("A", record(a)), &Side::new("B", record(b)));
        assert_eq!(
            text,
            "The runs part at step 2. In turn 1, A called get_order with order_id \"A1001\"; B with order_id \"ORD-1001\"."
        );
    }

    #[test]
    fn identical_runs_say_the_change_made_no_difference() {
        let a = run("get-time");
        let b = run("get-time");
        assert!(rows(&a, &b).iter().all(|r| r.place == Place::Same));
        let text = summary(
            &Side::new("A", record(a.clone())),
            &Side::new("B", record(b)),
        );
        // Start, two model calls, one tool call, the end.
        assert_eq!(
            text,
            "A and B took the same 5 steps: this change made no difference to what the agent did."
        );
        assert!(side_stats(&a).starts_with("done · "), "{}", side_stats(&a));
        assert_eq!(side_status(&a), Some(Status::Done));
    }

    #[test]
    fn the_same_scenario_twice_is_not_called_a_change() {
        let scenario =
            harness::scenario::Scenario::load(library::find("get-time").unwrap().json()).unwrap();
        let side = |label: &str| {
            let mut record = record(run("get-time"));
            record.scenario = Some(scenario.clone());
            Side::new(label, record)
        };
        assert_eq!(
            summary(&side("A"), &side("B")),
            "A and B ran the same scenario (names and lessons aside) and took the same 5 steps."
        );
    }

    #[test]
    fn a_shorter_run_leaves_its_column_empty_where_it_took_no_step() {
        let a = run("turn-limit");
        let b = run("get-time");
        let rows = rows(&a, &b);
        // Each run's events are in its column once, in order.
        for (side, events) in [(0, &a), (1, &b)] {
            let seqs: Vec<u64> = rows
                .iter()
                .filter_map(|r| {
                    if side == 0 {
                        r.left.as_ref()
                    } else {
                        r.right.as_ref()
                    }
                })
                .flat_map(|c| c.events.iter().map(|e| e.seq))
                .collect();
            assert_eq!(seqs, events.iter().map(|e| e.seq).collect::<Vec<_>>());
        }
        // Both ends share the last row, whatever the turns between.
        let last = rows.last().unwrap();
        assert_eq!(last.key, StepKey::End);
        assert!(last.left.is_some() && last.right.is_some());
        // get-time ends in turn 2; turn-limit's later turns face empty cells.
        assert!(rows
            .iter()
            .filter(|r| r.key.turn().is_some_and(|t| t > 2))
            .all(|r| r.left.is_some() && r.right.is_none()));
        let text = summary(&Side::new("A", record(a)), &Side::new("B", record(b)));
        assert!(text.starts_with("The runs part at step "), "{text}");
    }

    #[test]
    fn export_names_are_safe_file_names() {
        assert_eq!(file_name("fork before turn 2"), "fork-before-turn-2.jsonl");
        assert_eq!(
            file_name("naive: cost-limit-naive"),
            "naive-cost-limit-naive.jsonl"
        );
        assert_eq!(file_name("«»"), "run.jsonl");
    }

    #[test]
    fn long_details_are_clipped_to_one_line() {
        let text = format!("{}\n{}", "x".repeat(200), "y");
        let line = one_line(&text);
        assert!(!line.contains('\n'));
        assert_eq!(line.chars().count(), DETAIL_CHARS + 1);
    }

    #[test]
    fn the_trace_shows_the_divergence_only_when_its_run_is_a_side() {
        let a = run("rules-without-example");
        let b = run("rules-with-example");
        let parent = Side::of_trace("parent", record(a.clone()));
        let fork = Side::new("fork", record(b.clone()));
        // Step 2 is turn 1's model call; its request is the same in both
        // runs, its response is where they part.
        let response = a
            .iter()
            .position(|e| matches!(e.kind, EventKind::ModelResponse { .. }))
            .unwrap();
        assert_eq!(
            divergence_in_trace(&parent, &fork),
            Some((2, response, a[response].clone()))
        );
        // An A/B comparison: neither side is in the Trace.
        let plain = Side::new("A", record(a.clone()));
        assert_eq!(divergence_in_trace(&plain, &fork), None);
        // The same run twice does not part.
        let same = Side::new("B", record(a));
        assert_eq!(divergence_in_trace(&parent, &same), None);
    }

    #[test]
    fn each_fork_point_knows_its_turn() {
        let events = run("turn-limit");
        let points = fork_points_by_turn(&events);
        assert_eq!(
            points.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(),
            fork_points(&events)
        );
        let labels: Vec<(u32, &str)> = points.iter().map(|(t, p)| (*t, p.label.as_str())).collect();
        assert_eq!(labels[0], (1, "before turn 1"));
        assert!(labels.contains(&(3, "before turn 3")), "{labels:?}");
        // A tool call is in the turn whose response asked for it.
        for (turn, point) in &points {
            if let Some(call) = point.label.strip_prefix("before tool call ") {
                let request = points
                    .iter()
                    .rev()
                    .find(|(_, p)| p.seq < point.seq && p.label.starts_with("before turn"))
                    .expect("a turn before the call");
                assert_eq!(request.0, *turn, "{call}");
            }
        }
    }
}
