//! The loop's nodes and edges, and the record of which events passed each
//! of them: the marks an event leaves, and taking a guess back.

use std::collections::HashMap;

use harness::event::Status;
use harness::limits::{CostMode, DeadlineMode, DeadlineScope, Limits, RepeatMode, StopMode};

/// One place on the loop. Exits are one per status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeId {
    Start,
    GateDeadline,
    GateTurns,
    GateTokens,
    GateCost,
    /// The context window: the next request's input and output against
    /// `window_tokens`, where a strategy edits the history.
    GateContext,
    ModelCall,
    /// The wait before a failed model request is retried.
    Backoff,
    /// The response is in: its stop reason picks the branch.
    Response,
    Verifier,
    GateToolCalls,
    GateRepeat,
    Validate,
    Approval,
    RunTool,
    /// Where each call's result goes back into the conversation.
    Results,
    /// A person can stop the run at any point.
    StopButton,
    Exit(Status),
}

impl NodeId {
    /// A stable word for element ids and `data-` attributes.
    pub fn key(self) -> String {
        let word = match self {
            NodeId::Start => "start",
            NodeId::ModelCall => "model-call",
            NodeId::Backoff => "backoff",
            NodeId::Response => "response",
            NodeId::Verifier => "verifier",
            NodeId::Validate => "validate",
            NodeId::Approval => "approval",
            NodeId::RunTool => "run-tool",
            NodeId::Results => "results",
            NodeId::StopButton => "stop-button",
            NodeId::Exit(status) => return format!("exit-{status}"),
            gate => Gate::of(gate).map_or("gate", |g| g.key),
        };
        word.to_string()
    }

    pub fn kind(self) -> NodeKind {
        match self {
            NodeId::Start => NodeKind::Start,
            NodeId::Exit(_) => NodeKind::Exit,
            gate if Gate::of(gate).is_some() => NodeKind::Gate,
            _ => NodeKind::Step,
        }
    }

    /// The gate a guard status is decided at.
    pub fn gate_of(status: Status) -> Option<NodeId> {
        GATES
            .iter()
            .find(|gate| gate.status == status)
            .map(|gate| gate.node)
    }
}

/// A row of the drawing: the turn's gates and model call, the per-call
/// checks, and the exits above and below them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Turn,
    Calls,
    TopExits,
    BottomExits,
}

/// One gate of the loop: a limit the harness checks, and everything the
/// drawing says of it that does not depend on the run's numbers. A new
/// limit's gate is a `NodeId` variant, a row here, its place in
/// `Variant::chain` if a turn passes it, and its note and exit edge in
/// `shape.rs`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gate {
    pub node: NodeId,
    /// Its word in element ids and `data-` attributes.
    pub key: &'static str,
    pub label: &'static str,
    /// The status a run that this gate stops ends with.
    pub status: Status,
    /// What it checks, before a run's limits are known.
    pub unknown: &'static str,
    /// The way on when it lets the run pass, for a gate before the model
    /// call.
    pub pass: &'static str,
    /// Its column and row, and its exit's.
    pub at: (f64, Row),
    pub exit_at: (f64, Row),
}

