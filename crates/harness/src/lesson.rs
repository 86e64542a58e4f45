//! Lessons that check themselves, and courses of them (issue 25).
//!
//! A lesson is a starting scenario (inline, or a built-in's name with a
//! `start` merge patch), the paths a learner may change, a goal, hints, a
//! solution and an explanation. A course is a title and lessons in order.
//! Both formats are published as `lesson.schema.json`, beside the
//! scenario's.
//!
//! - `load`/`from_value` read a lesson and report every problem at once,
//!   each with its path, as the scenario loader does: the schema, then the
//!   scenario (its problems under `scenario.`), then what only the loader
//!   can check (a built-in that does not exist, a solution that changes a
//!   path `editable` does not list, a goal naming a tool the scenario lacks).
//! - `patch`: RFC 7386 merge patches and the editable-path check the page
//!   uses to keep the rest read-only.
//! - `play`: a run with the learner's typed turns, decisions and Stop.
//! - `goal`: each part of the goal judged, with a plain sentence.
//! - `course`: course files and the built-in course (`lessons/*.json`).

pub mod course;
pub mod goal;
pub mod patch;
pub mod play;

use std::rc::Rc;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tool_schema::{Schema, ValidationError};

use crate::runtime::Runtime;
use crate::scenario::{dotted_path, Problem, Scenario};
use crate::suggest::did_you_mean;
use crate::wire::RequestShape;
use goal::{evaluate, Goal, GoalPart};
use play::{play, Played, Work};

/// The lesson and course formats as a JSON Schema, published for editors.
pub const LESSON_SCHEMA: &str = include_str!("../lesson.schema.json");

/// How a lesson is solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum By {
    /// Changing the scenario at the `editable` paths.
    #[default]
    Editing,
    /// Typing a turn in the model's place.
    AnswerAsModel,
    /// Typing a result in a tool's place.
    AnswerAsTool,
    /// Approving, denying or editing calls that need approval.
    Deciding,
    /// Pressing Stop.
    PressingStop,
}

impl By {
    pub fn as_str(self) -> &'static str {
        match self {
            By::Editing => "editing",
            By::AnswerAsModel => "answer_as_model",
            By::AnswerAsTool => "answer_as_tool",
            By::Deciding => "deciding",
            By::PressingStop => "pressing_stop",
        }
    }
}

/// The fields of a lesson file other than its scenario, as serde reads them.
#[derive(Deserialize)]
struct Fields {
    lesson: String,
    #[serde(default)]
    teaches: String,
    intro: String,
    #[serde(default)]
    editable: Vec<String>,
    #[serde(default)]
    by: By,
    goal: Goal,
    #[serde(default)]
    hints: Vec<String>,
    solution: Map<String, Value>,
    explain: String,
}

/// A loaded lesson: every part checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    pub title: String,
    pub teaches: String,
    pub intro: String,
    /// The built-in scenario it starts from, when it names one.
    pub based_on: Option<String>,
    /// The starting scenario as JSON (`start` applied): what the page's
    /// editors show and `patch::changed_outside` compares with.
    pub start: Value,
    /// The same, loaded.
    pub scenario: Scenario,
    pub editable: Vec<String>,
    pub by: By,
    pub goal: Goal,
    pub hints: Vec<String>,
    /// A merge patch on the scenario (`By::Editing`) or on the work.
    pub solution: Map<String, Value>,
    pub explain: String,
    /// What the file says the learner did: turns, decisions, Stop.
    pub work: Work,
}

/// A lesson's run and its goal, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub played: Played,
    pub parts: Vec<GoalPart>,
}

impl Checked {
    /// Every part of the goal holds.
    pub fn holds(&self) -> bool {
        self.parts.iter().all(|p| p.holds)
    }
}

fn problem(path: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        path: path.into(),
        message: message.into(),
    }
}

/// `inner` placed under `prefix` (`scenario` + `limits.max_turns`).
fn under(prefix: &str, inner: &str) -> String {
    match (prefix.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (false, true) => prefix.to_string(),
        (false, false) if inner.starts_with('[') => format!("{prefix}{inner}"),
        (false, false) => format!("{prefix}.{inner}"),
    }
}

