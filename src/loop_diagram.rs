//! The loop diagram's model: the agent loop drawn as nodes, gates, edges and
//! exits, lit by a run's trace.
//!
//! `Run` stays the only judge. Nothing here decides anything about a run:
//! the diagram follows the events `Run` emitted and the limits its
//! `run_started` event carries, one event at a time (`observe`), so a live
//! run, a run opened from history, an import, a replay and a fork all light
//! it the same way. It keeps, for every node and edge, the events that passed
//! it (clicking a node lists them) and, for every event, the node where it
//! happened (clicking an event shows it on the loop).
//!
//! How events light it:
//! - `run_started`: the start; the gates show their limits.
//! - `model_request`: the way from where the run was (the start, the
//!   results of the last turn, a `pause_turn`) through the gates to the model
//!   call; a retry comes back from the wait instead.
//! - `model_error`: a retry goes to the wait; a final one stays at the call.
//! - `model_response`: the response node; its branch is lit by what comes
//!   next (`calls.rs` for tool calls, `run_finished` for an exit).
//! - tool calls, approvals, results: the per-call checks (`calls.rs`).
//! - `run_finished`: the way to the exit of its status, from where the
//!   outcome and the events say it was decided; the gate that tripped; the
//!   gates' numbers become the outcome's totals.
//!
//! Submodules: `shape` (the nodes and edges under a run's limits, and the
//! pitfall variants), `graph` (their types, and the record of what passed
//! them), `calls` (a turn's calls), `place` (where the run is, in words),
//! `gates` (the numbers), `lessons` (a built-in for each exit), `passes`
//! (what a picked node or edge passed).

mod calls;
mod gates;
mod graph;
mod lessons;
mod passes;
mod place;
mod shape;
pub mod view;
pub mod zoom;

use harness::context::ContextConfig;
use harness::event::stop_cause::StopCause;
use harness::event::{EventKind, Outcome, RunEvent, Status, StopTone};
use harness::limits::{CostMode, Limits, RepeatMode, StopMode};
use harness::model::StopKind;
use harness::run::PauseBefore;

use calls::{CallEvent, Ending, TurnCalls};
use graph::{edge, Graph, Mark};
use place::Doing;

pub use gates::{GateReading, Gauges};
pub use graph::{
    Edge, EdgeKey, EdgeStyle, Gate, Node, NodeId, NodeKind, Row, Variant, GATES, MID_CALL,
};
pub use passes::{Passes, Pick};

/// The loop as one run has lit it so far.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopDiagram {
    /// `None` before any run: the drawing then has the default shape and
    /// says no numbers, since it does not know the scenario's.
    limits: Option<Limits>,
    /// The run's context window and strategy (`run_started`).
    context: ContextConfig,
    graph: Graph,
    gauges: Gauges,
    doing: Doing,
    /// The current turn's calls; earlier turns' marks are final.
    turn: Option<TurnCalls>,
    /// Calls taken up in the turns before the current one.
    calls_before: u32,
    exit: Option<ExitReached>,
    paused: Option<PauseBefore>,
    /// While a run is live, the page's elapsed clock (the header's), which
    /// the deadline gate shows instead of its latest event's time.
    live_elapsed_ms: Option<u64>,
}

/// The exit a run reached.
#[derive(Clone, Debug, PartialEq)]
pub struct ExitReached {
    pub status: Status,
    /// Who ended the run: mostly the status's tone, but a `blocked` run
    /// that no person decided was ended by the harness (`Outcome::tone`).
    pub tone: StopTone,
    /// The same, in words: "a person", "the harness's approval policy".
    pub ended_by: &'static str,
    /// The `run_finished` reason, word for word.
    pub reason: String,
    /// The node the run left for the exit.
    pub from: NodeId,
    /// The `seq` of the `run_finished` event.
    pub seq: u64,
    /// For a stop that can come at any point (Stop, a deadline): where the
    /// run was when it came.
    pub stopped_at: Option<NodeId>,
}

