//! The `Host` layer (the DNS-rebinding defence of a loopback listener): a request naming a
//! host that is not a loopback name skips every other layer and goes straight to rmcp,
//! which refuses it with its own answer (`403`, or `400` for a `Host` it cannot read): the
//! edge never reads such a request's body or answers whether a session exists.
//!
//! This module owns the host comparison; it must not answer the request itself (rmcp's
//! check, with the same list, does).

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use tower::ServiceExt;

/// The hosts requests may name (rmcp enforces the same list).
pub(crate) const ALLOWED_HOSTS: [&str; 4] = ["localhost", "127.0.0.1", "::1", "[::1]"];

/// The layer's state: whether the check applies (a loopback listener) and the service a
/// foreign host's request goes to (rmcp, without the other layers).
#[derive(Clone)]
pub(super) struct Host {
    pub(super) check: bool,
    pub(super) bypass: axum::Router,
}

/// Whether the request names an allowed host (any port), parsed exactly as rmcp parses
/// it (the `Host` header as a URI authority, else the URI's own authority; the host part,
/// brackets trimmed, lowercased), so the two can never disagree.
fn allowed(request: &Request) -> bool {
    let authority = match request.headers().get(header::HOST) {
        Some(host) => match host
            .to_str()
            .ok()
            .and_then(|host| axum::http::uri::Authority::try_from(host).ok())
        {
            Some(authority) => authority,
            None => return false,
        },
        None => match request.uri().authority() {
            Some(authority) => authority.clone(),
            None => return false,
        },
    };
    is_loopback_name(authority.host())
}

/// Whether `host` (brackets trimmed, any case) is one of [`ALLOWED_HOSTS`].
pub(super) fn is_loopback_name(host: &str) -> bool {
    let host = host
        .trim_matches('[')
        .trim_matches(']')
        .to_ascii_lowercase();
    ALLOWED_HOSTS
        .iter()
        .any(|allowed| allowed.trim_matches('[').trim_matches(']') == host)
}

/// The layer: a foreign host's request to rmcp alone, every other one on.
pub(super) async fn layer(State(host): State<Host>, request: Request, next: Next) -> Response {
    if host.check && !allowed(&request) {
        return match host.bypass.oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use axum::body::Body;

    use super::*;
    use crate::mcp::server::http::tests::{inner, send, text};

    fn edge(check: bool) -> axum::Router {
        let bypass = axum::Router::new().fallback(|| async { "rmcp" });
        inner().layer(axum::middleware::from_fn_with_state(
            Host { check, bypass },
            layer,
        ))
    }

    fn to(host: &str) -> Request {
        Request::builder()
            .uri("/mcp")
            .header(header::HOST, host)
            .body(Body::empty())
            .unwrap()
    }

    #[tokio::test]
    async fn loopback_hosts_go_on_and_foreign_ones_go_to_rmcp_alone() {
        for host in ["localhost", "127.0.0.1:8931", "[::1]:80", "LOCALHOST"] {
            assert_eq!(
                text(send(edge(true), to(host)).await).await,
                "inner",
                "{host}"
            );
        }
        for host in ["attacker.example", "localhost.attacker.example", "a b"] {
            assert_eq!(
                text(send(edge(true), to(host)).await).await,
                "rmcp",
                "{host}"
            );
        }
        assert_eq!(
            text(send(edge(false), to("attacker.example")).await).await,
            "inner"
        );
    }
}
