//! Offline after the first visit: registers the service worker (`sw.js`,
//! written by `scripts/sw-precache.mjs` from the template `sw.js` beside this
//! file), and tells whether the browser is online, for the offline notice and
//! for a request that could not reach its server.
//!
//! The worker is registered once the page has loaded and the main thread is
//! idle: its install downloads every file of the build (at low priority), and
//! that must not compete with what the first paint and a first run fetch.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The worker's file, next to the page (its scope is the page's directory).
const WORKER: &str = "sw.js";

/// Whether the browser says it is online (`navigator.onLine`). `false` is
/// reliable (no network at all); `true` only means some network is there.
/// Natively (tests, no browser) the answer is `true`.
pub fn is_online() -> bool {
    if !cfg!(target_arch = "wasm32") {
        return true;
    }
    web_sys::window().is_none_or(|w| w.navigator().on_line())
}

/// `navigator.onLine`, kept up to date by the `online` and `offline` events
/// for as long as the calling component lives.
pub fn online_signal() -> ReadSignal<bool> {
    let (online, set_online) = signal(is_online());
    let on = window_event_listener(leptos::ev::online, move |_| set_online.set(true));
    let off = window_event_listener(leptos::ev::offline, move |_| set_online.set(false));
    on_cleanup(move || {
        on.remove();
        off.remove();
    });
    online
}

/// Registers the service worker after the page's `load` event, at the next
/// idle moment. Where service workers are unavailable (an insecure origin,
/// a browser that blocks them) the page works as before, online only: the
/// failure goes to the console as a warning, not an error.
pub fn register_service_worker() {
    let Some(window) = web_sys::window() else {
        return;
    };
    // `serviceWorker` is missing outside a secure context.
    if !js_sys::Reflect::has(&window.navigator(), &"serviceWorker".into()).unwrap_or(false) {
        return;
    }
    let when_idle = Closure::once_into_js(move || {
        let Some(window) = web_sys::window() else {
            return;
        };
        let register = Closure::once_into_js(|| {
            wasm_bindgen_futures::spawn_local(async {
                let Some(window) = web_sys::window() else {
                    return;
                };
                let promise = window.navigator().service_worker().register(WORKER);
                if let Err(why) = JsFuture::from(promise).await {
                    let why = why
                        .dyn_ref::<js_sys::Error>()
                        .map_or_else(|| format!("{why:?}"), |e| String::from(e.message()));
                    leptos::logging::warn!(
                        "The page will not work offline: its service worker could not be registered ({why})"
                    );
                }
            });
        });
        let _ = window.request_idle_callback(register.unchecked_ref());
    });
    let loaded = window
        .document()
        .is_some_and(|d| d.ready_state() == "complete");
    if loaded {
        let _ = when_idle
            .unchecked_ref::<js_sys::Function>()
            .call0(&wasm_bindgen::JsValue::NULL);
    } else {
        let _ = window.add_event_listener_with_callback("load", when_idle.unchecked_ref());
    }
}
