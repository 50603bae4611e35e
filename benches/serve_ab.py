"""Two `codemode serve` binaries, A and B, in turn, ROUNDS times; on a shared machine whose
speed drifts, the paired ratio (A/B round by round) is the figure to quote.

CPU: each serves N `run_code` calls of `return 1` over K concurrent streams (K requests in
flight on stdio); prints each one's server CPU per run (user + system of the server process
and all its threads, from wait4, start-up included; `--subcall` and `--python` as below):

    python3 benches/serve_ab.py OLD/codemode NEW/codemode 2000 4 8

Latency (`--latency`): both servers stay up, and each round times N sequential calls on A,
then on B; prints each one's median round trip:

    python3 benches/serve_ab.py --latency OLD/codemode NEW/codemode 200 10

`--subcall` (after `--latency`) runs a program of one sub-call (`read_file` of a small file)
instead of `return 1`; `--python` runs Python programs (`[runtime] language = "python"`):

    python3 benches/serve_ab.py --latency --subcall OLD/codemode NEW/codemode 200 10
    python3 benches/serve_ab.py --latency --python OLD/codemode NEW/codemode 100 10
"""
import json, subprocess, sys, os, tempfile, time, statistics


class Server:
    """`codemode serve` over stdio, initialized: in a fresh workspace with `mode = "code"`, or
    in `workspace` with `config` (a file name there)."""

    def __init__(self, binary, workspace=None, config=None, python=False):
        ws = workspace or tempfile.mkdtemp()
        open(os.path.join(ws, "a.txt"), "w").write("hello\n")
        if config is None:
            config = os.path.join(ws, "codemode.toml")
            runtime = '[runtime]\nlanguage = "python"\n' if python else ""
            open(config, "w").write('mode = "code"\n' + runtime)
        self.p = subprocess.Popen([binary, "serve", "--config", config], cwd=ws, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 1
        self.send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"0"}}})
        self.answer(); self.send({"jsonrpc":"2.0","method":"notifications/initialized"})

    def send(self, m):
        self.p.stdin.write((json.dumps(m) + "\n").encode()); self.p.stdin.flush()

    def answer(self):
        while True:
            line = self.p.stdout.readline()
            if not line: raise SystemExit("the server closed its output")
            m = json.loads(line)
            if "id" in m:
                assert not m.get("result", {}).get("isError"), m
                return m

    def run_code(self, code="return 1"):
        self.send({"jsonrpc":"2.0","id":self.next_id,"method":"tools/call","params":{"name":"run_code","arguments":{"code":code,"description":"b"}}})
        self.next_id += 1

    def round_trip(self, code="return 1"):
        started = time.perf_counter(); self.run_code(code); self.answer()
        return time.perf_counter() - started


def cpu_per_run(binary, n, k, code="return 1", python=False):
    server = Server(binary, python=python)
    for _ in range(min(k, n)): server.run_code(code)
    for i in range(n):
        server.answer()
        if i + k < n: server.run_code(code)
    server.p.stdin.close()
    _, _, ru = os.wait4(server.p.pid, 0)
    return (ru.ru_utime + ru.ru_stime) / n * 1e6


def report(unit, ra, rb):
    ratios = [x / y for x, y in zip(ra, rb)]
    print(f"A {statistics.median(ra):.0f} {unit} (min {min(ra):.0f} max {max(ra):.0f}); B {statistics.median(rb):.0f} {unit} (min {min(rb):.0f} max {max(rb):.0f}); A/B median {statistics.median(ratios):.3f} (min {min(ratios):.3f} max {max(ratios):.3f})")


def program(python, subcall):
    if subcall:
        return "return (await tools.read_file({'path': 'a.txt'}))" if python else "return await tools.read_file({path: 'a.txt'})"
    return "return 1"


def main():
    python = "--python" in sys.argv
    subcall = "--subcall" in sys.argv
    code = program(python, subcall)
    if sys.argv[1] == "--latency":
        args = sys.argv[2:]
        a, b, n, rounds = [x for x in args if not x.startswith("--")]
        n, rounds = int(n), int(rounds)
        servers = [Server(a, python=python), Server(b, python=python)]
        for server in servers:
            for _ in range(20): server.round_trip(code)  # warm up: the pool, the first allocations
        ra, rb = [], []
        for _ in range(rounds):
            for server, results in zip(servers, (ra, rb)):
                results.append(statistics.median(server.round_trip(code) for _ in range(n)) * 1e6)
        for server in servers:
            server.p.stdin.close(); server.p.wait()
        report("us round trip", ra, rb)
    else:
        a, b, n, k, rounds = [x for x in sys.argv[1:] if not x.startswith("--")]
        n, k, rounds = int(n), int(k), int(rounds)
        ra, rb = [], []
        for _ in range(rounds):
            ra.append(cpu_per_run(a, n, k, code, python)); rb.append(cpu_per_run(b, n, k, code, python))
        report("us/run", ra, rb)


if __name__ == "__main__":
    main()
