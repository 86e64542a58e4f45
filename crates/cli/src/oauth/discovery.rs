//! Where a protected MCP server's authorization server is, and what it
//! offers, found as the MCP authorization spec says
//! (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization):
//! the protected resource metadata (RFC 9728) named by the challenge or at
//! its well-known places, then the authorization server's metadata
//! (RFC 8414, or OpenID Connect discovery) at the places the issuer's path
//! decides. A server with no resource metadata is read the 2025-03-26 way
//! (https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization#server-metadata-discovery):
//! metadata at the server's own origin, else its default endpoints.

use std::rc::Rc;

use harness::mcp::transport::McpTransport;
use serde_json::Value;
use url::Url;

use super::challenge::{split_scopes, Challenge};
use super::http;

/// What discovery found: everything the flow needs to ask for a token.
#[derive(Clone, Debug)]
pub struct Discovered {
    /// The `resource` parameter (RFC 8707): the resource metadata's
    /// `resource`, else the server's URL.
    pub resource: String,
    /// The resource metadata's `scopes_supported`, when it has them.
    pub resource_scopes: Option<Vec<String>>,
    /// The authorization server's issuer: the audience of a client's
    /// signed assertion.
    pub issuer: String,
    pub server: ServerMetadata,
}

#[derive(Clone, Debug, Default)]
pub struct ServerMetadata {
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Option<Vec<String>>,
    pub token_endpoint_auth_methods: Option<Vec<String>>,
    pub code_challenge_methods: Option<Vec<String>>,
    pub grant_types: Option<Vec<String>>,
    pub client_id_metadata_document_supported: bool,
}

