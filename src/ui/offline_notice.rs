//! The offline notice: a line at the top of the page, shown while the
//! browser is offline (`navigator.onLine` false, kept current by the
//! `online`/`offline` events), that says what still works and what needs the
//! network. After a first visit the service worker has the whole page, so
//! every built-in that needs no server runs; a real provider, an MCP server
//! and sending a run to an OpenTelemetry endpoint cannot.

use leptos::prelude::*;

use crate::browser::offline;

#[component]
pub fn OfflineNotice() -> impl IntoView {
    let online = offline::online_signal();
    // The live region stays in the page so that its text appearing is
    // announced; it is empty (and takes no room) while online.
    view! {
        <div class="offline-notice" role="status" aria-live="polite">
            <Show when=move || !online.get()>
                <p>
                    <strong>"Offline."</strong>
                    " The built-in scenarios with the scripted model still run. A real provider, "
                    "the MCP servers and sending a run to an OpenTelemetry endpoint need the network."
                </p>
            </Show>
        </div>
    }
}
