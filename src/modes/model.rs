//! The page's modes as a plain model: the mode open now and every mode
//! opened since the page loaded. A mode's panels are fetched and drawn the
//! first time it opens, then only hidden while another is open, so each
//! keeps its state; the model says which are drawn (`ModesModel::opened`).
//!
//! A mode is a link, `#mode=…`: the page's fragment changing (a link
//! followed, the back button) is a message, and opening a mode from a
//! button asks for its link as a command (`ModesCmd::GoTo`), so the back
//! button returns.

use crate::update::Update;

/// The fragment that names a mode.
pub const PREFIX: &str = "#mode=";

/// The link of the Run mode presented to a class: the loop at projector
/// size with the trace beside it and nothing else (see `Present`).
pub const PRESENT: &str = "#present";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Run,
    Compare,
    Scenario,
    History,
    Files,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::Run,
        Mode::Compare,
        Mode::Scenario,
        Mode::History,
        Mode::Files,
    ];

    /// Its name in a link and in `main[data-mode]`.
    pub fn key(self) -> &'static str {
        match self {
            Mode::Run => "run",
            Mode::Compare => "compare",
            Mode::Scenario => "scenario",
            Mode::History => "history",
            Mode::Files => "files",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Mode::Run => "Run",
            Mode::Compare => "Compare",
            Mode::Scenario => "Scenario",
            Mode::History => "History",
            Mode::Files => "Import/Export",
        }
    }

    /// The mode a fragment names, if it names one.
    pub fn of_fragment(fragment: &str) -> Option<Mode> {
        let key = fragment.strip_prefix(PREFIX)?;
        Mode::ALL.into_iter().find(|m| m.key() == key)
    }

    /// The mode after the fragment changed to `fragment` (a link followed,
    /// the back button): the one it names; Run for no fragment (back to the
    /// page as first opened); otherwise (a scenario or lesson link) `now`.
    pub fn after(now: Mode, fragment: &str) -> Mode {
        match Mode::of_fragment(fragment) {
            Some(mode) => mode,
            None if fragment.is_empty() || fragment == "#" || fragment == PRESENT => Mode::Run,
            None => now,
        }
    }

    /// Its bit in `ModesModel::opened`.
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// What happens to the modes.
#[derive(Clone, Debug, PartialEq)]
pub enum ModesMsg {
    /// The page's fragment is now this (a link followed, the back button).
    Followed(String),
    /// A button asks for this mode, as its link would.
    Opened(Mode),
}

/// What the world must do for the modes.
#[derive(Clone, Debug, PartialEq)]
pub enum ModesCmd {
    /// Go to this fragment as a link does (a new entry for the back button).
    GoTo(String),
}

/// The mode open and those opened so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModesModel {
    now: Mode,
    /// A bit per mode (`Mode::bit`) that has been open.
    opened: u8,
}

impl ModesModel {
    /// In the mode the page's first fragment names, Run without one.
    pub fn new(fragment: &str) -> Self {
        let first = Mode::after(Mode::Run, fragment);
        ModesModel {
            now: first,
            opened: first.bit(),
        }
    }

    pub fn now(&self) -> Mode {
        self.now
    }

    /// True from the first time `mode` was open: its panels are drawn.
    pub fn opened(&self, mode: Mode) -> bool {
        self.opened & mode.bit() != 0
    }

    /// The modes opened so far, a bit per mode (for the page to mirror).
    pub fn opened_bits(&self) -> u8 {
        self.opened
    }

    fn show(&mut self, mode: Mode) {
        self.now = mode;
        self.opened |= mode.bit();
    }
}

impl Update for ModesModel {
    type Msg = ModesMsg;
    type Cmd = ModesCmd;

    fn update(&mut self, msg: ModesMsg) -> Vec<ModesCmd> {
        match msg {
            ModesMsg::Followed(fragment) => {
                self.show(Mode::after(self.now, &fragment));
                Vec::new()
            }
            // Already shown: no second entry for the back button, and a Run
            // presented to a class (`#present`) stays presented.
            ModesMsg::Opened(mode) if mode == self.now => Vec::new(),
            // Shown at once, not only when the browser reports the new
            // fragment: what the caller does next finds it shown.
            ModesMsg::Opened(mode) => {
                self.show(mode);
                vec![ModesCmd::GoTo(format!("{PREFIX}{}", mode.key()))]
            }
        }
    }
}

#[cfg(test)]
mod tests;
