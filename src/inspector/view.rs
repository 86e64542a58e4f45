//! The inspector, beside the trace: one turn of the run as the wire carries
//! it. Its views: the request body (with the checker's verdict for the
//! format shown, each verdict able to mark the block it is about, Copy as
//! JSON and as `curl`), the response (whole, and as SSE events), the two
//! side by side, and the conversation with its id links. Tabs switch between the three formats,
//! starting on the one the run's model spoke.
//!
//! Opened from a "Request to the model" card or a verdict on a turn card
//! (`inspector::state`). Render-only: what it shows is `wire_view`'s.
//! A split module of its own: it carries the request builders, encoders
//! and checker, which the first paint does not.

pub mod conversation_view;
pub mod protocol_verdict;

use harness::event::{EventKind, RunEvent};
use harness::wire::{Provider, RequestShape};
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;

use crate::browser::page;
use crate::inspector::marked_json::{is_within, mark_of, mark_of_tool};
use crate::inspector::model::InspectorMsg;
use crate::inspector::state::{InspectorState, InspectorView, Pointed};
use crate::inspector::view::conversation_view::ConversationView;
use crate::inspector::wire_view::{self, AnswerWire, ProviderWire, RunFormat, TurnWire};
use crate::lazy;
use crate::mcp::state::Exchange;
use crate::mcp::view::exchange_view;

#[cfg_attr(feature = "split", lazy)]
pub async fn inspector_panel(
    inspector: InspectorState,
    run_id: ReadSignal<u64>,
    events: ReadSignal<Vec<RunEvent>>,
    shape: ReadSignal<RequestShape>,
    running: ReadSignal<bool>,
    mcp_wire: ReadSignal<Vec<Exchange>>,
) -> AnyView {
    view! { <InspectorPanel inspector run_id events shape running mcp_wire /> }.into_any()
}

