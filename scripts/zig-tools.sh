# Sourced by scripts/build-wheel.sh and scripts/build-binary.sh (not run): the pinned build
# tools from PyPI (maturin, whose `maturin zig` wraps zig for cargo and C compilers; ziglang,
# zig itself; auditwheel) in a venv made once and reused, and wrappers that compile and link
# with zig for an old glibc. (No build script runs CMake: C is compiled with the `cc` crate.)
#
#   zig_tools_setup GLIBC_MINOR     # e.g. 28: targets x86_64-linux-gnu.2.28
#
# Sets: tools (the venv), zig_version, zig_target, zig_tools (the wrappers' directory:
# zig-cc, zig-c++, zig-ar and zig-ranlib); puts the venv's bin first on
# PATH (maturin finds zig as `python -m ziglang` of the first python on PATH). The caller
# defines die and log. $CODEMODE_WHEEL_TOOLS moves the venv (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/codemode-wheel-tools); its path should stay the same
# between runs: cargo's caches record the wrappers' paths.

# The pins: maturin as .ci/run pins it; the zig release maturin 1.16's zig support works
# with; auditwheel.
zig_tools_pins=(maturin==1.16.0 ziglang==0.15.2 auditwheel==6.8.2)

zig_tools_setup() {
  local minor="$1" tool
  command -v python3 >/dev/null || die "needs python3 (with the venv module) for the build tools"
  tools="${CODEMODE_WHEEL_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/codemode-wheel-tools}"
  if [ "$(cat "$tools/.pins" 2>/dev/null)" != "${zig_tools_pins[*]}" ]; then
    log "installing ${zig_tools_pins[*]} into $tools"
    rm -rf -- "$tools"
    python3 -m venv "$tools" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$tools/bin/pip" install --quiet --disable-pip-version-check "${zig_tools_pins[@]}" \
      || die "pip install ${zig_tools_pins[*]} failed"
    printf '%s\n' "${zig_tools_pins[*]}" >"$tools/.pins"
  fi
  export PATH="$tools/bin:$PATH"
  zig_version="$(python -m ziglang version 2>/dev/null)" || die "the ziglang package in $tools does not run"
  zig_target="x86_64-linux-gnu.2.$minor"

  # The wrappers: `maturin zig cc` is zig cc with the argument fixes cargo-zigbuild makes
  # (flags zig does not take, libgcc_s); -fno-sanitize=all as maturin's own wrappers pass
  # (zig would otherwise add UBSan checks to unoptimized C). A fixed place in the venv: the
  # path is part of what cargo records.
  zig_tools="$tools/zig-$zig_target"
  mkdir -p "$zig_tools"
  for tool in "cc:zig cc -- -fno-sanitize=all -target $zig_target" \
    "c++:zig c++ -- -fno-sanitize=all -target $zig_target" \
    "ar:zig ar --" "ranlib:zig ranlib --"; do
    printf '#!/bin/sh\nPATH="%s/bin:$PATH" exec "%s/bin/maturin" %s "$@"\n' "$tools" "$tools" "${tool#*:}" \
      >"$zig_tools/zig-${tool%%:*}"
    chmod +x "$zig_tools/zig-${tool%%:*}"
  done
}

# The newest GLIBC_ symbol version an ELF file references (e.g. 2.28), or "none".
newest_glibc() {
  objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n1 | grep . || echo none
}
