//! One turn's tool calls on their way through the per-call checks.
//!
//! While a run plays, each call is drawn as its events say: a valid call
//! that needs no approval is running. Three things only show once the run
//! has finished, because `Run` decides them in the same step as the
//! `run_finished` event: that a limit refused the turn's last call (the
//! result "not run" comes right after the `tool_call`, like an invalid
//! call's), that the calls after a stop were never taken up (`Run` records
//! them and answers them "not run", but does not count them), and whether a
//! stop cut a running call off. So a turn keeps its events and marks, and
//! at `run_finished` takes its marks back and draws the turn once more with
//! what the outcome says: how many calls the run took up in all, and why
//! it stopped. Only the current turn is kept.

use harness::approval::DecisionKind;
use harness::event::Status;

use super::graph::{edge, Graph, Mark, NodeId};
use super::place::Doing;

/// The events of a call, reduced to what the drawing needs.
#[derive(Clone, Debug, PartialEq)]
pub enum CallEvent {
    Call {
        seq: u64,
        tool: String,
        valid: bool,
        needs_approval: bool,
    },
    Asked {
        seq: u64,
    },
    Decided {
        seq: u64,
        decision: DecisionKind,
    },
    Result {
        seq: u64,
        cut_short: bool,
    },
}

impl CallEvent {
    /// A `tool_result`, by the fate `Run` wrote on it.
    pub fn result(seq: u64, fate: Option<harness::event::ResultFate>) -> CallEvent {
        CallEvent::Result {
            seq,
            cut_short: fate == Some(harness::event::ResultFate::CutShort),
        }
    }
}

