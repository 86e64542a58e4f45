//! `BrowserRuntime`: the harness's clock and timers on browser APIs.
//!
//! `now_ms` is `performance.now()` (monotonic, so deadlines are immune to
//! wall-clock changes); `unix_ms` is `Date.now()`; `sleep` is a `setTimeout`
//! future that clears its timer when dropped, which is how the driver's races
//! cancel the losing timer. `HostYield` shares the page with a running run.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use harness::runtime::Runtime;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

/// How long a run may hold the page, its steps and the rendering of their
/// events together, before a new browser task lets the browser paint and deliver
/// input such as a click on Stop.
const SLICE_MS: f64 = 8.0;

/// Hands the page back between a run's steps (`Stepper::yield_to_host`).
///
/// A scripted run's futures are all ready at once, and the page renders a
/// step's events in effects that run only when the run's task gives way. So
/// after every step the run goes to the back of the task queue, behind those
/// effects: the time counted against `SLICE_MS` then includes rendering, and
/// no slice grows with the number of events it rendered. Once a slice is
/// spent, the run continues in a new browser task (`NextTask`), which a
/// queued task never does: in between, the browser paints and handles input.
pub struct HostYield {
    clock: Rc<dyn Runtime>,
    slice_started_ms: Rc<Cell<f64>>,
    next_task: Option<NextTask>,
}

impl HostYield {
    pub fn new(clock: Rc<dyn Runtime>) -> Self {
        HostYield {
            slice_started_ms: Rc::new(Cell::new(clock.now_ms())),
            clock,
            next_task: NextTask::new(),
        }
    }

    pub fn next(&self) -> LocalBoxFuture<'static, ()> {
        if self.clock.now_ms() - self.slice_started_ms.get() < SLICE_MS {
            return Box::pin(BackOfQueue { queued: false });
        }
        let clock = self.clock.clone();
        let slice_started_ms = self.slice_started_ms.clone();
        let next_task = self.next_task.as_ref().map(NextTask::wait);
        Box::pin(async move {
            match next_task {
                Some(next_task) => next_task.await,
                None => TimeoutFuture::new(0).await,
            }
            slice_started_ms.set(clock.now_ms());
        })
    }
}

/// A new browser task, at once: a message posted to ourselves. A
/// `setTimeout(0)` chained from timer to timer waits at least 4 ms from the
/// fifth on (the HTML standard's clamp), which left a long run idle a third
/// of the time; a message waits for nothing but the browser's own work
/// (input and painting come first).
struct NextTask {
    port: web_sys::MessagePort,
    /// The port the message arrives at, held so it lives as long as we do.
    receiver: web_sys::MessagePort,
    /// Resolved by the message; one at a time, since a run waits for one.
    waiting: Rc<RefCell<Option<oneshot::Sender<()>>>>,
    /// Kept alive with the port it answers.
    _on_message: Closure<dyn FnMut()>,
}

impl NextTask {
    /// `None` where there is no `MessageChannel` (then a timer does).
    fn new() -> Option<Self> {
        let channel = web_sys::MessageChannel::new().ok()?;
        let waiting: Rc<RefCell<Option<oneshot::Sender<()>>>> = Rc::default();
        let resolve = waiting.clone();
        let on_message = Closure::<dyn FnMut()>::new(move || {
            if let Some(sender) = resolve.borrow_mut().take() {
                let _ = sender.send(());
            }
        });
        let receiver = channel.port1();
        receiver.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Some(NextTask {
            port: channel.port2(),
            receiver,
            waiting,
            _on_message: on_message,
        })
    }

    fn wait(&self) -> impl Future<Output = ()> + 'static {
        let (sender, receiver) = oneshot::channel();
        *self.waiting.borrow_mut() = Some(sender);
        let _ = self.port.post_message(&JsValue::NULL);
        async move {
            // A dropped sender means the run ended; either way, go on.
            let _ = receiver.await;
        }
    }
}

impl Drop for NextTask {
    /// A message still on its way must find no handler: the closure it
    /// would call is dropped with us.
    fn drop(&mut self) {
        self.receiver.set_onmessage(None);
        self.receiver.close();
        self.port.close();
    }
}

/// Pending once, waking itself at once: the task is queued again behind the
/// tasks the step woke (the page's render effects), in the same browser task.
struct BackOfQueue {
    queued: bool,
}

impl Future for BackOfQueue {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.queued {
            return Poll::Ready(());
        }
        self.queued = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
