//! Lessons that check themselves, and courses of them.
//!
//! A lesson is a starting scenario (inline, or a built-in's name with a
//! `start` merge patch), the paths a learner may change, a goal, hints, a
//! solution, tempting changes that miss the point (`misses`), and an
//! explanation filled from the learner's run. Some are solved by stepping
//! through a run (`walk` narrates each pause) or by predicting what a run
//! does (`predict`). A course is a title and lessons in order, flat or in
//! chapters. Both formats are published as `lesson.schema.json`, beside
//! the scenario's.
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
//! - `course`: course files, chapters, and the built-in course
//!   (`lessons/chapters/*.json` naming `lessons/*.json`).
//! - `predict`: a prediction question and the run's true answer to it.
//! - `explain`: the explanation's placeholders, filled from a run.
//! - `terms`: `[[term]]` glossary links in the text.
//! - `verify`: whether a lesson is true (start, solution, misses, walk).

pub mod choices;
mod counts;
pub mod course;
pub mod explain;
pub mod goal;
pub mod patch;
pub mod play;
pub mod predict;
pub mod terms;
pub mod verify;

use std::rc::Rc;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tool_schema::{Schema, ValidationError};

use crate::runtime::Runtime;
use crate::scenario::{dotted_path, Problem, Scenario};
use crate::suggest::did_you_mean;
use crate::wire::RequestShape;
use goal::{evaluate, evaluate_run, Goal, GoalPart, Judged};
use play::{play, Played, Work, WORK_FIELDS};
use predict::Predict;

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
    /// Stepping through a run, pause by pause, reading the `walk`.
    Stepping,
    /// Predicting what the run does before it runs (`predict`), and maybe
    /// then editing the scenario.
    Predicting,
}

impl By {
    pub fn as_str(self) -> &'static str {
        match self {
            By::Editing => "editing",
            By::AnswerAsModel => "answer_as_model",
            By::AnswerAsTool => "answer_as_tool",
            By::Deciding => "deciding",
            By::PressingStop => "pressing_stop",
            By::Stepping => "stepping",
            By::Predicting => "predicting",
        }
    }

    /// Whether a solution's or a miss's keys other than the learner's
    /// fields patch the scenario (editing, and predicting then editing).
    pub fn edits_scenario(self) -> bool {
        matches!(self, By::Editing | By::Predicting)
    }
}

/// A tempting change that misses the lesson's point: `lesson verify` fails
/// the lesson when it meets the goal, so the goal provably tests the point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Miss {
    /// Applied as the solution is (see `Lesson::setup`).
    pub patch: Map<String, Value>,
    /// Why it misses, in a sentence.
    pub why: String,
}

/// Where a statement about a provider's behaviour comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub url: String,
    /// The exact words quoted from the page.
    pub quote: String,
}

/// A scenario and the learner's work, ready to run: the start, the
/// solution applied, or a miss applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The scenario as JSON (what `scenario_has` and `{value:PATH}` read).
    pub edited: Value,
    pub scenario: Scenario,
    pub work: Work,
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
    #[serde(default)]
    walk: Vec<String>,
    #[serde(default)]
    predict: Option<Predict>,
    #[serde(default)]
    misses: Vec<Miss>,
    #[serde(default)]
    sources: Vec<Source>,
    #[serde(default)]
    takeaway: String,
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
    /// A merge patch on the scenario (`By::Editing`) or on the work; for
    /// `By::Predicting`, the learner's fields patch the work and any other
    /// key the scenario (`Lesson::setup`).
    pub solution: Map<String, Value>,
    /// Why the solution works; may hold placeholders (`explain_for`).
    pub explain: String,
    /// For `By::Stepping`: what the page shows at each pause of the run
    /// stepped from the start (entry i: paused before step i).
    pub walk: Vec<String>,
    /// The question asked before the run, for `By::Predicting` (and any
    /// lesson that asks one).
    pub predict: Option<Predict>,
    /// Tempting changes that miss the point; none may meet the goal.
    pub misses: Vec<Miss>,
    /// What backs the lesson's statements about providers.
    pub sources: Vec<Source>,
    /// What the lesson taught, in one sentence (the end-of-course page).
    pub takeaway: String,
    /// What the file says the learner did: turns, decisions, Stop, steps,
    /// prediction.
    pub work: Work,
}

