//! Seed 000's order store: `get_order_status` (read) and `issue_refund`
//! (write, needs approval). `ord_f6g7h8i9j0` is processing (the refund
//! target); `ord_a1b2c3d4e5` was already refunded. The handler refuses a
//! second refund and unknown orders itself — a description that says "check
//! the status first" is a request, not a rule.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{json, Value};

use super::{define, define_writing, string_arg, BuiltinTool};
use crate::quote::quoted;
use crate::tool::ToolDef;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Processing,
    Shipped,
    Refunded,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Processing => "processing",
            Status::Shipped => "shipped",
            Status::Refunded => "refunded",
        }
    }
}

struct Order {
    id: &'static str,
    status: Status,
    amount_cents: u64,
}

pub struct OrderStore {
    orders: Vec<Order>,
    refunds_issued: u32,
}

impl OrderStore {
    pub fn seeded() -> Self {
        OrderStore {
            orders: vec![
                Order {
                    id: "ord_f6g7h8i9j0",
                    status: Status::Processing,
                    amount_cents: 4_200,
                },
                Order {
                    id: "ord_a1b2c3d4e5",
                    status: Status::Refunded,
                    amount_cents: 12_900,
                },
                Order {
                    id: "ord_k1l2m3n4o5",
                    status: Status::Shipped,
                    amount_cents: 2_500,
                },
            ],
            refunds_issued: 0,
        }
    }

    /// The store as the "Tool state" panel shows it.
    pub fn snapshot(&self) -> Value {
        let orders: Vec<Value> = self
            .orders
            .iter()
            .map(|o| json!({"order_id": o.id, "status": o.status.as_str(), "amount_cents": o.amount_cents}))
            .collect();
        json!({"orders": orders, "refunds_issued": self.refunds_issued})
    }

    fn find(&mut self, id: &str) -> Result<&mut Order, String> {
        let known: Vec<&str> = self.orders.iter().map(|o| o.id).collect();
        let known = known.join(", ");
        self.orders
            .iter_mut()
            .find(|o| o.id == id)
            .ok_or_else(|| format!("no order with id {} (known orders: {known})", quoted(id)))
    }
}

const ORDER_ID_SCHEMA: &str = "Order id, e.g. ord_f6g7h8i9j0";

fn order_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"order_id": {"type": "string", "description": ORDER_ID_SCHEMA}},
        "required": ["order_id"],
        "additionalProperties": false
    })
}

pub(super) fn get_order_status_tool() -> BuiltinTool {
    BuiltinTool::new(
        "get_order_status",
        "Look up an order's status (processing, shipped or refunded) and amount. Use it before changing an order.",
        order_schema(),
        false,
    )
}

pub fn get_order_status(store: Rc<RefCell<OrderStore>>) -> ToolDef {
    define(get_order_status_tool(), move |args| {
        let id = string_arg(&args, "order_id")?;
        let mut store = store.borrow_mut();
        let order = store.find(&id)?;
        Ok(
            json!({"order_id": order.id, "status": order.status.as_str(), "amount_cents": order.amount_cents}),
        )
    })
}

pub(super) fn issue_refund_tool() -> BuiltinTool {
    BuiltinTool::new(
        "issue_refund",
        "Refund an order in full. Writes money back to the customer, so a human approves each call. Check the order's status with get_order_status first; never refund an order twice.",
        order_schema(),
        true,
    )
}

pub fn issue_refund(store: Rc<RefCell<OrderStore>>) -> ToolDef {
    let reader = store.clone();
    define_writing(
        issue_refund_tool(),
        move |args| {
            let id = string_arg(&args, "order_id")?;
            let mut store = store.borrow_mut();
            let order = store.find(&id)?;
            if order.status == Status::Refunded {
                return Err(format!(
                    "order {id} was already refunded; refusing to refund it twice"
                ));
            }
            order.status = Status::Refunded;
            let amount = order.amount_cents;
            store.refunds_issued += 1;
            let refund_id = format!("re_{:04}", store.refunds_issued);
            Ok(
                json!({"ok": true, "order_id": id, "refund_id": refund_id, "refunded_cents": amount}),
            )
        },
        move || reader.borrow().snapshot(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::testing::call_now;

    #[test]
    fn refunds_once_and_refuses_what_the_description_only_asks() {
        let store = Rc::new(RefCell::new(OrderStore::seeded()));
        let status = get_order_status(store.clone());
        let refund = issue_refund(store.clone());
        assert!(refund.needs_approval);
        assert_eq!(
            call_now(&status, json!({"order_id": "ord_f6g7h8i9j0"})).unwrap()["status"],
            "processing"
        );
        let first = call_now(&refund, json!({"order_id": "ord_f6g7h8i9j0"})).unwrap();
        assert_eq!(first["refunded_cents"], 4200);
        assert_eq!(
            call_now(&status, json!({"order_id": "ord_f6g7h8i9j0"})).unwrap()["status"],
            "refunded"
        );
        let again = call_now(&refund, json!({"order_id": "ord_f6g7h8i9j0"})).unwrap_err();
        assert!(again.contains("already refunded"), "{again}");
        let seeded = call_now(&refund, json!({"order_id": "ord_a1b2c3d4e5"})).unwrap_err();
        assert!(seeded.contains("already refunded"));
        let unknown = call_now(&refund, json!({"order_id": "ord_zzz"})).unwrap_err();
        assert!(
            unknown.contains("no order with id \"ord_zzz\" (known orders: ord_f6g7h8i9j0"),
            "{unknown}"
        );
    }

    #[test]
    fn each_store_starts_from_the_seed() {
        let first = Rc::new(RefCell::new(OrderStore::seeded()));
        call_now(&issue_refund(first), json!({"order_id": "ord_f6g7h8i9j0"})).unwrap();
        let second = Rc::new(RefCell::new(OrderStore::seeded()));
        assert!(call_now(&issue_refund(second), json!({"order_id": "ord_f6g7h8i9j0"})).is_ok());
    }
}
