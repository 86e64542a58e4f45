//! The loop drawn full screen on a phone goes full screen itself (the
//! panel, not the whole page) and, where the device allows it, turns the
//! screen to landscape, where the wide drawing has more room. A page can
//! lock the orientation only in full screen and only on some devices
//! (https://developer.mozilla.org/en-US/docs/Web/API/ScreenOrientation/lock,
//! https://w3c.github.io/screen-orientation/#lock-method): a refusal of
//! either is no error to show, the drawing scrolls instead. Closing gives
//! both back.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Asks for `panel` full screen, then for landscape; refusals pass quietly.
/// Called from the press that opens it: a browser grants full screen only
/// to a person's gesture.
pub fn enter(panel: &web_sys::Element) {
    let Some(asked) = call(panel, "requestFullscreen", None) else {
        return;
    };
    crate::browser::runner::start(async move {
        if JsFuture::from(asked).await.is_err() {
            return;
        }
        if let Some(locked) = orientation().and_then(|o| call(&o, "lock", Some("landscape".into())))
        {
            let _ = JsFuture::from(locked).await;
        }
    });
}

/// Gives the orientation back and leaves full screen.
pub fn leave() {
    if let Some(orientation) = orientation() {
        let _ = call(&orientation, "unlock", None);
    }
    crate::browser::page::leave_full_screen();
}

/// `screen.orientation`, where the browser has it.
fn orientation() -> Option<JsValue> {
    let window: JsValue = web_sys::window()?.into();
    let screen = Reflect::get(&window, &"screen".into()).ok()?;
    Reflect::get(&screen, &"orientation".into())
        .ok()
        .filter(|o| o.is_object())
}

/// Calls `target[method](argument)`; the promise it returned, if any. A
/// method the browser lacks, or one that throws, gives `None`.
fn call(target: &JsValue, method: &str, argument: Option<JsValue>) -> Option<Promise> {
    let function = Reflect::get(target, &method.into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    let arguments = Array::new();
    if let Some(argument) = argument {
        arguments.push(&argument);
    }
    function
        .apply(target, &arguments)
        .ok()?
        .dyn_into::<Promise>()
        .ok()
}
