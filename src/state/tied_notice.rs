//! A notice tied to the thing it describes: said about one run (by its
//! `Controller::run_id`) or one scenario text, it shows while that run or
//! text is in view and is gone once another takes its place. A pasted
//! body's verdict then leaves with the imported run (on Reset, a new
//! scenario, a new run), and "Link copied" with the scenario it linked,
//! without each of those actions having to clear it.
//!
//! What a notice is about is kept as a number (a run's id, a text's hash)
//! beside the words, in signal types the page already has: every new
//! signal type adds its own copy of the reactive graph's code to the first
//! paint.

use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct TiedNotice {
    /// What was said.
    said: RwSignal<Option<String>>,
    /// What it was said about.
    about: RwSignal<u64>,
    /// What is in view now.
    now: Signal<u64>,
}

impl TiedNotice {
    /// A notice about the run in view (`Controller::run_id`).
    pub fn about_run(run_id: ReadSignal<u64>) -> Self {
        Self::about(run_id.into())
    }

    /// A notice about the text `text` holds when it is said.
    pub fn about_text(text: ReadSignal<String>) -> Self {
        Self::about(Signal::derive(move || text.with(|text| text_key(text))))
    }

    fn about(now: Signal<u64>) -> Self {
        TiedNotice {
            said: RwSignal::new(None),
            about: RwSignal::new(0),
            now,
        }
    }

    /// Says `notice` (or nothing) about what is in view now.
    pub fn set(&self, notice: Option<String>) {
        self.about.set(self.now.get_untracked());
        self.said.set(notice);
    }

    /// The notice, while what it was said about is still in view (tracked).
    pub fn get(&self) -> Option<String> {
        let current = self.about.get() == self.now.get();
        self.said.with(|said| said.clone().filter(|_| current))
    }
}

/// A text's key: FNV-1a over its bytes. Two texts that differ in any way
/// are told apart, save by a 64-bit collision.
fn text_key(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::text_key;

    #[test]
    fn texts_that_differ_have_different_keys() {
        assert_eq!(text_key("{\"a\": 1}"), text_key("{\"a\": 1}"));
        assert_ne!(text_key("{\"a\": 1}"), text_key("{\"a\": 2}"));
        assert_ne!(text_key(""), text_key(" "));
    }
}
