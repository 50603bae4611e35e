//! The timers of one run: `setTimeout` and `setInterval` as the bootstrap asks for them.
//!
//! A timer is an id, a deadline and, for an interval, its period; its callback stays with
//! the bootstrap, which fires it by id. The run's event loop asks for the earliest deadline
//! (to sleep until it) and takes the ids that are due; an interval is scheduled again as it
//! is taken. Cancelling removes the timer at once. Every operation is O(log n), and
//! dropping n timers is O(n): no engine handle is held per timer.
//!
//! This module owns the bookkeeping; it must not know how callbacks are called.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// The longest delay a timer accepts, as in browsers and Node (2^31 - 1 ms); longer or
/// invalid delays become 1 ms, as in Node.
const MAX_DELAY_MS: f64 = 2_147_483_647.0;

/// The timers of a run.
pub(crate) struct Timers {
    next_id: u32,
    sequence: u64,
    entries: HashMap<u32, Entry>,
    /// (deadline, order of scheduling) -> timer id.
    queue: BTreeMap<(Instant, u64), u32>,
}

struct Entry {
    period: Option<Duration>,
    key: (Instant, u64),
}

impl Timers {
    pub(crate) fn new() -> Self {
        Timers {
            next_id: 1,
            sequence: 0,
            entries: HashMap::new(),
            queue: BTreeMap::new(),
        }
    }

    /// Schedules a timer due after `delay_ms` (repeating if `repeat`); its id.
    pub(crate) fn start(&mut self, delay_ms: f64, repeat: bool) -> u32 {
        let delay = delay_of(delay_ms);
        let mut id = self.next_id;
        // Ids wrap after 2^32 - 1 timers; one still scheduled is skipped, never replaced.
        while self.entries.contains_key(&id) {
            id = id.wrapping_add(1).max(1);
        }
        self.next_id = id.wrapping_add(1).max(1);
        let key = self.key(Instant::now() + delay);
        self.queue.insert(key, id);
        self.entries.insert(
            id,
            Entry {
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

    /// The id of the earliest timer due at `now`, if one is, and whether it repeats; an
    /// interval is scheduled again, a timeout is removed.
    pub(crate) fn take_due(&mut self, now: Instant) -> Option<(u32, bool)> {
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
                Some((id, true))
            }
            None => self.entries.remove(&id).map(|_| (id, false)),
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
        let late = timers.start(30.0, false);
        let early = timers.start(10.0, false);
        let every = timers.start(5.0, true);
        assert_eq!(timers.take_due(before), None);
        let later = Instant::now() + Duration::from_millis(50);
        let mut fired = Vec::new();
        while let Some((id, repeats)) = timers.take_due(later) {
            assert_eq!(repeats, id == every);
            fired.push(id);
            if fired.len() > 10 {
                break;
            }
        }
        // The interval is rescheduled after `later` each time it fires, so it fires once.
        assert_eq!(fired, [every, early, late]);
        assert!(!timers.is_empty());
        assert!(timers.next_deadline().unwrap() > later);
        timers.cancel(late);
        timers.cancel(every);
        assert!(timers.is_empty());
        assert_eq!(timers.next_deadline(), None);
    }

    #[test]
    fn a_million_timers_are_scheduled_and_dropped_in_linear_time() {
        let started = Instant::now();
        let mut timers = Timers::new();
        for i in 0..1_000_000 {
            timers.start(1e6 + f64::from(i), false);
        }
        drop(timers);
        // Generous for a loaded machine in debug: quadratic work would take hours.
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn invalid_delays_become_one_millisecond() {
        for delay in [f64::NAN, -5.0, 0.0, 0.5, f64::INFINITY, 3e9] {
            assert_eq!(delay_of(delay), Duration::from_millis(1), "{delay}");
        }
        assert_eq!(delay_of(250.0), Duration::from_millis(250));
    }
}
