//! The bar under a call that waits for a person: Approve, Edit arguments,
//! Deny (with an optional reason the model sees), Deny and stop, and Always
//! allow this tool in this run (the run remembers it; the next run asks
//! again).
//!
//! While an edit of the arguments is open there is one way to approve, and
//! it approves what is in the edit box: the green button (and the `a` key,
//! through `Approvals::decide`) checks the edit against the tool's schema
//! and sends it, or says why not and sends nothing. Always allow, which
//! would run the model's own arguments, is off until the edit is discarded.
//!
//! The keyboard shortcuts live here too (`Approvals`): `a` approves and `d`
//! denies while the bar shows, unless focus is in a field.
//!
//! The bar is a split module of its own (`approval_bar`, a `#[lazy]`
//! function like those in `lazy`): it shows only while a run waits for a
//! person, so the first paint does without it. `Approvals`, which the page
//! makes at first paint for the shortcuts, stays outside it.

use harness::approval::Decision;
use leptos::ev;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::page;
use crate::run::controller::{Controller, PendingApproval};
use crate::run::view_model;
use crate::ui::field::Field;

/// The edit box's id: its label and the focus on opening find it by it.
const EDIT_BOX_ID: &str = "approval-edit-args";

/// Said under the edit box: what Approve sends, and why Always allow is off.
const EDIT_NOTE: &str = "Approve runs the tool with the arguments in this box; the model's history keeps its own request. \
    Always allow stays off until you discard the edit.";

/// How a person answers the call the run waits on, by the bar or the keys:
/// made once by the page, so the deny reason and the shortcuts outlive
/// every bar.
#[derive(Clone, Copy)]
pub struct Approvals {
    controller: Controller,
    /// The deny reason, kept across bars so the `d` shortcut sends it too.
    reason: RwSignal<String>,
    /// The bar's own Approve, tried first by a plain Approve: while an edit
    /// of the arguments is open it approves the edit and answers `true`, so
    /// the button and the `a` key approve the same thing. A bar that is gone
    /// answers `false`.
    approve_instead: StoredValue<Option<Callback<(), bool>>>,
}

impl Approvals {
    /// Call once, in the root component: it also starts listening for the
    /// `a` and `d` keys.
    pub fn new(controller: Controller) -> Self {
        let approvals = Approvals {
            controller,
            reason: RwSignal::new(String::new()),
            approve_instead: StoredValue::new(None),
        };
        approvals.listen_for_keys();
        approvals
    }

    /// The call waiting for a person, if any.
    pub fn pending(&self) -> ReadSignal<Option<PendingApproval>> {
        self.controller.pending()
    }

    /// Answers the waiting call. A plain Approve while the bar has an edit
    /// open goes to the bar instead (see `approve_instead`).
    pub fn decide(self, decision: Decision) {
        self.reason.set(String::new());
        if decision == Decision::Approve
            && self
                .approve_instead
                .get_value()
                .is_some_and(|approve| approve.run(()))
        {
            return;
        }
        self.approve_instead.set_value(None);
        self.controller.decide(decision);
    }

    /// The deny reason as typed, trimmed; `None` when empty.
    fn reason_text(self) -> Option<String> {
        let text = self.reason.get_untracked();
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_string())
    }

    /// `a` approves and `d` denies while the bar shows, unless focus is in
    /// a field.
    fn listen_for_keys(self) {
        let pending = self.controller.pending();
        let keys = window_event_listener(ev::keydown, move |ev| {
            if pending.with_untracked(Option::is_none) {
                return;
            }
            let tag = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .map(|el| el.tag_name())
                .unwrap_or_default();
            let modified = ev.ctrl_key() || ev.meta_key() || ev.alt_key();
            match view_model::is_shortcut(&ev.key(), &tag, modified) {
                Some('a') => {
                    ev.prevent_default();
                    self.decide(Decision::Approve);
                }
                Some('d') => {
                    ev.prevent_default();
                    let reason = self.reason_text();
                    self.decide(Decision::Deny { reason });
                }
                _ => {}
            }
        });
        on_cleanup(move || keys.remove());
    }
}

/// The bar for `pending`, fetched the first time a run waits for a person;
/// the timeline shows it through `Suspend`. A split point, so its arguments
/// are owned (see `lazy`).
#[cfg_attr(feature = "split", lazy)]
pub async fn approval_bar(pending: PendingApproval, approvals: Approvals) -> AnyView {
    view! { <ApprovalBar pending=pending approvals=approvals /> }.into_any()
}

