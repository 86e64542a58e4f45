//! The scenario text's MCP header values, as plain functions (the MCP
//! servers' model `mcp::model` and the engine's split point `lazy::load_mcp`
//! use them): moving a value out of the text, naming the fields the page asks
//! for, putting the held values back into a loaded scenario, the tokens
//! typed in the panel (sent as `Authorization: Bearer …`), and the key
//! that says when the servers must be reached again.

use harness::mcp::config::{Secret, REDACTED};
use harness::scenario::Scenario;
use serde_json::Value;

/// A header value held in memory for a server's requests.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderSecret {
    pub server: String,
    pub header: String,
    pub value: String,
}

/// What identifies a load: the scenario's `mcp_servers` entries and the
/// header values held for them; `None` when the text names no server.
pub fn servers_key(text: &str, secrets: &[HeaderSecret]) -> Option<String> {
    let doc: Value = serde_json::from_str(text).ok()?;
    let servers = doc.get("mcp_servers")?.as_array()?;
    if servers.is_empty() {
        return None;
    }
    let mut key = Value::Array(servers.clone()).to_string();
    for secret in secrets {
        key.push('\n');
        key.push_str(&format!(
            "{}\u{0}{}\u{0}{}",
            secret.server, secret.header, secret.value
        ));
    }
    Some(key)
}

/// The header values written in `text`'s `mcp_servers`, and the text with
/// each replaced by `"[redacted]"`; `None` when there is none to move.
pub fn extract_secrets(text: &str) -> Option<(String, Vec<HeaderSecret>)> {
    let mut doc: Value = serde_json::from_str(text).ok()?;
    let mut taken = Vec::new();
    for server in doc.get_mut("mcp_servers")?.as_array_mut()? {
        let name = server
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let Some(headers) = server.get_mut("headers").and_then(Value::as_object_mut) else {
            continue;
        };
        for (header, value) in headers.iter_mut() {
            if let Some(secret) = value.as_str().filter(|v| *v != REDACTED) {
                taken.push(HeaderSecret {
                    server: name.clone(),
                    header: header.clone(),
                    value: secret.to_string(),
                });
                *value = Value::String(REDACTED.into());
            }
        }
    }
    if taken.is_empty() {
        return None;
    }
    // Keep the person's layout: replace each value where it is written;
    // if one is written in a way that cannot be found (escapes), write the
    // whole document again.
    let mut clean = text.to_string();
    let redacted = Value::String(REDACTED.into()).to_string();
    for secret in &taken {
        let literal = Value::String(secret.value.clone()).to_string();
        if !clean.contains(&literal) {
            return Some((doc.to_string(), taken));
        }
        clean = clean.replace(&literal, &redacted);
    }
    Some((clean, taken))
}

/// The `(server, header)` pairs of `text` whose value the page holds
/// (written `"[redacted]"`), in order: the fields the panel asks for.
pub fn held_headers(text: &str) -> Vec<(String, String)> {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for server in doc
        .get("mcp_servers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = server
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        for (header, value) in server
            .get("headers")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if value.as_str() == Some(REDACTED) {
                out.push((name.to_string(), header.clone()));
            }
        }
    }
    out
}

/// `scenario` with each `"[redacted]"` header value replaced by the value
/// held for it; or a line per header with no value held.
pub fn fill_secrets(
    mut scenario: Scenario,
    secrets: &[HeaderSecret],
) -> Result<Scenario, Vec<String>> {
    let mut missing = Vec::new();
    for (i, server) in scenario.mcp_servers.iter_mut().enumerate() {
        for (header, value) in server.headers.iter_mut() {
            if value.expose() != REDACTED {
                continue;
            }
            match secrets
                .iter()
                .find(|s| s.server == server.name && &s.header == header)
            {
                Some(secret) => *value = Secret::new(secret.value.clone()),
                None => missing.push(format!(
                    "mcp_servers[{i}].headers.{header}: enter its value under \"MCP servers\" (the page holds header values in memory only)"
                )),
            }
        }
    }
    if missing.is_empty() {
        Ok(scenario)
    } else {
        Err(missing)
    }
}

/// A token held in memory for a server (what `agent-loop mcp bridge`
/// prints), sent as `Authorization: Bearer TOKEN`.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerToken {
    pub server: String,
    pub token: String,
}

/// Whether a server entry names an `Authorization` header of its own; the
/// panel offers no Token field for such a server, and a token never
/// replaces the header.
fn names_authorization(server: &Value) -> bool {
    server
        .get("headers")
        .and_then(Value::as_object)
        .is_some_and(|headers| {
            headers
                .keys()
                .any(|k| k.eq_ignore_ascii_case("authorization"))
        })
}