/// Every gate, in the order a turn and then a tool call meet them.
pub const GATES: &[Gate] = &[
    Gate {
        node: NodeId::GateDeadline,
        key: "gate-deadline",
        label: "Deadline",
        status: Status::Deadline,
        unknown: "The run's deadline (deadline_ms), if the scenario sets one.",
        pass: "in time",
        at: (150.0, Row::Turn),
        exit_at: (150.0, Row::TopExits),
    },
    Gate {
        node: NodeId::GateTurns,
        key: "gate-turns",
        label: "Turns",
        status: Status::TurnLimit,
        unknown: "Before each model call: a run makes at most max_turns model calls.",
        pass: "turns left",
        at: (270.0, Row::Turn),
        exit_at: (270.0, Row::TopExits),
    },
    Gate {
        node: NodeId::GateTokens,
        key: "gate-tokens",
        label: "Tokens",
        status: Status::TokenLimit,
        unknown: "Before each model call: the tokens used against max_total_tokens, if set.",
        pass: "tokens left",
        at: (390.0, Row::Turn),
        exit_at: (390.0, Row::TopExits),
    },
    // Under cost_mode naive the gate and its exit stand elsewhere (the
    // drawing's `spot` says where).
    Gate {
        node: NodeId::GateCost,
        key: "gate-cost",
        label: "Cost",
        status: Status::CostLimit,
        unknown: "Before each model call: the cost against the budget (max_cost_usd), if set.",
        pass: "within the budget",
        at: (510.0, Row::Turn),
        exit_at: (510.0, Row::TopExits),
    },
    // Above its gate, as every limit's exit is; the provider's own window
    // stop reaches it from the response.
    Gate {
        node: NodeId::GateContext,
        key: "gate-context",
        label: "Context",
        status: Status::ContextLimit,
        unknown: "Before each model call: the request against the context window (context.window_tokens), if set.",
        pass: "fits the window",
        at: (630.0, Row::Turn),
        // A little right of its gate: the widest word of the row, between
        // cost_limit and the retry box.
        exit_at: (636.0, Row::TopExits),
    },
    Gate {
        node: NodeId::GateToolCalls,
        key: "gate-tool-calls",
        label: "Tool calls",
        status: Status::ToolCallLimit,
        unknown: "Each call the model asks for counts against max_tool_calls, if set.",
        pass: "within max_tool_calls",
        at: (895.0, Row::Calls),
        exit_at: (895.0, Row::BottomExits),
    },
    Gate {
        node: NodeId::GateRepeat,
        key: "gate-repeat",
        label: "Repeated?",
        status: Status::RepeatedCall,
        unknown: "A call repeated repeat_threshold times stops the run, if set.",
        pass: "not a repeat",
        at: (655.0, Row::Calls),
        exit_at: (635.0, Row::BottomExits),
    },
];

impl Gate {
    /// The gate this node is, if it is one.
    pub fn of(node: NodeId) -> Option<&'static Gate> {
        GATES.iter().find(|gate| gate.node == node)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Start,
    Gate,
    Step,
    Exit,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub id: NodeId,
    pub kind: NodeKind,
    pub label: String,
    /// What this node does under these limits, in a sentence.
    pub note: String,
    /// A gate whose limit is not set: it never stops the run.
    pub off: bool,
    /// The `seq` of every event that passed or happened here, in order.
    pub events: Vec<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeKey {
    pub from: NodeId,
    pub to: NodeId,
}

pub fn edge(from: NodeId, to: NodeId) -> EdgeKey {
    EdgeKey { from, to }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeStyle {
    Normal,
    /// Drawn to show the way is closed under these limits: a pitfall mode
    /// that cannot take it (the note says why).
    NotTaken,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub key: EdgeKey,
    /// What taking this edge means, in words.
    pub label: String,
    /// A word or two shown on the drawing, if any.
    pub tag: &'static str,
    pub style: EdgeStyle,
    /// How many times the run went this way.
    pub count: u32,
    /// The event of each traversal, in order.
    pub events: Vec<u64>,
}

/// The pitfall modes that change the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub cost: CostMode,
    pub deadline: DeadlineMode,
    pub deadline_shared: bool,
    pub repeat: RepeatMode,
    pub stop: StopMode,
}

impl Variant {
    pub fn of(limits: &Limits) -> Variant {
        Variant {
            cost: limits.cost_mode,
            deadline: limits.deadline_mode,
            deadline_shared: limits.deadline_scope == DeadlineScope::Shared,
            repeat: limits.repeat_mode,
            stop: limits.stop_mode,
        }
    }

