//! The web app's entry point: install the panic hook and mount the playground.

fn main() {
    // A panic in wasm otherwise shows only "unreachable executed"; this puts
    // the message and location in the console.
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(agent_loop_playground::app::App);
}
