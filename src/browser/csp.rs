//! The page's origin, which its Content-Security-Policy calls `'self'`; the
//! Model settings compare a base URL against it and the policy's
//! `connect-src` (see `connect_src::connect_problem`).

/// `window.location.origin`, e.g. `http://127.0.0.1:8080`; empty outside a page.
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}
