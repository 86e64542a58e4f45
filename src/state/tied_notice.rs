//! A notice tied to the thing it describes: said about one run (by its
//! `Controller::run_id`) or one scenario text, it shows while that run or
//! text is in view and is gone once another takes its place. A pasted
//! body's verdict then leaves with the imported run (on Reset, a new
//! scenario, a new run), and "Link copied" with the scenario it linked,
//! without each of those actions having to clear it.

use leptos::prelude::*;

pub struct TiedNotice<K: Send + Sync + 'static, T: Send + Sync + 'static = String> {
    /// What was said, and what it was said about.
    said: RwSignal<Option<(K, T)>>,
    /// What is in view now.
    now: Signal<K>,
}

// Not derived: a derive would ask `K` and `T` to be `Copy`, and only the
// signals (which are) are copied.
impl<K: Send + Sync + 'static, T: Send + Sync + 'static> Clone for TiedNotice<K, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K: Send + Sync + 'static, T: Send + Sync + 'static> Copy for TiedNotice<K, T> {}

impl<K, T> TiedNotice<K, T>
where
    K: Clone + PartialEq + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
{
    /// A notice about whatever `now` holds when it is said.
    pub fn new(now: impl Into<Signal<K>>) -> Self {
        TiedNotice {
            said: RwSignal::new(None),
            now: now.into(),
        }
    }

    /// Says `notice` (or nothing) about what is in view now.
    pub fn set(&self, notice: Option<T>) {
        let about = self.now.get_untracked();
        self.said.set(notice.map(|notice| (about, notice)));
    }

    /// The notice, while what it was said about is still in view (tracked).
    pub fn get(&self) -> Option<T> {
        self.said.with(|said| {
            let (about, notice) = said.as_ref()?;
            self.now.with(|now| now == about).then(|| notice.clone())
        })
    }
}
