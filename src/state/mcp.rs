//! The scenario's MCP servers in the page: their tools, loaded when the
//! scenario names them (and again when their entries or header values
//! change), the JSON-RPC exchanges on the wire, and the header values.
//!
//! Header values are secrets, held like the API key: in memory only. A value
//! written into the scenario text is moved out of it as the text arrives
//! (typed, pasted, picked, from a link or a saved draft) and replaced by
//! `"[redacted]"`, so the text, which is saved in this browser and shared in
//! links, never carries it; a record or an export writes `"[redacted]"` too
//! (`harness::mcp::config::Secret`). The value goes into the request to its
//! server and nowhere else.
//!
//! A token typed into a server's Token field (what `agent-loop mcp bridge`
//! prints) is held the same way, and sent as `Authorization: Bearer …`.
//!
//! A run takes the loaded tools when the servers are the ones loaded; else
//! it loads them first (`ready`).

use harness::mcp::config::REDACTED;
use harness::mcp::McpTool;
use harness::scenario::Scenario;
use leptos::prelude::*;

use crate::browser::mcp_fetch::McpWire;
use crate::browser::runner::Generation;
use crate::lazy;
pub use crate::mcp_text::HeaderSecret;
pub use crate::mcp_text::ServerToken;
use crate::mcp_text::{extract_secrets, servers_key};

/// Exchanges kept for the wire view: the newest.
const WIRE_KEPT: usize = 200;

/// Where loading the scenario's servers stands.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum McpStatus {
    /// The scenario names no MCP server (or does not load).
    #[default]
    None,
    /// Reaching these servers (names and URLs).
    Loading(String),
    /// A line per server (who answered, which version, how many tools),
    /// and the tools the run can call.
    Loaded {
        reports: Vec<String>,
        tools: Vec<McpTool>,
    },
    /// Every problem, as lines; CORS explained where the browser got no answer.
    Failed(Vec<String>),
}

/// One JSON-RPC exchange as the wire view shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    pub n: u64,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The JSON-RPC method (`tools/call`, …) and, for a call, the tool.
    pub method: String,
    pub request: String,
    pub status: Option<u16>,
    pub content_type: String,
    pub response: String,
    pub no_answer: Option<String>,
}

#[derive(Clone, Copy)]
pub struct Mcp {
    status: RwSignal<McpStatus>,
    wire: RwSignal<Vec<Exchange>>,
    secrets: RwSignal<Vec<HeaderSecret>>,
    /// Tokens by server, from the panel's Token fields (memory only).
    tokens: RwSignal<Vec<ServerToken>>,
    /// Said once a value was moved out of the text.
    moved: RwSignal<Option<String>>,
    /// The servers' key (see `servers_key`) and the scenario loaded with them.
    loaded: StoredValue<Option<(String, Scenario)>>,
    /// A new attempt at every load, so an older load's answer is dropped.
    loads: Generation,
    /// The key of the load in flight, if one is.
    loading_key: StoredValue<Option<String>>,
}

impl Default for Mcp {
    fn default() -> Self {
        Self::new()
    }
}

impl Mcp {
    pub fn new() -> Self {
        Mcp {
            status: RwSignal::new(McpStatus::None),
            wire: RwSignal::new(Vec::new()),
            secrets: RwSignal::new(Vec::new()),
            tokens: RwSignal::new(Vec::new()),
            moved: RwSignal::new(None),
            loaded: StoredValue::new(None),
            loads: Generation::new(),
            loading_key: StoredValue::new(None),
        }
    }

    pub fn status(&self) -> ReadSignal<McpStatus> {
        self.status.read_only()
    }

    pub fn wire(&self) -> ReadSignal<Vec<Exchange>> {
        self.wire.read_only()
    }

    pub fn moved(&self) -> ReadSignal<Option<String>> {
        self.moved.read_only()
    }

