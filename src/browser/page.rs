//! The page's own state in the browser: the autosaved scenario in
//! `localStorage`, the URL fragment that share links use, the clipboard, and
//! the colour theme on `<html>`, and scrolling something into view.
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

pub fn saved_theme() -> Option<String> {
    storage()?.get_item(THEME_KEY).ok().flatten()
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
