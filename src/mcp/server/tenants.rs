//! Tenants of an authenticated server: the accepted tokens (replaceable while serving, so
//! a token file re-read on `SIGHUP` rotates them without a restart) and each token's share
//! of the caps that protect the server, so that one token's burst slows that token alone.
//!
//! A token's share of a cap is its own ([`Shares`], from `[[serve.tokens]]`) or an even
//! share: the cap divided among the tokens (rounded up), never below a floor (the cap
//! itself when the cap is smaller): [`SESSIONS_FLOOR`], [`STREAMS_FLOOR`], [`RUNS_FLOOR`],
//! [`QUEUE_FLOOR`]. The shares of all tokens may add up to more than the cap: the cap
//! still holds for everyone together, and a share only stops one token from taking it all.
//!
//! Without authentication there is one tenant (whoever reaches the loopback listener) and
//! no share applies.
//!
//! This module owns the token set and the per-token counts of open requests; it must not
//! answer requests (the HTTP edge does) or count runs (`runs` does, with the share given here).

use std::collections::HashMap;
use std::sync::Arc;

use super::auth::{BearerAuth, Principal, Shares};
use crate::code::StoreBudget;

/// The fewest sessions an even share gives a token.
pub const SESSIONS_FLOOR: usize = 4;
/// The fewest open requests an even share gives a token.
pub const STREAMS_FLOOR: usize = 8;
/// The fewest running calls an even share gives a token.
pub const RUNS_FLOOR: usize = 1;
/// The fewest waiting calls an even share gives a token.
pub const QUEUE_FLOOR: usize = 4;
/// The fewest bytes of session stores an even share gives a token (one session's default
/// bound).
pub const STORE_FLOOR: usize = 16 * 1024 * 1024;

/// The server-wide caps the shares divide.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Caps {
    pub(crate) sessions: usize,
    pub(crate) streams: usize,
    pub(crate) runs: usize,
    pub(crate) queue: usize,
    /// The bytes all sessions' stores may hold.
    pub(crate) store: usize,
}

/// One token's resolved share of each cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Share {
    pub(crate) sessions: usize,
    pub(crate) streams: usize,
    pub(crate) runs: usize,
    pub(crate) queue: usize,
}

/// `cap` divided among `tokens` (rounded up), at least `floor` (or `cap` when smaller).
fn even(cap: usize, tokens: usize, floor: usize) -> usize {
    cap.div_ceil(tokens.max(1)).max(floor.min(cap))
}

/// The tokens and the open requests of each.
#[derive(Debug)]
pub(crate) struct Tenants {
    auth: parking_lot::RwLock<Option<BearerAuth>>,
    caps: Caps,
    streams: parking_lot::Mutex<HashMap<[u8; 32], usize>>,
    /// Each token's share of the bytes of session stores, made at its first session.
    stores: parking_lot::Mutex<HashMap<[u8; 32], StoreBudget>>,
}

/// One open request of a token; dropping it counts it out.
#[derive(Debug)]
pub(crate) struct Stream {
    tenants: Arc<Tenants>,
    key: [u8; 32],
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut streams = self.tenants.streams.lock();
        if let Some(open) = streams.get_mut(&self.key) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                streams.remove(&self.key);
            }
        }
    }
}

impl Tenants {
    pub(crate) fn new(auth: Option<BearerAuth>, caps: Caps) -> Self {
        Tenants {
            auth: parking_lot::RwLock::new(auth),
            caps,
            streams: parking_lot::Mutex::default(),
            stores: parking_lot::Mutex::default(),
        }
    }

    /// `principal`'s share of the bytes of session stores: the cap divided among the tokens
    /// (rounded up), at least [`STORE_FLOOR`] (or the cap when smaller), fixed at the
    /// token's first session.
    pub(crate) fn store_budget(&self, principal: &Principal) -> StoreBudget {
        let tokens = self.auth.read().as_ref().map_or(1, BearerAuth::len);
        let mut stores = self.stores.lock();
        stores
            .entry(principal.key())
            .or_insert_with(|| {
                let share = even(self.caps.store, tokens, STORE_FLOOR);
                StoreBudget::new(
                    format!(
                        "bearer token `{}`'s share of the memory for session stores ({} MiB of --max-store-mb {})",
                        principal.token().name(),
                        share / (1024 * 1024),
                        self.caps.store / (1024 * 1024)
                    ),
                    share,
                )
            })
            .clone()
    }

