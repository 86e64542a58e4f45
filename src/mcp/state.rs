//! The scenario's MCP servers in the page: the adapter of their plain model
//! (`mcp::model`: where loading their tools stands, the JSON-RPC exchanges
//! on the wire, the header values and tokens, and which load's answer
//! counts). It sends the model what the editor, the panel and a run do,
//! performs its commands (reach the servers through the engine, tell a
//! waiting run how its load settled), and shows the model in the signals the
//! components read.
//!
//! Header values are secrets, held like the API key: in memory only (see
//! `mcp::model`). A value written into the scenario text is moved out as the
//! text arrives (typed, pasted, picked, from a link or a saved draft); a
//! token typed into a server's Token field (what `agent-loop mcp bridge`
//! prints) is held the same way, and sent as `Authorization: Bearer …`.
//!
//! A run takes the loaded tools when the servers are the ones loaded; else
//! it loads them first and waits for that load to settle (`ready`).

use std::rc::Rc;

use futures::channel::oneshot;
use harness::scenario::Scenario;
use leptos::prelude::*;

use crate::browser::mcp_fetch::McpWire;
use crate::browser::runner;
use crate::lazy;
use crate::mcp::model::{Cmd, McpModel, Msg, Ready, Settled, CHANGED_WHILE_LOADING};
pub use crate::mcp::model::{Exchange, McpStatus};
use crate::update::Update as _;

/// A run waiting for a load to settle: the load's number and where to say.
type Waiter = (u64, oneshot::Sender<Settled>);

#[derive(Clone, Copy)]
pub struct Mcp {
    /// The servers' state as plain data; changed only by `send` (and
    /// `take_secrets`).
    model: StoredValue<McpModel>,
    // What the model holds, as the components read it (kept by `show`).
    status: RwSignal<McpStatus>,
    wire: RwSignal<Vec<Exchange>>,
    moved: RwSignal<Option<String>>,
    /// Changes whenever a header value or a token is held or forgotten, so
    /// the fields that show one read it again.
    held: RwSignal<u64>,
    /// Runs waiting for a load (see `ready`).
    waiting: StoredValue<Vec<Waiter>, LocalStorage>,
}

impl Default for Mcp {
    fn default() -> Self {
        Self::new()
    }
}

impl Mcp {
    pub fn new() -> Self {
        Mcp {
            model: StoredValue::new(McpModel::default()),
            status: RwSignal::new(McpStatus::None),
            wire: RwSignal::new(Vec::new()),
            moved: RwSignal::new(None),
            held: RwSignal::new(0),
            waiting: StoredValue::new_local(Vec::new()),
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
        self.held.track();
        self.model.with_value(|m| m.secret(server, header))
    }

    /// Holds `value` for `server`'s `header` (an empty value forgets it).
    pub fn set_secret(self, server: &str, header: &str, value: String) {
        self.send(Msg::SetSecret {
            server: server.into(),
            header: header.into(),
            value,
        });
        self.held.update(|n| *n += 1);
    }

    /// The token held for `server`, if one is (tracked).
    pub fn token(&self, server: &str) -> Option<String> {
        self.held.track();
        self.model.with_value(|m| m.token(server))
    }

    /// Holds `token` for `server` (an empty one forgets it).
    pub fn set_token(self, server: &str, token: String) {
        self.send(Msg::SetToken {
            server: server.into(),
            token,
        });
        self.held.update(|n| *n += 1);
    }

    /// `text` with every header value moved out into memory (see
    /// `McpModel::take_secrets`); said in `moved` when there was one.
    pub fn take_secrets(self, text: String) -> String {
        // The model lives as long as the page, as do the editor that asks.
        let clean = self
            .model
            .try_update_value(|m| m.take_secrets(text))
            .unwrap_or_default();
        self.show();
        self.held.update(|n| *n += 1);
        clean
    }

    /// Loads the servers of the scenario in `text` whenever they (or the
    /// header values) change; the status says where that stands.
    pub fn watch(self, text: ReadSignal<String>) {
        Effect::new(move |_| self.send(Msg::Text(text.get())));
    }

    /// Loads the servers again, as if they had changed.
    pub fn reload(self, text: String) {
        self.send(Msg::Reload(text));
    }

    /// `scenario` (loaded from `text`) ready to run: with its servers' tools,
    /// the loaded ones when its servers are the loaded servers, else loaded
    /// now; or the lines that say why not.
    pub async fn ready(self, text: &str, scenario: Scenario) -> Result<Scenario, Vec<String>> {
        let mcp = match self.model.with_value(|m| m.ready(text, &scenario)) {
            Ready::AsIs => return Ok(scenario),
            Ready::Loaded(mcp) => mcp,
            Ready::Load => {
                self.send(Msg::Reload(text.to_string()));
                let (tx, rx) = oneshot::channel();
                if let Some(load) = self.model.with_value(McpModel::loading) {
                    self.waiting.update_value(|w| w.push((load, tx)));
                }
                // A dropped sender (no load started, or the page going away)
                // says the same as a load made moot.
                rx.await
                    .unwrap_or_else(|_| Err(vec![CHANGED_WHILE_LOADING.to_string()]))?
            }
        };
        Ok(scenario.with_mcp(mcp))
    }

    /// The one way the servers' state changes: the model takes `msg`, the
    /// page shows the model, and the commands it answered with are performed.
    fn send(self, msg: Msg) {
        let Some(cmds) = self.model.try_update_value(|m| m.update(msg)) else {
            return; // The page is gone.
        };
        self.show();
        for cmd in cmds {
            self.perform(cmd);
        }
    }

    fn perform(self, cmd: Cmd) {
        match cmd {
            Cmd::Load {
                load,
                text,
                secrets,
                tokens,
            } => {
                let on_wire = Rc::new(move |wire: McpWire| self.send(Msg::Wire(wire)));
                runner::answer(
                    lazy::load_mcp(text, secrets, tokens, on_wire),
                    move |answer| {
                        self.send(Msg::Loaded {
                            load,
                            answer: Box::new(answer),
                        })
                    },
                );
            }
            Cmd::Settle { load, settled } => {
                let waiter = self.waiting.try_update_value(|w| {
                    let at = w.iter().position(|(n, _)| *n == load)?;
                    Some(w.swap_remove(at).1)
                });
                if let Some(tx) = waiter.flatten() {
                    // A dropped receiver means the run has gone; nothing to tell it.
                    let _ = tx.send(settled);
                }
            }
        }
    }

    /// Shows the model in the signals the components read, each set only
    /// when what it shows changed.
    fn show(self) {
        self.model.with_value(|m| {
            if self.status.with_untracked(|s| s != m.status()) {
                self.status.set(m.status().clone());
            }
            if self.wire.with_untracked(|w| w != m.wire()) {
                self.wire.set(m.wire().to_vec());
            }
            if self.moved.with_untracked(|s| s.as_ref() != m.moved()) {
                self.moved.set(m.moved().cloned());
            }
        });
    }
}
