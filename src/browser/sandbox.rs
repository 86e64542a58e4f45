//! `SandboxHost`: the harness's `ScriptHost` in the browser. User-written
//! JavaScript tools run in `static/sandbox/sandbox.js` (served as
//! `sandbox/sandbox.js`), inside a hidden `<iframe sandbox="allow-scripts">`
//! with an opaque origin (no access to this page, its storage or cookies)
//! and its own CSP with no `connect-src` (no network), which runs each call
//! in a fresh Web Worker. No user code runs on this page's thread, so an
//! endless loop leaves the page responsive.
//!
//! The iframe's document is built here, around the script this page
//! fetched, and loaded from a `blob:` URL: a browser never lets a service
//! worker serve a sandboxed iframe (w3c/ServiceWorker#1727), so an iframe
//! loaded from the server would not load offline, while this page's own
//! fetch of the script is served from the service worker's cache. A `blob:`
//! document keeps this page's Content-Security-Policy as well as its own, so
//! the page's policy allows this one inline script by its hash
//! (`scripts/csp-hash.mjs` adds the hash of `sandbox/sandbox.js` at build
//! time), and nothing else inline.
//!
//! One iframe serves the whole page; it is created on the first call. Calls
//! are matched to replies by id, and only messages whose `source` is that
//! iframe's window are read (they arrive with origin "null"). A call is
//! stopped two ways: the iframe terminates the worker at the timeout and
//! answers "timed out", and dropping the call's future (the driver's own
//! timeout, the run's deadline, Stop) tells the iframe to terminate it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use futures::future::{self, Either, LocalBoxFuture};
use gloo_timers::future::TimeoutFuture;
use harness::script::{ScriptError, ScriptHost};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub mod message;

use message::{Ending, FromSandbox, ToSandbox};

/// Where Trunk copies `static/sandbox/` (index.html's `copy-dir` link).
const SANDBOX_URL: &str = "sandbox/sandbox.js";

/// The sandbox's document, around its script. Its own policy is the network
/// guard: no connect-src (default 'none') means the tool workers it creates,
/// which inherit it, can fetch nothing. Its inline script is allowed here by
/// 'unsafe-inline' and, in the page's policy (which a `blob:` document also
/// keeps), by its hash: no other inline script can run in it.
const PAGE_BEFORE_SCRIPT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; worker-src blob:\">\
<title>JavaScript tool sandbox</title><script>";
const PAGE_AFTER_SCRIPT: &str = "</script></head><body></body></html>";

/// How long past its own timeout the sandbox may take to answer before the
/// call fails as "no answer".
const NO_ANSWER_GRACE_MS: u64 = 2_000;

/// How long after the iframe's `load` its "ready" may still arrive (both are
/// queued tasks, in no promised order); later, the sandbox did not start.
const READY_AFTER_LOAD_MS: u32 = 1_000;

#[wasm_bindgen]
extern "C" {
    /// A window that may be cross-origin: only `postMessage` is used on it.
    type MessageTarget;
    #[wasm_bindgen(method, catch, js_name = postMessage)]
    fn post_message(this: &MessageTarget, message: &JsValue, target: &str) -> Result<(), JsValue>;

    type FrameElement;
    #[wasm_bindgen(method, getter, js_name = contentWindow)]
    fn content_window(this: &FrameElement) -> JsValue;

    type WindowMessage;
    #[wasm_bindgen(method, getter)]
    fn data(this: &WindowMessage) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn source(this: &WindowMessage) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn origin(this: &WindowMessage) -> String;
}

thread_local! {
    static HOST: Rc<SandboxHost> = Rc::new(SandboxHost::default());
}

/// The page's one sandbox host, for `RunOptions::scripts`.
pub fn host() -> Rc<dyn ScriptHost> {
    HOST.with(|host| host.clone() as Rc<dyn ScriptHost>)
}

#[derive(Default)]
pub struct SandboxHost {
    state: Rc<RefCell<State>>,
}

type Reply = Result<Value, ScriptError>;

#[derive(Default)]
struct State {
    frame: Option<Frame>,
    /// The sandbox said it is ready; until then messages wait in `queued`.
    ready: bool,
    queued: Vec<(u64, JsValue)>,
    waiting: HashMap<u64, oneshot::Sender<Reply>>,
    next_id: u64,
    /// Why the sandbox cannot run anything (its page loaded without starting).
    broken: Option<String>,
}

struct Frame {
    element: web_sys::Element,
    /// Kept alive as long as the host (the page): they read the sandbox's
    /// replies and notice a sandbox page that loads but never starts.
    _listener: Closure<dyn FnMut(JsValue)>,
    _on_load: Closure<dyn FnMut(JsValue)>,
}

impl Frame {
    fn window(&self) -> JsValue {
        self.element
            .unchecked_ref::<FrameElement>()
            .content_window()
    }
}

