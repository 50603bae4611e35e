//! A session's store: JSON values a session's programs keep between their runs.
//!
//! A [`SessionStore`] belongs to one session (under `codemode serve`, the MCP session; in
//! a library host, whatever the host calls a conversation) and outlives each run: a host
//! passes it with a run ([`Program::with_session`](super::Program::with_session), or
//! [`SessionStore::attach`] to the scope the session's calls run in), and programs reach it
//! as the global `store`. It holds lossless JSON values by string key, each kept as its
//! compact JSON text, so the bytes it counts are the bytes it holds:
//!
//! - a value is checked as a tool's result is (lossless JSON within the registry's depth):
//!   a value that is not is refused, with the same message;
//! - it is bounded ([`StoreLimits`]: the bytes of one value, the number of keys, the bytes
//!   of the session — keys plus values) and may also count against shared budgets
//!   ([`StoreBudget`]: a server's memory for stores, one token's share of it);
//! - a write past any bound fails that write alone with [`ErrorCode::StoreLimit`] and a
//!   message naming the bound; nothing stored before is lost;
//! - what a run writes stays, whatever becomes of the run (it failed, was cancelled, timed
//!   out): each operation takes effect when the program makes it.
//!
//! Dropping the last handle of a store (the session ended) gives its bytes back to its
//! budgets.
//!
//! This module owns the store and its bounds; it must not know how programs reach it (the
//! `store` binding lives in `run`) or what a session is to a server (`mcp::server`).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::Mutex;

use crate::error::{Error, ErrorCode};
use crate::json::{JsonValue, check_lossless_within, parse_lossless_within, write_text};
use crate::registry::{Disposer, Scope};

/// The longest key, in bytes of UTF-8.
pub const MAX_KEY_BYTES: usize = 1024;

/// The bounds of one session's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreLimits {
    /// The bytes one session may hold: its keys plus its values' compact JSON text.
    /// Default 16 MiB.
    pub max_bytes: usize,
    /// The compact JSON text of one value, in bytes. Default 4 MiB.
    pub max_value_bytes: usize,
    /// How many keys one session may hold. Default 1,000.
    pub max_keys: usize,
}

impl Default for StoreLimits {
    fn default() -> Self {
        StoreLimits {
            max_bytes: 16 * 1024 * 1024,
            max_value_bytes: 4 * 1024 * 1024,
            max_keys: 1_000,
        }
    }
}

impl StoreLimits {
    /// The same limits with another bound on a session's bytes.
    pub fn with_max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// The same limits with another bound on one value's bytes.
    pub fn with_max_value_bytes(mut self, bytes: usize) -> Self {
        self.max_value_bytes = bytes;
        self
    }

    /// The same limits with another bound on the number of keys.
    pub fn with_max_keys(mut self, keys: usize) -> Self {
        self.max_keys = keys;
        self
    }

    /// Checks the bounds: each is positive, and a value's bound is no larger than the
    /// session's.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] naming the bound (its `[code]` key) and the value.
    pub fn validate(&self) -> Result<(), Error> {
        let invalid = |message: String| Err(Error::new(ErrorCode::InvalidConfig, message));
        if self.max_bytes == 0 {
            return invalid("store.max_bytes must be positive, got 0".into());
        }
        if self.max_value_bytes == 0 || self.max_value_bytes > self.max_bytes {
            return invalid(format!(
                "store.max_value_bytes must be positive and at most store.max_bytes ({}), got {}",
                self.max_bytes, self.max_value_bytes
            ));
        }
        if self.max_keys == 0 {
            return invalid("store.max_keys must be positive, got 0".into());
        }
        Ok(())
    }
}

/// Bytes shared by several stores (a server's memory for stores, one token's share),
/// named in the error of a write it refuses. Cheap to clone: clones share the count.
#[derive(Clone)]
pub struct StoreBudget {
    inner: Arc<BudgetInner>,
}

struct BudgetInner {
    name: String,
    limit: usize,
    used: AtomicUsize,
}

impl fmt::Debug for StoreBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoreBudget")
            .field("name", &self.inner.name)
            .field("limit", &self.inner.limit)
            .field("used", &self.used())
            .finish()
    }
}

impl StoreBudget {
    /// A budget of `limit` bytes, called `name` in the message of a write it refuses
    /// (e.g. `"the server's store memory (--max-store-mb)"`).
    pub fn new(name: impl Into<String>, limit: usize) -> Self {
        StoreBudget {
            inner: Arc::new(BudgetInner {
                name: name.into(),
                limit,
                used: AtomicUsize::new(0),
            }),
        }
    }

