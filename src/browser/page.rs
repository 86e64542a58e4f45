//! The page's own state in the browser: the autosaved scenario in
//! `localStorage`, the URL fragment that share links use (and its changes),
//! the clipboard, the colour theme on `<html>`, and scrolling something into
//! view.
//!
//! Every function degrades quietly when an API is missing or refused (private
//! browsing without storage, a clipboard without permission): the caller
//! gets `None`/`Err` and tells the user, the page never breaks.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The `localStorage` key of the autosaved scenario text.
const SCENARIO_KEY: &str = "agent-loop-playground.scenario";
/// The `localStorage` key of the picker's value for the autosaved text.
const SELECTION_KEY: &str = "agent-loop-playground.selection";
/// The `localStorage` key of where the autosaved text came from (`Provenance::to_saved`).
const PROVENANCE_KEY: &str = "agent-loop-playground.provenance";
/// The `localStorage` keys of the text a replacement took away (the editor's
/// Undo), with its provenance and picker value, saved as the text is.
const REPLACED_KEYS: [&str; 3] = [
    "agent-loop-playground.replaced",
    "agent-loop-playground.replaced-provenance",
    "agent-loop-playground.replaced-selection",
];
/// The `localStorage` key of Compare's variant B, autosaved as A's text is.
const VARIANT_KEY: &str = "agent-loop-playground.variant";
/// The `localStorage` key of the chosen theme (`light`, `dark`; absent: system).
const THEME_KEY: &str = "agent-loop-playground.theme";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn saved_scenario() -> Option<String> {
    storage()?.get_item(SCENARIO_KEY).ok().flatten()
}

/// Saves the scenario text; a full or missing storage only loses the autosave.
pub fn save_scenario(text: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(SCENARIO_KEY, text);
    }
}

/// The picker's value saved with the scenario text: which built-in the text
/// is, known at the next load without the built-ins' files.
pub fn saved_selection() -> Option<String> {
    storage()?.get_item(SELECTION_KEY).ok().flatten()
}

pub fn save_selection(id: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(SELECTION_KEY, id);
    }
}

/// Where the autosaved text came from, saved with it (see `provenance`).
pub fn saved_provenance() -> Option<String> {
    storage()?.get_item(PROVENANCE_KEY).ok().flatten()
}

pub fn save_provenance(saved: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(PROVENANCE_KEY, saved);
    }
}

/// The editor's Undo slot: text, provenance (`Provenance::to_saved`), picker value.
pub fn saved_replaced() -> Option<(String, String, String)> {
    let storage = storage()?;
    let [text, provenance, selected] =
        REPLACED_KEYS.map(|key| storage.get_item(key).ok().flatten());
    Some((
        text?,
        provenance.unwrap_or_default(),
        selected.unwrap_or_default(),
    ))
}

/// Saves the Undo slot: its text, provenance and picker value.
pub fn save_replaced(text: &str, provenance: &str, selected: &str) {
    if let Some(storage) = storage() {
        for (key, value) in REPLACED_KEYS.iter().zip([text, provenance, selected]) {
            let _ = storage.set_item(key, value);
        }
    }
}

/// Compare's variant B as it was last edited; `None` when none was kept.
pub fn saved_variant() -> Option<String> {
    storage()?.get_item(VARIANT_KEY).ok().flatten()
}

/// Saves variant B's text (an empty B removes it); like the scenario's
/// autosave, a full or missing storage only loses the autosave.
pub fn save_variant(text: &str) {
    if let Some(storage) = storage() {
        let _ = if text.trim().is_empty() {
            storage.remove_item(VARIANT_KEY)
        } else {
            storage.set_item(VARIANT_KEY, text)
        };
    }
}

pub fn saved_theme() -> Option<String> {
    storage()?.get_item(THEME_KEY).ok().flatten()
}

/// The `localStorage` key of the person's choice to keep the drawn loop
/// whole while the inspector is open (absent: it folds).
const LOOP_KEPT_KEY: &str = "agent-loop-playground.loop-kept";

/// Whether the person chose to keep the drawn loop whole beside what is open.
pub fn saved_loop_kept() -> bool {
    storage()
        .and_then(|s| s.get_item(LOOP_KEPT_KEY).ok().flatten())
        .is_some()
}

/// Remembers whether the drawn loop stays whole beside what is open.
pub fn save_loop_kept(kept: bool) {
    if let Some(storage) = storage() {
        let _ = if kept {
            storage.set_item(LOOP_KEPT_KEY, "kept")
        } else {
            storage.remove_item(LOOP_KEPT_KEY)
        };
    }
}

/// Marks `<html data-present>` while the page is presented: the
/// stylesheet then draws the loop at projector size beside the trace.
pub fn mark_presenting(on: bool) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = if on {
            root.set_attribute("data-present", "")
        } else {
            root.remove_attribute("data-present")
        };
    }
}

