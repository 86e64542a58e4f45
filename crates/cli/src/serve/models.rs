//! `GET /v1/models` and `GET /v1/models/{id}` on `agent-loop serve`, in
//! OpenAI's shape (https://platform.openai.com/docs/api-reference/models/list):
//! clients such as LiteLLM ask for the list when they start. The list holds
//! one model, named after the scenario; since `serve` answers whatever
//! `model` a request names, any id is described when asked for by name.

use hyper::StatusCode;
use serde_json::{json, Value};

use super::Answer;

/// The id `GET /v1/models` lists for a scenario: its name in lowercase,
/// with every run of other characters than letters and digits as one `-`.
pub fn model_id(scenario_name: &str) -> String {
    let mut id = String::new();
    for c in scenario_name.chars() {
        if c.is_alphanumeric() {
            id.extend(c.to_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-');
    if id.is_empty() {
        "agent-loop".to_string()
    } else {
        id.to_string()
    }
}

fn model(id: &str, created: u64) -> Value {
    json!({"id": id, "object": "model", "created": created, "owned_by": "agent-loop"})
}

/// `GET /v1/models`: the scenario's model.
pub fn list(id: &str, created: u64) -> Answer {
    Answer::json(
        StatusCode::OK,
        &json!({"object": "list", "data": [model(id, created)]}),
        format!("models: {id}"),
    )
}

/// `GET /v1/models/{id}`: any id, as a request naming it would be answered.
pub fn one(id: &str, created: u64) -> Answer {
    Answer::json(StatusCode::OK, &model(id, created), format!("model {id}"))
}

#[cfg(test)]
mod tests {
    use super::model_id;

    #[test]
    fn a_scenario_name_becomes_a_plain_id() {
        assert_eq!(
            model_id("Refund with approval (seed 000)"),
            "refund-with-approval-seed-000"
        );
        assert_eq!(model_id("Two turns"), "two-turns");
        assert_eq!(model_id("  ?? "), "agent-loop");
    }
}