/// The names of `text`'s servers a token can be given for: those with a
/// url (a `command` server is not reached by the page) and no
/// `Authorization` header of their own, in order.
pub fn token_servers(text: &str) -> Vec<String> {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    doc.get("mcp_servers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|server| server.get("url").is_some() && !names_authorization(server))
        .filter_map(|server| server.get("name").and_then(Value::as_str))
        .map(str::to_string)
        .collect()
}

/// `scenario` with each held token sent to its server as
/// `Authorization: Bearer TOKEN` (unless the server names that header
/// itself); the value stays a `Secret`, so records and exports redact it.
pub fn add_tokens(mut scenario: Scenario, tokens: &[ServerToken]) -> Scenario {
    for server in scenario.mcp_servers.iter_mut() {
        let has_own = server
            .headers
            .keys()
            .any(|k| k.eq_ignore_ascii_case("authorization"));
        if let Some(held) = tokens.iter().find(|t| t.server == server.name) {
            if !has_own && !held.token.is_empty() {
                server.headers.insert(
                    "Authorization".to_string(),
                    Secret::new(format!("Bearer {}", held.token)),
                );
            }
        }
    }
    scenario
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::scenario::Scenario;

    const WITH_TOKEN: &str = r#"{
  "name": "s", "task": "t",
  "mcp_servers": [{"name": "shop", "url": "http://127.0.0.1:9/mcp",
                   "headers": {"Authorization": "Bearer s3cret"}}],
  "model": {"type": "scripted", "responses": [{"text": "ok"}]}
}"#;

    #[test]
    fn a_header_value_leaves_the_text_and_keeps_its_layout() {
        let (clean, taken) = extract_secrets(WITH_TOKEN).unwrap();
        assert!(!clean.contains("s3cret"), "{clean}");
        assert_eq!(
            clean,
            WITH_TOKEN.replace("\"Bearer s3cret\"", "\"[redacted]\"")
        );
        assert_eq!(
            taken,
            vec![HeaderSecret {
                server: "shop".into(),
                header: "Authorization".into(),
                value: "Bearer s3cret".into()
            }]
        );
        assert_eq!(extract_secrets(&clean), None, "nothing left to move");
        assert_eq!(
            held_headers(&clean),
            vec![("shop".to_string(), "Authorization".to_string())]
        );
    }

    #[test]
    fn an_escaped_value_is_still_taken_out() {
        let text = WITH_TOKEN.replace("Bearer s3cret", "Bearer s\\u0033cret");
        let (clean, taken) = extract_secrets(&text).unwrap();
        assert!(!clean.contains("s\\u0033cret") && !clean.contains("s3cret"));
        assert_eq!(taken[0].value, "Bearer s3cret");
    }

    #[test]
    fn a_run_gets_the_held_value_and_a_missing_one_is_named() {
        let (clean, taken) = extract_secrets(WITH_TOKEN).unwrap();
        let scenario = Scenario::load(&clean).unwrap();
        let missing = fill_secrets(scenario.clone(), &[]).unwrap_err();
        assert_eq!(
            missing,
            vec!["mcp_servers[0].headers.Authorization: enter its value under \"MCP servers\" (the page holds header values in memory only)"]
        );
        let filled = fill_secrets(scenario, &taken).unwrap();
        assert_eq!(
            filled.mcp_servers[0].headers["Authorization"].expose(),
            "Bearer s3cret"
        );
        // Written out, the value is redacted again.
        assert!(!serde_json::to_string(&filled).unwrap().contains("s3cret"));
    }

    #[test]
    fn the_key_changes_with_the_servers_and_the_values_not_the_task() {
        let secrets = vec![HeaderSecret {
            server: "shop".into(),
            header: "Authorization".into(),
            value: "v1".into(),
        }];
        let key = servers_key(WITH_TOKEN, &secrets).unwrap();
        let other_task = WITH_TOKEN.replace("\"task\": \"t\"", "\"task\": \"other\"");
        assert_eq!(servers_key(&other_task, &secrets).unwrap(), key);
        let mut changed = secrets.clone();
        changed[0].value = "v2".into();
        assert_ne!(servers_key(WITH_TOKEN, &changed).unwrap(), key);
        assert_eq!(servers_key(r#"{"name": "s"}"#, &secrets), None);
        assert_eq!(servers_key("{ broken", &secrets), None);
    }

    #[test]
    fn a_token_is_sent_as_a_bearer_header_to_its_server_only() {
        let text = r#"{
  "name": "s", "task": "t",
  "mcp_servers": [{"name": "time", "url": "http://127.0.0.1:9/mcp"},
                  {"name": "shop", "url": "http://127.0.0.1:8/mcp",
                   "headers": {"authorization": "[redacted]"}}],
  "model": {"type": "scripted", "responses": [{"text": "ok"}]}
}"#;
        assert_eq!(token_servers(text), vec!["time".to_string()]);
        let scenario = Scenario::load(text).unwrap();
        let tokens = [
            ServerToken {
                server: "time".into(),
                token: "abc".into(),
            },
            ServerToken {
                server: "shop".into(),
                token: "xyz".into(),
            },
        ];
        let with = add_tokens(scenario, &tokens);
        assert_eq!(
            with.mcp_servers[0].headers["Authorization"].expose(),
            "Bearer abc"
        );
        assert_eq!(with.mcp_servers[1].headers.len(), 1);
        assert_eq!(
            with.mcp_servers[1].headers["authorization"].expose(),
            REDACTED
        );
    }
}
