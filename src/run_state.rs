//! What the "Run state" panel shows beside the trace: the facts tool results
//! have confirmed (seed 002 keeps confirmed ids such as the chosen hotel_id
//! apart from the conversation), and the state of the built-in tools'
//! stores, as the last write left it or as every run starts.

use harness::event::{EventKind, RunEvent};
use harness::facts;
use harness::tools;

use crate::view_model::pretty;

/// One confirmed id: `hotel_id = h_101`, from `search_hotels` at event 7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactRow {
    pub name: String,
    pub value: String,
    pub source: String,
}

pub fn fact_rows(events: &[RunEvent]) -> Vec<FactRow> {
    facts::confirmed(events)
        .into_iter()
        .map(|fact| FactRow {
            source: format!("from {} (event {})", fact.tool, fact.seq),
            name: fact.name,
            value: fact.value,
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
pub fn stores(events: &[RunEvent]) -> Vec<StoreView> {
    let Some(tool_names) = events.iter().find_map(|e| match &e.kind {
        EventKind::RunStarted { tools, .. } => Some(tools),
        _ => None,
    }) else {
        return Vec::new();
    };
    let mut views: Vec<StoreView> = Vec::new();
    for store in tool_names.iter().filter_map(|t| tools::store_of(t)) {
        if views.iter().any(|v| v.store == store) {
            continue;
        }
        let last_write = events.iter().rev().find_map(|e| match &e.kind {
            EventKind::ToolResult {
                name,
                state: Some(state),
                is_error,
                ..
            } if tools::store_of(name) == Some(store) => Some((e.seq, name, *is_error, state)),
            _ => None,
        });
        let view = match last_write {
            Some((seq, name, is_error, state)) => StoreView {
                store,
                state: pretty(state),
                caption: if is_error {
                    format!("after {name} at event {seq}, which was refused: unchanged by it")
                } else {
                    format!("after {name} at event {seq}")
                },
            },
            None => match tools::seed_state(store) {
                Some(seed) => StoreView {
                    store,
                    state: pretty(&seed),
                    caption: "as every run starts: no write yet".to_string(),
                },
                None => continue,
            },
        };
        views.push(view);
    }
    views
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
                id: format!("c{seq}"),
                name: name.into(),
                content: content.into(),
                is_error,
                latency_ms: 0,
                state,
            },
        )
    }

    #[test]
    fn a_store_starts_from_its_seed_and_follows_the_last_write() {
        let start = started(&["get_order_status", "issue_refund", "get_time"]);
        let before = stores(std::slice::from_ref(&start));
        assert_eq!(before.len(), 1, "get_time keeps no store");
        assert_eq!(before[0].store, "orders");
        assert!(before[0].caption.contains("no write yet"));
        assert!(
            before[0].state.contains("\"refunds_issued\": 0"),
            "{}",
            before[0].state
        );

        let after = stores(&[
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
        ]);
        assert_eq!(
            after[0].caption,
            "after issue_refund at event 7, which was refused: unchanged by it"
        );
        assert!(after[0].state.contains("\"refunds_issued\": 1"));
    }

    #[test]
    fn facts_name_their_tool_and_event() {
        let rows = fact_rows(&[result(
            3,
            "search_hotels",
            r#"{"hotels":[{"hotel_id":"h_101","name":"Inn"}]}"#,
            false,
            None,
        )]);
        assert_eq!(
            rows,
            vec![FactRow {
                name: "hotel_id".into(),
                value: "h_101".into(),
                source: "from search_hotels (event 3)".into()
            }]
        );
    }
}