/// Where the run is now, or in step mode, what it does next.
#[derive(Clone, Debug, PartialEq)]
pub struct Current {
    pub node: NodeId,
    /// e.g. "running get_order", "next: tool call get_order".
    pub text: String,
    /// Paused in step mode: `node` is about to run.
    pub next: bool,
}

/// A built-in scenario that ends at an exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lesson {
    pub id: &'static str,
    pub name: &'static str,
}

impl Default for LoopDiagram {
    /// The loop before any run, its limits unknown.
    fn default() -> Self {
        LoopDiagram {
            graph: shape::unknown(),
            limits: None,
            context: ContextConfig::default(),
            gauges: Gauges::default(),
            doing: Doing::Idle,
            turn: None,
            calls_before: 0,
            exit: None,
            paused: None,
            live_elapsed_ms: None,
        }
    }
}

impl LoopDiagram {
    /// The loop under `limits` and `context` (a scenario's, before it
    /// runs), before any event.
    pub fn new(limits: Limits, context: ContextConfig) -> LoopDiagram {
        LoopDiagram {
            graph: shape::graph(&limits, &context),
            limits: Some(limits),
            context,
            gauges: Gauges::default(),
            doing: Doing::Idle,
            turn: None,
            calls_before: 0,
            exit: None,
            paused: None,
            live_elapsed_ms: None,
        }
    }

    pub fn from_events(events: &[RunEvent]) -> LoopDiagram {
        let mut diagram = LoopDiagram::default();
        for event in events {
            diagram.observe(event);
        }
        diagram
    }

    /// Takes in one event. A `run_started` begins the drawing again.
    pub fn observe(&mut self, event: &RunEvent) {
        let seq = event.seq;
        match &event.kind {
            EventKind::RunStarted {
                limits, context, ..
            } => {
                // What the page says of the run in flight (a step pause, the
                // header's clock) may have come before its first event.
                let (paused, live) = (self.paused.take(), self.live_elapsed_ms);
                *self = LoopDiagram::new(limits.clone(), context.clone());
                self.paused = paused;
                self.live_elapsed_ms = live;
                self.doing = Doing::Started;
                self.graph.apply(Mark::Home(NodeId::Start, seq));
            }
            EventKind::ModelRequest {
                turn,
                attempt,
                estimated_input_tokens,
                max_output_tokens,
                ..
            } => {
                self.gauges.context_tokens = estimated_input_tokens + u64::from(*max_output_tokens);
                if *attempt <= 1 {
                    self.close_turn();
                    self.enter_chain(NodeId::ModelCall, seq);
                } else {
                    self.mark(Mark::Traverse(
                        edge(NodeId::Backoff, NodeId::ModelCall),
                        seq,
                    ));
                }
                self.mark(Mark::Home(NodeId::ModelCall, seq));
                self.gauges.turns = self.gauges.turns.max(*turn);
                self.doing = Doing::WaitingForModel {
                    turn: *turn,
                    attempt: *attempt,
                };
            }
            EventKind::ModelError { retry_in_ms, .. } => {
                self.mark(Mark::Home(NodeId::ModelCall, seq));
                if let Some(ms) = retry_in_ms {
                    self.mark(Mark::Traverse(
                        edge(NodeId::ModelCall, NodeId::Backoff),
                        seq,
                    ));
                    self.doing = Doing::WaitingToRetry { ms: *ms };
                }
            }
            EventKind::ModelResponse {
                content,
                stop_reason,
                usage,
                cost_usd,
                ..
            } => {
                // Normally closed by this turn's `model_request` already.
                self.close_turn();
                self.mark(Mark::Traverse(
                    edge(NodeId::ModelCall, NodeId::Response),
                    seq,
                ));
                self.mark(Mark::Home(NodeId::Response, seq));
                self.gauges.tokens += usage.input_tokens + usage.output_tokens;
                self.gauges.cost_usd += cost_usd;
                let has_calls = harness::message::tool_calls_of(content).next().is_some();
                // Under `stop_mode: naive` a turn without calls is taken as
                // the answer whatever its stop reason, a pause included.
                // A full window the harness compacts goes around again too.
                let pause = !has_calls
                    && match StopKind::classify(stop_reason) {
                        StopKind::PauseTurn => self
                            .limits()
                            .is_none_or(|l| l.stop_mode == StopMode::Strict),
                        StopKind::ContextWindowExceeded => true,
                        _ => false,
                    };
                self.doing = Doing::ReadingResponse { pause };
                self.turn = Some(TurnCalls::new(self.doing.clone()));
            }
            EventKind::ToolCall {
                name,
                validation,
                needs_approval,
                ..
            } => self.observe_call(CallEvent::Call {
                seq,
                tool: name.clone(),
                valid: validation.is_valid(),
                needs_approval: *needs_approval,
            }),
            EventKind::ApprovalRequested { .. } => self.observe_call(CallEvent::Asked { seq }),
            EventKind::ApprovalDecided { decision, .. } => self.observe_call(CallEvent::Decided {
                seq,
                decision: *decision,
            }),
            EventKind::ToolResult { fate, .. } => self.observe_call(CallEvent::result(seq, *fate)),
            EventKind::RunFinished(outcome) => self.finish(seq, outcome),
            // A strategy edits the history at the Context gate, just before
            // the model call it makes room for; the request that follows
            // lights the way through the gate. The gate shows the size
            // after the edit; a summary's spending counts, as the run
            // counts it.
            EventKind::ContextEdited {
                edit, tokens_after, ..
            } => {
                self.mark(Mark::Home(NodeId::GateContext, seq));
                let max_output = self.limits.as_ref().map_or(0, |l| l.max_output_tokens);
                self.gauges.context_tokens = tokens_after + u64::from(max_output);
                if let harness::context::ContextEdit::Compacted {
                    usage, cost_usd, ..
                } = edit
                {
                    self.gauges.tokens += usage.input_tokens + usage.output_tokens;
                    self.gauges.cost_usd += cost_usd;
                }
            }
        }
        self.gauges.elapsed_ms = self.gauges.elapsed_ms.max(event.t_ms);
        if let EventKind::RunFinished(outcome) = &event.kind {
            self.gauges.elapsed_ms = outcome.elapsed_ms;
        }
    }

