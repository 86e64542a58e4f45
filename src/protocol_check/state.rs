//! The live protocol check's adapter: it tells the model
//! (`protocol_check::model`) each change of the history in view, runs the
//! checks it asks for in the split module (the three request builders and
//! the rules are not in the first paint) and its waits, and shows what it
//! has said to the turn cards, the stop banner, the header and the loop.

use gloo_timers::future::TimeoutFuture;
use harness::event::Status;
use harness::wire::Rejection;
use leptos::prelude::*;

use crate::lazy;
use crate::protocol_check::model::{
    first_requests, BannerVerdict, Checked, InView, ProtocolCheck, ProtocolCmd, ProtocolMsg,
};
use crate::run::controller::Controller;
use crate::state::mirror::mirror;
use crate::update::Update as _;

#[derive(Clone, Copy)]
pub struct ProtocolWatch {
    model: StoredValue<ProtocolCheck>,
    /// What the checker said, set only when it says something new.
    checked: RwSignal<Checked>,
    /// The requests the run in view has sent so far.
    sent: RwSignal<usize>,
    running: ReadSignal<bool>,
    controller: Controller,
}

impl ProtocolWatch {
    /// Made once by the root component; provided to the turn cards.
    pub fn new(controller: Controller) -> Self {
        let watch = ProtocolWatch {
            model: StoredValue::new(ProtocolCheck::default()),
            checked: RwSignal::new(Checked::default()),
            sent: RwSignal::new(0),
            running: controller.running(),
            controller,
        };
        provide_context(watch);
        let events = controller.events();
        let (run_id, shape) = (controller.run_id(), controller.wire_setup());
        // Each frame's events, the run's end, a new run, or a kept run's
        // system prompt and tools arriving: the model decides what to check.
        Effect::new(move |_| {
            let in_view = InView {
                run: run_id.get(),
                shape: shape.get(),
                requests: events.with(|e| first_requests(e)),
                running: watch.running.get(),
            };
            watch.send(ProtocolMsg::Seen {
                in_view,
                now_ms: js_sys::Date::now(),
            });
        });
        watch
    }

    fn send(self, msg: ProtocolMsg) {
        let Some((cmds, verdicts, sent)) = self.model.try_update_value(|model| {
            let before = model.verdicts();
            let cmds = model.update(msg);
            let verdicts = (model.verdicts() != before).then(|| model.checked().clone());
            (cmds, verdicts, model.sent())
        }) else {
            return; // The page is gone.
        };
        mirror(self.sent, sent);
        if let Some(checked) = verdicts {
            self.checked.set(checked);
        }
        for cmd in cmds {
            self.perform(cmd);
        }
    }

    fn perform(self, cmd: ProtocolCmd) {
        match cmd {
            ProtocolCmd::Check {
                ask,
                run,
                shape,
                requests,
            } => {
                let events = self.controller.events().get_untracked();
                crate::browser::runner::answer(
                    lazy::rejections(events, shape.clone()),
                    move |(rejections, would_refuse)| {
                        self.send(ProtocolMsg::Answered {
                            ask,
                            checked: Checked {
                                run,
                                shape,
                                requests,
                                rejections,
                                would_refuse,
                            },
                        })
                    },
                );
            }
            ProtocolCmd::Wait { ms } => {
                crate::browser::runner::answer(TimeoutFuture::new(ms), move |_| {
                    self.send(ProtocolMsg::WaitOver {
                        now_ms: js_sys::Date::now(),
                    })
                })
            }
        }
    }

    /// The verdict on the whole run, once it has ended and been checked.
    pub fn banner_verdict(&self) -> BannerVerdict {
        let (sent, running) = (self.sent.get(), self.running.get());
        self.checked.with(|c| c.banner_verdict(sent, running))
    }

    /// "but Anthropic Messages would refuse turn 2", when the run in view
    /// ended `status` (`done`) with requests a provider would refuse (see
    /// `Checked::done_but_refused`).
    pub fn done_but_refused(&self, status: Status) -> Option<String> {
        let (sent, running) = (self.sent.get(), self.running.get());
        self.checked
            .with(|c| c.done_but_refused(sent, running, status))
    }

    /// The rejections placed at `turn`'s request.
    pub fn at_turn(&self, turn: u32) -> Vec<Rejection> {
        self.checked.with(|c| c.at_turn(turn))
    }
}
