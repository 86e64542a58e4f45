//! A lesson's goal, and whether a run meets it, part by part.
//!
//! The vocabulary is `replay --assert`'s (`status`, `tool_sequence`,
//! `no_repeated_calls`, `ids_exist`, with replay's own checks reused) plus
//! what lessons need. Each part gets a plain sentence that says what the
//! run did next to what the goal asks ("the run ended `done`; the goal is
//! `turn_limit`"): the page shows these sentences beside the loop and
//! `agent-loop lesson check` prints them.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::counts::{fate_ran, model_calls, ran_only};
use super::play::Work;
use super::predict::Predict;
use crate::approval::DecisionKind;
use crate::event::{EventKind, Outcome, RunEvent};
use crate::replay::{ids_exist, repeats, tool_steps};
use crate::verify::{Check, RanOk, Verifier};
use crate::wire::{rejections, Rejection, RequestShape};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// The status the run ends with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The tools whose calls ran, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_sequence: Option<Vec<String>>,
    /// `true`: no identical call (canonical arguments) twice; `false`: one
    /// was made twice (a lesson that shows the naive check missing it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_repeated_calls: Option<bool>,
    /// `true`: every id-like word of the answer came from a tool result or
    /// the task; `false`: the answer names one that did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids_exist: Option<bool>,
    /// At most this many model calls (turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_model_calls: Option<u32>,
    /// Each of these tools ran at least once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools_called: Vec<String>,
    /// None of these tools ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools_not_called: Vec<String>,
    /// The final answer contains each of these (letter case ignored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_contains: Vec<String>,
    /// Some call of `tool` ran with arguments that include `args`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub called_with: Vec<CalledWith>,
    /// What the protocol checker says of the run's requests, for every provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker: Option<Verdict>,
    /// The approval requests, in order, and what was decided for each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approvals: Option<Vec<ApprovalGoal>>,
    /// The run ended within this many milliseconds of its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_elapsed_ms: Option<u64>,
    /// At least this many model calls (turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_model_calls: Option<u32>,
    /// `true`: the run ended with a final answer that is not empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered: Option<bool>,
    /// The edited scenario's value at each dotted path equals the one given.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub scenario_has: Map<String, Value>,
    /// The learner pressed Step at least this many times.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_steps: Option<u32>,
    /// `true`: a prediction was recorded before the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted: Option<bool>,
    /// This context strategy (`clear_tool_results`, `drop_oldest_turns`,
    /// `compact`) changed the history at least once: the run needed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_edited: Option<String>,
    /// Answers the scenario's verifier, as the learner left it, must pass
    /// (its tool checks see the tools that ran in this run): a check that
    /// rejects the run's wrong answer by rejecting everything misses the
    /// point of a verifier.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verifier_accepts: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Accepts,
    Rejects,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalledWith {
    pub tool: String,
    pub args: Value,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovalGoal {
    pub tool: String,
    pub decision: DecisionKind,
}

/// One part of a goal, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalPart {
    /// The goal's field: `status`, `tools_called`, ….
    pub part: String,
    pub holds: bool,
    /// What the run did, next to what the goal asks.
    pub sentence: String,
}

impl Goal {
    /// True when the goal asks nothing, which no lesson may do.
    pub fn is_empty(&self) -> bool {
        *self == Goal::default()
    }

    /// The goal a run meets, for "Make this a lesson": its status, the
    /// calls that ran in order, how many model calls it took, and its
    /// approval decisions when there were any. A teacher trims it after.
    pub fn from_run(events: &[RunEvent], outcome: &Outcome) -> Goal {
        let ran: Vec<String> = tool_steps(&ran_only(events))
            .into_iter()
            .map(|(name, _, _)| name)
            .collect();
        let decided: Vec<ApprovalGoal> = approvals(events)
            .into_iter()
            .filter_map(|(tool, decision)| decision.map(|decision| ApprovalGoal { tool, decision }))
            .collect();
        Goal {
            status: Some(outcome.status.as_str().to_string()),
            tool_sequence: Some(ran),
            max_model_calls: Some(model_calls(events)),
            approvals: (!decided.is_empty()).then_some(decided),
            ..Goal::default()
        }
    }
}

