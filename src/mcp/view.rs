//! "MCP servers", in the scenario section, shown when the scenario names
//! servers: which server answered and how, the tools it gave the run (name,
//! title, description, schema, hints, the approval they decide, checks left
//! to the server), the header values the page holds for it, a Token field
//! for each server that names no `Authorization` header (what `agent-loop
//! mcp bridge` prints), which servers a page can reach at all, and every
//! JSON-RPC exchange with it, request and answer (SSE events as they came).

use harness::mcp::McpTool;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::editor::state::Editor;
use crate::mcp::state::{Exchange, Mcp, McpStatus};
use crate::mcp::text::{held_headers, token_servers};
use crate::ui::field::Field;

/// The panel, a split module: the first paint leaves it out (see `lazy`).
#[cfg_attr(feature = "split", lazy)]
pub async fn mcp_panel(mcp: Mcp, editor: Editor) -> AnyView {
    // Drawn once its stylesheet has loaded: never unstyled.
    crate::browser::stylesheet::load("modes.css").await;
    view! { <McpPanel mcp editor /> }.into_any()
}

/// The panel's id: the Run blocker links to it when a server gave no answer.
pub const MCP_PANEL_ID: &str = "mcp-servers";

#[component]
fn McpPanel(mcp: Mcp, editor: Editor) -> impl IntoView {
    let status = mcp.status();
    let text = editor.text();
    let held = Memo::new(move |_| text.with(|t| held_headers(t)));
    let shown = move || status.with(|s| *s != McpStatus::None) || held.with(|h| !h.is_empty());
    view! {
        <Show when=shown>
            <section id=MCP_PANEL_ID class="mcp-panel" aria-label="MCP servers">
                <h3>"MCP servers"</h3>
                {crate::ui::guide_link::guide_link("mcp.html", "MCP servers")}
                <p class="mcp-trust">
                    "Tool names, descriptions, schemas and hints come from the server; nothing here verifies them."
                </p>
                <Reach />
                {move || status_view(status.get())}
                <HeaderFields mcp held />
                <TokenFields mcp text />
                {move || mcp.moved().get().map(|said| view! { <p class="mcp-moved" role="status">{said}</p> })}
                <button
                    type="button"
                    class="mcp-reload"
                    on:click=move |_| mcp.reload(text.get_untracked())
                >
                    "Load the tools again"
                </button>
                <WireList mcp />
            </section>
        </Show>
    }
}

fn status_view(status: McpStatus) -> AnyView {
    match status {
        McpStatus::None => ().into_any(),
        McpStatus::Loading(servers) => view! {
            <p class="mcp-status" role="status">{format!("Loading tools from {servers}…")}</p>
        }
        .into_any(),
        McpStatus::Failed(lines) => view! {
            <div class="mcp-failed" role="alert">
                <p class="mcp-failed-title">"✗ The MCP servers' tools did not load:"</p>
                <ul>{lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        McpStatus::Loaded { reports, tools } => view! {
            // The status holds the list: a list with the status role is no list to a screen reader.
            <div role="status">
                <ul class="mcp-reports">
                    {reports.into_iter().map(|line| view! { <li>{format!("✓ {line}")}</li> }).collect_view()}
                </ul>
            </div>
            <ul class="mcp-tools" aria-label="Tools from MCP servers">
                {tools.into_iter().map(tool_view).collect_view()}
            </ul>
        }
        .into_any(),
    }
}

fn tool_view(tool: McpTool) -> impl IntoView {
    let approval = if tool.needs_approval {
        "needs approval"
    } else {
        "no approval"
    };
    let hints = hint_words(&tool);
    let schema = serde_json::to_string_pretty(&tool.input_schema).unwrap_or_default();
    let renamed = (tool.name != tool.remote_name).then(|| {
        format!(
            " (the server's {:?}, renamed: another tool has its name)",
            tool.remote_name
        )
    });
    view! {
        <li class="mcp-tool" data-tool=tool.name.clone()>
            <p class="mcp-tool-head">
                <code>{tool.name.clone()}</code>
                {tool.title.clone().map(|title| format!(" · {title}"))}
                {format!(" · from {:?}", tool.server)}
                {renamed}
                <span class="mcp-approval">{format!(" · {approval} ({hints})")}</span>
            </p>
            <p class="mcp-description">
                {if tool.description.is_empty() { "(no description)".to_string() } else { tool.description.clone() }}
            </p>
            {(!tool.left_to_server.is_empty()).then(|| view! {
                <p class="mcp-left">
                    {format!("Checked by the server only, not here: {}", tool.left_to_server.join("; "))}
                </p>
            })}
            <details>
                <summary>"Input schema"</summary>
                <pre class="wire-json">{schema}</pre>
            </details>
        </li>
    }
}

/// The hints that decided approval, in words.
fn hint_words(tool: &McpTool) -> String {
    let hint = |name: &str| tool.annotations.get(name).and_then(|v| v.as_bool());
    let mut words: Vec<String> = [
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ]
    .iter()
    .filter_map(|name| hint(name).map(|v| format!("{name}: {v}")))
    .collect();
    if words.is_empty() {
        words.push("no hints: destructive by the spec's default".into());
    }
    words.join(", ")
}

/// Which servers a page can reach, and how to reach a stdio one.
#[component]
fn Reach() -> impl IntoView {
    view! {
        <div class="mcp-reach">
            <p class="mcp-trust">
                "This page reaches MCP servers over Streamable HTTP that allow its origin (CORS), such as "
                <code>"agent-loop mcp bridge"</code>
                ". It cannot start a server that runs as a command (stdio), and it cannot sign in to a server that needs OAuth (the command line can: agent-loop run and agent-loop mcp)."
            </p>
            <p class="mcp-trust mcp-bridge-hint">
                "A server that runs as a command (stdio): start "
                <code>"agent-loop mcp bridge -- CMD …"</code>
                " and paste the URL it prints into the server's \"url\", and the token it prints into the server's Token field here."
            </p>
        </div>
    }
}

/// A Token field for each server with a url and no `Authorization` header
/// of its own: the token is sent as `Authorization: Bearer …`.
#[component]
fn TokenFields(mcp: Mcp, text: ReadSignal<String>) -> impl IntoView {
    let servers = Memo::new(move |_| text.with(|t| token_servers(t)));
    view! {
        <Show when=move || servers.with(|s| !s.is_empty())>
            <fieldset class="mcp-headers mcp-tokens">
                <legend>"Tokens (in memory only)"</legend>
                {move || {
                    servers
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, server)| {
                            let (shown, set) = (server.clone(), server.clone());
                            secret_field(
                                format!("mcp-token-{i}"),
                                format!("Token for {server:?}"),
                                Some(server),
                                move || mcp.token(&shown).unwrap_or_default(),
                                move |value| mcp.set_token(&set, value),
                            )
                        })
                        .collect_view()
                }}
                <p class="key-warning">
                    "Sent as \"Authorization: Bearer …\" to that server only, for servers that want one (the bridge does). Never saved in this browser, put in a link, a record, an export or a trace; gone when you close the tab."
                </p>
            </fieldset>
        </Show>
    }
}

