//! A comparison run N times a side with a real model: what each run did,
//! counted. A run is summed up by the tools it called, in order, and how it
//! ended, so "how often did B call the wrong tool" is one row of a table.
//!
//! Invariant: pure, no signals or DOM; tested natively (tests/compare_pairs.rs).

use harness::event::{EventKind, RunEvent};

use super::{side_status, Side};

/// One way a run went, and how many runs of each side went that way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Way {
    /// "get_order → refund_order", or "(no tool calls)".
    pub tools: String,
    /// The run's status word, or "unfinished".
    pub status: String,
    pub a: usize,
    pub b: usize,
}

/// The tools a run called, in order, as one line.
pub fn tool_sequence(events: &[RunEvent]) -> String {
    let names: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolCall { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    if names.is_empty() {
        "(no tool calls)".to_string()
    } else {
        names.join(" → ")
    }
}

/// Every way the runs went, most frequent first (ties in the order first
/// seen, A's runs before B's).
pub fn ways(a: &[Side], b: &[Side]) -> Vec<Way> {
    let mut ways: Vec<Way> = Vec::new();
    for (side, runs) in [(0, a), (1, b)] {
        for run in runs {
            let tools = tool_sequence(run.events());
            let status = side_status(run.events()).map_or("unfinished", |s| s.as_str());
            let index = match ways
                .iter()
                .position(|w| w.tools == tools && w.status == status)
            {
                Some(index) => index,
                None => {
                    ways.push(Way {
                        tools,
                        status: status.to_string(),
                        a: 0,
                        b: 0,
                    });
                    ways.len() - 1
                }
            };
            if side == 0 {
                ways[index].a += 1;
            } else {
                ways[index].b += 1;
            }
        }
    }
    // A stable sort keeps first-seen order among equals.
    ways.sort_by_key(|w| std::cmp::Reverse(w.a + w.b));
    ways
}

/// "3 of 5", the count a table cell shows.
pub fn share(count: usize, runs: usize) -> String {
    format!("{count} of {runs}")
}