/// What a goal is judged on: the run, and what the learner did around it.
#[derive(Clone, Copy, Debug)]
pub struct Judged<'a> {
    /// The scenario's system prompt and tools, which the checker needs to
    /// rebuild the requests; without it a `checker` part cannot hold.
    pub shape: Option<&'a RequestShape>,
    pub events: &'a [RunEvent],
    pub outcome: &'a Outcome,
    /// The scenario as the learner left it (JSON), for `scenario_has`.
    pub scenario: &'a Value,
    /// The learner's work: typed turns, decisions, Stop, steps, prediction.
    pub work: &'a Work,
    /// The lesson's prediction question, so `predicted` can say what the
    /// run did next to what was predicted.
    pub predict: Option<&'a Predict>,
    /// What the prediction is about, as the lesson's start did it, when
    /// this run is an edited one: the prediction is compared with that.
    pub start_value: Option<&'a str>,
}

/// Judges each part the goal names on a run alone: the parts that need the
/// edited scenario or the learner's work (`scenario_has`, `min_steps`,
/// `predicted`) are judged against an empty scenario and no work, so they
/// do not hold; `evaluate_run` sees both.
pub fn evaluate(
    goal: &Goal,
    shape: Option<&RequestShape>,
    events: &[RunEvent],
    outcome: &Outcome,
) -> Vec<GoalPart> {
    let work = Work::default();
    evaluate_run(
        goal,
        &Judged {
            shape,
            events,
            outcome,
            scenario: &Value::Null,
            work: &work,
            predict: None,
            start_value: None,
        },
    )
}

/// Judges each part the goal names, in the order of the fields above.
pub fn evaluate_run(goal: &Goal, judged: &Judged<'_>) -> Vec<GoalPart> {
    let Judged {
        shape,
        events,
        outcome,
        ..
    } = *judged;
    // Calls that ran: one refused (over a limit, denied, invalid) is no
    // call the goal can see made.
    let steps = tool_steps(&ran_only(events));
    let mut parts = Vec::new();
    parts.extend(goal.status.as_deref().map(|want| status(want, outcome)));
    parts.extend(
        goal.tool_sequence
            .as_deref()
            .map(|want| tool_sequence(want, &steps)),
    );
    parts.extend(
        goal.no_repeated_calls
            .map(|want| no_repeated_calls(want, &steps)),
    );
    parts.extend(
        goal.ids_exist
            .map(|want| ids_exist_part(want, events, outcome)),
    );
    parts.extend(goal.max_model_calls.map(|max| max_model_calls(max, events)));
    parts.extend(
        goal.tools_called
            .iter()
            .map(|tool| tool_called(tool, events)),
    );
    parts.extend(
        goal.tools_not_called
            .iter()
            .map(|tool| tool_not_called(tool, events)),
    );
    parts.extend(
        goal.answer_contains
            .iter()
            .map(|text| answer_contains(text, outcome)),
    );
    parts.extend(
        goal.called_with
            .iter()
            .map(|want| called_with(want, events)),
    );
    parts.extend(goal.checker.map(|want| checker(want, shape, events)));
    parts.extend(
        goal.approvals
            .as_deref()
            .map(|want| approvals_part(want, events)),
    );
    parts.extend(goal.max_elapsed_ms.map(|max| max_elapsed_ms(max, outcome)));
    parts.extend(goal.min_model_calls.map(|min| min_model_calls(min, events)));
    parts.extend(goal.answered.map(|want| answered(want, outcome)));
    parts.extend(
        goal.scenario_has
            .iter()
            .map(|(path, want)| scenario_has(path, want, judged.scenario)),
    );
    parts.extend(goal.min_steps.map(|min| min_steps(min, judged.work)));
    parts.extend(goal.predicted.map(|want| predicted(want, judged)));
    parts.extend(
        goal.context_edited
            .as_deref()
            .map(|want| context_edited(want, events)),
    );
    parts.extend(
        goal.verifier_accepts
            .iter()
            .map(|answer| verifier_accepts(answer, judged.scenario, events)),
    );
    parts
}

