//! The loop's shape under one run's limits: its nodes with what each does,
//! and its edges.
//!
//! The shape follows `harness::run`: the checks made before each model call
//! (deadline, turns, tokens, cost) in the order `Run` makes them, the
//! branches of the response's stop reason, and the checks each tool call
//! passes in order (tool-call limit, repeat, validation, approval). Three
//! pitfall modes change it, so naive and fixed runs look different:
//! - `cost_mode: naive` moves the cost gate onto the way back from the
//!   results: it only looks at money already spent, after the call was paid;
//!   `strict` checks the worst case of the next call before it, and stops a
//!   response that cost more than its estimate.
//! - `deadline_mode: between_steps` keeps the deadline edges out of the
//!   calls (drawn, marked as not taken): a call that hangs runs to its end.
//! - `repeat_mode: naive` says on the gate that it only compares a call with
//!   the ones just before it.

use harness::context::{ContextConfig, OnWindowExceeded, Strategy};
use harness::event::Status;
use harness::limits::{CostMode, Limits, RepeatMode, StopMode};
use harness::numbers::thousands;
use harness::run::usd;

use super::graph::{edge, Edge, EdgeStyle, Gate, Graph, Node, NodeId, Variant, MID_CALL};

/// The loop under `limits` and the scenario's context window.
pub fn graph(limits: &Limits, context: &ContextConfig) -> Graph {
    let variant = Variant::of(limits);
    Graph::new(variant, nodes(limits, context, variant), edges(variant))
}

/// The loop before any run: the default shape, with notes that name each
/// limit without numbers, and no gate marked off.
pub fn unknown() -> Graph {
    let mut graph = graph(&Limits::default(), &ContextConfig::default());
    for node in &mut graph.nodes {
        if let Some(note) = unknown_note(node.id) {
            node.note = note.to_string();
            node.off = false;
        }
    }
    graph
}

fn nodes(limits: &Limits, context: &ContextConfig, variant: Variant) -> Vec<Node> {
    let mut out = Vec::new();
    let mut add = |id: NodeId, label: &str, note: String, off: bool| {
        out.push(Node {
            id,
            kind: id.kind(),
            label: label.to_string(),
            note,
            off,
            events: Vec::new(),
        })
    };
    add(
        NodeId::Start,
        "Start",
        "The run starts with the task.".into(),
        false,
    );
    add(
        NodeId::GateDeadline,
        gate_label(NodeId::GateDeadline),
        deadline_note(limits, variant),
        limits.deadline_ms.is_none(),
    );
    add(
        NodeId::GateTurns,
        gate_label(NodeId::GateTurns),
        format!(
            "Before each model call: a run makes at most max_turns ({}) model calls.",
            limits.max_turns
        ),
        false,
    );
    add(
        NodeId::GateTokens,
        gate_label(NodeId::GateTokens),
        match limits.max_total_tokens {
            Some(max) => format!(
                "Before each model call: the tokens used so far must stay under max_total_tokens ({max})."
            ),
            None => "Off: no max_total_tokens is set.".into(),
        },
        limits.max_total_tokens.is_none(),
    );
    add(
        NodeId::GateCost,
        gate_label(NodeId::GateCost),
        cost_note(limits),
        limits.max_cost_usd.is_none(),
    );
    add(
        NodeId::GateContext,
        gate_label(NodeId::GateContext),
        context_note(context, limits.max_output_tokens),
        context.window_tokens.is_none() && context.strategy == Strategy::None,
    );
    add(
        NodeId::ModelCall,
        "Model call",
        match limits.model_timeout_ms {
            Some(ms) => format!(
                "The request goes to the model; it may take at most {ms} ms (model_timeout_ms)."
            ),
            None => "The request goes to the model.".into(),
        },
        false,
    );
    add(
        NodeId::Backoff,
        "Wait, retry",
        format!(
            "A request that failed in a way a retry can fix waits (500 ms, doubling, or the provider's retry-after) and is sent again, at most {} times (max_retries).",
            limits.max_retries
        ),
        false,
    );
    add(
        NodeId::Response,
        "stop_reason?",
        "The response's stop reason decides what happens next.".into(),
        false,
    );
    add(
        NodeId::Verifier,
        "Verifier",
        "A final answer needs text, and must pass the scenario's checks if it has any.".into(),
        false,
    );
    add(
        NodeId::GateToolCalls,
        gate_label(NodeId::GateToolCalls),
        match limits.max_tool_calls {
            Some(max) => format!("Each call the harness takes up is checked against the limit: call number {} would be one too many (max_tool_calls {max}). Calls after a stop are never checked.", u64::from(max) + 1),
            None => "Off: no max_tool_calls is set.".into(),
        },
        limits.max_tool_calls.is_none(),
    );
    add(
        NodeId::GateRepeat,
        gate_label(NodeId::GateRepeat),
        repeat_note(limits),
        limits.repeat_threshold.is_none(),
    );
    add(
        NodeId::Validate,
        "Validate",
        "An unknown tool, arguments that are not JSON, or arguments that break the tool's schema become an error result the model reads.".into(),
        false,
    );
    add(
        NodeId::Approval,
        "Approval",
        "A tool that needs approval waits for the approval policy or a person: approve, edit, deny with a reason, or deny and stop.".into(),
        false,
    );
    add(
        NodeId::RunTool,
        "Run tool",
        match limits.tool_timeout_ms {
            Some(ms) => format!("The tool runs; after {ms} ms (tool_timeout_ms) it is stopped and the model reads an error."),
            None => "The tool runs; an error it throws becomes an error result.".into(),
        },
        false,
    );
    add(
        NodeId::Results,
        "Results",
        "Every call gets exactly one result; they go back to the model together.".into(),
        false,
    );
    add(
        NodeId::StopButton,
        "Stop button",
        "A person can stop the run at any point.".into(),
        false,
    );
    for status in Status::ALL {
        add(
            NodeId::Exit(status),
            status.as_str(),
            exit_note(status),
            false,
        );
    }
    out
}

