#!/usr/bin/env bash
# A minimal Debian system (a directory to chroot into) for testing the wheel and the
# `codemode` binary on a release other than this machine's: made once with
# `debootstrap --variant=minbase`, then reused.
#
#   scripts/debian-root.sh [--with-cc] [--with PKG[,PKG...]] SUITE   # prints the root's path
#
# SUITE: bookworm (Debian 12: python3.11) or trixie (Debian 13: python3.13); any suite
# debootstrap knows works. Inside: python3, python3-venv and ca-certificates; --with-cc adds
# gcc and libc6-dev (for building with only a C compiler and Rust), --with more packages. A
# root with added packages is a separate one, SUITE+PKG+PKG (the added packages sorted).
# Run commands in it with scripts/debian-run.sh ROOT -- COMMAND...
#
# Why: the wheel must install and the command must start on systems that are not the build
# machine (older and newer glibc and CPython); a chroot is the cheapest such system that needs
# only the package mirror. Landlock and seccomp (the Python runtime's confinement) are the host
# kernel's, so they are enforced inside the chroot as outside.
#
# Needs root and debootstrap. The roots live in $CODEMODE_DEBIAN_CACHE (default
# /var/cache/codemode-debian), which outlives CI runs on one machine. A root is built under
# NAME.partial and renamed to NAME only after its stamp file is written, so an interrupted
# run leaves a .partial that the next run deletes and redoes; a finished root is reused as is
# (delete the directory to rebuild it). The mirror is the one this machine's apt uses (read
# from /etc/apt/sources.list and /etc/apt/sources.list.d/ at run time), unless
# $CODEMODE_DEBIAN_MIRROR names one.
set -euo pipefail

die() { printf 'debian-root.sh: %s\n' "$*" >&2; exit 1; }
log() { printf 'debian-root.sh: %s\n' "$*" >&2; }

extra=""
suite=""
while [ $# -gt 0 ]; do
  case "$1" in
    --with-cc) extra="$extra,gcc,libc6-dev" ;;
    --with) [ $# -ge 2 ] || die "--with needs packages (PKG[,PKG...])"; extra="$extra,$2"; shift ;;
    --with=*) extra="$extra,${1#--with=}" ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) [ -z "$suite" ] || die "one SUITE only (got $suite and $1)"; suite="$1" ;;
  esac
  shift
done
[ -n "$suite" ] || die "usage: scripts/debian-root.sh [--with-cc] [--with PKG[,PKG...]] SUITE (bookworm, trixie)"
case "$suite" in *[!a-z0-9-]*) die "not a suite name: $suite" ;; esac
[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot)"
command -v debootstrap >/dev/null || die "needs debootstrap (apt-get install debootstrap)"
[ -e "/usr/share/debootstrap/scripts/$suite" ] || die "debootstrap does not know the suite $suite"

cache="${CODEMODE_DEBIAN_CACHE:-/var/cache/codemode-debian}"
packages="python3,python3-venv,ca-certificates"
name="$suite"
extra="$(printf '%s' "$extra" | tr ',' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')"
for package in $extra; do
  case "$package" in *[!a-z0-9.+-]*) die "not a package name: $package" ;; esac
  packages="$packages,$package"
  name="$name+$package"
done
root="$cache/$name"
stamp="$root/.codemode-debian-root"
# What the stamp records: a root made for other packages is made again.
want="suite=$suite packages=$packages"

if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$want" ]; then
  echo "$root"
  exit 0
fi

# The package mirror: $CODEMODE_DEBIAN_MIRROR, else the first Debian archive (not the
# security one) in this machine's apt sources, deb822 (`URIs:`) or one-line (`deb URI ...`).
mirror_from_apt() {
  local file
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    case "$file" in
      *.sources) awk '/^[[:space:]]*URIs:/ { for (i = 2; i <= NF; i++) print $i }' "$file" ;;
      *) awk '/^[[:space:]]*deb[[:space:]]/ { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i ~ /:\/\//) { print $i; break } }' "$file" ;;
    esac
  done | grep -E '/debian/?$' | grep -v -- '-security' | head -n1
}
mirror="${CODEMODE_DEBIAN_MIRROR:-$(mirror_from_apt || true)}"
[ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources.list*: set CODEMODE_DEBIAN_MIRROR"

# Nothing may be mounted under a directory this script deletes (scripts/debian-run.sh
# mounts in a private namespace, so nothing should be; refuse rather than delete through a
# mount of /dev or /proc).
remove_root() {
  local dir="$1"
  [ -e "$dir" ] || return 0
  if findmnt -rn -o TARGET | grep -q -- "^$dir\(/\|$\)"; then
    die "something is mounted under $dir (findmnt | grep $dir): unmount it, then run again"
  fi
  rm -rf --one-file-system -- "$dir"
}

mkdir -p "$cache"
# One maker per root at a time (two CI runs on one machine share the cache): the second waits,
# then finds the root made.
exec {lock}>"$cache/.lock-$name"
flock "$lock"
if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$want" ]; then
  echo "$root"
  exit 0
fi
partial="$root.partial"
if [ -e "$partial" ]; then
  log "removing $partial (left by an interrupted run)"
  remove_root "$partial"
fi
if [ -e "$root" ]; then
  log "removing $root (no stamp, or made for other packages)"
  remove_root "$root"
fi

log "debootstrap --variant=minbase $suite from $mirror with $packages into $partial"
started=$SECONDS
debootstrap_log="$(mktemp)"
if ! debootstrap --variant=minbase --include="$packages" "$suite" "$partial" "$mirror" \
  >"$debootstrap_log" 2>&1; then
  tail -n 30 "$debootstrap_log" >&2
  [ -f "$partial/debootstrap/debootstrap.log" ] && tail -n 30 "$partial/debootstrap/debootstrap.log" >&2
  rm -f "$debootstrap_log"
  die "debootstrap of $suite failed (the log's end is above; $partial is left for a look and is redone next time)"
fi
rm -f "$debootstrap_log"
# The downloaded packages are not needed once installed.
rm -f "$partial"/var/cache/apt/archives/*.deb "$partial"/var/lib/apt/lists/*_Packages 2>/dev/null || true
python="$(chroot "$partial" /usr/bin/python3 --version 2>&1)" || die "python3 does not run in the new $suite root: $python"
printf '%s\nmirror=%s\nmade=%s\nseconds=%s\n%s\n' "$want" "$mirror" "$(date -u +%FT%TZ)" \
  "$((SECONDS - started))" "$python" >"$partial/.codemode-debian-root"
mv -- "$partial" "$root"
log "made $root in $((SECONDS - started)) s ($(du -sh --one-file-system "$root" | cut -f1), $python)"
echo "$root"
