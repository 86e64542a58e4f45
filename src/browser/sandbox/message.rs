//! The messages between the page and the sandbox iframe, as typed values.
//! They cross into and out of JavaScript through `serde-wasm-bindgen`, so the
//! field names `static/sandbox/sandbox.js` reads and writes are written once,
//! here, and a message of the wrong shape is a value we can answer, not a
//! field that reads as `undefined`.

use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// What the page asks of the sandbox.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ToSandbox {
    /// Run a tool's body with these arguments, for at most `timeout_ms`.
    Run {
        id: u64,
        source: String,
        /// As JSON text, so the worker sees exactly the validated arguments.
        args: String,
        #[serde(rename = "timeoutMs")]
        timeout_ms: u64,
    },
    /// Nobody waits for this call any more: terminate its worker.
    Cancel { id: u64 },
}

/// What the sandbox tells the page.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum FromSandbox {
    /// Loaded and listening; sent once.
    Ready,
    /// A call's end.
    Result(CallEnd),
}

/// A call's end as the sandbox sends it. It fills in only the fields that
/// apply, so a missing one reads as "no".
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CallEnd {
    pub id: u64,
    #[serde(default)]
    ok: bool,
    /// The tool's result, as JSON text (when `ok`).
    #[serde(default)]
    json: Option<String>,
    /// Why the tool failed (when not `ok` and not timed out).
    #[serde(default)]
    error: Option<String>,
    #[serde(default, rename = "timedOut")]
    timed_out: bool,
}

/// How a call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// The tool returned this JSON text.
    Returned(String),
    TimedOut,
    /// The tool threw, or its worker failed; the text says how.
    Failed(String),
}

impl CallEnd {
    pub fn ending(self) -> Ending {
        if self.ok {
            Ending::Returned(self.json.unwrap_or_default())
        } else if self.timed_out {
            Ending::TimedOut
        } else {
            Ending::Failed(
                self.error
                    .unwrap_or_else(|| "the sandbox gave no reason".to_string()),
            )
        }
    }
}

impl ToSandbox {
    /// The message as a JavaScript object for `postMessage`.
    pub fn to_js(&self) -> Result<JsValue, String> {
        serde_wasm_bindgen::to_value(self)
            .map_err(|e| format!("could not build the sandbox message: {e}"))
    }
}

impl FromSandbox {
    /// A message from the sandbox's window, or why it is not one we know.
    pub fn from_js(data: JsValue) -> Result<FromSandbox, String> {
        serde_wasm_bindgen::from_value(data).map_err(|e| e.to_string())
    }
}
