//! The live protocol check as a plain model: after each model request of
//! the run in view, the checker runs on the history for all three providers,
//! and each turn card shows the rejections placed at its turn
//! (`wire::rejections`); once the run ends, the stop banner says what the
//! whole history would meet.
//!
//! The model decides when a check is asked for and which answer counts. A
//! check is asked once per new request rather than per event; the newest
//! check asked is the only one whose answer is kept, so a slower, older
//! answer that lands after a newer one is dropped. While a run streams,
//! checks come at most every `LIVE_CHECK_GAP_MS`: a scripted run sends a
//! request a frame or faster, and checking the whole history at each one
//! held the first frames of a long run for over 100 ms.

use harness::event::{EventKind, RunEvent, Status};
use harness::wire::{Rejection, RequestShape};

use crate::update::Update;

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

impl Checked {
    /// The verdict on the whole run, once it has ended (`running` false)
    /// and this check is of all `sent` requests.
    pub fn banner_verdict(&self, sent: usize, running: bool) -> BannerVerdict {
        if running {
            BannerVerdict::Pending
        } else if sent > CHECKED_UP_TO_REQUESTS {
            BannerVerdict::TooLong { requests: sent }
        } else if self.requests == sent {
            BannerVerdict::Checked(self.rejections.clone())
        } else {
            BannerVerdict::Pending
        }
    }

    /// "but Anthropic Messages would refuse turn 2", when the run in view
    /// ended `status` (`done`) with requests a provider would refuse: what
    /// the header and the loop diagram's exit say beside a `done`, from the
    /// banner's own verdict. `None` until that verdict is in, and for a run
    /// no provider would refuse.
    pub fn done_but_refused(&self, sent: usize, running: bool, status: Status) -> Option<String> {
        if status != Status::Done {
            return None;
        }
        match self.banner_verdict(sent, running) {
            // The words were made with the verdict, in the checker's module.
            BannerVerdict::Checked(_) => self
                .would_refuse
                .as_ref()
                .map(|words| format!("but {words}")),
            BannerVerdict::Pending | BannerVerdict::TooLong { .. } => None,
        }
    }

    /// The rejections placed at `turn`'s request.
    pub fn at_turn(&self, turn: u32) -> Vec<Rejection> {
        self.rejections
            .iter()
            .filter(|r| r.turn == turn)
            .cloned()
            .collect()
    }
}

/// The history in view, as the checker is asked about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InView {
    /// The run (`Controller::run_id`).
    pub run: u64,
    /// Its system prompt and tools.
    pub shape: RequestShape,
    /// The requests it has sent, retries not counted.
    pub requests: usize,
    /// It is still going.
    pub running: bool,
}

/// The live check: what it has said, and when it last asked.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtocolCheck {
    in_view: InView,
    checked: Checked,
    /// Bumped each time `checked` is replaced, so the page redraws what
    /// reads it only then.
    verdicts: u64,
    /// The number of the newest check asked; only its answer is kept.
    asked: u64,
    /// The page's clock when the newest check was asked.
    last_asked_ms: f64,
    /// A check put off to the end of the gap is waiting.
    waiting: bool,
}

impl Default for ProtocolCheck {
    fn default() -> Self {
        ProtocolCheck {
            in_view: InView::default(),
            checked: Checked::default(),
            verdicts: 0,
            asked: 0,
            last_asked_ms: f64::NEG_INFINITY,
            waiting: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ProtocolMsg {
    /// The history in view changed (an event, the run's end, a new run, a
    /// kept run's shape arriving); `now_ms` is the page's clock.
    Seen { in_view: InView, now_ms: f64 },
    /// Check number `ask` came back.
    Answered { ask: u64, checked: Checked },
    /// The gap a put-off check waited for is over.
    WaitOver { now_ms: f64 },
}

#[derive(Clone, Debug, PartialEq)]
pub enum ProtocolCmd {
    /// Check the history in view now, as number `ask`, and answer with
    /// `Answered` carrying what was checked.
    Check {
        ask: u64,
        run: u64,
        shape: RequestShape,
        requests: usize,
    },
    /// Answer with `WaitOver` after `ms`.
    Wait { ms: u32 },
}

impl ProtocolCheck {
    /// What the checker has said of the run in view.
    pub fn checked(&self) -> &Checked {
        &self.checked
    }

    /// How many times `checked` has been replaced.
    pub fn verdicts(&self) -> u64 {
        self.verdicts
    }

    /// The requests the run in view has sent so far.
    pub fn sent(&self) -> usize {
        self.in_view.requests
    }

    fn replace_checked(&mut self, checked: Checked) {
        self.checked = checked;
        self.verdicts += 1;
    }

    /// Asks for a check of the history in view, unless it was checked as
    /// it is.
    fn check_now(&mut self, now_ms: f64) -> Vec<ProtocolCmd> {
        let InView {
            run,
            shape,
            requests,
            ..
        } = &self.in_view;
        let c = &self.checked;
        if *requests == 0 || (c.run == *run && c.requests == *requests && c.shape == *shape) {
            return Vec::new();
        }
        self.asked += 1;
        self.last_asked_ms = now_ms;
        vec![ProtocolCmd::Check {
            ask: self.asked,
            run: *run,
            shape: shape.clone(),
            requests: *requests,
        }]
    }
}

impl Update for ProtocolCheck {
    type Msg = ProtocolMsg;
    type Cmd = ProtocolCmd;

    fn update(&mut self, msg: ProtocolMsg) -> Vec<ProtocolCmd> {
        match msg {
            ProtocolMsg::Seen { in_view, now_ms } => {
                self.in_view = in_view;
                let InView {
                    requests, running, ..
                } = self.in_view;
                if requests == 0 {
                    // A new run, or none: what was said goes, and an answer
                    // still on its way about the old history is dropped.
                    self.asked += 1;
                    if self.checked != Checked::default() {
                        self.replace_checked(Checked::default());
                    }
                    return Vec::new();
                }
                let live = requests <= LIVE_UP_TO_REQUESTS;
                let last = !running && requests <= CHECKED_UP_TO_REQUESTS;
                if !(live || last) {
                    return Vec::new();
                }
                let since = now_ms - self.last_asked_ms;
                if !running || since >= LIVE_CHECK_GAP_MS {
                    self.check_now(now_ms)
                } else if !self.waiting {
                    // The requests sent until then are checked in one go.
                    self.waiting = true;
                    vec![ProtocolCmd::Wait {
                        ms: (LIVE_CHECK_GAP_MS - since).ceil() as u32,
                    }]
                } else {
                    Vec::new()
                }
            }
            ProtocolMsg::WaitOver { now_ms } => {
                self.waiting = false;
                // A run that ended meanwhile was checked as it ended.
                if self.in_view.running && self.in_view.requests <= LIVE_UP_TO_REQUESTS {
                    self.check_now(now_ms)
                } else {
                    Vec::new()
                }
            }
            ProtocolMsg::Answered { ask, checked } => {
                if ask == self.asked {
                    self.replace_checked(checked);
                }
                Vec::new()
            }
        }
    }
}

/// How many model requests `events` sent, retries not counted.
pub fn first_requests(events: &[RunEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ModelRequest { attempt: 1, .. }))
        .count()
}

#[cfg(test)]
mod tests;
