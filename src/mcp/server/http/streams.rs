//! The open-requests layer, with authentication configured: each `GET` (an event stream)
//! and `POST` (a call being answered) of a token holds one of its share of the server's
//! connections until its answer ends (`503`, `-32000` with `Retry-After` past the share),
//! so one token's event streams cannot take every connection slot.
//!
//! This module owns when a request counts as open; it must not count them (the tenants
//! do).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use super::super::auth::Principal;
use super::super::tenants::Tenants;
use super::{busy, hold};

/// The layer.
pub(super) async fn layer(
    State(tenants): State<Arc<Tenants>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(principal) = request.extensions().get::<Principal>() else {
        return next.run(request).await;
    };
    if !matches!(*request.method(), Method::GET | Method::POST) {
        return next.run(request).await;
    }
    match tenants.open_stream(principal) {
        Ok(stream) => hold::hold(next.run(request).await, stream),
        Err(share) => busy(
            Value::Null,
            format!(
                "Server busy: this token holds {share} requests open (event streams and calls being answered), its share of the server's connections (`max_streams` of its `[[serve.tokens]]` entry, else an even share of `--max-connections`); close an event stream or wait for a call's answer"
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::StatusCode;

    use super::*;
    use crate::mcp::server::auth::{BearerAuth, Shares};
    use crate::mcp::server::http::tests::{caps, principal_of, send, tokens};

    #[tokio::test]
    async fn a_token_past_its_share_of_open_requests_is_busy_until_one_ends() {
        let [a, b] = tokens();
        let auth = BearerAuth::new(vec![a.with_shares(Shares::even().with_streams(1)), b]).unwrap();
        let principal = |name: &str| principal_of(&auth, name);
        let tenants = Arc::new(Tenants::new(Some(auth.clone()), caps()));
        let edge = axum::Router::new()
            .fallback(|| async { "inner" })
            .layer(axum::middleware::from_fn_with_state(tenants, layer));
        let request = |principal: Principal| {
            let mut request = Request::builder()
                .method("GET")
                .uri("/mcp")
                .body(Body::empty())
                .unwrap();
            request.extensions_mut().insert(principal);
            request
        };
        let open = send(edge.clone(), request(principal("a"))).await;
        assert_eq!(open.status(), StatusCode::OK);
        let refused = send(edge.clone(), request(principal("a"))).await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            refused
                .headers()
                .contains_key(axum::http::header::RETRY_AFTER)
        );
        assert_eq!(
            send(edge.clone(), request(principal("b"))).await.status(),
            StatusCode::OK
        );
        drop(open);
        assert_eq!(
            send(edge, request(principal("a"))).await.status(),
            StatusCode::OK
        );
    }
}
