//! Seed 003's refund tools: `get_order`, `check_refund_policy`, `refund_order`.
//!
//! What needs no judgement is enforced in code: `refund_order` refuses unless
//! `check_refund_policy` ran for that order in this run and found it in the
//! 30-day window, and above 20,000 cents it does not refund but answers
//! `needs_human: true`, so the model cannot talk itself into a large refund.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{json, Value};

use super::{define, define_writing, string_arg, BuiltinTool};
use crate::quote::quoted;
use crate::tool::ToolDef;

/// Above this a human decides (seed 003's `_MAX_AUTO_REFUND_CENTS`).
pub const MAX_AUTO_REFUND_CENTS: u64 = 20_000;
const WINDOW_DAYS: u32 = 30;

struct ShopOrder {
    id: &'static str,
    amount_cents: u64,
    delivered_days_ago: u32,
    refunded: bool,
}

pub struct Shop {
    orders: Vec<ShopOrder>,
    /// Orders whose policy was checked in this run, with the verdict.
    policy_checked: HashMap<String, bool>,
    refunds_issued: u32,
}

impl Shop {
    pub fn seeded() -> Self {
        Shop {
            orders: vec![
                ShopOrder {
                    id: "A1001",
                    amount_cents: 12_000,
                    delivered_days_ago: 5,
                    refunded: false,
                },
                ShopOrder {
                    id: "A1002",
                    amount_cents: 45_000,
                    delivered_days_ago: 3,
                    refunded: false,
                },
                ShopOrder {
                    id: "A1003",
                    amount_cents: 8_000,
                    delivered_days_ago: 40,
                    refunded: false,
                },
            ],
            policy_checked: HashMap::new(),
            refunds_issued: 0,
        }
    }

    /// The shop as the "Tool state" panel shows it: orders, the policy
    /// checks made in this run (sorted, so the JSON is stable), refunds.
    pub fn snapshot(&self) -> Value {
        let orders: Vec<Value> = self
            .orders
            .iter()
            .map(|o| {
                json!({"order_id": o.id, "amount_cents": o.amount_cents,
                    "delivered_days_ago": o.delivered_days_ago, "refunded": o.refunded})
            })
            .collect();
        // Sorted `&str` ids (each id once), like limits' canonical keys: one
        // copy of the sort in the web bundle for both.
        let mut ids: Vec<&str> = self.policy_checked.keys().map(String::as_str).collect();
        ids.sort();
        let checked: serde_json::Map<String, Value> = ids
            .into_iter()
            .map(|id| {
                (
                    id.to_string(),
                    json!({"in_window": self.policy_checked[id]}),
                )
            })
            .collect();
        json!({"orders": orders, "policy_checked": checked, "refunds_issued": self.refunds_issued})
    }

    fn find(&mut self, id: &str) -> Result<&mut ShopOrder, String> {
        self.orders
            .iter_mut()
            .find(|o| o.id == id)
            .ok_or_else(|| format!("unknown order {}; order ids look like A1001", quoted(id)))
    }
}

fn order_schema(extra: Option<(&str, Value)>) -> Value {
    let mut schema = json!({
        "type": "object",
        "properties": {"order_id": {"type": "string", "description": "The order id, e.g. A1001"}},
        "required": ["order_id"],
        "additionalProperties": false
    });
    if let Some((key, property)) = extra {
        schema["properties"][key] = property;
    }
    schema
}

pub(super) fn get_order_tool() -> BuiltinTool {
    BuiltinTool::new(
        "get_order",
        "Look up an order: amount and days since delivery. Use it when the user mentions an order.",
        order_schema(None),
        false,
    )
}

pub fn get_order(shop: Rc<RefCell<Shop>>) -> ToolDef {
    define(get_order_tool(), move |args| {
        let id = string_arg(&args, "order_id")?;
        let mut shop = shop.borrow_mut();
        let order = shop.find(&id)?;
        Ok(
            json!({"order_id": order.id, "amount_cents": order.amount_cents,
                "delivered_days_ago": order.delivered_days_ago, "refunded": order.refunded}),
        )
    })
}

pub(super) fn check_refund_policy_tool() -> BuiltinTool {
    BuiltinTool::new(
        "check_refund_policy",
        "Check whether an order can be refunded: in_window is true within 30 days of delivery. Call it before refund_order.",
        order_schema(None),
        false,
    )
}

pub fn check_refund_policy(shop: Rc<RefCell<Shop>>) -> ToolDef {
    let reader = shop.clone();
    define_writing(
        check_refund_policy_tool(),
        move |args| {
            let id = string_arg(&args, "order_id")?;
            let mut shop = shop.borrow_mut();
            let order = shop.find(&id)?;
            let in_window = order.delivered_days_ago <= WINDOW_DAYS && !order.refunded;
            let refundable = if in_window { order.amount_cents } else { 0 };
            shop.policy_checked.insert(id.clone(), in_window);
            Ok(
                json!({"order_id": id, "in_window": in_window, "window_days": WINDOW_DAYS,
                "refundable_cents": refundable}),
            )
        },
        move || reader.borrow().snapshot(),
    )
}

