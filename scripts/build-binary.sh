#!/usr/bin/env bash
# Builds the `codemode` command for an old glibc: compiled and linked with zig (the PyPI
# package ziglang, through maturin's zig wrappers, as scripts/build-wheel.sh does), so it
# starts on systems older than the build machine; then checks the newest glibc symbol version
# it references.
#
#   scripts/build-binary.sh OUT_DIR [CARGO_ARG...]     # e.g. --no-default-features --features ...
#
# Prints the binary's path (OUT_DIR/codemode) on standard output (the last line).
#
# Why: `cargo build --release` here links against this machine's glibc (Debian 12: 2.36) and
# the binary references symbols as new as GLIBC_2.35 (hypot, pthread_* and
# __libc_start_main@2.34, stat@2.33): it does not start where glibc is older (Debian 11,
# Ubuntu 20.04, RHEL 8 and 9). The wheel is built this way already (manylinux_2_28); this is
# the same for the standalone binary. It links no libpython (the `python` feature's workers
# run on an interpreter found at run time), so nothing else ties it to this machine.
#
# Environment: CODEMODE_GLIBC (default 2.28: the oldest glibc the binary must run on),
# CODEMODE_BINARY_PROFILE (default release), CODEMODE_WHEEL_TOOLS (see scripts/zig-tools.sh),
# CARGO_TARGET_DIR as for cargo (the build goes to its x86_64-unknown-linux-gnu/ directory).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'build-binary.sh: %s\n' "$*" >&2; exit 1; }
log() { printf 'build-binary.sh: %s\n' "$*" >&2; }
# shellcheck source=scripts/zig-tools.sh
. scripts/zig-tools.sh

[ $# -ge 1 ] || die "usage: scripts/build-binary.sh OUT_DIR [CARGO_ARG...]"
out_dir="$1"
shift
glibc="${CODEMODE_GLIBC:-2.28}"
case "$glibc" in 2.[0-9]*) ;; *) die "CODEMODE_GLIBC must be 2.NN (got $glibc)" ;; esac
minor="${glibc#2.}"
profile="${CODEMODE_BINARY_PROFILE:-release}"
command -v cargo >/dev/null || die "needs cargo (a Rust toolchain)"
command -v objdump >/dev/null || die "needs objdump (binutils)"

zig_tools_setup "$minor"
triple=x86_64-unknown-linux-gnu
# The `cc` crate's compiler, archiver and cargo's linker for the target: all zig for glibc $glibc. (Build scripts and proc-macros, same triple, are linked
# the same way; they run here, where a glibc older than the machine's is no obstacle.)
export CC_x86_64_unknown_linux_gnu="$zig_tools/zig-cc"
export CXX_x86_64_unknown_linux_gnu="$zig_tools/zig-c++"
export AR_x86_64_unknown_linux_gnu="$zig_tools/zig-ar"
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER="$zig_tools/zig-cc"

log "cargo build --profile $profile --bin codemode --target $triple $* (zig $zig_version, $zig_target)"
started=$SECONDS
cargo build --profile "$profile" --bin codemode --target "$triple" "$@" >&2 \
  || die "cargo build with zig failed (its output is above)"
target_dir="${CARGO_TARGET_DIR:-target}"
case "$profile" in dev) profile_dir=debug ;; *) profile_dir="$profile" ;; esac
binary="$target_dir/$triple/$profile_dir/codemode"
[ -x "$binary" ] || die "no binary at $binary"

newest="$(newest_glibc "$binary")"
if [ "$newest" != none ] && [ "$(printf '%s\n%s\n' "$newest" "$glibc" | sort -V | tail -n1)" != "$glibc" ]; then
  die "$binary references GLIBC_$newest, newer than $glibc (objdump -T $binary | grep GLIBC_$newest)"
fi
mkdir -p "$out_dir"
cp -f -- "$binary" "$out_dir/codemode"
libraries="$(objdump -p "$binary" | awk '$1 == "NEEDED" { print $2 }' | tr '\n' ' ')"
log "codemode: $(du -h "$out_dir/codemode" | cut -f1), built in $((SECONDS - started)) s; newest glibc symbol: $newest; needs: $libraries"
realpath "$out_dir/codemode"