/// A gate's label: its row's in `graph::GATES`.
fn gate_label(id: NodeId) -> &'static str {
    Gate::of(id).map_or("", |gate| gate.label)
}

/// What a limit-dependent node does, before the limits are known: a gate
/// says it in its row of `graph::GATES`.
fn unknown_note(id: NodeId) -> Option<&'static str> {
    if let Some(gate) = Gate::of(id) {
        return Some(gate.unknown);
    }
    Some(match id {
        NodeId::ModelCall => "The request goes to the model.",
        NodeId::Backoff => "A request that failed in a way a retry can fix waits and is sent again, up to max_retries times.",
        NodeId::RunTool => "The tool runs; an error it throws becomes an error result.",
        _ => return None,
    })
}

fn deadline_note(limits: &Limits, variant: Variant) -> String {
    let Some(ms) = limits.deadline_ms else {
        return "Off: no deadline_ms is set.".into();
    };
    let mut note = if variant.deadline_cuts_calls() {
        format!("The run has {ms} ms (deadline_ms). Checked before every step, and a call still running when time is up is cut off.")
    } else {
        format!("The run has {ms} ms (deadline_ms), checked only between steps (deadline_mode between_steps): a call that hangs runs to its end before the run stops.")
    };
    if variant.deadline_shared {
        note.push_str(" The deadline is shared (deadline_scope shared): it counts from when the page started, not from this run's start.");
    }
    note
}

fn cost_note(limits: &Limits) -> String {
    let Some(budget) = limits.max_cost_usd else {
        return "Off: no max_cost_usd is set.".into();
    };
    let budget = usd(budget);
    match limits.cost_mode {
        CostMode::Strict => format!(
            "Strict: before each model call, what was spent plus the worst case of that call (its estimated input and max_output_tokens) must fit the {budget} budget; a response that still costs more than its estimate stops the run at once."
        ),
        CostMode::Naive => format!(
            "Naive: the cost is added after each call and checked only before the next turn, so one call can overshoot the {budget} budget, and a final answer in that turn still counts."
        ),
    }
}

