//! Which token opened each session, and the ownership layer: a session belongs to the
//! token that opened it, and a request of another token naming it is answered as for an
//! unknown session (`404`, `-32001`) before anything is read. Without authentication
//! there is one tenant and nothing is recorded.
//!
//! This module owns the record of owners; it must not decide whether a session may be
//! opened (the sessions layer records its owner when it is) or ended (the `DELETE` layer
//! forgets it).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use super::super::auth::Principal;
use super::{session_not_found, session_of};

/// The owner of each session opened by an authenticated request.
#[derive(Debug, Default)]
pub(super) struct Owners {
    by_session: parking_lot::Mutex<HashMap<String, Principal>>,
}

impl Owners {
    /// Whether `session` was opened by a token other than `principal`'s.
    fn foreign(&self, principal: &Principal, session: &str) -> bool {
        self.by_session
            .lock()
            .get(session)
            .is_some_and(|owner| !owner.same(principal))
    }

    /// How many of the `live` sessions `principal` owns.
    pub(super) fn owned(&self, principal: &Principal, live: &HashSet<String>) -> usize {
        self.by_session
            .lock()
            .iter()
            .filter(|(session, owner)| owner.same(principal) && live.contains(session.as_str()))
            .count()
    }

    /// Records that `principal` opened `session`; whether more are recorded than `most`
    /// (the caller then forgets those that ended, [`Owners::keep_only`]).
    pub(super) fn record(&self, principal: Principal, session: String, most: usize) -> bool {
        let mut owners = self.by_session.lock();
        owners.insert(session, principal);
        owners.len() > most
    }

    /// Forgets every session but the `live` ones.
    pub(super) fn keep_only(&self, live: &HashSet<String>) {
        self.by_session.lock().retain(|id, _| live.contains(id));
    }

    /// Forgets `session`.
    pub(super) fn forget(&self, session: &str) {
        self.by_session.lock().remove(session);
    }

    /// How many of the `live` sessions each token opened, by the token's key.
    fn per_token(&self, live: &HashSet<String>) -> HashMap<[u8; 32], usize> {
        let mut counts = HashMap::new();
        for (session, owner) in self.by_session.lock().iter() {
            if live.contains(session.as_str()) {
                *counts.entry(owner.key()).or_default() += 1;
            }
        }
        counts
    }
}

/// The sessions of an HTTP server by token, for its metrics.
pub(crate) struct SessionsByToken {
    pub(super) owners: Arc<Owners>,
    pub(super) sessions:
        Arc<rmcp::transport::streamable_http_server::session::local::LocalSessionManager>,
}

impl std::fmt::Debug for SessionsByToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionsByToken").finish_non_exhaustive()
    }
}

impl SessionsByToken {
    /// How many live sessions each token opened, by the token's key.
    pub(crate) async fn count(&self) -> HashMap<[u8; 32], usize> {
        let live: HashSet<String> = self
            .sessions
            .sessions
            .read()
            .await
            .keys()
            .map(|id| id.to_string())
            .collect();
        self.owners.per_token(&live)
    }
}

/// The layer: a session named by a token that did not open it is unknown to that token.
pub(super) async fn layer(
    State(owners): State<Arc<Owners>>,
    request: Request,
    next: Next,
) -> Response {
    if let (Some(principal), Some(session)) = (
        request.extensions().get::<Principal>(),
        session_of(request.headers()),
    ) && owners.foreign(principal, session)
    {
        return session_not_found(session);
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::StatusCode;

    use super::*;
    use crate::mcp::server::http::SESSION_HEADER;
    use crate::mcp::server::http::tests::{inner, principals, send, text};

    #[tokio::test]
    async fn a_session_answers_its_owner_and_is_unknown_to_other_tokens() {
        let [a, b] = principals();
        let owners = Arc::new(Owners::default());
        assert!(!owners.record(a.clone(), "s1".to_owned(), 16));
        let edge = inner().layer(axum::middleware::from_fn_with_state(owners.clone(), layer));
        let request = |principal: &Principal, session: &str| {
            let mut request = Request::builder()
                .uri("/mcp")
                .header(SESSION_HEADER, session)
                .body(Body::empty())
                .unwrap();
            request.extensions_mut().insert(principal.clone());
            request
        };
        assert_eq!(
            text(send(edge.clone(), request(&a, "s1")).await).await,
            "inner"
        );
        let foreign = send(edge.clone(), request(&b, "s1")).await;
        assert_eq!(foreign.status(), StatusCode::NOT_FOUND);
        assert!(text(foreign).await.contains("no session `s1`"));
        // A session nobody recorded is rmcp's to answer.
        assert_eq!(text(send(edge, request(&b, "s2")).await).await, "inner");

        let live: HashSet<String> = ["s1".to_owned()].into();
        assert_eq!((owners.owned(&a, &live), owners.owned(&b, &live)), (1, 0));
        owners.forget("s1");
        assert_eq!(owners.owned(&a, &live), 0);
    }
}