/// A lesson's run and its goal, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub played: Played,
    pub parts: Vec<GoalPart>,
    /// The learner's work the run was played with (its prediction, steps).
    pub work: Work,
    /// What the prediction is about, as the lesson's start did it, when the
    /// run checked is not the start (the learner predicted, then edited):
    /// the prediction is compared with this, not with the edited run.
    pub start_value: Option<String>,
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
                // As words: the scenario's description shows no `[[term]]` marks.
                object.insert(
                    "description".into(),
                    Value::String(terms::plain(&fields.intro)),
                );
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
            walk: fields.walk,
            predict: fields.predict,
            misses: fields.misses,
            sources: fields.sources,
            takeaway: fields.takeaway,
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
        if self.by == By::Editing && self.editable.is_empty() {
            problems.push(problem(
                under(prefix, "editable"),
                "a lesson solved by editing must list what the learner may change",
            ));
        }
        problems.extend(self.patch_problems(&self.solution, &under(prefix, "solution")));
        for (i, miss) in self.misses.iter().enumerate() {
            problems.extend(
                self.patch_problems(&miss.patch, &under(prefix, &format!("misses[{i}].patch"))),
            );
        }
        problems.extend(self.walk_and_predict_problems(prefix));
        for name in explain::unknown_placeholders(&self.explain) {
            let known = explain::PLACEHOLDERS
                .iter()
                .copied()
                .chain(std::iter::once("value:PATH"));
            problems.push(problem(
                under(prefix, "explain"),
                format!(
                    "{{{name}}} is not a placeholder an explanation can use{}",
                    did_you_mean(&name, known)
                ),
            ));
        }
        for path in self.goal.scenario_has.keys() {
            if let Some(why) = patch::path_problem(path) {
                problems.push(problem(
                    under(prefix, &format!("goal.scenario_has.{path}")),
                    why,
                ));
            }
        }
        problems.extend(self.goal_tool_problems(prefix));
        problems
    }

    /// What a stepping lesson's `walk` and a `predict` question need.
    fn walk_and_predict_problems(&self, prefix: &str) -> Vec<Problem> {
        let mut problems = Vec::new();
        if self.by == By::Stepping && self.walk.is_empty() {
            problems.push(problem(
                under(prefix, "walk"),
                "a lesson solved by stepping needs a walk: one line for each pause of the stepped run",
            ));
        }
        if self.goal.predicted.is_some() && self.predict.is_none() {
            problems.push(problem(
                under(prefix, "goal.predicted"),
                "the goal asks for a prediction, but the lesson asks no question (predict)",
            ));
        }
        let Some(predict) = &self.predict else {
            if self.by == By::Predicting {
                problems.push(problem(
                    under(prefix, "predict"),
                    "a lesson solved by predicting needs its question (predict)",
                ));
            }
            return problems;
        };
        let at = under(prefix, "predict");
        match (&predict.of, &predict.answer) {
            (Some(_), Some(_)) => problems.push(problem(
                at.clone(),
                "has both `of` (read from the run) and `answer` (a fixed fact); give one",
            )),
            (None, None) => problems.push(problem(
                at.clone(),
                "needs `of` (what of the run it asks about) or `answer` (the fixed right choice)",
            )),
            _ => {}
        }
        for (i, choice) in predict.choices.iter().enumerate() {
            if predict.choices[..i]
                .iter()
                .any(|c| c.trim() == choice.trim())
            {
                problems.push(problem(
                    under(&at, &format!("choices[{i}]")),
                    format!("{choice:?} is offered twice"),
                ));
            }
        }
        if predict.answer.is_some() && self.sources.is_empty() {
            problems.push(problem(
                under(&at, "answer"),
                "a fixed answer states a fact the run does not count: list the `sources` that back it",
            ));
        }
        if let Some(answer) = &predict.answer {
            if !predict.offers(answer) {
                problems.push(problem(
                    under(&at, "answer"),
                    format!(
                        "{answer:?} is not one of the choices{}",
                        did_you_mean(answer, predict.choices.iter().map(String::as_str))
                    ),
                ));
            }
        }
        if let Some(prediction) = &self.work.prediction {
            if !predict.offers(prediction) {
                problems.push(problem(
                    under(prefix, "prediction"),
                    format!(
                        "{prediction:?} is not one of the choices{}",
                        did_you_mean(prediction, predict.choices.iter().map(String::as_str))
                    ),
                ));
            }
        }
        problems
    }

    /// A solution's or a miss's patch, checked where it would apply: the
    /// scenario's part only at `editable` paths and loading, the work's
    /// part only the learner's fields and readable.
    fn patch_problems(&self, patch: &Map<String, Value>, at: &str) -> Vec<Problem> {
        let mut problems = Vec::new();
        let (scenario_part, _) = self.split_patch(patch);
        if !self.by.edits_scenario() {
            for key in scenario_part.keys() {
                problems.push(problem(
                    under(at, key),
                    format!(
                        "a lesson solved by {} patches only the learner's fields ({}){}",
                        self.by.as_str(),
                        WORK_FIELDS.join(", "),
                        did_you_mean(key, WORK_FIELDS)
                    ),
                ));
            }
            if problems.is_empty() {
                if let Err(found) = self.setup(patch) {
                    problems.extend(found.into_iter().map(|p| problem(at, p.message)));
                }
            }
            return problems;
        }
        let mut patched = self.start.clone();
        patch::merge_patch(&mut patched, &Value::Object(scenario_part));
        for path in patch::changed_outside(&self.start, &patched, &self.editable) {
            problems.push(problem(
                at,
                format!("changes {path}, which `editable` does not list: a learner could not make this change"),
            ));
        }
        if problems.is_empty() {
            if let Err(found) = self.setup(patch) {
                problems.extend(found.into_iter().map(|p| problem(at, p.message)));
            }
        }
        problems
    }

    /// A patch cut in two: the part for the scenario and the part for the
    /// learner's work. Editing: all of it patches the scenario; predicting:
    /// the learner's fields (`prediction`, `steps`, ...) patch the work and
    /// the rest the scenario; the others: the learner's fields patch the
    /// work, and any other key is refused at load.
    pub fn split_patch(
        &self,
        patch: &Map<String, Value>,
    ) -> (Map<String, Value>, Map<String, Value>) {
        let mut scenario_part = Map::new();
        let mut work_part = Map::new();
        for (key, value) in patch {
            let for_work = self.by != By::Editing && WORK_FIELDS.contains(&key.as_str());
            if for_work {
                work_part.insert(key.clone(), value.clone());
            } else {
                scenario_part.insert(key.clone(), value.clone());
            }
        }
        (scenario_part, work_part)
    }

    /// The start with `patch` applied as the lesson's solution would be:
    /// the scenario to run, as JSON and loaded, and the learner's work.
    pub fn setup(&self, patch: &Map<String, Value>) -> Result<Setup, Vec<Problem>> {
        let (scenario_part, work_part) = self.split_patch(patch);
        let mut edited = self.start.clone();
        let scenario = if scenario_part.is_empty() {
            self.scenario.clone()
        } else {
            patch::merge_patch(&mut edited, &Value::Object(scenario_part));
            Scenario::from_value(edited.clone()).map_err(|found| {
                found
                    .into_iter()
                    .map(|p| problem("", format!("applied, the scenario has a problem: {p}")))
                    .collect::<Vec<_>>()
            })?
        };
        let mut work = serde_json::to_value(&self.work).unwrap_or_default();
        patch::merge_patch(&mut work, &Value::Object(work_part));
        let work = Work::deserialize(&work).map_err(|e| {
            vec![problem(
                "",
                format!("applied, the learner's fields cannot be read: {e}"),
            )]
        })?;
        Ok(Setup {
            edited,
            scenario,
            work,
        })
    }

    /// The lesson as its file gives it: the start and the file's work.
    pub fn start_setup(&self) -> Setup {
        Setup {
            edited: self.start.clone(),
            scenario: self.scenario.clone(),
            work: self.work.clone(),
        }
    }

    /// The explanation with its placeholders filled from `checked` (the
    /// learner's run and work) and `edited_scenario` (the scenario as the
    /// learner left it, as JSON).
    pub fn explain_for(&self, checked: &Checked, edited_scenario: &Value) -> String {
        explain::fill(
            &self.explain,
            &explain::Facts {
                events: &checked.played.events,
                outcome: &checked.played.outcome,
                scenario: edited_scenario,
                prediction: checked.work.prediction.as_deref(),
                predict: self.predict.as_ref(),
                start_value: checked.start_value.as_deref(),
            },
        )
    }

    /// The goal judged on a run the page played: what its Check does.
    /// `edited` is the scenario as the learner left it (JSON), `work` what
    /// they did (prediction, steps, typed turns, decisions), `start_value`
    /// what the prediction is about as the lesson's start did it, when the
    /// run judged is an edited one (see `Checked::start_value`).
    pub fn judge(
        &self,
        shape: Option<&RequestShape>,
        events: &[crate::event::RunEvent],
        outcome: &crate::event::Outcome,
        edited: &Value,
        work: &Work,
        start_value: Option<&str>,
    ) -> Vec<GoalPart> {
        evaluate_run(
            &self.goal,
            &Judged {
                shape,
                events,
                outcome,
                scenario: edited,
                work,
                predict: self.predict.as_ref(),
                start_value,
            },
        )
    }

    /// What the prediction asks about, as the lesson's start does it with
    /// `work` (the learner's prediction and other fields): `None` when the
    /// lesson counts nothing from the run (no question, or a fixed answer).
    pub async fn start_value(
        &self,
        work: &Work,
        runtime: Rc<dyn Runtime>,
    ) -> Result<Option<String>, Vec<Problem>> {
        let Some(predict) = self.predict.as_ref().filter(|p| p.of.is_some()) else {
            return Ok(None);
        };
        let played = play(&self.scenario, work, runtime).await?;
        Ok(Some(predict.actual(&played.events, &played.outcome)))
    }

    /// The lesson's texts that may link glossary terms, each with its
    /// field's path: intro, explain, hints, walk, the question.
    pub fn texts(&self) -> Vec<(String, &str)> {
        let mut out = vec![
            ("intro".to_string(), self.intro.as_str()),
            ("explain".to_string(), self.explain.as_str()),
        ];
        for (i, hint) in self.hints.iter().enumerate() {
            out.push((format!("hints[{i}]"), hint.as_str()));
        }
        for (i, line) in self.walk.iter().enumerate() {
            out.push((format!("walk[{i}]"), line.as_str()));
        }
        if let Some(predict) = &self.predict {
            out.push(("predict.question".to_string(), predict.question.as_str()));
        }
        out
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
    /// editing or predicting; the others' scenario stays as it starts).
    pub fn solved_scenario(&self) -> Result<Scenario, Vec<Problem>> {
        self.setup(&self.solution).map(|setup| setup.scenario)
    }

    /// The learner's work with the solution applied.
    pub fn solved_work(&self) -> Result<Work, String> {
        self.setup(&self.solution)
            .map(|setup| setup.work)
            .map_err(|found| {
                found
                    .iter()
                    .map(|p| p.message.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            })
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
        let mut put = |key: &str, value: Value| {
            out.insert(key.into(), value);
        };
        if !self.walk.is_empty() {
            put("walk", serde_json::to_value(&self.walk).unwrap_or_default());
        }
        if let Some(predict) = &self.predict {
            put("predict", serde_json::to_value(predict).unwrap_or_default());
        }
        if !self.misses.is_empty() {
            put(
                "misses",
                serde_json::to_value(&self.misses).unwrap_or_default(),
            );
        }
        if !self.sources.is_empty() {
            put(
                "sources",
                serde_json::to_value(&self.sources).unwrap_or_default(),
            );
        }
        if !self.takeaway.is_empty() {
            put("takeaway", Value::String(self.takeaway.clone()));
        }
        if let Value::Object(work) = serde_json::to_value(&self.work).unwrap_or_default() {
            out.extend(work);
        }
        Value::Object(out)
    }

    /// Runs the lesson as given (the learner's file) and judges its goal.
    pub async fn check(&self, runtime: Rc<dyn Runtime>) -> Result<Checked, Vec<Problem>> {
        self.check_setup(&self.start_setup(), runtime).await
    }

    /// Runs the lesson with its solution applied and judges its goal.
    pub async fn check_solution(&self, runtime: Rc<dyn Runtime>) -> Result<Checked, Vec<Problem>> {
        let setup = self.setup(&self.solution).map_err(|found| {
            found
                .into_iter()
                .map(|p| problem("solution", p.message))
                .collect::<Vec<_>>()
        })?;
        self.check_setup(&setup, runtime).await
    }

    /// Runs the lesson with miss `index` applied and judges its goal.
    pub async fn check_miss(
        &self,
        index: usize,
        runtime: Rc<dyn Runtime>,
    ) -> Result<Checked, Vec<Problem>> {
        let at = format!("misses[{index}]");
        let Some(miss) = self.misses.get(index) else {
            return Err(vec![problem(at, "the lesson has no such miss")]);
        };
        let setup = self.setup(&miss.patch).map_err(|found| {
            found
                .into_iter()
                .map(|p| problem(format!("{at}.patch"), p.message))
                .collect::<Vec<_>>()
        })?;
        self.check_setup(&setup, runtime).await
    }

    /// Runs `setup` and judges the lesson's goal on it.
    pub async fn check_setup(
        &self,
        setup: &Setup,
        runtime: Rc<dyn Runtime>,
    ) -> Result<Checked, Vec<Problem>> {
        let played = play(&setup.scenario, &setup.work, runtime.clone()).await?;
        // A prediction is about the lesson as it starts: an edited run is
        // compared with the start's, played beside it.
        let start_value = if setup.edited == self.start {
            None
        } else {
            self.start_value(&setup.work, runtime).await?
        };
        let shape = RequestShape::of(&setup.scenario).ok();
        let parts = self.judge(
            shape.as_ref(),
            &played.events,
            &played.outcome,
            &setup.edited,
            &setup.work,
            start_value.as_deref(),
        );
        Ok(Checked {
            played,
            parts,
            work: setup.work.clone(),
            start_value,
        })
    }
}

/// The learner's fields of a lesson file.
fn work_fields(value: &Value) -> Value {
    let mut out = Map::new();
    for key in WORK_FIELDS {
        if let Some(v) = value.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// Runs `scenario` with `work` and judges `goal` on the run alone (no
/// edited scenario, no prediction question: `Lesson::check_setup` has
/// both).
pub async fn check(
    scenario: &Scenario,
    work: &Work,
    goal: &Goal,
    runtime: Rc<dyn Runtime>,
) -> Result<Checked, Vec<Problem>> {
    let played = play(scenario, work, runtime).await?;
    let shape = RequestShape::of(scenario).ok();
    let parts = evaluate(goal, shape.as_ref(), &played.events, &played.outcome);
    Ok(Checked {
        played,
        parts,
        work: work.clone(),
        start_value: None,
    })
}
