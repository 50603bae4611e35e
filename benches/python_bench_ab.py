"""Two builds of the Python package, A and B, in turn: ``benches/python_bench.py --json`` run
with the interpreter of a venv where A's wheel is installed, then B's, pair after pair, in the
order A B B A (so neither side is always first after the other's run). The machine's speed
drifts: each pair's A/B ratio of a figure is taken within the pair, and the report gives the
median, min and max of those ratios (A/B > 1: B is faster), beside each side's median figure.

    python3 benches/python_bench_ab.py A/venv/bin/python B/venv/bin/python [PAIRS] [-- BENCH_ARG...]

PAIRS defaults to 6; BENCH_ARG go to python_bench.py (default ``--rounds 3 --calls 200``).
Both sides run the same python_bench.py (this checkout's).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_bench.py")


def one(python: str, bench_args: list[str]) -> dict[str, float]:
    """The median of each figure over one python_bench.py run's rounds."""
    out = subprocess.run(
        [python, BENCH, "--json", *bench_args],
        check=True,
        capture_output=True,
        text=True,
        cwd="/",  # the package from the venv, never from a source tree
    ).stdout
    figures: dict[str, list[float]] = json.loads(out)["figures"]
    return {name: statistics.median(values) for name, values in figures.items()}


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.3f} ms"


def main() -> None:
    args = sys.argv[1:]
    bench_args = ["--rounds", "3", "--calls", "200"]
    if "--" in args:
        cut = args.index("--")
        args, bench_args = args[:cut], args[cut + 1 :]
    a, b = args[0], args[1]
    pairs = int(args[2]) if len(args) > 2 else 6
    got: dict[str, list[dict[str, float]]] = {a: [], b: []}
    load_before = os.getloadavg()[0]
    for i in range(pairs):
        order = (a, b) if i % 2 == 0 else (b, a)
        for python in order:
            got[python].append(one(python, bench_args))
        print(f"pair {i + 1}/{pairs} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    load_after = os.getloadavg()[0]
    print(
        f"{pairs} pairs (A B, B A, ...) of python_bench.py {' '.join(bench_args)}; "
        f"load average {load_before:.2f} before, {load_after:.2f} after"
    )
    print(f"  {'figure':40} {'A':>10} {'B':>10}   A/B median (min, max)")
    for name in got[a][0]:
        fa = [r[name] for r in got[a]]
        fb = [r[name] for r in got[b]]
        ratios = [x / y for x, y in zip(fa, fb, strict=True)]
        print(
            f"  {name:40} {fmt(statistics.median(fa)):>10} {fmt(statistics.median(fb)):>10}   "
            f"{statistics.median(ratios):.3f} ({min(ratios):.3f}, {max(ratios):.3f})"
        )


if __name__ == "__main__":
    main()