fn lesson_schema() -> Result<&'static Schema, Problem> {
    static SCHEMA: OnceLock<Result<Schema, String>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let mut value: Value =
                serde_json::from_str(LESSON_SCHEMA).map_err(|e| e.to_string())?;
            // The lesson alone: a file that is neither would otherwise get
            // both alternatives' complaints.
            if let Some(root) = value.as_object_mut() {
                root.remove("anyOf");
                root.insert("$ref".into(), Value::String("#/$defs/lesson".into()));
            }
            Schema::compile(&value).map_err(|errors| {
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            })
        })
        .as_ref()
        .map_err(|e| {
            problem(
                "",
                format!("internal error: the lesson schema does not compile: {e}"),
            )
        })
}

/// A schema error in plain words, at the field itself.
fn schema_problem(error: &ValidationError, value: &Value, prefix: &str) -> Problem {
    if let Some(missing) = &error.missing {
        let at = format!("{}/{missing}", error.instance_path);
        return problem(
            under(prefix, &dotted_path(&at)),
            "this required field is missing",
        );
    }
    if let Some(unexpected) = &error.unexpected {
        let at = format!("{}/{}", error.instance_path, unexpected.name);
        let owner = match dotted_path(&error.instance_path) {
            path if path.is_empty() => "the lesson".to_string(),
            path => path,
        };
        let suggestion = did_you_mean(
            &unexpected.name,
            unexpected.declared.iter().map(String::as_str),
        );
        return problem(
            under(prefix, &dotted_path(&at)),
            format!("not a field of {owner}{suggestion}"),
        );
    }
    // " (did you mean `turn_limit`?)" for a word close to an allowed one.
    let nearest = match (&error.allowed, value.pointer(&error.instance_path)) {
        (Some(allowed), Some(Value::String(written))) => {
            did_you_mean(written, allowed.iter().filter_map(Value::as_str))
        }
        _ => String::new(),
    };
    problem(
        under(prefix, &dotted_path(&error.instance_path)),
        format!("{}{nearest}", error.message),
    )
}