impl ServerMetadata {
    fn from_json(json: &Value) -> Result<ServerMetadata, String> {
        let text = |name: &str| json.get(name).and_then(Value::as_str).map(str::to_string);
        let list = |name: &str| {
            json.get(name).and_then(Value::as_array).map(|items| {
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
        };
        Ok(ServerMetadata {
            authorization_endpoint: text("authorization_endpoint")
                .ok_or("its metadata has no authorization_endpoint")?,
            token_endpoint: text("token_endpoint").ok_or("its metadata has no token_endpoint")?,
            registration_endpoint: text("registration_endpoint"),
            scopes_supported: list("scopes_supported"),
            token_endpoint_auth_methods: list("token_endpoint_auth_methods_supported"),
            code_challenge_methods: list("code_challenge_methods_supported"),
            grant_types: list("grant_types_supported"),
            client_id_metadata_document_supported: json
                .get("client_id_metadata_document_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })
    }

    /// Whether the server signs in machines only (the client credentials
    /// grant), with no authorization code for a person.
    pub fn machines_only(&self) -> bool {
        self.grant_types.as_ref().is_some_and(|grants| {
            grants.iter().any(|g| g == "client_credentials")
                && !grants.iter().any(|g| g == "authorization_code")
        })
    }

    /// The endpoints a 2025-03-26 server without metadata has at its root.
    fn defaults(base: &Url) -> ServerMetadata {
        let at = |path: &str| base.join(path).map(String::from).unwrap_or_default();
        ServerMetadata {
            authorization_endpoint: at("/authorize"),
            token_endpoint: at("/token"),
            registration_endpoint: Some(at("/register")),
            ..ServerMetadata::default()
        }
    }
}

/// Where to look for the resource metadata, in order: the challenge's
/// `resource_metadata`, else the path-based well-known URI, then the root
/// one (RFC 9728 §3.1; the MCP spec's order).
pub fn resource_metadata_urls(server: &Url, challenge: &Challenge) -> Vec<String> {
    if let Some(named) = &challenge.resource_metadata {
        return vec![named.clone()];
    }
    let mut urls = Vec::new();
    let path = server.path().trim_end_matches('/');
    if !path.is_empty() {
        urls.push(well_known(server, "oauth-protected-resource", path));
    }
    urls.push(well_known(server, "oauth-protected-resource", ""));
    urls
}

/// Where to look for an issuer's metadata, in order (RFC 8414 §3.1 and
/// OpenID Connect discovery, as the MCP spec orders them): with a path,
/// the path goes after the well-known name, and OpenID's form also before
/// it; never at the bare root, which would be another issuer's.
pub fn server_metadata_urls(issuer: &Url) -> Vec<String> {
    let path = issuer.path().trim_end_matches('/');
    if path.is_empty() {
        vec![
            well_known(issuer, "oauth-authorization-server", ""),
            well_known(issuer, "openid-configuration", ""),
        ]
    } else {
        vec![
            well_known(issuer, "oauth-authorization-server", path),
            well_known(issuer, "openid-configuration", path),
            format!(
                "{}/.well-known/openid-configuration",
                origin_of(issuer) + path
            ),
        ]
    }
}

fn origin_of(url: &Url) -> String {
    url.origin().ascii_serialization()
}

fn well_known(url: &Url, name: &str, path: &str) -> String {
    format!("{}/.well-known/{name}{path}", origin_of(url))
}

/// Whether the resource metadata describes this server: the same origin,
/// and the server's path at or under the resource's (RFC 9728 §3.3: a
/// client must not use metadata whose `resource` is another's).
pub fn resource_matches(resource: &str, server: &Url) -> bool {
    let Ok(resource) = Url::parse(resource) else {
        return false;
    };
    if resource.origin() != server.origin() {
        return false;
    }
    let base = resource.path().trim_end_matches('/');
    let path = server.path();
    base.is_empty() || path == base || path.starts_with(&format!("{base}/"))
}

pub async fn discover(
    transport: &Rc<dyn McpTransport>,
    server_url: &str,
    challenge: &Challenge,
) -> Result<Discovered, String> {
    let server = Url::parse(server_url).map_err(|e| format!("{server_url} is not a URL ({e})"))?;
    let mut tried = Vec::new();
    let mut resource_metadata = None;
    for url in resource_metadata_urls(&server, challenge) {
        let answer = http::get(transport, &url).await?;
        if answer.ok() && answer.json.is_object() {
            resource_metadata = Some(answer.json);
            break;
        }
        tried.push(format!("{url} ({})", answer.status));
    }
    let Some(metadata) = resource_metadata else {
        if challenge.resource_metadata.is_some() {
            return Err(format!(
                "the resource metadata its challenge names could not be read: {}",
                tried.join(", ")
            ));
        }
        return legacy(transport, &server).await.map_err(|why| {
            format!(
                "found no protected resource metadata (tried {}), and {why}",
                tried.join(", ")
            )
        });
    };
    let resource = match metadata.get("resource").and_then(Value::as_str) {
        Some(resource) if !resource_matches(resource, &server) => {
            return Err(format!(
                "its protected resource metadata is for {resource}, not {server_url}; agent-loop will not get a token for one server from another's metadata"
            ))
        }
        Some(resource) => resource.to_string(),
        None => without_fragment(&server),
    };
    let resource_scopes = metadata
        .get("scopes_supported")
        .and_then(Value::as_array)
        .map(|items| {
            let joined: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            split_scopes(&joined.join(" "))
        });
    let issuer = metadata
        .get("authorization_servers")
        .and_then(Value::as_array)
        .and_then(|servers| servers.first())
        .and_then(Value::as_str)
        .ok_or("its protected resource metadata names no authorization server")?;
    let issuer = Url::parse(issuer).map_err(|e| {
        format!("its protected resource metadata names {issuer}, which is not a URL ({e})")
    })?;
    let mut tried = Vec::new();
    for url in server_metadata_urls(&issuer) {
        let answer = http::get(transport, &url).await?;
        if answer.ok() && answer.json.is_object() {
            let server = ServerMetadata::from_json(&answer.json)
                .map_err(|why| format!("the authorization server at {url}: {why}"))?;
            let issuer = answer
                .json
                .get("issuer")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| issuer.to_string());
            return Ok(Discovered {
                resource,
                resource_scopes,
                issuer,
                server,
            });
        }
        tried.push(format!("{url} ({})", answer.status));
    }
    Err(format!(
        "found no metadata for the authorization server {issuer} (tried {})",
        tried.join(", ")
    ))
}

/// The 2025-03-26 way: the server's origin is the authorization server.
async fn legacy(transport: &Rc<dyn McpTransport>, server: &Url) -> Result<Discovered, String> {
    let mut base = server.clone();
    base.set_path("/");
    base.set_query(None);
    let url = well_known(server, "oauth-authorization-server", "");
    let answer = http::get(transport, &url).await?;
    let issuer = answer
        .json
        .get("issuer")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| origin_of(server));
    let metadata = if answer.ok() && answer.json.is_object() {
        ServerMetadata::from_json(&answer.json)
            .map_err(|why| format!("the authorization server at {url}: {why}"))?
    } else {
        ServerMetadata::defaults(&base)
    };
    Ok(Discovered {
        resource: without_fragment(server),
        resource_scopes: None,
        issuer,
        server: metadata,
    })
}

fn without_fragment(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn resource_metadata_is_looked_for_path_first_unless_named() {
        let server = url("http://localhost:9/mcp");
        assert_eq!(
            resource_metadata_urls(&server, &Challenge::default()),
            [
                "http://localhost:9/.well-known/oauth-protected-resource/mcp",
                "http://localhost:9/.well-known/oauth-protected-resource"
            ]
        );
        let named = Challenge {
            resource_metadata: Some("http://localhost:9/custom.json".into()),
            ..Challenge::default()
        };
        assert_eq!(
            resource_metadata_urls(&server, &named),
            ["http://localhost:9/custom.json"]
        );
    }

    #[test]
    fn an_issuer_with_a_path_is_never_looked_up_at_the_root() {
        assert_eq!(
            server_metadata_urls(&url("http://a:1/tenant1")),
            [
                "http://a:1/.well-known/oauth-authorization-server/tenant1",
                "http://a:1/.well-known/openid-configuration/tenant1",
                "http://a:1/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            server_metadata_urls(&url("http://a:1")),
            [
                "http://a:1/.well-known/oauth-authorization-server",
                "http://a:1/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn metadata_for_another_server_does_not_match() {
        let server = url("http://localhost:9/mcp");
        assert!(resource_matches("http://localhost:9/mcp", &server));
        assert!(resource_matches("http://localhost:9", &server));
        assert!(!resource_matches("http://localhost:9/other", &server));
        assert!(!resource_matches("https://evil.example/mcp", &server));
    }
}
