//! A cancel signal that any number of awaits can watch at once.
//!
//! Cloning shares the signal. `cancel()` wakes every waiter; a waiter created
//! after cancellation resolves immediately.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

#[derive(Clone, Default)]
pub struct CancelToken {
    state: Rc<RefCell<State>>,
}

#[derive(Default)]
struct State {
    cancelled: bool,
    /// The signal that pressed Stop ("SIGTERM"), when a process got one
    /// rather than a person pressing the button.
    signal: Option<String>,
    wakers: Vec<Waker>,
}

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        let wakers = {
            let mut state = self.state.borrow_mut();
            state.cancelled = true;
            std::mem::take(&mut state.wakers)
        };
        for waker in wakers {
            waker.wake();
        }
    }

    /// Stop pressed by a signal the process received: the run's reason
    /// names it instead of "the user".
    pub fn cancel_by_signal(&self, signal: &str) {
        self.state.borrow_mut().signal = Some(signal.to_string());
        self.cancel();
    }

    /// The signal that pressed Stop, if one did.
    pub fn signal(&self) -> Option<String> {
        self.state.borrow().signal.clone()
    }

    pub fn is_cancelled(&self) -> bool {
        self.state.borrow().cancelled
    }

    /// Presses Stop after `ms` of `runtime`'s clock, as a person would:
    /// run it beside the run (`futures::join!`). `None` never presses it.
    pub fn cancel_after(
        &self,
        runtime: &dyn crate::runtime::Runtime,
        ms: Option<u64>,
    ) -> futures::future::LocalBoxFuture<'static, ()> {
        let Some(ms) = ms else {
            return Box::pin(std::future::ready(()));
        };
        let (sleep, token) = (runtime.sleep(ms), self.clone());
        Box::pin(async move {
            sleep.await;
            token.cancel();
        })
    }

    /// Resolves once `cancel()` has been called.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled {
            state: self.state.clone(),
        }
    }
}

pub struct Cancelled {
    state: Rc<RefCell<State>>,
}

impl Future for Cancelled {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut state = self.state.borrow_mut();
        if state.cancelled {
            return Poll::Ready(());
        }
        if !state.wakers.iter().any(|w| w.will_wake(cx.waker())) {
            state.wakers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}
