//! The benchmarks, one binary (each bench binary links the whole JS engine).
//!
//! Run with `cargo bench --bench codemode`; one group with `cargo bench --bench codemode -- validation`
//! (or `-- pipeline`, `-- runtime`, `-- sdk`).

use criterion::{criterion_group, criterion_main};

mod pipeline;
mod runtime;
mod sdk;
mod validation;

criterion_group!(
    benches,
    validation::bench,
    pipeline::bench,
    sdk::bench,
    runtime::bench
);
criterion_main!(benches);