#[component]
fn InspectorPanel(
    inspector: InspectorState,
    run_id: ReadSignal<u64>,
    events: ReadSignal<Vec<RunEvent>>,
    shape: ReadSignal<RequestShape>,
    running: ReadSignal<bool>,
    mcp_wire: ReadSignal<Vec<Exchange>>,
) -> impl IntoView {
    let open = inspector.open();
    // What is marked was asked about the run in view then: another run's
    // request may have nothing at that place.
    Effect::new(move |_| inspector.send(InspectorMsg::RunInView(run_id.get())));
    // Its stylesheet (inspector.css: the side-by-side columns, the room it
    // takes from the loop) is linked when it first opens, not with the
    // module: that is fetched while the page is idle, and a fetch nobody
    // needed yet would only be cut by a reload.
    Effect::new(move |_| {
        if open.get() {
            crate::browser::runner::start(crate::browser::stylesheet::load("inspector.css"));
        }
    });
    let has_mcp = move || mcp_wire.with(|w| w.iter().any(|e| e.method.starts_with("tools/call ")));
    // The turns that sent a request; read only while open, so a long run
    // streams at full speed with the inspector closed.
    let turns = Memo::new(move |_| {
        if open.get() {
            events.with(|e| wire_view::request_turns(e))
        } else {
            Vec::new()
        }
    });
    let turn = Memo::new(move |_| {
        let selected = inspector.turn().get();
        open.get()
            .then(|| turns.with(|t| selected.filter(|s| t.contains(s)).or(t.last().copied())))
            .flatten()
    });
    // Built again only when the turn's own events change (its answer
    // arrives), not on every event of a run that streams on.
    let key = Memo::new(move |_| {
        let turn = turn.get()?;
        Some((
            turn,
            events.with(|e| wire_view::events_of_turn(e, turn)),
            shape.get(),
        ))
    });
    let wire = LocalResource::new(move || {
        let input = key
            .get()
            .map(|(turn, _, shape)| (events.get_untracked(), shape, turn));
        async move {
            match input {
                Some((events, shape, turn)) => lazy::turn_wire(events, shape, turn).await,
                None => None,
            }
        }
    });
    let shown = move || wire.get().flatten();
    // The tab: the person's pick, else the run's own format.
    let provider = Memo::new(move |_| {
        inspector.provider().get().unwrap_or_else(|| {
            shown()
                .and_then(|w| w.format.provider)
                .unwrap_or(Provider::Anthropic)
        })
    });
    let step = move |by: i64| {
        let (Some(now), list) = (turn.get_untracked(), turns.get_untracked()) else {
            return;
        };
        let at = list.iter().position(|t| *t == now).unwrap_or(0) as i64 + by;
        if let Some(next) = usize::try_from(at).ok().and_then(|i| list.get(i)) {
            inspector.send(InspectorMsg::SteppedTo(*next));
        }
    };
    let first = move || turns.with(|t| t.first().copied()) == turn.get();
    let last = move || turns.with(|t| t.last().copied()) == turn.get();
    // Whether any request was made: found at the run's first request, so
    // a long run's every frame does not read its whole log again.
    let has_turns = move || {
        events.with(|e| {
            e.iter()
                .any(|event| matches!(event.kind, EventKind::ModelRequest { .. }))
        })
    };

    view! {
        <section class="panel inspector" aria-labelledby="inspector-heading"
            data-open=move || open.get().then_some("")>
            <div class="inspector-heading">
                <h2 id="inspector-heading">
                    "Inspector"
                    {move || turn.get().map(|t| format!(" · turn {t}"))}
                </h2>
                <Show
                    when=move || open.get()
                    fallback=move || view! {
                        <button type="button" class="inspector-open"
                            prop:disabled=move || !has_turns()
                            on:click=move |_| inspector.send(InspectorMsg::OpenedLatest)>
                            "Open at the latest turn"
                        </button>
                    }
                >
                    <div class="inspector-nav">
                        <button type="button" prop:disabled=first on:click=move |_| step(-1)>"‹ Turn before"</button>
                        <button type="button" prop:disabled=last on:click=move |_| step(1)>"Turn after ›"</button>
                        <button type="button" class="inspector-close" on:click=move |_| inspector.close()>"Close"</button>
                    </div>
                </Show>
            </div>
            <Show
                when=move || open.get()
                fallback=|| view! {
                    <p class="empty">
                        "Open it from any “Request to the model” card to see that turn's request and response as each provider sends them, the protocol checker's verdict, and the conversation with its id links."
                    </p>
                }
            >
                <Show
                    when=move || turn.get().is_some()
                    fallback=|| view! { <p class="empty">"No model request yet: run a scenario."</p> }
                >
                    <p class="inspector-format">{move || shown().map(|w| format_note(&w.format))}</p>
                    {move || context_note(events.with(|e| wire_view::context_edits_up_to(e, turn.get().unwrap_or(0))))}
                    <div class="inspector-views" role="tablist" aria-label="What to show">
                        {InspectorView::ALL.map(|v| view! {
                            // The MCP tab only for a page that has spoken MCP.
                            <Show when=move || v != InspectorView::Mcp || has_mcp()>
                                <button type="button" role="tab" class="inspector-tab"
                                    data-view=v.as_str()
                                    title=(v == InspectorView::Both).then_some("The request and its response in two columns")
                                    aria-selected=move || (inspector.view().get() == v).to_string()
                                    on:click=move |_| inspector.send(InspectorMsg::ViewPicked(v))>
                                    {v.label()}
                                </button>
                            </Show>
                        })}
                    </div>
                    <Show when=move || !matches!(inspector.view().get(), InspectorView::Conversation | InspectorView::Mcp)>
                        <div class="wire-tabs" role="tablist" aria-label="Wire format">
                            {Provider::ALL.map(|p| view! {
                                <button type="button" role="tab" class="wire-tab"
                                    data-provider=p.label()
                                    aria-selected=move || (provider.get() == p).to_string()
                                    on:click=move |_| inspector.send(InspectorMsg::FormatPicked(p))>
                                    {p.label()}
                                    {move || (shown().and_then(|w| w.format.provider) == Some(p)).then_some(" (in use)")}
                                </button>
                            })}
                        </div>
                    </Show>
                    <div class="inspector-body" role="tabpanel"
                        aria-label=move || inspector.view().get().label()>
                        {move || match (inspector.view().get(), turn.get()) {
                            (InspectorView::Mcp, Some(t)) => Some(mcp_view(
                                events.with(|e| calls_of_turn(e, t)),
                                mcp_wire.get(),
                            )),
                            _ => shown().map(|w| body_view(w, inspector, provider.get(), running)),
                        }}
                    </div>
                </Show>
            </Show>
        </section>
    }
}

/// The Context gate's edits this request carries: the body below is the
/// history as sent after them, not as the run first had it.
fn context_note(edits: Vec<String>) -> Option<AnyView> {
    if edits.is_empty() {
        return None;
    }
    let items = edits
        .into_iter()
        .map(|edit| view! { <li>{edit}</li> })
        .collect_view();
    Some(
        view! {
            <div class="inspector-context" role="note">
                <p>
                    "✂ This request was sent after the Context gate edited the history: a cleared result reads "
                    <code>{harness::context::CLEARED_PLACEHOLDER}</code>
                    ", dropped turns are gone, and a summary stands in for compacted ones."
                </p>
                <ul>{items}</ul>
            </div>
        }
        .into_any(),
    )
}