fn verifier_accepts(answer: &str, scenario: &Value, events: &[RunEvent]) -> GoalPart {
    let shown = crate::tool::clip(answer, 80);
    let checks: Vec<Check> = match scenario.get("verify") {
        None | Some(Value::Null) => Vec::new(),
        Some(checks) => match serde_json::from_value(checks.clone()) {
            Ok(checks) => checks,
            Err(_) => {
                return part(
                    "verifier_accepts",
                    false,
                    "the scenario's verify checks cannot be read, so no answer passes them"
                        .to_string(),
                )
            }
        },
    };
    let verifier = match Verifier::new(checks) {
        Ok(verifier) => verifier,
        Err(errors) => {
            let why = errors
                .first()
                .map(|(_, why)| why.clone())
                .unwrap_or_default();
            return part(
                "verifier_accepts",
                false,
                format!("the verifier does not compile ({why}), so no answer passes it"),
            );
        }
    };
    let mut ran_ok = RanOk::default();
    let mut args_of: Vec<(&str, &Value)> = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::ToolCall { id, args, .. } => args_of.push((id.as_str(), args)),
            EventKind::ToolResult {
                id,
                name,
                is_error: false,
                fate,
                ..
            } if fate_ran(*fate) => {
                if let Some((_, args)) = args_of.iter().find(|(i, _)| *i == id.as_str()) {
                    ran_ok.record(&verifier, name, args);
                }
            }
            _ => {}
        }
    }
    match verifier.verify(answer, &ran_ok) {
        Ok(()) if verifier.is_empty() => part(
            "verifier_accepts",
            true,
            format!("with no checks, the verifier passes {shown:?} (and every other answer)"),
        ),
        Ok(()) => part(
            "verifier_accepts",
            true,
            format!("your verifier passes the right answer {shown:?}"),
        ),
        Err(why) => part(
            "verifier_accepts",
            false,
            format!("your verifier rejects the right answer {shown:?} too ({why}); the goal is a verifier that passes it"),
        ),
    }
}

fn context_edited(want: &str, events: &[RunEvent]) -> GoalPart {
    // Each edit: the strategy that made it, before which turn, and the
    // request's estimated input tokens before and after.
    let edits: Vec<(&str, u32, u64, u64)> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ContextEdited {
                turn,
                strategy,
                tokens_before,
                tokens_after,
                ..
            } => Some((strategy.as_str(), *turn, *tokens_before, *tokens_after)),
            _ => None,
        })
        .collect();
    let asked = format!("the goal is that {want} does");
    let (holds, sentence) = match edits.iter().find(|(strategy, ..)| *strategy == want) {
        Some((_, turn, before, after)) => (
            true,
            format!(
                "{want} changed the history before turn {turn} ({before} → {after} estimated input tokens)"
            ),
        ),
        None => match edits.first() {
            Some((other, ..)) => (
                false,
                format!("{other} changed the history, not {want}; {asked}"),
            ),
            None => (
                false,
                format!("no context strategy changed the history; {asked}"),
            ),
        },
    };
    part("context_edited", holds, sentence)
}

fn min_model_calls(min: u32, events: &[RunEvent]) -> GoalPart {
    let calls = model_calls(events);
    part(
        "min_model_calls",
        calls >= min,
        format!(
            "the model was called {}; the goal is at least {}",
            times(calls),
            times(min)
        ),
    )
}

fn answered(want: bool, outcome: &Outcome) -> GoalPart {
    let answer = outcome.answer.as_deref().map(str::trim).unwrap_or("");
    let gave = !answer.is_empty();
    let sentence = if gave {
        format!(
            "the run ended with the answer {:?}",
            crate::tool::clip(answer, 120)
        )
    } else {
        "the run ended with no final answer".to_string()
    };
    let asked = if want {
        "the goal is a final answer"
    } else {
        "the goal is a run that ends without an answer"
    };
    let holds = gave == want;
    part("answered", holds, said_against(holds, sentence, asked))
}

fn scenario_has(path: &str, want: &Value, scenario: &Value) -> GoalPart {
    let got = super::patch::value_at(scenario, path);
    let holds = got == Some(want);
    let sentence = match got {
        Some(got) if holds => format!("{path} is {got}, as the goal asks"),
        Some(got) => format!("{path} is {got}; the goal is {want}"),
        None => format!("the scenario does not set {path}; the goal is {want}"),
    };
    part("scenario_has", holds, sentence)
}

fn min_steps(min: u32, work: &Work) -> GoalPart {
    let steps = work.steps.unwrap_or(0);
    let pressed = match steps {
        0 => "Step was not pressed".to_string(),
        n => format!("Step was pressed {}", times(n)),
    };
    part(
        "min_steps",
        steps >= min,
        format!("{pressed}; the goal is at least {}", times(min)),
    )
}

fn predicted(want: bool, judged: &Judged<'_>) -> GoalPart {
    let prediction = judged
        .work
        .prediction
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty());
    let sentence = match (prediction, judged.predict, judged.start_value) {
        (Some(guess), Some(_), Some(start)) => {
            format!("you predicted {guess}; the lesson as it starts: {start}")
        }
        (Some(guess), Some(predict), None) => format!(
            "you predicted {guess}; the run: {}",
            predict.actual(judged.events, judged.outcome)
        ),
        (Some(guess), None, _) => format!("you predicted {guess}"),
        (None, _, _) => "no prediction was recorded".to_string(),
    };
    let holds = prediction.is_some() == want;
    let asked = if want {
        "the goal is a prediction made before the run"
    } else {
        "the goal is a run with no prediction"
    };
    part("predicted", holds, said_against(holds, sentence, asked))
}

