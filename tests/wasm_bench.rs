//! The harness loop compiled to wasm, timed in headless Chromium: the same
//! scripted 1,000- and 10,000-turn runs as the native benchmark
//! (`cargo bench -p harness`), so the two can be compared. Prints figures
//! (run with `-- --nocapture`); it asserts only that each run completed.

#![cfg(target_arch = "wasm32")]
// A test runs the engine directly; the split rule (clippy.toml) is about
// the web app's first paint.
#![allow(clippy::disallowed_methods)]

use std::rc::Rc;

use agent_loop_playground::browser::runtime::BrowserRuntime;
use harness::instant::drive_instantly;
use harness::run::Run;
use harness::scenario::Scenario;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn scenario(turns: u32) -> Scenario {
    let json = serde_json::json!({
        "name": format!("{turns}-turn benchmark"),
        "task": "Count.",
        "tools": [{"name": "tick", "description": "Returns ok.", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}}, "result": {"ok": true}}],
        "limits": {"max_turns": turns},
        "model": {"type": "scripted", "loop_from": 0, "responses": [
            {"text": "tick", "tool_calls": [{"name": "tick", "args": {"n": 1}}], "usage": {"input_tokens": 100, "output_tokens": 10}}
        ]}
    });
    Scenario::load(&json.to_string()).expect("benchmark scenario loads")
}

#[wasm_bindgen_test]
fn loop_steps_in_wasm() {
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .expect("performance");
    let clock = || performance.now();
    console_log!("harness loop, wasm in headless Chromium (performance.now() is coarse: figures are block averages)");
    console_log!(
        "{:>8} {:>8} {:>14} {:>14} {:>12}",
        "turns",
        "steps",
        "first10% µs",
        "last10% µs",
        "mean µs"
    );
    for turns in [1_000u32, 10_000] {
        let (config, model) = scenario(turns)
            .build(Rc::new(BrowserRuntime::new()))
            .expect("builds");
        let mut run = Run::new(config);
        let total_steps = 2 * turns as usize;
        let tenth = total_steps / 10;
        let mut step = 0usize;
        let mut marks = Vec::new();
        let started = clock();
        // Block averages: a clock read at the 10% boundaries, not per step.
        let outcome = drive_instantly(&mut run, model.as_ref(), &clock, &mut |_| {
            step += 1;
            if step == tenth || step == total_steps - tenth {
                marks.push(clock());
            }
        });
        let ended = clock();
        assert_eq!(outcome.status.as_str(), "turn_limit", "{}", outcome.reason);
        assert_eq!(marks.len(), 2);
        let per_step = |ms: f64, steps: usize| ms * 1000.0 / steps as f64;
        console_log!(
            "{:>8} {:>8} {:>14.2} {:>14.2} {:>12.2}",
            turns,
            total_steps,
            per_step(marks[0] - started, tenth),
            per_step(ended - marks[1], tenth),
            per_step(ended - started, total_steps)
        );
    }
}
