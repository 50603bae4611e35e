#!/usr/bin/env bash
# Builds the Python package's wheel (pyproject.toml, the crate crates/codemode-py) with a
# manylinux platform tag, the tag package indexes accept and pip installs on any Linux with a
# glibc at least that old, and checks it with auditwheel.
#
#   scripts/build-wheel.sh OUT_DIR [MATURIN_ARG...]
#
# Prints the wheel's path on standard output (the last line); OUT_DIR gets the wheel.
#
# Why: a plain `maturin build` links against this machine's glibc (Debian 12: 2.36) and tags
# the wheel for it at best (a manylinux tag of that glibc, else `linux_x86_64`, which indexes
# refuse): it does not load where glibc is older. Here maturin
# compiles and links through zig (`--zig`, the PyPI package `ziglang`), which targets an old
# glibc (the policy's), so the wheel is `manylinux_2_28` (or lower), and C code that build
# scripts compile with the `cc` crate (QuickJS) goes through zig too: maturin sets CC and CXX.
# `auditwheel show` (PyPI's, pinned) then confirms the wheel's extension module needs nothing
# beyond the policy (glibc symbol versions, libraries); a wheel that is not is an error.
#
# Environment:
#   CODEMODE_MANYLINUX   the policy (default manylinux_2_28; manylinux_2_17 builds too, tagged
#                        manylinux2014.manylinux_2_17; another policy is a full rebuild)
#   CODEMODE_WHEEL_TOOLS the venv for maturin, ziglang and auditwheel (default
#                        ${XDG_CACHE_HOME:-$HOME/.cache}/codemode-wheel-tools; made once per
#                        set of pins, reused after)
#   CARGO_TARGET_DIR     as for cargo (maturin builds in it; the `wheel` profile)
# Extra arguments go to `maturin build` (e.g. --features ...).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'build-wheel.sh: %s\n' "$*" >&2; exit 1; }
log() { printf 'build-wheel.sh: %s\n' "$*" >&2; }

# shellcheck source=scripts/zig-tools.sh
. scripts/zig-tools.sh

[ $# -ge 1 ] || die "usage: scripts/build-wheel.sh OUT_DIR [MATURIN_ARG...]"
out_dir="$1"
shift
policy="${CODEMODE_MANYLINUX:-manylinux_2_28}"
case "$policy" in
  manylinux_2_[0-9]*) ;;
  manylinux2014) policy=manylinux_2_17 ;;
  *) die "CODEMODE_MANYLINUX must be manylinux_2_NN (got $policy)" ;;
esac
policy_glibc_minor="${policy#manylinux_2_}"
command -v cargo >/dev/null || die "needs cargo (a Rust toolchain)"
zig_tools_setup "$policy_glibc_minor"

staging="$(mktemp -d)"
trap 'rm -rf -- "$staging"' EXIT

# C code a build script compiles with the `cc` crate (QuickJS, the Python worker's
# confinement primitive) goes through zig: maturin sets CC_x86_64_unknown_linux_gnu (and CXX,
# AR) to its zig wrappers. No build script runs CMake.
log "maturin build --zig --compatibility $policy (zig $zig_version)"
started=$SECONDS
# --auditwheel check: maturin's own audit fails the build on a wheel that is not the policy's
# (instead of grafting libraries into it); auditwheel show below is the independent check.
maturin build --zig --compatibility "$policy" --auditwheel check --out "$staging" "$@" >&2 \
  || die "maturin build --zig failed (its output is above)"
build_seconds=$((SECONDS - started))

shopt -s nullglob
wheels=("$staging"/*.whl)
[ ${#wheels[@]} = 1 ] || die "expected one wheel from maturin, got ${#wheels[@]}: ${wheels[*]}"
wheel="${wheels[0]}"
name="$(basename "$wheel")"
case "$name" in
  *-manylinux_2_*_x86_64*.whl | *-manylinux2014_x86_64*.whl) ;;
  *) die "the wheel is not tagged manylinux: $name" ;;
esac

# auditwheel: the policy the extension module actually meets (the most compatible one its
# symbol versions and libraries allow) must be the requested one or older.
show="$(auditwheel show "$wheel" 2>&1)" || { printf '%s\n' "$show" >&2; die "auditwheel show failed on $name"; }
printf '%s\n' "$show" >&2
met="$(auditwheel show --json "$wheel" 2>/dev/null \
  | python -c 'import json, sys; print(json.load(sys.stdin)["overall_tag"])')" \
  || die "auditwheel show --json failed on $name"
case "$met" in
  manylinux_2_*_x86_64) ;;
  *) die "by auditwheel, $name meets no manylinux policy ($met; see above)" ;;
esac
met_minor="${met#manylinux_2_}"
met_minor="${met_minor%_x86_64}"
[ "$met_minor" -le "$policy_glibc_minor" ] \
  || die "$name needs glibc 2.$met_minor by auditwheel ($met), newer than $policy allows"
# The newest glibc symbol version the extension module references (for the log).
python -m zipfile -e "$wheel" "$staging/unpacked" || die "cannot unpack $name"
max_glibc="$(find "$staging/unpacked" -name '*.so' -print0 | while IFS= read -r -d '' so; do newest_glibc "$so"; done | sort -V | tail -n1)"

mkdir -p "$out_dir"
mv -f -- "$wheel" "$out_dir/"
log "wheel $name: $(du -h "$out_dir/$name" | cut -f1), built in $build_seconds s; auditwheel: $met; the module's newest glibc symbol: $max_glibc"
realpath "$out_dir/$name"