/// Asks for the whole page in full screen. A browser that refuses (no
/// click to allow it, or a frame that may not) leaves the page as it is,
/// so nothing is said: the presented layout does not depend on it.
pub fn enter_full_screen() {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.request_fullscreen();
    }
}

/// Leaves full screen, if the page is in it.
pub fn leave_full_screen() {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        if document.fullscreen_element().is_some() {
            document.exit_fullscreen();
        }
    }
}

/// Applies a theme (`system`, `light`, `dark`) to `<html data-theme>` and remembers it.
pub fn apply_theme(theme: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-theme", theme);
    }
    if let Some(storage) = storage() {
        let _ = if theme == "system" {
            storage.remove_item(THEME_KEY)
        } else {
            storage.set_item(THEME_KEY, theme)
        };
    }
}

/// The current URL fragment, `#` included (empty when there is none).
pub fn fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Calls `on_change` with the new fragment each time only the URL's
/// fragment changes (a share link pasted into this tab's address bar), for
/// as long as the component that calls this lives.
pub fn on_fragment_change(on_change: impl Fn(String) + 'static) {
    let listener = leptos::prelude::window_event_listener(leptos::ev::hashchange, move |_| {
        on_change(fragment())
    });
    leptos::prelude::on_cleanup(move || listener.remove());
}

/// Asks "leave the page?" (the browser's own words) before a reload, a
/// close or a navigation away while `busy()` says something would be lost:
/// a run in flight, or one waiting for the person, lives only in this page
/// until it ends and is kept. For as long as the calling component lives.
pub fn warn_before_leaving(busy: impl Fn() -> bool + 'static) {
    let listener = leptos::prelude::window_event_listener(leptos::ev::beforeunload, move |event| {
        if busy() {
            // `preventDefault` asks in today's browsers; an older one
            // looks for a return value instead.
            event.prevent_default();
            event.set_return_value("A run is going: leaving ends it.");
        }
    });
    leptos::prelude::on_cleanup(move || listener.remove());
}

/// Goes to `fragment` as a pasted link would: the page's `hashchange`
/// handler opens it.
pub fn go_to_fragment(fragment: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().set_hash(fragment);
    }
}

/// Puts `fragment` in the address bar without adding a history entry or
/// reloading, and returns the page's full URL.
pub fn set_fragment(fragment: &str) -> Option<String> {
    let window = web_sys::window()?;
    let location = window.location();
    let base = format!("{}{}", location.origin().ok()?, location.pathname().ok()?);
    let search = location.search().unwrap_or_default();
    let url = format!("{base}{search}{fragment}");
    window
        .history()
        .ok()?
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        .ok()?;
    Some(url)
}

/// Copies `text` to the clipboard. `Err` when the browser has no clipboard
/// API or refuses (no permission, page not focused).
pub async fn copy_text(text: &str) -> Result<(), ()> {
    let window = web_sys::window().ok_or(())?;
    let navigator = window.navigator();
    // Through Reflect: `Navigator::clipboard` needs web-sys's unstable-API flag.
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).map_err(|_| ())?;
    if clipboard.is_undefined() {
        return Err(());
    }
    let write = js_sys::Reflect::get(&clipboard, &"writeText".into())
        .map_err(|_| ())?
        .dyn_into::<js_sys::Function>()
        .map_err(|_| ())?;
    let promise = write
        .call1(&clipboard, &text.into())
        .map_err(|_| ())?
        .dyn_into::<js_sys::Promise>()
        .map_err(|_| ())?;
    JsFuture::from(promise).await.map(|_| ()).map_err(|_| ())
}

/// The `localStorage` key of the API key, present only while the user asks
/// for it to be remembered.
const API_KEY_KEY: &str = "agent-loop-playground.api-key";

pub fn saved_api_key() -> Option<String> {
    storage()?.get_item(API_KEY_KEY).ok().flatten()
}

/// Stores the API key, unencrypted; only on the user's explicit opt-in.
pub fn save_api_key(key: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(API_KEY_KEY, key);
    }
}

pub fn remove_api_key() {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(API_KEY_KEY);
    }
}

/// The `localStorage` key of the model settings (provider, base URL, model,
/// streaming; never the key). Absent: the scripted model.
const MODEL_KEY: &str = "agent-loop-playground.model";

pub fn saved_model_settings() -> Option<String> {
    storage()?.get_item(MODEL_KEY).ok().flatten()
}

/// Saves the model settings as JSON, or removes them (`None`).
pub fn save_model_settings(json: Option<&str>) {
    if let Some(storage) = storage() {
        let _ = match json {
            Some(json) => storage.set_item(MODEL_KEY, json),
            None => storage.remove_item(MODEL_KEY),
        };
    }
}

