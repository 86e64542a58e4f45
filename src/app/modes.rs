//! The page's modes (issue 24): what a person is doing picks which panels
//! show. Run is the whole stage (the loop, the trace, the detail pane);
//! each other mode shows one group of panels at the page's full size:
//! Compare (pairs, A/B, forks, replay all), Scenario (the editor with its
//! MCP servers and tools, and calling a tool by hand), History (the kept
//! runs) and Import/Export (the run files). A mode is a link, `#mode=…`,
//! so it opens from a link and the back button moves between modes. The
//! panels of the modes not shown are hidden, never removed (static/app.css
//! draws `main[data-mode]`), so each keeps its state.

use leptos::prelude::*;

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
}

/// The header's mode switch: one link a mode, the open one marked.
#[component]
pub fn ModeSwitch(mode: ReadSignal<Mode>) -> impl IntoView {
    let links = Mode::ALL.map(|m| {
        view! {
            <li>
                <a href=format!("{PREFIX}{}", m.key())
                    aria-current=move || (mode.get() == m).then_some("page")>
                    {m.label()}
                </a>
            </li>
        }
    });
    view! {
        <nav class="modes" aria-label="Modes">
            <ul>{links}</ul>
        </nav>
    }
}

/// The header's "Present" toggle (issue 24): on, the page goes to the
/// `#present` link (so the back button ends it) and asks for full screen;
/// off, back to the Run mode's link, out of full screen. Leaving full screen
/// with Esc keeps the layout until the button is pressed again.
#[component]
pub fn Present(presenting: ReadSignal<bool>) -> impl IntoView {
    view! {
        <button type="button" class="present-button"
            aria-pressed=move || presenting.get().to_string()
            title=move || if presenting.get() {
                "End the presentation: back to the Run mode with its panels"
            } else {
                "Show the loop at projector size with the trace beside it, full screen"
            }
            on:click=move |_| {
                if presenting.get_untracked() {
                    crate::browser::page::leave_full_screen();
                    crate::browser::page::go_to_fragment(&format!("{PREFIX}{}", Mode::Run.key()));
                } else {
                    crate::browser::page::go_to_fragment(PRESENT);
                    crate::browser::page::enter_full_screen();
                }
            }>
            "Present"
        </button>
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
