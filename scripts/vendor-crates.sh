#!/usr/bin/env bash
# vendor/<crate> is the published crate <crate> plus the patch series in
# vendor/<crate>-patches/, for each crate of the table below: the JavaScript engine
# (deno_core's QuickJS backend v8x, patched) and the crates between it and codemode
# (deno_core, serde_v8, deno_v8), which the series rename to `codemode-*` packages so that
# a project depending on codemode gets the patched engine without a `[patch]` table of its
# own (Cargo reads `[patch]` only in the top-level workspace). vendor/README.md says what
# each series changes and why.
#
# This script rebuilds each tree from the registry's .crate file and the series, in a
# temporary directory, and compares it with vendor/<crate> or replaces vendor/<crate>.
#
#   scripts/vendor-crates.sh [--check] [CRATE...]  (default) exit 1 and print a diff summary
#                                     when a vendor/<crate> is not exactly what its series
#                                     produces, or when it contains a .git entry
#   scripts/vendor-crates.sh --write [CRATE...]    replace vendor/<crate> with what the
#                                     series produces
#   scripts/vendor-crates.sh --self-test           copy v8x's tree to a temporary directory
#                                     and show that --check passes on the copy and fails
#                                     once one byte of a copied file is changed, a .git
#                                     entry is planted, or a removed path comes back
#
# With no CRATE, every crate of the table. A series directory holds:
#   series      the patch files in the order they apply (`patch -p1 --fuzz=0`), one a line
#   *.patch     unified diffs against the crate root, each with a header saying what and why
#   remove      (optional) paths removed from the unpacked crate before the series applies,
#               one a line (files or directories; each must exist in the published crate)
#
# The crates come from cargo's download cache ($CARGO_HOME/registry/cache/*/); when one is
# not there, `cargo fetch` in a throwaway project downloads it (the only network access).
# Their SHA-256 is pinned below (the checksums the registry's index gives): the script
# refuses any other file.
#
# Cargo's unpacked copy under registry/src/ carries a .cargo-ok marker that cargo writes
# itself, which the tree does not have. Nothing else is excluded from the comparison, and
# executable bits are compared too.
set -euo pipefail

# name version sha256-of-the-.crate
CRATES='
v8x 149.4.0-rc.4 3701ffb3692a24808503d17f758b0a3f688d2c451779247982566b5941033e63
deno_v8 0.5.0 3dfb3151dcae150420c2fe784928b0dbce8897c6d8bc4bac7b54a5565e06b288
serde_v8 0.322.0 6973c29f2c5cc313d6f5fbed7fbfc7e5c4064d6f3f8bb8ec09838a5a8176b809
deno_core 0.413.0 7ad7d5294f640fd99db08c455e2453c9860b1fa728b76fbdacf0eed3e308d48a
'

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: $0 [--check | --write | --self-test] [CRATE...]"

mode=--check
case "${1:-}" in
  --check | --write | --self-test)
    mode="$1"
    shift
    ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "$usage" >&2
    exit 2
    ;;
esac

# The table's line for crate $1, or nothing.
entry() { awk -v name="$1" '$1 == name { print; exit }' <<<"$CRATES"; }

selected=()
if [ "$#" -eq 0 ]; then
  while read -r name _; do
    [ -n "$name" ] && selected+=("$name")
  done <<<"$CRATES"
else
  for name in "$@"; do
    [ -n "$(entry "$name")" ] || { echo "$name is not a vendored crate (the table in $0)" >&2; exit 2; }
    selected+=("$name")
  done
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/vendor-crates.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# The published .crate of $1 $2, from cargo's cache, fetched into it when absent.
crate_file() {
  local crate="$1" version="$2" home="${CARGO_HOME:-$HOME/.cargo}" f
  for f in "$home"/registry/cache/*/"$crate-$version.crate"; do
    [ -s "$f" ] && { echo "$f"; return 0; }
  done
  echo "$crate-$version.crate is not in $home/registry/cache: cargo fetch" >&2
  rm -rf "$tmp/fetch"
  mkdir -p "$tmp/fetch/src"
  : >"$tmp/fetch/src/lib.rs"
  cat >"$tmp/fetch/Cargo.toml" <<EOF
[package]
name = "vendor-crates-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$crate = { version = "=$version", default-features = false }

[workspace]
EOF
  (cd "$tmp/fetch" && cargo fetch --quiet) >&2
  for f in "$home"/registry/cache/*/"$crate-$version.crate"; do
    [ -s "$f" ] && { echo "$f"; return 0; }
  done
  echo "cargo fetch did not put $crate-$version.crate in $home/registry/cache" >&2
  return 1
}

