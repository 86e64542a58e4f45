//! The web app's entry point: install the panic hook and mount the playground.

fn main() {
    // A panic puts its message and location in the console (not just
    // "unreachable executed") and an error panel, with the run's trace so
    // far as a download, on the page (see `browser::panic`).
    agent_loop_playground::browser::panic::install();
    leptos::mount::mount_to_body(agent_loop_playground::app::App);
    // The offline notice is a root of its own (a fixed line over the page),
    // so the page's layout does not change for it.
    leptos::mount::mount_to_body(agent_loop_playground::ui::offline_notice::OfflineNotice);
    // Offline after the first visit: sw.js caches the build once the page is idle.
    agent_loop_playground::browser::offline::register_service_worker();
}