    /// The bytes the stores charged to it hold now.
    pub fn used(&self) -> usize {
        self.inner.used.load(Ordering::Acquire)
    }

    /// Its limit in bytes.
    pub fn limit(&self) -> usize {
        self.inner.limit
    }

    fn reserve(&self, bytes: usize) -> bool {
        self.inner
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes)
                    .filter(|total| *total <= self.inner.limit)
            })
            .is_ok()
    }

    fn release(&self, bytes: usize) {
        // Never below zero: what is released was reserved by the same store.
        let _ = self
            .inner
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                Some(used.saturating_sub(bytes))
            });
    }
}

/// One session's store of JSON values. Cheap to clone: clones are the same store.
#[derive(Clone)]
pub struct SessionStore {
    inner: Arc<StoreInner>,
}

struct StoreInner {
    limits: StoreLimits,
    budgets: Vec<StoreBudget>,
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    /// Each value as its compact JSON text, shared with the reads under way.
    values: BTreeMap<String, Arc<str>>,
    /// The keys' and values' bytes.
    bytes: usize,
}

impl fmt::Debug for SessionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionStore")
            .field("limits", &self.inner.limits)
            .field("keys", &self.len())
            .field("bytes", &self.bytes())
            .finish_non_exhaustive()
    }
}

impl Drop for StoreInner {
    fn drop(&mut self) {
        let bytes = self.entries.get_mut().bytes;
        for budget in &self.budgets {
            budget.release(bytes);
        }
    }
}

/// The bytes a key and the text of its value take.
fn entry_bytes(key: &str, text: &str) -> usize {
    key.len().saturating_add(text.len())
}

fn limit_error(message: String) -> Error {
    Error::new(ErrorCode::StoreLimit, message)
}

impl SessionStore {
    /// An empty store within `limits`.
    pub fn new(limits: StoreLimits) -> Self {
        Self::with_budgets(limits, Vec::new())
    }

    /// An empty store within `limits` whose bytes also count against each of `budgets`.
    pub fn with_budgets(limits: StoreLimits, budgets: Vec<StoreBudget>) -> Self {
        SessionStore {
            inner: Arc::new(StoreInner {
                limits,
                budgets,
                entries: Mutex::new(Entries::default()),
            }),
        }
    }

    /// Its bounds.
    pub fn limits(&self) -> StoreLimits {
        self.inner.limits
    }

