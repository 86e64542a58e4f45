//! What the "Run state" panel shows beside the trace: the facts tool results
//! have confirmed (seed 002 keeps confirmed ids such as the chosen hotel_id
//! apart from the conversation), and the state of the built-in tools'
//! stores, as the last write left it or as every run starts.

use harness::event::{EventKind, RunEvent};
use harness::facts::{self, Fact};
use harness::tools;
use serde_json::Value;

use crate::run::view_model::pretty;

/// What the panel knows about the run in view, kept up to date one event at
/// a time (`observe`): a run of thousands of turns must not parse every
/// earlier tool result again on each new event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunStateBook {
    facts: Vec<Fact>,
    /// The stores the run's tools use, in the order the tools were listed,
    /// each with its last reported write, if any.
    stores: Vec<(&'static str, Option<Write>)>,
}

#[derive(Clone, Debug, PartialEq)]
struct Write {
    seq: u64,
    tool: String,
    refused: bool,
    state: Value,
}

impl RunStateBook {
    pub fn from_events(events: &[RunEvent]) -> Self {
        let mut book = Self::default();
        for event in events {
            book.observe(event);
        }
        book
    }

    /// Takes in one event; says whether the panel has anything new to show.
    pub fn observe(&mut self, event: &RunEvent) -> bool {
        match &event.kind {
            EventKind::RunStarted { tools, .. } => {
                self.stores.clear();
                for store in tools.iter().filter_map(|t| tools::store_of(t)) {
                    if !self.stores.iter().any(|(s, _)| *s == store) {
                        self.stores.push((store, None));
                    }
                }
                !self.stores.is_empty()
            }
            EventKind::ToolResult {
                name,
                state,
                is_error,
                ..
            } => {
                let new_fact = facts::observe(&mut self.facts, event);
                let Some(state) = state else {
                    return new_fact;
                };
                let written = tools::store_of(name)
                    .and_then(|store| self.stores.iter_mut().find(|(s, _)| *s == store));
                match written {
                    Some((_, last)) => {
                        *last = Some(Write {
                            seq: event.seq,
                            tool: name.clone(),
                            refused: *is_error,
                            state: state.clone(),
                        });
                        true
                    }
                    None => new_fact,
                }
            }
            _ => false,
        }
    }
}

/// One confirmed id: `hotel_id = h_101`, from `search_hotels` at event 7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactRow {
    pub name: String,
    pub value: String,
    pub source: String,
}

pub fn fact_rows(book: &RunStateBook) -> Vec<FactRow> {
    book.facts
        .iter()
        .map(|fact| FactRow {
            source: format!("from {} (event {})", fact.tool, fact.seq),
            name: fact.name.clone(),
            value: fact.value.clone(),
        })
        .collect()
}

/// A store of the run's built-in tools.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreView {
    /// "orders" or "shop".
    pub store: &'static str,
    /// Pretty JSON.
    pub state: String,
    /// Where the state comes from: the seed, or the last call that reported it.
    pub caption: String,
}

/// The stores the run's tools use, in the order the tools were listed.
pub fn stores(book: &RunStateBook) -> Vec<StoreView> {
    book.stores
        .iter()
        .filter_map(|(store, last_write)| {
            Some(match last_write {
                Some(write) => StoreView {
                    store,
                    state: pretty(&write.state),
                    caption: if write.refused {
                        format!(
                            "after {} at event {}, which was refused: unchanged by it",
                            write.tool, write.seq
                        )
                    } else {
                        format!("after {} at event {}", write.tool, write.seq)
                    },
                },
                None => StoreView {
                    store,
                    state: pretty(&tools::seed_state(store)?),
                    caption: "as every run starts: no write yet".to_string(),
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ev(seq: u64, kind: EventKind) -> RunEvent {
        RunEvent { seq, t_ms: 0, kind }
    }

    fn started(tools: &[&str]) -> RunEvent {
        serde_json::from_value(json!({"seq": 0, "t_ms": 0, "type": "run_started",
            "scenario": "s", "model": "m", "approval": "ask", "tools": tools,
            "limits": {}, "task": "t"}))
        .expect("a run_started event")
    }

    fn result(
        seq: u64,
        name: &str,
        content: &str,
        is_error: bool,
        state: Option<serde_json::Value>,
    ) -> RunEvent {
        ev(
            seq,
            EventKind::ToolResult {
                by_person: false,
                id: format!("c{seq}"),
                name: name.into(),
                content: content.into(),
                is_error,
                latency_ms: 0,
                state,
                fate: None,
                media: Vec::new(),
            },
        )
    }

    #[test]
    fn a_store_starts_from_its_seed_and_follows_the_last_write() {
        let start = started(&["get_order_status", "issue_refund", "get_time"]);
        let before = stores(&RunStateBook::from_events(std::slice::from_ref(&start)));
        assert_eq!(before.len(), 1, "get_time keeps no store");
        assert_eq!(before[0].store, "orders");
        assert!(before[0].caption.contains("no write yet"));
        assert!(
            before[0].state.contains("\"refunds_issued\": 0"),
            "{}",
            before[0].state
        );

        let after = stores(&RunStateBook::from_events(&[
            start.clone(),
            result(
                5,
                "issue_refund",
                "{}",
                false,
                Some(json!({"refunds_issued": 1})),
            ),
            result(
                7,
                "issue_refund",
                "tool error: twice",
                true,
                Some(json!({"refunds_issued": 1})),
            ),
        ]));
        assert_eq!(
            after[0].caption,
            "after issue_refund at event 7, which was refused: unchanged by it"
        );
        assert!(after[0].state.contains("\"refunds_issued\": 1"));
    }

    #[test]
    fn facts_name_their_tool_and_event() {
        let rows = fact_rows(&RunStateBook::from_events(&[result(
            3,
            "search_hotels",
            r#"{"hotels":[{"hotel_id":"h_101","name":"Inn"}]}"#,
            false,
            None,
        )]));
        assert_eq!(
            rows,
            vec![FactRow {
                name: "hotel_id".into(),
                value: "h_101".into(),
                source: "from search_hotels (event 3)".into()
            }]
        );
    }

    #[test]
    fn the_book_reports_only_what_changes_the_panel() {
        let mut book = RunStateBook::default();
        assert!(book.observe(&started(&["get_order", "refund_order"])));
        assert!(!book.observe(&result(1, "get_order", r#"{"ok":true}"#, false, None)));
        assert!(book.observe(&result(2, "get_order", r#"{"order_id":"A1"}"#, false, None)));
        assert!(
            !book.observe(&result(3, "get_order", r#"{"order_id":"A1"}"#, false, None)),
            "an id seen before is not a new fact"
        );
        assert!(!book.observe(&result(4, "get_order", r#"{"order_id":"B2"}"#, true, None)));
        assert!(book.observe(&result(
            5,
            "refund_order",
            "{}",
            false,
            Some(json!({"refunded": ["A1"]}))
        )));
        assert_eq!(fact_rows(&book).len(), 1);
        assert_eq!(stores(&book)[0].caption, "after refund_order at event 5");
    }
}
