//! The one integration-test binary (every extra test binary would link the JS engine again).

mod builtin;
mod registry;
mod runtime;
mod sdk;
