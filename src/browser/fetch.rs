//! `FetchTransport`: the harness's HTTP `Transport` on the browser's `fetch`,
//! with the response body read as it arrives (so streamed answers stream).
//!
//! Dropping the request future or the body stream aborts the request
//! (`AbortController`), which is how Stop and the run's deadline cancel a
//! call in flight. Only headers the server exposes to scripts are visible
//! (CORS), so `retry-after` is read when the server lists it.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use futures::StreamExt;
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

pub(crate) async fn send(request: HttpRequest) -> Result<HttpResponse, String> {
    send_as("POST", request).await
}

/// `send` with another method; a GET sends no body.
pub(crate) async fn send_as(method: &str, request: HttpRequest) -> Result<HttpResponse, String> {
    let window = web_sys::window().ok_or("fetch needs a window")?;
    let abort = Rc::new(AbortOnDrop(
        web_sys::AbortController::new().map_err(js_text)?,
    ));
    let headers = web_sys::Headers::new().map_err(js_text)?;
    for (name, value) in &request.headers {
        headers.set(name, value).map_err(js_text)?;
    }
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    init.set_headers(&headers);
    if method != "GET" {
        init.set_body(&JsValue::from_str(&request.body));
    }
    init.set_signal(Some(&abort.0.signal()));
    let fetch_request =
        web_sys::Request::new_with_str_and_init(&request.url, &init).map_err(js_text)?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_request(&fetch_request))
        .await
        .map_err(js_text)?
        .dyn_into()
        .map_err(js_text)?;
    let status = response.status();
    let mut header_list = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&response.headers()) {
        for entry in entries.flatten() {
            let pair = js_sys::Array::from(&entry);
            if let (Some(name), Some(value)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                header_list.push((name.to_ascii_lowercase(), value));
            }
        }
    }
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
