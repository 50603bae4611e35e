//! The bearer layer, with authentication configured ([`super::super::auth`]): the
//! protected-resource metadata answered at its well-known paths; a request without a
//! token, or with one the server does not accept, `401` with `WWW-Authenticate`, before
//! anything is read; an accepted request carries its [`Principal`] in its extensions (to
//! the later layers and the session's tool scope). Without authentication every request
//! goes on as it is.
//!
//! This module owns when a request is authenticated; it must not decide what a token may
//! do (the tenants' shares and the session's scope do).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

use super::super::auth::{self, Principal, Refusal, Resource};
use super::super::listen::Counted;
use super::super::tenants::Tenants;

/// The layer's state: the accepted tokens and where the resource is (for `401` answers
/// and the metadata document).
#[derive(Clone)]
pub(super) struct Bearer {
    pub(super) tenants: Arc<Tenants>,
    pub(super) resource: Resource,
}

/// Requests refused for their bearer token (for counted warnings).
static UNAUTHORIZED: Counted = Counted::new();

/// The layer.
pub(super) async fn layer(
    State(bearer): State<Bearer>,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(tokens) = bearer.tenants.auth() else {
        return next.run(request).await;
    };
    if request.method() == Method::GET
        && matches!(
            request.uri().path(),
            auth::METADATA_PATH | auth::METADATA_ROOT_PATH
        )
    {
        return auth::metadata_response(&bearer.resource, request.headers());
    }
    match tokens.check(request.headers()) {
        Ok(principal) => {
            request.extensions_mut().insert::<Principal>(principal);
            next.run(request).await
        }
        Err(refusal) => {
            if let Some(count) = UNAUTHORIZED.bump() {
                let why = match refusal {
                    Refusal::Missing => "no bearer token",
                    Refusal::Invalid => "a bearer token the server does not accept",
                };
                tracing::warn!(count, "HTTP requests refused with 401: {why} (and others)");
            }
            auth::unauthorized(refusal, &bearer.resource, request.headers())
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{StatusCode, header};

    use super::*;
    use crate::mcp::server::BearerToken;
    use crate::mcp::server::auth::BearerAuth;
    use crate::mcp::server::http::tests::{caps, send, text};

    const SECRET: &str = "bearer-layer-secret-0123456789abcdef";

    fn edge(auth: Option<BearerAuth>) -> axum::Router {
        let inner = axum::Router::new().fallback(|request: Request| async move {
            match request.extensions().get::<Principal>() {
                Some(principal) => format!("inner as {}", principal.token().name()),
                None => "inner".to_owned(),
            }
        });
        let bearer = Bearer {
            tenants: Arc::new(Tenants::new(auth, caps())),
            resource: Resource {
                public_url: None,
                tls: false,
            },
        };
        inner.layer(axum::middleware::from_fn_with_state(bearer, layer))
    }

    fn request(path: &str, token: Option<&str>) -> Request {
        let mut builder = Request::builder()
            .uri(path)
            .header(header::HOST, "localhost");
        if let Some(token) = token {
            builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        builder.body(Body::empty()).unwrap()
    }

    #[tokio::test]
    async fn without_tokens_everything_goes_on() {
        assert_eq!(
            text(send(edge(None), request("/mcp", None)).await).await,
            "inner"
        );
    }

    #[tokio::test]
    async fn a_missing_or_wrong_token_is_401_and_a_good_one_rides_in_the_extensions() {
        let auth =
            BearerAuth::new(vec![BearerToken::from_secret("team", SECRET).unwrap()]).unwrap();
        let edge = edge(Some(auth));
        for token in [None, Some("not-the-secret-0123456789abcdefghij")] {
            let refused = send(edge.clone(), request("/mcp", token)).await;
            assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
            assert!(refused.headers().contains_key(header::WWW_AUTHENTICATE));
        }
        let accepted = send(edge.clone(), request("/mcp", Some(SECRET))).await;
        assert_eq!(text(accepted).await, "inner as team");
        let metadata = send(edge, request(auth::METADATA_PATH, None)).await;
        assert_eq!(metadata.status(), StatusCode::OK);
        assert!(text(metadata).await.contains("bearer_methods_supported"));
    }
}
