#!/usr/bin/env bash
# The tests, on a fresh machine, as one command: installs what they need (the Debian packages
# of .ci/packages, as root or with sudo; the npm and Python test tools into tests/tools/ with
# .ci/tools), then runs `cargo test` with the arguments given (e.g. a test name).
#
#   scripts/test.sh [CARGO TEST ARGS...]
#
# `.ci/run` runs this, after its other checks.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/packages
.ci/tools
exec cargo test "$@"
