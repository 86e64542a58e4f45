//! Stylesheets a split panel brings with it: the first paint's CSS has a
//! size budget, so the rules of a panel the first paint does not show live
//! in a file of their own beside index.html (copied there by Trunk),
//! linked the first time the panel is drawn. The page's CSP
//! (`style-src 'self'`) allows a stylesheet from its own origin, and the
//! service worker precaches it with every other file of the build, so it
//! works offline.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// Marks the `<link>`s this module adds, by their file.
const MARK: &str = "data-panel-style";
/// Set on a link once it has loaded (or failed to).
const SETTLED: &str = "data-settled";

/// Links `href` (a file beside index.html) unless it is linked already,
/// and resolves once it has loaded, or failed to (offline before it was
/// cached: the panel is then drawn plain rather than never). A panel
/// awaits this before drawing, so it never shows unstyled.
pub async fn load(href: &'static str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let existing = document
        .query_selector(&format!("link[{MARK}=\"{href}\"]"))
        .ok()
        .flatten();
    let link = match existing {
        Some(link) if link.has_attribute(SETTLED) => return,
        // Linked by an earlier call that is still waiting: wait with it.
        Some(link) => link,
        None => {
            let (Ok(link), Some(head)) = (
                document.create_element("link"),
                document.query_selector("head").ok().flatten(),
            ) else {
                return;
            };
            let _ = link.set_attribute("rel", "stylesheet");
            let _ = link.set_attribute("href", href);
            let _ = link.set_attribute(MARK, href);
            if head.append_child(&link).is_err() {
                return;
            }
            link
        }
    };
    settled(&link).await;
}

/// Resolves when `link` fires load or error, marking it settled.
async fn settled(link: &Element) {
    let (sender, receiver) = oneshot::channel::<()>();
    let sender = Rc::new(RefCell::new(Some(sender)));
    let marked = link.clone();
    let on_settle = Closure::<dyn FnMut()>::new(move || {
        let _ = marked.set_attribute(SETTLED, "");
        if let Some(sender) = sender.borrow_mut().take() {
            let _ = sender.send(());
        }
    });
    for event in ["load", "error"] {
        let _ = link.add_event_listener_with_callback(event, on_settle.as_ref().unchecked_ref());
    }
    let _ = receiver.await;
    // Kept until the link has settled: the browser calls it once.
    drop(on_settle);
}
