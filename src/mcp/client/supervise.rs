//! Supervision of one server: the current session, started again (lazily, on the next
//! call) when the last one ended — the process exited, the stream closed, a transport
//! failed, an HTTP server answered that the session is gone (a URL is connected to again;
//! its tools are listed again, as after any new session). A server that keeps failing fails each call with the reason; it never takes
//! the host down.
//!
//! This module owns the lifetime of a server's sessions; it must not interpret calls or
//! results.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::connect::{Connection, ToolsChanged, connect};
use crate::config::mcp::{McpServerConfig, McpTransport};
use crate::error::Error;

/// One configured server and its current session.
pub struct ServerConnection {
    config: McpServerConfig,
    live: tokio::sync::Mutex<Option<Arc<Connection>>>,
    starts: AtomicU64,
    changed: Arc<ToolsChanged>,
    /// The count of `changed` when the tools were first listed.
    listed: u64,
}

impl std::fmt::Debug for ServerConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConnection")
            .field("name", &self.config.name)
            .field("starts", &self.starts())
            .finish_non_exhaustive()
    }
}

impl ServerConnection {
    pub(crate) fn new(
        config: McpServerConfig,
        first: Connection,
        changed: Arc<ToolsChanged>,
        listed: u64,
    ) -> Arc<Self> {
        Arc::new(ServerConnection {
            config,
            live: tokio::sync::Mutex::new(Some(Arc::new(first))),
            starts: AtomicU64::new(1),
            changed,
            listed,
        })
    }

    /// Whether the server's tools may have changed since they were first listed.
    pub(crate) fn changed_since_listed(&self) -> bool {
        *self.changed.borrow() != self.listed
    }

    /// Changes whenever the server says its tools changed (`notifications/tools/list_changed`)
    /// and when it was started again (its tools may differ); ends with the server.
    pub fn tools_changed(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The server's configured name.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The server's configuration.
    pub fn config(&self) -> &McpServerConfig {
        &self.config
    }

    /// ` (URL)` for a streamable-HTTP server, nothing for a stdio one: where messages say
    /// the server is.
    pub(crate) fn location(&self) -> String {
        match &self.config.transport {
            McpTransport::Http { url, .. } => format!(" ({url})"),
            McpTransport::Stdio { .. } => String::new(),
        }
    }

    /// What happens after a session ended: a stdio server is started again, a URL is
    /// connected to again (a server there cannot be started by codemode).
    pub(crate) fn recovery(&self) -> &'static str {
        match self.config.transport {
            McpTransport::Http { .. } => "codemode reconnects on the next call",
            McpTransport::Stdio { .. } => "it is restarted on the next call",
        }
    }

    /// How many sessions were started (1 + restarts).
    pub fn starts(&self) -> u64 {
        self.starts.load(Ordering::Relaxed)
    }

    /// The current session; a new one when the last one ended.
    pub(crate) async fn session(&self) -> Result<Arc<Connection>, Error> {
        let mut live = self.live.lock().await;
        if let Some(connection) = live.as_ref()
            && !connection.is_closed()
        {
            return Ok(connection.clone());
        }
        if let Some(old) = live.take() {
            let verb = match self.config.transport {
                McpTransport::Http { .. } => "reconnecting to it",
                McpTransport::Stdio { .. } => "restarting it",
            };
            tracing::warn!(
                server = %self.config.name,
                "MCP server `{}` ended{}; {verb}",
                self.config.name,
                old.report().describe()
            );
        }
        let connection = Arc::new(connect(&self.config, &self.changed).await?);
        self.starts.fetch_add(1, Ordering::Relaxed);
        *live = Some(connection.clone());
        // A restarted server may list other tools.
        self.changed
            .send_modify(|count| *count = count.wrapping_add(1));
        Ok(connection)
    }

    /// Drops `connection` if it is still the current session, so the next call starts a
    /// new one (after a transport failure).
    pub(crate) async fn invalidate(&self, connection: &Arc<Connection>) {
        let mut live = self.live.lock().await;
        if live
            .as_ref()
            .is_some_and(|current| Arc::ptr_eq(current, connection))
        {
            *live = None;
        }
    }

    /// Ends the current session (and kills a stdio server's processes).
    pub async fn shutdown(&self) {
        self.live.lock().await.take();
    }
}
