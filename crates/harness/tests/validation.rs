//! Loading a scenario reports every problem in one pass, each once, at its
//! path and in plain words: what `agent-loop validate` prints and the page's
//! problem list shows, since both call `Scenario::load`.

use harness::scenario::Scenario;
use proptest::prelude::*;

/// The problems `load` reports, as they are printed (`path: message`).
fn problems(text: &str) -> Vec<String> {
    match Scenario::load(text) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

/// A file with valid JSON syntax and problems of every kind: the schema's
/// (an unknown field, a bound, a wrong type, a date), numbers past their
/// type (written huge, or past what a float holds), and what only the
/// loader knows (a misspelt built-in, a misspelt type in a tool's schema, a
/// broken regex, `loop_from` past the script).
const MANY_PROBLEMS: &str = r#"{
  "name": "many problems",
  "task": "What time is it?",
  "tools": [
    "get_tiem",
    {"name": "lookup", "input_schema": {"type": "objekt"}, "result": {"ok": true}},
    {"name": "slow", "result": 1, "delay_ms": 1e400}
  ],
  "limits": {"max_turns": -5, "max_turn": 3, "deadline_ms": 99999999999999999999, "max_output_tokens": 1e400},
  "verify": [{"regex": "(unclosed"}],
  "now": "yesterday",
  "model": {"type": "scripted", "loop_from": 3, "responses": [{"text": "ok", "usage": {"input_tokens": 1.5}}]}
}"#;

#[test]
fn one_load_reports_every_kind_of_problem_in_file_order() {
    assert_eq!(
        problems(MANY_PROBLEMS),
        [
            "tools[0]: unknown built-in tool \"get_tiem\" (did you mean `get_time`?)",
            "tools[1].input_schema.type: \"objekt\" is not a type name (did you mean \"object\"?)",
            "tools[2].delay_ms: 1e400 is too large: a delay must be at most 86,400,000 ms (24 hours)",
            "limits.max_turns: -5 is too small: it must be at least 1",
            "limits.max_turn: not a field of limits (did you mean `max_turns`?)",
            "limits.deadline_ms: 99999999999999999999 is too large: a deadline must be at most 86,400,000 ms (24 hours)",
            "limits.max_output_tokens: 1e400 is too large: a turn's output must be at most 100,000,000 tokens",
            "verify[0].regex: invalid regex \"(unclosed\": found open group without closing ')'",
            "now: \"yesterday\" is not a valid date-time (format \"date-time\", RFC 3339 with a UTC offset, e.g. 2024-01-31T09:30:00Z)",
            "model.loop_from: 3 is past the last response (the script has 1 response, index 0)",
            "model.responses[0].usage.input_tokens: 1.5 is not a whole number; expected an integer",
        ]
    );
}

#[test]
fn fixing_what_was_reported_leaves_nothing_to_report() {
    // The complaint that started this: a second list after fixing the first.
    let fixed = MANY_PROBLEMS
        .replace("\"get_tiem\"", "\"get_time\"")
        .replace("\"objekt\"", "\"object\"")
        .replace("\"delay_ms\": 1e400", "\"delay_ms\": 10")
        .replace("\"max_turns\": -5, \"max_turn\": 3", "\"max_turns\": 3")
        .replace("99999999999999999999", "60000")
        .replace(
            "\"max_output_tokens\": 1e400",
            "\"max_output_tokens\": 1024",
        )
        .replace("(unclosed", "(closed)")
        .replace("\"yesterday\"", "\"2026-11-29T12:00:00Z\"")
        .replace("\"loop_from\": 3", "\"loop_from\": 0")
        .replace("1.5", "15");
    let scenario = Scenario::load(&fixed).expect("the fixed file loads");
    assert_eq!(scenario.limits.max_turns, 3);
    assert_eq!(scenario.limits.deadline_ms, Some(60000));
}

#[test]
fn numbers_past_their_type_are_reported_at_their_paths_as_written() {
    let text = r#"{"name": "n", "task": "t",
        "tools": [{"name": "big", "result": {"total": 99999999999999999999, "far": 1e400, "near": -1e400},
                   "input_schema": {"type": "object", "maximum": 1e999}}],
        "limits": {"max_turns": 99999999999999999999, "max_retries": 1e400, "max_cost_usd": -1e400,
                   "max_result_chars": 1e30},
        "pricing": {"input_usd_per_mtok": 2e308},
        "model": {"type": "scripted", "loop_from": 1e400, "responses": [
            {"text": "x", "error": {"status": 1e400}, "delay_ms": 18446744073709551616}]}}"#;
    assert_eq!(
        problems(text),
        [
            "tools[0].result.far: 1e400 is too large to be a number; the largest is about 1.8e308",
            "tools[0].result.near: -1e400 is too small to be a number; the smallest is about -1.8e308",
            "tools[0].input_schema.maximum: 1e999 is too large to be a number; the largest is about 1.8e308",
            "limits.max_turns: 99999999999999999999 is too large: the turn limit must be at most 1,000,000 turns",
            "limits.max_retries: 1e400 is too large: it must be at most 10",
            "limits.max_cost_usd: -1e400 is too small: it must be greater than 0",
            "limits.max_result_chars: 1e30 is too large: a result's length must be at most 100,000,000 characters",
            "pricing.input_usd_per_mtok: 2e308 is too large: a price must be at most $10,000 per million tokens",
            &format!(
                "model.loop_from: 1e400 is more than the largest allowed, {}",
                usize::MAX
            ),
            "model.responses[0].error.status: 1e400 is too large: it must be at most 599",
            "model.responses[0].delay_ms: 18446744073709551616 is too large: a delay must be at most 86,400,000 ms (24 hours)",
        ]
    );
}

