//! Seed 001's one harmless tool: `get_time`, with an empty-object schema that
//! rejects any argument (`additionalProperties: false`).

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::{json, Value};

use crate::model::ToolSpec;
use crate::runtime::Runtime;
use crate::tool::{ToolDef, ToolHandler};

pub fn get_time(runtime: Rc<dyn Runtime>) -> ToolDef {
    let input_schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    ToolDef {
        spec: ToolSpec {
            name: "get_time".into(),
            description: "Returns the current date and time in UTC. Takes no arguments.".into(),
            input_schema: input_schema.clone(),
        },
        // A literal schema; the clock tests prove it compiles.
        schema: tool_schema::Schema::compile(&input_schema).expect("get_time's schema compiles"),
        needs_approval: false,
        handler: Rc::new(Clock(runtime)),
    }
}

struct Clock(Rc<dyn Runtime>);

impl ToolHandler for Clock {
    fn call(&self, _args: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        let unix_ms = self.0.unix_ms();
        Box::pin(async move { Ok(json!({"utc": iso8601(unix_ms), "unix_ms": unix_ms as u64})) })
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` from Unix milliseconds (proleptic Gregorian calendar).
pub fn iso8601(unix_ms: f64) -> String {
    let secs = (unix_ms / 1000.0).floor() as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn formats_known_instants() {
        assert_eq!(iso8601(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400_000.0), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_796_000_000_000.0), "2026-11-30T00:53:20Z");
    }
}
