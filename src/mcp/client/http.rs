//! The HTTP side of a streamable-HTTP session: rmcp's reqwest client, watched. Once a session
//! exists (a request carries its id), an answer that says it is gone — `404`, a server
//! error, a refusal no request can be matched with (a restarted server answers an unknown
//! session `400` with an error without an id), a request that cannot reach the server, a
//! response stream that breaks — marks the session lost at once, with the
//! reason: the calls waiting on it fail then instead of at their timeout, and the next call
//! opens a new session (see `supervise`), whose tools are listed again.
//!
//! This module owns that watch; it must not interpret calls, results or tool lists.

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use parking_lot::Mutex;
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;
use tokio_util::sync::CancellationToken;

type SseStream = BoxStream<'static, Result<Sse, SseError>>;

/// Whether a session was lost, and why.
#[derive(Debug, Default)]
pub(crate) struct SessionWatch {
    lost: CancellationToken,
    reason: Mutex<Option<String>>,
}

impl SessionWatch {
    /// Marks the session lost (the first reason stays).
    fn lose(&self, reason: String) {
        {
            let mut kept = self.reason.lock();
            if kept.is_none() {
                tracing::debug!(%reason, "an MCP server's HTTP session is lost");
                *kept = Some(reason);
            }
        }
        self.lost.cancel();
    }

    /// Whether the session is lost.
    pub(crate) fn is_lost(&self) -> bool {
        self.lost.is_cancelled()
    }

    /// Completes when the session is lost.
    pub(crate) async fn lost(&self) {
        self.lost.cancelled().await;
    }

    /// Why the session was lost (`it answered HTTP 400 Bad Request`), once it is.
    pub(crate) fn reason(&self) -> Option<String> {
        self.reason.lock().clone()
    }
}

/// rmcp's reqwest client with a [`SessionWatch`]: every request goes through `inner`
/// (its limits and parsing untouched); failures on a known session are reported to `watch`.
#[derive(Clone)]
pub(crate) struct WatchedClient {
    pub(crate) inner: reqwest::Client,
    pub(crate) watch: Arc<SessionWatch>,
}

impl WatchedClient {
    /// Reports `result`'s failure when it was a request on a session.
    fn check<T>(
        &self,
        on_session: bool,
        result: Result<T, StreamableHttpError<reqwest::Error>>,
    ) -> Result<T, StreamableHttpError<reqwest::Error>> {
        if on_session
            && let Err(error) = &result
            && let Some(reason) = session_lost(error)
        {
            self.watch.lose(reason);
        }
        result
    }

    /// `stream`, reporting a break to the watch (a server that dies mid-answer).
    fn watched(&self, stream: SseStream) -> SseStream {
        let watch = self.watch.clone();
        stream
            .inspect(move |item| {
                if let Err(error) = item {
                    watch.lose(format!("its response stream broke ({error})"));
                }
            })
            .boxed()
    }
}

/// Whether `error`, answering a request on a session, means the session is gone: the
/// reason, or `None` for a failure of that one request (a body too large, a malformed
/// answer).
fn session_lost(error: &StreamableHttpError<reqwest::Error>) -> Option<String> {
    match error {
        StreamableHttpError::SessionExpired => {
            Some("it answered HTTP 404 Not Found for the session".to_owned())
        }
        StreamableHttpError::HttpStatus(status) => {
            Some(format!("it answered HTTP {}", status_text(status.status)))
        }
        StreamableHttpError::UnexpectedServerResponse(text) => Some(format!(
            "it answered {}",
            text.lines().next().unwrap_or_default()
        )),
        StreamableHttpError::Client(error) if error.is_connect() || error.is_request() => {
            Some(format!("it could not be reached ({error})"))
        }
        StreamableHttpError::Io(error) => Some(format!("its connection failed ({error})")),
        StreamableHttpError::Sse(error) => Some(format!("its response stream broke ({error})")),
        StreamableHttpError::UnexpectedEndOfStream => {
            Some("its response stream ended before the answer".to_owned())
        }
        _ => None,
    }
}

impl StreamableHttpClient for WatchedClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let on_session = session_id.is_some();
        let request_id = match &message {
            JsonRpcMessage::Request(request) => Some(request.id.clone()),
            _ => None,
        };
        let result = self
            .inner
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        match self.check(on_session, result)? {
            StreamableHttpPostResponse::Sse(stream, session) if on_session => Ok(
                StreamableHttpPostResponse::Sse(self.watched(stream), session),
            ),
            StreamableHttpPostResponse::Json(JsonRpcMessage::Error(error), session)
                if on_session && request_id.is_some() && error.id != request_id =>
            {
                // A refusal no request can be matched with (server-everything answers an
                // unknown session with 400 and an error without an id): the call would wait
                // for an answer that never comes.
                self.watch.lose(format!(
                    "it refused the request without answering it: {} (error {})",
                    error.error.message, error.error.code.0
                ));
                Ok(StreamableHttpPostResponse::Json(
                    JsonRpcMessage::Error(error),
                    session,
                ))
            }
            response => Ok(response),
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        // Ending a session is not a sign that it was lost.
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<SseStream, StreamableHttpError<Self::Error>> {
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default().max_sse_event_size,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<SseStream, StreamableHttpError<Self::Error>> {
        let on_session = session_id.is_some();
        let result = self
            .inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await;
        // A server without a standalone stream says so (405): that is not a lost session.
        if matches!(result, Err(StreamableHttpError::ServerDoesNotSupportSse)) {
            return result;
        }
        let stream = self.check(on_session, result)?;
        Ok(if on_session {
            self.watched(stream)
        } else {
            stream
        })
    }
}

/// "404 Not Found".
pub(super) fn status_text(status: u16) -> String {
    match http::StatusCode::from_u16(status)
        .ok()
        .and_then(|code| code.canonical_reason())
    {
        Some(reason) => format!("{status} {reason}"),
        None => status.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_that_end_a_session_are_told_from_failures_of_one_request() {
        let expired: StreamableHttpError<reqwest::Error> = StreamableHttpError::SessionExpired;
        assert_eq!(
            session_lost(&expired).as_deref(),
            Some("it answered HTTP 404 Not Found for the session")
        );
        let too_large: StreamableHttpError<reqwest::Error> =
            StreamableHttpError::ResponseBodyTooLarge { max_size: 1 };
        assert_eq!(session_lost(&too_large), None);
        let ended: StreamableHttpError<reqwest::Error> = StreamableHttpError::UnexpectedEndOfStream;
        assert!(session_lost(&ended).is_some());
    }

    #[tokio::test]
    async fn a_lost_session_keeps_its_first_reason_and_wakes_its_waiters() {
        let watch = Arc::new(SessionWatch::default());
        let waiter = {
            let watch = watch.clone();
            tokio::spawn(async move { watch.lost().await })
        };
        assert!(!watch.is_lost());
        watch.lose("first".into());
        watch.lose("second".into());
        waiter.await.unwrap();
        assert!(watch.is_lost());
        assert_eq!(watch.reason().as_deref(), Some("first"));
    }
}
