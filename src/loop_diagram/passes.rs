//! What a node or an edge picked on the drawing passed: its events, one of
//! which the trace shows at a time ("pass 3 of 40", Previous, Next).

use super::{EdgeKey, LoopDiagram, NodeId};

/// What the person picked on the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Node(NodeId),
    Edge(EdgeKey),
}

/// A picked node or edge, its events in run order so far, and the one shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Passes {
    /// The node's label, or "from → to" for an edge.
    pub what: String,
    pub events: Vec<u64>,
    /// Index into `events` of the event the trace shows.
    pub at: usize,
}

impl Passes {
    /// What `pick` has passed in the run as drawn now, showing pass `at`
    /// (the last one if the run has not passed that often).
    pub fn of(diagram: &LoopDiagram, pick: Pick, at: usize) -> Option<Passes> {
        let (what, events) = match pick {
            Pick::Node(id) => {
                let node = diagram.node(id)?;
                (node.label.clone(), node.events.clone())
            }
            Pick::Edge(key) => {
                let edge = diagram.edge(key.from, key.to)?;
                let label = |id| {
                    diagram
                        .node(id)
                        .map_or_else(String::new, |n| n.label.clone())
                };
                (
                    format!("{} → {}", label(key.from), label(key.to)),
                    edge.events.clone(),
                )
            }
        };
        let at = at.min(events.len().saturating_sub(1));
        Some(Passes { what, events, at })
    }

    /// The `seq` of the event shown, if the run passed here at all.
    pub fn shown(&self) -> Option<u64> {
        self.events.get(self.at).copied()
    }

    pub fn has_previous(&self) -> bool {
        self.at > 0
    }

    pub fn has_next(&self) -> bool {
        self.at + 1 < self.events.len()
    }

    /// One line: what was picked, how often the run passed it, and which
    /// pass the trace shows.
    pub fn summary(&self) -> String {
        match self.events.len() {
            0 => format!("{}: this run has not passed here.", self.what),
            1 => format!("{}: passed once; the trace shows it.", self.what),
            n => format!(
                "{}: passed {n} times; the trace shows pass {} of {n}.",
                self.what,
                self.at + 1
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes(events: Vec<u64>) -> Passes {
        Passes {
            what: "Call the model".into(),
            events,
            at: 0,
        }
    }

    #[test]
    fn says_which_pass_the_trace_shows() {
        let mut p = passes(vec![3, 9, 15]);
        assert_eq!(p.shown(), Some(3));
        assert!(!p.has_previous() && p.has_next());
        p.at = 2;
        assert_eq!(p.shown(), Some(15));
        assert!(p.has_previous() && !p.has_next());
        assert_eq!(
            p.summary(),
            "Call the model: passed 3 times; the trace shows pass 3 of 3."
        );
    }

    #[test]
    fn says_when_the_run_never_passed() {
        let p = passes(vec![]);
        assert_eq!(p.shown(), None);
        assert_eq!(p.summary(), "Call the model: this run has not passed here.");
        assert_eq!(
            passes(vec![4]).summary(),
            "Call the model: passed once; the trace shows it."
        );
    }
}
