//! The timers of one run: `setTimeout` and `setInterval` as the bootstrap asks for them.
//!
//! A timer is a callback, a deadline and, for an interval, its period. The run's event loop
//! asks for the earliest deadline (to sleep until it) and takes the callbacks that are due;
//! an interval is scheduled again as it is taken. Cancelling removes the timer at once; its
//! entry in the deadline queue is skipped when reached.
//!
//! This module owns the bookkeeping; it must not know how callbacks are called.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// The longest delay a timer accepts, as in browsers and Node (2^31 - 1 ms); longer or
/// invalid delays become 1 ms, as in Node.
const MAX_DELAY_MS: f64 = 2_147_483_647.0;

/// The timers of a run, generic over the callback so the bookkeeping is testable alone.
pub(crate) struct Timers<C> {
    next_id: u32,
    sequence: u64,
    entries: HashMap<u32, Entry<C>>,
    /// (deadline, order of scheduling) -> timer id.
    queue: BTreeMap<(Instant, u64), u32>,
}

struct Entry<C> {
    callback: C,
    period: Option<Duration>,
    key: (Instant, u64),
}

impl<C: Clone> Timers<C> {
    pub(crate) fn new() -> Self {
        Timers {
            next_id: 1,
            sequence: 0,
            entries: HashMap::new(),
            queue: BTreeMap::new(),
        }
    }

    /// Schedules `callback` after `delay_ms` (repeating if `repeat`); the timer's id.
    pub(crate) fn start(&mut self, callback: C, delay_ms: f64, repeat: bool) -> u32 {
        let delay = delay_of(delay_ms);
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let key = self.key(Instant::now() + delay);
        self.queue.insert(key, id);
        self.entries.insert(
            id,
            Entry {
                callback,
                period: repeat.then_some(delay),
                key,
            },
        );
        id
    }

    /// Cancels timer `id` (nothing if there is none).
    pub(crate) fn cancel(&mut self, id: u32) {
        if let Some(entry) = self.entries.remove(&id) {
            self.queue.remove(&entry.key);
        }
    }

    /// Whether any timer is scheduled.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The earliest deadline.
    pub(crate) fn next_deadline(&self) -> Option<Instant> {
        self.queue.keys().next().map(|(deadline, _)| *deadline)
    }

    /// The callback of the earliest timer due at `now`, if one is; an interval is scheduled
    /// again, a timeout is removed.
    pub(crate) fn take_due(&mut self, now: Instant) -> Option<C> {
        let (&key, &id) = self.queue.iter().next()?;
        if key.0 > now {
            return None;
        }
        self.queue.remove(&key);
        let period = self.entries.get(&id)?.period;
        match period {
            Some(period) => {
                let next = self.key(now + period);
                self.queue.insert(next, id);
                let entry = self.entries.get_mut(&id)?;
                entry.key = next;
                Some(entry.callback.clone())
            }
            None => self.entries.remove(&id).map(|entry| entry.callback),
        }
    }

    fn key(&mut self, deadline: Instant) -> (Instant, u64) {
        self.sequence += 1;
        (deadline, self.sequence)
    }
}

fn delay_of(delay_ms: f64) -> Duration {
    let ms = if delay_ms.is_finite() && (1.0..=MAX_DELAY_MS).contains(&delay_ms) {
        delay_ms
    } else {
        1.0
    };
    Duration::from_secs_f64(ms / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_fire_in_deadline_order_and_intervals_repeat() {
        let mut timers = Timers::new();
        let before = Instant::now();
        let late = timers.start("late", 30.0, false);
        timers.start("early", 10.0, false);
        timers.start("every", 5.0, true);
        assert_eq!(timers.take_due(before), None);
        let later = Instant::now() + Duration::from_millis(50);
        let mut fired = Vec::new();
        while let Some(name) = timers.take_due(later) {
            fired.push(name);
            if fired.len() > 10 {
                break;
            }
        }
        // The interval is rescheduled after `later` each time it fires, so it fires once.
        assert_eq!(fired, ["every", "early", "late"]);
        assert!(!timers.is_empty());
        assert!(timers.next_deadline().unwrap() > later);
        timers.cancel(late);
        timers.cancel(3);
        assert!(timers.is_empty());
        assert_eq!(timers.next_deadline(), None);
    }

    #[test]
    fn invalid_delays_become_one_millisecond() {
        for delay in [f64::NAN, -5.0, 0.0, 0.5, f64::INFINITY, 3e9] {
            assert_eq!(delay_of(delay), Duration::from_millis(1), "{delay}");
        }
        assert_eq!(delay_of(250.0), Duration::from_millis(250));
    }
}
