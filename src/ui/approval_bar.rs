//! The bar under a call that waits for a person: Approve, Edit arguments,
//! Deny (with an optional reason the model sees), Deny and stop, and Always
//! allow this tool. Edited arguments are checked against the tool's schema
//! here first, so a bad edit is explained before it reaches the run.

use harness::approval::Decision;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::browser::page;
use crate::controller::PendingApproval;
use crate::view_model;

#[component]
pub fn ApprovalBar(
    pending: PendingApproval,
    /// The deny reason, owned by the page so the `d` shortcut sends it too.
    reason: RwSignal<String>,
    #[prop(into)] on_decide: Callback<Decision>,
) -> impl IntoView {
    let editing = RwSignal::new(false);
    let edit_text = RwSignal::new(view_model::pretty(&pending.args));
    let edit_errors = RwSignal::new(Vec::<String>::new());
    // Stored, so the edit handler is `Copy` and the `<Show>` can rebuild it.
    let schema = StoredValue::new(pending.schema.clone());
    let reason_value = move || {
        let text = reason.get_untracked();
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_string())
    };
    // The check is the engine's (a split module, loaded by the run waiting here).
    let submit_edit = move |_| {
        let text = edit_text.get_untracked();
        let schema = schema.get_value();
        spawn_local(async move {
            match crate::lazy::engine()
                .await
                .check_edited_args(&text, schema.as_ref())
            {
                Ok(args) => on_decide.run(Decision::ApproveEdited(args)),
                Err(errors) => edit_errors.set(errors),
            }
        });
    };
    let args_text = view_model::pretty(&pending.args);
    // The run waits on this bar: bring it into view if the trace is scrolled
    // elsewhere (or the run has grown past the screen), moving no further
    // than needed. Focus stays where it is; `a` and `d` answer from anywhere.
    let bar = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(element) = bar.get() {
            page::bring_into_view(
                move || Some(element.into()),
                web_sys::ScrollLogicalPosition::Nearest,
            );
        }
    });
    view! {
        <div node_ref=bar class="approval-bar" role="group" aria-label=format!("Approval for {}", pending.tool)
            data-call-id=pending.call_id.clone()>
            <p class="approval-title">
                <strong>"Approval needed: "</strong><code>{pending.tool.clone()}</code>
                " wants to run with:"
            </p>
            <pre class="approval-args">{args_text}</pre>
            {pending.edit_error.clone().map(|error| view! {
                <p class="approval-error" role="alert">"The run refused the edited arguments: " {error}</p>
            })}
            <div class="approval-actions">
                <button type="button" class="approve" aria-keyshortcuts="a"
                    on:click=move |_| on_decide.run(Decision::Approve)>
                    "Approve" <kbd aria-hidden="true">"a"</kbd>
                </button>
                <button type="button" aria-expanded=move || editing.get().to_string()
                    on:click=move |_| editing.update(|e| *e = !*e)>
                    "Edit arguments"
                </button>
                <button type="button" class="deny" aria-keyshortcuts="d"
                    on:click=move |_| on_decide.run(Decision::Deny { reason: reason_value() })>
                    "Deny" <kbd aria-hidden="true">"d"</kbd>
                </button>
                <button type="button" class="deny"
                    on:click=move |_| on_decide.run(Decision::DenyAndStop { reason: reason_value() })>
                    "Deny and stop"
                </button>
                <button type="button"
                    on:click=move |_| on_decide.run(Decision::AlwaysAllow)>
                    "Always allow this tool"
                </button>
            </div>
            <label class="approval-reason">
                "Reason for a denial (the model sees it; optional)"
                <input type="text" prop:value=reason
                    on:input=move |ev| reason.set(event_target_value(&ev)) />
            </label>
            <Show when=move || editing.get()>
                <div class="approval-edit">
                    <label for="approval-edit-args">"Arguments (JSON, checked against the tool's schema)"</label>
                    <textarea id="approval-edit-args" rows="6" spellcheck="false"
                        prop:value=edit_text
                        on:input=move |ev| {
                            edit_text.set(event_target_value(&ev));
                            edit_errors.set(Vec::new());
                        }
                    ></textarea>
                    <ul class="edit-errors" role="alert">
                        {move || edit_errors.get().into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                    </ul>
                    <button type="button" class="approve" on:click=submit_edit>
                        "Approve with these arguments"
                    </button>
                </div>
            </Show>
        </div>
    }
}
