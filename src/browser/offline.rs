//! Whether the browser is online, for the message of a provider or MCP
//! request that could not reach its server: offline, "check CORS" would
//! mislead. (The service worker and the offline notice are plain JavaScript,
//! `static/offline.js`, so the first paint's wasm carries nothing for them.)

/// Whether the browser says it is online (`navigator.onLine`). `false` is
/// reliable (no network at all); `true` only means some network is there.
/// Natively (tests, no browser) the answer is `true`.
pub fn is_online() -> bool {
    if !cfg!(target_arch = "wasm32") {
        return true;
    }
    web_sys::window().is_none_or(|w| w.navigator().on_line())
}
