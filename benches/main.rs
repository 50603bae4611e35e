//! The benchmarks, one binary (each bench binary links the whole JS engine).
//!
//! Run with `cargo bench --bench codemode`; one group with `cargo bench --bench codemode -- validation`
//! (or `-- pipeline`, `-- runtime`, `-- subcall`, `-- parallel`, `-- sdk`, `-- index`, `-- serve`,
//! `-- leftovers`, `-- python`, `-- typecheck`, `-- store`, `-- spans`).

// The manifest's rules are for the library's API; benchmark helpers are neither.
#![allow(unreachable_pub, missing_docs, clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main};

mod floor;
mod index;
mod leftovers;
mod parallel;
mod pipeline;
#[path = "../tests/it/procfs.rs"]
mod procfs;
mod python;
mod runtime;
mod sdk;
mod serve;
mod spans;
mod store;
mod subcall;
mod typecheck;
mod validation;

criterion_group!(
    benches,
    validation::bench,
    pipeline::bench,
    sdk::bench,
    index::bench,
    runtime::bench,
    subcall::bench,
    store::bench,
    parallel::bench,
    serve::bench,
    leftovers::bench,
    python::bench,
    typecheck::bench,
    spans::bench
);
criterion_main!(benches);
