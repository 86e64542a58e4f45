//! The page's modes: what a person is doing picks which panels
//! show. Run is the whole stage (the loop, the trace with the replay of the
//! run in view, the detail pane with the inspector, the run state and the
//! scenario's editor); each other mode shows one group of panels at the
//! page's full size: Compare (pairs, A/B, forks), Scenario (the editor with
//! its MCP servers and tools, and calling a tool by hand), History (the
//! kept runs and replaying them all) and Import/Export (the run files).
//!
//! A mode is a link, `#mode=…`, so it opens from a link and the back button
//! moves between modes. A mode's own panels are fetched and drawn the first
//! time it opens (`Modes::opened`), not with the first paint nor a first
//! run, and from then on hidden, never removed, while another
//! mode is open (static/app.css draws `main[data-mode]`), so each keeps its
//! state. The decisions are the plain model's (`modes::model`); this
//! adapter holds it, shows it in two signals and goes to the links it asks
//! for.

use leptos::prelude::*;

use crate::browser::page;
use crate::modes::model::{ModesCmd, ModesModel, ModesMsg};
use crate::update::Update;

pub use crate::modes::model::{Mode, PREFIX, PRESENT};

/// The mode open now, and every mode opened since the page loaded.
#[derive(Clone, Copy)]
pub struct Modes {
    model: StoredValue<ModesModel>,
    now: RwSignal<Mode>,
    /// A bit per mode that has been open (`ModesModel::opened_bits`).
    opened: RwSignal<u8>,
}

impl Modes {
    /// In the mode the page's link names, Run without one.
    pub fn new() -> Self {
        let model = ModesModel::new(&page::fragment());
        Modes {
            model: StoredValue::new(model),
            now: RwSignal::new(model.now()),
            opened: RwSignal::new(model.opened_bits()),
        }
    }

    pub fn now(self) -> Signal<Mode> {
        self.now.into()
    }

    /// The page's fragment changed to `fragment` (a link followed, the back
    /// button): shows the mode it names (see `Mode::after`).
    pub fn follow(self, fragment: &str) {
        self.send(ModesMsg::Followed(fragment.to_string()));
    }

    /// Goes to `mode` as its link does (so the back button returns), and
    /// shows it at once (see `ModesMsg::Opened`).
    pub fn open(self, mode: Mode) {
        self.send(ModesMsg::Opened(mode));
    }

    /// True from the first time `mode` is open: its panels are fetched and
    /// drawn then, and kept.
    pub fn opened(self, mode: Mode) -> Signal<bool> {
        let model = self.model;
        let opened = self.opened;
        Signal::derive(move || {
            opened.track();
            model.with_value(|m| m.opened(mode))
        })
    }

    /// The one way the modes change: the model takes `msg`, the signals
    /// show it (each set only when it changed), and the link it asks for
    /// is gone to.
    fn send(self, msg: ModesMsg) {
        let Some((commands, model)) = self.model.try_update_value(|model| {
            let commands = model.update(msg);
            (commands, *model)
        }) else {
            return; // The page is gone.
        };
        if self.now.get_untracked() != model.now() {
            self.now.set(model.now());
        }
        if self.opened.get_untracked() != model.opened_bits() {
            self.opened.set(model.opened_bits());
        }
        for ModesCmd::GoTo(fragment) in commands {
            page::go_to_fragment(&fragment);
        }
    }
}

impl Default for Modes {
    fn default() -> Self {
        Self::new()
    }
}
