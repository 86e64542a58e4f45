//! The run history in `localStorage`: one key holds the index (what the panel
//! lists), and one key per run holds its record as JSON Lines.
//!
//! `localStorage` is synchronous, so a run is kept (or refused) before the
//! next frame, and a failure comes back as an `Err` the panel shows: a full
//! storage (`QuotaExceededError`) and a missing or refused one (private
//! modes, storage turned off) are told apart, and nothing is dropped quietly.

use wasm_bindgen::JsValue;

/// The key of the index (see `history::index_to_json`).
const INDEX_KEY: &str = "agent-loop-playground.history";
/// The prefix of each record's key; the run's id follows.
const RECORD_PREFIX: &str = "agent-loop-playground.run.";

/// Why storage refused.
#[derive(Clone, Debug, PartialEq)]
pub enum StoreError {
    /// The origin's quota is used up.
    Full,
    /// No `localStorage`, or the browser refused an access; the text says how.
    Unavailable(String),
}

fn storage() -> Result<web_sys::Storage, StoreError> {
    let window = web_sys::window().ok_or_else(|| StoreError::Unavailable("no window".into()))?;
    match window.local_storage() {
        Ok(Some(storage)) => Ok(storage),
        Ok(None) => Err(StoreError::Unavailable(
            "this browser gives the page no localStorage".into(),
        )),
        Err(err) => Err(StoreError::Unavailable(error_text(&err))),
    }
}

/// A DOMException's name and message, read through `Reflect` so no extra
/// web-sys feature is needed.
fn error_text(err: &JsValue) -> String {
    let field = |name: &str| {
        js_sys::Reflect::get(err, &name.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    match (field("name"), field("message")) {
        (name, message) if !message.is_empty() => format!("{name}: {message}"),
        (name, _) if !name.is_empty() => name,
        _ => "the browser refused".to_string(),
    }
}

fn is_quota(err: &JsValue) -> bool {
    let name = js_sys::Reflect::get(err, &"name".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    // Firefox once named it differently.
    name == "QuotaExceededError" || name == "NS_ERROR_DOM_QUOTA_REACHED"
}

fn set(key: &str, value: &str) -> Result<(), StoreError> {
    storage()?.set_item(key, value).map_err(|err| {
        if is_quota(&err) {
            StoreError::Full
        } else {
            StoreError::Unavailable(error_text(&err))
        }
    })
}

/// The stored index text; `Ok(None)` when no run was ever kept.
pub fn load_index() -> Result<Option<String>, StoreError> {
    storage()?
        .get_item(INDEX_KEY)
        .map_err(|err| StoreError::Unavailable(error_text(&err)))
}

pub fn save_index(json: &str) -> Result<(), StoreError> {
    set(INDEX_KEY, json)
}

pub fn save_record(id: &str, jsonl: &str) -> Result<(), StoreError> {
    set(&format!("{RECORD_PREFIX}{id}"), jsonl)
}

/// A kept run's record text; `Ok(None)` when its key is gone.
pub fn load_record(id: &str) -> Result<Option<String>, StoreError> {
    storage()?
        .get_item(&format!("{RECORD_PREFIX}{id}"))
        .map_err(|err| StoreError::Unavailable(error_text(&err)))
}

/// Removes a run's record; removing never needs room, so it can only fail
/// when storage is unavailable, and then there is nothing stored to remove.
pub fn remove_record(id: &str) {
    if let Ok(storage) = storage() {
        let _ = storage.remove_item(&format!("{RECORD_PREFIX}{id}"));
    }
}

/// The ids of every kept run whose record is in storage, whether the index
/// lists it or not.
pub fn record_ids() -> Result<Vec<String>, StoreError> {
    let storage = storage()?;
    let count = storage
        .length()
        .map_err(|err| StoreError::Unavailable(error_text(&err)))?;
    Ok((0..count)
        .filter_map(|n| storage.key(n).ok().flatten())
        .filter_map(|key| key.strip_prefix(RECORD_PREFIX).map(str::to_string))
        .collect())
}
