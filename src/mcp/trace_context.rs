//! W3C trace context across MCP (feature `otel`), as the protocol reserves it
//! (`params._meta.traceparent`, `tracestate`, `baggage`): a `tools/call` that arrives with
//! one (or, over HTTP, with a `traceparent` header when `_meta` has none) makes its span a
//! child of the caller's; a `tools/call` sent to an upstream server carries the current
//! span's context in its `_meta`.
//!
//! This module owns the mapping between `_meta` (and headers) and OpenTelemetry contexts;
//! it must not make spans (the server and the client do) or decide where they are exported
//! (the command does). Without an OpenTelemetry layer in the subscriber it does nothing.

use std::sync::LazyLock;

use opentelemetry::propagation::{
    Extractor, Injector, TextMapCompositePropagator, TextMapPropagator as _,
};
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use serde_json::{Map, Value};
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

/// The W3C trace context and baggage formats.
static PROPAGATOR: LazyLock<TextMapCompositePropagator> = LazyLock::new(|| {
    TextMapCompositePropagator::new(vec![
        Box::new(TraceContextPropagator::new()),
        Box::new(BaggagePropagator::new()),
    ])
});

/// The `traceparent` key, in `_meta` and as a header.
const TRACEPARENT: &str = "traceparent";

struct MetaCarrier<'a>(&'a Map<String, Value>);

impl Extractor for MetaCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

struct HeaderCarrier<'a>(&'a http::HeaderMap);

impl Extractor for HeaderCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}

struct MetaInjector<'a>(&'a mut Map<String, Value>);

impl Injector for MetaInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        // An empty `tracestate` or `baggage` says nothing: left out.
        if !value.is_empty() {
            self.0.insert(key.to_owned(), Value::String(value));
        }
    }
}

/// Makes `span` a child of the context the request carries: the first of `metas` with a
/// `traceparent`, else `headers`' `traceparent`. Nothing (the span keeps its place) when
/// there is none, or it is malformed.
pub(crate) fn adopt(
    span: &tracing::Span,
    metas: &[Option<&Map<String, Value>>],
    headers: Option<&http::HeaderMap>,
) {
    if span.is_disabled() {
        return;
    }
    let context = match metas
        .iter()
        .flatten()
        .find(|meta| meta.get(TRACEPARENT).is_some_and(Value::is_string))
    {
        Some(meta) => PROPAGATOR.extract(&MetaCarrier(meta)),
        None => match headers.filter(|headers| headers.contains_key(TRACEPARENT)) {
            Some(headers) => PROPAGATOR.extract(&HeaderCarrier(headers)),
            None => return,
        },
    };
    use opentelemetry::trace::TraceContextExt as _;
    if context.span().span_context().is_valid() {
        // Refused only when the span has already started in OpenTelemetry's sense, which
        // a span made just before cannot have; then it simply keeps its parent.
        let _ = span.set_parent(context);
    }
}

/// Puts `span`'s context into `meta` (`traceparent`, and `tracestate`/`baggage` when
/// there are any); nothing when the span is not traced.
pub(crate) fn inject(span: &tracing::Span, meta: &mut Map<String, Value>) {
    if span.is_disabled() {
        return;
    }
    PROPAGATOR.inject_context(&span.context(), &mut MetaInjector(meta));
}
