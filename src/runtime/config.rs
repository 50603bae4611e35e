//! The engine's budgets and pool size, with their defaults and their validation.
//!
//! This module owns the numbers and the rules on them; it must not know how the engine
//! enforces them.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode};

const MIB: u64 = 1024 * 1024;
const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// Budgets of every run of a [`JsEngine`](super::JsEngine), and its warm-pool size.
///
/// The field names are the keys of the configuration file's `[runtime]` table.
///
/// ```
/// use codemode::runtime::EngineConfig;
/// let config = EngineConfig::default().with_compute_ms(5_000);
/// config.validate()?;
/// assert_eq!(config.wall_ms, 600_000);
/// let err = EngineConfig::default().with_heap_mb(0).validate().unwrap_err();
/// assert!(err.message().contains("heap_mb"));
/// # Ok::<(), codemode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct EngineConfig {
    /// CPU time the program may spend running JavaScript, in milliseconds. Time spent
    /// awaiting bindings or timers does not count. Default 60,000.
    pub compute_ms: u64,
    /// Wall-clock time of the whole run, in milliseconds. Default 600,000.
    pub wall_ms: u64,
    /// The JavaScript heap limit, in MiB (allocations past it fail; see the README's "What a
    /// host can rely on"), and separately the budget of host memory the run's pending
    /// binding calls may hold. Default 512.
    pub heap_mb: u64,
    /// Cap on the JSON-serialized logs array plus the value or failure message, in bytes.
    /// Default 64 MiB.
    pub max_output_bytes: u64,
    /// Fresh runtimes kept ready so a run does not wait for runtime creation. `0` creates
    /// every runtime on demand. Default 2.
    pub warm_pool: usize,
    /// Cap on the JSON text of one binding call's arguments, in bytes: a bigger argument
    /// rejects that call (the program can catch it); the run goes on. Separate from
    /// `max_output_bytes`, which caps only what the run returns. Default 64 MiB.
    pub max_call_bytes: u64,
    /// How deep the values a program passes and returns may nest (arrays and objects).
    /// Default [`DEFAULT_VALUE_DEPTH`](crate::json::DEFAULT_VALUE_DEPTH) (5,000). The host
    /// gives its registry the library limit that goes with it, this plus
    /// [`WRAP_DEPTH`](crate::json::WRAP_DEPTH)
    /// ([`DepthLimit::for_programs`](crate::json::DepthLimit::for_programs)); a library
    /// user pairing an engine with a registry by hand does the same.
    pub max_json_depth: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            compute_ms: 60_000,
            wall_ms: 600_000,
            heap_mb: 512,
            max_output_bytes: 64 * MIB,
            warm_pool: 2,
            max_call_bytes: 64 * MIB,
            max_json_depth: crate::json::DEFAULT_VALUE_DEPTH,
        }
    }
}

/// The accepted ranges (inclusive), as `(field, min, max)`.
const RANGES: [(&str, u64, u64); 7] = [
    ("compute_ms", 1, DAY_MS),
    ("wall_ms", 1, 7 * DAY_MS),
    // Below 16 MiB the engine's own bootstrap does not fit.
    ("heap_mb", 16, 64 * 1024),
    ("max_output_bytes", 1024, 1024 * MIB),
    ("warm_pool", 0, 64),
    ("max_call_bytes", 1024, 1024 * MIB),
    (
        "max_json_depth",
        1,
        (crate::json::MAX_DEPTH_CEILING - crate::json::WRAP_DEPTH) as u64,
    ),
];

impl EngineConfig {
    /// The same budgets with another compute budget.
    pub const fn with_compute_ms(mut self, compute_ms: u64) -> Self {
        self.compute_ms = compute_ms;
        self
    }

    /// The same budgets with another wall budget.
    pub const fn with_wall_ms(mut self, wall_ms: u64) -> Self {
        self.wall_ms = wall_ms;
        self
    }

    /// The same budgets with another heap limit.
    pub const fn with_heap_mb(mut self, heap_mb: u64) -> Self {
        self.heap_mb = heap_mb;
        self
    }

    /// The same budgets with another output cap.
    pub const fn with_max_output_bytes(mut self, max_output_bytes: u64) -> Self {
        self.max_output_bytes = max_output_bytes;
        self
    }

