//! Cost of one loop step as the history grows: prints microseconds per step
//! for the first and last 10% of steps of 10-, 100-, 1,000- and 10,000-turn
//! scripted runs (one trivial tool), and the peak heap. A step is one model
//! call or one tool call, fed back to the state machine. Flat figures mean no
//! step copies the history.
//!
//! Run: `cargo bench -p harness --bench loop_steps` (prints figures; asserts nothing).

use std::alloc::{GlobalAlloc, Layout, System};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use harness::instant::drive_instantly;
use harness::run::Run;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;

/// Counts live heap bytes to report the peak.
struct PeakAlloc;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

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

/// Times each step of a run whose model and tool answer at once.
fn measure(turns: u32) -> (Vec<f64>, usize) {
    let runtime: Rc<dyn harness::runtime::Runtime> = Rc::new(TokioRuntime::default());
    let (config, model) = scenario(turns).build(runtime).expect("builds");
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut run = Run::new(config);
    let mut step_us = Vec::with_capacity(turns as usize * 2);
    let clock = Instant::now();
    let now_ms = || clock.elapsed().as_secs_f64() * 1000.0;
    let outcome = drive_instantly(&mut run, model.as_ref(), &now_ms, &mut |ms| {
        step_us.push(ms * 1000.0)
    });
    assert_eq!(outcome.status.as_str(), "turn_limit", "{}", outcome.reason);
    let peak = PEAK.load(Ordering::Relaxed) - base;
    (step_us, peak)
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len().max(1) as f64
}

fn main() {
    // Warm up allocator and caches once.
    let _ = measure(100);
    println!(
        "harness loop, native ({} build)",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "optimised"
        }
    );
    println!(
        "{:>8} {:>8} {:>14} {:>14} {:>12} {:>12}",
        "turns", "steps", "first10% µs", "last10% µs", "mean µs", "peak heap"
    );
    for turns in [10u32, 100, 1_000, 10_000] {
        let (steps, peak) = measure(turns);
        let tenth = (steps.len() / 10).max(1);
        let first = mean(&steps[..tenth]);
        let last = mean(&steps[steps.len() - tenth..]);
        println!(
            "{:>8} {:>8} {:>14.2} {:>14.2} {:>12.2} {:>9.1} KiB",
            turns,
            steps.len(),
            first,
            last,
            mean(&steps),
            peak as f64 / 1024.0
        );
    }

    // The same 1,000 turns through the async driver on tokio, end to end.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("tokio");
    let scenario = scenario(1_000);
    let started = Instant::now();
    let mut events = 0usize;
    let outcome = runtime
        .block_on(harness::run_scenario(
            &scenario,
            Rc::new(TokioRuntime::default()),
            harness::RunOptions::default(),
            &mut |_| events += 1,
        ))
        .expect("runs");
    let total = started.elapsed().as_secs_f64() * 1e6;
    println!(
        "driver + tokio: 1000 turns, {} steps, {events} events, {:.2} µs per step, status {}",
        2 * outcome.turns,
        total / (2.0 * outcome.turns as f64),
        outcome.status
    );
}
