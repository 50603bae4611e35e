#!/usr/bin/env python3
"""The resident memory of `codemode serve` (stdio) idle, after heavy runs, and 30 s later.

    python3 benches/serve_memory.py BINARY [ROUNDS]

Starts BINARY serve in a scratch folder (mode = "code", heap_mb = 512), runs `return 1`,
reads the idle size, then runs ROUNDS (default 10) programs that each build ~1.8 million
objects, and reads the size right after and 30 s later (issue 25: back to within 64 MB of
idle).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1]; rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
work = tempfile.mkdtemp(prefix="codemode-serve-memory-")
open(os.path.join(work, "codemode.toml"), "w").write('mode = "code"\n[runtime]\nheap_mb = 512\n')
p = subprocess.Popen([binary, "serve"], cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
n = 0
def rpc(method, params, notify=False):
    global n
    msg = {"jsonrpc": "2.0", "method": method, "params": params}
    if not notify:
        n += 1; msg["id"] = n
    p.stdin.write(json.dumps(msg) + "\n"); p.stdin.flush()
    if notify: return None
    while True:
        line = p.stdout.readline()
        obj = json.loads(line)
        if obj.get("id") == n: return obj
def rss():
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1]) // 1024
rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}})
rpc("notifications/initialized", {}, notify=True)
r = rpc("tools/call", {"name": "run_code", "arguments": {"code": "return 1", "description": "warm"}})
time.sleep(2); idle = rss()
heavy = "const a = []; for (let i = 0; i < 1500000; i++) a.push({i, s: 'x' + i}); const m = new Map(); for (let i = 0; i < 300000; i++) m.set('k' + i, [i, i]); return a.length + m.size;"
for i in range(rounds):
    r = rpc("tools/call", {"name": "run_code", "arguments": {"code": heavy, "description": "heavy"}})
peak = rss()
time.sleep(30)
after = rss()
print(f"idle {idle} MB, after {rounds} heavy runs {peak} MB, 30 s later {after} MB (idle + {after - idle} MB)")
p.stdin.close(); p.wait(timeout=10)
