//! Built-in client-side tools, looked up by name from scenario files.
//!
//! The rules live in the handlers, not only in the descriptions: a handler
//! refuses what its description merely asks for (seed 000's "check status
//! first", seed 003's "only after the policy check"). A `Toolbox` is made per
//! run, so the stores the tools share start from their seed state every run.
//! What a tool tells the model (its spec) and whether it needs approval are
//! fixed per tool and read without a run (`builtin`); each tool's builder
//! binds its handler to that same `BuiltinTool`.

mod clock;
mod hotels;
mod orders;
mod refunds;

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::model::ToolSpec;
use crate::runtime::Runtime;
use crate::tool::{ToolDef, ToolHandler};

pub use clock::{civil_from_days, iso8601, parse_utc};

/// The names a scenario may list as built-in tools.
pub const BUILTIN_NAMES: &[&str] = &[
    "get_time",
    "get_order_status",
    "issue_refund",
    "search_hotels",
    "get_hotel_detail",
    "get_order",
    "check_refund_policy",
    "refund_order",
];

/// A built-in tool as a scenario lists it, before a run binds its handler to
/// the run's stores and clock (`Toolbox::build`): what the model is told about
/// it, and whether a person approves each call. Reading these needs no run.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinTool {
    pub spec: ToolSpec,
    pub needs_approval: bool,
}

impl BuiltinTool {
    fn new(name: &str, description: &str, input_schema: Value, needs_approval: bool) -> Self {
        BuiltinTool {
            spec: ToolSpec {
                name: name.to_string(),
                description: description.to_string(),
                input_schema,
            },
            needs_approval,
        }
    }
}

/// The built-in tool `name`'s spec and approval, or `None` if it is not built in.
/// `Toolbox::build` gives each tool this same spec (see `builtin_matches_its_build`).
pub fn builtin(name: &str) -> Option<BuiltinTool> {
    match name {
        "get_time" => Some(clock::get_time_tool()),
        "get_order_status" => Some(orders::get_order_status_tool()),
        "issue_refund" => Some(orders::issue_refund_tool()),
        "search_hotels" => Some(hotels::search_hotels_tool()),
        "get_hotel_detail" => Some(hotels::get_hotel_detail_tool()),
        "get_order" => Some(refunds::get_order_tool()),
        "check_refund_policy" => Some(refunds::check_refund_policy_tool()),
        "refund_order" => Some(refunds::refund_order_tool()),
        _ => None,
    }
}

/// The store a built-in tool reads or writes ("orders" for seed 000's tools,
/// "shop" for seed 003's), so the page can group state snapshots by store.
pub fn store_of(tool: &str) -> Option<&'static str> {
    match tool {
        "get_order_status" | "issue_refund" => Some("orders"),
        "get_order" | "check_refund_policy" | "refund_order" => Some("shop"),
        _ => None,
    }
}

/// A store in its seed state, as every run starts with it.
pub fn seed_state(store: &str) -> Option<Value> {
    match store {
        "orders" => Some(orders::OrderStore::seeded().snapshot()),
        "shop" => Some(refunds::Shop::seeded().snapshot()),
        _ => None,
    }
}

/// The built-in tools of one run and the state they share.
pub struct Toolbox {
    runtime: Rc<dyn Runtime>,
    orders: Rc<RefCell<orders::OrderStore>>,
    shop: Rc<RefCell<refunds::Shop>>,
}

impl Toolbox {
    /// `now_unix_ms` fixes the wall clock the tools see (a scenario's `now`),
    /// so a scenario replays the same way on any day.
    pub fn new(runtime: Rc<dyn Runtime>, now_unix_ms: Option<f64>) -> Self {
        let runtime: Rc<dyn Runtime> = match now_unix_ms {
            Some(unix_ms) => Rc::new(FixedWallClock {
                inner: runtime,
                unix_ms,
            }),
            None => runtime,
        };
        Toolbox {
            runtime,
            orders: Rc::new(RefCell::new(orders::OrderStore::seeded())),
            shop: Rc::new(RefCell::new(refunds::Shop::seeded())),
        }
    }

    /// A built-in tool bound to this run's state, or `None` if the name is not built in.
    pub fn build(&self, name: &str) -> Option<ToolDef> {
        match name {
            "get_time" => Some(clock::get_time(self.runtime.clone())),
            "get_order_status" => Some(orders::get_order_status(self.orders.clone())),
            "issue_refund" => Some(orders::issue_refund(self.orders.clone())),
            "search_hotels" => Some(hotels::search_hotels(self.runtime.clone())),
            "get_hotel_detail" => Some(hotels::get_hotel_detail()),
            "get_order" => Some(refunds::get_order(self.shop.clone())),
            "check_refund_policy" => Some(refunds::check_refund_policy(self.shop.clone())),
            "refund_order" => Some(refunds::refund_order(self.shop.clone())),
            _ => None,
        }
    }
}

