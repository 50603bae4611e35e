//! What every subcommand that works on the configured tools shares: finding and reading
//! the configuration, and building the host it describes through the library's
//! composition root.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::host::{Engine, Host};
use crate::registry::RegistryConfig;

use super::Failure;

/// The file read when `--config` is absent, if it exists in the working directory.
pub(crate) const DEFAULT_CONFIG: &str = "codemode.toml";

/// Reads `--config FILE`, else `./codemode.toml`, else the defaults (the built-in tools
/// over the working directory).
pub(crate) fn load_config(explicit: Option<&Path>) -> Result<Config, Failure> {
    let path: Option<PathBuf> = match explicit {
        Some(path) => Some(path.to_path_buf()),
        None => Some(PathBuf::from(DEFAULT_CONFIG)).filter(|p| p.is_file()),
    };
    match path {
        Some(path) => Config::load(&path).map_err(|err| Failure::from_error(&err)),
        None => {
            let cwd = std::env::current_dir().map_err(|err| {
                Failure::usage(format!("cannot read the working directory: {err}"))
            })?;
            Ok(Config::defaults(cwd))
        }
    }
}

/// The host the configuration describes ([`Host`], the library's composition root). An MCP
/// server that cannot be started is reported on standard error (by the library's warning,
/// once); the other tools still work.
pub(crate) async fn host(config: Config, engine: Engine) -> Result<Host, Failure> {
    host_with_status(config, engine).await
}

/// [`host`], for a caller that also shows the servers' status. With
/// `CODEMODE_TRACE_CONTENT=1` (or `true`), spans record programs' text and tools' arguments
/// and results ([`RegistryConfig::trace_content`]).
pub(crate) async fn host_with_status(config: Config, engine: Engine) -> Result<Host, Failure> {
    let trace_content = std::env::var(TRACE_CONTENT_ENV)
        .is_ok_and(|value| matches!(value.trim(), "1" | "true" | "TRUE" | "True"));
    Host::builder(config)
        .registry_config(RegistryConfig::default().with_trace_content(trace_content))
        .engine(engine)
        .build()
        .await
        .map_err(|err| Failure::from_error(&err))
}

/// The stack of the command's threads: 16 MiB (only what is touched is committed), for
/// `serde_json::Value`'s own clone, drop and serialization, which recurse over deep values
/// (see `codemode::json::DepthLimit`; 10,000 levels of objects take about 6 MiB).
pub(crate) const STACK_BYTES: usize = 16 << 20;

/// A tokio runtime for a subcommand: current-thread, on the subcommand's own thread (of
/// [`STACK_BYTES`]), its blocking pool's threads of the same size.
///
/// One thread is the right shape here: the command's host-side work per request (framing,
/// the pipeline, MCP sources' I/O) is small next to what runs on engine threads and worker
/// processes, and on a multi-threaded runtime every message crossed between its workers
/// (the stdin reader, rmcp's service, the handler, the writer), waking one from the other
/// several times per `run_code` (measured with strace: four wake-ups of the second worker
/// between the engine's reply and the response's write).
pub(crate) fn tokio_runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .thread_stack_size(STACK_BYTES)
        .enable_all()
        .build()
        .map_err(|err| Failure {
            message: format!("cannot start the async runtime: {err}"),
            status: 1,
        })
}

/// The environment variable that makes spans record what calls carry.
const TRACE_CONTENT_ENV: &str = "CODEMODE_TRACE_CONTENT";

/// The environment variable holding the log filter (tracing's `EnvFilter` syntax).
const LOG_ENV: &str = "CODEMODE_LOG";

/// The environment variable choosing the log's format: `text` (the default) or `json`.
const LOG_FORMAT_ENV: &str = "CODEMODE_LOG_FORMAT";

/// How events are written to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LogFormat {
    /// `codemode: warning: MESSAGE` lines.
    Text,
    /// One JSON object per event (tracing-subscriber's JSON format), with the spans the
    /// event happened in.
    Json,
}

/// The format `CODEMODE_LOG_FORMAT` asks for; an unknown value is text, with a warning
/// (returned, to be logged once logging is set up).
fn log_format() -> (LogFormat, Option<String>) {
    match std::env::var(LOG_FORMAT_ENV) {
        Err(_) => (LogFormat::Text, None),
        Ok(value) => match value.trim().to_ascii_lowercase().as_str() {
            "" | "text" => (LogFormat::Text, None),
            "json" => (LogFormat::Json, None),
            _ => (
                LogFormat::Text,
                Some(format!(
                    "{LOG_FORMAT_ENV}={value:?} is not a log format (`text` or `json`); writing text"
                )),
            ),
        },
    }
}

