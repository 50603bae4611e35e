//! The `Origin` layer: a request whose `Origin` is not a loopback origin or one the
//! operator allows (`--allowed-origin`) is `403`, `-32600`, before anything is read (the
//! transport requires servers to validate it).
//!
//! This module owns the origin comparison; it must not look at anything else.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use super::super::envelope;
use super::host::is_loopback_name;
use super::rpc_error;

/// Whether the request's `Origin` is absent, a loopback origin (`http` or `https`, a host
/// in [`ALLOWED_HOSTS`](super::host::ALLOWED_HOSTS), any port) or one of `listed` (compared as `scheme://host[:port]`,
/// case-insensitively). `null` and anything unparsable are foreign.
fn allowed(headers: &HeaderMap, listed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Some(uri) = origin
        .to_str()
        .ok()
        .and_then(|origin| axum::http::Uri::try_from(origin.trim()).ok())
    else {
        return false;
    };
    let web = matches!(uri.scheme_str(), Some("http" | "https"));
    let path_free = matches!(uri.path(), "" | "/") && uri.query().is_none();
    let Some(authority) = uri.authority() else {
        return false;
    };
    if !web || !path_free || authority.as_str().contains('@') {
        return false;
    }
    let normalized = format!(
        "{}://{}",
        uri.scheme_str().unwrap_or_default(),
        authority.as_str()
    );
    if listed.iter().any(|origin| {
        origin
            .trim_end_matches('/')
            .eq_ignore_ascii_case(&normalized)
    }) {
        return true;
    }
    is_loopback_name(authority.host())
}

/// The layer: a foreign `Origin` answered `403`, every other request on.
pub(super) async fn layer(
    State(listed): State<Arc<[String]>>,
    request: Request,
    next: Next,
) -> Response {
    if allowed(request.headers(), &listed) {
        return next.run(request).await;
    }
    let origin = request
        .headers()
        .get(header::ORIGIN)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
        .unwrap_or_default();
    rpc_error(
        StatusCode::FORBIDDEN,
        Value::Null,
        envelope::INVALID_REQUEST,
        format!(
            "Forbidden: the Origin `{origin}` is not a loopback origin or one the server allows (`--allowed-origin`); this server answers clients that send no Origin, pages served from localhost, 127.0.0.1 or [::1], and the origins its operator lists"
        ),
    )
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::HeaderValue;

    use super::*;
    use crate::mcp::server::http::tests::{inner, send, text};

    #[test]
    fn only_absent_and_loopback_origins_are_allowed() {
        let with = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ORIGIN, HeaderValue::from_static(value));
            allowed(&headers, &[])
        };
        assert!(allowed(&HeaderMap::new(), &[]));
        for origin in [
            "http://localhost",
            "http://127.0.0.1:8931",
            "https://LOCALHOST:3000",
            "http://[::1]:80",
        ] {
            assert!(with(origin), "{origin}");
        }
        for refused in [
            "null",
            "http://attacker.example",
            "http://localhost.attacker.example",
            "http://x@localhost",
            "file://localhost",
            "http://localhost/path",
            "localhost",
            "",
        ] {
            assert!(!with(refused), "{refused}");
        }
        let listed = ["https://Agents.Example.com".to_owned()];
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://agents.example.com"),
        );
        assert!(allowed(&headers, &listed));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://agents.example.com"),
        );
        assert!(!allowed(&headers, &listed));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://agents.example.com:8443"),
        );
        assert!(!allowed(&headers, &listed));
    }

    #[tokio::test]
    async fn a_foreign_origin_is_403_before_the_inner_service() {
        let edge = inner().layer(axum::middleware::from_fn_with_state(
            Arc::<[String]>::from(vec![]),
            layer,
        ));
        let request = |origin: &str| {
            Request::builder()
                .uri("/mcp")
                .header(header::ORIGIN, origin)
                .body(Body::empty())
                .unwrap()
        };
        let refused = send(edge.clone(), request("http://attacker.example")).await;
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);
        assert!(
            text(refused)
                .await
                .contains("`http://attacker.example` is not a loopback origin")
        );
        assert_eq!(
            text(send(edge, request("http://localhost:3000")).await).await,
            "inner"
        );
    }
}
