//! Who may use the bridge: a request must come through a loopback name
//! (anything else reached this machine by a DNS rebinding), from no page
//! or from an allowed page (`Origin`), and carry the token printed at
//! start; and what CORS headers let the allowed pages read the answers.
//!
//! The token matters because the bridge runs a program on this machine
//! for whoever can reach it: binding 127.0.0.1 keeps other machines out,
//! the origin check keeps out other pages in this machine's browsers, and
//! the token keeps out every other local program and user.

use harness::mcp::cors::{CLIENT_HEADERS, EXPOSED_HEADERS};
use hyper::header::HeaderMap;
use hyper::StatusCode;

/// The playground's origins when it is served as the guide says
/// (`trunk serve`, port 8080).
pub const DEFAULT_ORIGINS: &[&str] = &["http://127.0.0.1:8080", "http://localhost:8080"];

/// Headers the page may send besides the MCP client's own.
const MORE_HEADERS: &[&str] = &["authorization", "last-event-id"];

pub struct Gate {
    pub token: String,
    pub origins: Vec<String>,
}

/// A request turned away: its status and a plain-text body saying why.
pub struct Refusal {
    pub status: StatusCode,
    pub body: String,
    pub note: &'static str,
}

impl Gate {
    /// Refuses a request from a foreign `Host` or `Origin` (any method,
    /// preflights included).
    pub fn check_origin(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        if let Some(host) = header(headers, "host") {
            if !crate::serve::loopback_host(host) {
                return Err(Refusal {
                    status: StatusCode::FORBIDDEN,
                    body: format!("Forbidden: Host {host} is not this machine's loopback name (a DNS rebinding?); use the URL the bridge printed, http://127.0.0.1:PORT/mcp\n"),
                    note: "foreign Host refused",
                });
            }
        }
        match header(headers, "origin") {
            Some(origin) if !self.allows(origin) => Err(Refusal {
                status: StatusCode::FORBIDDEN,
                body: format!(
                    "Forbidden: pages from {origin} may not use this bridge. It answers pages from {}; to allow this one, start it with --allow-origin {origin}\n",
                    self.origins.join(", ")
                ),
                note: "foreign origin refused",
            }),
            _ => Ok(()),
        }
    }

    /// Refuses a request without `Authorization: Bearer TOKEN`.
    pub fn check_token(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let given = header(headers, "authorization")
            .and_then(|value| value.strip_prefix("Bearer "))
            .map(str::trim);
        if given.is_some_and(|given| same(given.as_bytes(), self.token.as_bytes())) {
            return Ok(());
        }
        let why = if given.is_some() {
            "the token given is not this bridge's"
        } else {
            "no token given"
        };
        Err(Refusal {
            status: StatusCode::UNAUTHORIZED,
            body: format!(
                "Unauthorized: {why}. Send the header \"Authorization: Bearer TOKEN\", with the token that `agent-loop mcp bridge` printed after \"token:\" when it started (a new one each start). In the playground, paste it into the server's Token field under \"MCP servers\".\n"
            ),
            note: "no or wrong token",
        })
    }

    /// The origin to allow back, when the request's is allowed.
    pub fn allowed_origin<'a>(&self, headers: &'a HeaderMap) -> Option<&'a str> {
        header(headers, "origin").filter(|origin| self.allows(origin))
    }

    fn allows(&self, origin: &str) -> bool {
        self.origins.iter().any(|allowed| allowed == origin)
    }
}

/// The headers a preflight from an allowed page is answered with.
pub fn preflight_headers() -> Vec<(&'static str, String)> {
    let allowed: Vec<&str> = CLIENT_HEADERS.iter().chain(MORE_HEADERS).copied().collect();
    vec![
        (
            "access-control-allow-methods",
            "GET, POST, DELETE, OPTIONS".into(),
        ),
        ("access-control-allow-headers", allowed.join(", ")),
        ("access-control-max-age", "600".into()),
    ]
}

/// The response headers the page's script may read.
pub fn exposed_headers() -> String {
    EXPOSED_HEADERS.join(", ")
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Compares in time that does not depend on where the bytes differ, so the
/// token cannot be guessed a byte at a time from how fast refusals come.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Gate {
        Gate {
            token: "abc123".into(),
            origins: DEFAULT_ORIGINS.iter().map(|o| o.to_string()).collect(),
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_the_exact_token_passes() {
        let gate = gate();
        assert!(gate
            .check_token(&headers(&[("authorization", "Bearer abc123")]))
            .is_ok());
        for bad in ["Bearer abc12", "Bearer abc1234", "abc123", "Basic abc123"] {
            let refusal = gate
                .check_token(&headers(&[("authorization", bad)]))
                .err()
                .unwrap();
            assert_eq!(refusal.status, StatusCode::UNAUTHORIZED, "{bad}");
        }
        assert!(gate.check_token(&HeaderMap::new()).is_err());
    }

    #[test]
    fn the_playgrounds_origins_pass_and_others_are_refused() {
        let gate = gate();
        assert!(gate
            .check_origin(&headers(&[("origin", "http://localhost:8080")]))
            .is_ok());
        assert!(gate.check_origin(&HeaderMap::new()).is_ok());
        for bad in ["http://localhost:8081", "http://evil.example", "null"] {
            assert!(
                gate.check_origin(&headers(&[("origin", bad)])).is_err(),
                "{bad}"
            );
        }
        assert!(gate
            .check_origin(&headers(&[("host", "evil.example:80")]))
            .is_err());
    }
}
