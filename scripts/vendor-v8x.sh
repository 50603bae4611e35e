#!/usr/bin/env bash
# vendor/v8x is the published crate v8x plus the patch series in vendor/v8x-patches/.
# This script rebuilds that tree from the registry's .crate file and the series, in a
# temporary directory, and compares it with vendor/v8x or replaces vendor/v8x with it.
#
#   scripts/vendor-v8x.sh [--check]   (default) exit 1 and print a diff summary when
#                                     vendor/v8x is not exactly what the series produces,
#                                     or when it contains a .git entry
#   scripts/vendor-v8x.sh --write     replace vendor/v8x with what the series produces
#   scripts/vendor-v8x.sh --self-test copy the tree to a temporary directory, show that
#                                     --check passes on the copy and fails once one byte
#                                     of a copied vendor/v8x file is changed (or a .git
#                                     entry is planted); exit 1 if it does not
#
# The crate comes from cargo's download cache ($CARGO_HOME/registry/cache/*/); when it is
# not there, `cargo fetch` in a throwaway project downloads it (the only network access).
# Its SHA-256 is pinned below: the script refuses any other file.
#
# The .crate holds .cargo_vcs_info.json, which vendor/v8x keeps as published; cargo's
# unpacked copy under registry/src/ also carries a .cargo-ok marker that cargo writes
# itself, which vendor/v8x does not have (the tree is extracted from the .crate, and a
# .cargo-ok is removed if one is ever there). Nothing else is excluded from the
# comparison, and executable bits are compared too.
set -euo pipefail

CRATE=v8x
VERSION=149.4.0-rc.4
# sha256 of v8x-149.4.0-rc.4.crate as published on crates.io (cargo verifies it against
# the index when it downloads the file).
CRATE_SHA256=3701ffb3692a24808503d17f758b0a3f688d2c451779247982566b5941033e63

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
vendor="$root/vendor/v8x"
patches="$root/vendor/v8x-patches"

mode="${1:---check}"
case "$mode" in
  --check | --write | --self-test) ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "usage: $0 [--check | --write | --self-test]" >&2
    exit 2
    ;;
