#!/usr/bin/env bash
# vendor/typescript holds files of the published npm package typescript, unmodified: the
# compiler (lib/typescript.js), its license and third-party notices, and the lib.*.d.ts
# files lib.es2023.d.ts references transitively through `/// <reference lib="..." />`
# (lib.es2023.d.ts included). The program checker (js-checker/) runs that compiler against
# those libs; the Rust side embeds the lib files listed in vendor/typescript/libs.txt.
#
#   scripts/vendor-typescript.sh --check  exit 1 and name the differing files when
#                                         vendor/typescript is not exactly what --write
#                                         would produce
#   scripts/vendor-typescript.sh --write  replace vendor/typescript with that tree
#
# Both modes build the tree in a temporary directory from `npm pack typescript@$VERSION`
# (npm downloads the tarball from its configured registry: the script's only network
# access). The tarball's SHA-512 is pinned below: the script refuses any other file.
# The tree is the files above, plus libs.txt (the chosen lib file names, one a line,
# sorted) and README.md, both written by this script. Running --write twice gives the same
# tree; --check compares file contents and the set of files.
set -euo pipefail

VERSION=5.9.3
# sha512 (hex) of typescript-5.9.3.tgz, the tarball npm pack downloads; the same bytes as
# the sha512 integrity recorded for typescript 5.9.3 in tests/tools/package-lock.json.
TARBALL_SHA512=8e5d6f6733c38a72ebf5e52ddc9feded5e8580d130f508ef04f772b33f4a7d00c3e357d0ac2d98e2f290762694a454f86d795bd511e12e9a7cc2d9ba3394e04b
# The lib the checker compiles against; the vendored libs are it and what it references.
ROOT_LIB=es2023

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
vendor="$root/vendor/typescript"

usage() { echo "usage: $0 --check | --write" >&2; exit 2; }
[ "$#" -eq 1 ] || usage
mode="$1"
case "$mode" in
  --check | --write) ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *) usage ;;
esac

tmp="$(mktemp -d "${TMPDIR:-/tmp}/vendor-typescript.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# The lib names ("es2015.core", ...) file $1 references with `/// <reference lib="..." />`.
lib_references() {
  { grep -E '^/// <reference lib="[^"]+" />' "$1" || true; } | sed -E 's|^/// <reference lib="([^"]+)" />.*$|\1|'
}

# Builds the tree into $1 (a directory that must not exist).
build() {
  local out="$1" tarball sum lib file queue done_libs=" "
  mkdir -p "$tmp/pack" "$tmp/unpack"
  (cd "$tmp/pack" && npm pack "typescript@$VERSION" --silent >/dev/null)
  tarball="$tmp/pack/typescript-$VERSION.tgz"
  [ -s "$tarball" ] || { echo "npm pack typescript@$VERSION made no typescript-$VERSION.tgz" >&2; return 1; }
  sum="$(sha512sum "$tarball" | awk '{print $1}')"
  if [ "$sum" != "$TARBALL_SHA512" ]; then
    echo "typescript-$VERSION.tgz: sha512 $sum, expected $TARBALL_SHA512" >&2
    return 1
  fi
  tar -xzf "$tarball" -C "$tmp/unpack"
  local pkg="$tmp/unpack/package"
  [ -f "$pkg/lib/typescript.js" ] || { echo "typescript-$VERSION.tgz holds no package/lib/typescript.js" >&2; return 1; }

  mkdir -p "$out"
  cp "$pkg/lib/typescript.js" "$pkg/LICENSE.txt" "$pkg/ThirdPartyNoticeText.txt" "$out/"

  # The transitive closure of ROOT_LIB's lib references, breadth first.
  queue="$ROOT_LIB"
  : >"$tmp/libs"
  while [ -n "$queue" ]; do
    lib="${queue%% *}"
    if [ "$lib" = "$queue" ]; then queue=""; else queue="${queue#* }"; fi
    case "$done_libs" in *" $lib "*) continue ;; esac
    done_libs="$done_libs$lib "
    file="lib.$lib.d.ts"
    [ -f "$pkg/lib/$file" ] || { echo "lib \"$lib\" is referenced but $file is not in the package" >&2; return 1; }
    cp "$pkg/lib/$file" "$out/"
    echo "$file" >>"$tmp/libs"
    for lib in $(lib_references "$pkg/lib/$file"); do
      queue="${queue:+$queue }$lib"
    done
  done
  LC_ALL=C sort "$tmp/libs" >"$out/libs.txt"

  readme "$(wc -l <"$out/libs.txt")" >"$out/README.md"
}