#[test]
fn a_bad_number_among_thousands_is_found() {
    let prices: Vec<String> = (0..5000).map(|i| format!("{i}.25")).collect();
    let text = format!(
        r#"{{"name": "n", "task": "t", "model": {{"type": "rules"}},
            "tools": [{{"name": "prices", "result": [{}], "delay_ms": -0.5}}]}}"#,
        prices.join(", ")
    );
    assert_eq!(
        problems(&text),
        ["tools[0].delay_ms: -0.5 is not a whole number; expected an integer"]
    );
    let text = text.replace("-0.5", "1e20");
    assert_eq!(
        problems(&text),
        ["tools[0].delay_ms: 1e20 is too large: a delay must be at most 86,400,000 ms (24 hours)"]
    );
}

#[test]
fn whole_numbers_written_as_floats_are_the_integers_they_name() {
    // JSON Schema's "integer" takes 10.0 and 1e3, and so does the loader.
    let scenario = Scenario::load(
        r#"{"name": "n", "task": "t", "limits": {"max_turns": 10.0, "deadline_ms": 1e3},
            "tools": [{"name": "big", "result": {"total": 99999999999999999999}}],
            "model": {"type": "rules"}}"#,
    )
    .expect("loads");
    assert_eq!(scenario.limits.max_turns, 10);
    assert_eq!(scenario.limits.deadline_ms, Some(1000));
}

#[test]
fn a_syntax_error_is_placed_once_in_plain_words() {
    let text = "{\n  \"name\": \"x\",\n  \"task\": \"y\"\n  \"model\": {\"type\": \"rules\"}\n}";
    assert_eq!(
        problems(text),
        ["not valid JSON at line 4, column 3: expected `,` or `}` after a value"]
    );
    assert_eq!(
        problems("{\"name\": \"x\", \"tools\": [\"get_time\""),
        ["not valid JSON at line 1, column 34: the text ends before the array is closed (a `]` is missing)"]
    );
    assert_eq!(
        problems("{\"name\": "),
        ["not valid JSON at line 1, column 9: the text ends where a value should be"]
    );
    // An overflowing number before the mistake neither hides it nor moves it.
    assert_eq!(
        problems("{\"limits\": {\"max_turns\": 1e400 \"x\": 1}}"),
        ["not valid JSON at line 1, column 32: expected `,` or `}` after a value"]
    );
}

