//! The lesson format's newer parts, on fixture lessons: each new goal part
//! holds or fails with its sentence, explanations filled from the run and
//! the edited scenario, and the loader refusing an unknown placeholder,
//! diagram part or glossary term with its path and a did-you-mean.

use std::rc::Rc;

use harness::lesson::course::Course;
use harness::lesson::goal::GoalPart;
use harness::lesson::{terms, Lesson};
use harness::runtime::{Runtime, TokioRuntime};
use serde_json::{json, Value};

fn runtime() -> Rc<dyn Runtime> {
    Rc::new(TokioRuntime::default())
}

/// A lesson from `fields` over a base that loads: get-time (one get_time
/// call, then an answer; two model calls) with max_turns editable.
fn lesson(fields: Value) -> Result<Lesson, Vec<String>> {
    let mut value = json!({
        "lesson": "Fixture", "intro": "i", "scenario": "get-time",
        "editable": ["limits.max_turns"], "goal": {"status": "done"},
        "solution": {"limits": {"max_turns": 5}}, "explain": "e"
    });
    for (key, field) in fields.as_object().unwrap() {
        value[key] = field.clone();
    }
    Lesson::from_value(value, "").map_err(|p| p.iter().map(ToString::to_string).collect())
}

fn part<'a>(parts: &'a [GoalPart], name: &str) -> &'a GoalPart {
    parts
        .iter()
        .find(|p| p.part == name)
        .unwrap_or_else(|| panic!("no {name} part: {parts:?}"))
}

/// The goal judged on the lesson's start, and on its solution.
async fn judged(lesson: &Lesson, name: &str) -> (GoalPart, GoalPart) {
    let start = lesson.check(runtime()).await.expect("the start runs");
    let solved = lesson
        .check_solution(runtime())
        .await
        .expect("the solution runs");
    (
        part(&start.parts, name).clone(),
        part(&solved.parts, name).clone(),
    )
}

#[tokio::test(start_paused = true)]
async fn min_model_calls_says_how_many_calls_were_made() {
    // max_turns 1 stops get-time after one call; the solution lets it answer.
    let lesson =
        lesson(json!({"start": {"limits": {"max_turns": 1}}, "goal": {"min_model_calls": 2}}))
            .unwrap();
    let (start, solved) = judged(&lesson, "min_model_calls").await;
    assert!(!start.holds);
    assert_eq!(
        start.sentence,
        "the model was called once; the goal is at least 2 times"
    );
    assert!(solved.holds);
    assert_eq!(
        solved.sentence,
        "the model was called 2 times; the goal is at least 2 times"
    );
}

#[tokio::test(start_paused = true)]
async fn answered_holds_only_for_a_final_answer() {
    let lesson =
        lesson(json!({"start": {"limits": {"max_turns": 1}}, "goal": {"answered": true}})).unwrap();
    let (start, solved) = judged(&lesson, "answered").await;
    assert!(!start.holds);
    assert_eq!(
        start.sentence,
        "the run ended with no final answer; the goal is a final answer"
    );
    assert!(solved.holds);
    assert!(
        solved
            .sentence
            .starts_with("the run ended with the answer \""),
        "{}",
        solved.sentence
    );
}

#[tokio::test(start_paused = true)]
async fn scenario_has_reads_the_edited_scenario() {
    let lesson = lesson(json!({
        "start": {"limits": {"max_turns": null}},
        "goal": {"scenario_has": {"limits.max_turns": 5}}
    }))
    .unwrap();
    let (start, solved) = judged(&lesson, "scenario_has").await;
    assert!(!start.holds);
    assert_eq!(
        start.sentence,
        "the scenario does not set limits.max_turns; the goal is 5"
    );
    assert!(solved.holds);
    assert_eq!(solved.sentence, "limits.max_turns is 5, as the goal asks");
}

#[tokio::test(start_paused = true)]
async fn min_steps_counts_the_learners_steps() {
    let lesson = lesson(json!({
        "by": "stepping", "walk": ["a", "b", "c"], "editable": [],
        "goal": {"min_steps": 3}, "solution": {"steps": 3}, "steps": 1
    }))
    .unwrap();
    let (start, solved) = judged(&lesson, "min_steps").await;
    assert!(!start.holds);
    assert_eq!(
        start.sentence,
        "Step was pressed once; the goal is at least 3 times"
    );
    assert!(solved.holds);
    assert_eq!(
        solved.sentence,
        "Step was pressed 3 times; the goal is at least 3 times"
    );
}

#[tokio::test(start_paused = true)]
async fn predicted_says_what_was_predicted_and_what_the_run_did() {
    let lesson = lesson(json!({
        "by": "predicting", "editable": [],
        "predict": {"question": "Which tool runs first?", "choices": ["get_time", "none"], "of": "first_tool"},
        "goal": {"predicted": true}, "solution": {"prediction": "none"}
    }))
    .unwrap();
    let (start, solved) = judged(&lesson, "predicted").await;
    assert!(!start.holds);
    assert_eq!(
        start.sentence,
        "no prediction was recorded; the goal is a prediction made before the run"
    );
    assert!(solved.holds);
    assert_eq!(solved.sentence, "you predicted none; the run: get_time");
}