    /// Step mode: what the paused run does next (`None` once it goes on).
    pub fn set_paused(&mut self, paused: Option<PauseBefore>) {
        self.paused = paused;
    }

    /// The run's elapsed time as the header shows it, while the run is
    /// live, so the deadline gate and the header agree between events.
    /// Once the run has finished, the outcome's time stands.
    pub fn set_live_elapsed(&mut self, elapsed_ms: Option<u64>) {
        self.live_elapsed_ms = elapsed_ms;
    }

    /// The limits the drawing shows; `None` before any run.
    pub fn limits(&self) -> Option<&Limits> {
        self.limits.as_ref()
    }

    pub fn variant(&self) -> Variant {
        self.graph.variant
    }

    pub fn nodes(&self) -> &[Node] {
        &self.graph.nodes
    }

    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.graph.node(id)
    }

    pub fn edges(&self) -> &[Edge] {
        &self.graph.edges
    }

    pub fn edge(&self, from: NodeId, to: NodeId) -> Option<&Edge> {
        self.graph.edge(edge(from, to))
    }

    /// Where the event with this `seq` happened on the loop.
    pub fn node_of(&self, seq: u64) -> Option<NodeId> {
        self.graph.home_of(seq)
    }

    /// Ways the run went that this drawing has no edge for; empty for every
    /// trace the harness writes (the tests check every built-in).
    pub fn stray(&self) -> &[(EdgeKey, u64)] {
        &self.graph.stray
    }

    pub fn gauges(&self) -> Gauges {
        match self.live_elapsed_ms.filter(|_| self.exit.is_none()) {
            Some(elapsed_ms) => Gauges {
                elapsed_ms,
                ..self.gauges
            },
            None => self.gauges,
        }
    }

    pub fn gates(&self) -> Vec<GateReading> {
        match &self.limits {
            Some(limits) => self
                .gauges()
                .readings(limits, &self.context, self.tripped_gate()),
            None => Vec::new(),
        }
    }

    pub fn exit(&self) -> Option<&ExitReached> {
        self.exit.as_ref()
    }

    /// The gate whose limit stopped the run. A `context_limit` the
    /// provider gave (the response's stop reason) tripped no gate.
    pub fn tripped_gate(&self) -> Option<NodeId> {
        self.exit.as_ref().and_then(|e| {
            NodeId::gate_of(e.status)
                .filter(|gate| e.status != Status::ContextLimit || e.from == *gate)
        })
    }

    /// The run's context window and strategy.
    pub fn context(&self) -> &ContextConfig {
        &self.context
    }

    pub fn current(&self) -> Option<Current> {
        if self.exit.is_none() {
            if let Some(paused) = &self.paused {
                let (node, text) = match paused {
                    PauseBefore::ModelCall { turn } => {
                        (NodeId::ModelCall, format!("next: model call, turn {turn}"))
                    }
                    PauseBefore::ToolCall { name, .. } => {
                        (NodeId::RunTool, format!("next: tool call {name}"))
                    }
                };
                return Some(Current {
                    node,
                    text,
                    next: true,
                });
            }
        }
        let node = self.doing.node()?;
        Some(Current {
            node,
            text: self.doing.text(),
            next: false,
        })
    }

    /// The tone an exit is drawn in: the reached exit in who ended the run,
    /// the others in their status's usual tone.
    pub fn exit_tone(&self, status: Status) -> StopTone {
        match self.exit.as_ref().filter(|e| e.status == status) {
            Some(exit) => exit.tone,
            None => status.tone(),
        }
    }

    /// The built-in scenario that ends at this exit.
    pub fn lesson(status: Status) -> Option<Lesson> {
        lessons::lesson_for(status).map(|b| Lesson {
            id: b.id,
            name: b.name(),
        })
    }

    /// What a screen reader says for a node: its name, its numbers, and
    /// whether the run is there or ended there.
    pub fn accessible_name(&self, id: NodeId) -> String {
        let Some(node) = self.node(id) else {
            return String::new();
        };
        // Where the run is, as drawn under the node (not under an exit): said
        // right after what the node draws above it, in the drawing's order,
        // so the name holds the words a person sees and can say to pick it
        // (WCAG 2.5.3, axe's label-content-name-mismatch).
        let here = self
            .current()
            .filter(|c| c.node == id && node.kind != NodeKind::Exit);
        let mut name = match id {
            NodeId::Exit(status) => match self.exit.as_ref().filter(|e| e.status == status) {
                Some(exit) => format!(
                    "Exit {status}, {}: the run ended here. {}",
                    exit.ended_by, exit.reason
                ),
                None => format!("Exit {status}, {}", status.tone().label()),
            },
            _ if node.kind == NodeKind::Gate => {
                let reading = self.gates().into_iter().find(|g| g.node == id);
                // It starts with what the drawing and the list show (the
                // label, then the reading), so a person who says what they
                // see names it.
                let mut text = node.label.clone();
                match reading {
                    // The drawn halves, as a parenthesis does not count
                    // as shown ("219, no limit", not "219 (no limit)").
                    Some(reading) => {
                        let between = if reading.limit.starts_with('/') {
                            " "
                        } else {
                            ", "
                        };
                        text.push_str(&format!(": {}{between}{}", reading.value, reading.limit));
                    }
                    None if id == NodeId::GateRepeat && self.limits.is_some() => {
                        text.push_str(": ");
                        text.push_str(&self.repeat_rule());
                    }
                    None => {}
                }
                if let Some(here) = &here {
                    text.push_str(", ");
                    text.push_str(&here.text);
                }
                text.push_str(", a gate");
                if self.tripped_gate() == Some(id) {
                    text.push_str(", tripped: it stopped the run");
                }
                text
            }
            _ => {
                let n = node.events.len();
                let plural = if n == 1 { "" } else { "s" };
                match &here {
                    Some(here) => format!("{}, {}, {n} event{plural}", node.label, here.text),
                    None => format!("{}, {n} event{plural}", node.label),
                }
            }
        };
        // Running there (not paused before it, which the text says).
        if here.is_some_and(|c| !c.next) && self.exit.is_none() {
            name.push_str(", the run is here");
        }
        name
    }

    /// The repeat gate's rule in a few words, e.g. "2× a call, anywhere".
    pub fn repeat_rule(&self) -> String {
        let Some(limits) = &self.limits else {
            return String::new();
        };
        match (limits.repeat_threshold, limits.repeat_mode) {
            (None, _) => "off".to_string(),
            // The words of the drawn gate's two lines (`repeat_reading`).
            (Some(n), RepeatMode::Canonical) => format!("{n}× a call, anywhere"),
            (Some(n), RepeatMode::Naive) => format!("{n} in a row, naive"),
        }
    }

    /// The repeat rule on the gate's two short lines, each narrow enough for
    /// the drawn box: `("2× a call", "anywhere")`, `("4 in a row", "naive")`.
    pub fn repeat_reading(&self) -> (String, String) {
        let Some(limits) = &self.limits else {
            return Default::default();
        };
        match (limits.repeat_threshold, limits.repeat_mode) {
            (None, _) => ("off".to_string(), String::new()),
            (Some(n), RepeatMode::Canonical) => (format!("{n}× a call"), "anywhere".to_string()),
            (Some(n), RepeatMode::Naive) => (format!("{n} in a row"), "naive".to_string()),
        }
    }

    fn mark(&mut self, mark: Mark) {
        self.graph.apply(mark);
    }

    fn observe_call(&mut self, event: CallEvent) {
        let turn = self
            .turn
            .get_or_insert_with(|| TurnCalls::new(Doing::ReadingResponse { pause: false }));
        turn.observe(&mut self.graph, event, &mut self.doing);
        self.gauges.tool_calls = self.calls_before + turn.taken_up();
    }

    /// The turn's marks become final.
    fn close_turn(&mut self) {
        if let Some(turn) = self.turn.take() {
            self.calls_before += turn.taken_up();
        }
    }

    /// Lights the way from where the run is, through the gates a turn
    /// passes, up to `target` (the model call, or the gate that stopped the
    /// run, which is then visited but not passed).
    fn enter_chain(&mut self, target: NodeId, seq: u64) {
        let chain = self.graph.variant.chain();
        let at_deadline = chain.iter().position(|n| *n == NodeId::GateDeadline);
        let left_some = self.turn.as_ref().is_some_and(TurnCalls::left_some);
        let (way_in, from) = match self.doing {
            Doing::Started => (Some(NodeId::Start), at_deadline),
            Doing::ResultsBack if !left_some => (Some(NodeId::Results), Some(0)),
            Doing::ReadingResponse { pause: true } => (Some(NodeId::Response), Some(0)),
            // Found between two steps of a turn (a stop between its calls):
            // the gate is where it was decided, the way there is no turn.
            _ if target != NodeId::ModelCall => (None, chain.iter().position(|n| *n == target)),
            _ => (None, Some(0)),
        };
        let Some(from) = from else {
            return;
        };
        let Some(to) = chain
            .iter()
            .position(|n| *n == target)
            .filter(|to| *to >= from)
        else {
            return;
        };
        if let Some(way_in) = way_in {
            self.mark(Mark::Traverse(edge(way_in, chain[from]), seq));
        }
        for i in from..to {
            self.mark(Mark::Visit(chain[i], seq));
            self.mark(Mark::Traverse(edge(chain[i], chain[i + 1]), seq));
        }
        if target != NodeId::ModelCall {
            self.mark(Mark::Visit(target, seq));
        }
    }

    fn finish(&mut self, seq: u64, outcome: &Outcome) {
        let status = outcome.status;
        if let Some(turn) = self.turn.as_mut() {
            let ending = Ending {
                taken_up: outcome.tool_calls.saturating_sub(self.calls_before),
                status,
            };
            turn.settle(&mut self.graph, ending, &mut self.doing);
        }
        let stopped_at = self.doing.node();
        let from = self.way_out(status, seq);
        self.mark(Mark::Traverse(edge(from, NodeId::Exit(status)), seq));
        self.mark(Mark::Home(NodeId::Exit(status), seq));
        // The request the window refused was never sent: its size is the
        // cause's.
        let context_tokens = match &outcome.cause {
            Some(StopCause::ContextLimit {
                input_tokens,
                output_tokens,
                ..
            }) => input_tokens + output_tokens,
            _ => self.gauges.context_tokens,
        };
        self.gauges = Gauges {
            turns: outcome.turns,
            tokens: outcome.input_tokens + outcome.output_tokens,
            cost_usd: outcome.cost_usd,
            tool_calls: outcome.tool_calls,
            elapsed_ms: outcome.elapsed_ms,
            context_tokens,
        };
        let anywhere = matches!(status, Status::Cancelled | Status::Deadline);
        self.exit = Some(ExitReached {
            status,
            tone: outcome.tone(),
            ended_by: outcome.ended_by(),
            reason: outcome.reason.clone(),
            from,
            seq,
            stopped_at: stopped_at.filter(|_| anywhere),
        });
        self.doing = Doing::Ended(status);
        self.paused = None;
    }

    /// The node the run leaves for the exit of `status`, lighting the way
    /// to it from where the run was.
    fn way_out(&mut self, status: Status, seq: u64) -> NodeId {
        let variant = self.graph.variant;
        let mid_call = match &self.doing {
            Doing::WaitingForModel { .. } => Some(NodeId::ModelCall),
            Doing::WaitingToRetry { .. } => Some(NodeId::Backoff),
            Doing::Deciding { .. } => Some(NodeId::Approval),
            Doing::Running { .. } | Doing::CutOff { .. } => Some(NodeId::RunTool),
            _ => None,
        };
        match status {
            Status::Done | Status::FailedVerification => {
                self.mark(Mark::Traverse(
                    edge(NodeId::Response, NodeId::Verifier),
                    seq,
                ));
                self.mark(Mark::Visit(NodeId::Verifier, seq));
                NodeId::Verifier
            }
            Status::MaxTokens | Status::Refusal => NodeId::Response,
            // The provider's model_context_window_exceeded ends a response;
            // the harness's own window check stops at the Context gate.
            Status::ContextLimit => match self.doing {
                Doing::ReadingResponse { .. } => NodeId::Response,
                _ => {
                    self.enter_chain(NodeId::GateContext, seq);
                    NodeId::GateContext
                }
            },
            Status::ModelError => match self.doing {
                Doing::WaitingForModel { .. } => NodeId::ModelCall,
                _ => NodeId::Response,
            },
            Status::Blocked => NodeId::Approval,
            Status::Cancelled => NodeId::StopButton,
            Status::Deadline if variant.deadline_cuts_calls() && mid_call.is_some() => {
                mid_call.unwrap_or(NodeId::GateDeadline)
            }
            Status::CostLimit
                if variant.cost == CostMode::Strict
                    && matches!(self.doing, Doing::ReadingResponse { .. }) =>
            {
                NodeId::Response
            }
            // A per-call gate is where the call it refused stands (`calls.rs`
            // led the run there); any other gate is one of the turn's chain.
            Status::ToolCallLimit | Status::RepeatedCall => {
                NodeId::gate_of(status).unwrap_or(NodeId::GateToolCalls)
            }
            _ => {
                let gate = NodeId::gate_of(status).unwrap_or(NodeId::GateDeadline);
                self.enter_chain(gate, seq);
                gate
            }
        }
    }
}