    /// The gates a turn passes before its model call, in the order `Run`
    /// checks them: the limits (`preflight_stop`), then the context window
    /// (`context_gate`), which measures the request about to go. A naive
    /// cost gate comes first: it stands on the way back from a turn's
    /// results, and the very first turn skips it (nothing has been spent).
    pub fn chain(self) -> &'static [NodeId] {
        match self.cost {
            CostMode::Strict => &[
                NodeId::GateDeadline,
                NodeId::GateTurns,
                NodeId::GateTokens,
                NodeId::GateCost,
                NodeId::GateContext,
                NodeId::ModelCall,
            ],
            CostMode::Naive => &[
                NodeId::GateCost,
                NodeId::GateDeadline,
                NodeId::GateTurns,
                NodeId::GateTokens,
                NodeId::GateContext,
                NodeId::ModelCall,
            ],
        }
    }

    /// Whether the deadline interrupts a call that is still running.
    pub fn deadline_cuts_calls(self) -> bool {
        self.deadline == DeadlineMode::Interrupt
    }
}

/// Nodes that a deadline cuts mid-call when `deadline_mode` is `interrupt`.
pub const MID_CALL: [NodeId; 4] = [
    NodeId::ModelCall,
    NodeId::Backoff,
    NodeId::Approval,
    NodeId::RunTool,
];

/// The drawing's nodes and edges with what passed them.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    pub variant: Variant,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Each event's own place: where it happened.
    homes: HashMap<u64, NodeId>,
    /// Traversals this drawing has no edge for. A trace the harness wrote
    /// never has one; it would mean the drawing and `Run` disagree.
    pub stray: Vec<(EdgeKey, u64)>,
}

/// One thing an event did to the drawing, kept so a guess can be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The event passed this node.
    Visit(NodeId, u64),
    /// The event happened at this node (its place for "where is it").
    Home(NodeId, u64),
    /// The run went along this edge with this event.
    Traverse(EdgeKey, u64),
}

impl Graph {
    /// A drawing of these nodes and edges, nothing passed yet.
    pub fn new(variant: Variant, nodes: Vec<Node>, edges: Vec<Edge>) -> Graph {
        Graph {
            variant,
            nodes,
            edges,
            homes: HashMap::new(),
            stray: Vec::new(),
        }
    }

    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    pub fn edge(&self, key: EdgeKey) -> Option<&Edge> {
        self.edges.iter().find(|e| e.key == key)
    }

    pub fn home_of(&self, seq: u64) -> Option<NodeId> {
        self.homes.get(&seq).copied()
    }

    fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|n| n.id == id)
    }

    fn edge_mut(&mut self, key: EdgeKey) -> Option<&mut Edge> {
        self.edges.iter_mut().find(|e| e.key == key)
    }

    pub fn apply(&mut self, mark: Mark) {
        match mark {
            Mark::Visit(id, seq) => {
                if let Some(node) = self.node_mut(id) {
                    node.events.push(seq);
                }
            }
            Mark::Home(id, seq) => {
                if let Some(node) = self.node_mut(id) {
                    node.events.push(seq);
                }
                self.homes.insert(seq, id);
            }
            Mark::Traverse(key, seq) => match self.edge_mut(key) {
                Some(edge) => {
                    edge.count += 1;
                    edge.events.push(seq);
                }
                None => self.stray.push((key, seq)),
            },
        }
    }

    /// Takes back a mark. Marks are taken back newest first, so each is the
    /// last entry of its list.
    pub fn undo(&mut self, mark: Mark) {
        fn pop(events: &mut Vec<u64>, seq: u64) {
            if let Some(at) = events.iter().rposition(|s| *s == seq) {
                events.remove(at);
            }
        }
        match mark {
            Mark::Visit(id, seq) => {
                if let Some(node) = self.node_mut(id) {
                    pop(&mut node.events, seq);
                }
            }
            Mark::Home(id, seq) => {
                if let Some(node) = self.node_mut(id) {
                    pop(&mut node.events, seq);
                }
                self.homes.remove(&seq);
            }
            Mark::Traverse(key, seq) => match self.edge_mut(key) {
                Some(edge) => {
                    edge.count -= 1;
                    pop(&mut edge.events, seq);
                }
                None => {
                    if let Some(at) = self.stray.iter().rposition(|s| *s == (key, seq)) {
                        self.stray.remove(at);
                    }
                }
            },
        }
    }
}
