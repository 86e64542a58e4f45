//! The protocol checker, live: after every model request of the run in
//! view, the checker runs on the history for all three providers, and each
//! turn card shows the rejections placed at its turn (`wire::rejections`).
//!
//! The check runs in a split module (the three request builders and the
//! rules are not in the first paint), once per new request rather than per
//! event, and a newer check replaces an older one that is still on its way.
//! While a run streams, checks come at most every `LIVE_CHECK_GAP_MS`: a
//! scripted run sends a request a frame or faster, and checking the whole
//! history at each one held the first frames of a long run for over 100 ms.

use gloo_timers::future::TimeoutFuture;
use harness::event::{EventKind, RunEvent, Status};
use harness::wire::{Rejection, RequestShape};
use leptos::prelude::*;

use crate::browser::runner::Generation;
use crate::lazy;
use crate::run::controller::Controller;

/// Past this many requests a run is checked only when it ends: each check
/// reads the whole history, so checking every turn of a 10,000-turn run
/// would cost the square of its length while it streams.
pub const LIVE_UP_TO_REQUESTS: usize = 200;

/// The longest run checked at all. The check is linear (a 1,000-turn run
/// takes about 30 ms natively, two to three times that in the page), but it
/// runs on the page's thread in one go, right as the banner is painted, and
/// a frame held for longer than that is a visible freeze.
pub const CHECKED_UP_TO_REQUESTS: usize = 500;

/// The least time between two checks while a run goes on. The newest
/// request's rejections reach its card at most this late; the check when
/// the run ends, or is held for a person, is never put off.
pub const LIVE_CHECK_GAP_MS: f64 = 250.0;

/// What the stop banner says of the protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum BannerVerdict {
    /// The run goes on, or the check of its whole history is on its way.
    Pending,
    /// Every violation of the whole run (empty: none).
    Checked(Vec<Rejection>),
    /// Longer than `CHECKED_UP_TO_REQUESTS`: not checked on the page.
    TooLong { requests: usize },
}

/// What the checker has said of the run in view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    /// The run it checked (`Controller::run_id`).
    pub run: u64,
    /// The system prompt and tools it checked with (a kept run's arrive
    /// a moment after its events).
    pub shape: RequestShape,
    /// The requests (first attempts) of the history it checked.
    pub requests: usize,
    /// Every violation, placed at the first turn whose request carried it.
    pub rejections: Vec<Rejection>,
    /// Who would refuse the history, in words (`refusal::would_refuse`).
    pub would_refuse: Option<String>,
}

#[derive(Clone, Copy)]
pub struct ProtocolWatch {
    checked: RwSignal<Checked>,
    /// The requests the run in view has sent so far.
    sent: RwSignal<usize>,
    running: ReadSignal<bool>,
}

impl ProtocolWatch {
    /// Made once by the root component; provided to the turn cards.
    pub fn new(controller: Controller) -> Self {
        let watch = ProtocolWatch {
            checked: RwSignal::new(Checked::default()),
            sent: RwSignal::new(0),
            running: controller.running(),
        };
        provide_context(watch);
        // A new attempt at each check asked for, so a slower, older answer
        // that lands after a newer one is dropped.
        let asked = Generation::new();
        let last_asked_ms = StoredValue::new(f64::NEG_INFINITY);
        let deferred = StoredValue::new(false);
        let events = controller.events();
        let running = controller.running();
        let run_id = controller.run_id();
        let shape = controller.wire_setup();
        // Checks the history in view now, unless it was checked as it is.
        let check_now = move || {
            let requests = events.with_untracked(|e| first_requests(e));
            let (shape, run) = (shape.get_untracked(), run_id.get_untracked());
            let done = watch
                .checked
                .with_untracked(|c| c.run == run && c.requests == requests && c.shape == shape);
            if done || requests == 0 {
                return;
            }
            let ask = asked.next();
            last_asked_ms.set_value(js_sys::Date::now());
            let events = events.get_untracked();
            crate::browser::runner::start(async move {
                let (rejections, would_refuse) = lazy::rejections(events, shape.clone()).await;
                if ask.is_current() {
                    watch.checked.set(Checked {
                        run,
                        shape,
                        requests,
                        rejections,
                        would_refuse,
                    });
                }
            });
        };
        Effect::new(move |_| {
            let requests = events.with(|e| first_requests(e));
            watch.sent.set(requests);
            let streaming = running.get();
            let live = requests <= LIVE_UP_TO_REQUESTS;
            let last = !streaming && requests <= CHECKED_UP_TO_REQUESTS;
            // Tracked: a new system prompt or tool list is checked again.
            shape.track();
            run_id.track();
            if requests == 0 {
                watch.checked.set(Checked::default());
                return;
            }
            if !(live || last) {
                return;
            }
            let since = js_sys::Date::now() - last_asked_ms.get_value();
            if !streaming || since >= LIVE_CHECK_GAP_MS {
                check_now();
            } else if !deferred.get_value() {
                // The requests sent until then are checked in one go.
                deferred.set_value(true);
                crate::browser::runner::start(async move {
                    TimeoutFuture::new((LIVE_CHECK_GAP_MS - since).ceil() as u32).await;
                    deferred.set_value(false);
                    let still_live =
                        events.with_untracked(|e| first_requests(e)) <= LIVE_UP_TO_REQUESTS;
                    if running.get_untracked() && still_live {
                        check_now();
                    }
                });
            }
        });
        watch
    }

    /// The verdict on the whole run, once it has ended and been checked.
    pub fn banner_verdict(&self) -> BannerVerdict {
        let requests = self.sent.get();
        if self.running.get() {
            return BannerVerdict::Pending;
        }
        if requests > CHECKED_UP_TO_REQUESTS {
            return BannerVerdict::TooLong { requests };
        }
        self.checked.with(|c| {
            if c.requests == requests {
                BannerVerdict::Checked(c.rejections.clone())
            } else {
                BannerVerdict::Pending
            }
        })
    }

    /// "but Anthropic Messages would refuse turn 2", when the run in view
    /// ended `status` (`done`) with requests a provider would refuse: what
    /// the header and the loop diagram's exit say beside a `done`, from the
    /// banner's own verdict. `None` until that verdict is in, and for a run
    /// no provider would refuse.
    pub fn done_but_refused(&self, status: Status) -> Option<String> {
        if status != Status::Done {
            return None;
        }
        match self.banner_verdict() {
            // The words were made with the verdict, in the checker's module.
            BannerVerdict::Checked(_) => self
                .checked
                .with(|c| c.would_refuse.as_ref().map(|words| format!("but {words}"))),
            BannerVerdict::Pending | BannerVerdict::TooLong { .. } => None,
        }
    }

    /// The rejections placed at `turn`'s request.
    pub fn at_turn(&self, turn: u32) -> Vec<Rejection> {
        self.checked.with(|c| {
            c.rejections
                .iter()
                .filter(|r| r.turn == turn)
                .cloned()
                .collect()
        })
    }
}

/// How many model requests `events` sent, retries not counted.
fn first_requests(events: &[RunEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelRequest { attempt: 1, .. }))
        .count()
}
