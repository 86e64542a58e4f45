//! `BrowserRuntime`: the harness's clock and timers on browser APIs.
//!
//! `now_ms` is `performance.now()` (monotonic, so deadlines are immune to
//! wall-clock changes); `unix_ms` is `Date.now()`; `sleep` is a `setTimeout`
//! future that clears its timer when dropped, which is how the driver's races
//! cancel the losing timer.

use futures::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use harness::runtime::Runtime;

/// The longest delay `setTimeout` honours; larger values overflow a signed
/// 32-bit integer and fire immediately, so they are clamped (about 24.8 days).
const MAX_TIMEOUT_MS: u64 = i32::MAX as u64;

pub struct BrowserRuntime {
    /// `None` only outside a window (e.g. a worker without `performance`).
    performance: Option<web_sys::Performance>,
}

impl BrowserRuntime {
    pub fn new() -> Self {
        BrowserRuntime {
            performance: web_sys::window().and_then(|w| w.performance()),
        }
    }
}

impl Default for BrowserRuntime {
    fn default() -> Self {
        Self::new()
    }
}

impl Runtime for BrowserRuntime {
    fn now_ms(&self) -> f64 {
        match &self.performance {
            Some(performance) => performance.now(),
            None => js_sys::Date::now(),
        }
    }

    fn unix_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        // Clamped, so the cast cannot truncate.
        let ms = ms.min(MAX_TIMEOUT_MS) as u32;
        Box::pin(TimeoutFuture::new(ms))
    }
}