/// After the next frame, when what was just drawn has a box, scrolls the page
/// so the element `find` returns shows at `block` ("nearest" moves only as far
/// as needed).
pub fn bring_into_view(
    find: impl FnOnce() -> Option<web_sys::Element> + 'static,
    block: web_sys::ScrollLogicalPosition,
) {
    leptos::prelude::request_animation_frame(move || {
        if let Some(element) = find() {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(block);
            element.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

/// `bring_into_view` a frame later: for an answer that must end up in view
/// over what the same change brings into view in the next frame (a run's
/// stop banner, when the run a lesson's Check started ends).
pub fn bring_into_view_after_others(
    find: impl FnOnce() -> Option<web_sys::Element> + 'static,
    block: web_sys::ScrollLogicalPosition,
) {
    leptos::prelude::request_animation_frame(move || bring_into_view(find, block));
}

/// Brings the step of a comparison's column `side` (0 or 1) that holds the
/// event `seq` to the middle of the window and marks it `data-shown`, as
/// the Trace marks the row it shows. A step's cell lists its events' seqs
/// in `data-seqs`.
pub fn show_compare_step(seq: u64, side: usize) {
    show_marked(format!(
        ".compare-table td[data-side=\"{side}\"][data-seqs~=\"{seq}\"]"
    ));
}

/// Marks the element `selector` finds, unmarking the one marked before,
/// and brings it to the middle of the window.
fn show_marked(selector: String) {
    // An attribute, not a class: one element carries it at a time.
    const MARK: &str = "data-shown";
    bring_into_view(
        move || {
            let document = web_sys::window()?.document()?;
            if let Ok(Some(before)) = document.query_selector(&format!("[{MARK}]")) {
                let _ = before.remove_attribute(MARK);
            }
            let element = document.query_selector(&selector).ok()??;
            let _ = element.set_attribute(MARK, "");
            Some(element)
        },
        web_sys::ScrollLogicalPosition::Center,
    );
}

/// Marks every element of the trace and of the inspector's conversation that
/// carries `tool_use` id `id` (a call, its result, the response that asked
/// for it) with `data-partner`, and
/// unmarks the rest: hovering or focusing one id shows its pair, and a
/// duplicated id lights every call and result that share it.
pub fn mark_partners(id: Option<&str>) {
    const MARK: &str = "data-partner";
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let each = |selector: &str, f: &dyn Fn(&web_sys::Element)| {
        if let Ok(found) = document.query_selector_all(selector) {
            for i in 0..found.length() {
                if let Some(el) = found
                    .item(i)
                    .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                {
                    f(&el);
                }
            }
        }
    };
    each(
        &format!(".timeline [{MARK}], .conversation [{MARK}]"),
        &|el| {
            let _ = el.remove_attribute(MARK);
        },
    );
    if let Some(id) = id {
        let quoted = id.replace('\\', "\\\\").replace('"', "\\\"");
        let rows_and_ids = format!(
            ".timeline .event[data-call-ids~=\"{quoted}\"], .timeline [data-call-id=\"{quoted}\"], \
             .conversation [data-call-ids~=\"{quoted}\"], .conversation [data-call-id=\"{quoted}\"]"
        );
        each(&rows_and_ids, &|el| {
            let _ = el.set_attribute(MARK, "");
        });
    }
}

/// The run timeline's element id (`run::view::timeline` gives it), so that what
/// fills the trace from elsewhere can bring it into view.
pub const TIMELINE_ID: &str = "run-timeline";

/// Brings the run's first card into view just under the toolbar and moves
/// focus to the timeline, once the cards just set are drawn: after opening a
/// kept run from the history further down, the person (and a screen reader)
/// lands on the run they opened.
pub fn reveal_timeline() {
    leptos::prelude::request_animation_frame(|| {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(timeline) = document
            .get_element_by_id(TIMELINE_ID)
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        // Focus first: it scrolls only if the list is off screen, and the
        // scroll below then places it exactly.
        let _ = timeline.focus();
        // The toolbar is sticky (except on phones), so "start" alone would
        // tuck the first card under it.
        let toolbar = sticky_toolbar_height(&document);
        let _ = timeline
            .style()
            .set_property("scroll-margin-top", &format!("{toolbar}px"));
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Start);
        timeline.scroll_into_view_with_scroll_into_view_options(&options);
    });
}

/// The height the sticky page header covers at the top of the window; 0
/// where it scrolls away with the page.
fn sticky_toolbar_height(document: &web_sys::Document) -> i32 {
    let Some(header) = document
        .query_selector(".page-header")
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return 0;
    };
    let sticky = web_sys::window()
        .and_then(|w| w.get_computed_style(&header).ok().flatten())
        .and_then(|style| style.get_property_value("position").ok())
        .is_some_and(|position| position == "sticky");
    if sticky {
        // A little air between the toolbar and the card.
        header.offset_height() + 8
    } else {
        0
    }
}