impl ScriptHost for SandboxHost {
    fn run(&self, source: &str, args: Value, timeout_ms: u64) -> LocalBoxFuture<'static, Reply> {
        let (sender, receiver) = oneshot::channel();
        let id = {
            let mut state = self.state.borrow_mut();
            state.next_id += 1;
            state.next_id
        };
        if let Err(why) = start_frame(&self.state) {
            return Box::pin(future::ready(Err(ScriptError::Failed(why))));
        }
        if let Some(why) = self.state.borrow().broken.clone() {
            return Box::pin(future::ready(Err(ScriptError::Failed(why))));
        }
        let message = match (ToSandbox::Run {
            id,
            source: source.to_string(),
            args: args.to_string(),
            timeout_ms,
        })
        .to_js()
        {
            Ok(message) => message,
            Err(why) => return Box::pin(future::ready(Err(ScriptError::Failed(why)))),
        };
        self.state.borrow_mut().waiting.insert(id, sender);
        post(&self.state, id, message);
        let guard = StopOnDrop {
            state: Rc::downgrade(&self.state),
            id,
        };
        let grace = timeout_ms
            .saturating_add(NO_ANSWER_GRACE_MS)
            .min(i32::MAX as u64) as u32;
        Box::pin(async move {
            let _guard = guard;
            match future::select(receiver, TimeoutFuture::new(grace)).await {
                Either::Left((Ok(reply), _)) => reply,
                Either::Left((Err(oneshot::Canceled), _)) => Err(ScriptError::Failed(
                    "the JavaScript sandbox dropped the call".to_string(),
                )),
                Either::Right(_) => Err(ScriptError::Failed(format!(
                    "the JavaScript sandbox ({SANDBOX_URL}) did not answer within {grace} ms; it may have failed to load"
                ))),
            }
        })
    }
}

/// Tells the sandbox to terminate a call nobody waits for any more.
struct StopOnDrop {
    state: Weak<RefCell<State>>,
    id: u64,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let Some(state) = self.state.upgrade() else {
            return;
        };
        let still_running = state.borrow_mut().waiting.remove(&self.id).is_some();
        if !still_running {
            return;
        }
        let mut s = state.borrow_mut();
        let before = s.queued.len();
        s.queued.retain(|(id, _)| *id != self.id);
        let never_sent = s.queued.len() < before;
        drop(s);
        if !never_sent {
            if let Ok(message) = (ToSandbox::Cancel { id: self.id }).to_js() {
                post(&state, self.id, message);
            }
        }
    }
}

/// Sends `message` to the sandbox, or queues it until the sandbox is ready.
fn post(state: &Rc<RefCell<State>>, id: u64, message: JsValue) {
    let mut s = state.borrow_mut();
    let window = match (&s.frame, s.ready) {
        (Some(frame), true) => frame.window(),
        _ => {
            s.queued.push((id, message));
            return;
        }
    };
    drop(s);
    // "*": the sandbox's origin is opaque, so it cannot be named; the iframe
    // is ours (its src is fixed) and the message is the user's own tool.
    if let Err(e) = window
        .unchecked_ref::<MessageTarget>()
        .post_message(&message, "*")
    {
        answer(
            state,
            id,
            Err(ScriptError::Failed(format!(
                "could not reach the JavaScript sandbox: {e:?}"
            ))),
        );
    }
}

fn answer(state: &Rc<RefCell<State>>, id: u64, reply: Reply) {
    let sender = state.borrow_mut().waiting.remove(&id);
    if let Some(sender) = sender {
        // The caller may have stopped waiting; then nobody needs the reply.
        let _ = sender.send(reply);
    }
}

