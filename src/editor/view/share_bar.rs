//! Share and keep a scenario: copy a link that carries it, export it as a
//! JSON file, import one. (The autosave needs no control: every edit is kept.)
//!
//! The bar is drawn at first paint, but what its buttons do is a split
//! module of its own (`share_action`, a `#[lazy]` function like those in
//! `lazy`), fetched at the first press: a first visit rarely presses one.

#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::{files, page};
use crate::editor::provenance::Source;
use crate::editor::share;
use crate::editor::state::Editor;
use crate::lazy;
use crate::state::tied_notice::TiedNotice;

#[component]
pub fn ShareBar(
    editor: Editor,
    /// Called before an imported scenario replaces the editor's.
    #[prop(into)]
    on_arrival: Callback<()>,
) -> impl IntoView {
    // The link carries the text as it was copied: it goes when the text changes.
    let link = TiedNotice::about_text(editor.text());
    let bar = Bar {
        editor,
        link,
        on_arrival,
    };
    let import = move |ev: leptos::ev::Event| {
        // The input is read now, while the event is the one that changed it.
        if let Some(input) = files::picked_input(&ev) {
            crate::browser::runner::start(share_action(Press::Import(input), bar));
        }
    };
    view! {
        <div class="share-bar">
            <button type="button" on:click=move |_| crate::browser::runner::start(share_action(Press::CopyLink, bar))>"Copy link"</button>
            <button type="button" on:click=move |_| crate::browser::runner::start(share_action(Press::Export, bar))>"Export scenario"</button>
            <label class="file-button">
                "Import scenario"
                <input type="file" accept=".json,application/json" on:change=import />
            </label>
        </div>
        <p class="notice" aria-live="polite">{move || editor.notice().get()}</p>
        {move || link.get().map(|url| view! {
            <label class="share-link">
                "Share link"
                <input id="share-link" type="text" readonly prop:value=url
                    on:focus=|ev| {
                        if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            input.select();
                        }
                    } />
            </label>
        })}
    }
}

/// Which of the bar's buttons was pressed.
pub enum Press {
    CopyLink,
    Export,
    /// "Import scenario", with its file input (a file was just picked).
    Import(web_sys::HtmlInputElement),
}

/// What the bar's actions act on.
#[derive(Clone, Copy)]
pub struct Bar {
    editor: Editor,
    /// The share link shown under the bar.
    link: TiedNotice,
    on_arrival: Callback<()>,
}

/// Does what `press` asks. A split point, so its arguments are owned (see
/// `lazy`).
#[cfg_attr(feature = "split", lazy)]
pub async fn share_action(press: Press, bar: Bar) {
    match press {
        Press::CopyLink => copy_link(bar).await,
        Press::Export => export(bar.editor),
        Press::Import(input) => import(bar, input).await,
    }
}

async fn copy_link(bar: Bar) {
    let editor = bar.editor;
    let fragment = share::fragment_for(&editor.text().get_untracked());
    let Some(url) = page::set_fragment(&fragment) else {
        editor.set_notice(Some(
            "This browser would not put the link in the address bar.".into(),
        ));
        return;
    };
    bar.link.set(Some(url.clone()));
    let notice = match page::copy_text(&url).await {
        Ok(()) => "Link copied to the clipboard.",
        Err(()) => "The link is in the address bar and below: copy it from there.",
    };
    editor.set_notice(Some(notice.to_string()));
}

fn export(editor: Editor) {
    let text = editor.text().get_untracked();
    let name = format!("{}.json", share::file_stem(&text));
    let notice = match files::download(&name, "application/json", &text) {
        Ok(()) => format!("Saved {name}."),
        Err(why) => why,
    };
    editor.set_notice(Some(notice));
}

async fn import(bar: Bar, input: web_sys::HtmlInputElement) {
    let editor = bar.editor;
    let Some((name, text)) = files::take_picked(&input).await else {
        return;
    };
    let text = match text {
        Ok(text) => text,
        Err(why) => return editor.set_arrival(Some(why)),
    };
    // A lesson or course file opens in the Lessons mode.
    if let Some(link) = crate::lessons::state::link_of_file(&text) {
        page::go_to_fragment(&link);
        editor.set_arrival(Some(format!(
            "{name} is a lesson or course file, not a scenario: it opens in Lessons."
        )));
        return;
    }
    match lazy::scenario_file(name.clone(), text.clone()).await {
        Ok(()) => {
            bar.on_arrival.run(());
            editor.load(text, Source::File(name.clone()));
            editor.set_arrival(Some(format!("Imported the scenario {name}.")));
        }
        // A run file, or not a scenario: the editor keeps its text.
        Err(why) => editor.set_arrival(Some(why)),
    }
}
