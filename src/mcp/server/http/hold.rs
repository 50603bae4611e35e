//! What an answer's body holds until it ends: a layer that must keep something alive for
//! as long as its answer is being written (a token's open request, a call counted in
//! flight) hands it to [`hold`], and learns through [`Holding::unfinished`] when the body
//! was dropped before its end (its client went away).
//!
//! This module owns the body wrapper; it must not decide what is held (the layers do).

use axum::body::{Body, Bytes};
use axum::response::Response;
use futures::StreamExt;

/// Something held by an answer's body until the body ends or is dropped.
pub(super) trait Holding: Send + 'static {
    /// The body was dropped before its end: its client went away.
    fn unfinished(&mut self) {}
}

impl Holding for super::super::tenants::Stream {}

/// The body of an answer with what it holds, released when the body ends or is dropped.
struct Watched<H: Holding> {
    inner: axum::body::BodyDataStream,
    held: H,
    ended: bool,
}

impl<H: Holding> Drop for Watched<H> {
    fn drop(&mut self) {
        if !self.ended {
            self.held.unfinished();
        }
    }
}

impl<H: Holding + Unpin> futures::Stream for Watched<H> {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let polled = self.inner.poll_next_unpin(cx);
        if let std::task::Poll::Ready(None) = polled {
            self.ended = true;
        }
        polled
    }
}

/// `response` whose body holds `held` until it ends.
pub(super) fn hold<H: Holding + Unpin>(response: Response, held: H) -> Response {
    let (parts, body) = response.into_parts();
    let body = Watched {
        inner: body.into_data_stream(),
        held,
        ended: false,
    };
    Response::from_parts(parts, Body::from_stream(body))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    struct Probe(Arc<AtomicUsize>);

    impl Holding for Probe {
        fn unfinished(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn a_body_read_to_its_end_is_finished_and_one_dropped_early_is_not() {
        let unfinished = Arc::new(AtomicUsize::new(0));
        let read = hold(
            Response::new(Body::from("answer")),
            Probe(unfinished.clone()),
        );
        let bytes = axum::body::to_bytes(read.into_body(), 1024).await.unwrap();
        assert_eq!(&bytes[..], b"answer");
        assert_eq!(unfinished.load(Ordering::SeqCst), 0);

        let dropped = hold(
            Response::new(Body::from("answer")),
            Probe(unfinished.clone()),
        );
        drop(dropped);
        assert_eq!(unfinished.load(Ordering::SeqCst), 1);
    }
}
