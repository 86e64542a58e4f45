//! The scenario's MCP servers as a plain model (see `crate::update`): where
//! loading their tools stands, the exchanges on the wire, and the header
//! values and tokens. It changes only by `McpModel::update` (and
//! `take_secrets`, which hands the cleaned text straight back), and asks the
//! world to reach the servers, or to tell a run how its load settled, as
//! `Cmd`s.
//!
//! Header values are secrets, held like the API key: in memory only. A value
//! written into the scenario text is moved out of it as the text arrives
//! (`take_secrets`) and replaced by `"[redacted]"`, so the text, which is
//! saved in this browser and shared in links, never carries it. The value
//! goes into the request to its server (`Cmd::Load`) and nowhere else. A
//! token typed into a server's Token field is held the same way.
//!
//! Invariants:
//! - A load is keyed by the servers' entries and the values held for them
//!   (`mcp_text::servers_key`): the same key loads once.
//! - Only the answer of the load in flight counts. Each load has a number,
//!   its answer brings it back, and one that a newer load (or an edit that
//!   names no server any more) overtook is dropped.
//! - Every load settles exactly once (`Cmd::Settle`): with its tools, its
//!   problems, or, when it was overtaken, the words that tell a run waiting
//!   on it to run again.
//! - The wire keeps the newest `WIRE_KEPT` exchanges.

use harness::mcp::config::REDACTED;
use harness::mcp::{McpTool, ResolvedMcp};
use harness::scenario::Scenario;

use crate::browser::mcp_fetch::McpWire;
use crate::mcp::text::{extract_secrets, servers_key, HeaderSecret, ServerToken};
use crate::update::Update;

/// Exchanges kept for the wire view: the newest.
pub const WIRE_KEPT: usize = 200;

/// What a run that waited on a load overtaken by an edit is told.
pub const CHANGED_WHILE_LOADING: &str =
    "the scenario changed while its MCP servers were loading; run again";

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

/// What a load ended with: the scenario with its servers' tools and a line
/// per server, or every problem; `None` when the text does not load.
pub type LoadAnswer = Option<Result<(Scenario, Vec<String>), Vec<String>>>;

/// How a load settled, for a run waiting on it: the tools, or why not.
pub type Settled = Result<ResolvedMcp, Vec<String>>;

#[derive(Clone, Debug, Default)]
pub struct McpModel {
    status: McpStatus,
    wire: Vec<Exchange>,
    secrets: Vec<HeaderSecret>,
    /// Tokens by server, from the panel's Token fields.
    tokens: Vec<ServerToken>,
    /// Said once a value was moved out of the text.
    moved: Option<String>,
    /// The scenario text last seen, whose servers are loaded or loading.
    text: Option<String>,
    /// The servers' key and the tools loaded with them.
    loaded: Option<(String, ResolvedMcp)>,
    /// The newest load's number; 0 before any.
    loads: u64,
    /// The number and key of the load in flight, if one is.
    loading: Option<(u64, String)>,
}

/// What can happen to the servers' state.
#[derive(Debug)]
pub enum Msg {
    /// The scenario text is now `text` (typed, picked, loaded).
    Text(String),
    /// Load the servers of `text` now, even if they are loaded (the panel's
    /// "Load the tools again", or a run whose servers are not loaded).
    Reload(String),
    /// Hold `value` for `server`'s `header` (an empty value forgets it).
    SetSecret {
        server: String,
        header: String,
        value: String,
    },
    /// Hold `token` for `server` (an empty one forgets it).
    SetToken { server: String, token: String },
    /// One step of an exchange with a server.
    Wire(McpWire),
    /// Load number `load` ended.
    Loaded { load: u64, answer: Box<LoadAnswer> },
}

/// What the world must do for the servers.
#[derive(Debug, PartialEq)]
pub enum Cmd {
    /// Reach the servers of `text` with these values; answer `Loaded`.
    Load {
        load: u64,
        text: String,
        secrets: Vec<HeaderSecret>,
        tokens: Vec<ServerToken>,
    },
    /// Tell a run waiting on load `load`, if one does, how it settled.
    Settle { load: u64, settled: Settled },
}

/// What a run needs to do about the servers before it starts.
#[derive(Debug, PartialEq)]
pub enum Ready {
    /// Nothing: the scenario names no server, or has its tools already.
    AsIs,
    /// These servers' tools are loaded: take them.
    Loaded(ResolvedMcp),
    /// They are not loaded: load them first (`Msg::Reload`) and wait for
    /// the load to settle.
    Load,
}

impl McpModel {
    pub fn status(&self) -> &McpStatus {
        &self.status
    }

    /// The exchanges with the servers, oldest first.
    pub fn wire(&self) -> &[Exchange] {
        &self.wire
    }

    /// What the page said when it last moved a value out of the text.
    pub fn moved(&self) -> Option<&String> {
        self.moved.as_ref()
    }

    /// The value held for `server`'s `header`, if one is.
    pub fn secret(&self, server: &str, header: &str) -> Option<String> {
        self.secrets
            .iter()
            .find(|s| s.server == server && s.header == header)
            .map(|s| s.value.clone())
    }

    /// The token held for `server`, if one is.
    pub fn token(&self, server: &str) -> Option<String> {
        self.tokens
            .iter()
            .find(|t| t.server == server)
            .map(|t| t.token.clone())
    }

    /// The number of the load in flight, if one is.
    pub fn loading(&self) -> Option<u64> {
        self.loading.as_ref().map(|(load, _)| *load)
    }

