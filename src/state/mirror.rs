//! How an adapter shows its model in the signals the views read: a signal
//! is set only when the model says something else, so what reads it redraws
//! only on a change (a model answers every message with its whole state).

use leptos::prelude::*;

/// Sets `signal` to `value` only if it shows something else now.
pub fn mirror<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|shown| *shown != value) {
        signal.set(value);
    }
}

/// `mirror` for a borrowed value, copied only when it differs.
pub fn set_if_changed<T, V>(signal: RwSignal<T>, value: &V)
where
    T: PartialEq<V> + Send + Sync + 'static,
    V: ToOwned<Owned = T> + ?Sized,
{
    if signal.with_untracked(|shown| shown != value) {
        signal.set(value.to_owned());
    }
}

/// `set_if_changed` for what may be absent.
pub fn set_option_if_changed<T>(signal: RwSignal<Option<T>>, value: Option<&T>)
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    if signal.with_untracked(|shown| shown.as_ref() != value) {
        signal.set(value.cloned());
    }
}