#[component]
pub fn ApprovalBar(pending: PendingApproval, approvals: Approvals) -> impl IntoView {
    let reason = approvals.reason;
    let on_decide = Callback::new(move |decision| approvals.decide(decision));
    let editing = RwSignal::new(false);
    let args_text = view_model::pretty(&pending.args);
    let edit_text = RwSignal::new(args_text.clone());
    let edit_errors = RwSignal::new(Vec::<String>::new());
    // Stored, so the handlers are `Copy`.
    let schema = StoredValue::new(pending.schema.clone());
    let original = StoredValue::new(args_text.clone());
    let reason_value = move || approvals.reason_text();
    // The check is the engine's (a split module, loaded by the run waiting here).
    let approve_edit = move || {
        let text = edit_text.get_untracked();
        let schema = schema.get_value();
        crate::browser::runner::start(async move {
            match crate::lazy::engine()
                .await
                .check_edited_args(&text, schema.as_ref())
            {
                Ok(args) => on_decide.run(Decision::ApproveEdited(args)),
                Err(errors) => edit_errors.set(errors),
            }
        });
    };
    let approve = move || {
        if editing.get_untracked() {
            approve_edit();
        } else {
            on_decide.run(Decision::Approve);
        }
    };
    // The edit is checked as it is typed, so Approve is off while it
    // breaks the schema and the problems show before any click.
    let check_edit = move |text: String| {
        let schema = schema.get_value();
        crate::browser::runner::start(async move {
            let errors = crate::lazy::engine()
                .await
                .check_edited_args(&text, schema.as_ref())
                .err()
                .unwrap_or_default();
            // A check of text typed over since is stale.
            if edit_text.try_with_untracked(|now| *now == text) == Some(true) {
                edit_errors.set(errors);
            }
        });
    };
    let edit_invalid = move || editing.get() && edit_errors.with(|e| !e.is_empty());
    // The problems under the box, one a line, while there are any.
    let edit_problem =
        Signal::derive(move || edit_errors.with(|e| (!e.is_empty()).then(|| e.join("\n"))));
    let discard_edit = move || {
        editing.set(false);
        edit_text.set(original.get_value());
        edit_errors.set(Vec::new());
    };
    // The `a` key reaches `Approvals`, not this bar: while the edit is open,
    // it hands Approve to this bar. It drops this when the call is decided;
    // a bar already gone answers `false`.
    approvals
        .approve_instead
        .set_value(Some(Callback::new(move |()| {
            let edit_open = editing.try_get_untracked().unwrap_or(false);
            if edit_open {
                approve_edit();
            }
            edit_open
        })));

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
    // An edit box that opens is focused and shown with the buttons under it.
    let controls = NodeRef::<leptos::html::Div>::new();
    let open_edit = move || {
        editing.set(true);
        page::bring_into_view(
            move || {
                if let Some(edit_box) = document()
                    .get_element_by_id(EDIT_BOX_ID)
                    .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = edit_box.focus();
                }
                controls.get_untracked().map(Into::into)
            },
            web_sys::ScrollLogicalPosition::Nearest,
        );
        // Where the column is shorter than the box with its buttons (a
        // short window on the stage), the box itself wins: it is what
        // takes the keys.
        page::bring_into_view(
            || document().get_element_by_id(EDIT_BOX_ID),
            web_sys::ScrollLogicalPosition::Nearest,
        );
    };
    view! {
        <div node_ref=bar class="approval-bar" class:editing=move || editing.get() role="group" aria-label=format!("Approval for {}", pending.tool)
            data-call-id=pending.call_id.clone()>
            <p class="approval-title">
                <strong>"Approval needed: "</strong><code>{pending.tool.clone()}</code>
                " wants to run with:"
            </p>
            <pre class="approval-args">{args_text}</pre>
            {pending.edit_error.clone().map(|error| view! {
                <p class="approval-error" role="alert">"The run refused the edited arguments: " {error}</p>
            })}
            <div node_ref=controls class="approval-controls">
                <Show when=move || editing.get()>
                    <div class="approval-edit">
                        <Field
                            id=EDIT_BOX_ID
                            label=|| "Arguments (JSON, checked against the tool's schema)"
                            hint=Signal::derive(|| EDIT_NOTE.to_string())
                            problem=edit_problem
                            classes=("approval-edit-note", "edit-errors")
                            listed=true
                        >
                            <textarea rows="6" spellcheck="false"
                                prop:value=edit_text
                                on:input=move |ev| {
                                    let text = event_target_value(&ev);
                                    edit_text.set(text.clone());
                                    check_edit(text);
                                }
                            ></textarea>
                        </Field>
                    </div>
                </Show>
                <div class="approval-actions">
                    <button type="button" class="approve" aria-keyshortcuts="a"
                        prop:disabled=edit_invalid
                        title=move || edit_invalid().then_some("The edited arguments break the tool's schema: see the problems above")
                        on:click=move |_| approve()>
                        <span class="if-editing">"Approve with these arguments"</span>
                        <span class="unless-editing">"Approve"</span>
                        <kbd aria-hidden="true">"a"</kbd>
                    </button>
                    <button type="button" aria-expanded=move || editing.get().to_string()
                        on:click=move |_| if editing.get_untracked() { discard_edit() } else { open_edit() }>
                        <span class="if-editing">"Discard edit"</span>
                        <span class="unless-editing">"Edit arguments"</span>
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
                        prop:disabled=move || editing.get()
                        on:click=move |_| on_decide.run(Decision::AlwaysAllow)>
                        "Always allow this tool in this run"
                    </button>
                </div>
            </div>
            <label class="approval-reason">
                "Reason for a denial (the model sees it; optional)"
                <input type="text" prop:value=reason
                    on:input=move |ev| reason.set(event_target_value(&ev)) />
            </label>
        </div>
    }
}
