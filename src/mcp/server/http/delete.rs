//! The `DELETE` layer: a `DELETE` naming a session that does not exist (or was already
//! deleted) is `404`, `-32001` (the code other MCP servers use for an unknown session);
//! one of a live session cancels the session's calls in flight, ends it, forgets its
//! owner, and is `204` (rmcp's `202` is not an answer the transport's clients expect).
//!
//! This module owns the answer to a `DELETE`; it must not end the session itself (rmcp
//! does).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use super::super::calls::Calls;
use super::owners::Owners;
use super::{session_not_found, session_of};

/// The layer's state.
#[derive(Clone)]
pub(super) struct Deletes {
    pub(super) sessions: Arc<LocalSessionManager>,
    pub(super) owners: Arc<Owners>,
    pub(super) calls: Arc<Calls>,
}

/// The layer.
pub(super) async fn layer(
    State(deletes): State<Deletes>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::DELETE {
        return next.run(request).await;
    }
    let Some(id) = session_of(request.headers()).map(str::to_owned) else {
        return next.run(request).await;
    };
    match deletes.sessions.has_session(&Arc::from(id.as_str())).await {
        Ok(false) => {
            deletes.owners.forget(&id);
            return session_not_found(&id);
        }
        Ok(true) => {}
        Err(err) => tracing::warn!(error = %err, "cannot look up an MCP session"),
    }
    deletes.calls.cancel_session(&id);
    let mut response = next.run(request).await;
    if response.status().is_success() {
        deletes.owners.forget(&id);
    }
    if response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
        response.headers_mut().remove(header::CONTENT_TYPE);
        response.headers_mut().remove(header::CONTENT_LENGTH);
        *response.body_mut() = Body::empty();
    }
    response
}

#[cfg(test)]
mod tests {
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::mcp::server::calls::id_key;
    use crate::mcp::server::http::SESSION_HEADER;
    use crate::mcp::server::http::tests::{send, text};

    #[tokio::test]
    async fn an_unknown_session_is_404_and_a_live_one_is_ended_204_with_its_calls_cancelled() {
        let deletes = Deletes {
            sessions: Arc::new(LocalSessionManager::default()),
            owners: Arc::default(),
            calls: Arc::default(),
        };
        let (live, _transport) = deletes.sessions.create_session().await.unwrap();
        let edge = axum::Router::new()
            .fallback(|| async { (StatusCode::ACCEPTED, "closed") })
            .layer(axum::middleware::from_fn_with_state(deletes.clone(), layer));
        let delete = |session: &str| {
            Request::builder()
                .method("DELETE")
                .uri("/mcp")
                .header(SESSION_HEADER, session)
                .body(Body::empty())
                .unwrap()
        };
        let unknown = send(edge.clone(), delete("gone")).await;
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
        assert!(text(unknown).await.contains("no session `gone`"));

        let signal = CancellationToken::new();
        let _registered = deletes.calls.register(&live, id_key(&1), signal.clone());
        let ended = send(edge, delete(&live)).await;
        assert_eq!(ended.status(), StatusCode::NO_CONTENT);
        assert!(!ended.headers().contains_key(header::CONTENT_TYPE));
        assert_eq!(text(ended).await, "");
        assert!(signal.is_cancelled());
    }
}
