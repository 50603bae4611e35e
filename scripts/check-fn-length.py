#!/usr/bin/env python3
"""The function-length check: no `fn` of `src/` or of a crate under `crates/` spans more
than 100 lines, from its `fn` line to its closing brace (attributes and doc comments not
counted; an inner `fn` counts both alone and as part of the one around it).

Tests are left out: a `#[cfg(test)]` item (a `mod tests { ... }` above all), a file named
`tests.rs`, and a file a `#[cfg(test)] mod name;` brings in. Comments and string literals
are stripped first (with check-imports.py's stripper), so a brace in either is not code.

    scripts/check-fn-length.py [--root DIR]   check DIR (default: the repository)
    scripts/check-fn-length.py --self-test    plant a 101-line function in a copy and show it is caught
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path

LIMIT = 100

FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")
# `#[cfg(test)]`, any further attributes, then the item they apply to.
CFG_TEST = re.compile(r"#\[cfg\(test\)\]")
ATTRIBUTES = re.compile(r"\s*(?:#\[[^\]]*\]\s*)*")
TEST_MOD_FILE = re.compile(
    r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;"
)


def _check_imports():
    """check-imports.py as a module (a file name with a dash is not an importable module
    name, hence the loader): its comment and string stripper and its command line."""
    path = Path(__file__).resolve().with_name("check-imports.py")
    spec = importlib.util.spec_from_file_location("check_imports", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check_imports = _check_imports()
strip_comments_and_strings = check_imports.strip_comments_and_strings


def item_end(code: str, start: int) -> tuple[int, bool]:
    """Where the item starting at `start` ends: just past its closing brace (True), or past
    the `;` that ends a body-less item (False). Brackets and parentheses are skipped over,
    so `[u8; 4]` in a signature does not end it."""
    depth, i, n = 0, start, len(code)
    while i < n:
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c == ";":
            return i + 1, False
        elif depth == 0 and c == "{":
            return matching_brace(code, i) + 1, True
        i += 1
    return n, False


def matching_brace(code: str, open_at: int) -> int:
    """The index of the `}` that closes the `{` at `open_at` (the end of the text if none)."""
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code) - 1


def without_test_items(code: str) -> str:
    """`code` with every `#[cfg(test)]` item blanked out (line breaks kept)."""
    out = list(code)
    for m in CFG_TEST.finditer(code):
        start = ATTRIBUTES.match(code, m.end()).end()
        end, has_body = item_end(code, start)
        if has_body:
            for i in range(m.start(), end):
                if out[i] != "\n":
                    out[i] = " "
    return "".join(out)


def long_functions(code: str) -> list[tuple[int, str, int]]:
    """(line, name, lines) of every `fn` with a body spanning more than LIMIT lines."""
    found = []
    for m in FN.finditer(code):
        end, has_body = item_end(code, m.end())
        if not has_body:
            continue
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end - 1) + 1
        if last - first + 1 > LIMIT:
            found.append((first, m.group(1), last - first + 1))
    return found


def module_dir(path: Path) -> Path:
    """Where the files of `path`'s child modules are."""
    if path.name in ("mod.rs", "lib.rs", "main.rs"):
        return path.parent
    return path.parent / path.stem


def rust_files(root: Path) -> list[Path]:
    """The non-test Rust files of `src/` and `crates/*/src`."""
    trees = [root / "src"] + sorted(p for p in (root / "crates").glob("*/src") if p.is_dir())
    files = sorted(path for tree in trees for path in tree.rglob("*.rs"))
    test_only: list[Path] = []
    for path in files:
        code = strip_comments_and_strings(path.read_text(encoding="utf-8"))
        test_only.extend(module_dir(path) / m.group(1) for m in TEST_MOD_FILE.finditer(code))
    kept = []
    for path in files:
        in_test_module = any(
            path == base.with_suffix(".rs") or path.is_relative_to(base) for base in test_only
        )
        if path.name != "tests.rs" and not in_test_module:
            kept.append(path)
    return kept


def check(root: Path) -> list[str]:
    problems = []
    for path in rust_files(root):
        code = without_test_items(strip_comments_and_strings(path.read_text(encoding="utf-8")))
        for line, name, lines in long_functions(code):
            problems.append(f"{path.relative_to(root)}:{line}: fn {name} spans {lines} lines (at most {LIMIT})")
    return problems


def self_test() -> int:
    body = "".join(f"    let _x{i} = {i};\n" for i in range(LIMIT - 1))
    planted = f"pub fn planted() {{\n{body}}}\n"
    fits = f"pub fn fits() {{\n{body[: body.rindex('    let')]}}}\n"
    in_tests = f"#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{body}    }}\n}}\n"
    braces = '/// { in a doc\nfn braces() {\n    let s = "}}}";\n    // }\n    let c = \'{\';\n}\n'
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "src").mkdir()
        (root / "crates" / "sub" / "src").mkdir(parents=True)
        (root / "src" / "lib.rs").write_text(
            "#[cfg(test)]\nmod only_tests;\nmod fine;\n" + fits + in_tests + braces, encoding="utf-8"
        )
        (root / "src" / "fine.rs").write_text(fits, encoding="utf-8")
        (root / "src" / "only_tests.rs").write_text(planted, encoding="utf-8")
        (root / "crates" / "sub" / "src" / "tests.rs").write_text(planted, encoding="utf-8")
        clean = check(root)
        if clean:
            print("self-test: a tree without a long function fails:", *clean, sep="\n  ")
            return 1
        (root / "crates" / "sub" / "src" / "lib.rs").write_text("//! }\n" + planted, encoding="utf-8")
        caught = check(root)
        if len(caught) != 1 or "crates/sub/src/lib.rs:2: fn planted spans 101 lines" not in caught[0]:
            print("self-test: a planted 101-line function was not caught as it should be:", *caught, sep="\n  ")
            return 1
        print("self-test: a 100-line function, test code and braces in literals pass; a planted 101-line function is caught:", caught[0])
    return 0


def main() -> int:
    return check_imports.run_check(
        __doc__,
        check,
        lambda _root: self_test(),
        lambda problems: f"{len(problems)} function(s) over {LIMIT} lines: split them along a seam",
        lambda _root: f"no function spans more than {LIMIT} lines",
    )


if __name__ == "__main__":
    sys.exit(main())