/// Creates the hidden iframe and its message listener, once.
fn start_frame(state: &Rc<RefCell<State>>) -> Result<(), String> {
    if state.borrow().frame.is_some() {
        return Ok(());
    }
    let window = web_sys::window().ok_or("JavaScript tools need a browser window")?;
    let document = window
        .document()
        .ok_or("JavaScript tools need a document")?;
    let body = document.body().ok_or("JavaScript tools need a page body")?;
    let weak = Rc::downgrade(state);
    let listener = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        if let Some(state) = weak.upgrade() {
            on_message(&state, event.unchecked_into());
        }
    });
    // Listening before the iframe exists, so its "ready" cannot be missed.
    window
        .add_event_listener_with_callback("message", listener.as_ref().unchecked_ref())
        .map_err(|e| format!("could not listen to the JavaScript sandbox: {e:?}"))?;
    let element = document
        .create_element("iframe")
        .map_err(|e| format!("could not create the JavaScript sandbox: {e:?}"))?;
    for (name, value) in [
        // Scripts, and nothing else: no same-origin access, forms, popups or top navigation.
        ("sandbox", "allow-scripts"),
        ("title", "JavaScript tool sandbox"),
        ("hidden", ""),
        ("aria-hidden", "true"),
        ("class", "js-sandbox"),
    ] {
        element
            .set_attribute(name, value)
            .map_err(|e| format!("could not set up the JavaScript sandbox: {e:?}"))?;
    }
    let weak = Rc::downgrade(state);
    let on_load = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
        let weak = weak.clone();
        crate::browser::runner::start(async move {
            TimeoutFuture::new(READY_AFTER_LOAD_MS).await;
            if let Some(state) = weak.upgrade() {
                if !state.borrow().ready {
                    fail_all(
                        &state,
                        format!("the JavaScript sandbox ({SANDBOX_URL}) loaded but did not start; is static/sandbox/ deployed beside the page, as this build wrote it?"),
                    );
                }
            }
        });
    });
    element
        .add_event_listener_with_callback("load", on_load.as_ref().unchecked_ref())
        .map_err(|e| format!("could not watch the JavaScript sandbox load: {e:?}"))?;
    state.borrow_mut().frame = Some(Frame {
        element: element.clone(),
        _listener: listener,
        _on_load: on_load,
    });
    // The iframe is added with its document, once the script has arrived
    // (an iframe added without one would fire `load` for about:blank); calls
    // wait in `queued` until it says it is ready.
    let weak = Rc::downgrade(state);
    crate::browser::runner::start(async move {
        if let Err(why) = load_document(&element, &body).await {
            if let Some(state) = weak.upgrade() {
                fail_all(&state, why);
            }
        }
    });
    Ok(())
}

/// Fetches the sandbox's script (from the service worker's cache when there
/// is one) and adds the iframe with the document around it, from a `blob:`
/// URL. The URL is kept for the page's life: one small document, and no race
/// with the iframe's navigation.
async fn load_document(
    element: &web_sys::Element,
    body: &web_sys::HtmlElement,
) -> Result<(), String> {
    let cannot =
        |why: String| format!("the JavaScript sandbox ({SANDBOX_URL}) could not be loaded: {why}");
    let response = gloo_net::http::Request::get(SANDBOX_URL)
        .send()
        .await
        .map_err(|e| cannot(super::fetch::net_text(e)))?;
    if !response.ok() {
        return Err(cannot(format!(
            "HTTP {}; is static/sandbox/ deployed beside the page?",
            response.status()
        )));
    }
    let script = response
        .text()
        .await
        .map_err(|e| cannot(super::fetch::net_text(e)))?;
    // The script is a file of this build: a closing tag in it would end the element early.
    if script.contains("</script") {
        return Err(cannot("its text contains \"</script\"".to_string()));
    }
    let page =
        js_sys::Array::of1(&format!("{PAGE_BEFORE_SCRIPT}{script}{PAGE_AFTER_SCRIPT}").into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/html");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&page, &options)
        .map_err(|e| cannot(js_message(&e)))?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| cannot(js_message(&e)))?;
    element
        .set_attribute("src", &url)
        .map_err(|e| cannot(js_message(&e)))?;
    body.append_child(element)
        .map_err(|e| format!("could not add the JavaScript sandbox: {e:?}"))?;
    Ok(())
}

fn js_message(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map_or_else(|| format!("{value:?}"), |e| String::from(e.message()))
}

/// Marks the sandbox unusable and answers every call in flight with `why`.
fn fail_all(state: &Rc<RefCell<State>>, why: String) {
    let waiting = {
        let mut s = state.borrow_mut();
        s.broken = Some(why.clone());
        s.queued.clear();
        std::mem::take(&mut s.waiting)
    };
    for (_, sender) in waiting {
        let _ = sender.send(Err(ScriptError::Failed(why.clone())));
    }
}

fn on_message(state: &Rc<RefCell<State>>, event: WindowMessage) {
    let from_sandbox = state
        .borrow()
        .frame
        .as_ref()
        .is_some_and(|frame| event.source() == frame.window());
    // An opaque origin serialises as "null": anything else is not the sandbox.
    if !from_sandbox || event.origin() != "null" {
        return;
    }
    // A message of another shape cannot be matched to a call; the call's
    // own grace timeout answers it.
    let Ok(message) = FromSandbox::from_js(event.data()) else {
        return;
    };
    match message {
        FromSandbox::Ready => {
            let queued = {
                let mut s = state.borrow_mut();
                s.ready = true;
                std::mem::take(&mut s.queued)
            };
            for (id, message) in queued {
                post(state, id, message);
            }
        }
        FromSandbox::Result(end) => {
            let id = end.id;
            answer(state, id, reply_of(end.ending()));
        }
    }
}

/// The sandbox's ending as the harness's result.
fn reply_of(ending: Ending) -> Reply {
    match ending {
        Ending::Returned(json) => serde_json::from_str(&json)
            .map_err(|e| ScriptError::Failed(format!("the result is not JSON: {e}"))),
        Ending::TimedOut => Err(ScriptError::TimedOut),
        Ending::Failed(why) => Err(ScriptError::Failed(why)),
    }
}
