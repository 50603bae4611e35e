//! The `store` namespace of a run: `store.set(key, value)`, `store.get(key)`,
//! `store.delete(key)` and `store.keys()` over the session's [`SessionStore`].
//!
//! Each operation takes effect when the program makes it (on the thread that makes the
//! binding call, in the program's order) and answers at once: it does not wait for the
//! run's tool calls, and what it wrote stays whatever becomes of the run. Without a session
//! store every operation fails with `NO_SESSION`. Where the registry has a journal, each
//! operation is logged as a `code/store` journal event (`<parent>:store:<n>`), in the
//! program's order, by one task per run that the run's end waits for; while more than
//! [`LOG_BACKLOG`] events wait for a slow sink, an operation's answer waits too (the sink's
//! backpressure, as tool calls get it), so a program cannot queue events without bound.
//!
//! This module owns the namespace and its log; the store's bounds are `code::store`'s.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures::future::BoxFuture;
use parking_lot::Mutex;
use serde_json::json;
use tokio::sync::{Notify, mpsc};
use tokio_util::task::TaskTracker;

use crate::code::store::SessionStore;
use crate::error::{Error, ErrorCode};
use crate::journal::JournalEvent;
use crate::json::JsonValue;
use crate::registry::Registry;
use crate::runtime::{BindingHost, BindingNamespace, CallAnswer, CallError, CallStyle};
use crate::tool::ToolFailure;

/// The global a program reaches its session's store through.
pub(crate) const STORE: &str = "store";
/// The error class of a failed store operation.
pub(crate) const STORE_ERROR: &str = "StoreError";
/// The store's operations, in the order the SDK declares them.
pub(crate) const OPERATIONS: [&str; 4] = ["get", "set", "delete", "keys"];
/// How many journal events of a run may wait for the sink before operations wait for it.
pub(crate) const LOG_BACKLOG: usize = 1024;

/// The `store` namespace of one run.
pub(super) struct StoreHost {
    store: Option<SessionStore>,
    registry: Registry,
    parent_call_id: String,
    /// How deep a value may nest (the registry's value depth).
    depth: usize,
    runtime: tokio::runtime::Handle,
    tasks: TaskTracker,
    log: Mutex<Log>,
    /// The events sent and not yet emitted, and the wake-up when one is.
    backlog: Arc<(AtomicUsize, Notify)>,
}

/// The log of a run's operations: numbered, and sent in order to one task that emits them.
#[derive(Default)]
struct Log {
    count: u64,
    /// Made at the first operation; dropped when the run ends (the task then finishes).
    sender: Option<mpsc::UnboundedSender<JournalEvent>>,
    closed: bool,
}

impl StoreHost {
    pub(super) fn new(
        store: Option<SessionStore>,
        registry: Registry,
        parent_call_id: String,
        runtime: tokio::runtime::Handle,
        tasks: TaskTracker,
    ) -> Arc<Self> {
        let depth = registry.config().value_depth.get();
        Arc::new(StoreHost {
            store,
            registry,
            parent_call_id,
            depth,
            runtime,
            tasks,
            log: Mutex::new(Log::default()),
            backlog: Arc::default(),
        })
    }

    /// The namespace programs see.
    pub(super) fn namespace(self: &Arc<Self>) -> BindingNamespace {
        BindingNamespace::new(
            STORE,
            STORE_ERROR,
            "operation",
            OPERATIONS.iter().map(|op| (*op).to_owned()).collect(),
            self.clone(),
        )
        .with_style(CallStyle::Positional)
    }

    /// The run ended: no operation follows, so the log's task may finish once it has
    /// emitted what was sent (the run waits for its tasks).
    pub(super) fn finish(&self) {
        let mut log = self.log.lock();
        log.closed = true;
        log.sender = None;
    }

    fn operate(&self, operation: &str, args: &JsonValue) -> Result<(JsonValue, Logged), Error> {
        let Some(store) = &self.store else {
            return Err(Error::new(
                ErrorCode::NoSession,
                format!(
                    "store.{operation}: this run has no session, so nothing can be kept \
                     between runs (the host passed no session store with it)"
                ),
            ));
        };
        match operation {
            "set" => {
                let (key, value) = match args.as_array().map(Vec::as_slice) {
                    Some([key, value]) => (key_of("set", key)?, value),
                    _ => return Err(arity("set", "two arguments (key, value)", args)),
                };
                let bytes = store.set(key, value, self.depth)?;
                Ok((json!([]), Logged::key(key).with_bytes(bytes as u64)))
            }
            "get" => {
                let key = one_key("get", args)?;
                let found = store.get_sized(key, self.depth)?;
                let bytes = found.as_ref().map(|(_, bytes)| *bytes as u64);
                let answer = JsonValue::Array(found.map(|(value, _)| value).into_iter().collect());
                Ok((
                    answer,
                    Logged {
                        bytes,
                        ..Logged::key(key)
                    },
                ))
            }
            "delete" => {
                let key = one_key("delete", args)?;
                let found = store.delete(key)?;
                Ok((json!([found]), Logged::key(key)))
            }
            "keys" => {
                if args.as_array().is_none_or(|args| !args.is_empty()) {
                    return Err(arity("keys", "no arguments", args));
                }
                Ok((json!([store.keys()]), Logged::default()))
            }
            other => Err(Error::new(
                ErrorCode::InvalidArgs,
                format!("store has no operation {other:?} (it has get, set, delete and keys)"),
            )),
        }
    }

