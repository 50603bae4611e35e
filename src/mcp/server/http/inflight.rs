//! The calls layer: a `tools/call` is refused while the server drains (`503` with
//! `Retry-After`, saying it is stopping); an admitted one is counted in flight until its
//! answer was written (a drain waits for it), and cancelled when its answer is dropped
//! unread (its client went away: the connection closed) — it leaves the run queue, or its
//! run is cancelled.
//!
//! This module owns when a call's client is gone; it must not run or cancel anything
//! itself (the calls registry and the session do).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use super::super::calls::Calls;
use super::super::lifecycle::{InFlight, Kind, Lifecycle};
use super::body::Parsed;
use super::hold::{Holding, hold};
use super::{session_of, stopping};

/// The layer's state.
#[derive(Clone)]
pub(super) struct Answers {
    pub(super) lifecycle: Arc<Lifecycle>,
    pub(super) calls: Arc<Calls>,
}

/// What a call's answer holds: its count in flight, and who to tell should its client go
/// away (its session and JSON-RPC id).
struct Answering {
    _in_flight: InFlight,
    gone: Option<(Arc<Calls>, String, Value)>,
}

impl Holding for Answering {
    fn unfinished(&mut self) {
        if let Some((calls, session, id)) = &self.gone {
            tracing::debug!(session = %session, "a call's client went away; cancelling it");
            calls.cancel(session, id);
        }
    }
}

/// The layer.
pub(super) async fn layer(
    State(answers): State<Answers>,
    request: Request,
    next: Next,
) -> Response {
    let Some(id) = Parsed::call(&request) else {
        return next.run(request).await;
    };
    let Some(in_flight) = answers.lifecycle.enter_as(Kind::Answer) else {
        return stopping(id);
    };
    let gone = session_of(request.headers())
        .map(|session| (answers.calls.clone(), session.to_owned(), id));
    let response = next.run(request).await;
    hold(
        response,
        Answering {
            _in_flight: in_flight,
            gone,
        },
    )
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::StatusCode;
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::mcp::server::calls::id_key;
    use crate::mcp::server::http::SESSION_HEADER;
    use crate::mcp::server::http::tests::{send, text};

    fn call() -> Request {
        let mut request = Request::builder()
            .uri("/mcp")
            .header(SESSION_HEADER, "s1")
            .body(Body::empty())
            .unwrap();
        request.extensions_mut().insert(Parsed {
            opens: None,
            call: Some(Value::from(7)),
        });
        request
    }

    #[tokio::test]
    async fn a_call_is_in_flight_until_its_answer_ends_and_cancelled_if_dropped_unread() {
        let answers = Answers {
            lifecycle: Arc::default(),
            calls: Arc::default(),
        };
        let edge = axum::Router::new()
            .fallback(|| async { "answer" })
            .layer(axum::middleware::from_fn_with_state(answers.clone(), layer));
        let signal = CancellationToken::new();
        let _registered = answers.calls.register("s1", id_key(&7), signal.clone());

        let read = send(edge.clone(), call()).await;
        assert_eq!(answers.lifecycle.counted(Kind::Answer), 1);
        assert_eq!(text(read).await, "answer");
        assert_eq!(answers.lifecycle.counted(Kind::Answer), 0);
        assert!(!signal.is_cancelled());

        let dropped = send(edge.clone(), call()).await;
        drop(dropped);
        assert!(
            signal.is_cancelled(),
            "the call of a client gone is cancelled"
        );

        answers.lifecycle.drain();
        let refused = send(edge, call()).await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(text(refused).await.contains("stopping"));
    }
}