# Builds the published crate $1 plus its series into $2 (a directory that must not exist),
# with the series of the tree under $3 (default: this checkout).
build() {
  local crate="$1" out="$2" base="${3:-$root}" version sha file sum name n=0 removed=0
  read -r _ version sha <<<"$(entry "$crate")"
  local patches="$base/vendor/$crate-patches"
  file="$(crate_file "$crate" "$version")"
  sum="$(sha256sum "$file" | awk '{print $1}')"
  if [ "$sum" != "$sha" ]; then
    echo "$file: sha256 $sum, expected $sha" >&2
    return 1
  fi
  rm -rf "$tmp/unpack"
  mkdir -p "$tmp/unpack"
  tar -xzf "$file" -C "$tmp/unpack"
  [ -d "$tmp/unpack/$crate-$version" ] || { echo "$file holds no $crate-$version/" >&2; return 1; }
  mv "$tmp/unpack/$crate-$version" "$out"
  rm -f "$out/.cargo-ok"
  if [ -f "$patches/remove" ]; then
    while IFS= read -r name || [ -n "$name" ]; do
      case "$name" in '' | '#'*) continue ;; esac
      case "$name" in /* | *..*) echo "$patches/remove: $name is not a path inside the crate" >&2; return 1 ;; esac
      [ -e "$out/$name" ] || { echo "$patches/remove lists $name, which $crate $version does not have" >&2; return 1; }
      rm -rf "${out:?}/$name"
      removed=$((removed + 1))
    done <"$patches/remove"
  fi
  [ -s "$patches/series" ] || { echo "$patches/series is missing or empty" >&2; return 1; }
  while IFS= read -r name || [ -n "$name" ]; do
    case "$name" in '' | '#'*) continue ;; esac
    [ -f "$patches/$name" ] || { echo "series lists $name, which is not in $patches" >&2; return 1; }
    # --fuzz=0: a patch that no longer applies exactly fails instead of landing elsewhere.
    if ! patch -d "$out" -p1 --fuzz=0 --batch --forward --no-backup-if-mismatch \
      --reject-file=- --quiet <"$patches/$name" >"$tmp/patch.log" 2>&1; then
      cat "$tmp/patch.log" >&2
      echo "$name does not apply to $crate $version plus the patches before it" >&2
      return 1
    fi
    n=$((n + 1))
  done <"$patches/series"
  for name in "$patches"/*.patch; do
    grep -qxF "$(basename "$name")" "$patches/series" \
      || { echo "$(basename "$name") is in $patches but not in its series" >&2; return 1; }
  done
  echo "$crate $version, $removed paths removed, plus $n patches built in a temporary directory" >&2
}

# The executable files of the tree $1, one relative path a line.
executables() { (cd "$1" && find . -type f -perm -u+x | LC_ALL=C sort); }

# Compares vendor/$1 of the tree under $2 (default: this checkout) with its series.
check_one() {
  local crate="$1" base="${2:-$root}" status=0 lines version
  local vendor="$base/vendor/$crate" built="$tmp/series-$crate"
  read -r _ version _ <<<"$(entry "$crate")"
  rm -rf "$built"
  if [ -e "$vendor/.git" ]; then
    echo "vendor/$crate contains a .git entry: a build script may treat it as a development checkout" >&2
    status=1
  fi
  [ -d "$vendor" ] || { echo "vendor/$crate is missing" >&2; return 1; }
  build "$crate" "$built" "$base"
  if ! diff -rq "$built" "$vendor" >"$tmp/differ" 2>&1; then
    echo "vendor/$crate is not the published $crate $version plus vendor/$crate-patches:" >&2
    sed "s|$built|<series>|g; s|$vendor|vendor/$crate|g" "$tmp/differ" >&2
    (cd "$tmp" && diff -ruN "series-$crate" "$vendor" || true) | sed "s|$vendor|vendor/$crate|g" >"$tmp/full.diff"
    lines="$(wc -l <"$tmp/full.diff")"
    if [ "$lines" -gt 80 ]; then
      echo "diff -ruN <series> vendor/$crate, the first 80 of its $lines lines:" >&2
    else
      echo "diff -ruN <series> vendor/$crate:" >&2
    fi
    head -n 80 "$tmp/full.diff" >&2
    echo "(scripts/vendor-crates.sh --write $crate rebuilds vendor/$crate from the series; a" >&2
    echo "change meant to stay belongs in a patch of vendor/$crate-patches: see vendor/README.md)" >&2
    status=1
  fi
  if ! diff <(executables "$built") <(executables "$vendor") >"$tmp/modes"; then
    echo "vendor/$crate's executable bits differ from the series' (< series, > vendor/$crate):" >&2
    cat "$tmp/modes" >&2
    status=1
  fi
  rm -rf "$built"
  [ "$status" = 0 ] && echo "vendor/$crate is $crate $version plus the series in vendor/$crate-patches"
  return "$status"
}

check() {
  local crate status=0
  for crate in "${selected[@]}"; do
    check_one "$crate" || status=1
  done
  return "$status"
}

write() {
  local crate built
  for crate in "${selected[@]}"; do
    built="$tmp/built-$crate"
    build "$crate" "$built"
    rm -rf "${root:?}/vendor/$crate"
    cp -a "$built" "$root/vendor/$crate"
    rm -rf "$built"
    echo "vendor/$crate rebuilt from the published crate and vendor/$crate-patches"
  done
}

self_test() {
  local crate=v8x copy="$tmp/copy" victim="src/quickjs/core.rs" offset byte new failed=0 gone
  mkdir -p "$copy/scripts" "$copy/vendor"
  cp -a "$root/scripts/vendor-crates.sh" "$copy/scripts/"
  cp -a "$root/vendor/$crate" "$root/vendor/$crate-patches" "$copy/vendor/"
  run_copy() { "$copy/scripts/vendor-crates.sh" --check "$crate" >"$tmp/self.log" 2>&1; }

  echo "self-test: --check on an unmodified copy of vendor/$crate must pass"
  if ! run_copy; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check fails on an unmodified copy of the tree" >&2
    return 1
  fi

  # One byte in the middle of a file the series patches, replaced by another byte.
  offset=$(($(wc -c <"$copy/vendor/$crate/$victim") / 2))
  byte="$(dd if="$copy/vendor/$crate/$victim" bs=1 skip="$offset" count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')"
  if [ "$byte" = 78 ]; then new='y'; else new='x'; fi
  printf '%s' "$new" | dd of="$copy/vendor/$crate/$victim" bs=1 seek="$offset" conv=notrunc 2>/dev/null
  echo "self-test: planted a one-byte change in vendor/$crate/$victim (offset $offset: 0x$byte -> '$new'); --check must fail"
  if run_copy; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check passed on a copy with a changed byte in vendor/$crate/$victim" >&2
    failed=1
  elif ! grep -q "$victim" "$tmp/self.log"; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check failed but did not name vendor/$crate/$victim" >&2
    failed=1
  fi
  rm -rf "$copy/vendor/$crate"
  cp -a "$root/vendor/$crate" "$copy/vendor/$crate"

  : >"$copy/vendor/$crate/.git"
  echo "self-test: planted an empty vendor/$crate/.git; --check must fail"
  if run_copy; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check passed with a .git entry in vendor/$crate" >&2
    failed=1
  fi
  rm -f "$copy/vendor/$crate/.git"

  # A path the remove list takes out, put back.
  gone="$(grep -v '^#' "$root/vendor/$crate-patches/remove" | grep -m1 .)"
  mkdir -p "$(dirname "$copy/vendor/$crate/$gone")"
  echo planted >"$copy/vendor/$crate/$gone.planted"
  echo "self-test: planted vendor/$crate/$gone.planted beside a removed path; --check must fail"
  if run_copy; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check passed with a file the series does not make" >&2
    failed=1
  fi

  [ "$failed" = 0 ] || return 1
  echo "self-test passed: --check passes on the tree and catches a planted one-byte change, a .git entry and an extra file"
}

case "$mode" in
  --check) check ;;
  --write) write ;;
  --self-test) self_test ;;
esac