/// What the outcome says about the turn it ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ending {
    /// Calls of this turn that the run took up; later ones were not.
    pub taken_up: u32,
    pub status: Status,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TurnCalls {
    /// Where the turn's calls start from: the response that asked for them.
    start: Doing,
    events: Vec<CallEvent>,
    marks: Vec<Mark>,
    walk: Walk,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Walk {
    /// `tool_call` events seen.
    seen: u32,
    /// Of those, the calls the run took up.
    taken_up: u32,
    stage: Stage,
    tool: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Stage {
    #[default]
    Between,
    /// Recorded after the stop and answered "not run" with it.
    NotTakenUp,
    Refused(NodeId),
    Invalid,
    Deciding,
    Denied,
    DeniedAndStopped,
    Running,
}

impl TurnCalls {
    pub fn new(start: Doing) -> TurnCalls {
        TurnCalls {
            start,
            events: Vec::new(),
            marks: Vec::new(),
            walk: Walk::default(),
        }
    }

    /// Calls taken up so far (before `settle`, every call seen).
    pub fn taken_up(&self) -> u32 {
        self.walk.taken_up
    }

    /// Some calls of the turn were never taken up: the run stopped between
    /// calls, not between turns.
    pub fn left_some(&self) -> bool {
        self.walk.seen > self.walk.taken_up
    }

    pub fn observe(&mut self, graph: &mut Graph, event: CallEvent, doing: &mut Doing) {
        let marks = self.walk.step(&event, None, doing);
        for mark in &marks {
            graph.apply(*mark);
        }
        self.marks.extend(marks);
        self.events.push(event);
    }

    /// Draws the turn again as the outcome tells it; `doing` is left where
    /// the turn ended.
    pub fn settle(&mut self, graph: &mut Graph, ending: Ending, doing: &mut Doing) {
        for mark in self.marks.drain(..).rev() {
            graph.undo(mark);
        }
        self.walk = Walk::default();
        *doing = self.start.clone();
        for event in &self.events {
            let marks = self.walk.step(event, Some(ending), doing);
            for mark in &marks {
                graph.apply(*mark);
            }
            self.marks.extend(marks);
        }
    }
}

impl Walk {
    fn step(&mut self, event: &CallEvent, ending: Option<Ending>, doing: &mut Doing) -> Vec<Mark> {
        use NodeId::*;
        let mut marks = Vec::new();
        match event {
            CallEvent::Call {
                seq,
                tool,
                valid,
                needs_approval,
            } => {
                let seq = *seq;
                self.seen += 1;
                self.tool = tool.clone();
                if let Some(end) = ending.filter(|end| self.seen > end.taken_up) {
                    self.stage = Stage::NotTakenUp;
                    marks.push(Mark::Home(Exit(end.status), seq));
                    return marks;
                }
                let from = if self.taken_up == 0 {
                    Response
                } else {
                    Results
                };
                self.taken_up += 1;
                // The last call taken up is the one a per-call limit refused.
                let refused_by =
                    ending
                        .filter(|end| self.taken_up == end.taken_up)
                        .and_then(|end| match end.status {
                            Status::ToolCallLimit => Some(GateToolCalls),
                            Status::RepeatedCall => Some(GateRepeat),
                            _ => None,
                        });
                marks.push(Mark::Traverse(edge(from, GateToolCalls), seq));
                if refused_by == Some(GateToolCalls) {
                    return self.refuse(GateToolCalls, seq, marks, doing);
                }
                marks.push(Mark::Visit(GateToolCalls, seq));
                marks.push(Mark::Traverse(edge(GateToolCalls, GateRepeat), seq));
                if refused_by == Some(GateRepeat) {
                    return self.refuse(GateRepeat, seq, marks, doing);
                }
                marks.push(Mark::Visit(GateRepeat, seq));
                marks.push(Mark::Traverse(edge(GateRepeat, Validate), seq));
                marks.push(Mark::Home(Validate, seq));
                let tool = tool.clone();
                if !valid {
                    self.stage = Stage::Invalid;
                    *doing = Doing::CheckingCall { tool };
                } else if *needs_approval {
                    marks.push(Mark::Traverse(edge(Validate, Approval), seq));
                    self.stage = Stage::Deciding;
                    *doing = Doing::Deciding {
                        tool,
                        asked: false,
                        denied: false,
                    };
                } else {
                    marks.push(Mark::Traverse(edge(Validate, RunTool), seq));
                    self.stage = Stage::Running;
                    *doing = Doing::Running { tool };
                }
            }
            CallEvent::Asked { seq } => {
                marks.push(Mark::Home(Approval, *seq));
                if self.stage == Stage::Deciding {
                    *doing = Doing::Deciding {
                        tool: self.tool.clone(),
                        asked: true,
                        denied: false,
                    };
                }
            }
            CallEvent::Decided { seq, decision } => {
                marks.push(Mark::Home(Approval, *seq));
                if self.stage != Stage::Deciding {
                    return marks;
                }
                let tool = self.tool.clone();
                match decision {
                    DecisionKind::Approve
                    | DecisionKind::ApproveEdited
                    | DecisionKind::AlwaysAllow => {
                        marks.push(Mark::Traverse(edge(Approval, RunTool), *seq));
                        self.stage = Stage::Running;
                        *doing = Doing::Running { tool };
                    }
                    DecisionKind::Deny | DecisionKind::DenyAndStop => {
                        self.stage = if *decision == DecisionKind::Deny {
                            Stage::Denied
                        } else {
                            Stage::DeniedAndStopped
                        };
                        *doing = Doing::Deciding {
                            tool,
                            asked: true,
                            denied: true,
                        };
                    }
                }
            }
            CallEvent::Result { seq, cut_short } => {
                let seq = *seq;
                let stage = std::mem::take(&mut self.stage);
                match stage {
                    Stage::NotTakenUp => {
                        if let Some(end) = ending {
                            marks.push(Mark::Home(Exit(end.status), seq));
                        }
                    }
                    // The answers to calls the run stopped at stay where
                    // the run stopped.
                    Stage::Refused(gate) => marks.push(Mark::Home(gate, seq)),
                    Stage::Deciding | Stage::DeniedAndStopped => {
                        marks.push(Mark::Home(Approval, seq))
                    }
                    Stage::Invalid => {
                        marks.push(Mark::Traverse(edge(Validate, Results), seq));
                        marks.push(Mark::Home(Validate, seq));
                        *doing = Doing::ResultsBack;
                    }
                    Stage::Denied => {
                        marks.push(Mark::Traverse(edge(Approval, Results), seq));
                        marks.push(Mark::Home(Approval, seq));
                        *doing = Doing::ResultsBack;
                    }
                    Stage::Running if *cut_short => {
                        marks.push(Mark::Home(RunTool, seq));
                        *doing = Doing::CutOff {
                            tool: self.tool.clone(),
                        };
                    }
                    Stage::Running => {
                        marks.push(Mark::Traverse(edge(RunTool, Results), seq));
                        marks.push(Mark::Home(RunTool, seq));
                        *doing = Doing::ResultsBack;
                    }
                    // A result without its call: a trace this drawing
                    // cannot place on a path. It stays with the results.
                    Stage::Between => marks.push(Mark::Home(Results, seq)),
                }
            }
        }
        marks
    }

    fn refuse(
        &mut self,
        gate: NodeId,
        seq: u64,
        mut marks: Vec<Mark>,
        doing: &mut Doing,
    ) -> Vec<Mark> {
        marks.push(Mark::Home(gate, seq));
        self.stage = Stage::Refused(gate);
        *doing = Doing::Refused {
            tool: self.tool.clone(),
            gate,
        };
        marks
    }
}
