//! Cost of one loop step as the history grows: prints microseconds per step
//! for the first and last 10% of steps of 10-, 100-, 1,000- and 10,000-turn
//! scripted runs (one trivial tool), and the peak heap. A step is one model
//! call or one tool call, fed back to the state machine. Flat figures mean no
//! step copies the history.
//!
//! Then the protocol checker's cost per provider on long histories (many
//! turns of three parallel calls, and one turn of many parallel calls), kept
//! and broken, and `rejections` on a long run that breaks the protocol every
//! turn. Twice the history should cost about twice the milliseconds; four
//! times means a rule compares each block with those before it.
//!
//! Run: `cargo bench -p harness --bench loop_steps` (prints figures; asserts nothing).

use std::alloc::{GlobalAlloc, Layout, System};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use harness::event::RunEvent;
use harness::instant::drive_instantly;
use harness::message::{ContentBlock, Message, Role, ToolCall, ToolResult};
use harness::run::Run;
use harness::runtime::TokioRuntime;
use harness::scenario::Scenario;
use harness::wire::{self, Provider, RequestShape};

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

    check_figures();
}

/// One tool call block with id `id`.
fn call(id: String) -> ContentBlock {
    ContentBlock::ToolUse(ToolCall {
        id,
        name: "tick".into(),
        input: serde_json::json!({"n": 1}),
        input_raw: None,
    })
}

fn answer(id: String) -> ContentBlock {
    ContentBlock::ToolResult(ToolResult {
        tool_use_id: id,
        content: "{\"ok\":true}".into(),
        is_error: false,
        media: Vec::new(),
    })
}

/// A task, then `turns` turns of `calls` parallel calls each, every call
/// answered. `broken` reuses one id throughout (duplicates every rule that
/// forbids them) and answers one id nobody called per turn, so rules fire
/// on every turn instead of never.
fn history(turns: usize, calls: usize, broken: bool) -> Vec<Message> {
    let id = |t: usize, c: usize| {
        if broken {
            "toolu_dup".to_string()
        } else {
            format!("toolu_{t}_{c}")
        }
    };
    let mut messages = vec![Message::user_text("Count.".to_string())];
    for t in 0..turns {
        let uses = (0..calls).map(|c| call(id(t, c))).collect();
        let mut results: Vec<ContentBlock> = (0..calls).map(|c| answer(id(t, c))).collect();
        if broken {
            results.push(answer(format!("toolu_ghost_{t}")));
        }
        messages.push(Message {
            role: Role::Assistant,
            content: uses,
        });
        messages.push(Message {
            role: Role::User,
            content: results,
        });
    }
    messages
}

/// Milliseconds `check` takes on `messages` for `provider` (the best of
/// three: the machine may be shared), and how many violations it found.
fn time_check(provider: Provider, messages: &[Message]) -> (f64, usize) {
    let mut best = f64::INFINITY;
    let mut found = 0;
    for _ in 0..3 {
        let started = Instant::now();
        found = wire::check(provider, "Be brief.", messages, &[]).len();
        best = best.min(started.elapsed().as_secs_f64() * 1000.0);
    }
    (best, found)
}

/// A run of `turns` turns whose model asks for the same id twice each turn.
fn broken_run(turns: u32) -> (RequestShape, Vec<RunEvent>) {
    let json = serde_json::json!({
        "name": format!("{turns}-turn broken run"),
        "task": "Count.",
        "tools": [{"name": "tick", "description": "Returns ok.", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}}, "result": {"ok": true}}],
        "limits": {"max_turns": turns},
        "model": {"type": "scripted", "loop_from": 0, "responses": [
            {"tool_calls": [{"id": "toolu_dup", "name": "tick", "args": {"n": 1}}, {"id": "toolu_dup", "name": "tick", "args": {"n": 2}}]}
        ]}
    });
    let scenario = Scenario::load(&json.to_string()).expect("benchmark scenario loads");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("tokio");
    let mut events = Vec::new();
    runtime
        .block_on(harness::run_scenario(
            &scenario,
            Rc::new(TokioRuntime::default()),
            harness::RunOptions::default(),
            &mut |e| events.push(e.clone()),
        ))
        .expect("runs");
    (RequestShape::of(&scenario).expect("shape"), events)
}

/// The checker's milliseconds per provider and history shape, then
/// `rejections` on broken runs.
fn check_figures() {
    println!("protocol checker, native: ms per check (violations found)");
    println!(
        "{:>6} {:>7} {:>6} {:>7} {:>20} {:>24} {:>18}",
        "check", "turns", "calls", "broken", "anthropic", "openai_chat", "openai_responses"
    );
    // Doubling sizes: a linear checker doubles its milliseconds (below a few
    // thousand turns caches and the allocator blur the ratio).
    let shapes = [
        (5_000, 3, false),
        (10_000, 3, false),
        (20_000, 3, false),
        (10_000, 3, true),
        (20_000, 3, true),
        (1, 10_000, false),
        (1, 20_000, false),
    ];
    for (turns, calls, broken) in shapes {
        let messages = history(turns, calls, broken);
        let cells: Vec<String> = Provider::ALL
            .iter()
            .map(|&p| {
                let (ms, found) = time_check(p, &messages);
                format!("{ms:.1} ({found})")
            })
            .collect();
        println!(
            "{:>6} {:>7} {:>6} {:>7} {:>20} {:>24} {:>18}",
            "check", turns, calls, broken, cells[0], cells[1], cells[2]
        );
    }
    for turns in [100u32, 1_000, 10_000] {
        let (shape, events) = broken_run(turns);
        let started = Instant::now();
        let found = wire::rejections(&shape, &events);
        println!(
            "rejections: {turns}-turn run breaking the protocol every turn: {:.1} ms, {} rejections",
            started.elapsed().as_secs_f64() * 1000.0,
            found.len()
        );
    }
}
