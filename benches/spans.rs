//! What the library's tracing spans cost (`docs/observability.md`): a trivial `run_code`
//! (`return 1`) and one sub-call (`await tools.noop({})`, per call = (T(N) - T(0)) / N as in
//! `subcall.rs`), each under three subscribers:
//! - `none`: no subscriber at all (a host that never installs one);
//! - `filtered`: a subscriber whose level filter turns every span off (the command's
//!   default: warnings only);
//! - `discarding`: a subscriber that opens every span and drops it when it closes (the
//!   registry with a layer that does nothing), the cost of the spans being on.
//!
//! The subscribers are set for the measuring thread only (`with_default`), so a run's
//! sub-calls take the run's subscriber through a scoped default on the engine's thread and
//! in their tasks: the costlier path (a global subscriber, as the command installs, needs
//! neither).
//!
//! After the group, `spans/paired` prints each subscriber's figure over `none`'s, measured
//! round by round (drift between criterion's groups cannot skew a ratio). The issue's
//! target: within 5 % when off or unsubscribed.

use std::time::Duration;

use codemode::registry::Registry;
use codemode::runtime::JsEngine;
use criterion::{Criterion, SamplingMode};
use deno_core::JsRuntime;
use tracing::Dispatch;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::{Layer, SubscriberExt as _};

use super::runtime::{engine, time_run_code};
use super::subcall::{CALLS, registry_with_noop};

/// A layer that keeps nothing.
struct Discard;

impl<S: tracing::Subscriber> Layer<S> for Discard {}

/// The three subscribers, by label.
fn subscribers() -> [(&'static str, Option<Dispatch>); 3] {
    [
        ("none", None),
        (
            "filtered",
            Some(Dispatch::new(
                tracing_subscriber::registry().with(Discard.with_filter(LevelFilter::WARN)),
            )),
        ),
        (
            "discarding",
            Some(Dispatch::new(tracing_subscriber::registry().with(Discard))),
        ),
    ]
}

/// One measurement under `dispatch` (or none).
fn under<T>(dispatch: &Option<Dispatch>, measure: impl FnOnce() -> T) -> T {
    match dispatch {
        Some(dispatch) => tracing::dispatcher::with_default(dispatch, measure),
        None => measure(),
    }
}

struct Bench {
    host_runtime: tokio::runtime::Runtime,
    engine: std::sync::Arc<JsEngine>,
    registry: Registry,
}

impl Bench {
    fn trivial(&self) -> Duration {
        time_run_code(&self.host_runtime, &self.registry, &self.engine, "return 1")
    }

    fn sub_call(&self) -> Duration {
        let run = |calls: u64| {
            let code = format!("for (let i = 0; i < {calls}; i++) await tools.noop({{}});");
            time_run_code(&self.host_runtime, &self.registry, &self.engine, &code)
        };
        let without = run(0);
        let with = run(CALLS);
        with.saturating_sub(without) / CALLS as u32
    }
}

pub fn bench(c: &mut Criterion) {
    JsRuntime::init_platform(None);
    let engine = engine();
    let bench = Bench {
        host_runtime: tokio::runtime::Runtime::new().expect("tokio"),
        registry: registry_with_noop(engine.clone()),
        engine,
    };
    let subscribers = subscribers();
    let mut group = c.benchmark_group("spans");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
    for (label, dispatch) in &subscribers {
        group.bench_function(format!("trivial_run/{label}"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| under(dispatch, || bench.trivial()))
                    .sum()
            })
        });
        group.bench_function(format!("sub_call/{label}"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| under(dispatch, || bench.sub_call()))
                    .sum()
            })
        });
    }
    group.finish();

    if !super::floor::wanted("spans/paired") {
        return;
    }
    for (figure, measure) in [
        ("trivial_run", Bench::trivial as fn(&Bench) -> Duration),
        ("sub_call", Bench::sub_call),
    ] {
        let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); subscribers.len() - 1];
        for _ in 0..PAIRED_ROUNDS {
            let base = measure(&bench).as_secs_f64();
            for (ratios, (_, dispatch)) in ratios.iter_mut().zip(&subscribers[1..]) {
                ratios.push(under(dispatch, || measure(&bench)).as_secs_f64() / base);
            }
        }
        for (ratios, (label, _)) in ratios.iter_mut().zip(&subscribers[1..]) {
            ratios.sort_by(f64::total_cmp);
            println!(
                "spans/paired: {figure} {label} / none = {:.3}x median of {} rounds (min {:.3}x, max {:.3}x; target <= 1.05x)",
                ratios[ratios.len() / 2],
                ratios.len(),
                ratios[0],
                ratios[ratios.len() - 1],
            );
        }
    }
}

/// Rounds of the paired measurement.
const PAIRED_ROUNDS: usize = 15;