# vendor/typescript/README.md, for $1 lib files.
readme() {
  cat <<EOF
# vendor/typescript: TypeScript $VERSION

Files of the published npm package \`typescript@$VERSION\` (the TypeScript compiler, by
Microsoft, Apache License 2.0: see \`LICENSE.txt\`; the licenses of the code and type
definitions it includes are in \`ThirdPartyNoticeText.txt\`), unmodified:

- \`typescript.js\`: the package's \`lib/typescript.js\`, the compiler as one script that
  defines the global \`ts\` (it needs no Node API for what \`js-checker/checker.js\` uses);
- \`LICENSE.txt\`, \`ThirdPartyNoticeText.txt\`: the package's own;
- the $1 \`lib.*.d.ts\` files that \`lib.$ROOT_LIB.d.ts\` references transitively through
  \`/// <reference lib="..." />\` (lib \`x\` is file \`lib.x.d.ts\`), \`lib.$ROOT_LIB.d.ts\`
  included: the ECMAScript declarations the checker compiles programs against (no DOM).

Written by \`scripts/vendor-typescript.sh\`, not by hand:

- \`libs.txt\`: those lib file names, one a line, sorted (the Rust side embeds each);
- this \`README.md\`.

To update: change \`VERSION\` and \`TARBALL_SHA512\` at the top of
\`scripts/vendor-typescript.sh\` (the sha512 of the tarball \`npm pack typescript@<version>\`
downloads, e.g. \`sha512sum typescript-<version>.tgz\`), run
\`scripts/vendor-typescript.sh --write\`, then \`node js-checker/test.mjs\`.
\`scripts/vendor-typescript.sh --check\` exits 1 and names the differing files when this
directory is not exactly what \`--write\` produces.
EOF
}

check() {
  local built="$tmp/built" status=0 f
  [ -d "$vendor" ] || { echo "vendor/typescript is missing (scripts/vendor-typescript.sh --write)" >&2; return 1; }
  build "$built"
  (cd "$built" && find . -type f | LC_ALL=C sort) >"$tmp/want"
  (cd "$vendor" && find . -type f | LC_ALL=C sort) >"$tmp/have"
  while IFS= read -r f; do
    if [ ! -f "$vendor/$f" ]; then
      echo "missing: vendor/typescript/${f#./}" >&2
      status=1
    elif ! cmp -s "$built/$f" "$vendor/$f"; then
      echo "differs: vendor/typescript/${f#./}" >&2
      status=1
    fi
  done <"$tmp/want"
  while IFS= read -r f; do
    echo "not in typescript@$VERSION's tree: vendor/typescript/${f#./}" >&2
    status=1
  done < <(LC_ALL=C comm -13 "$tmp/want" "$tmp/have")
  if [ "$status" = 0 ]; then
    echo "vendor/typescript is typescript@$VERSION's tree"
  else
    echo "(scripts/vendor-typescript.sh --write rebuilds vendor/typescript)" >&2
  fi
  return "$status"
}

write() {
  local built="$tmp/built"
  build "$built"
  mkdir -p "$(dirname "$vendor")"
  if [ -e "$vendor" ]; then
    mv "$vendor" "$tmp/old"
  fi
  cp -R "$built" "$vendor"
  echo "vendor/typescript written from typescript@$VERSION ($(wc -l <"$built/libs.txt") lib files)"
}

case "$mode" in
  --check) check ;;
  --write) write ;;
esac