/// The run's runtime, but with a fixed wall clock.
struct FixedWallClock {
    inner: Rc<dyn Runtime>,
    unix_ms: f64,
}

impl Runtime for FixedWallClock {
    fn now_ms(&self) -> f64 {
        self.inner.now_ms()
    }
    fn unix_ms(&self) -> f64 {
        self.unix_ms
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        self.inner.sleep(ms)
    }
}

/// A tool whose handler answers at once.
struct SyncTool<F>(F);

impl<F: Fn(Value) -> Result<Value, String>> ToolHandler for SyncTool<F> {
    fn call(&self, args: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        let result = (self.0)(args);
        Box::pin(async move { result })
    }
}

/// A tool that writes to a store, which it reports after each call.
struct WritingTool<F, S> {
    call: F,
    state: S,
}

impl<F, S> ToolHandler for WritingTool<F, S>
where
    F: Fn(Value) -> Result<Value, String>,
    S: Fn() -> Value,
{
    fn call(&self, args: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        let result = (self.call)(args);
        Box::pin(async move { result })
    }

    fn state(&self) -> Option<Value> {
        Some((self.state)())
    }
}

/// `define`, for a tool that writes to a store: `state` reads the store.
fn define_writing(
    tool: BuiltinTool,
    handler: impl Fn(Value) -> Result<Value, String> + 'static,
    state: impl Fn() -> Value + 'static,
) -> ToolDef {
    let mut tool = define(tool, |_| Ok(Value::Null));
    tool.handler = Rc::new(WritingTool {
        call: handler,
        state,
    });
    tool
}

/// Defines a built-in tool. The schemas are literals in this module; the test
/// `every_builtin_tool_builds` proves each one compiles.
fn define(
    tool: BuiltinTool,
    handler: impl Fn(Value) -> Result<Value, String> + 'static,
) -> ToolDef {
    let schema = tool_schema::Schema::compile(&tool.spec.input_schema).unwrap_or_else(|errors| {
        panic!(
            "built-in tool {}'s schema does not compile: {errors:?}",
            tool.spec.name
        )
    });
    ToolDef {
        spec: tool.spec,
        schema,
        needs_approval: tool.needs_approval,
        handler: Rc::new(SyncTool(handler)),
    }
}

/// The string argument `key`; schema validation has already required it, but
/// a scenario may override the schema, so a handler checks again.
fn string_arg(args: &Value, key: &str) -> Result<String, String> {
    args.get(key)
        .and_then(Value::as_str)
        .map(|s| s.trim().to_string())
        .ok_or_else(|| format!("missing string argument {key:?}"))
}

/// Helpers for the tools' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A runtime whose wall clock reads a fixed instant.
    pub(crate) struct FixedClock(pub f64);

    impl Runtime for FixedClock {
        fn now_ms(&self) -> f64 {
            0.0
        }
        fn unix_ms(&self) -> f64 {
            self.0
        }
        fn sleep(&self, _ms: u64) -> LocalBoxFuture<'static, ()> {
            Box::pin(async {})
        }
    }

    /// Runs a built-in tool's handler, which answers at once.
    pub(crate) fn call_now(tool: &ToolDef, args: Value) -> Result<Value, String> {
        use futures::FutureExt;
        tool.handler
            .call(args)
            .now_or_never()
            .expect("built-in tools answer at once")
    }
}

#[cfg(test)]
mod tests {
    use super::testing::FixedClock;
    use super::*;

    #[test]
    fn every_builtin_tool_builds() {
        let toolbox = Toolbox::new(Rc::new(FixedClock(0.0)), None);
        for name in BUILTIN_NAMES {
            let tool = toolbox.build(name).expect("listed names build");
            assert_eq!(tool.spec.name, *name);
            assert!(!tool.spec.description.is_empty());
        }
        assert!(toolbox.build("nope").is_none());
    }

    #[test]
    fn builtin_matches_its_build() {
        let toolbox = Toolbox::new(Rc::new(FixedClock(0.0)), None);
        for name in BUILTIN_NAMES {
            let built = toolbox.build(name).expect("listed names build");
            let listed = builtin(name).expect("listed names are described");
            assert_eq!(listed.spec, built.spec, "{name}");
            assert_eq!(listed.needs_approval, built.needs_approval, "{name}");
        }
        assert_eq!(builtin("nope"), None);
    }
}
