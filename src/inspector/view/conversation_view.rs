//! The conversation as the provider sees it: the request's messages array,
//! a row per message and per content block, with each `tool_use` joined to
//! its `tool_result` by a line in its own lane. A clean pair is a solid line
//! with a dot at the call and an arrowhead at the result; a broken one is
//! dashed and ends in ✗, and says why in words beside the rows.
//!
//! Drawn with a CSS grid (one row per row, one column per lane), so the
//! lines stay joined to their rows whatever the rows' heights, with no
//! measuring. Render-only: the layout is `harness::pairing`'s.

use harness::message::Role;
use harness::pairing::{BlockKind, Conversation, Link, LinkState, Row};
use leptos::prelude::*;

use crate::browser::page;

#[component]
pub fn ConversationView(
    conversation: Conversation,
    /// Messages before this index were in the turn before's request too.
    earlier_messages: usize,
    turn: u32,
) -> impl IntoView {
    let lanes = conversation.lanes;
    let broken: Vec<Link> = conversation.broken().cloned().collect();
    let messages = conversation
        .rows
        .iter()
        .filter(|r| matches!(r, Row::Message { .. }))
        .count();
    let summary =
        crate::inspector::wire_view::links_summary(conversation.links.len(), broken.len());
    let new_note = (turn > 1 && earlier_messages < messages).then(|| {
        format!(
            " Rows marked “new” were not in turn {}'s request.",
            turn - 1
        )
    });
    let rows = conversation
        .rows
        .iter()
        .enumerate()
        .map(|(at, row)| row_view(at, row, earlier_messages))
        .collect_view();
    let links = conversation
        .links
        .iter()
        .map(|link| link_view(link, conversation.rows.len()))
        .collect_view();
    view! {
        <p class="conversation-intro">
            {format!("The messages array of turn {turn}'s request: {messages} messages, as Anthropic Messages sends it (OpenAI moves the results into messages or items of their own).")}
            {new_note}
        </p>
        <div class="pairing-summary" data-broken=broken.len()>
            <p>{summary}</p>
            {(!broken.is_empty()).then(|| view! {
                <ul>
                    {broken.iter().map(|l| view! {
                        <li data-state=l.state.as_str()><code>{l.id.clone()}</code>": "{l.words.clone()}</li>
                    }).collect_view()}
                </ul>
            })}
        </div>
        <div class="conversation" role="list" prop:style=format!("--lanes: {}", lanes.max(1))>
            {links}
            {rows}
        </div>
    }
}

fn row_view(at: usize, row: &Row, earlier_messages: usize) -> AnyView {
    let grid_row = format!("grid-row: {}", at + 1);
    match row {
        Row::Message { index, role } => {
            let role = match role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            let new = (*index >= earlier_messages).then_some("new");
            view! {
                <div role="listitem" class="conv-row conv-message" prop:style=grid_row.clone() data-role=role>
                    <strong>{format!("messages[{index}]")}</strong>" "
                    <span class="conv-role">{format!("role: {role}")}</span>
                    {new.map(|n| view! { " " <span class="conv-new">{n}</span> })}
                </div>
            }
            .into_any()
        }
        Row::Block {
            block,
            kind,
            summary,
            id,
            ..
        } => {
            let error = matches!(kind, BlockKind::ToolResult { is_error: true });
            let chip = id.clone().map(|id| {
                let (enter, focus) = (id.clone(), id.clone());
                let field = if *kind == BlockKind::ToolUse {
                    "id"
                } else {
                    "tool_use_id"
                };
                view! {
                    " "
                    <button type="button" class="call-id" data-call-id=id.clone()
                        aria-label=format!("{field} {id}: mark its call and result")
                        on:mouseenter=move |_| page::mark_partners(Some(&enter))
                        on:focus=move |_| page::mark_partners(Some(&focus))
                        on:mouseleave=|_| page::mark_partners(None)
                        on:blur=|_| page::mark_partners(None)>
                        {id.clone()}
                    </button>
                }
            });
            view! {
                <div role="listitem" class="conv-row conv-block" prop:style=grid_row.clone() data-kind=kind.wire_name()
                    data-call-ids=id.clone()>
                    <span class="conv-kind">{format!("content[{block}] {}", kind.wire_name())}</span>
                    {error.then(|| view! { " " <span class="conv-error">"is_error"</span> })}
                    {chip}
                    <span class="conv-summary">{summary.clone()}</span>
                </div>
            }
            .into_any()
        }
    }
}

/// A link's line in its lane, with a mark at each call and result row.
fn link_view(link: &Link, row_count: usize) -> AnyView {
    let lane = link.lane + 1;
    let (first, mut last) = link.span();
    // A call nobody answers runs on to the end of the array, where ✗ says so.
    if link.state == LinkState::Unanswered {
        last = row_count.saturating_sub(1).max(first);
    }
    let line_style = format!(
        "grid-column: {lane}; grid-row: {} / {}",
        first + 1,
        last + 2
    );
    let marks = link
        .call_rows
        .iter()
        .map(|&r| (r, "●", "call"))
        .chain(link.result_rows.iter().map(|&r| (r, "▶", "result")))
        .map(|(r, glyph, what)| {
            view! {
                <span class="conv-end" data-end=what aria-hidden="true"
                    prop:style=format!("grid-column: {lane}; grid-row: {}", r + 1)>{glyph}</span>
            }
        })
        .collect_view();
    let broken_end = link.state.is_broken().then(|| {
        let at = match link.state {
            LinkState::Unanswered => last,
            LinkState::NoCall => first,
            _ => link.call_rows.get(1).copied().unwrap_or(last),
        };
        view! {
            <span class="conv-end conv-broken" aria-hidden="true"
                prop:style=format!("grid-column: {lane}; grid-row: {}", at + 1)>"✗"</span>
        }
    });
    view! {
        // Decoration: the rows' id chips and the summary above say it in words.
        <span class="conv-link" aria-hidden="true" data-state=link.state.as_str()
            data-call-ids=link.id.clone() prop:style=line_style title=format!("{}: {}", link.id, link.words)></span>
        {marks}
        {broken_end}
    }
    .into_any()
}