#[test]
fn an_unknown_field_is_one_problem_at_its_own_path() {
    let base = |extra: &str| {
        format!(r#"{{"name": "n", "task": "t", {extra}, "model": {{"type": "rules"}}}}"#)
    };
    assert_eq!(
        problems(&base(r#""taks": "x""#)),
        ["taks: not a field of the scenario (did you mean `task`?)"]
    );
    assert_eq!(
        problems(&base(
            r#""tools": [{"name": "x", "result": 1, "resutl": 2}]"#
        )),
        ["tools[0].resutl: not a field of tools[0] (did you mean `result`?)"]
    );
    // No near name: a short list of the fields instead of all of them.
    let colour = problems(&base(r#""limits": {"colour": "red"}"#));
    assert_eq!(colour.len(), 1);
    assert!(
        colour[0].starts_with("limits.colour: not a field of limits; its fields are "),
        "{colour:?}"
    );
    assert!(colour[0].ends_with(" and 12 more"), "{colour:?}");
}

#[test]
fn a_missing_field_is_named_at_its_own_path() {
    assert_eq!(
        problems("{}"),
        [
            "name: this required field is missing",
            "task: this required field is missing",
            "model: this required field is missing",
        ]
    );
    assert_eq!(
        problems(
            r#"{"name": "n", "task": "t", "tools": [{"result": 1}], "model": {"type": "rules"}}"#
        ),
        ["tools[0].name: this required field is missing"]
    );
}

#[test]
fn a_problem_in_one_part_does_not_hide_the_checks_of_the_same_part() {
    // The js handler has the wrong type: it is reported, it still counts as
    // a handler, and the tool's schema is still checked.
    assert_eq!(
        problems(
            r#"{"name": "n", "task": "t", "model": {"type": "rules"},
                "tools": [{"name": "x", "js": 5, "result": 1, "input_schema": {"type": "objekt"}}]}"#
        ),
        [
            "tools[0]: an inline tool has exactly one handler, but this one has \"result\" and \"js\"; keep one of \"result\", \"builtin\", \"js\" or \"recorded\"",
            "tools[0].js: expected a string, found a number (5)",
            "tools[0].input_schema.type: \"objekt\" is not a type name (did you mean \"object\"?)",
        ]
    );
    // A response the schema rejects leaves loop_from and the others checked.
    assert_eq!(
        problems(
            r#"{"name": "n", "task": "t", "tools": ["get_time", "get_time"],
                "model": {"type": "scripted", "loop_from": 2, "responses": [
                    {"text": "a", "tool_calls": [{"name": "get_time", "args": {}, "args_raw": "{}"}]},
                    {"text": 7, "error": {"message": "no status"}}]}}"#
        ),
        [
            "tools[1]: duplicate tool name \"get_time\" (also tools[0]); tool names must be unique",
            "model.loop_from: 2 is past the last response (the script has 2 responses, indices 0 to 1)",
            "model.responses[0].tool_calls[0]: give either \"args\" (an object) or \"args_raw\" (text sent as is), not both",
            "model.responses[1].text: expected a string, found a number (7)",
            "model.responses[1].error.status: this required field is missing",
        ]
    );
}

#[test]
fn from_value_reports_everything_too() {
    let value = serde_json::json!({
        "name": 1, "task": "t", "tools": ["get_tiem"],
        "model": {"type": "scripted", "responses": []}
    });
    let problems: Vec<String> = Scenario::from_value(value)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        problems,
        [
            "name: expected a string, found a number (1)",
            "tools[0]: unknown built-in tool \"get_tiem\" (did you mean `get_time`?)",
        ]
    );
}

/// Words from serde's and serde_json's own messages, which a person editing
/// a scenario should never meet.
const JARGON: [&str; 9] = [
    "invalid type",
    "invalid value",
    "expected u",
    "expected usize",
    "floating point",
    "EOF while",
    "does not fit the scenario format",
    "untagged enum",
    "(line ",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text, and any damage to a valid file, loads or gives problems in
    /// plain words; it never panics.
    #[test]
    fn any_text_gives_plain_problems(text in any::<String>()) {
        for p in problems(&text) {
            prop_assert!(JARGON.iter().all(|j| !p.contains(j)), "{p}");
        }
    }

    #[test]
    fn any_damage_gives_plain_problems(
        at in 0..MANY_PROBLEMS.len(),
        cut in 0usize..4,
        insert in prop::sample::select(vec!["", "1e400", "-1", "{", "]", "\"", ",", "99999999999999999999", "null", "\"x\": 1,"]),
    ) {
        let mut text = MANY_PROBLEMS.to_string();
        let at = (0..=at).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
        let end = (at + cut).min(text.len());
        let end = (end..=text.len()).find(|i| text.is_char_boundary(*i)).unwrap_or(text.len());
        text.replace_range(at..end, insert);
        let found = problems(&text);
        for p in &found {
            prop_assert!(JARGON.iter().all(|j| !p.contains(j)), "{p}");
        }
    }
}

/// One mistake in `model.type` is one problem: the type is judged once, by
/// its list of names, and not again by the script's shape it did not pick.
#[test]
fn a_wrong_model_type_is_one_problem_with_the_nearest_name() {
    let with_type = |t: &str| {
        problems(&format!(
            r#"{{"name": "x", "task": "t", "model": {{"type": {t}, "responses": [{{"text": "hi"}}]}}}}"#
        ))
    };
    assert_eq!(
        with_type("\"scriptd\""),
        [
            r#"model.type: expected one of ["scripted","rules"], found "scriptd" (did you mean `scripted`?)"#
        ]
    );
    assert_eq!(
        with_type("3"),
        [r#"model.type: expected one of ["scripted","rules"], found 3"#]
    );
    assert_eq!(
        with_type("\"gpt\""),
        [r#"model.type: expected one of ["scripted","rules"], found "gpt""#]
    );
    assert_eq!(
        problems(r#"{"name": "x", "task": "t", "model": {"responses": []}}"#),
        ["model.type: this required field is missing"]
    );
    // The same nearest-name help for every list of names.
    assert_eq!(
        problems(r#"{"name": "x", "task": "t", "approval": "aks", "model": {"type": "rules"}}"#),
        [
            r#"approval: expected one of ["ask","approve_all","deny_all"], found "aks" (did you mean `ask`?)"#
        ]
    );
}
