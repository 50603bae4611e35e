//! The benchmarks, one binary (each bench binary links the whole JS engine).
//!
//! Run with `cargo bench --bench codemode`; one group with `cargo bench --bench codemode -- validation` (or `-- sdk`).

use criterion::{criterion_group, criterion_main};

mod sdk;
mod validation;

criterion_group!(benches, validation::bench, sdk::bench);
criterion_main!(benches);
