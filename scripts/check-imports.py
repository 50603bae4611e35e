#!/usr/bin/env python3
"""The import-order check: no module of the library uses a layer listed after its own, and
no two files of `src/`, of a crate under `crates/` or of the Python package
(`python/codemode`) use each other (directly or around a longer cycle).

The map is the `## Layers` list in `src/lib.rs` (one bullet per layer, the modules of a layer
named first in the bullet, before its colon). Every `crate::<module>` path in the code of
`src/` (comments and string literals left out) must name a module of the same layer or of a
layer before it. A module that is not on the map is an error too: the map lists every room.

    scripts/check-imports.py [--root DIR]   check DIR (default: the repository)
    scripts/check-imports.py --self-test    plant a violation in a copy and show it is caught
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

# Modules of the binary, not of the library: the command may use every layer.
BINARY_ONLY = {"main", "cli"}

BULLET = re.compile(r"^//!\s*-\s+(.*)$")
CONTINUATION = re.compile(r"^//!\s{3,}(\S.*)$")
MODULE_LINK = re.compile(r"\[?`([a-z_][a-z0-9_]*)`\]?")
CRATE_PATH = re.compile(r"\bcrate::([a-z_][a-z0-9_]*)")


def read_map(lib_rs: Path) -> list[list[str]]:
    """The layers in order, each the list of its modules."""
    layers: list[list[str]] = []
    in_layers = False
    bullets: list[str] = []
    for line in lib_rs.read_text(encoding="utf-8").splitlines():
        if line.startswith("//! ## "):
            in_layers = line.strip() == "//! ## Layers"
            continue
        if not in_layers:
            continue
        if m := BULLET.match(line):
            bullets.append(m.group(1))
        elif bullets and (m := CONTINUATION.match(line)):
            bullets[-1] += " " + m.group(1)
    for bullet in bullets:
        head = bullet.split(":", 1)[0]
        names = list(dict.fromkeys(MODULE_LINK.findall(head)))
        if names:
            layers.append(names)
    return layers


def strip_comments_and_strings(text: str) -> str:
    """The code of a Rust file without comments, string and char literals (roughly, but safe
    for finding paths: a path inside a literal or a comment is not an import). Line breaks are
    kept, so line numbers stay true."""
    out: list[str] = []
    i, n = 0, len(text)
    raw = re.compile(r'b?r(#*)"')
    char = re.compile(r"'(\\.[^']*|[^\\'])'")

    def skip(start: int, end: int, keep: str = "") -> int:
        out.append(keep + "\n" * text.count("\n", start, end))
        return end

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            i = skip(i, j)
        elif (m := raw.match(text, i)) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, m.end())
            i = skip(i, n if j < 0 else j + len(end), '""')
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = skip(i, min(j + 1, n), '""')
        elif c == "'" and (m := char.match(text, i)):
            i = skip(i, m.end(), "' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


IDENT = re.compile(r"\s*([a-z_][a-z0-9_]*)")


def crate_targets(code: str) -> list[tuple[int, str]]:
    """(line, top-level module) for every module the code names through `crate::`, grouped
    imports included: `use crate::{a::X,\n b};` names `a` and `b`."""
    found: list[tuple[int, str]] = []
    line_of = lambda offset: code.count("\n", 0, offset) + 1  # noqa: E731
    for m in CRATE_PATH.finditer(code):
        found.append((line_of(m.start()), m.group(1)))
    for m in re.finditer(r"\bcrate::\{", code):
        depth, start, i = 1, m.end(), m.end()
        items: list[str] = []
        while i < len(code) and depth:
            c = code[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            if (depth == 1 and c == ",") or depth == 0:
                items.append(code[start:i])
                start = i + 1
            i += 1
        for item in items:
            if ident := IDENT.match(item):
                found.append((line_of(m.start()), ident.group(1)))
    return found


def file_modules(src: Path) -> dict[tuple[str, ...], Path]:
    """Module path -> file, for every file of `src/` (`lib.rs` is the crate root)."""
    mods: dict[tuple[str, ...], Path] = {}
    for path in src.rglob("*.rs"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "mod":
            parts = parts[:-1]
        if parts in (["lib"], ["main"]):
            parts = []
        mods[tuple(parts)] = path
    return mods


FILE_PATH = re.compile(r"\b(crate|self|super(?:::super)*)::((?:[a-z_][a-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*)")
GROUP = re.compile(r"\b(crate|self|super(?:::super)*)::\{([^;]*?)\};")


def file_cycles(root: Path, src: Path) -> list[list[str]]:
    """The cycles between the files of the crate at `src`: a file's edges are the files its
    `crate::`, `self::` and `super::` paths resolve to (the longest module prefix that is a
    file)."""
    mods = file_modules(src)

    def resolve(base: list[str], path: list[str]) -> tuple[str, ...] | None:
        segs = base + path
        for k in range(len(segs), 0, -1):
            if tuple(segs[:k]) in mods:
                return tuple(segs[:k])
        return None

    edges: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for key, path in mods.items():
        code = strip_comments_and_strings(path.read_text(encoding="utf-8"))
        own = list(key)

        def base_of(head: str) -> list[str]:
            if head == "crate":
                return []
            if head == "self":
                return own
            # `super` is the parent of the module the file is (mod.rs and x.rs alike).
            return own[: len(own) - head.count("super")]

        deps: set[tuple[str, ...]] = set()
        for m in FILE_PATH.finditer(code):
            if (target := resolve(base_of(m.group(1)), m.group(2).split("::"))) and target != key:
                deps.add(target)
        for m in GROUP.finditer(code):
            for item in m.group(2).split(","):
                if (ident := IDENT.match(item)) and (target := resolve(base_of(m.group(1)), [ident.group(1)])):
                    if target != key:
                        deps.add(target)
        edges[key] = deps

    return [
        sorted(str(mods[member].relative_to(root)) for member in component)
        for component in strongly_connected(edges)
    ]


def strongly_connected(edges: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[list[tuple[str, ...]]]:
    """The components of more than one node (Tarjan's algorithm, iteratively)."""
    index: dict[tuple[str, ...], int] = {}
    low: dict[tuple[str, ...], int] = {}
    on_stack: set[tuple[str, ...]] = set()
    stack: list[tuple[str, ...]] = []
    components: list[list[tuple[str, ...]]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(component)
    return components


def python_cycles(root: Path, package: Path) -> list[list[str]]:
    """The cycles between the modules of the Python package at `package`, through imports at
    module level (an import inside a function or under `if TYPE_CHECKING:` creates no
    import-time edge)."""
    mods: dict[tuple[str, ...], Path] = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[tuple(parts)] = path

    def resolve(parts: list[str]) -> tuple[str, ...] | None:
        for k in range(len(parts), -1, -1):
            if tuple(parts[:k]) in mods:
                return tuple(parts[:k])
        return None

    edges: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for key, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        here = list(key) if path.name == "__init__.py" else list(key[:-1])
        targets: list[list[str]] = []
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                module = node.module.split(".") if node.module else []
                if node.level:  # relative: from the package `level - 1` steps up
                    base = here[: len(here) - (node.level - 1)] + module
                elif module[:1] == ["codemode"]:
                    base = module[1:]
                else:
                    continue
                targets.extend(base + [alias.name] for alias in node.names)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] == "codemode":
                        targets.append(parts[1:])
        deps: set[tuple[str, ...]] = set()
        for target in targets:
            found = resolve(target)
            # Every module of the package needs its `__init__` first: an edge to the root
            # says nothing.
            if found is not None and found != key and found != ():
                deps.add(found)
        edges[key] = deps
    return [
        sorted(str(mods[member].relative_to(root)) for member in component)
        for component in strongly_connected(edges)
    ]


SUPER_PATH = re.compile(r"\b((?:super::)+)([a-z_][a-z0-9_]*)")


def super_targets(code: str, path: Path, src: Path) -> list[tuple[int, str]]:
    """(line, top-level module) for every `super::` path that climbs to the crate root and
    names a top-level module from there (`super::super::host` in `src/json/text.rs`)."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod":
        parts = parts[:-1]
    # Inline modules (`mod tests { .. }`) add a level each: their ranges in the code.
    inline: list[tuple[int, int]] = []
    for m in re.finditer(r"\bmod\s+[a-z_][a-z0-9_]*\s*\{", code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        inline.append((m.end(), i))
    found: list[tuple[int, str]] = []
    for m in SUPER_PATH.finditer(code):
        levels = len(parts) + sum(1 for start, end in inline if start <= m.start() < end)
        if m.group(1).count("super") == levels:
            found.append((code.count("\n", 0, m.start()) + 1, m.group(2)))
    return found


def module_of(path: Path, src: Path) -> str:
    rel = path.relative_to(src)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def check(root: Path) -> list[str]:
    src = root / "src"
    layers = read_map(src / "lib.rs")
    if not layers:
        return [f"{src / 'lib.rs'}: no `## Layers` list found"]
    rank = {name: i for i, layer in enumerate(layers) for name in layer}
    problems: list[str] = []
    for path in sorted(src.rglob("*.rs")):
        module = module_of(path, src)
        if module == "lib" or module in BINARY_ONLY:
            continue
        if module not in rank:
            problems.append(f"{path.relative_to(root)}: module `{module}` is not on the map in src/lib.rs")
            continue
        code = strip_comments_and_strings(path.read_text(encoding="utf-8"))
        for lineno, target in crate_targets(code) + super_targets(code, path, src):
            where = f"{path.relative_to(root)}:{lineno}"
            if target not in rank:
                problems.append(f"{where}: `crate::{target}` is not on the map")
            elif rank[target] > rank[module]:
                problems.append(
                    f"{where}: `{module}` uses `crate::{target}`, a layer listed after it in src/lib.rs"
                )
    crates = [src] + sorted(path for path in (root / "crates").glob("*/src") if path.is_dir())
    for crate in crates:
        for cycle in file_cycles(root, crate):
            problems.append("a file cycle (break it by moving a type down): " + " <-> ".join(cycle))
    package = root / "python" / "codemode"
    if package.is_dir():
        for cycle in python_cycles(root, package):
            problems.append("a module cycle (break it by moving the shared part down): " + " <-> ".join(cycle))
    return problems


def self_test(root: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "repo"
        shutil.copytree(root / "src", copy / "src")
        for crate in (root / "crates").glob("*/src"):
            shutil.copytree(crate, copy / crate.relative_to(root))
        shutil.copytree(root / "python" / "codemode", copy / "python" / "codemode")
        clean = check(copy)
        if clean:
            print("self-test: the unmodified tree already fails:", *clean, sep="\n  ")
            return 1
        layers = read_map(copy / "src" / "lib.rs")
        low, high = layers[0][0], layers[-1][0]
        victim = next((copy / "src").glob(f"{low}/mod.rs"), copy / "src" / f"{low}.rs")
        victim.write_text(victim.read_text(encoding="utf-8") + f"\n#[allow(unused_imports)]\nuse crate::{high} as _planted;\n", encoding="utf-8")
        planted = check(copy)
        if not any(f"uses `crate::{high}`" in p for p in planted):
            print(f"self-test: a planted `use crate::{high}` in `{low}` was not caught")
            return 1
        print(f"self-test: a planted `use crate::{high}` in `{low}` is caught:", planted[0])
        victim.write_text(victim.read_text(encoding="utf-8").replace(
            f"use crate::{high} as _planted;", f"use crate::{{\n    {low},\n    {high}::{{self as _planted}},\n}};"), encoding="utf-8")
        planted = check(copy)
        if not any(f"uses `crate::{high}`" in p for p in planted):
            print(f"self-test: a planted grouped `use crate::{{{high}::..}}` in `{low}` was not caught")
            return 1
        print(f"self-test: a planted grouped import in `{low}` is caught:", planted[0])
        deep = copy / "src" / "json" / "text.rs"
        deep.write_text(deep.read_text(encoding="utf-8") + f"\n#[allow(unused_imports)]\nuse super::super::{high} as _climbed;\n", encoding="utf-8")
        planted = check(copy)
        if not any(f"uses `crate::{high}`" in p and "json/text.rs" in p for p in planted):
            print(f"self-test: a planted `use super::super::{high}` in src/json/text.rs was not caught")
            return 1
        print("self-test: a planted super::super climb is caught:", next(p for p in planted if "json/text.rs" in p))
        shutil.rmtree(copy / "src")
        shutil.copytree(root / "src", copy / "src")
        leaf = copy / "src" / "schema" / "model.rs"
        leaf.write_text(leaf.read_text(encoding="utf-8") + "\n#[allow(unused_imports)]\nuse super::subset::JsonSchema as _Planted;\n", encoding="utf-8")
        planted = check(copy)
        if not any("file cycle" in p and "schema/model.rs" in p for p in planted):
            print("self-test: a planted file cycle (schema/model.rs -> subset.rs) was not caught")
            return 1
        print("self-test: a planted file cycle is caught:", next(p for p in planted if "file cycle" in p))
        leaf.write_text(leaf.read_text(encoding="utf-8").replace("use super::subset::JsonSchema as _Planted;", ""), encoding="utf-8")
        tool = copy / "crates" / "codemode-py" / "src" / "tool.rs"
        tool.write_text(tool.read_text(encoding="utf-8") + "\n#[allow(unused_imports)]\nuse crate::registry::PyRegistry as _Planted;\n", encoding="utf-8")
        planted = check(copy)
        if not any("file cycle" in p and "codemode-py/src/tool.rs" in p for p in planted):
            print("self-test: a planted file cycle in crates/codemode-py (tool.rs -> registry.rs) was not caught")
            return 1
        print("self-test: a planted crate file cycle is caught:", next(p for p in planted if "codemode-py" in p))
        hints = copy / "python" / "codemode" / "_hints.py"
        hints.write_text(hints.read_text(encoding="utf-8") + "\nfrom ._errors import ConfigError as _planted  # noqa\n", encoding="utf-8")
        planted = check(copy)
        if not any("module cycle" in p and "_hints.py" in p for p in planted):
            print("self-test: a planted module cycle in python/codemode (_hints -> _errors) was not caught")
            return 1
        print("self-test: a planted Python module cycle is caught:", next(p for p in planted if "module cycle" in p))
    return 0


def run_check(
    doc: str,
    check: Callable[[Path], list[str]],
    self_test: Callable[[Path], int],
    failed: Callable[[list[str]], str],
    passed: Callable[[Path], str],
) -> int:
    """A check's command line: `--root DIR` (default: this repository) and `--self-test`;
    prints each problem and `failed(problems)` to standard error (exit 1), or
    `passed(root)` (exit 0)."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test(args.root)
    problems = check(args.root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(failed(problems), file=sys.stderr)
        return 1
    print(passed(args.root))
    return 0


def main() -> int:
    return run_check(
        __doc__,
        check,
        self_test,
        lambda problems: f"{len(problems)} import(s) against the map in src/lib.rs",
        lambda root: "imports follow the map: "
        + " -> ".join("/".join(layer) for layer in read_map(root / "src" / "lib.rs")),
    )


if __name__ == "__main__":
    sys.exit(main())
