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
/// awaits this before drawing, so it never shows unstyled. Nothing of the
/// DOM is held across the wait, so the future can be a `Suspend`'s.
pub async fn load(href: &'static str) {
    if let Some(settled) = link(href) {
        let _ = settled.await;
    }
}

/// Adds the `<link>` for `href` if it is not there yet; what resolves once
/// it has settled, or `None` when there is nothing to wait for.
fn link(href: &'static str) -> Option<oneshot::Receiver<()>> {
    let document = web_sys::window()?.document()?;
    let existing = document
        .query_selector(&format!("link[{MARK}=\"{href}\"]"))
        .ok()
        .flatten();
    let link = match existing {
        Some(link) if link.has_attribute(SETTLED) => return None,
        // Linked by an earlier call that is still waiting: wait with it.
        Some(link) => link,
        None => {
            let link = document.create_element("link").ok()?;
            let head = document.query_selector("head").ok().flatten()?;
            let _ = link.set_attribute("rel", "stylesheet");
            let _ = link.set_attribute("href", href);
            let _ = link.set_attribute(MARK, href);
            head.append_child(&link).ok()?;
            link
        }
    };
    Some(when_settled(&link))
}

/// Resolves when `link` fires load or error, marking it settled. The
/// listener is handed to JavaScript, which keeps it as long as the link.
fn when_settled(link: &Element) -> oneshot::Receiver<()> {
    let (sender, receiver) = oneshot::channel::<()>();
    let sender = Rc::new(RefCell::new(Some(sender)));
    let marked = link.clone();
    let on_settle = Closure::<dyn FnMut()>::new(move || {
        let _ = marked.set_attribute(SETTLED, "");
        if let Some(sender) = sender.borrow_mut().take() {
            let _ = sender.send(());
        }
    })
    .into_js_value();
    for event in ["load", "error"] {
        let _ = link.add_event_listener_with_callback(event, on_settle.unchecked_ref());
    }
    receiver
}
