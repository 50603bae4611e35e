//! The sessions layer: an `initialize` that opens a session is refused while the server
//! drains (`503` with `Retry-After`, saying it is stopping), past the session cap (`503`,
//! `-32000`, naming the cap) or past its token's share of the cap (naming the share); an
//! admitted one records which token opened the session. One `initialize` is admitted at a
//! time, from the count until its session exists (or never will), so the count is exact.
//!
//! This module owns admission to a session; it must not make sessions (rmcp does) or
//! decide a token's share (the tenants do).

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;

use super::super::auth::Principal;
use super::super::lifecycle::Lifecycle;
use super::super::listen::Counted;
use super::super::tenants::Tenants;
use super::body::Parsed;
use super::owners::Owners;
use super::{busy, stopping};

/// The layer's state.
#[derive(Clone)]
pub(super) struct Admission {
    pub(super) max_sessions: usize,
    /// Held by an `initialize` from its cap check until it was answered (its session then
    /// exists, or never will). An `initialize` is answered by the server alone (no client
    /// round trip), so it is held for the server's work on one `initialize` at a time.
    pub(super) opening: Arc<tokio::sync::Mutex<()>>,
    pub(super) sessions: Arc<LocalSessionManager>,
    pub(super) owners: Arc<Owners>,
    pub(super) lifecycle: Arc<Lifecycle>,
    pub(super) tenants: Arc<Tenants>,
}

/// Sessions refused at the cap (for counted warnings).
static SESSIONS_REFUSED: Counted = Counted::new();

impl Admission {
    /// The live sessions' ids.
    async fn live(&self) -> HashSet<String> {
        self.sessions
            .sessions
            .read()
            .await
            .keys()
            .map(|id| id.to_string())
            .collect()
    }

    /// A place for one more session (within the cap, and within `principal`'s share of
    /// it), or the `503` naming the cap or the share.
    async fn open(
        &self,
        id: Value,
        principal: Option<&Principal>,
    ) -> Result<tokio::sync::OwnedMutexGuard<()>, Response> {
        if self.lifecycle.is_draining() {
            return Err(stopping(id));
        }
        let opening = self.opening.clone().lock_owned().await;
        let live = self.live().await;
        if let Some(principal) = principal {
            let share = self.tenants.share(principal).sessions;
            let own = self.owners.owned(principal, &live);
            if own >= share && live.len() < self.max_sessions.max(share) {
                return Err(busy(
                    id,
                    format!(
                        "Server busy: this token has {own} MCP sessions open, its share of the server's cap (`max_sessions` of its `[[serve.tokens]]` entry, else an even share of `--max-sessions`); end an unused session with DELETE, or retry after idle sessions expire"
                    ),
                ));
            }
        }
        if live.len() < self.max_sessions {
            return Ok(opening);
        }
        if let Some(count) = SESSIONS_REFUSED.bump() {
            tracing::warn!(
                cap = self.max_sessions,
                count,
                "MCP sessions refused: the session cap is reached"
            );
        }
        Err(busy(
            id,
            format!(
                "Server busy: the server has reached its cap of {} MCP sessions (`--max-sessions`); end an unused session with DELETE, or retry after idle sessions expire",
                self.max_sessions
            ),
        ))
    }

    /// Records that `principal` opened `session`, and forgets sessions that ended once
    /// more are recorded than can exist.
    async fn own(&self, principal: Principal, session: String) {
        let most = self.max_sessions.saturating_mul(2).max(16);
        if self.owners.record(principal, session, most) {
            self.owners.keep_only(&self.live().await);
        }
    }
}

/// The layer.
pub(super) async fn layer(
    State(admission): State<Admission>,
    request: Request,
    next: Next,
) -> Response {
    let Some(id) = Parsed::opens(&request) else {
        return next.run(request).await;
    };
    let principal = request.extensions().get::<Principal>().cloned();
    let opening = match admission.open(id, principal.as_ref()).await {
        Ok(opening) => opening,
        Err(response) => return response,
    };
    let response = next.run(request).await;
    let opened = super::session_of(response.headers()).map(str::to_owned);
    if let (Some(principal), Some(session)) = (principal, opened) {
        admission.own(principal, session).await;
    }
    drop(opening);
    response
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::StatusCode;
    use rmcp::transport::streamable_http_server::SessionManager;

    use super::*;
    use crate::mcp::server::http::SESSION_HEADER;
    use crate::mcp::server::http::tests::{caps, principal_of, send, text};

    fn admission(max_sessions: usize) -> Admission {
        Admission {
            max_sessions,
            opening: Arc::default(),
            sessions: Arc::new(LocalSessionManager::default()),
            owners: Arc::default(),
            lifecycle: Arc::default(),
            tenants: Arc::new(Tenants::new(None, caps())),
        }
    }

    /// The inner service opens a session as rmcp would, and names it.
    fn edge(admission: &Admission) -> axum::Router {
        let sessions = admission.sessions.clone();
        axum::Router::new()
            .fallback(move || {
                let sessions = sessions.clone();
                async move {
                    let (id, _transport) = sessions.create_session().await.unwrap();
                    ([(SESSION_HEADER, id.to_string())], "opened")
                }
            })
            .layer(axum::middleware::from_fn_with_state(
                admission.clone(),
                layer,
            ))
    }

    fn initialize(principal: Option<&Principal>) -> Request {
        let mut request = Request::builder().uri("/mcp").body(Body::empty()).unwrap();
        request.extensions_mut().insert(Parsed {
            opens: Some(Value::from(1)),
            call: None,
        });
        if let Some(principal) = principal {
            request.extensions_mut().insert(principal.clone());
        }
        request
    }

    #[tokio::test]
    async fn sessions_past_the_cap_or_while_draining_are_refused() {
        let admission = admission(2);
        let edge = edge(&admission);
        for _ in 0..2 {
            let opened = send(edge.clone(), initialize(None)).await;
            assert!(opened.headers().contains_key(SESSION_HEADER));
        }
        let refused = send(edge.clone(), initialize(None)).await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(text(refused).await.contains("cap of 2 MCP sessions"));

        let draining = self::admission(2);
        draining.lifecycle.drain();
        let refused = send(self::edge(&draining), initialize(None)).await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(text(refused).await.contains("stopping"));
    }

    #[tokio::test]
    async fn a_token_past_its_share_is_refused_while_another_opens() {
        let mut admission = admission(8);
        let auth = a_and_b_with_one_session_each();
        let [a, b] = ["a", "b"].map(|name| principal_of(&auth, name));
        admission.tenants = Arc::new(Tenants::new(Some(auth), caps()));
        let edge = edge(&admission);
        assert_eq!(
            send(edge.clone(), initialize(Some(&a))).await.status(),
            StatusCode::OK
        );
        let refused = send(edge.clone(), initialize(Some(&a))).await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            text(refused)
                .await
                .contains("this token has 1 MCP sessions open")
        );
        assert_eq!(
            send(edge, initialize(Some(&b))).await.status(),
            StatusCode::OK
        );
    }

    fn a_and_b_with_one_session_each() -> crate::mcp::server::auth::BearerAuth {
        use crate::mcp::server::auth::{BearerAuth, Shares};
        let [a, b] = crate::mcp::server::http::tests::tokens();
        BearerAuth::new(vec![
            a.with_shares(Shares::even().with_sessions(1)),
            b.with_shares(Shares::even().with_sessions(1)),
        ])
        .unwrap()
    }
}
