//! The numbers each gate shows against its limit: turns, tokens, cost, tool
//! calls and time, as the trace reports them.

use harness::context::ContextConfig;
use harness::limits::{DeadlineScope, Limits};
use harness::numbers::thousands;
use harness::run::usd;

use super::graph::NodeId;
use crate::run::view_model::format_ms;

/// What the run has used so far, by its events; once it has finished, the
/// totals of its `run_finished` outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Gauges {
    /// Model calls begun (the turn of the latest `model_request`).
    pub turns: u32,
    /// Input plus output tokens the responses reported.
    pub tokens: u64,
    pub cost_usd: f64,
    /// The calls checked against `max_tool_calls` (`harness::tally`'s
    /// "checked"); calls a stop came before are not checked.
    pub tool_calls: u32,
    /// Milliseconds since this run started, by its latest event.
    pub elapsed_ms: u64,
    /// What the latest request needed of the window: its estimated input
    /// plus `max_output_tokens` (after a strategy's edit, the edited size;
    /// for a request the window refused, that request's).
    pub context_tokens: u64,
}

/// One gate's reading, e.g. `3 / 10`.
#[derive(Clone, Debug, PartialEq)]
pub struct GateReading {
    pub node: NodeId,
    pub name: &'static str,
    /// The value against the limit (`3 / 10`), or the value and "(no limit)".
    pub text: String,
    /// The two halves of `text`, for a drawing with little room: the value
    /// (`3`), and the limit (`/ 10`) or that there is none (`no limit`).
    pub value: String,
    pub limit: String,
    /// How full the gate is, 0 to 1; `None` without a limit.
    pub fraction: Option<f64>,
    /// This gate stopped the run.
    pub tripped: bool,
}

impl Gauges {
    /// The six gates with numbers, in the order a turn meets them.
    pub fn readings(
        &self,
        limits: &Limits,
        context: &ContextConfig,
        tripped: Option<NodeId>,
    ) -> Vec<GateReading> {
        let shared = limits.deadline_scope == DeadlineScope::Shared;
        let ratio = |value: f64, max: f64| (max > 0.0).then(|| value / max);
        let reading =
            |node, name, value: String, max: Option<String>, none: &str, fraction: Option<f64>| {
                let (text, limit) = match max {
                    Some(max) => (format!("{value} / {max}"), format!("/ {max}")),
                    None => (format!("{value} ({none})"), none.to_string()),
                };
                GateReading {
                    node,
                    name,
                    text,
                    value,
                    limit,
                    fraction: fraction.map(|f| f.clamp(0.0, 1.0)),
                    tripped: tripped == Some(node),
                }
            };
        let mut deadline = reading(
            NodeId::GateDeadline,
            "deadline",
            format_ms(self.elapsed_ms),
            limits.deadline_ms.map(format_ms),
            "no deadline",
            // A shared deadline started before this run: this run's time is
            // not how much of it is gone.
            limits
                .deadline_ms
                .filter(|_| !shared)
                .and_then(|max| ratio(self.elapsed_ms as f64, max as f64)),
        );
        // The gate reads the same drawn, listed and named (a screen reader's
        // name must hold the words shown): without a deadline, as the others
        // without a limit, the time gone by, then "no deadline" ("2 ms
        // elapsed" does not fit the drawn box); with a shared one, this
        // run's time, then the deadline and that it is shared (the node's
        // note says it counts from when the page started).
        if let (Some(max), true) = (limits.deadline_ms, shared) {
            deadline.limit = format!("{} shared", format_ms(max));
            deadline.text = format!("{}, {}", deadline.value, deadline.limit);
        }
        vec![
            deadline,
            reading(
                NodeId::GateTurns,
                "turns",
                self.turns.to_string(),
                Some(limits.max_turns.to_string()),
                "no limit",
                ratio(f64::from(self.turns), f64::from(limits.max_turns)),
            ),
            reading(
                NodeId::GateTokens,
                "tokens",
                thousands(self.tokens),
                limits.max_total_tokens.map(thousands),
                "no limit",
                limits
                    .max_total_tokens
                    .and_then(|max| ratio(self.tokens as f64, max as f64)),
            ),
            reading(
                NodeId::GateCost,
                "cost",
                usd(self.cost_usd),
                limits.max_cost_usd.map(usd),
                "no budget",
                limits
                    .max_cost_usd
                    .and_then(|max| ratio(self.cost_usd, max)),
            ),
            reading(
                NodeId::GateContext,
                "context",
                format!("≈{}", thousands(self.context_tokens)),
                context.window_tokens.map(thousands),
                "no window",
                context
                    .window_tokens
                    .and_then(|max| ratio(self.context_tokens as f64, max as f64)),
            ),
            reading(
                NodeId::GateToolCalls,
                "tool calls",
                format!("{} checked", self.tool_calls),
                limits.max_tool_calls.map(|max| max.to_string()),
                "no limit",
                limits
                    .max_tool_calls
                    .and_then(|max| ratio(f64::from(self.tool_calls), f64::from(max))),
            ),
        ]
    }
}

/// The width of a 14 px character, in drawing units, on a gate's value line
/// (monospace, 0.6 em) and on its limit line (sans-serif; its widest digits
/// and letters, so the estimate errs wide).
pub const VALUE_CHAR_WIDTH: f64 = 8.5;
pub const LIMIT_CHAR_WIDTH: f64 = 8.0;

/// The length to squeeze a line to when it would be wider than `room`, for
/// SVG's `textLength`; `None` when it fits as it is. A long reading (a shared
/// deadline of 12.35 s, a token count in the millions) then stays inside its
/// box, a little narrower, instead of running over the next one.
pub fn squeezed_length(text: &str, char_width: f64, room: f64) -> Option<f64> {
    let estimate = text.trim_end().chars().count() as f64 * char_width;
    (estimate > room).then_some(room)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_fits_is_drawn_as_it_is() {
        assert_eq!(squeezed_length("93 ms ", VALUE_CHAR_WIDTH, 92.0), None);
        assert_eq!(squeezed_length("no deadline", LIMIT_CHAR_WIDTH, 92.0), None);
    }

    #[test]
    fn a_line_wider_than_its_box_is_squeezed_to_the_box() {
        assert_eq!(
            squeezed_length("93 ms elapsed ", VALUE_CHAR_WIDTH, 92.0),
            Some(92.0)
        );
        assert_eq!(
            squeezed_length("12.35 s shared", LIMIT_CHAR_WIDTH, 92.0),
            Some(92.0)
        );
    }
}