pub(super) fn refund_order_tool() -> BuiltinTool {
    BuiltinTool::new(
        "refund_order",
        "Refund an order (in full unless amount_cents is given). Only after check_refund_policy returned in_window=true for it. Refunds above 20000 cents go to a human.",
        order_schema(Some(("amount_cents", json!({"type": "integer", "minimum": 1})))),
        false,
    )
}

pub fn refund_order(shop: Rc<RefCell<Shop>>) -> ToolDef {
    let reader = shop.clone();
    define_writing(
        refund_order_tool(),
        move |args| {
            let id = string_arg(&args, "order_id")?;
            let mut shop = shop.borrow_mut();
            let checked = shop.policy_checked.get(&id).copied();
            let refunds_issued = shop.refunds_issued;
            let order = shop.find(&id)?;
            match checked {
                None => {
                    return Err(format!(
                        "refusing to refund {id}: check_refund_policy has not been called for it in this run"
                    ))
                }
                Some(false) => {
                    return Err(format!(
                        "refusing to refund {id}: it is outside the {WINDOW_DAYS}-day refund window or already refunded"
                    ))
                }
                Some(true) => {}
            }
            if order.refunded {
                return Err(format!("refusing to refund {id}: it was already refunded"));
            }
            let amount = args
                .get("amount_cents")
                .and_then(Value::as_u64)
                .unwrap_or(order.amount_cents);
            if amount > order.amount_cents {
                return Err(format!(
                    "refusing to refund {amount} cents for {id}: the order is {} cents",
                    order.amount_cents
                ));
            }
            if amount > MAX_AUTO_REFUND_CENTS {
                return Ok(
                    json!({"ok": false, "needs_human": true, "order_id": id, "amount_cents": amount,
                    "reason": format!("refunds above {MAX_AUTO_REFUND_CENTS} cents need a human's decision; a ticket was opened")}),
                );
            }
            order.refunded = true;
            shop.refunds_issued = refunds_issued + 1;
            Ok(
                json!({"ok": true, "order_id": id, "refund_id": format!("rf_{:04}", refunds_issued + 1), "refunded_cents": amount}),
            )
        },
        move || reader.borrow().snapshot(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::testing::call_now;

    fn tools() -> (ToolDef, ToolDef, ToolDef) {
        let shop = Rc::new(RefCell::new(Shop::seeded()));
        (
            get_order(shop.clone()),
            check_refund_policy(shop.clone()),
            refund_order(shop),
        )
    }

    #[test]
    fn refund_only_after_an_in_window_policy_check() {
        let (_, policy, refund) = tools();
        let early = call_now(&refund, json!({"order_id": "A1001"})).unwrap_err();
        assert!(
            early.contains("check_refund_policy has not been called for it in this run"),
            "{early}"
        );
        assert_eq!(
            call_now(&policy, json!({"order_id": "A1001"})).unwrap()["in_window"],
            true
        );
        let done = call_now(&refund, json!({"order_id": "A1001"})).unwrap();
        assert_eq!(done["ok"], true);
        assert_eq!(done["refunded_cents"], 12000);
        let twice = call_now(&refund, json!({"order_id": "A1001"})).unwrap_err();
        assert!(twice.contains("already refunded"), "{twice}");
    }

    #[test]
    fn out_of_window_is_refused_even_after_the_check() {
        let (_, policy, refund) = tools();
        assert_eq!(
            call_now(&policy, json!({"order_id": "A1003"})).unwrap()["in_window"],
            false
        );
        let refused = call_now(&refund, json!({"order_id": "A1003"})).unwrap_err();
        assert!(refused.contains("outside the 30-day refund window"));
    }

    #[test]
    fn large_refunds_go_to_a_human() {
        let (_, policy, refund) = tools();
        call_now(&policy, json!({"order_id": "A1002"})).unwrap();
        let result = call_now(&refund, json!({"order_id": "A1002"})).unwrap();
        assert_eq!(result["ok"], false);
        assert_eq!(result["needs_human"], true);
        // A partial refund under the ceiling goes through.
        let partial =
            call_now(&refund, json!({"order_id": "A1002", "amount_cents": 15000})).unwrap();
        assert_eq!(partial["ok"], true);
    }

    #[test]
    fn unknown_orders_say_what_ids_look_like() {
        let (get, _, _) = tools();
        let err = call_now(&get, json!({"order_id": "ORD-1001"})).unwrap_err();
        assert_eq!(err, "unknown order \"ORD-1001\"; order ids look like A1001");
    }
}