fn context_note(context: &ContextConfig, max_output_tokens: u32) -> String {
    let trigger = context.trigger(max_output_tokens);
    let strategy = match (context.strategy, trigger) {
        (Strategy::None, _) => "No strategy: nothing frees room.".to_string(),
        (_, None) => format!(
            "Strategy {}, with nothing to trigger it (no trigger_tokens or window_tokens).",
            context.strategy.as_str()
        ),
        (Strategy::ClearToolResults, Some(t)) => format!(
            "Past ≈{} input tokens, clear_tool_results replaces old tool results with a placeholder{}{}.",
            thousands(t),
            match context.keep_tool_results {
                Some(n) => format!(", keeping the newest {n}"),
                None => String::new(),
            },
            match context.exclude_tools.is_empty() {
                true => String::new(),
                false => format!(" and every result of {}", context.exclude_tools.join(", ")),
            }
        ),
        (Strategy::DropOldestTurns, Some(t)) if context.keeps_pairs() => format!(
            "Past ≈{} input tokens, drop_oldest_turns drops the oldest turns, each tool_use with its tool_result.",
            thousands(t)
        ),
        (Strategy::DropOldestTurns, Some(t)) => format!(
            "Past ≈{} input tokens, drop_oldest_turns drops the oldest messages one by one (keep_pairs false): a tool_result can lose its tool_use, which the provider refuses.",
            thousands(t)
        ),
        (Strategy::Compact, Some(t)) => format!(
            "Past ≈{} input tokens, compact asks the model for a summary and goes on from the task and the summary.",
            thousands(t)
        ),
    };
    let window = match context.window_tokens {
        Some(w) => format!(
            "Before each model call: the request's estimated input plus max_output_tokens ({max_output_tokens}) must fit the window of {} tokens (window_tokens), or it is not sent.",
            thousands(w)
        ),
        None if context.strategy == Strategy::None => {
            return "Off: the scenario sets no context window.".into()
        }
        None => "No window_tokens: the harness never stops a request for its size.".into(),
    };
    let retry = match context.on_window_exceeded {
        OnWindowExceeded::Retry if context.strategy != Strategy::Compact => {
            " When the provider says the window is exceeded, the same history is sent again (on_window_exceeded retry)."
        }
        _ => "",
    };
    format!("{window} {strategy}{retry}")
}

fn repeat_note(limits: &Limits) -> String {
    let Some(n) = limits.repeat_threshold else {
        return "Off: no repeat_threshold is set.".into();
    };
    match limits.repeat_mode {
        RepeatMode::Canonical => format!(
            "A call (tool and arguments, compared canonically) seen {n} times anywhere in the run stops it, so a cycle such as A, B, A, B is caught."
        ),
        RepeatMode::Naive => format!(
            "Naive: only {n} calls in a row with the same exact argument text stop the run; a cycle such as A, B, A, B, or the same arguments with keys reordered or spaced differently, gets past."
        ),
    }
}

fn exit_note(status: Status) -> String {
    let tone = status.tone();
    format!("An exit: {} ({}).", status.as_str(), tone.label())
}

/// The edges being drawn, in order; most are plain lines.
#[derive(Default)]
struct Edges(Vec<Edge>);

impl Edges {
    fn add(&mut self, from: NodeId, to: NodeId, label: impl Into<String>, tag: &'static str) {
        self.add_styled(from, to, label.into(), tag, EdgeStyle::Normal);
    }

    fn add_styled(
        &mut self,
        from: NodeId,
        to: NodeId,
        label: String,
        tag: &'static str,
        style: EdgeStyle,
    ) {
        self.0.push(Edge {
            key: edge(from, to),
            label,
            tag,
            style,
            count: 0,
            events: Vec::new(),
        })
    }
}

/// Every edge of the drawing, in the order it is drawn: the way round the
/// loop, the model call, the response, the gates' exits, a tool call's
/// path, and Stop.
fn edges(variant: Variant) -> Vec<Edge> {
    let mut edges = Edges::default();
    way_round(&mut edges, variant);
    model_call(&mut edges);
    response(&mut edges, variant);
    gate_exits(&mut edges, variant);
    tool_call(&mut edges);
    edges.add(
        NodeId::StopButton,
        NodeId::Exit(Status::Cancelled),
        "Stop pressed: whatever was running is answered \"not run\"",
        "",
    );
    edges.0
}

/// Start into the chain of gates, through it, and back to its entry for
/// the next turn.
fn way_round(edges: &mut Edges, variant: Variant) {
    use NodeId::*;
    let chain = variant.chain();
    let entry = chain[0];
    // Start joins the chain at the deadline gate in both modes.
    edges.add(Start, GateDeadline, "start: the first turn", "");
    for pair in chain.windows(2) {
        edges.add(pair[0], pair[1], pass_label(pair[0]), "");
    }
    edges.add(
        Results,
        entry,
        "next turn: the results go back with the next request",
        "next turn",
    );
    edges.add(
        Response,
        entry,
        "pause_turn: the turn is sent back to continue",
        "pause_turn",
    );
}

/// The request: answered, retried after a backoff, or failed.
fn model_call(edges: &mut Edges) {
    use NodeId::*;
    edges.add(ModelCall, Response, "the response arrives", "");
    edges.add(
        ModelCall,
        Backoff,
        "the request failed and will be retried",
        "error",
    );
    edges.add(Backoff, ModelCall, "retry", "retry");
    edges.add(
        ModelCall,
        Exit(Status::ModelError),
        "the request failed: not retryable, or the retries are spent",
        "",
    );
}

