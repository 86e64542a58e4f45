//! The Lessons mode's own stylesheet, `lessons.css` (static/lessons.css,
//! copied beside index.html): not part of the first paint, whose budget is
//! tight, but linked the first time the mode opens. The panel is drawn once
//! it has loaded, so it never shows unstyled. The page's CSP
//! (`style-src 'self'`) allows a stylesheet from its own origin; the
//! service worker precaches it with every other file, so the course works
//! offline.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The stylesheet's address, beside index.html.
const HREF: &str = "lessons.css";
/// Marks the `<link>` this module adds, so it is added once.
const MARK: &str = "data-lessons-style";

/// Links the lessons stylesheet and resolves once it has loaded, or failed
/// to (offline before it was cached: the panel is then drawn plain rather
/// than never). At once when it is linked already.
pub(super) async fn load() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document
        .query_selector(&format!("link[{MARK}]"))
        .ok()
        .flatten()
        .is_some()
    {
        return;
    }
    let (Ok(link), Some(head)) = (
        document.create_element("link"),
        document.query_selector("head").ok().flatten(),
    ) else {
        return;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", HREF);
    let _ = link.set_attribute(MARK, "");
    let (sender, receiver) = oneshot::channel::<()>();
    let sender = Rc::new(RefCell::new(Some(sender)));
    let settled = Closure::<dyn FnMut()>::new(move || {
        if let Some(sender) = sender.borrow_mut().take() {
            let _ = sender.send(());
        }
    });
    for event in ["load", "error"] {
        let _ = link.add_event_listener_with_callback(event, settled.as_ref().unchecked_ref());
    }
    if head.append_child(&link).is_err() {
        return;
    }
    let _ = receiver.await;
    // Kept until the link has settled: the browser calls it once.
    drop(settled);
}
