//! The calls in flight of each HTTP session, by JSON-RPC id: so a call whose client went
//! away is cancelled at once — it leaves the run queue, or its run is cancelled — when its
//! answer's stream is dropped unread (the connection closed) or its session is deleted.
//! (A client's `notifications/cancelled` reaches the call through rmcp.)
//!
//! This module owns the bookkeeping; it must not decide when a client is gone (the HTTP edge
//! does) or run anything (the session does).

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// The calls in flight, by session id and then by JSON-RPC id (its JSON text).
#[derive(Debug, Default)]
pub(crate) struct Calls {
    by_session: parking_lot::Mutex<HashMap<String, HashMap<String, CancellationToken>>>,
}

/// A call's entry; dropping it removes the entry.
#[derive(Debug)]
pub(crate) struct Registered {
    calls: Arc<Calls>,
    session: String,
    id: String,
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut sessions = self.calls.by_session.lock();
        if let Some(calls) = sessions.get_mut(&self.session) {
            calls.remove(&self.id);
            if calls.is_empty() {
                sessions.remove(&self.session);
            }
        }
    }
}

/// The key of a JSON-RPC id: its JSON text (`7`, `"a"`), the same from a request body and
/// from rmcp's request id.
pub(crate) fn id_key(id: &impl serde::Serialize) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

impl Calls {
    /// Records that the call `id` of `session` is cancelled by `signal`.
    pub(crate) fn register(
        self: &Arc<Self>,
        session: &str,
        id: String,
        signal: CancellationToken,
    ) -> Registered {
        self.by_session
            .lock()
            .entry(session.to_owned())
            .or_default()
            .insert(id.clone(), signal);
        Registered {
            calls: self.clone(),
            session: session.to_owned(),
            id,
        }
    }

    /// Cancels the call `id` of `session`, if it is in flight.
    pub(crate) fn cancel(&self, session: &str, id: &Value) {
        let key = id_key(id);
        if let Some(signal) = self
            .by_session
            .lock()
            .get(session)
            .and_then(|calls| calls.get(&key))
        {
            signal.cancel();
        }
    }

    /// Cancels every call of `session`.
    pub(crate) fn cancel_session(&self, session: &str) {
        if let Some(calls) = self.by_session.lock().get(session) {
            calls.values().for_each(CancellationToken::cancel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn calls_are_cancelled_by_id_or_by_session_and_forgotten_when_done() {
        let calls = Arc::new(Calls::default());
        let (one, two) = (CancellationToken::new(), CancellationToken::new());
        let first = calls.register("s", id_key(&json!(1)), one.clone());
        let _second = calls.register("s", id_key(&json!("b")), two.clone());
        calls.cancel("s", &json!(2));
        calls.cancel("t", &json!(1));
        assert!(!one.is_cancelled());
        calls.cancel("s", &json!(1));
        assert!(one.is_cancelled() && !two.is_cancelled());
        calls.cancel_session("s");
        assert!(two.is_cancelled());
        drop(first);
        drop(_second);
        assert!(calls.by_session.lock().is_empty());
    }
}
