//! The MCP servers' state as a plain model (see `crate::update`): which
//! servers the scenario names and whether their tools loaded, the
//! exchanges on the wire, and the header values and tokens.
//!
//! Header values are secrets, held like the API key: in memory only. A value
//! written into the scenario text is moved out of it as the text arrives
//! (`take_secrets`) and replaced by `"[redacted]"`, so the text, which is
//! saved in this browser and shared in links, never carries it. The value
//! goes into the request to its server and nowhere else. A token typed into
//! a server's Token field is held the same way.
//!
//! A load is keyed by the servers' entries and the values held for them
//! (`mcp_text::servers_key`): the same key loads once; a newer load makes an
//! older one's answer moot (`Latest`), and so does an edit that names no
//! server any more.

use harness::mcp::config::REDACTED;
use harness::mcp::McpTool;
use harness::mcp::ResolvedMcp;
use harness::scenario::Scenario;

use crate::browser::mcp_fetch::McpWire;
use crate::mcp_text::{extract_secrets, servers_key, HeaderSecret, ServerToken};
use crate::update::{Latest, Ticket, Update};

/// Exchanges kept for the wire view: the newest.
pub const WIRE_KEPT: usize = 200;

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

/// What a load ended with: the loaded scenario and a line per server, or
/// every problem; `None` when the text does not load.
pub type LoadAnswer = Option<Result<(Scenario, Vec<String>), Vec<String>>>;

/// How a load settled, for whoever waits on it (a run about to start).
pub type Settled = Result<Option<Scenario>, Vec<String>>;

#[derive(Clone, Debug, Default)]
pub struct McpModel {
    pub status: McpStatus,
    pub wire: Vec<Exchange>,
    secrets: Vec<HeaderSecret>,
    /// Tokens by server, from the panel's Token fields.
    tokens: Vec<ServerToken>,
    /// Said once a value was moved out of the text.
    pub moved: Option<String>,
    /// The scenario text last seen, whose servers are loaded or loading.
    text: Option<String>,
    /// The servers' key and the scenario loaded with them.
    loaded: Option<(String, Scenario)>,
    /// A new ticket at every load, so an older load's answer is dropped.
    loads: Latest,
    /// The ticket and key of the load in flight, if one is.
    loading: Option<(Ticket, String)>,
}

pub enum Msg {
    /// The scenario text is now `text` (typed, picked, loaded).
    Text(String),
    /// Load the servers of `text` again, as if they had changed.
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
    /// The load `ticket` ended.
    Loaded {
        ticket: Ticket,
        answer: Box<LoadAnswer>,
    },
}

#[derive(Debug)]
pub enum Cmd {
    /// Reach the servers of `text` with these values; answer `Loaded`.
    Load {
        ticket: Ticket,
        text: String,
        secrets: Vec<HeaderSecret>,
        tokens: Vec<ServerToken>,
    },
    /// Tell whoever waits on load `ticket` how it settled (`Ok(None)`: made
    /// moot by a newer load or an edit, or the text does not load).
    Settle {
        ticket: Ticket,
        settled: Box<Settled>,
    },
}

/// What a run needs to do about the servers before it starts.
#[derive(Debug)]
pub enum Ready {
    /// Nothing: it names none, or the text names none.
    AsIs,
    /// These servers' tools are loaded: take them.
    Loaded(ResolvedMcp),
    /// They are not loaded: load them first.
    Load,
}

impl McpModel {
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

    /// The ticket of the load in flight, if one is.
    pub fn loading(&self) -> Option<Ticket> {
        self.loading.as_ref().map(|(ticket, _)| *ticket)
    }

    /// `text` with every header value moved out into memory (see the module
    /// doc); said in `moved` when there was one.
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
        let loaded = self
            .loaded
            .as_ref()
            .filter(|(k, _)| *k == key)
            .and_then(|(_, s)| s.mcp.clone());
        match loaded {
            Some(mcp) => Ready::Loaded(mcp),
            None => Ready::Load,
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
            let moot = self.loading.take();
            self.loads.drop_all();
            self.loaded = None;
            self.status = McpStatus::None;
            return moot
                .map(|(ticket, _)| Cmd::Settle {
                    ticket,
                    settled: Box::new(Ok(None)),
                })
                .into_iter()
                .collect();
        };
        let known = self.loaded.as_ref().is_some_and(|(k, _)| *k == key)
            || self.loading.as_ref().is_some_and(|(_, k)| *k == key);
        if known {
            return Vec::new();
        }
        self.load(text, key)
    }

    /// Starts a load of `text`'s servers, making any load in flight moot.
    fn load(&mut self, text: String, key: String) -> Vec<Cmd> {
        let mut cmds: Vec<Cmd> = self
            .loading
            .take()
            .map(|(ticket, _)| Cmd::Settle {
                ticket,
                settled: Box::new(Ok(None)),
            })
            .into_iter()
            .collect();
        let ticket = self.loads.next();
        self.loading = Some((ticket, key));
        self.status = McpStatus::Loading(servers_named(&text));
        cmds.push(Cmd::Load {
            ticket,
            text,
            secrets: self.secrets.clone(),
            tokens: self.tokens.clone(),
        });
        cmds
    }

    fn loaded(&mut self, ticket: Ticket, answer: LoadAnswer) -> Vec<Cmd> {
        if !self.loads.is_current(ticket) {
            return Vec::new();
        }
        let key = self.loading.take().map(|(_, key)| key).unwrap_or_default();
        let settled = match answer {
            None => {
                self.status = McpStatus::None;
                Ok(None)
            }
            Some(Ok((scenario, reports))) => {
                let tools = scenario
                    .mcp
                    .as_ref()
                    .map(|m| m.tools.clone())
                    .unwrap_or_default();
                self.loaded = Some((key, scenario.clone()));
                self.status = McpStatus::Loaded { reports, tools };
                Ok(Some(scenario))
            }
            Some(Err(lines)) => {
                self.loaded = None;
                self.status = McpStatus::Failed(lines.clone());
                Err(lines)
            }
        };
        vec![Cmd::Settle {
            ticket,
            settled: Box::new(settled),
        }]
    }

    fn note_wire(&mut self, wire: McpWire) {
        let all = &mut self.wire;
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
            Msg::Loaded { ticket, answer } => self.loaded(ticket, *answer),
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
