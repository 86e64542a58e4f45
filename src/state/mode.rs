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
//! state.

use leptos::prelude::*;

use crate::browser::page;

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

    /// Its bit in `Modes::opened`.
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The mode open now, and every mode opened since the page loaded.
#[derive(Clone, Copy)]
pub struct Modes {
    now: RwSignal<Mode>,
    /// A bit per mode (`Mode::bit`) that has been open.
    opened: RwSignal<u8>,
}

impl Modes {
    /// In the mode the page's link names, Run without one.
    pub fn new() -> Self {
        let first = Mode::after(Mode::Run, &page::fragment());
        Modes {
            now: RwSignal::new(first),
            opened: RwSignal::new(first.bit()),
        }
    }

    pub fn now(self) -> Signal<Mode> {
        self.now.into()
    }

    /// The page's fragment changed to `fragment` (a link followed, the back
    /// button): shows the mode it names (see `Mode::after`).
    pub fn follow(self, fragment: &str) {
        self.show(Mode::after(self.now.get_untracked(), fragment));
    }

    /// Goes to `mode` as its link does (so the back button returns), and
    /// shows it at once, not only when the browser reports the new fragment:
    /// what the caller does next (bring a card into view) finds it shown.
    /// When `mode` is already shown nothing happens: no second history
    /// entry for the back button, and a Run presented to a class
    /// (`#present`) stays presented.
    pub fn open(self, mode: Mode) {
        if self.now.get_untracked() == mode {
            return;
        }
        self.show(mode);
        page::go_to_fragment(&format!("{PREFIX}{}", mode.key()));
    }

    /// True from the first time `mode` is open: its panels are fetched and
    /// drawn then, and kept.
    pub fn opened(self, mode: Mode) -> Signal<bool> {
        let opened = self.opened;
        Signal::derive(move || opened.get() & mode.bit() != 0)
    }

    fn show(self, mode: Mode) {
        if self.now.get_untracked() != mode {
            self.now.set(mode);
        }
        if self.opened.get_untracked() & mode.bit() == 0 {
            self.opened.update(|opened| *opened |= mode.bit());
        }
    }
}

impl Default for Modes {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_names_its_mode_and_anything_else_keeps_or_resets_it() {
        for mode in Mode::ALL {
            assert_eq!(
                Mode::of_fragment(&format!("#mode={}", mode.key())),
                Some(mode)
            );
        }
        assert_eq!(Mode::of_fragment("#mode=nothing"), None);
        assert_eq!(Mode::after(Mode::Compare, "#mode=history"), Mode::History);
        assert_eq!(Mode::after(Mode::Compare, ""), Mode::Run);
        assert_eq!(Mode::after(Mode::Compare, "#s=abc"), Mode::Compare);
        assert_eq!(Mode::after(Mode::Scenario, "#lesson=x"), Mode::Scenario);
        // Presenting is the Run mode.
        assert_eq!(Mode::after(Mode::Compare, PRESENT), Mode::Run);
    }
}
