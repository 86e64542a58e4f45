//! The one producer of run events. Every trace, whether run (`Run`) or read
//! back from a record of a run elsewhere (a provider transcript, an
//! OpenTelemetry trace), is written through a `TraceWriter`: it numbers the
//! events in order from 0 and counts what became of each tool call the way
//! `run_finished` reports it. A test (`tests/one_producer.rs`) fails when
//! code outside this module makes a `RunEvent` of its own.

use super::tally::ToolCallTally;
use super::{EventKind, RunEvent};

#[derive(Clone, Debug, Default)]
pub struct TraceWriter {
    /// Written and not yet handed over (see `drain`).
    pending: Vec<RunEvent>,
    next_seq: u64,
    tally: ToolCallTally,
}

impl TraceWriter {
    pub fn new() -> Self {
        Self::default()
    }

    /// A writer that goes on after `prefix`, a recorded run's first events
    /// (a fork): its numbering and its tally continue theirs; the prefix
    /// itself is not written again.
    pub fn after(prefix: &[RunEvent]) -> Self {
        let mut tally = ToolCallTally::default();
        prefix.iter().for_each(|event| tally.apply(event));
        TraceWriter {
            pending: Vec::new(),
            next_seq: prefix.last().map_or(0, |e| e.seq + 1),
            tally,
        }
    }

    /// Writes the next event, at `t_ms` since the run started.
    pub fn push(&mut self, t_ms: u64, kind: EventKind) {
        let event = RunEvent {
            seq: self.next_seq,
            t_ms,
            kind,
        };
        self.tally.apply(&event);
        self.pending.push(event);
        self.next_seq += 1;
    }

    /// Hands over the events written since the last call; numbering goes on.
    pub fn drain(&mut self) -> std::vec::Drain<'_, RunEvent> {
        self.pending.drain(..)
    }

    /// The events not yet handed over.
    pub fn pending(&self) -> &[RunEvent] {
        &self.pending
    }

    /// The latest time written so far (0 before any event).
    pub fn last_ms(&self) -> u64 {
        self.pending.iter().map(|e| e.t_ms).max().unwrap_or(0)
    }

    /// What became of the calls written so far.
    pub fn tally(&self) -> &ToolCallTally {
        &self.tally
    }

    /// Every event not yet handed over, ending the writing.
    pub fn into_events(self) -> Vec<RunEvent> {
        self.pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{EventKind, ResultFate};

    fn result(id: &str) -> EventKind {
        EventKind::ToolResult {
            id: id.into(),
            name: "get_time".into(),
            content: "12:00".into(),
            is_error: false,
            latency_ms: 1,
            state: None,
            by_person: false,
            fate: Some(ResultFate::Ran),
            media: Vec::new(),
        }
    }

    #[test]
    fn events_are_numbered_in_order_across_drains() {
        let mut trace = TraceWriter::new();
        trace.push(0, result("a"));
        trace.push(5, result("b"));
        let first: Vec<u64> = trace.drain().map(|e| e.seq).collect();
        assert_eq!(first, [0, 1]);
        trace.push(9, result("c"));
        assert_eq!(trace.last_ms(), 9);
        let rest: Vec<u64> = trace.into_events().iter().map(|e| e.seq).collect();
        assert_eq!(rest, [2]);
    }
}