    /// The value held for `server`'s `header`, if one is (tracked).
    pub fn secret(&self, server: &str, header: &str) -> Option<String> {
        self.secrets.with(|all| {
            all.iter()
                .find(|s| s.server == server && s.header == header)
                .map(|s| s.value.clone())
        })
    }

    /// Holds `value` for `server`'s `header` (an empty value forgets it).
    pub fn set_secret(self, server: &str, header: &str, value: String) {
        self.secrets.update(|all| {
            all.retain(|s| !(s.server == server && s.header == header));
            if !value.is_empty() {
                all.push(HeaderSecret {
                    server: server.into(),
                    header: header.into(),
                    value,
                });
            }
        });
    }

    /// The token held for `server`, if one is (tracked).
    pub fn token(&self, server: &str) -> Option<String> {
        self.tokens.with(|all| {
            all.iter()
                .find(|t| t.server == server)
                .map(|t| t.token.clone())
        })
    }

    /// Holds `token` for `server` (an empty one forgets it).
    pub fn set_token(self, server: &str, token: String) {
        let token = token.trim().to_string();
        self.tokens.update(|all| {
            all.retain(|t| t.server != server);
            if !token.is_empty() {
                all.push(ServerToken {
                    server: server.into(),
                    token,
                });
            }
        });
    }

    /// The header values and the tokens, as the key of a load sees them.
    fn held(&self, tracked: bool) -> Vec<HeaderSecret> {
        let (mut all, tokens) = if tracked {
            (self.secrets.get(), self.tokens.get())
        } else {
            (self.secrets.get_untracked(), self.tokens.get_untracked())
        };
        all.extend(tokens.into_iter().map(|t| HeaderSecret {
            server: t.server,
            header: "token".into(),
            value: t.token,
        }));
        all
    }

    /// `text` with every header value moved out into memory (see the module
    /// doc); said in `moved` when there was one.
    pub fn take_secrets(self, text: String) -> String {
        let Some((clean, taken)) = extract_secrets(&text) else {
            return text;
        };
        let names: Vec<String> = taken
            .iter()
            .map(|s| format!("{} of server {:?}", s.header, s.server))
            .collect();
        for secret in taken {
            self.set_secret(&secret.server, &secret.header, secret.value);
        }
        self.moved.set(Some(format!(
            "The value of {} was moved out of the scenario into memory: it is sent to its server only, \
             and is never saved, put in a link, a record or an export. The JSON says {REDACTED:?} in its place.",
            names.join(" and ")
        )));
        clean
    }

    /// Loads the servers of the scenario in `text` whenever they (or the
    /// header values) change; the status says where that stands.
    pub fn watch(self, text: ReadSignal<String>) {
        Effect::new(move |_| {
            let text = text.get();
            let secrets = self.held(true);
            let Some(key) = servers_key(&text, &secrets) else {
                self.loads.drop_all();
                self.loading_key.set_value(None);
                self.loaded.set_value(None);
                if self.status.with_untracked(|s| *s != McpStatus::None) {
                    self.status.set(McpStatus::None);
                }
                return;
            };
            let known = self
                .loaded
                .with_value(|l| l.as_ref().map(|(k, _)| k == &key))
                == Some(true)
                || self.loading_key.with_value(|k| k.as_ref() == Some(&key));
            if !known {
                crate::browser::runner::start(async move {
                    let _ = self.load(text, key).await;
                });
            }
        });
    }

    /// Loads the servers again, as if they had changed.
    pub fn reload(self, text: String) {
        let secrets = self.held(false);
        if let Some(key) = servers_key(&text, &secrets) {
            crate::browser::runner::start(async move {
                let _ = self.load(text, key).await;
            });
        }
    }

