//! The scenario's JSON text box, with line numbers beside it, and, when the
//! text is not valid JSON, its error's line marked in the gutter (a ▶, not
//! only a colour) and a button that puts the caret there.
//!
//! The box does not wrap lines, so each gutter row stays beside its line; the
//! gutter follows the box's scrolling.

use leptos::html;
use leptos::prelude::*;

#[component]
pub fn JsonEditor(
    #[prop(into)] text: Signal<String>,
    #[prop(into)] on_input: Callback<String>,
    /// An open lesson keeps the whole text as it is (its editable parts have
    /// boxes of their own, `lessons::view::parts`).
    #[prop(into)]
    read_only: Signal<bool>,
) -> impl IntoView {
    let area = NodeRef::<html::Textarea>::new();
    let gutter = NodeRef::<html::Div>::new();
    let error = Memo::new(move |_| text.with(|t| crate::editor::form::syntax_error(t)));
    let line_count = Memo::new(move |_| text.with(|t| t.split('\n').count()));
    let follow_scroll = move || {
        if let (Some(area), Some(gutter)) = (area.get_untracked(), gutter.get_untracked()) {
            gutter.set_scroll_top(area.scroll_top());
        }
    };
    let go_to_error = move |_| {
        let (Some(area), Some(error)) = (area.get_untracked(), error.get_untracked()) else {
            return;
        };
        let offset = text.with_untracked(|t| error.utf16_offset(t));
        let _ = area.focus();
        let _ = area.set_selection_range(offset, offset);
        // Show a few lines above the error, as an editor's "go to line" does.
        let lines = line_count.get_untracked().max(1) as i32;
        let line_height = area.scroll_height() / lines;
        area.set_scroll_top((error.line as i32 - 4).max(0) * line_height);
        follow_scroll();
    };
    // Rows before the error line, the error line, rows after: three text
    // nodes, not one element per line, however long the scenario is.
    let numbers = move |from: usize, to: usize| -> String {
        (from..=to).map(|n| format!("{n}\n")).collect::<String>()
    };
    let rows = move || {
        let count = line_count.get();
        match error.get().map(|e| e.line.min(count)) {
            Some(line) => view! {
                {numbers(1, line - 1)}
                <span class="gutter-error" title="The JSON error is on this line">{format!("▶{line}\n")}</span>
                {numbers(line + 1, count)}
            }
            .into_any(),
            None => numbers(1, count).into_any(),
        }
    };
    view! {
        <div class="json-editor" class:has-error=move || error.with(Option::is_some)>
            <div class="gutter" aria-hidden="true" node_ref=gutter>{rows}</div>
            <textarea
                id="scenario-json"
                aria-label="Scenario JSON"
                aria-describedby="json-error"
                spellcheck="false"
                autocomplete="off"
                wrap="off"
                rows="16"
                node_ref=area
                prop:readOnly=read_only
                prop:value=text
                on:input=move |ev| on_input.run(event_target_value(&ev))
                on:scroll=move |_| follow_scroll()
            ></textarea>
        </div>
        <p id="json-error" class="json-error" aria-live="polite">
            {move || error.get().map(|e| view! {
                <span class="json-error-where">
                    {format!("⚠ The JSON is not valid at line {}, column {}.", e.line, e.column)}
                </span>
                " "
                <button type="button" class="link-button" on:click=go_to_error>
                    {format!("Go to line {}", e.line)}
                </button>
            })}
        </p>
    }
}
