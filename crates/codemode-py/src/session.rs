//! The `Session` class of `codemode._native`: one session's store (a
//! [`SessionStore`]), which `Scope.run_code(..., session=...)` passes with each run of the
//! session, so its programs' `store` keeps values between runs. The host can read what the
//! programs kept (keys, values as JSON text the Python half parses), delete and clear.
//!
//! This module owns the session object; making one (with the registry's bounds) and
//! passing it with a run is `registry`'s.

use codemode::code::SessionStore;
use codemode::json::{MAX_DEPTH_CEILING, to_text};
use pyo3::prelude::*;

use crate::{guarded, to_py_err};

/// One session's store.
#[pyclass(module = "codemode._native", name = "Session", frozen)]
pub(crate) struct PySession {
    store: SessionStore,
}

impl PySession {
    pub(crate) fn new(store: SessionStore) -> Self {
        PySession { store }
    }

    /// The store passed with a run.
    pub(crate) fn store(&self) -> &SessionStore {
        &self.store
    }
}

#[pymethods]
impl PySession {
    /// The keys, in the order of their UTF-8 bytes.
    fn keys(&self) -> Vec<String> {
        self.store.keys()
    }

    /// The JSON text of the value under `key`, or `None`.
    fn get_text(&self, py: Python<'_>, key: &str) -> PyResult<Option<String>> {
        guarded(py, || {
            let value = self
                .store
                .get(key, MAX_DEPTH_CEILING)
                .map_err(|err| to_py_err(py, &err))?;
            Ok(value.map(|value| to_text(&value)))
        })
    }

    /// Removes `key`; whether it was there.
    fn delete(&self, py: Python<'_>, key: &str) -> PyResult<bool> {
        guarded(py, || {
            self.store.delete(key).map_err(|err| to_py_err(py, &err))
        })
    }

    /// Removes every key.
    fn clear(&self) {
        self.store.clear();
    }

    /// The bytes it holds (keys plus values' JSON text).
    #[getter]
    fn bytes(&self) -> usize {
        self.store.bytes()
    }

    fn __len__(&self) -> usize {
        self.store.len()
    }
}