    /// Sends the operation's event to the run's log task (started at the first one), when
    /// the registry has a journal.
    fn log(&self, operation: &str, logged: Logged, error: Option<&Error>) {
        let mut log = self.log.lock();
        if log.closed || !self.registry.has_journal() {
            return;
        }
        log.count += 1;
        let event = JournalEvent::StoreOperation {
            parent_call_id: self.parent_call_id.clone(),
            operation_id: format!("{}:store:{}", self.parent_call_id, log.count),
            operation: operation.to_owned(),
            key: logged.key,
            bytes: logged.bytes,
            error: error.cloned().map(ToolFailure::from),
        };
        let sender = log.sender.get_or_insert_with(|| {
            let (sender, mut events) = mpsc::unbounded_channel();
            let registry = self.registry.clone();
            let backlog = self.backlog.clone();
            let task = async move {
                while let Some(event) = events.recv().await {
                    registry.emit(event).await;
                    backlog.0.fetch_sub(1, Ordering::AcqRel);
                    backlog.1.notify_waiters();
                }
            };
            drop(self.tasks.spawn_on(task, &self.runtime));
            sender
        });
        // The task ends only after the sender is dropped, so it is there to receive.
        if sender.send(event).is_ok() {
            self.backlog.0.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// `answer`, once at most [`LOG_BACKLOG`] events wait for the journal's sink.
    fn answer_within_backlog(&self, answer: CallAnswer) -> BoxFuture<'static, CallAnswer> {
        if self.backlog.0.load(Ordering::Acquire) <= LOG_BACKLOG {
            return Box::pin(async move { answer });
        }
        let backlog = self.backlog.clone();
        Box::pin(async move {
            loop {
                let emitted = backlog.1.notified();
                if backlog.0.load(Ordering::Acquire) <= LOG_BACKLOG {
                    return answer;
                }
                emitted.await;
            }
        })
    }
}

/// What an operation's event says beyond its name.
#[derive(Default)]
struct Logged {
    key: Option<String>,
    bytes: Option<u64>,
}

impl Logged {
    fn key(key: &str) -> Logged {
        Logged {
            key: Some(key.to_owned()),
            bytes: None,
        }
    }

    fn with_bytes(mut self, bytes: u64) -> Logged {
        self.bytes = Some(bytes);
        self
    }
}

fn key_of<'a>(operation: &str, key: &'a JsonValue) -> Result<&'a str, Error> {
    key.as_str().ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidArgs,
            format!(
                "store.{operation}: the key must be a string, not {}",
                crate::json::type_name(key)
            ),
        )
    })
}

fn one_key<'a>(operation: &str, args: &'a JsonValue) -> Result<&'a str, Error> {
    match args.as_array().map(Vec::as_slice) {
        Some([key]) => key_of(operation, key),
        _ => Err(arity(operation, "one argument (the key)", args)),
    }
}

fn arity(operation: &str, takes: &str, args: &JsonValue) -> Error {
    let given = args.as_array().map_or(1, Vec::len);
    Error::new(
        ErrorCode::InvalidArgs,
        format!("store.{operation} takes {takes}, {given} given"),
    )
}

impl BindingHost for StoreHost {
    fn call(&self, member: &str, args: JsonValue) -> BoxFuture<'static, CallAnswer> {
        let answer = match self.operate(member, &args) {
            Ok((value, logged)) => {
                self.log(member, logged, None);
                Ok(value)
            }
            Err(error) => {
                let logged = args
                    .as_array()
                    .and_then(|args| args.first())
                    .and_then(JsonValue::as_str)
                    .filter(|_| member != "keys")
                    .map_or_else(Logged::default, Logged::key);
                self.log(member, logged, Some(&error));
                Err(CallError::new(error.code(), error.message()))
            }
        };
        crate::json::dispose(args);
        self.answer_within_backlog(answer)
    }
}
