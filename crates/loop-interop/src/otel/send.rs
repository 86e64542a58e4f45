//! Sending an export to an OTLP/HTTP endpoint (a local collector, Jaeger,
//! Phoenix, Langfuse): the request, and what each way it can go is said as.
//! The POST itself is the caller's (the page's `fetch`).

use crate::error::SendError;
use crate::provider::HttpRequest;

/// The usual OTLP/HTTP traces endpoint of a collector on this machine.
pub const DEFAULT_ENDPOINT: &str = "http://127.0.0.1:4318/v1/traces";

/// The endpoint to POST to: `text` as typed, with `/v1/traces` added when
/// only a base (no path) was given, as the OTLP exporter's
/// `OTEL_EXPORTER_OTLP_ENDPOINT` does; or why it is not an endpoint.
pub fn endpoint(text: &str) -> Result<String, SendError> {
    let text = text.trim();
    crate::provider::parse_base_url(text).map_err(SendError::NotAnEndpoint)?;
    let after_scheme = text.split_once("://").map_or("", |(_, rest)| rest);
    let path = after_scheme
        .find(['/', '?', '#'])
        .map_or("", |at| &after_scheme[at..]);
    Ok(if path.is_empty() || path == "/" {
        format!("{}/v1/traces", text.trim_end_matches('/'))
    } else {
        text.to_string()
    })
}

/// The POST of `otlp_json` (an export) to `endpoint`.
pub fn request(endpoint: &str, otlp_json: String) -> HttpRequest {
    HttpRequest {
        url: endpoint.to_string(),
        headers: vec![("content-type".into(), "application/json".into())],
        body: otlp_json,
    }
}

/// What the endpoint's answer means, in a sentence.
pub fn answer(endpoint: &str, spans: usize, status: u16, body: &str) -> Result<String, SendError> {
    if (200..300).contains(&status) {
        // A collector may accept part of a batch: OTLP says so in the body.
        let partial = serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|v| v.pointer("/partialSuccess/rejectedSpans").cloned())
            .and_then(|v| {
                v.as_str()
                    .map(str::to_string)
                    .or_else(|| v.as_u64().map(|n| n.to_string()))
            })
            .filter(|n| n != "0");
        return match partial {
            Some(rejected) => Err(SendError::PartlyRejected {
                endpoint: endpoint.to_string(),
                rejected,
                spans,
                body: crate::tool::clip(body, 300),
            }),
            None => Ok(format!(
                "Sent the run to {endpoint} as OpenTelemetry: {spans} spans, HTTP {status}."
            )),
        };
    }
    Err(SendError::Refused {
        endpoint: endpoint.to_string(),
        status,
        body: crate::tool::clip(body.trim(), 300),
    })
}

/// Said when the browser got no answer: nothing listens, or CORS.
pub fn no_answer(endpoint: &str, origin: &str) -> String {
    format!(
        "The browser got no answer from {endpoint}. Either nothing listens there, or the endpoint does not allow this page (CORS): \
it must answer the preflight OPTIONS request and the POST with \"Access-Control-Allow-Origin: {origin}\" and \
\"Access-Control-Allow-Headers: content-type\". In the OpenTelemetry Collector: receivers: otlp: protocols: http: cors: \
allowed_origins: [\"{origin}\"]. Or save the file with Export as OpenTelemetry and POST it from a shell: \
curl -H 'content-type: application/json' --data @run.otlp.json {endpoint}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_gets_the_traces_path_and_a_full_endpoint_is_kept() {
        assert_eq!(
            endpoint("http://127.0.0.1:4318").unwrap(),
            "http://127.0.0.1:4318/v1/traces"
        );
        assert_eq!(
            endpoint("http://localhost:6006/v1/traces").unwrap(),
            "http://localhost:6006/v1/traces"
        );
        let not_a_url = endpoint("not a url").unwrap_err();
        assert!(matches!(not_a_url, SendError::NotAnEndpoint(_)));
        assert!(not_a_url.to_string().contains("not a URL"));
    }

    #[test]
    fn answers_say_what_happened() {
        let url = DEFAULT_ENDPOINT;
        assert_eq!(
            answer(url, 7, 200, "{}").unwrap(),
            "Sent the run to http://127.0.0.1:4318/v1/traces as OpenTelemetry: 7 spans, HTTP 200."
        );
        let partial = answer(url, 7, 200, r#"{"partialSuccess":{"rejectedSpans":"2"}}"#)
            .unwrap_err()
            .to_string();
        assert!(partial.contains("rejected 2 of its 7 spans"), "{partial}");
        let refused = answer(url, 7, 400, "bad trace id").unwrap_err().to_string();
        assert_eq!(
            refused,
            "http://127.0.0.1:4318/v1/traces refused the trace: HTTP 400: bad trace id"
        );
        let cors = no_answer(url, "http://127.0.0.1:8080");
        assert!(cors.contains("Access-Control-Allow-Origin: http://127.0.0.1:8080"));
        assert!(cors.contains("allowed_origins"));
    }
}