    /// How many keys it holds.
    pub fn len(&self) -> usize {
        self.inner.entries.lock().values.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes it holds: its keys plus its values' compact JSON text.
    pub fn bytes(&self) -> usize {
        self.inner.entries.lock().bytes
    }

    /// Whether `self` and `other` are handles of the same store.
    pub fn same(&self, other: &SessionStore) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Makes this the store of the runs of `run_code` in `scope` and the scopes under it
    /// (a host that runs `run_code` through the pipeline, as `codemode serve` does for
    /// each MCP session). Disposing the handle, or closing the scope, detaches it.
    pub fn attach(&self, scope: &Scope) -> Disposer {
        scope.extend(Attached(self.clone()))
    }

    /// The store attached nearest to `scope` ([`SessionStore::attach`]), if any.
    pub fn of(scope: &Scope) -> Option<SessionStore> {
        scope
            .nearest::<Attached>()
            .map(|attached| attached.0.clone())
    }

    /// Stores `value` under `key`, replacing what was there; the bytes of its JSON text.
    /// `depth` is the deepest a value may nest (the registry's
    /// [`value_depth`](crate::registry::RegistryConfig)).
    ///
    /// # Errors
    ///
    /// Nothing is changed when
    ///
    /// - `key` is longer than [`MAX_KEY_BYTES`], or `value` is not lossless JSON within
    ///   `depth` levels: [`ErrorCode::InvalidArgs`], the message saying what and where;
    /// - the write would pass a bound: [`ErrorCode::StoreLimit`], the message naming the
    ///   bound (`store.max_value_bytes`, `store.max_keys`, `store.max_bytes`, or a budget by
    ///   its name) with the sizes.
    pub fn set(&self, key: &str, value: &JsonValue, depth: usize) -> Result<usize, Error> {
        check_key(key)?;
        check_lossless_within(value, depth).map_err(|err| {
            Error::new(
                ErrorCode::InvalidArgs,
                format!("the value is not lossless JSON: {err}"),
            )
        })?;
        let mut text = String::new();
        write_text(value, &mut text);
        self.set_text(key, text)
    }

    /// [`SessionStore::set`] of a value already written as compact, lossless JSON text.
    fn set_text(&self, key: &str, text: String) -> Result<usize, Error> {
        let limits = self.inner.limits;
        if text.len() > limits.max_value_bytes {
            return Err(limit_error(format!(
                "the value is {} bytes of JSON, over the store's bound on one value \
                 (store.max_value_bytes = {}); nothing was stored",
                text.len(),
                limits.max_value_bytes
            )));
        }
        let text: Arc<str> = Arc::from(text);
        let new = entry_bytes(key, &text);
        let mut entries = self.inner.entries.lock();
        let old = entries
            .values
            .get(key)
            .map_or(0, |old| entry_bytes(key, old));
        if old == 0 && entries.values.len() >= limits.max_keys {
            return Err(limit_error(format!(
                "the store holds {} keys, its bound (store.max_keys = {}); delete a key \
                 first or replace one; nothing was stored",
                entries.values.len(),
                limits.max_keys
            )));
        }
        let total = entries.bytes - old + new;
        if total > limits.max_bytes {
            return Err(limit_error(format!(
                "storing it would make the session's store {total} bytes, over its bound \
                 (store.max_bytes = {}; {} held now); delete keys first; nothing was stored",
                limits.max_bytes, entries.bytes
            )));
        }
        if new > old {
            self.reserve(new - old)?;
        } else {
            self.release(old - new);
        }
        entries.bytes = total;
        let bytes = text.len();
        entries.values.insert(key.to_owned(), text);
        Ok(bytes)
    }

    /// Reserves `bytes` in every budget, or none of them.
    fn reserve(&self, bytes: usize) -> Result<(), Error> {
        for (at, budget) in self.inner.budgets.iter().enumerate() {
            if !budget.reserve(bytes) {
                for earlier in &self.inner.budgets[..at] {
                    earlier.release(bytes);
                }
                return Err(limit_error(format!(
                    "storing it would pass {} ({} bytes, {} used now); delete keys first; \
                     nothing was stored",
                    budget.inner.name,
                    budget.limit(),
                    budget.used()
                )));
            }
        }
        Ok(())
    }

    fn release(&self, bytes: usize) {
        for budget in &self.inner.budgets {
            budget.release(bytes);
        }
    }

    /// The value stored under `key`, if any (`depth` as in [`SessionStore::set`]).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidArgs`] for a key longer than [`MAX_KEY_BYTES`] (none is stored);
    /// [`ErrorCode::HostFailed`] if the stored text no longer parses within `depth` (only
    /// when a host lowered the depth after the value was stored).
    pub fn get(&self, key: &str, depth: usize) -> Result<Option<JsonValue>, Error> {
        Ok(self.get_sized(key, depth)?.map(|(value, _)| value))
    }

    /// [`SessionStore::get`], with the bytes of the value's JSON text.
    pub(crate) fn get_sized(
        &self,
        key: &str,
        depth: usize,
    ) -> Result<Option<(JsonValue, usize)>, Error> {
        check_key(key)?;
        // The text is shared, so the lock is held for a lookup, not for the parse.
        let Some(text) = self.inner.entries.lock().values.get(key).cloned() else {
            return Ok(None);
        };
        let value = parse_lossless_within(&text, depth).map_err(|err| {
            Error::new(
                ErrorCode::HostFailed,
                format!("the stored value no longer reads as JSON: {err}"),
            )
        })?;
        Ok(Some((value, text.len())))
    }

    /// Removes `key`; whether it was there.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidArgs`] for a key longer than [`MAX_KEY_BYTES`].
    pub fn delete(&self, key: &str) -> Result<bool, Error> {
        check_key(key)?;
        let mut entries = self.inner.entries.lock();
        let Some(old) = entries.values.remove(key) else {
            return Ok(false);
        };
        let bytes = entry_bytes(key, &old);
        entries.bytes -= bytes;
        self.release(bytes);
        Ok(true)
    }

    /// The keys, in the order of their UTF-8 bytes.
    pub fn keys(&self) -> Vec<String> {
        self.inner.entries.lock().values.keys().cloned().collect()
    }

    /// Removes everything (its bytes go back to its budgets).
    pub fn clear(&self) {
        let mut entries = self.inner.entries.lock();
        self.release(entries.bytes);
        *entries = Entries::default();
    }
}

fn check_key(key: &str) -> Result<(), Error> {
    if key.len() > MAX_KEY_BYTES {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            format!(
                "a key is at most {MAX_KEY_BYTES} bytes of UTF-8, this one is {}",
                key.len()
            ),
        ));
    }
    Ok(())
}