    /// The same budgets with another per-call argument cap.
    pub const fn with_max_call_bytes(mut self, max_call_bytes: u64) -> Self {
        self.max_call_bytes = max_call_bytes;
        self
    }

    /// The same budgets with another nesting limit for values.
    pub const fn with_max_json_depth(mut self, max_json_depth: usize) -> Self {
        self.max_json_depth = max_json_depth;
        self
    }

    /// The same budgets with another warm-pool size.
    pub const fn with_warm_pool(mut self, warm_pool: usize) -> Self {
        self.warm_pool = warm_pool;
        self
    }

    /// Checks every field against its range; the error (code `INVALID_CONFIG`) names the
    /// field, its value and the accepted range.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] for the first field outside its inclusive range, in
    /// field order: `compute_ms` 1 ms to 1 day, `wall_ms` 1 ms to 7 days, `heap_mb` 16 to
    /// 65,536, `max_output_bytes` and `max_call_bytes` 1 KiB to 1 GiB, `warm_pool` 0 to 64,
    /// `max_json_depth` 1 to 9,992 ([`MAX_DEPTH_CEILING`](crate::json::MAX_DEPTH_CEILING)
    /// less [`WRAP_DEPTH`](crate::json::WRAP_DEPTH)). The message reads
    /// `runtime.<field> must be between <min> and <max>, got <value>`.
    pub fn validate(&self) -> Result<(), Error> {
        let values = [
            self.compute_ms,
            self.wall_ms,
            self.heap_mb,
            self.max_output_bytes,
            self.warm_pool as u64,
            self.max_call_bytes,
            self.max_json_depth as u64,
        ];
        for ((field, min, max), value) in RANGES.iter().zip(values) {
            if value < *min || value > *max {
                return Err(Error::new(
                    ErrorCode::InvalidConfig,
                    format!("runtime.{field} must be between {min} and {max}, got {value}"),
                ));
            }
        }
        Ok(())
    }

    /// The heap limit in bytes.
    pub(crate) fn heap_bytes(&self) -> usize {
        usize::try_from(self.heap_mb * MIB).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_design_numbers_and_valid() {
        let config = EngineConfig::default();
        assert_eq!(config.compute_ms, 60_000);
        assert_eq!(config.wall_ms, 600_000);
        assert_eq!(config.heap_mb, 512);
        assert_eq!(config.max_output_bytes, 67_108_864);
        assert_eq!(config.warm_pool, 2);
        config.validate().unwrap();
    }

    #[test]
    fn zero_and_absurd_values_name_their_field() {
        let cases = [
            (
                EngineConfig {
                    compute_ms: 0,
                    ..Default::default()
                },
                "compute_ms",
            ),
            (
                EngineConfig {
                    wall_ms: 0,
                    ..Default::default()
                },
                "wall_ms",
            ),
            (
                EngineConfig {
                    wall_ms: u64::MAX,
                    ..Default::default()
                },
                "wall_ms",
            ),
            (
                EngineConfig {
                    heap_mb: 0,
                    ..Default::default()
                },
                "heap_mb",
            ),
            (
                EngineConfig {
                    heap_mb: 1 << 40,
                    ..Default::default()
                },
                "heap_mb",
            ),
            (
                EngineConfig {
                    max_output_bytes: 0,
                    ..Default::default()
                },
                "max_output_bytes",
            ),
            (
                EngineConfig {
                    warm_pool: 10_000,
                    ..Default::default()
                },
                "warm_pool",
            ),
        ];
        for (config, field) in cases {
            let err = config.validate().unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidConfig);
            assert!(
                err.message().starts_with(&format!("runtime.{field} ")),
                "{err}"
            );
        }
    }

    #[test]
    fn a_pool_of_zero_is_allowed() {
        EngineConfig {
            warm_pool: 0,
            ..Default::default()
        }
        .validate()
        .unwrap();
    }

    #[test]
    fn unknown_keys_are_refused_when_deserializing() {
        let err = serde_json::from_str::<EngineConfig>(r#"{"compute_msec": 5}"#).unwrap_err();
        assert!(err.to_string().contains("compute_msec"), "{err}");
        let partial: EngineConfig = serde_json::from_str(r#"{"heap_mb": 64}"#).unwrap();
        assert_eq!(partial.heap_mb, 64);
        assert_eq!(partial.wall_ms, 600_000);
    }
}
