"""The HTTP load test of `codemode serve --http`: S sessions at once, each C sequential
`run_code` calls of `return 1` on its own kept-alive connection; prints the throughput, the
latency percentiles of the calls, the server's CPU time per call (user + system: the steadier
figure on a loaded machine), and how many were refused (busy) or failed.

    python3 benches/serve_http_load.py BINARY [SESSIONS CALLS] [--token] [--rounds N] [-- SERVE_ARGS...]
    python3 benches/serve_http_load.py OLD/codemode NEW/codemode --ab [SESSIONS CALLS] [--rounds N]

With --token the server gets a bearer token (--token-env) and every request carries it (the
cost of authentication). With --ab two binaries take turns, round by round, on one machine
whose speed drifts: the figures to compare are the paired ones. Defaults: 100 sessions x 50
calls, 3 rounds.
"""
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TOKEN = "load-test-secret-0123456789-abcdefghijklmnop"
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "load", "version": "0"}}}


def start(binary, token, extra):
    ws = tempfile.mkdtemp()
    cfg = os.path.join(ws, "codemode.toml")
    open(cfg, "w").write('mode = "code"\n')
    args = [os.path.abspath(binary), "serve", "--config", cfg, "--http", "127.0.0.1:0", *extra]
    env = dict(os.environ)
    if token:
        args += ["--token-env", "LOAD_TOKEN"]
        env["LOAD_TOKEN"] = TOKEN
    p = subprocess.Popen(args, cwd=ws, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, env=env)
    while True:
        line = p.stderr.readline()
        if not line:
            raise SystemExit("the server did not start")
        if "streamable HTTP at " in line:
            url = line.split("streamable HTTP at ", 1)[1].strip()
            break
    threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
    host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    return p, host, int(port)


def one_message(body):
    """The JSON-RPC message of a JSON or SSE body."""
    text = body.decode()
    try:
        return json.loads(text)
    except ValueError:
        for line in text.splitlines():
            if line.startswith("data:") and line[5:].strip():
                return json.loads(line[5:])
    raise ValueError(text[:200])


def session(host, port, calls, token, out):
    conn = http.client.HTTPConnection(host, port, timeout=120)
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if token:
        headers["authorization"] = f"Bearer {TOKEN}"

    def post(message, sid=None):
        h = dict(headers)
        if sid:
            h["mcp-session-id"] = sid
            h["mcp-protocol-version"] = "2025-06-18"
        conn.request("POST", "/mcp", json.dumps(message), h)
        r = conn.getresponse()
        return r.status, r.getheader("mcp-session-id"), r.read()

    try:
        status, sid, body = post(INIT)
        if status != 200:
            out["failed"] += calls
            out.setdefault("errors", []).append(f"initialize: {status} {body[:160]!r}")
            return
        post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
        for i in range(calls):
            t = time.perf_counter()
            status, _, body = post({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
                                    "params": {"name": "run_code", "arguments": {"code": "return 1", "description": "load"}}}, sid)
            took = time.perf_counter() - t
            if status != 200:
                out["failed"] += 1
                out.setdefault("errors", []).append(f"call: {status} {body[:160]!r}")
                continue
            result = one_message(body).get("result", {})
            if result.get("isError"):
                text = json.dumps(result)
                out["busy" if "busy" in text else "failed"] += 1
            else:
                out["latencies"].append(took)
        conn.request("DELETE", "/mcp", headers={**headers, "mcp-session-id": sid})
        conn.getresponse().read()
    except Exception as err:  # a broken connection counts as failed calls
        out["failed"] += 1
        out.setdefault("errors", []).append(repr(err))
    finally:
        conn.close()


def load(binary, sessions, calls, token, extra):
    p, host, port = start(binary, token, extra)
    out = {"latencies": [], "busy": 0, "failed": 0}
    threads = [threading.Thread(target=session, args=(host, port, calls, token, out)) for _ in range(sessions)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t
    cpu = server_cpu_s(p.pid)
    p.terminate()
    p.wait()
    lat = sorted(out["latencies"])
    q = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))] * 1000 if lat else float("nan")
    return {"ok": len(lat), "busy": out["busy"], "failed": out["failed"], "wall_s": wall,
            "calls_per_s": len(lat) / wall,
            "cpu_us_per_call": cpu / max(1, len(lat)) * 1e6, "p50_ms": q(0.5), "p90_ms": q(0.9), "p99_ms": q(0.99),
            "errors": out.get("errors", [])[:3]}


def server_cpu_s(pid):
    """The server's CPU time so far (user + system), in seconds: on a loaded machine the
    steadier figure of what a call costs the server."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def show(name, r):
    print(f"{name}: {r['ok']} ok, {r['busy']} busy, {r['failed']} failed; {r['calls_per_s']:.0f} calls/s; "
          f"p50 {r['p50_ms']:.2f} ms, p90 {r['p90_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms; "
          f"server CPU {r['cpu_us_per_call']:.0f} us/call"
          + (f"; errors {r['errors']}" if r["errors"] else ""), flush=True)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    token = "--token" in argv
    ab = "--ab" in argv
    rounds = 3
    if "--rounds" in argv:
        rounds = int(argv[argv.index("--rounds") + 1])
        del argv[argv.index("--rounds"):argv.index("--rounds") + 2]
    argv = [a for a in argv if a not in ("--token", "--ab")]
    binaries = argv[:2] if ab else argv[:1]
    numbers = [int(a) for a in argv[len(binaries):]]
    sessions, calls = (numbers + [100, 50][len(numbers):])[:2]
    results = {b: [] for b in binaries}
    for rnd in range(rounds):
        for i, b in enumerate(binaries):
            r = load(b, sessions, calls, token, extra)
            results[b].append(r)
            show(f"round {rnd + 1} {'AB'[i] if ab else ''} {b}", r)
    for b in binaries:
        rs = results[b]
        print(f"median of {rounds} ({b}): {statistics.median(r['calls_per_s'] for r in rs):.0f} calls/s, "
              f"p50 {statistics.median(r['p50_ms'] for r in rs):.2f} ms, p99 {statistics.median(r['p99_ms'] for r in rs):.2f} ms, "
              f"server CPU {statistics.median(r['cpu_us_per_call'] for r in rs):.0f} us/call, "
              f"busy {sum(r['busy'] for r in rs)}, failed {sum(r['failed'] for r in rs)}")
    if ab:
        a, b = (results[x] for x in binaries)
        thr = [y["calls_per_s"] / x["calls_per_s"] for x, y in zip(a, b)]
        p50 = [y["p50_ms"] / x["p50_ms"] for x, y in zip(a, b)]
        cpu = [y["cpu_us_per_call"] / x["cpu_us_per_call"] for x, y in zip(a, b)]
        print(f"paired B/A: throughput {', '.join(f'{v:.2f}x' for v in thr)}; p50 latency {', '.join(f'{v:.2f}x' for v in p50)}; "
              f"server CPU per call {', '.join(f'{v:.2f}x' for v in cpu)}")


if __name__ == "__main__":
    main()