/// A store attached to a scope ([`SessionStore::attach`]).
struct Attached(SessionStore);

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const DEPTH: usize = 100;

    #[test]
    fn values_round_trip_and_keys_are_sorted() {
        let store = SessionStore::new(StoreLimits::default());
        store.set("b", &json!({"n": [1, 2.5, "x"]}), DEPTH).unwrap();
        store.set("a", &json!(null), DEPTH).unwrap();
        assert_eq!(
            store.get("b", DEPTH).unwrap(),
            Some(json!({"n": [1, 2.5, "x"]}))
        );
        assert_eq!(store.get("a", DEPTH).unwrap(), Some(json!(null)));
        assert_eq!(store.get("c", DEPTH).unwrap(), None);
        assert_eq!(store.keys(), ["a", "b"]);
        assert_eq!(store.bytes(), 1 + 4 + 1 + r#"{"n":[1,2.5,"x"]}"#.len());
        assert!(store.delete("a").unwrap());
        assert!(!store.delete("a").unwrap());
        assert_eq!(store.keys(), ["b"]);
    }

    #[test]
    fn a_write_past_a_bound_fails_alone_and_keeps_what_was_stored() {
        let limits = StoreLimits::default()
            .with_max_bytes(100)
            .with_max_value_bytes(40)
            .with_max_keys(2);
        let store = SessionStore::new(limits);
        store.set("a", &json!("x".repeat(30)), DEPTH).unwrap();
        let err = store.set("a", &json!("x".repeat(50)), DEPTH).unwrap_err();
        assert_eq!(err.code(), ErrorCode::StoreLimit);
        assert!(
            err.message().contains("store.max_value_bytes = 40"),
            "{err}"
        );
        store.set("b", &json!("y".repeat(30)), DEPTH).unwrap();
        let err = store.set("c", &json!(1), DEPTH).unwrap_err();
        assert!(err.message().contains("store.max_keys = 2"), "{err}");
        let err = store.set("b", &json!("y".repeat(38)), DEPTH);
        assert!(err.is_ok(), "replacing within the bound: {err:?}");
        let before = store.bytes();
        let limits_hit = SessionStore::new(limits.with_max_bytes(60));
        limits_hit.set("a", &json!("x".repeat(30)), DEPTH).unwrap();
        let err = limits_hit
            .set("b", &json!("y".repeat(30)), DEPTH)
            .unwrap_err();
        assert!(err.message().contains("store.max_bytes = 60"), "{err}");
        assert_eq!(limits_hit.keys(), ["a"]);
        assert_eq!(store.bytes(), before);
        assert_eq!(store.get("a", DEPTH).unwrap(), Some(json!("x".repeat(30))));
    }

    #[test]
    fn values_are_checked_as_tool_results_are() {
        let store = SessionStore::new(StoreLimits::default());
        let deep = (0..10).fold(json!(1), |inner, _| json!([inner]));
        let err = store.set("deep", &deep, 5).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidArgs);
        assert!(
            err.message()
                .starts_with("the value is not lossless JSON: "),
            "{err}"
        );
        let err = store.set(&"k".repeat(MAX_KEY_BYTES + 1), &json!(1), DEPTH);
        assert_eq!(err.unwrap_err().code(), ErrorCode::InvalidArgs);
        assert!(store.is_empty());
    }

    #[test]
    fn budgets_are_charged_all_or_none_and_given_back_when_the_store_ends() {
        let server = StoreBudget::new("the server's store memory", 1_000);
        let token = StoreBudget::new("the token's share", 50);
        let one =
            SessionStore::with_budgets(StoreLimits::default(), vec![server.clone(), token.clone()]);
        one.set("a", &json!("x".repeat(20)), DEPTH).unwrap();
        assert_eq!((server.used(), token.used()), (23, 23));
        let err = one.set("b", &json!("y".repeat(40)), DEPTH).unwrap_err();
        assert_eq!(err.code(), ErrorCode::StoreLimit);
        assert!(
            err.message().contains("the token's share (50 bytes"),
            "{err}"
        );
        assert_eq!(
            (server.used(), token.used()),
            (23, 23),
            "nothing half-charged"
        );
        one.set("a", &json!("x"), DEPTH).unwrap();
        assert_eq!(server.used(), 4);
        let two = one.clone();
        drop(one);
        assert_eq!(server.used(), 4, "a handle still holds it");
        drop(two);
        assert_eq!((server.used(), token.used()), (0, 0));
    }

    #[test]
    fn limits_are_validated() {
        assert!(StoreLimits::default().validate().is_ok());
        let err = StoreLimits::default()
            .with_max_value_bytes(usize::MAX)
            .validate()
            .unwrap_err();
        assert!(err.message().contains("store.max_value_bytes"), "{err}");
        assert!(StoreLimits::default().with_max_keys(0).validate().is_err());
    }
}