/// What the bodies are, in a line: the run's own format, or none.
fn format_note(format: &RunFormat) -> String {
    match format.provider {
        Some(p) if format.streamed => format!(
            "This run spoke {} to {}, streamed: the response view shows its SSE events.",
            p.label(),
            format.model
        ),
        Some(p) => format!("This run spoke {} to {}.", p.label(), format.model),
        None => format!(
            "This run used {}, which speaks no wire format: these are the bodies each provider would send and receive.",
            crate::inspector::wire_view::model_in_words(&format.model)
        ),
    }
}

/// The tool calls of `turn`: name and arguments, in order.
fn calls_of_turn(events: &[RunEvent], turn: u32) -> Vec<(String, serde_json::Value)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            harness::event::EventKind::ToolCall {
                turn: t,
                name,
                args,
                ..
            } if *t == turn => Some((name.clone(), args.clone())),
            _ => None,
        })
        .collect()
}

/// Each MCP call of the turn with the JSON-RPC exchange that carried it:
/// the `tools/call` for the same tool (the server's name, or the
/// `server__name` the run used) with the same arguments, oldest first.
fn mcp_view(calls: Vec<(String, serde_json::Value)>, wire: Vec<Exchange>) -> AnyView {
    let mut used = vec![false; wire.len()];
    let mut rows = Vec::new();
    for (name, args) in calls {
        let found = wire.iter().enumerate().position(|(i, exchange)| {
            if used[i] {
                return false;
            }
            let Ok(request) = serde_json::from_str::<serde_json::Value>(&exchange.request) else {
                return false;
            };
            let remote = request
                .pointer("/params/name")
                .and_then(|n| n.as_str())
                .unwrap_or_default();
            request.get("method").and_then(|m| m.as_str()) == Some("tools/call")
                && (name == remote || name.ends_with(&format!("__{remote}")))
                && request
                    .pointer("/params/arguments")
                    .unwrap_or(&serde_json::Value::Null)
                    == &args
        });
        match found {
            Some(i) => {
                used[i] = true;
                rows.push(view! {
                    <li class="mcp-call" data-tool=name.clone()>
                        <h3>{format!("{name}: tools/call on the wire")}</h3>
                        <ol>{exchange_view(wire[i].clone())}</ol>
                    </li>
                }.into_any());
            }
            None => rows.push(view! {
                <li class="mcp-call" data-tool=name.clone()>
                    <p class="empty">{format!(
                        "{name}: no JSON-RPC exchange for this call in this page (not an MCP tool, or a run that was opened, imported or replayed, whose calls were answered from its record)"
                    )}</p>
                </li>
            }.into_any()),
        }
    }
    if rows.is_empty() {
        return view! { <p class="empty">"This turn called no tool."</p> }.into_any();
    }
    view! { <ul class="mcp-calls">{rows}</ul> }.into_any()
}

fn body_view(
    wire: TurnWire,
    inspector: InspectorState,
    provider: Provider,
    running: ReadSignal<bool>,
) -> AnyView {
    match inspector.view().get() {
        InspectorView::Conversation => view! {
            <ConversationView
                conversation=wire.conversation
                earlier_messages=wire.earlier_messages
                turn=wire.turn
            />
        }
        .into_any(),
        view => {
            let Some(shown) = wire.providers.into_iter().find(|p| p.provider == provider) else {
                return ().into_any();
            };
            match view {
                InspectorView::Request => request_view(shown, inspector).into_any(),
                InspectorView::Both => {
                    let mut shown = shown;
                    let answers = std::mem::take(&mut shown.answers);
                    view! {
                        <div class="wire-pair">
                            <section class="wire-side" data-side="request" aria-label="Request">
                                {request_view(shown, inspector)}
                            </section>
                            <section class="wire-side" data-side="response" aria-label="Response">
                                {response_view(answers, wire.format.streamed, running)}
                            </section>
                        </div>
                    }
                    .into_any()
                }
                _ => response_view(shown.answers, wire.format.streamed, running).into_any(),
            }
        }
    }
}

