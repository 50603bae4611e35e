"""QuickJS and V8 side by side, with Node's V8 as the compute floor, in one run.

Two `codemode` binaries (the same source built with `--features quickjs` and with
`--features v8`), and `node`:

    python3 benches/engines.py QUICKJS/codemode V8/codemode [ROUNDS]

Compute: each program times its own work with `Date.now()` (five repetitions after one
warm-up, inside one run, so start-up is not counted) and returns the times; the figure is the
median over ROUNDS runs of each run's median, and the ratio is against Node running the very
same body. Programs: fib(27), `JSON.parse` + `JSON.stringify` of 5 MB, a regular-expression
scan of 1 MB, sorting 1M numbers.

Overhead: the warm round trip of a served `run_code` of `return 1` (`codemode serve` over
stdio, sequential calls, median), a served program making one sub-call (`read_file` of a
small file), the same trivial run with no warm sandbox (`warm_pool = 0`: the isolate and
context are made on the answer's path; the difference is their cost), and the peak RSS of
`codemode run` of `return 1` (the process, from wait4).
"""
import json, os, statistics, subprocess, sys, tempfile

from serve_ab import Server

BODIES = {
    "fib(27)": """
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const times = [];
for (let r = 0; r < 6; r++) { const t = Date.now(); fib(27); times.push(Date.now() - t); }
return times.slice(1);
""",
    "JSON 5 MB parse+stringify": """
const rows = [];
for (let i = 0; i < 65000; i++) rows.push({ id: i, name: "row " + i, tags: ["a", "b", "c"], score: i * 0.5, ok: i % 2 === 0 });
const text = JSON.stringify(rows);
if (text.length < 4800000) throw new Error("short: " + text.length);
const times = [];
for (let r = 0; r < 6; r++) { const t = Date.now(); JSON.stringify(JSON.parse(text)); times.push(Date.now() - t); }
return times.slice(1);
""",
    "regex scan 1 MB": """
const words = ["alpha", "running", "beta", "coding", "gamma", "testing", "delta"];
let parts = [];
for (let i = 0; i < 150000; i++) parts.push(words[(i * 7 + 3) % words.length]);
const text = parts.join(" ");
const times = [];
for (let r = 0; r < 6; r++) { const t = Date.now(); const m = text.match(/\\b\\w+ing\\b/g); if (!m || m.length < 1000) throw new Error("no match"); times.push(Date.now() - t); }
return times.slice(1);
""",
    "sort 1M numbers": """
let seed = 42;
const base = [];
for (let i = 0; i < 1000000; i++) { seed = (seed * 1103515245 + 12345) % 2147483648; base.push(seed / 2147483648); }
const times = [];
for (let r = 0; r < 6; r++) { const a = base.slice(); const t = Date.now(); a.sort((x, y) => x - y); times.push(Date.now() - t); }
return times.slice(1);
""",
}

CONFIG = """mode = "code"
[runtime]
heap_mb = 1024
compute_ms = 120000
wall_ms = 180000
"""


def workspace():
    ws = tempfile.mkdtemp()
    open(os.path.join(ws, "codemode.toml"), "w").write(CONFIG)
    # No warm sandbox: each run makes its isolate and context (from V8's snapshot, or
    # QuickJS's bytecode) on the answer's path.
    open(os.path.join(ws, "cold.toml"), "w").write(CONFIG + "warm_pool = 0\n")
    open(os.path.join(ws, "small.txt"), "w").write("hello\n")
    return ws


def run_codemode(binary, body, ws):
    path = os.path.join(ws, "program.ts")
    open(path, "w").write(body)
    out = subprocess.run([binary, "run", "--json", path], cwd=ws, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{binary} failed: {out.stdout}\n{out.stderr}")
    result = json.loads(out.stdout)
    value = result.get("value", result)
    for key in ("result", "value"):
        if isinstance(value, dict) and key in value:
            value = value[key]
    if isinstance(value, str):
        value = json.loads(value)
    return value


def run_node(body):
    script = "(async () => {" + body + "})().then(v => console.log(JSON.stringify(v)), e => { console.error(e); process.exit(1); });"
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def peak_rss_mib(cmd, cwd):
    pid = os.fork()
    if pid == 0:
        os.chdir(cwd)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1); os.dup2(devnull, 2)
        os.execv(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        raise SystemExit(f"{cmd} failed")
    return usage.ru_maxrss / 1024


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    quickjs, v8 = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    ws = workspace()
    engines = {"QuickJS": quickjs, "V8": v8}
    print(f"{'compute (ms, median)':28} {'QuickJS':>9} {'V8':>9} {'Node':>9} {'QJS/Node':>9} {'V8/Node':>9} {'QJS/V8':>8}")
    for name, body in BODIES.items():
        medians = {label: [] for label in ("QuickJS", "V8", "Node")}
        for _ in range(rounds):
            for label, binary in engines.items():
                medians[label].append(statistics.median(run_codemode(binary, body, ws)))
            medians["Node"].append(statistics.median(run_node(body)))
        m = {label: statistics.median(values) for label, values in medians.items()}
        print(f"{name:28} {m['QuickJS']:9.1f} {m['V8']:9.1f} {m['Node']:9.1f} {m['QuickJS'] / max(m['Node'], 0.1):9.2f} {m['V8'] / max(m['Node'], 0.1):9.2f} {m['QuickJS'] / max(m['V8'], 0.1):8.2f}")
    servers = {label: Server(binary, ws, "codemode.toml") for label, binary in engines.items()}
    cold = {label: Server(binary, ws, "cold.toml") for label, binary in engines.items()}
    trips = {label: {"trivial": [], "subcall": [], "cold": []} for label in engines}
    def timed(server, code, n):
        return statistics.median(server.round_trip(code) for _ in range(n)) * 1e3

    for label in engines:
        timed(servers[label], "return 1", 50)  # warm-up
        timed(cold[label], "return 1", 10)
    for _ in range(rounds):
        for label, server in servers.items():
            trips[label]["trivial"].append(timed(server, "return 1", 100))
            trips[label]["subcall"].append(timed(server, 'return (await tools.read_file({path: "small.txt"})).length', 100))
            trips[label]["cold"].append(timed(cold[label], "return 1", 50))
    for server in list(servers.values()) + list(cold.values()):
        server.p.stdin.close(); server.p.wait()
    print(f"\n{'served run_code (ms, median)':28} {'QuickJS':>9} {'V8':>9} {'V8/QJS':>8}")
    for kind, title in (("trivial", "return 1"), ("subcall", "one sub-call (read_file)"), ("cold", "return 1, no warm sandbox")):
        q = statistics.median(trips["QuickJS"][kind]); v = statistics.median(trips["V8"][kind])
        print(f"{title:28} {q:9.3f} {v:9.3f} {v / q:8.2f}")
    open(os.path.join(ws, "trivial.ts"), "w").write("return 1")
    rss = {label: statistics.median(peak_rss_mib([binary, "run", "trivial.ts"], ws) for _ in range(rounds)) for label, binary in engines.items()}
    print(f"\n{'peak RSS of `run` (MiB)':28} {rss['QuickJS']:9.1f} {rss['V8']:9.1f} {rss['V8'] / rss['QuickJS']:8.2f}")


if __name__ == "__main__":
    main()
