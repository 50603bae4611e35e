#!/usr/bin/env bash
# Shows that building codemode needs a Rust toolchain and a C compiler, nothing else, and that
# a project outside this repository can depend on it as `cargo add` makes it: in a minimal
# Debian system (scripts/debian-root.sh --with-cc: debootstrap minbase, python3, gcc and
# libc6-dev; this machine's Rust toolchain mounted in), it
#
#   1. checks that none of CMake, clang/libclang, simde or Python's headers (python3-dev) is
#      there, so the build cannot be using them;
#   2. runs `cargo package` of every crate a host needs (the engine's four and codemode), with
#      its verification: each package unpacked and built from what it holds, the engine's C
#      included, from an empty target directory;
#   3. copies examples/rust-host out of the checkout, points its `codemode` dependency at the
#      checkout (a path dependency, no [patch] table, no environment, no .cargo/config.toml),
#      builds it and runs it: it must print the program's result. Its Cargo.lock holds the
#      versions of the workspace's, so its build shares step 2's dependencies.
#
#   scripts/build-in-debian.sh [SUITE]     (default bookworm; needs root, as debian-root.sh)
#
# The Rust toolchain is this machine's ($RUSTUP_HOME, $CARGO_HOME), and the crates come from
# its download cache, offline (`--offline`: the steps before this one in .ci/run fetched them;
# the example's lock holds the workspace's versions), so the root needs no network either. Takes a full debug build of the dependency
# tree (several minutes on 2 cores); the root itself is cached. `cargo package` writes its
# `.crate` files under the temporary target directory, not into the checkout's target/.
set -euo pipefail

die() { printf 'build-in-debian.sh: %s\n' "$*" >&2; exit 1; }

suite="${1:-bookworm}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rustup_home="$(realpath -e "${RUSTUP_HOME:-$HOME/.rustup}")" || die "no Rust toolchain (RUSTUP_HOME)"
cargo_home="$(realpath -e "${CARGO_HOME:-$HOME/.cargo}")" || die "no CARGO_HOME"
root="$("$repo/scripts/debian-root.sh" --with-cc "$suite")"

work="$(mktemp -d "${TMPDIR:-/tmp}/build-in-debian.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/examples/rust-host" "$work/rust-host"
rm -rf "$work/rust-host/target"
# The dependency line of a project outside the repository: the checkout's path.
sed -i "s|^codemode = { path = \"../..\" }|codemode = { path = \"$repo\" }|" "$work/rust-host/Cargo.toml"
grep -qF "codemode = { path = \"$repo\" }" "$work/rust-host/Cargo.toml" \
  || die "examples/rust-host/Cargo.toml has no \`codemode = { path = \"../..\" }\` line to point at the checkout"
! grep -q '^\[patch' "$work/rust-host/Cargo.toml" || die "examples/rust-host has a [patch] table"

run() {
  "$repo/scripts/debian-run.sh" "$root" --bind "$repo" --bind "$rustup_home" --bind "$cargo_home" \
    --bind "$work" --cd "$work/rust-host" -- \
    env PATH="$cargo_home/bin:/usr/local/bin:/usr/bin:/bin" RUSTUP_HOME="$rustup_home" \
    CARGO_HOME="$cargo_home" "$@"
}

echo "== in $root: what the build must not need"
run sh -c '
  status=0
  for tool in cmake clang python3-config; do
    if command -v "$tool" >/dev/null; then echo "present: $tool ($(command -v "$tool"))"; status=1; fi
  done
  for path in /usr/include/simde /usr/lib/llvm-* /usr/include/python3*/Python.h \
    /usr/lib/x86_64-linux-gnu/libclang*; do
    if [ -e "$path" ]; then echo "present: $path"; status=1; fi
  done
  command -v cc >/dev/null || { echo "no C compiler (cc)"; status=1; }
  [ "$status" = 0 ] && echo "none of cmake, clang, libclang, simde, Python.h; cc is $(cc --version | head -n1)"
  exit "$status"
' || die "the Debian root has a package the build must not need (above)"

echo "== cargo package of the crates a host needs, verified (built from the packages)"
started=$SECONDS
"$repo/scripts/debian-run.sh" "$root" --bind "$repo" --bind "$rustup_home" --bind "$cargo_home" \
  --bind "$work" --cd "$repo" -- \
  env PATH="$cargo_home/bin:/usr/local/bin:/usr/bin:/bin" RUSTUP_HOME="$rustup_home" \
  CARGO_HOME="$cargo_home" cargo package --locked --offline --allow-dirty --target-dir "$work/target" \
  -p codemode-v8x -p codemode-deno-v8 -p codemode-serde-v8 -p codemode-deno-core -p codemode
ls -l "$work"/target/package/*.crate
echo "packaged and verified in $((SECONDS - started)) s"

echo "== examples/rust-host, outside the checkout, built and run"
started=$SECONDS
run cargo build --quiet --offline --target-dir "$work/target"
echo "built in $((SECONDS - started)) s"
output="$(run cargo run --quiet --offline --target-dir "$work/target")"
printf '%s\n' "$output"
printf '%s\n' "$output" | grep -qx '66' || die "the example host did not print the program's result (66)"
echo "examples/rust-host builds and runs with a Rust toolchain and a C compiler only"