/// Sends the library's `tracing` events (warnings by default; `CODEMODE_LOG` sets the filter)
/// to stderr, which never carries protocol, as `codemode: warning: MESSAGE` lines, or, with
/// `CODEMODE_LOG_FORMAT=json`, as one JSON object per event with its fields (a repeated
/// warning's `count` among them) and the spans it happened in (`span`, `spans`: a tool
/// execution's `gen_ai.tool.name` and `gen_ai.tool.call.id`, a run's language, ...). The
/// MCP SDK's own events are off by default: codemode reports every failure it sees, naming
/// the server (`CODEMODE_LOG=warn,rmcp=debug` shows them).
///
/// With `OTEL_EXPORTER_OTLP_ENDPOINT` set, the spans are exported too ([`super::otel`]);
/// the caller shuts the export down when the command is done.
pub(crate) fn init_logging() -> Option<super::otel::Export> {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;

    let filter = || {
        tracing_subscriber::EnvFilter::try_from_env(LOG_ENV)
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,rmcp=off"))
    };
    let (format, problem) = log_format();
    use tracing_subscriber::filter::FilterExt as _;
    let stderr = match format {
        LogFormat::Text => tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .event_format(Lines)
            .with_filter(filter().and(not_repeated()))
            .boxed(),
        LogFormat::Json => {
            // The library's spans are on for this layer whatever the filter says of
            // events, so that each event carries the spans it happened in.
            let spans = tracing_subscriber::filter::filter_fn(|meta| {
                meta.is_span()
                    && *meta.level() <= tracing::Level::INFO
                    && meta.target().starts_with("codemode")
            });
            let json = tracing_subscriber::fmt::format()
                .json()
                .with_current_span(true)
                .with_span_list(true);
            tracing_subscriber::fmt::layer()
                .json()
                .with_writer(std::io::stderr)
                .event_format(WithTraceIds(json))
                .with_filter(filter().or(spans).and(not_repeated()))
                .boxed()
        }
    };
    let (otel, export, otel_problem) = match super::otel::layer() {
        Ok(Some((layer, export))) => (Some(layer), Some(export), None),
        Ok(None) => (None, None, None),
        Err(problem) => (None, None, Some(problem)),
    };
    // A second initialization (there is none) would only be refused.
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(otel)
        .try_init();
    for problem in [problem, otel_problem].into_iter().flatten() {
        tracing::warn!("{problem}");
    }
    export
}

/// Passes the OpenTelemetry SDK's own events (an export that failed, spans dropped because
/// the queue was full) the first time and then at every power of two, per kind: a dead
/// collector fails every export, and says so once, then more and more rarely.
fn not_repeated<S>() -> impl tracing_subscriber::layer::Filter<S> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashMap<&'static str, u64>>> = Mutex::new(None);
    tracing_subscriber::filter::filter_fn(|meta| {
        if !meta.is_event() || !meta.target().starts_with("opentelemetry") {
            return true;
        }
        let Ok(mut seen) = SEEN.lock() else {
            return true;
        };
        let count = seen
            .get_or_insert_with(HashMap::new)
            .entry(meta.name())
            .or_insert(0);
        *count += 1;
        count.is_power_of_two()
    })
}

/// tracing-subscriber's JSON object of an event, with `trace_id` and `span_id` (W3C hex)
/// when the event happened in a span of an OpenTelemetry trace (an export is on, or a
/// caller's `traceparent` made one).
struct WithTraceIds<F>(F);

impl<S, F> tracing_subscriber::fmt::FormatEvent<S, tracing_subscriber::fmt::format::JsonFields>
    for WithTraceIds<F>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    F: tracing_subscriber::fmt::FormatEvent<S, tracing_subscriber::fmt::format::JsonFields>,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<
            '_,
            S,
            tracing_subscriber::fmt::format::JsonFields,
        >,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        use opentelemetry::trace::TraceContextExt as _;
        use tracing_opentelemetry::OpenTelemetrySpanExt as _;

        let span = tracing::Span::current();
        let ids = (!span.is_disabled())
            .then(|| span.context().span().span_context().clone())
            .filter(opentelemetry::trace::SpanContext::is_valid);
        let Some(ids) = ids else {
            return self.0.format_event(ctx, writer, event);
        };
        let mut line = String::new();
        self.0.format_event(
            ctx,
            tracing_subscriber::fmt::format::Writer::new(&mut line),
            event,
        )?;
        match serde_json::from_str::<serde_json::Value>(&line) {
            Ok(serde_json::Value::Object(mut object)) => {
                object.insert("trace_id".into(), ids.trace_id().to_string().into());
                object.insert("span_id".into(), ids.span_id().to_string().into());
                writeln!(writer, "{}", serde_json::Value::Object(object))
            }
            _ => writer.write_str(&line),
        }
    }
}

/// One line per event: `codemode: warning: MESSAGE` (errors and warnings: the message
/// names what it is about), `codemode: debug TARGET: MESSAGE FIELDS` below.
struct Lines;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for Lines
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let meta = event.metadata();
        let level = *meta.level();
        if level <= tracing::Level::WARN {
            let label = if level == tracing::Level::ERROR {
                "error"
            } else {
                "warning"
            };
            let mut message = Message(String::new());
            event.record(&mut message);
            if message.0.is_empty() || meta.target().starts_with("opentelemetry") {
                // The OpenTelemetry SDK's events say what they count in fields (spans
                // dropped, the export's error), some without a message: all the fields.
                write!(writer, "codemode: {label}: ")?;
                ctx.field_format().format_fields(writer.by_ref(), event)?;
                return writeln!(writer);
            }
            writeln!(writer, "codemode: {label}: {}", message.0)
        } else {
            write!(
                writer,
                "codemode: {} {}: ",
                level.as_str().to_ascii_lowercase(),
                meta.target()
            )?;
            ctx.field_format().format_fields(writer.by_ref(), event)?;
            writeln!(writer)
        }
    }
}

/// The `message` field of an event.
struct Message(String);

impl tracing::field::Visit for Message {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }

    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "message" {
            value.clone_into(&mut self.0);
        }
    }
}
