//! The health endpoints a load balancer or an orchestrator asks, unauthenticated and
//! answering nothing beyond ok or not ok (no version, no counts, no tenant):
//!
//! - `GET /healthz`: `200 ok` while the process serves (liveness; draining included: a
//!   draining server must not be restarted under its calls).
//! - `GET /readyz`: `200 ok` while new sessions are accepted, `503 not ready` while the
//!   server drains (readiness). The listener is bound only once the configured tools and
//!   MCP servers are ready, so a server that answers at all has started them.
//!
//! This module owns the two answers; it must not reveal anything of the server's state
//! beyond them.

use std::sync::Arc;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::lifecycle::Lifecycle;

/// The liveness path.
pub const HEALTH_PATH: &str = "/healthz";

/// The readiness path.
pub const READY_PATH: &str = "/readyz";

fn plain(status: StatusCode, text: &'static str) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

/// The two routes (`GET` and `HEAD`), every other request to `rest`.
pub(crate) fn router(lifecycle: Arc<Lifecycle>, rest: axum::Router) -> axum::Router {
    axum::Router::new()
        .route(
            HEALTH_PATH,
            get(|| async { plain(StatusCode::OK, "ok\n") }).fallback_service(rest.clone()),
        )
        .route(
            READY_PATH,
            get(move || {
                let draining = lifecycle.is_draining();
                async move {
                    if draining {
                        plain(StatusCode::SERVICE_UNAVAILABLE, "not ready\n")
                    } else {
                        plain(StatusCode::OK, "ok\n")
                    }
                }
            })
            .fallback_service(rest.clone()),
        )
        .fallback_service(rest)
}
