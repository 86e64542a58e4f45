//! Running a lesson: the scenario as the learner left it, with what the
//! learner did in the run itself: the turns they typed as the model or the
//! tool, their approval decisions, and when they pressed Stop.
//!
//! The turns go through the same machinery as the page's step mode
//! (`person_turn::check_turn`, `driver::Resume`): the run pauses before
//! each step, and the next typed turn that fits the pause answers it; any
//! other pause goes on as usual. So a lesson checks the same on the command
//! line as in the page, where these are typed and clicked.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use futures::future::{self, Either, LocalBoxFuture};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::approval::{ApprovalRequest, Approver, Decision, DecisionKind};
use crate::cancel::CancelToken;
use crate::driver::{Pause, Resume, Stepper};
use crate::event::{Outcome, RunEvent};
use crate::model::ToolSpec;
use crate::person_turn::{check_turn, TypedCall, TypedTurn};
use crate::run::PauseBefore;
use crate::runtime::Runtime;
use crate::scenario::{Problem, Scenario};
use crate::{run_scenario, RunOptions};

/// What the learner does in the run, beside editing the scenario.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    /// Typed in the model's or a tool's place, in the order the run meets them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    /// The answers to the run's approval requests, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<LessonDecision>,
    /// Stop pressed this long after the run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_after_ms: Option<u64>,
    /// The choice the learner picked before the run (a predicting lesson).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<String>,
    /// How many times Step advanced the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u32>,
}

/// The learner's fields of a lesson file: what `Work` holds.
pub const WORK_FIELDS: [&str; 5] = ["turns", "decisions", "stop_after_ms", "prediction", "steps"];

/// A turn typed in the model's place (`text`, `tool_calls`, `stop_reason`)
/// or a tool's (`result`, or `error` for an error result). Which one it is
/// is read from its fields; `lesson::load` refuses a mix.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub thinking: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<TurnCall>,
    /// Absent: `tool_use` when the turn calls tools, else `end_turn`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For a tool's answer: the tool it answers for; absent, the next tool
    /// call whichever it is. Other calls run as usual.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl Turn {
    pub fn is_tool_answer(&self) -> bool {
        self.result.is_some() || self.error.is_some()
    }

    pub fn is_model_turn(&self) -> bool {
        !self.text.is_empty()
            || !self.thinking.is_empty()
            || !self.tool_calls.is_empty()
            || self.stop_reason.is_some()
    }

    fn typed(&self) -> TypedTurn {
        TypedTurn {
            text: self.text.clone(),
            thinking: self.thinking.clone(),
            calls: self
                .tool_calls
                .iter()
                .map(|c| TypedCall {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    arguments: c.args.to_string(),
                })
                .collect(),
            stop_reason: self.stop_reason.clone().unwrap_or_else(|| {
                if self.tool_calls.is_empty() {
                    "end_turn"
                } else {
                    "tool_use"
                }
                .to_string()
            }),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnCall {
    pub id: String,
    pub name: String,
    #[serde(default = "empty_object")]
    pub args: Value,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

/// One approval decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonDecision {
    pub decision: DecisionKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The arguments to run with instead, for `approve_edited`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
}

impl LessonDecision {
    fn decision(&self) -> Decision {
        match self.decision {
            DecisionKind::Approve => Decision::Approve,
            DecisionKind::ApproveEdited => {
                Decision::ApproveEdited(self.args.clone().unwrap_or_else(empty_object))
            }
            DecisionKind::Deny => Decision::Deny {
                reason: self.reason.clone(),
            },
            DecisionKind::DenyAndStop => Decision::DenyAndStop {
                reason: self.reason.clone(),
            },
            DecisionKind::AlwaysAllow => Decision::AlwaysAllow,
        }
    }
}

/// A run of a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub events: Vec<RunEvent>,
    pub outcome: Outcome,
}

/// Answers approval requests with the learner's decisions in order. When
/// they run out, the call is denied and the run stops, saying so: on the
/// command line nobody is there to ask.
struct Decisions(RefCell<VecDeque<LessonDecision>>);

impl Approver for Decisions {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> LocalBoxFuture<'a, Decision> {
        let decision = self.0.borrow_mut().pop_front().map_or_else(
            || Decision::DenyAndStop {
                reason: Some(format!(
                    "the lesson gives no decision for {} ({})",
                    request.tool, request.call_id
                )),
            },
            |d| d.decision(),
        );
        Box::pin(async move { decision })
    }
}