    /// `text` with every header value moved out into memory (see the module
    /// doc); said in `moved` when there was one. The servers load with the
    /// values once the cleaned text arrives (`Msg::Text`).
    pub fn take_secrets(&mut self, text: String) -> String {
        let Some((clean, taken)) = extract_secrets(&text) else {
            return text;
        };
        let names: Vec<String> = taken
            .iter()
            .map(|s| format!("{} of server {:?}", s.header, s.server))
            .collect();
        for secret in taken {
            self.hold_secret(secret.server, secret.header, secret.value);
        }
        self.moved = Some(format!(
            "The value of {} was moved out of the scenario into memory: it is sent to its server only, \
             and is never saved, put in a link, a record or an export. The JSON says {REDACTED:?} in its place.",
            names.join(" and ")
        ));
        clean
    }

    /// What a run of `scenario` (loaded from `text`) needs first.
    pub fn ready(&self, text: &str, scenario: &Scenario) -> Ready {
        if scenario.mcp_servers.is_empty() || scenario.mcp.is_some() {
            return Ready::AsIs;
        }
        let Some(key) = servers_key(text, &self.held()) else {
            return Ready::AsIs;
        };
        match &self.loaded {
            Some((loaded_key, mcp)) if *loaded_key == key => Ready::Loaded(mcp.clone()),
            _ => Ready::Load,
        }
    }

    fn hold_secret(&mut self, server: String, header: String, value: String) {
        self.secrets
            .retain(|s| !(s.server == server && s.header == header));
        if !value.is_empty() {
            self.secrets.push(HeaderSecret {
                server,
                header,
                value,
            });
        }
    }

    /// The header values and the tokens, as the key of a load sees them.
    fn held(&self) -> Vec<HeaderSecret> {
        let mut all = self.secrets.clone();
        all.extend(self.tokens.iter().map(|t| HeaderSecret {
            server: t.server.clone(),
            header: "token".into(),
            value: t.token.clone(),
        }));
        all
    }

    /// The servers of the text last seen, loaded when they (or the values
    /// held for them) changed.
    fn watch(&mut self) -> Vec<Cmd> {
        let Some(text) = self.text.clone() else {
            return Vec::new();
        };
        let Some(key) = servers_key(&text, &self.held()) else {
            // No server any more: the load in flight is moot.
            self.loaded = None;
            self.status = McpStatus::None;
            return self.drop_loading().into_iter().collect();
        };
        let known = self.loaded.as_ref().is_some_and(|(k, _)| *k == key)
            || self.loading.as_ref().is_some_and(|(_, k)| *k == key);
        if known {
            return Vec::new();
        }
        self.load(text, key)
    }

    /// Forgets the load in flight; its waiter is told to run again.
    fn drop_loading(&mut self) -> Option<Cmd> {
        let (load, _) = self.loading.take()?;
        Some(Cmd::Settle {
            load,
            settled: Err(vec![CHANGED_WHILE_LOADING.to_string()]),
        })
    }

    /// Starts a load of `text`'s servers, making any load in flight moot.
    fn load(&mut self, text: String, key: String) -> Vec<Cmd> {
        let mut cmds: Vec<Cmd> = self.drop_loading().into_iter().collect();
        self.loads += 1;
        self.loading = Some((self.loads, key));
        self.status = McpStatus::Loading(servers_named(&text));
        cmds.push(Cmd::Load {
            load: self.loads,
            text,
            secrets: self.secrets.clone(),
            tokens: self.tokens.clone(),
        });
        cmds
    }

    fn loaded(&mut self, load: u64, answer: LoadAnswer) -> Vec<Cmd> {
        // Only the load in flight counts: an overtaken one was settled when
        // it was overtaken, and an answer comes once.
        if self.loading() != Some(load) {
            return Vec::new();
        }
        let key = self.loading.take().map(|(_, key)| key).unwrap_or_default();
        let settled = match answer {
            None => {
                self.status = McpStatus::None;
                Err(vec![CHANGED_WHILE_LOADING.to_string()])
            }
            Some(Ok((scenario, reports))) => {
                let mcp = scenario
                    .mcp
                    .ok_or_else(|| vec!["the MCP tools did not load".to_string()]);
                let tools = mcp.as_ref().map(|m| m.tools.clone()).unwrap_or_default();
                self.loaded = mcp.as_ref().ok().map(|mcp| (key, mcp.clone()));
                self.status = McpStatus::Loaded { reports, tools };
                mcp
            }
            Some(Err(lines)) => {
                self.loaded = None;
                self.status = McpStatus::Failed(lines.clone());
                Err(lines)
            }
        };
        vec![Cmd::Settle { load, settled }]
    }

    fn note_wire(&mut self, wire: McpWire) {
        let all = &mut self.wire;
        // An answer to an exchange no longer kept changes nothing.
        match wire {
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
        }
    }
}

impl Update for McpModel {
    type Msg = Msg;
    type Cmd = Cmd;

    fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        match msg {
            Msg::Text(text) => {
                self.text = Some(text);
                self.watch()
            }
            Msg::Reload(text) => match servers_key(&text, &self.held()) {
                Some(key) => self.load(text, key),
                None => Vec::new(),
            },
            Msg::SetSecret {
                server,
                header,
                value,
            } => {
                self.hold_secret(server, header, value);
                self.watch()
            }
            Msg::SetToken { server, token } => {
                let token = token.trim().to_string();
                self.tokens.retain(|t| t.server != server);
                if !token.is_empty() {
                    self.tokens.push(ServerToken { server, token });
                }
                self.watch()
            }
            Msg::Wire(wire) => {
                self.note_wire(wire);
                Vec::new()
            }
            Msg::Loaded { load, answer } => self.loaded(load, *answer),
        }
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

#[cfg(test)]
mod tests;
