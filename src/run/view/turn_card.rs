//! What a timeline card shows: for a model turn, its header (the turn, its
//! tokens, cost and latency) and one row per event (the request, the
//! assistant's text, each tool call with its arguments and validation, the
//! approval bar while the call waits, the decision, and the tool_result
//! under its call); for the run's start or end, its row. `run::view::timeline`
//! decides which cards are drawn and holds them; this draws one.

use harness::event::{EventKind, RunEvent, StopTone};
use harness::message::Media;
use harness::numbers::thousands;
use harness::wire::rejections::{sentence, why};
use leptos::prelude::*;

use crate::browser::page;
use crate::inspector::state::{InspectorState, ToolBlock};
use crate::inspector::wire_view;
use crate::protocol_check::state::ProtocolWatch;
use crate::run::controller::{Card, Controller};
use crate::run::turn_view::{self, ContextGauge, EventType, Item};
use crate::run::view::approval_bar::{approval_bar, Approvals};
use crate::run::view_model;

/// The inside of `card`'s list item.
pub fn card_contents(card: Card) -> AnyView {
    let events = card.events;
    match card.turn {
        None => view! { <CardEvents events=events /> }.into_any(),
        Some(turn) => {
            let stats_events = events.clone();
            let stats = move || stats_events.with(|e| turn_view::turn_stats(e));
            // A turn with no answer is waiting only while the run goes on;
            // after Stop, a deadline or an error, no answer ever came.
            let running = expect_context::<Controller>().running();
            let no_answer = move || {
                if running.get() {
                    "waiting for the model…"
                } else {
                    "no answer: the run ended first"
                }
            };
            view! {
                <header class="turn-header">
                    <h3>{format!("Turn {turn}")}</h3>
                    <span class="turn-stats">{move || stats().unwrap_or_else(|| no_answer().to_string())}</span>
                </header>
                <TurnVerdict turn=turn />
                <CardEvents events=events />
            }
            .into_any()
        }
    }
}

/// A card's rows, keyed by `seq`: a new event adds one row. A row is told
/// against the card's rows before it (a result against its call), which are
/// all there when it is drawn, since events only ever append.
#[component]
fn CardEvents(events: ArcRwSignal<Vec<RunEvent>>) -> impl IntoView {
    let card = events.clone();
    view! {
        <ol class="card-events">
            <For
                each=move || events.get()
                key=|event| event.seq
                children=move |event: RunEvent| {
                    let time = format!("+{}", view_model::format_ms(event.t_ms));
                    let item = card.with_untracked(|all| {
                        let earlier = all.iter().position(|e| e.seq == event.seq).unwrap_or(all.len());
                        turn_view::card_item_in(&event, &all[..earlier])
                    });
                    // The first try's request opens the inspector on its turn.
                    let inspect = match event.kind {
                        EventKind::ModelRequest { turn, attempt: 1, .. } => Some(turn),
                        _ => None,
                    };
                    item.map(|item| view! { <ItemView item=item time=time inspect=inspect /> })
                }
            />
        </ol>
    }
}

