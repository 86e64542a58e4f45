//! Panic safety: a Rust panic in the page shows an error panel that says what
//! happened and offers the trace of the run so far as a JSONL download,
//! instead of leaving a page that silently stopped responding.
//!
//! Invariants:
//! - The hook never panics (a panic inside a panic hook aborts before the
//!   panel is drawn): every DOM call's error is ignored, and the trace is
//!   read with `try_with_untracked`, which gives `None` for a disposed log.
//!   The panel is on the page before the trace is read, so even a log that
//!   cannot be read (a panic in the middle of writing it, which only an
//!   allocation failure could cause) leaves the explanation and Reload.
//! - The panel is built with plain `web_sys` DOM calls, not Leptos: after a
//!   panic the reactive runtime's state cannot be trusted, and in release
//!   (`panic = "abort"`) the module traps right after the hook returns.
//! - The panel needs no Rust after it is drawn: the download is a `blob:`
//!   link made in the hook and Reload is a plain link, so both work after
//!   the trap.
//! - Only the first panic draws a panel; text goes in as text nodes, never
//!   as HTML.

use std::cell::Cell;
use std::panic::PanicHookInfo;

use harness::event::RunEvent;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Writes a run log as JSON Lines (`harness::event::to_jsonl`).
type TraceWriter = fn(&[RunEvent]) -> String;

thread_local! {
    /// The run log the panel offers; set by whoever starts runs.
    static TRACE: Cell<Option<ReadSignal<Vec<RunEvent>>>> = const { Cell::new(None) };
    /// Writes the log as JSON Lines: handed in by the run engine (a split
    /// module), so the first paint carries no event serializer. A log has
    /// events only once the engine has run or read something.
    static WRITER: Cell<Option<TraceWriter>> = const { Cell::new(None) };
    static SHOWN: Cell<bool> = const { Cell::new(false) };
}

/// The name of the test trigger on `window` (see `install_test_trigger`).
pub const TEST_TRIGGER: &str = "__agentLoopTestPanic";

/// Installs the hook: the message goes to the console (as before) and the
/// panel onto the page.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_panel(info);
    }));
    install_test_trigger();
}

/// Names the run log the panel offers as a download: the controller's log,
/// which every run, opened record and import writes to. Call it once.
pub fn keep_trace(events: ReadSignal<Vec<RunEvent>>) {
    TRACE.with(|trace| trace.set(Some(events)));
}

/// How the panel writes the log it offers (`harness::event::to_jsonl`);
/// the engine calls this when it is first used.
pub fn write_traces_with(writer: TraceWriter) {
    // Through `black_box`: the optimizer, which sees the whole program
    // before it is split, would otherwise find that the one writer ever
    // stored is `to_jsonl` and call it straight from the hook, pulling the
    // event serializer (about 5 KiB brotli) into the first paint.
    WRITER.with(|w| w.set(Some(std::hint::black_box(writer))));
}

/// TEST TRIGGER, not a feature: `window.__agentLoopTestPanic()` panics on
/// the next task, so the browser tests can check the panel. It is harmless
/// (a panic is what it tests) and does nothing until called.
fn install_test_trigger() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let trigger = Closure::<dyn Fn()>::new(|| {
        // On the next task, so the caller's `evaluate` returns first.
        let panic_now = Closure::once_into_js(deliberate_panic);
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback(panic_now.unchecked_ref());
        }
    });
    let _ = js_sys::Reflect::set(&window, &TEST_TRIGGER.into(), trigger.as_ref());
    // The page lives as long as the trigger does.
    trigger.forget();
}

fn deliberate_panic() {
    panic!("deliberate test panic from window.{TEST_TRIGGER}()");
}

/// What the panel says the run log holds: the JSONL and its event count.
fn trace_so_far() -> Option<(String, usize)> {
    let events = TRACE.with(Cell::get)?;
    let write = WRITER.with(Cell::get)?;
    events.try_with_untracked(|events| (write(events), events.len()))
}

fn show_panel(info: &PanicHookInfo<'_>) {
    if SHOWN.with(|shown| shown.replace(true)) {
        return;
    }
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else {
        return;
    };
    let what = panic_text(info);
    let Ok(panel) = document.create_element("section") else {
        return;
    };
    let _ = panel.set_attribute("class", "panic-panel");
    let _ = panel.set_attribute("role", "alert");
    let _ = panel.set_attribute("aria-label", "The playground crashed");
    // On the page first: if reading the trace below fails, the panel still shows.
    let _ = body.prepend_with_node_1(&panel);

    append(&document, &panel, "h2", "The playground crashed");
    append(
        &document,
        &panel,
        "p",
        "A bug in the playground stopped it (a Rust panic), so the page no longer responds. \
         Your scenario is autosaved; reload to start again.",
    );
    append(&document, &panel, "pre", &format!("What happened: {what}"));

    match trace_so_far() {
        Some((jsonl, count)) if count > 0 => {
            append(
                &document,
                &panel,
                "p",
                &format!(
                    "The trace of the run so far ({count} events) is kept: download it to \
                     inspect it, replay it or attach it to a bug report."
                ),
            );
            if let Some(link) = download_link(&document, &jsonl) {
                let _ = panel.append_child(&link);
            }
        }
        Some(_) | None => {
            append(
                &document,
                &panel,
                "p",
                "There is no run trace to keep: no run was started with Run or Step.",
            );
        }
    }
    if let Ok(reload) = document.create_element("a") {
        let path = web_sys::window()
            .and_then(|w| w.location().pathname().ok())
            .unwrap_or_else(|| "/".to_string());
        let _ = reload.set_attribute("href", &path);
        let _ = reload.set_attribute("class", "panic-reload");
        reload.set_text_content(Some("Reload the playground"));
        let _ = panel.append_child(&reload);
    }
}

/// "message (at file:line:column)".
fn panic_text(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    match info.location() {
        Some(at) => format!("{message} (at {}:{}:{})", at.file(), at.line(), at.column()),
        None => message,
    }
}

fn append(document: &web_sys::Document, parent: &web_sys::Element, tag: &str, text: &str) {
    if let Ok(element) = document.create_element(tag) {
        element.set_text_content(Some(text));
        let _ = parent.append_child(&element);
    }
}

/// A link that saves `jsonl` as `trace-so-far.jsonl`, with no Rust behind it.
fn download_link(document: &web_sys::Document, jsonl: &str) -> Option<web_sys::Element> {
    let parts = js_sys::Array::of1(&JsValue::from_str(jsonl));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/jsonl");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let link = document.create_element("a").ok()?;
    let _ = link.set_attribute("href", &url);
    let _ = link.set_attribute("download", "trace-so-far.jsonl");
    let _ = link.set_attribute("class", "panic-download");
    link.set_text_content(Some("Download the trace so far (JSONL)"));
    Some(link)
}