fn request_view(wire: ProviderWire, inspector: InspectorState) -> impl IntoView {
    let provider = wire.provider;
    let label = wire.label;
    let notice = RwSignal::new(None::<&'static str>);
    let copy = move |text: String, what: &'static str| {
        crate::browser::runner::start(async move {
            notice.set(Some(match page::copy_text(&text).await {
                Ok(()) => what,
                Err(()) => "This browser would not copy: select the text and copy it.",
            }));
        });
    };
    let (json, curl) = (wire.request_json.clone(), wire.curl.clone());
    // Read once, for a tool block pointed at by its id.
    let body = std::sync::Arc::new(serde_json::from_str::<serde_json::Value>(&json).ok());
    let target = Memo::new(move |_| match inspector.pointed().get()? {
        Pointed::Path { provider: p, path } if p == provider => mark_of(&path),
        Pointed::Path { .. } => None,
        Pointed::Tool { id, block } => mark_of_tool(body.as_ref().as_ref()?, &id, block),
    });
    let verdict = if wire.violations.is_empty() {
        view! {
            <p class="inspector-verdict" data-verdict="accepted">
                {format!("✓ {label} would accept this request: the checker finds nothing it refuses.")}
            </p>
        }
        .into_any()
    } else {
        let lines = wire
            .violations
            .iter()
            .map(|v| {
                let path = v.path.clone();
                let markable = v.mark.is_some();
                let is_pointed = {
                    let path = path.clone();
                    move || {
                        inspector.pointed().with(|p| {
                            matches!(p, Some(Pointed::Path { provider: p, path: at }) if *p == provider && *at == path)
                        })
                    }
                };
                view! {
                    <li data-path=v.path.clone() data-pointed=move || is_pointed().then_some("")>
                        <code class="wire-error">{format!("HTTP 400 {}", v.message)}</code>
                        <p class="wire-explanation">{v.explanation.clone()}</p>
                        <p class="wire-place">{format!("Where, in this {label} body: {} ({}).", v.place, v.path)}</p>
                        {markable.then(|| view! {
                            <button type="button" class="mark-block"
                                on:click=move |_| {
                                    inspector.send(InspectorMsg::Marked { provider, path: path.clone() });
                                    bring_marked_into_view();
                                }>
                                {format!("Mark it in the body ({})", v.path)}
                            </button>
                        })}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="inspector-verdict" data-verdict="rejected">
                <p>{if wire.violations.iter().all(|v| !v.documented) {
                    format!("✗ {label} is reported to refuse this request (HTTP 400; known from public issue threads, not documented):")
                } else {
                    format!("✗ {label} would refuse this request (HTTP 400):")
                }}</p>
                <ul>{lines}</ul>
            </div>
        }
        .into_any()
    };
    // A verdict, or a call's or result's card, opened the inspector on its
    // block: show it.
    if target.with_untracked(Option::is_some) {
        bring_marked_into_view();
    }
    let segments = wire
        .request
        .into_iter()
        .map(|segment| {
            let mark = segment.mark.clone();
            let hit = move || {
                target
                    .get()
                    .is_some_and(|t| is_within(mark.as_deref(), &t))
                    .then_some("")
            };
            view! { <span class="seg" data-mark=segment.mark data-hit=hit>{segment.text}</span> }
        })
        .collect_view();
    view! {
        {verdict}
        <div class="inspector-actions">
            <button type="button" on:click=move |_| copy(json.clone(), "Request body copied to the clipboard.")>
                "Copy JSON"
            </button>
            <button type="button" on:click=move |_| copy(curl.clone(), "curl command copied; it reads the key from your environment.")>
                "Copy as curl"
            </button>
            <span class="notice" aria-live="polite">{move || notice.get()}</span>
        </div>
        // A tool block asked for from its card is marked as found, not as
        // a fault: only a verdict's place is drawn as one.
        <pre class="wire-json" aria-label=format!("Request body, {label}") tabindex="0"
            data-pointing=move || inspector.pointed().with(|p| matches!(p, Some(Pointed::Tool { .. })).then_some("tool"))>{segments}</pre>
    }
}

/// Scrolls the first marked segment to the middle of the body, once drawn.
fn bring_marked_into_view() {
    page::bring_into_view(
        || {
            web_sys::window()?
                .document()?
                .query_selector(".inspector .seg[data-hit]")
                .ok()
                .flatten()
        },
        web_sys::ScrollLogicalPosition::Center,
    );
}

fn response_view(
    answers: Vec<AnswerWire>,
    streamed: bool,
    running: ReadSignal<bool>,
) -> impl IntoView {
    let note = "Rebuilt from the trace by the encoders `agent-loop serve` answers with: the ids and `created` are made up, and the bytes a provider sent are not kept.";
    if answers.is_empty() {
        let waiting = if running.get_untracked() {
            "No answer yet: the model has not replied to this request."
        } else {
            "No answer: the run ended before the model replied."
        };
        return view! { <p class="empty">{waiting}</p> }.into_any();
    }
    let answers = answers
        .into_iter()
        .map(|answer| {
            let count = answer.events.len();
            let events = (count > 0).then(|| {
                let summary = if streamed {
                    format!("As streamed: the {count} SSE events this response arrives as, in order")
                } else {
                    format!("As it would stream: {count} SSE events")
                };
                view! {
                    <details class="sse" prop:open=streamed>
                        <summary>{summary}</summary>
                        <pre class="wire-json sse-events" tabindex="0">{answer.events.concat()}</pre>
                    </details>
                }
            });
            view! {
                <section class="answer">
                    <h3>{answer.title}</h3>
                    <pre class="wire-json" tabindex="0">{answer.body}</pre>
                    {events}
                </section>
            }
        })
        .collect_view();
    view! {
        <p class="inspector-note">{note}</p>
        {answers}
    }
    .into_any()
}
