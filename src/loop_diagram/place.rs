//! Where the run is on the loop, and what it is doing there, in words.

use harness::event::Status;

use super::graph::NodeId;

#[derive(Clone, Debug, Default, PartialEq)]
pub enum Doing {
    /// No run yet.
    #[default]
    Idle,
    Started,
    WaitingForModel {
        turn: u32,
        attempt: u32,
    },
    WaitingToRetry {
        ms: u64,
    },
    /// The response is in. `pause`: a `pause_turn` without calls, which
    /// goes back to the gates.
    ReadingResponse {
        pause: bool,
    },
    /// An invalid call, about to be answered with an error.
    CheckingCall {
        tool: String,
    },
    /// A limit refused the call at this gate.
    Refused {
        tool: String,
        gate: NodeId,
    },
    /// A call waiting for its decision: from a person once `asked`.
    Deciding {
        tool: String,
        asked: bool,
        denied: bool,
    },
    Running {
        tool: String,
    },
    /// A stop answered the call "not run to completion".
    CutOff {
        tool: String,
    },
    ResultsBack,
    Ended(Status),
}

impl Doing {
    pub fn node(&self) -> Option<NodeId> {
        Some(match self {
            Doing::Idle => return None,
            Doing::Started => NodeId::Start,
            Doing::WaitingForModel { .. } => NodeId::ModelCall,
            Doing::WaitingToRetry { .. } => NodeId::Backoff,
            Doing::ReadingResponse { .. } => NodeId::Response,
            Doing::CheckingCall { .. } => NodeId::Validate,
            Doing::Refused { gate, .. } => *gate,
            Doing::Deciding { .. } => NodeId::Approval,
            Doing::Running { .. } | Doing::CutOff { .. } => NodeId::RunTool,
            Doing::ResultsBack => NodeId::Results,
            Doing::Ended(status) => NodeId::Exit(*status),
        })
    }

    pub fn text(&self) -> String {
        match self {
            Doing::Idle => "no run yet".to_string(),
            Doing::Started => "the run has started".to_string(),
            Doing::WaitingForModel { turn, attempt: 1 } => {
                format!("waiting for the model, turn {turn}")
            }
            Doing::WaitingForModel { turn, attempt } => {
                format!("waiting for the model, turn {turn}, attempt {attempt}")
            }
            Doing::WaitingToRetry { ms } => format!("waiting {ms} ms before retrying"),
            Doing::ReadingResponse { .. } => "reading the response".to_string(),
            Doing::CheckingCall { tool } => format!("answering the invalid call to {tool}"),
            Doing::Refused { tool, .. } => format!("refused the call to {tool}"),
            Doing::Deciding {
                tool, denied: true, ..
            } => format!("{tool} was denied"),
            Doing::Deciding {
                tool, asked: true, ..
            } => format!("waiting for a person to decide on {tool}"),
            Doing::Deciding { tool, .. } => format!("the approval policy decides on {tool}"),
            Doing::Running { tool } => format!("running {tool}"),
            Doing::CutOff { tool } => format!("{tool} was cut off"),
            Doing::ResultsBack => "the results go back to the model".to_string(),
            Doing::Ended(status) => format!("ended: {status}"),
        }
    }
}