#[component]
fn HeaderFields(mcp: Mcp, held: Memo<Vec<(String, String)>>) -> impl IntoView {
    view! {
        <Show when=move || held.with(|h| !h.is_empty())>
            <fieldset class="mcp-headers">
                <legend>"Header values (in memory only)"</legend>
                {move || {
                    held.get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, (server, header))| {
                            let label = format!("{header} for {server:?}");
                            let (s, h) = (server.clone(), header.clone());
                            secret_field(
                                format!("mcp-header-{i}"),
                                label,
                                None,
                                move || mcp.secret(&s, &h).unwrap_or_default(),
                                move |value| mcp.set_secret(&server, &header, value),
                            )
                        })
                        .collect_view()
                }}
                <p class="key-warning">
                    "Sent to that server only. Never saved in this browser, put in a link, a record, an export or a trace; gone when you close the tab."
                </p>
            </fieldset>
        </Show>
    }
}

/// One secret's field, a token or a header value: typed in hidden, never
/// offered to the browser's autofill or spell checker, kept by `set` when
/// it changes. `server` marks a token's field with the server it goes to.
fn secret_field(
    id: String,
    label: String,
    server: Option<String>,
    value: impl Fn() -> String + Send + Sync + 'static,
    set: impl Fn(String) + Send + 'static,
) -> impl IntoView {
    view! {
        <Field id label=move || label>
            <input
                type="password"
                autocomplete="off"
                spellcheck="false"
                data-server=server
                prop:value=value
                on:change=move |ev| set(event_target_value(&ev))
            />
        </Field>
    }
}

#[component]
fn WireList(mcp: Mcp) -> impl IntoView {
    let wire = mcp.wire();
    view! {
        <details class="mcp-wire">
            <summary>{move || format!("JSON-RPC on the wire ({} exchanges)", wire.with(Vec::len))}</summary>
            <ol>
                {move || wire.get().into_iter().map(exchange_view).collect_view()}
            </ol>
        </details>
    }
}

pub fn exchange_view(exchange: Exchange) -> impl IntoView {
    let answer = match (&exchange.no_answer, exchange.status) {
        (Some(why), _) => format!("← no answer: {why}"),
        (None, Some(status)) => format!(
            "← HTTP {status}{}",
            if exchange.content_type.is_empty() {
                String::new()
            } else {
                format!(" · {}", exchange.content_type)
            }
        ),
        (None, None) => "← waiting…".to_string(),
    };
    let headers = exchange
        .headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}"))
        .collect::<Vec<_>>()
        .join("\n");
    // The client sends POSTs, except the GET that resumes an SSE stream,
    // whose `method` the transport writes as "GET (resume …)".
    let head = match exchange.method.strip_prefix("GET") {
        Some(resume) => format!("→ GET {}{resume}", exchange.url),
        None => format!("→ POST {} · {}", exchange.url, exchange.method),
    };
    view! {
        <li class="mcp-exchange" data-method=exchange.method.clone()>
            <p class="mcp-exchange-head">{head}</p>
            <pre class="wire-json mcp-request-headers">{headers}</pre>
            <pre class="wire-json mcp-request">{exchange.request}</pre>
            <p class="mcp-exchange-head">{answer}</p>
            <pre class="wire-json mcp-response">{exchange.response}</pre>
        </li>
    }
}
