//! Cancellation signals: the Rust counterpart of the spec's `AbortSignal`.

use std::future::Future;

use futures::future::select_all;
use tokio_util::sync::CancellationToken;

/// A cancellation signal that may fuse several sources: it is cancelled as soon as any of
/// them is. The registry fuses the caller's signal with any signal an around-dispatch
/// wrapper substitutes, so a wrapper can add a deadline but never detach the caller's
/// cancellation.
///
/// ```
/// use codemode::tool::Signal;
/// use tokio_util::sync::CancellationToken;
/// let caller = CancellationToken::new();
/// let deadline = CancellationToken::new();
/// let fused = Signal::from(caller.clone()).fuse(&Signal::from(deadline.clone()));
/// assert!(!fused.is_cancelled());
/// caller.cancel();
/// assert!(fused.is_cancelled());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Signal {
    sources: Vec<CancellationToken>,
}

impl Signal {
    /// A signal that never fires.
    pub fn never() -> Self {
        Signal::default()
    }

    /// Whether any source has fired.
    pub fn is_cancelled(&self) -> bool {
        self.sources.iter().any(CancellationToken::is_cancelled)
    }

    /// Completes when any source fires (never, for [`Signal::never`]).
    pub fn cancelled(&self) -> impl Future<Output = ()> + Send + 'static {
        let sources = self.sources.clone();
        async move {
            if sources.is_empty() {
                std::future::pending::<()>().await;
            }
            let waits = sources
                .into_iter()
                .map(|token| Box::pin(async move { token.cancelled().await }));
            select_all(waits).await;
        }
    }

    /// A signal that fires when either `self` or `other` does.
    pub fn fuse(&self, other: &Signal) -> Signal {
        let mut sources = self.sources.clone();
        sources.extend(other.sources.iter().cloned());
        Signal { sources }
    }

    /// A new token that is cancelled when this signal fires, for APIs that want a single
    /// token. With one source it is that token's child; with several, forwarding runs as a
    /// small task on the current tokio runtime and ends when either side fires.
    pub fn child_token(&self) -> CancellationToken {
        if let [only] = self.sources.as_slice() {
            // One source (a caller's token): tokio-util's child token follows it with no
            // task, so no runtime thread is woken for every call that carries a signal.
            return only.child_token();
        }
        let child = CancellationToken::new();
        if self.is_cancelled() {
            child.cancel();
            return child;
        }
        if !self.sources.is_empty() {
            let fired = self.cancelled();
            let forward = child.clone();
            // Forward on whichever runtime is current; without one, poll lazily through the
            // child's own checks (the signal's sources are still checked by `is_cancelled`).
            if let Ok(handle) = tokio::runtime::Handle::try_current() {
                handle.spawn(async move {
                    tokio::select! {
                        _ = fired => forward.cancel(),
                        _ = forward.cancelled() => {}
                    }
                });
            }
        }
        child
    }
}

impl From<CancellationToken> for Signal {
    fn from(token: CancellationToken) -> Self {
        Signal {
            sources: vec![token],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_fused_signal_fires_when_any_source_does() {
        let a = CancellationToken::new();
        let b = CancellationToken::new();
        let fused = Signal::from(a.clone()).fuse(&Signal::from(b.clone()));
        let waiter = tokio::spawn(fused.cancelled());
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!waiter.is_finished());
        b.cancel();
        tokio::time::timeout(Duration::from_secs(2), waiter)
            .await
            .unwrap()
            .unwrap();
        assert!(fused.is_cancelled());
        assert!(!a.is_cancelled());
    }

    #[tokio::test]
    async fn never_never_fires() {
        let never = Signal::never();
        assert!(!never.is_cancelled());
        assert!(
            tokio::time::timeout(Duration::from_millis(20), never.cancelled())
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn child_tokens_follow_the_signal() {
        let a = CancellationToken::new();
        let child = Signal::from(a.clone()).child_token();
        assert!(!child.is_cancelled());
        a.cancel();
        tokio::time::timeout(Duration::from_secs(2), child.cancelled())
            .await
            .unwrap();
    }
}
