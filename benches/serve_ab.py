"""Two `codemode serve` binaries, A and B, in turn: each serves N `run_code` calls of
`return 1` over K concurrent streams (K requests in flight on stdio), ROUNDS times; prints
each one's server CPU per run (user + system of the server process and all its threads,
from wait4, start-up included) and the ratio A/B round by round. On a shared machine whose
speed drifts, the paired ratio is the figure to quote.

    python3 benches/serve_ab.py OLD/codemode NEW/codemode 2000 4 8
"""
import json, subprocess, sys, os, tempfile, time, statistics
def serve(binary, n, k):
    ws = tempfile.mkdtemp(); cfg = os.path.join(ws, "codemode.toml")
    open(cfg, "w").write('mode = "code"\n')
    p = subprocess.Popen([binary, "serve", "--config", cfg], cwd=ws, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    def send(m):
        p.stdin.write((json.dumps(m) + "\n").encode()); p.stdin.flush()
    def answer():
        while True:
            m = json.loads(p.stdout.readline())
            if "id" in m: return m
    def rc(i):
        send({"jsonrpc":"2.0","id":i,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return 1","description":"b"}}})
    send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"0"}}})
    answer(); send({"jsonrpc":"2.0","method":"notifications/initialized"})
    nxt = 1
    for _ in range(k): rc(nxt); nxt += 1
    for _ in range(n):
        m = answer(); assert not m["result"].get("isError"), m
        if nxt <= n: rc(nxt); nxt += 1
    p.stdin.close()
    _, status, ru = os.wait4(p.pid, 0)
    return (ru.ru_utime + ru.ru_stime) / n * 1e6
a, b, n, k, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
ra, rb = [], []
for i in range(rounds):
    ra.append(serve(a, n, k)); rb.append(serve(b, n, k))
ratios = [x / y for x, y in zip(ra, rb)]
print(f"A {statistics.median(ra):.0f} us/run (min {min(ra):.0f} max {max(ra):.0f}); B {statistics.median(rb):.0f} us/run (min {min(rb):.0f} max {max(rb):.0f}); A/B median {statistics.median(ratios):.3f} (min {min(ratios):.3f} max {max(ratios):.3f})")
