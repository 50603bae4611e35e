"""`execute` of a Python tool with a real result (a 10 KB note read from a file and returned
as its 300 lines) against a plain call of the same function: what a host pays per call
beyond the tool's own work, with a result a tool really returns (the no-op figures of
python_bench.py are the floor). Run with the interpreter of a venv where the wheel is
installed: `python benches/python_real_tool.py`.
"""

import asyncio, time, statistics, pathlib, tempfile, codemode
d = pathlib.Path(tempfile.mkdtemp()); f = d / "notes.txt"
f.write_text("".join(f"line {i}: some text of a note\n" for i in range(300)))  # ~10 KB
def read_note(path: str) -> dict:
    """Reads a note."""
    text = (d / path).read_text()
    return {"path": path, "lines": text.splitlines()}
async def main():
    reg = codemode.Registry(warm_pool=0)
    reg.tool(read_note)
    for r in range(3):
        ts=[]
        for _ in range(1000):
            t=time.perf_counter(); res = await reg.execute("read_note", {"path": "notes.txt"}); ts.append(time.perf_counter()-t)
        assert res.ok
        ps=[]
        for _ in range(1000):
            t=time.perf_counter(); read_note("notes.txt"); ps.append(time.perf_counter()-t)
        a, b = statistics.median(ts)*1e6, statistics.median(ps)*1e6
        print(f"round {r}: execute {a:.1f} us, plain call {b:.1f} us, overhead {a-b:.1f} us, ratio {a/b:.2f}x")
asyncio.run(main())
