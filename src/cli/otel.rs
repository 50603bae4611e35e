//! The command's OTLP export (feature `otel`): when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set, the library's spans (targets `codemode*`, level info
//! and above) go to that collector over OTLP http/protobuf. The other standard variables
//! apply as the OpenTelemetry SDK reads them: `OTEL_EXPORTER_OTLP_HEADERS`, `_TIMEOUT` (and
//! their `_TRACES_` forms), `OTEL_SERVICE_NAME` (default `codemode`),
//! `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER` and `_ARG`; `OTEL_SDK_DISABLED=true` or
//! `OTEL_TRACES_EXPORTER=none` turn it off.
//!
//! Spans are handed to a batch processor whose queue is bounded: a span that finds it full
//! is dropped (and counted: the SDK reports the count as a warning when the command stops),
//! and the export runs on the processor's own thread, so a dead or slow collector never
//! holds up a run. At exit the command waits at most [`SHUTDOWN_BUDGET`] for the last
//! spans to leave.
//!
//! This module owns the exporter's setup and shutdown; it must not decide what the spans
//! say (the library does) or touch the log's format (`setup`).

use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};
use tracing_subscriber::Layer;
use tracing_subscriber::registry::LookupSpan;

/// How long the command waits at exit for the last spans to be exported.
pub(crate) const SHUTDOWN_BUDGET: Duration = Duration::from_secs(2);

/// Spans waiting for export at most; past it a new span is dropped.
const MAX_QUEUE: usize = 4096;

/// The exporter while the command runs; [`Export::shutdown`] sends what is left.
#[derive(Debug)]
pub(crate) struct Export {
    provider: SdkTracerProvider,
}

impl Export {
    /// Exports what is queued, waiting at most [`SHUTDOWN_BUDGET`].
    pub(crate) fn shutdown(self) {
        if let Err(err) = self.provider.shutdown_with_timeout(SHUTDOWN_BUDGET) {
            tracing::warn!("the last spans were not all exported: {err}");
        }
    }
}

fn set(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .filter(|value| !value.trim().is_empty())
}

/// Whether the environment asks for an export, and a problem to log if it asks for one
/// this command cannot make.
fn wanted() -> Result<bool, String> {
    if set("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || set("OTEL_TRACES_EXPORTER").is_some_and(|v| v.trim().eq_ignore_ascii_case("none"))
    {
        return Ok(false);
    }
    if set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_none()
        && set("OTEL_EXPORTER_OTLP_ENDPOINT").is_none()
    {
        return Ok(false);
    }
    let protocol = set("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        .or_else(|| set("OTEL_EXPORTER_OTLP_PROTOCOL"))
        .unwrap_or_else(|| "http/protobuf".to_owned());
    if protocol.trim() != "http/protobuf" {
        return Err(format!(
            "OTLP protocol `{}` is not supported (only `http/protobuf`); spans are not exported",
            protocol.trim()
        ));
    }
    Ok(true)
}

/// The export layer the environment asks for, if any (`Err`: it asks for one that cannot be
/// made; the message says why, to be logged).
pub(crate) fn layer<S>() -> Result<Option<(impl Layer<S>, Export)>, String>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
{
    if !wanted()? {
        return Ok(None);
    }
    // The exporter's HTTP client speaks TLS through rustls with the aws-lc-rs provider, as
    // the MCP client's does (installed once; a provider installed before is kept).
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .build()
        .map_err(|err| format!("cannot set up the OTLP exporter: {err}"))?;
    let batch = BatchConfigBuilder::default()
        .with_max_queue_size(MAX_QUEUE)
        .build();
    let processor = BatchSpanProcessor::builder(exporter)
        .with_batch_config(batch)
        .build();
    let mut resource = Resource::builder();
    if set("OTEL_SERVICE_NAME").is_none()
        && !set("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|v| v.contains("service.name="))
    {
        resource = resource.with_service_name("codemode");
    }
    let resource = resource
        .with_attribute(opentelemetry::KeyValue::new(
            "service.version",
            env!("CARGO_PKG_VERSION"),
        ))
        .build();
    let provider = SdkTracerProvider::builder()
        .with_span_processor(processor)
        .with_resource(resource)
        .build();
    let tracer = provider.tracer("codemode");
    let layer = tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .with_location(false)
        .with_threads(false)
        .with_tracked_inactivity(false)
        .with_filter(tracing_subscriber::filter::filter_fn(|meta| {
            meta.target().starts_with("codemode") && *meta.level() <= tracing::Level::INFO
        }));
    Ok(Some((layer, Export { provider })))
}
