#!/usr/bin/env bash
# Runs a command inside a root made by scripts/debian-root.sh (or any directory holding a
# Linux system), with /proc, /dev and /sys mounted, as root, in a clean environment.
#
#   scripts/debian-run.sh ROOT [--cd DIR] [--bind HOST_DIR[:DIR]]... [--] COMMAND [ARG...]
#
# e.g. scripts/debian-run.sh "$(scripts/debian-root.sh bookworm)" -- python3 --version
#
# The mounts are made in a mount namespace of the command's own (unshare --mount, private
# propagation): they exist only while the command runs and disappear with it, whatever ends
# it (failure, a signal, SIGKILL), so nothing is left mounted under the root and deleting it
# later cannot reach the host's /dev or /proc. The network is the host's (the chroot needs
# no network to install a local wheel). The environment is emptied but for PATH, HOME=/root,
# LANG=C.UTF-8 and TERM (pass more with `env NAME=VALUE COMMAND`); --cd DIR is the working
# directory inside the root (default /). --bind HOST_DIR[:DIR] mounts a directory of the host
# at DIR inside the root (default: the same path; the mount point is created in the root),
# read-write, for as long as the command runs: a checkout to build, a toolchain to build
# with. The exit status is the command's.
set -euo pipefail

die() { printf 'debian-run.sh: %s\n' "$*" >&2; exit 2; }

[ $# -ge 1 ] || die "usage: scripts/debian-run.sh ROOT [--cd DIR] [--bind HOST_DIR[:DIR]]... [--] COMMAND [ARG...]"
root="$(realpath -e -- "$1" 2>/dev/null)" || die "no such root: $1"
shift
workdir=/
binds=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cd) [ $# -ge 2 ] || die "--cd needs a directory"; workdir="$2"; shift 2 ;;
    --bind)
      [ $# -ge 2 ] || die "--bind needs HOST_DIR[:DIR]"
      host_dir="${2%%:*}"
      inside="${2#*:}"
      [ "$inside" != "$2" ] || inside="$host_dir"
      host_dir="$(realpath -e -- "$host_dir" 2>/dev/null)" && [ -d "$host_dir" ] || die "--bind: no such directory: ${2%%:*}"
      case "$inside" in /*) ;; *) die "--bind: $inside is not an absolute path" ;; esac
      case "$inside" in *..*) die "--bind: $inside leaves the root" ;; esac
      binds+=("$host_dir" "$inside")
      shift 2
      ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || die "no command to run"
[ "$root" != / ] || die "the root is / (not a chroot)"
[ -x "$root/bin/sh" ] || [ -L "$root/bin/sh" ] || die "$root holds no system (no /bin/sh)"
[ "$(id -u)" = 0 ] || die "needs root (mount and chroot)"

# The namespace's shell mounts, then replaces itself with chroot; "$@" passes through as is.
exec unshare --mount --propagation private -- /bin/bash -c '
  set -e
  root="$1" workdir="$2" nbinds="$3"
  shift 3
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount --rbind /sys "$root/sys"
  while [ "$nbinds" -gt 0 ]; do
    mkdir -p "$root$2"
    mount --bind "$1" "$root$2"
    shift 2
    nbinds=$((nbinds - 1))
  done
  exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" /bin/sh -c "cd \"\$1\" && shift && exec \"\$@\"" sh "$workdir" "$@"
' debian-run "$root" "$workdir" $((${#binds[@]} / 2)) "${binds[@]}" "$@"