    /// The accepted tokens now (none: serving is not authenticated).
    pub(crate) fn auth(&self) -> Option<BearerAuth> {
        self.auth.read().clone()
    }

    /// Replaces the accepted tokens (requests from now on are checked against `auth`;
    /// sessions of tokens it still holds stay theirs).
    pub(crate) fn replace(&self, auth: BearerAuth) {
        *self.auth.write() = Some(auth);
    }

    /// `principal`'s share of each cap.
    pub(crate) fn share(&self, principal: &Principal) -> Share {
        let tokens = self.auth.read().as_ref().map_or(1, BearerAuth::len);
        let own: Shares = principal.token().shares();
        let caps = self.caps;
        Share {
            sessions: own
                .sessions
                .unwrap_or_else(|| even(caps.sessions, tokens, SESSIONS_FLOOR)),
            streams: own
                .streams
                .unwrap_or_else(|| even(caps.streams, tokens, STREAMS_FLOOR)),
            runs: own
                .runs
                .unwrap_or_else(|| even(caps.runs, tokens, RUNS_FLOOR)),
            queue: own
                .queue
                .unwrap_or_else(|| even(caps.queue, tokens, QUEUE_FLOOR)),
        }
    }

    /// One more open request of `principal`, or its share when it holds that many already.
    pub(crate) fn open_stream(self: &Arc<Self>, principal: &Principal) -> Result<Stream, usize> {
        let share = self.share(principal).streams;
        let key = principal.key();
        let mut streams = self.streams.lock();
        let open = streams.entry(key).or_insert(0);
        if *open >= share {
            return Err(share);
        }
        *open += 1;
        Ok(Stream {
            tenants: self.clone(),
            key,
        })
    }
}

impl Tenants {
    /// The open requests of each token that has any, by the token's key.
    pub(crate) fn open_streams(&self) -> HashMap<[u8; 32], usize> {
        self.streams.lock().clone()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::mcp::server::BearerToken;

    /// A token named `name` (its secret made from the name).
    pub(crate) fn token(name: &str) -> BearerToken {
        BearerToken::from_secret(name, &format!("{name}-secret-0123456789abcdefghij")).unwrap()
    }

    /// The principal of [`token`] `name` as `auth` accepts it.
    pub(crate) fn principal(auth: &BearerAuth, name: &str) -> Principal {
        let mut headers = axum::http::HeaderMap::new();
        let value = format!("Bearer {name}-secret-0123456789abcdefghij");
        headers.insert(
            axum::http::header::AUTHORIZATION,
            axum::http::HeaderValue::from_str(&value).unwrap(),
        );
        auth.check(&headers).unwrap()
    }

    #[test]
    fn even_shares_divide_each_cap_with_a_floor() {
        assert_eq!(even(128, 1, SESSIONS_FLOOR), 128);
        assert_eq!(even(128, 2, SESSIONS_FLOOR), 64);
        assert_eq!(even(128, 100, SESSIONS_FLOOR), 4);
        assert_eq!(even(8, 3, RUNS_FLOOR), 3);
        assert_eq!(even(2, 5, QUEUE_FLOOR), 2, "never above the cap");
        assert_eq!(even(0, 5, QUEUE_FLOOR), 0);
    }

    #[test]
    fn a_token_of_its_own_share_and_streams_counted_per_token() {
        let auth = BearerAuth::new(vec![
            token("a"),
            token("b").with_shares(Shares::even().with_streams(1).with_runs(3)),
        ])
        .unwrap();
        let tenants = Arc::new(Tenants::new(
            Some(auth.clone()),
            Caps {
                sessions: 10,
                streams: 20,
                runs: 8,
                queue: 16,
                store: 64,
            },
        ));
        let (a, b) = (principal(&auth, "a"), principal(&auth, "b"));
        assert_eq!(
            tenants.share(&a),
            Share {
                sessions: 5,
                streams: 10,
                runs: 4,
                queue: 8
            }
        );
        assert_eq!((tenants.share(&b).streams, tenants.share(&b).runs), (1, 3));
        let held = tenants.open_stream(&b).unwrap();
        assert_eq!(tenants.open_stream(&b).unwrap_err(), 1);
        let a_streams: Vec<Stream> = (0..10).map(|_| tenants.open_stream(&a).unwrap()).collect();
        assert!(tenants.open_stream(&a).is_err());
        drop(held);
        assert!(tenants.open_stream(&b).is_ok());
        drop(a_streams);
        assert!(tenants.streams.lock().is_empty());
    }
}
