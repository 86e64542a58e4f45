//! Share and keep a scenario: copy a link that carries it, export it as a
//! JSON file, import one. (The autosave needs no control: every edit is kept.)

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::browser::{files, page};
use crate::lazy;
use crate::provenance::Source;
use crate::share;
use crate::state::editor::Editor;
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
    let copy_link = move |_| {
        let fragment = share::fragment_for(&editor.text().get_untracked());
        let Some(url) = page::set_fragment(&fragment) else {
            editor.set_notice(Some(
                "This browser would not put the link in the address bar.".into(),
            ));
            return;
        };
        link.set(Some(url.clone()));
        spawn_local(async move {
            let notice = match page::copy_text(&url).await {
                Ok(()) => "Link copied to the clipboard.",
                Err(()) => "The link is in the address bar and below: copy it from there.",
            };
            editor.set_notice(Some(notice.to_string()));
        });
    };
    let export = move |_| {
        let text = editor.text().get_untracked();
        let name = format!("{}.json", share::file_stem(&text));
        let notice = match files::download(&name, "application/json", &text) {
            Ok(()) => format!("Saved {name}."),
            Err(why) => why,
        };
        editor.set_notice(Some(notice));
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = files::picked_input(&ev) else {
            return;
        };
        spawn_local(async move {
            let Some((name, text)) = files::take_picked(&input).await else {
                return;
            };
            let text = match text {
                Ok(text) => text,
                Err(why) => return editor.set_arrival(Some(why)),
            };
            // A lesson or course file opens in the Lessons mode.
            if let Some(link) = crate::state::lessons::link_of_file(&text) {
                page::go_to_fragment(&link);
                editor.set_arrival(Some(format!(
                    "{name} is a lesson or course file, not a scenario: it opens in Lessons."
                )));
                return;
            }
            match lazy::scenario_file(name.clone(), text.clone()).await {
                Ok(()) => {
                    on_arrival.run(());
                    editor.load(text, Source::File(name.clone()));
                    editor.set_arrival(Some(format!("Imported the scenario {name}.")));
                }
                // A run file, or not a scenario: the editor keeps its text.
                Err(why) => editor.set_arrival(Some(why)),
            }
        });
    };
    view! {
        <div class="share-bar">
            <button type="button" on:click=copy_link>"Copy link"</button>
            <button type="button" on:click=export>"Export scenario"</button>
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