fn part(part: &str, holds: bool, sentence: String) -> GoalPart {
    GoalPart {
        part: part.to_string(),
        holds,
        sentence,
    }
}

/// `holds` with the sentence alone, or the sentence with what was asked.
fn said_against(holds: bool, sentence: String, asked: &str) -> String {
    if holds {
        sentence
    } else {
        format!("{sentence}; {asked}")
    }
}

fn status(want: &str, outcome: &Outcome) -> GoalPart {
    let got = outcome.status.as_str();
    let holds = got == want;
    part(
        "status",
        holds,
        if holds {
            format!("the run ended `{got}`, as the goal asks")
        } else {
            format!("the run ended `{got}`; the goal is `{want}`")
        },
    )
}

fn tool_sequence(want: &[String], steps: &[(String, String, bool)]) -> GoalPart {
    let got: Vec<&str> = steps.iter().map(|(n, _, _)| n.as_str()).collect();
    let wanted: Vec<&str> = want.iter().map(String::as_str).collect();
    let holds = got == wanted;
    let said = |names: &[&str]| match names {
        [] => "no tool calls".to_string(),
        _ => names.join(" → "),
    };
    part(
        "tool_sequence",
        holds,
        if holds {
            format!("the calls were {}, as the goal asks", said(&got))
        } else {
            format!(
                "the calls were {}; the goal is {}",
                said(&got),
                said(&wanted)
            )
        },
    )
}

fn no_repeated_calls(want: bool, steps: &[(String, String, bool)]) -> GoalPart {
    let repeat = repeats(steps).into_iter().next();
    let sentence = match &repeat {
        Some((key, first, again)) => format!(
            "{key} was called as call {} and again as call {}",
            first + 1,
            again + 1
        ),
        None => "no call was made twice with the same arguments".to_string(),
    };
    let holds = repeat.is_none() == want;
    let asked = if want {
        "the goal is no repeated call"
    } else {
        "the goal is a call made twice"
    };
    part(
        "no_repeated_calls",
        holds,
        said_against(holds, sentence, asked),
    )
}

fn ids_exist_part(want: bool, events: &[RunEvent], outcome: &Outcome) -> GoalPart {
    let result = ids_exist(events, outcome.answer.as_deref());
    let holds = result.passed == want;
    let asked = if want {
        "the goal is an answer whose ids all came from the tools or the task"
    } else {
        "the goal is an answer that names an id nothing gave it"
    };
    part(
        "ids_exist",
        holds,
        said_against(holds, result.detail, asked),
    )
}

fn max_model_calls(max: u32, events: &[RunEvent]) -> GoalPart {
    let calls = model_calls(events);
    part(
        "max_model_calls",
        calls <= max,
        format!(
            "the model was called {}; the goal is at most {}",
            times(calls),
            times(max)
        ),
    )
}

fn tool_called(tool: &str, events: &[RunEvent]) -> GoalPart {
    let ran = ran(events, tool);
    part(
        "tools_called",
        ran > 0,
        if ran > 0 {
            format!("{tool} ran ({})", times(ran))
        } else {
            format!("{tool} never ran; the goal is that it runs")
        },
    )
}

fn tool_not_called(tool: &str, events: &[RunEvent]) -> GoalPart {
    let ran = ran(events, tool);
    part(
        "tools_not_called",
        ran == 0,
        if ran == 0 {
            format!("{tool} never ran, as the goal asks")
        } else {
            format!(
                "{tool} ran ({}); the goal is that it never runs",
                times(ran)
            )
        },
    )
}

fn answer_contains(text: &str, outcome: &Outcome) -> GoalPart {
    let (holds, sentence) = match &outcome.answer {
        None => (
            false,
            format!("the run gave no final answer; the goal is an answer containing {text:?}"),
        ),
        Some(answer) if answer.to_lowercase().contains(&text.to_lowercase()) => {
            (true, format!("the answer contains {text:?}"))
        }
        Some(answer) => (
            false,
            format!(
                "the answer ({:?}) does not contain {text:?}",
                crate::tool::clip(answer, 120)
            ),
        ),
    };
    part("answer_contains", holds, sentence)
}

fn called_with(want: &CalledWith, events: &[RunEvent]) -> GoalPart {
    let calls = calls_that_ran(events, &want.tool);
    let holds = calls.iter().any(|args| includes(args, &want.args));
    let sentence = match (holds, calls.last()) {
        (true, _) => format!("{} ran with {}", want.tool, want.args),
        (false, None) => format!(
            "{} never ran; the goal is a call with {}",
            want.tool, want.args
        ),
        (false, Some(args)) => format!(
            "{} ran with {args}; the goal is a call with {}",
            want.tool, want.args
        ),
    };
    part("called_with", holds, sentence)
}

