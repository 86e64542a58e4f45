//! A file a person gave us that is JSON but not what belongs there is
//! described in plain words with its place, never in serde's words
//! ("missing field `seq`", "invalid type: null, expected f64").

use harness::event::from_jsonl;

fn said(line: &str) -> String {
    from_jsonl(&format!("{{\"seq\":0,\"t_ms\":0,\"type\":\"model_request\",\"turn\":1,\"attempt\":1,\"messages\":1,\"estimated_input_tokens\":1,\"max_output_tokens\":1}}\n{line}\n"))
        .unwrap_err()
        .to_string()
}

#[test]
fn a_trace_line_that_is_not_an_event_says_why_in_plain_words() {
    assert_eq!(
        said(r#"{"t_ms":0,"type":"model_request","turn":1}"#),
        "line 2: not a run event: the field `seq` is missing"
    );
    assert_eq!(
        said(r#"{"seq":1,"t_ms":"soon","type":"model_request"}"#),
        "line 2: not a run event: found the text \"soon\" where a whole number, 0 or more belongs"
    );
    assert_eq!(
        said(r#"{"seq":1,"t_ms":0,"type":"run_finishd"}"#),
        "line 2: not a run event: `run_finishd` is not a name known here (did you mean `run_finished`?)"
    );
    // What a trace written while costs could be infinite holds.
    assert_eq!(
        said(
            r#"{"seq":1,"t_ms":0,"type":"model_response","turn":1,"text":"","content":[],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1},"cost_usd":null,"latency_ms":0}"#
        ),
        "line 2: not a run event: found null where a number belongs"
    );
    assert_eq!(
        said("{\"seq\": 1,"),
        "line 2: not valid JSON: the text ends where a value should be"
    );
}

#[test]
fn no_message_uses_serdes_words() {
    for line in [
        r#"{"seq":1,"t_ms":0}"#,
        r#"{"seq":-1,"t_ms":0,"type":"model_request"}"#,
        r#"{"seq":1,"t_ms":0,"type":"model_request","turn":true}"#,
        r#"[1, 2]"#,
        r#"{"seq":1,"t_ms":0,"type":"model_request","turn":1,"attempt":1,"messages":1,"estimated_input_tokens":1,"max_output_tokens":1,"extra":{}}"#,
    ] {
        let message = match from_jsonl(line) {
            Ok(_) => continue,
            Err(error) => error.to_string(),
        };
        for jargon in [
            "missing field",
            "invalid type",
            "expected f64",
            "expected u64",
            "variant",
            "sequence",
            "struct ",
        ] {
            assert!(!message.contains(jargon), "{line}: {message}");
        }
    }
}
