//! Side-by-side comparison of two runs: a pitfall's naive and fixed
//! scenarios, a scenario and a variant of its tools (A/B), or a run and its
//! fork. The rows pair the two traces event by event; the first pair whose
//! steps differ (`harness::fork::first_divergence`, which compares tool
//! arguments, results and the model's text, not timings or token counts) is
//! the divergence the page highlights and scrolls to.

use harness::event::{EventKind, RunEvent, Status};
use harness::fork::{first_divergence, fork_points, ForkPoint};
use harness::message::ContentBlock;
use harness::replay::Record;
use harness::run::usd;

use crate::turn_view::{self, EventType};
use crate::view_model::{self, Tone};

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
    pub kind: EventType,
    pub tone: Tone,
    pub title: String,
    /// The event's arguments, result or text on one line, clipped.
    pub detail: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Position in both traces (the rows pair events by index).
    pub index: usize,
    pub left: Option<Cell>,
    pub right: Option<Cell>,
    pub place: Place,
}

/// The longest detail a cell shows; the full text is in each run's own trace.
const DETAIL_CHARS: usize = 160;

pub fn rows(left: &[RunEvent], right: &[RunEvent]) -> Vec<Row> {
    let divergence = first_divergence(left, right).map(|d| d.index);
    (0..left.len().max(right.len()))
        .map(|index| Row {
            index,
            left: left.get(index).and_then(cell),
            right: right.get(index).and_then(cell),
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

/// The sentence above the columns: where the runs part, or that they do not.
pub fn summary(left: &Side, right: &Side) -> String {
    let Some(divergence) = first_divergence(left.events(), right.events()) else {
        return format!(
            "{} and {} took the same {} steps: this change made no difference to what the agent did.",
            left.label,
            right.label,
            left.events().len()
        );
    };
    let describe = |side: &Side| {
        side.events()
            .get(divergence.index)
            .and_then(cell)
            .map(|c| match c.detail {
                Some(detail) => format!("{}: {detail}", c.title),
                None => c.title,
            })
            .unwrap_or_else(|| "(its run had already ended)".to_string())
    };
    format!(
        "The runs part at step {}. {}: {}. {}: {}.",
        divergence.index + 1,
        left.label,
        describe(left),
        right.label,
        describe(right)
    )
}

/// Where the Trace shows the first step at which the runs part: the step's
/// position in the left run's trace (the run in the Trace) and its event,
/// `None` when the left side is not the run in the Trace, the runs do not
/// part, or the left run had ended before that step.
pub fn divergence_in_trace(left: &Side, right: &Side) -> Option<(usize, RunEvent)> {
    if !left.in_trace {
        return None;
    }
    let index = first_divergence(left.events(), right.events())?.index;
    Some((index, left.events().get(index)?.clone()))
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
        let left = rows[at].left.as_ref().unwrap();
        let right = rows[at].right.as_ref().unwrap();
        assert_eq!(left.kind, EventType::ModelResponse);
        assert!(
            left.detail.as_deref().unwrap().contains("A1001"),
            "{left:?}"
        );
        assert!(
            right.detail.as_deref().unwrap().contains("ORD-1001"),
            "{right:?}"
        );

        let text = summary(&Side::new("A", record(a)), &Side::new("B", record(b)));
        assert!(
            text.starts_with(&format!("The runs part at step {}.", at + 1)),
            "{text}"
        );
        assert!(
            text.contains("A1001") && text.contains("ORD-1001"),
            "{text}"
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
        assert!(text.contains("made no difference"), "{text}");
        assert!(side_stats(&a).starts_with("done · "), "{}", side_stats(&a));
        assert_eq!(side_status(&a), Some(Status::Done));
    }

    #[test]
    fn a_shorter_run_leaves_its_column_empty_after_its_end() {
        let a = run("turn-limit");
        let b = run("get-time");
        let rows = rows(&a, &b);
        assert_eq!(rows.len(), a.len().max(b.len()));
        let short = a.len().min(b.len());
        assert!(rows[short..]
            .iter()
            .all(|r| r.left.is_none() || r.right.is_none()));
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
        let index = rows(&a, &b)
            .iter()
            .position(|r| r.place == Place::Divergence)
            .expect("the runs differ");
        let parent = Side::of_trace("parent", record(a.clone()));
        let fork = Side::new("fork", record(b.clone()));
        assert_eq!(
            divergence_in_trace(&parent, &fork),
            Some((index, a[index].clone()))
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
