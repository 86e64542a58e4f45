//! The web app's entry point: install the panic hook and mount the playground.

fn main() {
    // A panic puts its message and location in the console (not just
    // "unreachable executed") and an error panel, with the run's trace so
    // far as a download, on the page (see `browser::panic`).
    agent_loop_playground::browser::panic::install();
    leptos::mount::mount_to_body(agent_loop_playground::app::App);
}
