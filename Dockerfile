# The `codemode serve --http` image: multi-stage, the runtime image holds the `codemode`
# binary, a CPython for the Python runtime, and runs as a non-root user. See
# examples/deploy/README.md for building it where no image registry is reachable (bases made
# with debootstrap and imported as local images) and examples/deploy/kubernetes.yaml for a
# Deployment.
#
#   podman build -t codemode .                       # or: docker build -t codemode .
#   podman run -p 8931:8931 -v ./codemode.toml:/etc/codemode/codemode.toml:ro \
#     -v ./tokens:/run/secrets/codemode-tokens:ro --stop-timeout 40 codemode
#
# Tokens come from the mounted token file (one a line; `codemode token hash --name NAME`
# prints a line that holds no secret), or from an environment variable: override the command
# with `--token-env CODEMODE_TOKEN` instead of `--token-file ...`. `SIGTERM` drains for
# `--shutdown-grace` (30 s): give `podman/docker stop` (`--stop-timeout`, default 10 s) and
# Kubernetes (`terminationGracePeriodSeconds`) more than that.
ARG BUILDER=docker.io/library/rust:1-bookworm
ARG BASE=docker.io/library/debian:bookworm-slim
# `source` builds the binary in the image; `prebuilt` takes container/codemode (made with
# `scripts/build-binary.sh container`, e.g. where the builder image cannot be pulled).
ARG BUILD=source

FROM ${BUILDER} AS build-source
# The build needs a Rust toolchain and a C compiler, nothing else (no CMake, no clang, no
# Python headers).
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin codemode \
 && install -m 0755 target/release/codemode /codemode

FROM ${BASE} AS build-prebuilt
COPY container/codemode /codemode

FROM build-${BUILD} AS build

FROM ${BASE}
# python3: the interpreter Python programs run on (`[runtime] python`), confined by Landlock
# and seccomp; ca-certificates: for MCP servers over HTTPS.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10001 --user-group --home-dir /srv/codemode --create-home codemode \
 && mkdir -p /etc/codemode
COPY --from=build /codemode /usr/local/bin/codemode
COPY codemode.example.toml /etc/codemode/codemode.toml
USER 10001:10001
WORKDIR /srv/codemode
EXPOSE 8931
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD ["python3", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8931/readyz', timeout=2).status != 200)"]
ENTRYPOINT ["codemode", "serve"]
CMD ["--config", "/etc/codemode/codemode.toml", "--http", "0.0.0.0:8931", "--token-file", "/run/secrets/codemode-tokens"]