#[tokio::test(start_paused = true)]
async fn a_prediction_is_compared_with_the_start_not_with_the_fix() {
    // Predict how many model calls the start makes (max_turns 1: one), then
    // fix it (max_turns 5: two). The prediction is about the start.
    let lesson = lesson(json!({
        "by": "predicting",
        "start": {"limits": {"max_turns": 1}},
        "predict": {"question": "How many model calls?", "choices": ["1", "2"], "of": "model_calls"},
        "goal": {"predicted": true, "status": "done"},
        "solution": {"prediction": "1", "limits": {"max_turns": 5}},
        "explain": "You predicted {prediction}; the start made {actual}; yours made {model_calls}."
    }))
    .unwrap();
    let solved = lesson
        .check_solution(runtime())
        .await
        .expect("the solution runs");
    assert!(solved.holds(), "{:?}", solved.parts);
    assert_eq!(
        part(&solved.parts, "predicted").sentence,
        "you predicted 1; the lesson as it starts: 1"
    );
    assert_eq!(solved.start_value.as_deref(), Some("1"));
    let edited = json!({"limits": {"max_turns": 5}});
    assert_eq!(
        lesson.explain_for(&solved, &edited),
        "You predicted 1; the start made 1; yours made 2."
    );
}

#[tokio::test(start_paused = true)]
async fn verifier_accepts_judges_the_edited_verifier_on_the_right_answer() {
    // get-time answers with the time; a check for a word no answer has
    // rejects the right answer as well, which misses a verifier's point.
    let lesson = lesson(json!({
        "editable": ["verify"],
        "start": {"verify": [{"contains": "banana"}]},
        "goal": {"verifier_accepts": ["It is 12:00 UTC."]},
        "solution": {"verify": [{"contains": "UTC"}]}
    }))
    .unwrap();
    let (start, solved) = judged(&lesson, "verifier_accepts").await;
    assert!(!start.holds);
    assert!(
        start.sentence.starts_with(
            "your verifier rejects the right answer \"It is 12:00 UTC.\" too (verifier check 1 (contains \"banana\") failed"
        ),
        "{}",
        start.sentence
    );
    assert!(solved.holds, "{}", solved.sentence);
    assert_eq!(
        solved.sentence,
        "your verifier passes the right answer \"It is 12:00 UTC.\""
    );
}

#[tokio::test(start_paused = true)]
async fn explain_for_fills_the_runs_numbers_and_the_edited_scenario() {
    let lesson = lesson(json!({
        "explain": "max_turns {value:limits.max_turns}: {model_calls} model calls, {tool_calls} tool call ({tools}), ended {status}; {value:limits.max_tokens} tokens"
    }))
    .unwrap();
    let checked = lesson.check_solution(runtime()).await.unwrap();
    let edited = lesson.setup(&lesson.solution).unwrap().edited;
    assert_eq!(
        lesson.explain_for(&checked, &edited),
        "max_turns 5: 2 model calls, 1 tool call (get_time), ended done; (not set) tokens"
    );
}

#[test]
fn an_unknown_placeholder_is_refused_with_its_name() {
    let found =
        lesson(json!({"explain": "made {modle_calls} calls; {\"a\": 1} is text"})).unwrap_err();
    assert_eq!(
        found,
        vec!["explain: {modle_calls} is not a placeholder an explanation can use (did you mean `model_calls`?)"]
    );
}

#[test]
fn a_miss_is_checked_as_the_solution_is() {
    let found = lesson(json!({"misses": [{"patch": {"limits": {"max_tokens": 5}}, "why": "w"}]}))
        .unwrap_err();
    assert_eq!(
        found,
        vec!["misses[0].patch: changes limits.max_tokens, which `editable` does not list: a learner could not make this change"]
    );
    let found = lesson(json!({
        "by": "deciding", "editable": [], "solution": {"decisions": []},
        "misses": [{"patch": {"prediction": "x", "turn": 1}, "why": "w"}]
    }))
    .unwrap_err();
    assert_eq!(
        found,
        vec!["misses[0].patch.turn: a lesson solved by deciding patches only the learner's fields (turns, decisions, stop_after_ms, prediction, steps) (did you mean `turns`?)"]
    );
}

