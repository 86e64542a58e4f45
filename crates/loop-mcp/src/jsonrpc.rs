//! JSON-RPC 2.0 as MCP uses it: requests and notifications out, responses
//! (and the server's own requests and notifications) in.

use serde_json::{json, Map, Value};

/// The 2026 generation's error codes that only a modern server sends; a 400
/// carrying one means "modern, but the request needs fixing".
pub const HEADER_MISMATCH: i64 = -32020;
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INVALID_REQUEST: i64 = -32600;
pub const PARSE_ERROR: i64 = -32700;

pub fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

pub fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

pub fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn error(id: &Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), json!(code));
    error.insert("message".into(), json!(message));
    if let Some(data) = data {
        error.insert("data".into(), data);
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// A JSON-RPC error as received.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "JSON-RPC error {} ({}): {}",
            self.code,
            code_name(self.code),
            self.message
        )
    }
}

/// The standard name of a JSON-RPC or MCP error code.
pub fn code_name(code: i64) -> &'static str {
    match code {
        PARSE_ERROR => "parse error",
        INVALID_REQUEST => "invalid request",
        METHOD_NOT_FOUND => "method not found",
        INVALID_PARAMS => "invalid params",
        -32603 => "internal error",
        HEADER_MISMATCH => "header mismatch",
        MISSING_REQUIRED_CLIENT_CAPABILITY => "missing required client capability",
        UNSUPPORTED_PROTOCOL_VERSION => "unsupported protocol version",
        -32002 => "resource not found",
        -32099..=-32000 => "server error",
        _ => "application error",
    }
}

/// One message from the server, sorted.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// The answer to request `id`.
    Response {
        id: Value,
        outcome: Result<Value, RpcError>,
    },
    /// A request of the server's own (sampling, elicitation: legacy only).
    Request {
        id: Value,
        method: String,
    },
    Notification {
        method: String,
    },
}

/// Sorts a message; `None` for anything that is not JSON-RPC.
pub fn read(message: &Value) -> Option<Incoming> {
    let object = message.as_object()?;
    let id = object.get("id").cloned();
    if let Some(method) = object.get("method").and_then(Value::as_str) {
        return Some(match id {
            Some(id) => Incoming::Request {
                id,
                method: method.to_string(),
            },
            None => Incoming::Notification {
                method: method.to_string(),
            },
        });
    }
    let id = id.unwrap_or(Value::Null);
    if let Some(result) = object.get("result") {
        return Some(Incoming::Response {
            id,
            outcome: Ok(result.clone()),
        });
    }
    // An OAuth refusal's body (`{"error": "invalid_token", …}`, RFC 6750)
    // has an `error` too, but a string: it is no JSON-RPC error.
    let error = object.get("error").filter(|error| error.is_object())?;
    Some(Incoming::Response {
        id,
        outcome: Err(rpc_error(error)),
    })
}

fn rpc_error(error: &Value) -> RpcError {
    RpcError {
        code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
        message: error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("(no message)")
            .to_string(),
        data: error.get("data").cloned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_oauth_refusal_is_not_a_json_rpc_error() {
        let refusal =
            json!({"error": "invalid_token", "error_description": "Missing Authorization header"});
        assert!(read(&refusal).is_none());
        let rpc = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no such method"}});
        assert!(matches!(
            read(&rpc),
            Some(Incoming::Response {
                outcome: Err(_),
                ..
            })
        ));
    }
}
