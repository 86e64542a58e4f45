//! `FetchTransport`: the harness's HTTP `Transport` on the browser's `fetch`
//! (through `gloo-net`), with the response body read as it arrives (so
//! streamed answers stream).
//!
//! Dropping the request future or the body stream aborts the request
//! (`AbortController`), which is how Stop and the run's deadline cancel a
//! call in flight. Only headers the server exposes to scripts are visible
//! (CORS), so `retry-after` is read when the server lists it.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use futures::StreamExt;
use gloo_net::http::{Headers, Method, RequestBuilder};
use harness::provider::{HttpRequest, HttpResponse, Transport};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub struct FetchTransport;

impl Transport for FetchTransport {
    fn send(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, String>> {
        Box::pin(send(request))
    }

    fn unreachable_advice(&self) -> &'static str {
        // Offline, the page still loads (its service worker has it) but no
        // request to a server can go out: say that, not "check CORS".
        if !crate::browser::offline::is_online() {
            return "This browser is offline: a real provider needs the network (the built-in scenarios with the scripted model run offline)";
        }
        "Check the base URL; in a browser this is often CORS: the server must allow this page's origin"
    }
}

/// Aborts the request when the last holder (the pending fetch, or the body
/// being read) is dropped.
struct AbortOnDrop(web_sys::AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn js_text(value: JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}

/// gloo-net's error as the sentence the page showed before it: the
/// browser's message alone ("Failed to fetch"), without the error's name.
pub(crate) fn net_text(error: gloo_net::Error) -> String {
    match error {
        gloo_net::Error::JsError(e) => e.message,
        // The crate's own and (with the `json` feature another crate in the
        // build turns on) serde's errors: their text is already a sentence.
        other => other.to_string(),
    }
}

pub(crate) async fn send(request: HttpRequest) -> Result<HttpResponse, String> {
    send_as(Method::POST, request).await
}

/// `send` with another method; a GET sends no body.
pub(crate) async fn send_as(method: Method, request: HttpRequest) -> Result<HttpResponse, String> {
    let abort = Rc::new(AbortOnDrop(
        web_sys::AbortController::new().map_err(js_text)?,
    ));
    // Built here rather than with `RequestBuilder::header`, which throws
    // (past any `Result`) on a name or value the browser refuses, such as
    // an API key pasted with a line break.
    let headers = web_sys::Headers::new().map_err(js_text)?;
    for (name, value) in &request.headers {
        headers.set(name, value).map_err(js_text)?;
    }
    let builder = RequestBuilder::new(&request.url)
        .method(method.clone())
        .headers(Headers::from_raw(headers))
        .abort_signal(Some(&abort.0.signal()));
    let fetch_request = if method == Method::GET {
        builder.build()
    } else {
        builder.body(request.body)
    }
    .map_err(net_text)?;
    let response = fetch_request.send().await.map_err(net_text)?;
    let status = response.status();
    let header_list = response
        .headers()
        .entries()
        .map(|(name, value)| (name.to_ascii_lowercase(), value))
        .collect();
    let body = match response.body() {
        None => futures::stream::empty().boxed_local(),
        Some(stream) => {
            let reader: web_sys::ReadableStreamDefaultReader = stream
                .get_reader()
                .dyn_into()
                .map_err(|o| js_text(o.into()))?;
            futures::stream::unfold(Some((reader, abort)), |state| async move {
                let (reader, abort) = state?;
                let read = match JsFuture::from(reader.read()).await {
                    Ok(read) => read,
                    Err(e) => return Some((Err(js_text(e)), None)),
                };
                let done = Reflect::get(&read, &JsValue::from_str("done"))
                    .ok()
                    .and_then(|d| d.as_bool())
                    .unwrap_or(true);
                if done {
                    return None;
                }
                let chunk = Reflect::get(&read, &JsValue::from_str("value"))
                    .ok()
                    .and_then(|v| v.dyn_into::<Uint8Array>().ok())
                    .map(|bytes| bytes.to_vec())
                    .unwrap_or_default();
                Some((Ok(chunk), Some((reader, abort))))
            })
            .boxed_local()
        }
    };
    Ok(HttpResponse {
        status,
        headers: header_list,
        body,
    })
}