esac
[ "$#" -le 1 ] || { echo "usage: $0 [--check | --write | --self-test]" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/vendor-v8x.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# The published .crate, from cargo's cache, fetched into it when absent.
crate_file() {
  local home="${CARGO_HOME:-$HOME/.cargo}" f
  for f in "$home"/registry/cache/*/"$CRATE-$VERSION.crate"; do
    [ -s "$f" ] && { echo "$f"; return 0; }
  done
  echo "$CRATE-$VERSION.crate is not in $home/registry/cache: cargo fetch" >&2
  mkdir -p "$tmp/fetch/src"
  : >"$tmp/fetch/src/lib.rs"
  cat >"$tmp/fetch/Cargo.toml" <<EOF
[package]
name = "vendor-v8x-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$CRATE = "=$VERSION"

[workspace]
EOF
  (cd "$tmp/fetch" && cargo fetch --quiet) >&2
  for f in "$home"/registry/cache/*/"$CRATE-$VERSION.crate"; do
    [ -s "$f" ] && { echo "$f"; return 0; }
  done
  echo "cargo fetch did not put $CRATE-$VERSION.crate in $home/registry/cache" >&2
  return 1
}

# Builds the published crate plus the series into $1 (a directory that must not exist).
build() {
  local out="$1" crate sum name n=0
  crate="$(crate_file)"
  sum="$(sha256sum "$crate" | awk '{print $1}')"
  if [ "$sum" != "$CRATE_SHA256" ]; then
    echo "$crate: sha256 $sum, expected $CRATE_SHA256" >&2
    return 1
  fi
  mkdir -p "$tmp/unpack"
  tar -xzf "$crate" -C "$tmp/unpack"
  [ -d "$tmp/unpack/$CRATE-$VERSION" ] || { echo "$crate holds no $CRATE-$VERSION/" >&2; return 1; }
  mv "$tmp/unpack/$CRATE-$VERSION" "$out"
  rmdir "$tmp/unpack"
  rm -f "$out/.cargo-ok"
  [ -s "$patches/series" ] || { echo "$patches/series is missing or empty" >&2; return 1; }
  while IFS= read -r name || [ -n "$name" ]; do
    case "$name" in '' | '#'*) continue ;; esac
    [ -f "$patches/$name" ] || { echo "series lists $name, which is not in $patches" >&2; return 1; }
    # --fuzz=0: a patch that no longer applies exactly fails instead of landing elsewhere.
    if ! patch -d "$out" -p1 --fuzz=0 --batch --forward --no-backup-if-mismatch \
      --reject-file=- --quiet <"$patches/$name" >"$tmp/patch.log" 2>&1; then
      cat "$tmp/patch.log" >&2
      echo "$name does not apply to $CRATE $VERSION plus the patches before it" >&2
      return 1
    fi
    n=$((n + 1))
  done <"$patches/series"
  for name in "$patches"/*.patch; do
    grep -qxF "$(basename "$name")" "$patches/series" \
      || { echo "$(basename "$name") is in $patches but not in its series" >&2; return 1; }
  done
  echo "$CRATE $VERSION plus $n patches built in a temporary directory" >&2
}

# The executable files of the tree $1, one relative path a line.
executables() { (cd "$1" && find . -type f -perm -u+x | LC_ALL=C sort); }

check() {
  local built="$tmp/series" status=0 lines
  if [ -e "$vendor/.git" ]; then
    echo "vendor/v8x contains a .git entry: v8x's build script would treat it as a development checkout" >&2
    status=1
  fi
  [ -d "$vendor" ] || { echo "vendor/v8x is missing" >&2; return 1; }
  build "$built"
  if ! diff -rq "$built" "$vendor" >"$tmp/differ" 2>&1; then
    echo "vendor/v8x is not the published $CRATE $VERSION plus vendor/v8x-patches/series:" >&2
    sed "s|$built|<series>|g; s|$vendor|vendor/v8x|g" "$tmp/differ" >&2
    (cd "$tmp" && diff -ruN series "$vendor" || true) | sed "s|$vendor|vendor/v8x|g" >"$tmp/full.diff"
    lines="$(wc -l <"$tmp/full.diff")"
    if [ "$lines" -gt 80 ]; then
      echo "diff -ruN <series> vendor/v8x, the first 80 of its $lines lines:" >&2
    else
      echo "diff -ruN <series> vendor/v8x:" >&2
    fi
    head -n 80 "$tmp/full.diff" >&2
    echo "(scripts/vendor-v8x.sh --write rebuilds vendor/v8x from the series; a change meant" >&2
    echo "to stay belongs in a patch of vendor/v8x-patches: see vendor/README.md)" >&2
    status=1
  fi
  if ! diff <(executables "$built") <(executables "$vendor") >"$tmp/modes"; then
    echo "vendor/v8x's executable bits differ from the published crate's (< series, > vendor/v8x):" >&2
    cat "$tmp/modes" >&2
    status=1
  fi
  [ "$status" = 0 ] && echo "vendor/v8x is $CRATE $VERSION plus the series in vendor/v8x-patches"
  return "$status"
}

write() {
  local built="$tmp/built"
  build "$built"
  if [ -e "$vendor" ]; then
    mv "$vendor" "$tmp/old"
  fi
  cp -a "$built" "$vendor"
  echo "vendor/v8x rebuilt from $CRATE $VERSION and vendor/v8x-patches/series"
}

self_test() {
  local copy="$tmp/copy" victim="src/quickjs/core.rs" offset byte new failed=0
  mkdir -p "$copy/scripts" "$copy/vendor"
  cp -a "$root/scripts/vendor-v8x.sh" "$copy/scripts/"
  cp -a "$vendor" "$patches" "$copy/vendor/"
  [ -f "$root/vendor/README.md" ] && cp -a "$root/vendor/README.md" "$copy/vendor/"

  echo "self-test: --check on an unmodified copy must pass"
  if ! "$copy/scripts/vendor-v8x.sh" --check >"$tmp/self.log" 2>&1; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check fails on an unmodified copy of the tree" >&2
    return 1
  fi

  # One byte in the middle of a file the series patches, replaced by another byte.
  offset=$(($(wc -c <"$copy/vendor/v8x/$victim") / 2))
  byte="$(dd if="$copy/vendor/v8x/$victim" bs=1 skip="$offset" count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')"
  if [ "$byte" = 78 ]; then new='y'; else new='x'; fi
  printf '%s' "$new" | dd of="$copy/vendor/v8x/$victim" bs=1 seek="$offset" conv=notrunc 2>/dev/null
  echo "self-test: planted a one-byte change in vendor/v8x/$victim (offset $offset: 0x$byte -> '$new'); --check must fail"
  if "$copy/scripts/vendor-v8x.sh" --check >"$tmp/self.log" 2>&1; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check passed on a copy with a changed byte in vendor/v8x/$victim" >&2
    failed=1
  elif ! grep -q "$victim" "$tmp/self.log"; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check failed but did not name vendor/v8x/$victim" >&2
    failed=1
  fi
  rm -rf "$copy/vendor/v8x"
  cp -a "$vendor" "$copy/vendor/v8x"

  : >"$copy/vendor/v8x/.git"
  echo "self-test: planted an empty vendor/v8x/.git; --check must fail"
  if "$copy/scripts/vendor-v8x.sh" --check >"$tmp/self.log" 2>&1; then
    cat "$tmp/self.log" >&2
    echo "self-test FAILED: --check passed with a .git entry in vendor/v8x" >&2
    failed=1
  fi
  rm -f "$copy/vendor/v8x/.git"

  [ "$failed" = 0 ] || return 1
  echo "self-test passed: --check passes on the tree and catches a planted one-byte change and a .git entry"
}

case "$mode" in
  --check) check ;;
  --write) write ;;
  --self-test) self_test ;;
esac