impl Lesson {
    /// Parses and checks a lesson file, reporting every problem found.
    pub fn load(text: &str) -> Result<Lesson, Vec<Problem>> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| vec![problem("", crate::scenario::syntax::describe(&e, text))])?;
        Lesson::from_value(value, "")
    }

    /// Checks a parsed lesson; problems' paths start with `prefix` (a
    /// course's `lessons[3]`).
    pub fn from_value(value: Value, prefix: &str) -> Result<Lesson, Vec<Problem>> {
        let schema = lesson_schema().map_err(|p| vec![p])?;
        let mut problems: Vec<Problem> = match schema.validate(&value) {
            Ok(()) => Vec::new(),
            Err(errors) => errors
                .iter()
                .map(|e| schema_problem(e, &value, prefix))
                .collect(),
        };
        if !problems.is_empty() {
            // The scenario still gets its own say, so one pass finds all.
            if let Some(Value::Object(_)) = value.get("scenario") {
                if let Err(found) = Scenario::from_value(value["scenario"].clone()) {
                    let at = under(prefix, "scenario");
                    problems.extend(
                        found
                            .into_iter()
                            .map(|p| problem(under(&at, &p.path), p.message)),
                    );
                }
            }
            return Err(problems);
        }
        let fields = match Fields::deserialize(&value) {
            Ok(fields) => fields,
            Err(e) => {
                return Err(vec![problem(
                    prefix,
                    format!("cannot be read as a lesson: {e}"),
                )])
            }
        };
        let work = match Work::deserialize(&work_fields(&value)) {
            Ok(work) => work,
            Err(e) => {
                return Err(vec![problem(
                    prefix,
                    format!("cannot be read as a lesson: {e}"),
                )])
            }
        };
        let (based_on, mut start) = match &value["scenario"] {
            Value::String(id) => match crate::library::find(id) {
                Some(builtin) => (
                    Some(id.clone()),
                    serde_json::from_str::<Value>(builtin.json()).unwrap_or(Value::Null),
                ),
                None => {
                    let names = crate::library::BUILTIN.iter().map(|b| b.id);
                    return Err(vec![problem(
                        under(prefix, "scenario"),
                        format!(
                            "no built-in scenario is named {id:?}{}",
                            did_you_mean(id, names)
                        ),
                    )]);
                }
            },
            other => (None, other.clone()),
        };
        if let Some(patch) = value.get("start") {
            patch::merge_patch(&mut start, patch);
            // The built-in's own description tells what it does as shipped,
            // which the patch changed ("after the third call, the run stops"
            // over a start with no limit): the page shows the lesson's intro
            // in its place, unless the patch words a description itself.
            let worded = patch.get("description").is_some();
            if let (Some(_), false, Some(object)) = (&based_on, worded, start.as_object_mut()) {
                object.insert("description".into(), Value::String(fields.intro.clone()));
            }
        }
        let at_scenario = under(prefix, "scenario");
        let scenario = match Scenario::from_value(start.clone()) {
            Ok(scenario) => scenario,
            Err(found) => {
                let what = if value.get("start").is_some() {
                    " (with start applied)"
                } else {
                    ""
                };
                return Err(found
                    .into_iter()
                    .map(|p| problem(under(&at_scenario, &p.path), format!("{}{what}", p.message)))
                    .collect());
            }
        };
        let lesson = Lesson {
            title: fields.lesson,
            teaches: fields.teaches,
            intro: fields.intro,
            based_on,
            start,
            scenario,
            editable: fields.editable,
            by: fields.by,
            goal: fields.goal,
            hints: fields.hints,
            solution: fields.solution,
            explain: fields.explain,
            work,
        };
        problems.extend(lesson.semantic_problems(prefix));
        if problems.is_empty() {
            Ok(lesson)
        } else {
            Err(problems)
        }
    }

    /// What the schema cannot say.
    fn semantic_problems(&self, prefix: &str) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (i, path) in self.editable.iter().enumerate() {
            if let Some(why) = patch::path_problem(path) {
                problems.push(problem(under(prefix, &format!("editable[{i}]")), why));
            }
        }
        for (i, turn) in self.work.turns.iter().enumerate() {
            if turn.is_tool_answer() && turn.is_model_turn() {
                problems.push(problem(
                    under(prefix, &format!("turns[{i}]")),
                    "a turn is either the model's (text, tool_calls, stop_reason) or a tool's (result or error), not both",
                ));
            }
            if turn.tool.is_some() && !turn.is_tool_answer() {
                problems.push(problem(
                    under(prefix, &format!("turns[{i}].tool")),
                    "names the tool a result answers for, so it needs a result or an error",
                ));
            }
            if turn.result.is_some() && turn.error.is_some() {
                problems.push(problem(
                    under(prefix, &format!("turns[{i}]")),
                    "a tool answers with a result or an error, not both",
                ));
            }
        }
        let at_solution = under(prefix, "solution");
        match self.by {
            By::Editing => {
                if self.editable.is_empty() {
                    problems.push(problem(
                        under(prefix, "editable"),
                        "a lesson solved by editing must list what the learner may change",
                    ));
                }
                let mut solved = self.start.clone();
                patch::merge_patch(&mut solved, &Value::Object(self.solution.clone()));
                for path in patch::changed_outside(&self.start, &solved, &self.editable) {
                    problems.push(problem(
                        at_solution.clone(),
                        format!("changes {path}, which `editable` does not list: a learner could not make this change"),
                    ));
                }
                if let Err(found) = Scenario::from_value(solved) {
                    problems.extend(found.into_iter().map(|p| {
                        problem(
                            at_solution.clone(),
                            format!("applied, the scenario has a problem: {p}"),
                        )
                    }));
                }
            }
            _ => {
                let fields = ["turns", "decisions", "stop_after_ms"];
                for key in self.solution.keys() {
                    if !fields.contains(&key.as_str()) {
                        problems.push(problem(
                            under(&at_solution, key),
                            format!(
                                "a lesson solved by {} patches only turns, decisions and stop_after_ms{}",
                                self.by.as_str(),
                                did_you_mean(key, fields)
                            ),
                        ));
                    }
                }
                if problems.is_empty() {
                    if let Err(why) = self.solved_work() {
                        problems.push(problem(at_solution.clone(), why));
                    }
                }
            }
        }
        problems.extend(self.goal_tool_problems(prefix));
        problems
    }

    /// A goal naming a tool the scenario does not have can never hold.
    fn goal_tool_problems(&self, prefix: &str) -> Vec<Problem> {
        let Ok(specs) = self.scenario.tool_specs() else {
            return Vec::new();
        };
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        let mut named: Vec<(String, &str)> = Vec::new();
        let goal = &self.goal;
        for (i, tool) in goal.tool_sequence.iter().flatten().enumerate() {
            named.push((format!("goal.tool_sequence[{i}]"), tool));
        }
        for (i, tool) in goal.tools_called.iter().enumerate() {
            named.push((format!("goal.tools_called[{i}]"), tool));
        }
        for (i, tool) in goal.tools_not_called.iter().enumerate() {
            named.push((format!("goal.tools_not_called[{i}]"), tool));
        }
        for (i, call) in goal.called_with.iter().enumerate() {
            named.push((format!("goal.called_with[{i}].tool"), &call.tool));
        }
        for (i, approval) in goal.approvals.iter().flatten().enumerate() {
            named.push((format!("goal.approvals[{i}].tool"), &approval.tool));
        }
        named
            .into_iter()
            .filter(|(_, tool)| !names.contains(tool))
            .map(|(path, tool)| {
                problem(
                    under(prefix, &path),
                    format!(
                        "the scenario has no tool named {tool:?}{}",
                        did_you_mean(tool, names.iter().copied())
                    ),
                )
            })
            .collect()
    }

    /// The scenario with the solution applied (for a lesson solved by
    /// editing; the others' scenario stays as it starts).
    pub fn solved_scenario(&self) -> Result<Scenario, Vec<Problem>> {
        if self.by != By::Editing {
            return Ok(self.scenario.clone());
        }
        let mut solved = self.start.clone();
        patch::merge_patch(&mut solved, &Value::Object(self.solution.clone()));
        Scenario::from_value(solved)
    }

    /// The learner's work with the solution applied.
    pub fn solved_work(&self) -> Result<Work, String> {
        if self.by == By::Editing {
            return Ok(self.work.clone());
        }
        let mut work = serde_json::to_value(&self.work).unwrap_or_default();
        patch::merge_patch(&mut work, &Value::Object(self.solution.clone()));
        Work::deserialize(&work)
            .map_err(|e| format!("applied, the learner's fields cannot be read: {e}"))
    }

    /// Which changes of `edited` (the scenario as the learner left it) the
    /// lesson does not allow, each at its path: the page refuses them.
    pub fn edit_problems(&self, edited: &Value) -> Vec<Problem> {
        patch::changed_outside(&self.start, edited, &self.editable)
            .into_iter()
            .map(|path| problem(path, "this lesson does not let you change this"))
            .collect()
    }

    /// The lesson as one self-contained file: its scenario inline, `start`
    /// applied. What a student edits and checks with `lesson check FILE`.
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        out.insert("lesson".into(), Value::String(self.title.clone()));
        if !self.teaches.is_empty() {
            out.insert("teaches".into(), Value::String(self.teaches.clone()));
        }
        out.insert("intro".into(), Value::String(self.intro.clone()));
        out.insert("scenario".into(), self.start.clone());
        if !self.editable.is_empty() {
            out.insert(
                "editable".into(),
                serde_json::to_value(&self.editable).unwrap_or_default(),
            );
        }
        if self.by != By::Editing {
            out.insert("by".into(), Value::String(self.by.as_str().into()));
        }
        out.insert(
            "goal".into(),
            serde_json::to_value(&self.goal).unwrap_or_default(),
        );
        if !self.hints.is_empty() {
            out.insert(
                "hints".into(),
                serde_json::to_value(&self.hints).unwrap_or_default(),
            );
        }
        out.insert("solution".into(), Value::Object(self.solution.clone()));
        out.insert("explain".into(), Value::String(self.explain.clone()));
        if let Value::Object(work) = serde_json::to_value(&self.work).unwrap_or_default() {
            out.extend(work);
        }
        Value::Object(out)
    }

    /// Runs the lesson as given (the learner's file) and judges its goal.
    pub async fn check(&self, runtime: Rc<dyn Runtime>) -> Result<Checked, Vec<Problem>> {
        check(&self.scenario, &self.work, &self.goal, runtime).await
    }

    /// Runs the lesson with its solution applied and judges its goal.
    pub async fn check_solution(&self, runtime: Rc<dyn Runtime>) -> Result<Checked, Vec<Problem>> {
        let scenario = self.solved_scenario()?;
        let work = self
            .solved_work()
            .map_err(|why| vec![problem("solution", why)])?;
        check(&scenario, &work, &self.goal, runtime).await
    }
}

/// The learner's fields of a lesson file.
fn work_fields(value: &Value) -> Value {
    let mut out = Map::new();
    for key in ["turns", "decisions", "stop_after_ms"] {
        if let Some(v) = value.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// Runs `scenario` with `work` and judges `goal`: what the page's Check
/// button and `agent-loop lesson check` both do.
pub async fn check(
    scenario: &Scenario,
    work: &Work,
    goal: &Goal,
    runtime: Rc<dyn Runtime>,
) -> Result<Checked, Vec<Problem>> {
    let played = play(scenario, work, runtime).await?;
    let shape = RequestShape::of(scenario).ok();
    let parts = evaluate(goal, shape.as_ref(), &played.events, &played.outcome);
    Ok(Checked { played, parts })
}
