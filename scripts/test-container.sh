#!/usr/bin/env bash
# The container image (the repository's Dockerfile), built and run on this machine: no image
# registry is reachable, so the base is the Debian 12 root scripts/debian-root.sh makes with
# debootstrap, imported as a local image, and the binary is the one given (the Dockerfile's
# `prebuilt` build). Then the image's own command serves: /readyz answers, the image's health
# check passes, the Python MCP client runs `run_code` with a bearer token from the mounted
# token file, and `podman stop` drains: a program in flight is answered and the container
# exits 0.
#
#   scripts/test-container.sh BINARY
#
# Needs root, podman (Debian's package) and the test tools (.ci/tools).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'test-container.sh: %s\n' "$*" >&2; exit 1; }
log() { printf 'test-container.sh: %s\n' "$*" >&2; }

[ $# -eq 1 ] || die "usage: scripts/test-container.sh BINARY"
binary="$1"
[ -x "$binary" ] || die "no binary at $binary"
command -v podman >/dev/null || die "needs podman (apt-get install podman)"
[ -x tests/tools/venv/bin/python ] || die "needs the test tools (.ci/tools)"

# This machine's cgroups are hybrid (v1 controllers, and hugetlb on the v2 hierarchy), which
# crun refuses: runc with cgroupfs runs there. Podman's default rlimits (a million open files)
# are above the machine's hard limits, which a container cannot raise: ask for less.
pm() { podman --runtime runc --cgroup-manager cgroupfs "$@"; }
limits=(--ulimit nofile=16384:16384 --ulimit nproc=4096:4096)

base=localhost/codemode-base:bookworm
image=localhost/codemode:test
name="codemode-test-$$"
work="$(mktemp -d)"
cleanup() {
  pm rm -f "$name" >/dev/null 2>&1 || true
  rm -rf "$work" container
}
trap cleanup EXIT

if ! podman image exists "$base"; then
  root="$(scripts/debian-root.sh bookworm | tail -n 1)"
  log "importing $root as $base"
  tar -C "$root" --exclude='./proc/*' --exclude='./sys/*' --exclude='./dev/*' -cf - . |
    podman import --quiet - "$base" >/dev/null
fi

mkdir -p container
cp "$binary" container/codemode
log "building $image"
# RUN steps in a chroot (no OCI runtime); the docker format keeps the HEALTHCHECK.
pm build --quiet --isolation chroot --format docker --network host --build-arg BASE="$base" --build-arg BUILDER="$base" \
  --build-arg BUILD=prebuilt -t "$image" . >/dev/null

secret="container-token-0123456789abcdefghijklmn"
printf 'mode = "code"\n' >"$work/codemode.toml"
# The token file holds the token's digest line, no secret.
printf '%s' "$secret" | "$binary" token hash --name ci >"$work/tokens"
chown 10001:10001 "$work/tokens" "$work/codemode.toml"
chmod 600 "$work/tokens"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

log "running $image (its own command: serve --http 0.0.0.0:8931 --token-file ...)"
pm run -d "${limits[@]}" --name "$name" -p "127.0.0.1:$port:8931" \
  -v "$work/codemode.toml:/etc/codemode/codemode.toml:ro" \
  -v "$work/tokens:/run/secrets/codemode-tokens:ro" "$image" >/dev/null

ready=""
for _ in $(seq 1 100); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ]; then
    ready=yes
    break
  fi
  sleep 0.2
done
[ -n "$ready" ] || { pm logs "$name" >&2; die "/readyz never answered 200"; }
pm healthcheck run "$name" || die "the image's health check failed"
[ "$(pm exec "$name" id -u)" = 10001 ] || die "the server does not run as the non-root user"

url="http://127.0.0.1:$port/mcp"
drive() {
  tests/tools/venv/bin/python tests/tools/mcp_driver.py "$(python3 -c '
import json, sys
print(json.dumps({"transport": "http", "url": sys.argv[1],
  "headers": {"Authorization": "Bearer " + sys.argv[2]},
  "steps": [{"op": "call", "name": "run_code", "arguments": {"code": sys.argv[3], "description": "container"}}]}))
' "$url" "$secret" "$1")"
}
answer="$(drive 'return 6 * 7')"
case "$answer" in *'"text": "42"'*) ;; *) die "run_code did not answer 42: $answer" ;; esac
log "run_code answered 42 in the container"

# A program in flight when the container is stopped is answered, and the container exits 0.
drive 'await new Promise(r => setTimeout(r, 8000)); return "finished"' >"$work/drained" &
driver=$!
sleep 4
pm stop -t 40 "$name" >/dev/null
wait "$driver" || { pm logs "$name" >&2; die "the client failed during the drain: $(cat "$work/drained")"; }
grep -q '"text": "finished"' "$work/drained" || die "the program in flight was not answered: $(cat "$work/drained")"
code="$(pm inspect --format '{{.State.ExitCode}}' "$name")"
[ "$code" = 0 ] || { pm logs "$name" >&2; die "the container exited $code after podman stop"; }
pm logs "$name" 2>&1 | grep -q 'draining' || die "the server did not say it drained"
log "podman stop drained: the program in flight finished, exit code 0"