/// What the protocol checker says of this turn's request, live: each
/// provider that would refuse it, with its HTTP 400 text, what is wrong and
/// where, and a way to see the block in the inspector. Nothing while every
/// provider would accept it.
#[component]
fn TurnVerdict(turn: u32) -> impl IntoView {
    let watch = expect_context::<ProtocolWatch>();
    let inspector = expect_context::<InspectorState>();
    let tone = StopTone::Failure;
    move || {
        let found = watch.at_turn(turn);
        (!found.is_empty()).then(|| {
            let lines = found
                .into_iter()
                .map(|r| {
                    let provider = r.violation.provider;
                    let path = r.violation.path.clone();
                    // The card counts in the run's history, as its own rows
                    // do; the inspector counts in each provider's body.
                    let place = r.place.as_ref().map(|p| format!("Where, in the run's history: {p}."));
                    view! {
                        <li data-provider=provider.label() data-documented=r.violation.rule.documented().to_string()>
                            <span class="verdict-sentence">{sentence(&r)}</span>
                            {place.map(|p| view! { <span class="verdict-place">{p}</span> })}
                            <span class="verdict-why">{why(&r)}</span>
                            <button type="button" class="verdict-show"
                                on:click=move |_| {
                                    inspector.point_at(turn, provider, path.clone());
                                    bring_inspector_into_view();
                                }>
                                {format!("Show it in the {} request", provider.label())}
                            </button>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class=format!("turn-verdict tone-{}", tone.as_str()) data-tone=tone.as_str() role="note">
                    <p>
                        <span class="tone-icon" aria-hidden="true">{tone.icon()}</span>
                        {format!(" A real provider would refuse turn {turn}'s request:")}
                    </p>
                    <ul>{lines}</ul>
                </div>
            }
        })
    }
}

/// On a narrow screen the inspector is below the trace: bring it up.
fn bring_inspector_into_view() {
    page::bring_into_view(
        || {
            web_sys::window()?
                .document()?
                .query_selector(".inspector")
                .ok()
                .flatten()
        },
        web_sys::ScrollLogicalPosition::Nearest,
    );
}

#[component]
fn ItemView(item: Item, time: String, inspect: Option<u32>) -> impl IntoView {
    let class = format!(
        "event {}{}",
        item.tone.class(),
        if item.nested { " nested" } else { "" }
    );
    let body = item
        .body
        .map(|body| body_view(item.kind, body, item.collapsible));
    let media = (!item.media.is_empty()).then(|| media_view(item.media));
    let gauge = item.context_gauge.map(|gauge| {
        let events = expect_context::<Controller>().events();
        context_gauge_view(events.with_untracked(|e| gauge.in_run(e)))
    });
    let state = item.state.map(|state| {
        view! {
            <details class="tool-state">
                <summary>"Store after this call"</summary>
                <pre class="event-pre" tabindex="0">{state}</pre>
            </details>
        }
    });
    // The approval bar goes right under the request for the call it is about.
    // Each request has its own row: only the waiting call's row holds it.
    let bar = item.call_id.map(|call_id| {
        let approvals = expect_context::<Approvals>();
        move || {
            approvals
                .pending()
                .get()
                .filter(|p| p.call_id == call_id)
                .map(|pending| Suspend::new(approval_bar(pending, approvals)))
        }
    });
    let inspect = inspect.map(|turn| {
        let inspector = expect_context::<InspectorState>();
        view! {
            // The name is the visible text (WCAG 2.5.3), which says
            // which turn, as the cards are many.
            <button type="button" class="inspect"
                on:click=move |_| {
                    inspector.open_at(turn);
                    bring_inspector_into_view();
                }>
                {format!("Inspect turn {turn}'s request and response")}
            </button>
        }
    });
    // A turn's request is a step the run can go on from, edited.
    let fork_here = inspect
        .is_some()
        .then(|| crate::compare::view::fork_here(item.seq));
    let call_ids = (!item.ids.is_empty()).then(|| item.ids.join(" "));
    let on_wire = on_wire_view(item.kind, item.seq, item.ids.first().cloned());
    let ids = ids_view(item.kind, item.ids, item.answers_no_call);
    // Calls asked for at once read as one group: a double rule down their
    // rows, and each call and result says which of the group it is.
    let parallel = item.parallel.map(|(k, n)| format!("{k}/{n}"));
    let parallel_tag = item.parallel.map(|(k, n)| {
        let what = if item.kind == EventType::ToolCall {
            "call"
        } else {
            "for call"
        };
        view! { <p class="parallel-tag">{format!("{what} {k} of {n} asked at once")}</p> }
    });
    view! {
        <li class=class data-kind=item.kind.as_str() data-seq=item.seq data-fate=item.fate.map(view_model::fate_word) data-why=item.fate.map(|f| f.as_str())
            data-by-person=item.by_person.then_some("true")
            data-call-ids=call_ids data-parallel=parallel>
            <span class="event-time">{time}</span>
            <div class="event-body">
                <p class="event-title">{item.title}</p>
                {parallel_tag}
                {ids}
                {inspect}
                {fork_here}
                {on_wire}
                // The text or arguments first, then what is known about them.
                {body}
                {media}
                {item
                    .lines
                    .into_iter()
                    .map(|line| view! { <p class="event-line">{line}</p> })
                    .collect_view()}
                {gauge}
                {state}
            </div>
            // Beside the time column, not under it: in a narrow column the
            // bar needs the row's whole width for its buttons.
            {bar}
        </li>
    }
}

/// A call's or result's way into the detail pane: the inspector,
/// on the request that carried it to the model, with its block marked in
/// the format shown. Offered once that request is sent; a run that ended
/// first never sent it, and then there is nothing to show.
fn on_wire_view(kind: EventType, seq: u64, id: Option<String>) -> Option<impl IntoView> {
    let block = match kind {
        EventType::ToolCall => ToolBlock::Call,
        EventType::ToolResult => ToolBlock::Result,
        _ => return None,
    };
    let id = id?;
    let events = expect_context::<Controller>().events();
    let inspector = expect_context::<InspectorState>();
    let carried_in = Memo::new(move |_| events.with(|e| wire_view::first_request_after(e, seq)));
    let what = if block == ToolBlock::Call {
        "call"
    } else {
        "result"
    };
    Some(move || {
        carried_in.get().map(|turn| {
            let id = id.clone();
            view! {
                <button type="button" class="on-wire"
                    on:click=move |_| {
                        inspector.point_at_tool(turn, id.clone(), block);
                        bring_inspector_into_view();
                    }>
                    {format!("See this {what} in turn {turn}'s request")}
                </button>
            }
        })
    })
}

/// The `tool_use` ids a row carries, each a control: pointing at or
/// focusing one marks every row with that id (a call, its result, the
/// response that asked for it), so the pairing is seen; a duplicated id marks
/// every call and result that share it. A result whose id no call of its
/// turn has says so beside the id: it is marked alone, as nothing pairs it.
fn ids_view(kind: EventType, ids: Vec<String>, answers_no_call: bool) -> Option<AnyView> {
    if ids.is_empty() {
        return None;
    }
    // As each provider's JSON names it.
    let field = match kind {
        EventType::ToolResult => "tool_use_id",
        EventType::ModelResponse => "tool_use ids",
        _ => "id",
    };
    let chips = ids
        .into_iter()
        .map(|id| {
            let label = if answers_no_call {
                format!("{field} {id}: answers no call")
            } else {
                format!("{field} {id}: mark its call and result")
            };
            let show = id.clone();
            view! {
                <button type="button" class="call-id" data-call-id=id.clone() aria-label=label
                    on:mouseenter=move |_| page::mark_partners(Some(&show))
                    on:focus={
                        let id = id.clone();
                        move |_| page::mark_partners(Some(&id))
                    }
                    on:mouseleave=|_| page::mark_partners(None)
                    on:blur=|_| page::mark_partners(None)>
                    {id.clone()}
                </button>
            }
        })
        .collect_view();
    let unpaired = answers_no_call.then(|| {
        view! { <span class="answers-no-call">" — answers no call"</span> }
    });
    Some(
        view! {
            <p class="call-ids" data-answers-no-call=answers_no_call.then_some("true")>
                <span class="call-ids-field">{field} ": "</span>{chips}{unpaired}
            </p>
        }
        .into_any(),
    )
}

/// A tool result's images, audio and binary resources, under its text, each
/// with a caption saying what it is (type and size): an image as an image,
/// audio as a player, any other resource as its uri and type.
/// A strategy's edit as two bars, the next request before and after it
/// (input plus the output allowance), with the window marked: the sizes in
/// words on each bar, so nothing rests on colour or length alone.
fn context_gauge_view(gauge: ContextGauge) -> AnyView {
    let bar = |when: &'static str, input: u64| {
        let needed = input + gauge.output;
        let width = format!("width: {:.1}%", gauge.percent(needed));
        let words = match gauge.output {
            0 => format!("{when}: ≈{}", thousands(input)),
            out => format!(
                "{when}: ≈{} input + {} output = ≈{}",
                thousands(input),
                thousands(out),
                thousands(needed)
            ),
        };
        let over = gauge.window.is_some_and(|w| needed > w);
        view! {
            <div class="context-bar" data-when=when data-over=over.then_some("true")>
                <span class="context-fill" prop:style=width></span>
                <span class="context-words">{words}{over.then_some(" — over the window")}</span>
            </div>
        }
    };
    let window_line = gauge.window.map(|w| {
        let left = format!("left: {:.1}%", gauge.percent(w));
        view! { <span class="context-window" prop:style=left aria-hidden="true"></span> }
    });
    let window_words = gauge.window.map(|w| {
        view! { <p class="context-window-words">{format!("┆ the window: {} tokens (window_tokens)", thousands(w))}</p> }
    });
    view! {
        <div class="context-gauge">
            <div class="context-bars">
                {bar("before", gauge.before)}
                {bar("after", gauge.after)}
                {window_line}
            </div>
            {window_words}
        </div>
    }
    .into_any()
}

fn media_view(media: Vec<Media>) -> AnyView {
    let parts = media
        .into_iter()
        .map(|part| {
            let what = part.describe();
            let url = part.data_url();
            let shown = match part {
                Media::Image { .. } => view! {
                    <img src=url alt=format!("The image the tool returned: {what}") />
                }
                .into_any(),
                Media::Resource { .. } if part.mime_type().starts_with("image/") => view! {
                    <img src=url alt=format!("The image the tool returned: {what}") />
                }
                .into_any(),
                Media::Audio { .. } => view! {
                    <audio controls=true src=url aria-label=format!("The audio the tool returned: {what}")></audio>
                }
                .into_any(),
                Media::Resource { .. } => ().into_any(),
            };
            view! { <li><figure>{shown}<figcaption>{what}</figcaption></figure></li> }
        })
        .collect_view();
    view! { <ul class="tool-media" aria-label="What the tool returned besides text">{parts}</ul> }
        .into_any()
}

/// Assistant text as prose; arguments and results as preformatted blocks,
/// long ones collapsed behind "Show all". A block is a tab stop: its height
/// is capped and the rest scrolls, which in a narrow column even a collapsed
/// one does, so a person on the keyboard reaches it and scrolls it with the
/// arrow keys.
fn body_view(kind: EventType, body: String, collapsible: bool) -> AnyView {
    if kind == EventType::ModelResponse {
        return view! { <p class="assistant-text">{body}</p> }.into_any();
    }
    if !collapsible {
        return view! { <pre class="event-pre" tabindex="0">{body}</pre> }.into_any();
    }
    let expanded = RwSignal::new(false);
    let short = turn_view::collapsed(&body);
    let text = move || {
        if expanded.get() {
            body.clone()
        } else {
            short.clone()
        }
    };
    view! {
        <pre class="event-pre" tabindex="0">{text}</pre>
        <button
            type="button"
            class="show-all"
            aria-expanded=move || expanded.get().to_string()
            on:click=move |_| expanded.update(|e| *e = !*e)
        >
            {move || if expanded.get() { "Show less" } else { "Show all" }}
        </button>
    }
    .into_any()
}
