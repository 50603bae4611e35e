//! The benchmarks, one binary (each bench binary links the whole JS engine).
//!
//! Run with `cargo bench --bench codemode`; one group with `cargo bench --bench codemode -- validation`
//! (or `-- runtime`).

use criterion::{criterion_group, criterion_main};

mod pipeline;
mod runtime;
mod validation;

criterion_group!(benches, validation::bench, pipeline::bench, runtime::bench);
criterion_main!(benches);
