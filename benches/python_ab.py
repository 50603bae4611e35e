"""Two `codemode` binaries, A and B, in turn: the Python runtime's cold start and warm run as
`codemode serve` (stdio, `[runtime] language = "python"`) sees them, paired round by round
(the machine's speed drifts: the A/B ratios are the figures to quote).

- cold: a fresh server's first `run_code` of `return 1`, from the server's start to the
  answer (the engine made on the first run of `serve`: the interpreter found, the probe,
  the template started, a worker forked; the server's own start is in both).
- cold worker: after the pool settled, a run right after the previous one with no pause
  while the pool's two ready workers are taken: the third run waits for a fork.
- warm: N sequential `run_code` of `return 1`, each after a pause that lets the pool refill
  (a ready worker is taken): the median round trip.

    python3 benches/python_ab.py A/codemode B/codemode [N] [ROUNDS]
"""
import os, statistics, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_ab import Server  # noqa: E402


def workspace():
    ws = tempfile.mkdtemp()
    config = os.path.join(ws, "codemode.toml")
    with open(config, "w") as f:
        f.write('mode = "code"\n[runtime]\nlanguage = "python"\nwarm_pool = 2\n')
    return ws, config


def cold(binary):
    ws, config = workspace()
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
    a, b = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    ca, cb = [], []
    wa, wb = [], []
    fa, fb = [], []
    servers = []
    for binary in (a, b):
        ws, config = workspace()
        server = Server(binary, ws, config)
        for _ in range(5):
            server.round_trip()
        servers.append(server)
    for _ in range(rounds):
        for binary, out in ((a, ca), (b, cb)):
            out.append(cold(binary))
        for server, out in zip(servers, (wa, wb)):
            out.append(warm(server, n, 0.05))
        for server, out in zip(servers, (fa, fb)):
            time.sleep(0.5)
            server.round_trip(); server.round_trip()
            out.append(server.round_trip())
    for server in servers:
        server.p.stdin.close(); server.p.wait()
    report("cold (server start to the first answer)", "ms", 1e3, ca, cb)
    report("cold worker (third run with no pause: waits for a fork)", "ms", 1e3, fa, fb)
    report("warm run (median round trip, ready worker)", "ms", 1e3, wa, wb)


if __name__ == "__main__":
    main()