    /// `scenario` (loaded from `text`) ready to run: with its servers' tools,
    /// the loaded ones when its servers are the loaded servers, else loaded
    /// now; or the lines that say why not.
    pub async fn ready(self, text: &str, scenario: Scenario) -> Result<Scenario, Vec<String>> {
        if scenario.mcp_servers.is_empty() || scenario.mcp.is_some() {
            return Ok(scenario);
        }
        let Some(key) = servers_key(text, &self.held(false)) else {
            return Ok(scenario);
        };
        let loaded = self.loaded.with_value(|l| {
            l.as_ref()
                .filter(|(k, _)| *k == key)
                .and_then(|(_, s)| s.mcp.clone())
        });
        let mcp = match loaded {
            Some(mcp) => mcp,
            None => match self.load(text.to_string(), key).await? {
                Some(loaded) => loaded
                    .mcp
                    .ok_or_else(|| vec!["the MCP tools did not load".to_string()])?,
                None => {
                    return Err(vec![
                        "the scenario changed while its MCP servers were loading; run again".into(),
                    ])
                }
            },
        };
        Ok(scenario.with_mcp(mcp))
    }

    /// Reaches the servers of `text`; `Ok(None)` when a newer load or edit
    /// made this one moot, or the text does not load (the problem list
    /// says why).
    async fn load(self, text: String, key: String) -> Result<Option<Scenario>, Vec<String>> {
        let this_load = self.loads.next();
        let current = move || this_load.is_current();
        self.loading_key.set_value(Some(key.clone()));
        self.status.set(McpStatus::Loading(servers_named(&text)));
        let on_wire = std::rc::Rc::new(move |wire: McpWire| self.note_wire(wire));
        let answer = lazy::load_mcp(
            text,
            self.secrets.get_untracked(),
            self.tokens.get_untracked(),
            on_wire,
        )
        .await;
        if !current() {
            return Ok(None);
        }
        self.loading_key.set_value(None);
        match answer {
            None => {
                self.status.set(McpStatus::None);
                Ok(None)
            }
            Some(Ok((scenario, reports))) => {
                let tools = scenario
                    .mcp
                    .as_ref()
                    .map(|m| m.tools.clone())
                    .unwrap_or_default();
                self.loaded.set_value(Some((key, scenario.clone())));
                self.status.set(McpStatus::Loaded { reports, tools });
                Ok(Some(scenario))
            }
            Some(Err(lines)) => {
                self.loaded.set_value(None);
                self.status.set(McpStatus::Failed(lines.clone()));
                Err(lines)
            }
        }
    }

    fn note_wire(self, wire: McpWire) {
        self.wire.update(|all| match wire {
            McpWire::Request {
                n,
                url,
                headers,
                method,
                body: request,
            } => {
                all.push(Exchange {
                    n,
                    url,
                    headers,
                    method,
                    request,
                    status: None,
                    content_type: String::new(),
                    response: String::new(),
                    no_answer: None,
                });
                if all.len() > WIRE_KEPT {
                    all.remove(0);
                }
            }
            McpWire::Answer {
                n,
                status,
                content_type,
            } => {
                if let Some(e) = all.iter_mut().rev().find(|e| e.n == n) {
                    e.status = Some(status);
                    e.content_type = content_type;
                }
            }
            McpWire::Chunk { n, text } => {
                if let Some(e) = all.iter_mut().rev().find(|e| e.n == n) {
                    e.response.push_str(&text);
                }
            }
            McpWire::NoAnswer { n, why } => {
                if let Some(e) = all.iter_mut().rev().find(|e| e.n == n) {
                    e.no_answer = Some(why);
                }
            }
        });
    }
}

/// The servers of the scenario in `text`, for "Loading tools from …".
fn servers_named(text: &str) -> String {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    doc.get("mcp_servers")
        .and_then(|s| s.as_array())
        .into_iter()
        .flatten()
        .map(|s| {
            format!(
                "{:?} at {}",
                s.get("name").and_then(|v| v.as_str()).unwrap_or_default(),
                s.get("url").and_then(|v| v.as_str()).unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}