/// What a response's stop reason leads to: the verifier, an exit, or the
/// tool calls.
fn response(edges: &mut Edges, variant: Variant) {
    use NodeId::*;
    let end_turn = match variant.stop {
        StopMode::Strict => "end_turn without tool calls: a final answer to check",
        StopMode::Naive => "any turn without tool calls, even one cut off by max_tokens or a refusal (stop_mode naive)",
    };
    edges.add(Response, Verifier, end_turn, "end_turn");
    edges.add(Verifier, Exit(Status::Done), "the answer is accepted", "");
    edges.add(
        Verifier,
        Exit(Status::FailedVerification),
        "the verifier rejects the answer",
        "",
    );
    edges.add(
        Response,
        Exit(Status::MaxTokens),
        "max_tokens: the turn was cut off, which is not an answer",
        "",
    );
    edges.add(
        Response,
        Exit(Status::Refusal),
        "refusal: the model refused",
        "",
    );
    edges.add(
        Response,
        Exit(Status::ContextLimit),
        "model_context_window_exceeded: the provider stopped, the history no longer fits",
        "",
    );
    edges.add(
        GateContext,
        Exit(Status::ContextLimit),
        "the next request cannot fit the context window, so it is not sent",
        "",
    );
    edges.add(
        Response,
        Exit(Status::ModelError),
        "an unknown stop_reason, an empty answer, or tool_use without calls",
        "",
    );
    if variant.cost == CostMode::Strict {
        edges.add(
            Response,
            Exit(Status::CostLimit),
            "the response cost more than its estimate and went over the budget",
            "",
        );
    }
    edges.add(
        Response,
        GateToolCalls,
        "tool_use: each call, in order",
        "tool_use",
    );
}

/// The exits of the gates before a model call, and the deadline's cut
/// through a call that is running.
fn gate_exits(edges: &mut Edges, variant: Variant) {
    use NodeId::*;
    edges.add(
        GateDeadline,
        Exit(Status::Deadline),
        "the deadline has passed",
        "",
    );
    edges.add(
        GateTurns,
        Exit(Status::TurnLimit),
        "max_turns model calls made",
        "",
    );
    edges.add(
        GateTokens,
        Exit(Status::TokenLimit),
        "max_total_tokens reached",
        "",
    );
    let over_budget = match variant.cost {
        CostMode::Strict => "the next call could exceed the budget",
        CostMode::Naive => "already over the budget",
    };
    edges.add(GateCost, Exit(Status::CostLimit), over_budget, "");
    for from in MID_CALL {
        let (label, style) = if variant.deadline_cuts_calls() {
            (
                "the deadline passes mid-call and cuts it off",
                EdgeStyle::Normal,
            )
        } else {
            (
                "not taken under deadline_mode between_steps: a running call is not cut off",
                EdgeStyle::NotTaken,
            )
        };
        edges.add_styled(from, Exit(Status::Deadline), label.into(), "", style);
    }
}

/// One tool call: its gates, validation, approval, the tool, and its result.
fn tool_call(edges: &mut Edges) {
    use NodeId::*;
    edges.add(GateToolCalls, GateRepeat, pass_label(GateToolCalls), "");
    edges.add(
        GateToolCalls,
        Exit(Status::ToolCallLimit),
        "one call too many: it is answered \"not run\"",
        "",
    );
    edges.add(GateRepeat, Validate, pass_label(GateRepeat), "");
    edges.add(
        GateRepeat,
        Exit(Status::RepeatedCall),
        "a repeated call: it is answered \"not run\"",
        "",
    );
    edges.add(Validate, RunTool, "valid", "");
    edges.add(Validate, Approval, "valid, needs approval", "");
    edges.add(
        Validate,
        Results,
        "invalid: an error result the model reads",
        "error result",
    );
    edges.add(
        Approval,
        RunTool,
        "approved (as asked, edited, or always allowed)",
        "",
    );
    edges.add(
        Approval,
        Results,
        "denied: the reason goes to the model",
        "denied",
    );
    edges.add(
        Approval,
        Exit(Status::Blocked),
        "denied and stopped, denied by the policy, or no one to ask",
        "",
    );
    edges.add(RunTool, Results, "the tool's result (or its error)", "");
    edges.add(
        Results,
        GateToolCalls,
        "the next call of the same turn",
        "next call",
    );
}

/// The way on from a gate that lets the run pass.
fn pass_label(gate: NodeId) -> String {
    Gate::of(gate).map_or("on", |gate| gate.pass).to_string()
}