/// Answers each pause with the next typed turn when it fits, else goes on.
/// Stepping every step (`step_all`), it pauses before each call as the
/// page's Step does, and notes each pause.
struct Typed {
    turns: RefCell<VecDeque<Turn>>,
    system: String,
    tools: Vec<ToolSpec>,
    step_all: bool,
    pauses: RefCell<Vec<String>>,
}

impl Stepper for Typed {
    fn step_mode(&self) -> bool {
        self.step_all || !self.turns.borrow().is_empty()
    }

    fn wait(&self, pause: &Pause) -> LocalBoxFuture<'static, Resume> {
        if self.step_all && pause.refused.is_none() {
            self.pauses.borrow_mut().push(match &pause.before {
                PauseBefore::ModelCall { turn } => format!("before model call {turn}"),
                PauseBefore::ToolCall { name, .. } => format!("before {name} runs"),
            });
        }
        let mut turns = self.turns.borrow_mut();
        let fits = turns.front().is_some_and(|turn| match pause.before {
            PauseBefore::ModelCall { .. } => !turn.is_tool_answer(),
            PauseBefore::ToolCall { ref name, .. } => {
                turn.is_tool_answer() && turn.tool.as_ref().is_none_or(|tool| tool == name)
            }
        });
        let resume = match turns.pop_front() {
            Some(turn) if fits => match (&turn.result, &turn.error) {
                (_, Some(error)) => Resume::AnswerAsTool(Err(error.clone())),
                (Some(result), None) => Resume::AnswerAsTool(Ok(result.clone())),
                // The history is the run's business: the run takes the
                // turn as built, problems and all, as the page sends it.
                (None, None) => Resume::AnswerAsModel(
                    check_turn(&turn.typed(), &self.system, &self.tools, &[]).response,
                ),
            },
            Some(turn) => {
                turns.push_front(turn);
                Resume::Go
            }
            None => Resume::Go,
        };
        Box::pin(async move { resume })
    }
}

/// Runs `scenario` with the learner's `work`. Delays and deadlines take
/// `runtime`'s time: the CLI runs lessons on a paused clock, so an hour's
/// hang is over at once.
pub async fn play(
    scenario: &Scenario,
    work: &Work,
    runtime: Rc<dyn Runtime>,
) -> Result<Played, Vec<Problem>> {
    play_with(scenario, work, runtime, false)
        .await
        .map(|(played, _)| played)
}

/// Runs `scenario` with `work` stepped from the start, as pressing Step
/// over and over does on the page: the run pauses before each model call
/// and each tool call. Returns the run and each pause in words
/// ("before model call 1", "before get_time runs"): a stepping lesson's
/// `walk` has a line for each.
pub async fn play_stepped(
    scenario: &Scenario,
    work: &Work,
    runtime: Rc<dyn Runtime>,
) -> Result<(Played, Vec<String>), Vec<Problem>> {
    play_with(scenario, work, runtime, true).await
}

async fn play_with(
    scenario: &Scenario,
    work: &Work,
    runtime: Rc<dyn Runtime>,
    step_all: bool,
) -> Result<(Played, Vec<String>), Vec<Problem>> {
    let tools = scenario.tool_specs()?;
    let typed = Typed {
        turns: RefCell::new(work.turns.iter().cloned().collect()),
        system: scenario.system.clone(),
        tools,
        step_all,
        pauses: RefCell::new(Vec::new()),
    };
    let decisions = Decisions(RefCell::new(work.decisions.iter().cloned().collect()));
    let cancel = CancelToken::default();
    let options = RunOptions {
        approver: (!work.decisions.is_empty()).then_some(&decisions as &dyn Approver),
        cancel: cancel.clone(),
        stepper: (step_all || !work.turns.is_empty()).then_some(&typed as &dyn Stepper),
        scripts: None,
    };
    let mut events = Vec::new();
    let stop = cancel.cancel_after(runtime.as_ref(), work.stop_after_ms);
    let mut on_event = |e: &RunEvent| events.push(e.clone());
    let outcome = {
        let run = run_scenario(scenario, runtime.clone(), options, &mut on_event);
        futures::pin_mut!(run);
        match work.stop_after_ms {
            None => run.await?,
            Some(_) => match future::select(run, stop).await {
                Either::Left((outcome, _)) => outcome?,
                Either::Right(((), run)) => run.await?,
            },
        }
    };
    Ok((Played { events, outcome }, typed.pauses.into_inner()))
}