fn checker(want: Verdict, shape: Option<&RequestShape>, events: &[RunEvent]) -> GoalPart {
    let (holds, sentence) = match shape {
        None => (
            false,
            "the scenario's tools could not be read, so the requests were not checked".to_string(),
        ),
        Some(shape) => checker_sentence(want, &rejections(shape, events)),
    };
    part("checker", holds, sentence)
}

fn approvals_part(want: &[ApprovalGoal], events: &[RunEvent]) -> GoalPart {
    let got = approvals(events);
    let holds = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|((tool, kind), w)| *tool == w.tool && *kind == Some(w.decision));
    let said = |list: Vec<String>| match list.len() {
        0 => "no approval was asked".to_string(),
        _ => list.join(", then "),
    };
    let got_said = said(
        got.iter()
            .map(|(tool, kind)| match kind {
                Some(kind) => format!("{tool}: {}", kind.as_str()),
                None => format!("{tool}: undecided"),
            })
            .collect(),
    );
    let want_said = said(
        want.iter()
            .map(|w| format!("{}: {}", w.tool, w.decision.as_str()))
            .collect(),
    );
    part(
        "approvals",
        holds,
        if holds {
            format!("{got_said}, as the goal asks")
        } else {
            format!("{got_said}; the goal is {want_said}")
        },
    )
}

fn max_elapsed_ms(max: u64, outcome: &Outcome) -> GoalPart {
    let took = outcome.elapsed_ms;
    part(
        "max_elapsed_ms",
        took <= max,
        format!("the run took {took} ms; the goal is at most {max} ms"),
    )
}

fn times(n: u32) -> String {
    match n {
        1 => "once".to_string(),
        n => format!("{n} times"),
    }
}

fn ran(events: &[RunEvent], tool: &str) -> u32 {
    calls_that_ran(events, tool).len() as u32
}

/// The arguments of each call of `tool` that ran, edited ones as edited.
fn calls_that_ran(events: &[RunEvent], tool: &str) -> Vec<Value> {
    let mut args_of: Vec<(String, Value)> = Vec::new();
    let mut out = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::ToolCall { id, name, args, .. } if name == tool => {
                args_of.push((id.clone(), args.clone()));
            }
            EventKind::ApprovalDecided {
                id,
                args: Some(edited),
                ..
            } => {
                if let Some(slot) = args_of.iter_mut().find(|(i, _)| i == id) {
                    slot.1 = edited.clone();
                }
            }
            EventKind::ToolResult { id, name, fate, .. } if name == tool && fate_ran(*fate) => {
                if let Some((_, args)) = args_of.iter().find(|(i, _)| i == id) {
                    out.push(args.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// `want`'s members are all in `got` (recursively for objects); other
/// values compare equal.
fn includes(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|gv| includes(gv, v))),
        _ => got == want,
    }
}

/// Each approval request's tool and what was decided (`None`: nothing was).
fn approvals(events: &[RunEvent]) -> Vec<(String, Option<DecisionKind>)> {
    let mut out: Vec<(String, String, Option<DecisionKind>)> = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::ApprovalRequested { id, name, .. } => {
                out.push((id.clone(), name.clone(), None));
            }
            EventKind::ApprovalDecided { id, decision, .. } => {
                if let Some(slot) = out
                    .iter_mut()
                    .rev()
                    .find(|(i, _, d)| i == id && d.is_none())
                {
                    slot.2 = Some(*decision);
                }
            }
            _ => {}
        }
    }
    out.into_iter().map(|(_, tool, d)| (tool, d)).collect()
}

fn checker_sentence(want: Verdict, found: &[Rejection]) -> (bool, String) {
    let holds = found.is_empty() == (want == Verdict::Accepts);
    let sentence = match found.first() {
        None => "every provider accepts each request the run sent".to_string(),
        Some(first) => {
            let more = match found.len() {
                1 => String::new(),
                n => format!(" ({} more problems)", n - 1),
            };
            format!(
                "{} would refuse turn {}'s request with HTTP 400: {}{more}",
                first.violation.provider.label(),
                first.turn,
                first.violation.message
            )
        }
    };
    let asked = match want {
        Verdict::Accepts => "the goal is requests every provider accepts",
        Verdict::Rejects => "the goal is a request a provider refuses",
    };
    (
        holds,
        if holds {
            sentence
        } else {
            format!("{sentence}; {asked}")
        },
    )
}
