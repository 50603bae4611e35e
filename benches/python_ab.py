"""Two `codemode` binaries, A and B, in turn: the Python runtime's cold start and warm run as
`codemode serve` (stdio, `[runtime] language = "python"`) sees them, paired round by round
(the machine's speed drifts: the A/B ratios are the figures to quote).

- cold: a fresh server's first `run_code` of `return 1`, from the server's start to the
  answer (the engine made on the first run of `serve`: the interpreter found, the probe,
  the template started, a worker forked; the server's own start is in both).
- cold worker: `warm_pool = 0`, so every run waits for its worker to start (forked from the
  template, which started on the first run): N sequential runs, the median round trip.
- warm: N sequential `run_code` of `return 1`, each after a pause that lets the pool refill
  (a ready worker is taken): the median round trip.

    python3 benches/python_ab.py [--b-python PYTHON] A/codemode B/codemode [N] [ROUNDS]

`--b-python`: B's configuration names its interpreter (`[runtime] python`), for a B whose
workers run on an interpreter found at run time, measured against an A that embeds the same
CPython (A's configuration has no such setting).
"""
import os, statistics, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_ab import Server  # noqa: E402


PYTHONS = {}


def workspace(binary, pool=2):
    ws = tempfile.mkdtemp()
    config = os.path.join(ws, "codemode.toml")
    with open(config, "w") as f:
        f.write('mode = "code"\n[runtime]\nlanguage = "python"\nwarm_pool = %d\n' % pool)
        if binary in PYTHONS:
            f.write('python = "%s"\n' % PYTHONS[binary])
    return ws, config


def cold(binary):
    ws, config = workspace(binary)
    started = time.perf_counter()
    server = Server(binary, ws, config)
    server.run_code()
    server.answer()
    took = time.perf_counter() - started
    server.p.stdin.close(); server.p.wait()
    return took


def warm(server, n, pause):
    times = []
    for _ in range(n):
        time.sleep(pause)
        times.append(server.round_trip())
    return statistics.median(times)


def report(name, unit, scale, ra, rb):
    ratios = [x / y for x, y in zip(ra, rb)]
    med = lambda xs: statistics.median(xs) * scale
    print(f"{name}: A {med(ra):.2f} {unit} (min {min(ra)*scale:.2f} max {max(ra)*scale:.2f}); "
          f"B {med(rb):.2f} {unit} (min {min(rb)*scale:.2f} max {max(rb)*scale:.2f}); "
          f"A/B median {statistics.median(ratios):.3f} (min {min(ratios):.3f} max {max(ratios):.3f})")


def main():
    args = sys.argv[1:]
    b_python = None
    if args[:1] == ["--b-python"]:
        b_python, args = args[1], args[2:]
    a, b = args[0], args[1]
    if b_python is not None:
        PYTHONS[b] = b_python
    n = int(args[2]) if len(args) > 2 else 30
    rounds = int(args[3]) if len(args) > 3 else 6
    ca, cb = [], []
    wa, wb = [], []
    fa, fb = [], []
    servers, unpooled = [], []
    for binary in (a, b):
        for pool, into in ((2, servers), (0, unpooled)):
            ws, config = workspace(binary, pool)
            server = Server(binary, ws, config)
            for _ in range(5):
                server.round_trip()
            into.append(server)
    for _ in range(rounds):
        for binary, out in ((a, ca), (b, cb)):
            out.append(cold(binary))
        for server, out in zip(servers, (wa, wb)):
            out.append(warm(server, n, 0.05))
        for server, out in zip(unpooled, (fa, fb)):
            out.append(warm(server, n, 0.0))
    for server in servers + unpooled:
        server.p.stdin.close(); server.p.wait()
    report("cold (server start to the first answer)", "ms", 1e3, ca, cb)
    report("cold worker (warm_pool = 0: each run waits for a forked worker)", "ms", 1e3, fa, fb)
    report("warm run (median round trip, ready worker)", "ms", 1e3, wa, wb)


if __name__ == "__main__":
    main()