#[test]
fn stepping_and_predicting_lessons_need_their_parts() {
    let found =
        lesson(json!({"by": "stepping", "editable": [], "solution": {"steps": 1}})).unwrap_err();
    assert_eq!(
        found,
        vec!["walk: a lesson solved by stepping needs a walk: one line for each pause of the stepped run"]
    );
    let found = lesson(json!({
        "by": "predicting",
        "predict": {"question": "q", "choices": ["OpenAI", "Anthropic"], "answer": "Antropic"},
        "solution": {"prediction": "OpenAI"}
    }))
    .unwrap_err();
    assert_eq!(
        found,
        vec![
            "predict.answer: a fixed answer states a fact the run does not count: list the `sources` that back it",
            "predict.answer: \"Antropic\" is not one of the choices (did you mean `Anthropic`?)"
        ]
    );
}

/// A course in chapters over one inline lesson whose intro is `intro`.
fn chapters(reveals: Value, intro: &str) -> Vec<String> {
    let course = json!({
        "course": "C",
        "chapters": [
            {"chapter": "One", "reveals": reveals, "terms": [{"term": "turn", "means": "one model call"}],
             "lessons": []},
            {"chapter": "Two", "terms": [{"term": "token", "means": "a piece of text"}],
             "lessons": [{"lesson": "L", "intro": intro, "scenario": "get-time",
                          "editable": ["limits.max_turns"], "goal": {"status": "turn_limit"},
                          "solution": {"limits": {"max_turns": 1}}, "explain": "e"}]}
        ]
    });
    match Course::from_value(course) {
        Ok(_) => Vec::new(),
        Err(found) => found.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn a_course_in_chapters_loads_with_its_parts_and_terms() {
    assert_eq!(
        chapters(json!(["gate-turns"]), "A [[turn]], a [[token|few tokens]]."),
        Vec::<String>::new()
    );
    let course = Course::from_value(json!({
        "course": "C",
        "chapters": [{"chapter": "One", "reveals": ["gate-turns"], "terms": [{"term": "turn", "means": "one model call"}],
                      "lessons": ["turn-limit"]}]
    }))
    .unwrap();
    assert_eq!(course.chapters[0].lessons, 0..1);
    assert_eq!(course.revealed_through(0), vec!["gate-turns"]);
    assert_eq!(course.meaning("turn"), Some("one model call"));
}

#[test]
fn an_unknown_diagram_part_is_refused_with_its_path() {
    assert_eq!(
        chapters(json!(["gate-turn"]), "i"),
        vec!["chapters[0].reveals[0]: the loop diagram has no part \"gate-turn\" (did you mean `gate-turns`?)"]
    );
}

#[test]
fn an_undefined_term_is_refused_with_its_path() {
    assert_eq!(
        chapters(json!([]), "A [[turns]] and a [[budget]]."),
        vec![
            "chapters[1].lessons[0].intro: the term \"turns\" is not defined in this chapter or an earlier one (did you mean `turn`?)",
            "chapters[1].lessons[0].intro: the term \"budget\" is not defined in this chapter or an earlier one",
        ]
    );
}

#[test]
fn terms_print_as_their_shown_words_and_split_for_links() {
    let text = "A [[turn]] spends [[token|tokens]]; [[not closed";
    assert_eq!(terms::plain(text), "A turn spends tokens; [[not closed");
    assert_eq!(
        terms::split(text),
        vec![
            terms::Piece::Plain("A "),
            terms::Piece::Term {
                term: "turn",
                shown: "turn"
            },
            terms::Piece::Plain(" spends "),
            terms::Piece::Term {
                term: "token",
                shown: "tokens"
            },
            terms::Piece::Plain("; [[not closed"),
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn context_edited_needs_the_named_strategy_to_change_the_history() {
    // The built-in's log lookups overflow an 8,000-token window unless a
    // strategy makes room.
    let lesson = Lesson::from_value(
        json!({
            "lesson": "Fixture", "intro": "i", "scenario": "context-clear-tool-results",
            "start": {"context": {"strategy": "none", "keep_tool_results": null,
                                  "exclude_tools": null, "trigger_tokens": null}},
            "editable": ["context"], "goal": {"context_edited": "clear_tool_results"},
            "solution": {"context": {"strategy": "clear_tool_results", "keep_tool_results": 1}},
            "misses": [{"patch": {"context": {"strategy": "drop_oldest_turns"}}, "why": "w"}],
            "explain": "e"
        }),
        "",
    )
    .unwrap();
    let start = lesson.check(runtime()).await.unwrap();
    assert_eq!(
        part(&start.parts, "context_edited").sentence,
        "no context strategy changed the history; the goal is that clear_tool_results does"
    );
    let solved = lesson.check_solution(runtime()).await.unwrap();
    let edited = part(&solved.parts, "context_edited");
    assert!(edited.holds);
    assert!(
        edited
            .sentence
            .starts_with("clear_tool_results changed the history before turn "),
        "{}",
        edited.sentence
    );
    let missed = lesson.check_miss(0, runtime()).await.unwrap();
    let other = part(&missed.parts, "context_edited");
    assert!(!other.holds);
    assert_eq!(
        other.sentence,
        "drop_oldest_turns changed the history, not clear_tool_results; the goal is that clear_tool_results does"
    );
}
