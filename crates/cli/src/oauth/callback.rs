//! The loopback redirect (RFC 8252 §7.3): a listener on 127.0.0.1 the
//! authorization server sends the browser back to, with the code.
//!
//! It reads one request line and answers with a short page; that is all a
//! redirect back carries, so no HTTP server is needed for it.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use url::Url;

pub struct Callback {
    listener: TcpListener,
    pub redirect_uri: String,
}

/// What came back on the redirect.
pub struct Returned {
    pub code: String,
    pub state: Option<String>,
}

impl Callback {
    pub async fn bind() -> Result<Callback, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1 for the redirect back: {e}"))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on 127.0.0.1 for the redirect back: {e}"))?
            .port();
        Ok(Callback {
            listener,
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
        })
    }

    /// Waits for the redirect back to `/callback`; other requests (a
    /// browser's favicon) are answered 404 and waited past.
    pub async fn wait(&self) -> Result<Returned, String> {
        loop {
            let (mut stream, _) = self
                .listener
                .accept()
                .await
                .map_err(|e| format!("the redirect back could not be read: {e}"))?;
            let mut head = Vec::new();
            let mut buffer = [0u8; 2048];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => head.extend_from_slice(&buffer[..n]),
                }
            }
            let head = String::from_utf8_lossy(&head);
            let target = head
                .lines()
                .next()
                .and_then(|line| line.split_whitespace().nth(1))
                .unwrap_or("/");
            let Ok(url) = Url::parse(&format!("http://127.0.0.1{target}")) else {
                continue;
            };
            if url.path() != "/callback" {
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                    )
                    .await;
                continue;
            }
            let query = |name: &str| {
                url.query_pairs()
                    .find(|(key, _)| key == name)
                    .map(|(_, value)| value.into_owned())
            };
            let (page, outcome) = match (query("code"), query("error")) {
                (Some(code), _) => (
                    "Signed in. You can close this tab and go back to agent-loop.",
                    Ok(Returned {
                        code,
                        state: query("state"),
                    }),
                ),
                (None, Some(error)) => (
                    "The authorization server refused. agent-loop says why in the terminal.",
                    Err(match query("error_description") {
                        Some(description) => {
                            format!("the authorization server refused: {error} ({description})")
                        }
                        None => format!("the authorization server refused: {error}"),
                    }),
                ),
                (None, None) => (
                    "This redirect carried no code.",
                    Err("the redirect back carried neither a code nor an error".to_string()),
                ),
            };
            let body = format!("<!doctype html><title>agent-loop</title><p>{page}</p>");
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes()).await;
            let _ = stream.shutdown().await;
            return outcome;
        }
    }
}
