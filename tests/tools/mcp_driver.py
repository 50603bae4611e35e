"""Drives `codemode serve` with the Python MCP SDK's client (a client this project did not
write) and prints what it saw as one JSON document on stdout.

Usage: mcp_driver.py PLAN_JSON

PLAN_JSON is an object:
  binary       the codemode binary
  args         extra arguments after `serve` (e.g. ["--config", "codemode.toml"])
  cwd          the working directory of the server
  transport    "stdio" (default) or "http" (the server is started with
               `--http 127.0.0.1:0` and the URL is read from its standard error)
  http         with "http": the address to serve instead of 127.0.0.1:0
  url          with "http": connect to this URL instead of starting a server
  url_host     with "http": the host to reach the server by (instead of the printed one)
  headers      with "http": headers sent with every request (e.g. Authorization)
  ca           with "http": a PEM file of the CA that signed the server's certificate
  elicitation  absent: no elicitation capability; "accept" | "decline" | "cancel":
               answer every question so; "hang": never answer
  steps        a list of {"op": "list"} | {"op": "call", "name": ..., "arguments": {...},
                 "progress"?: true (send a progressToken; the result gets "progress": the
                 notifications/progress received, in order)}
               | {"op": "cancel_call", "name": ..., "arguments": {...}, "after": seconds}
               | {"op": "sleep", "seconds": s}
               | {"op": "wait_list_changed", "count": n, "timeout": s}: until n
                 notifications/tools/list_changed were received (fails after s seconds)

Output: {"initialize": {...}, "steps": [...], "elicitations": [messages],
         "listChanged": n, "stderr": "..."}.
"""

from __future__ import annotations

import asyncio
import json
import os
import ssl
import subprocess
import sys
import tempfile
import time
from typing import Any

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


class Recorder:
    def __init__(self, mode: str | None) -> None:
        self.mode = mode
        self.elicitations: list[str] = []
        self.list_changed = 0

    async def elicit(self, context: Any, params: Any) -> Any:
        self.elicitations.append(params.message)
        if self.mode == "hang":
            await anyio.sleep(3600)
        action = self.mode if self.mode in ("accept", "decline", "cancel") else "decline"
        return types.ElicitResult(action=action, content={} if action == "accept" else None)

    async def on_message(self, message: Any) -> None:
        root = getattr(message, "root", message)
        if isinstance(root, types.ToolListChangedNotification):
            self.list_changed += 1


async def run_steps(
    session: ClientSession, steps: list[dict[str, Any]], recorder: Recorder
) -> list[Any]:
    out: list[Any] = []
    for step in steps:
        op = step["op"]
        if op == "list":
            result = await session.list_tools()
            out.append(dump(result))
        elif op == "call":
            started = time.monotonic()
            reports: list[dict[str, Any]] = []

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                reports.append(
                    {"progress": progress, "total": total, "message": message, "at": time.monotonic() - started}
                )

            callback = on_progress if step.get("progress") else None
            result = await session.call_tool(
                step["name"], step.get("arguments", {}), progress_callback=callback
            )
            entry = dump(result)
            entry["elapsed"] = time.monotonic() - started
            if callback is not None:
                entry["progress"] = reports
            out.append(entry)
        elif op == "cancel_call":
            started = time.monotonic()
            outcome: dict[str, Any] = {"cancelled": False}
            with anyio.move_on_after(step["after"]) as scope:
                result = await session.call_tool(step["name"], step.get("arguments", {}))
                outcome["result"] = dump(result)
            outcome["cancelled"] = scope.cancelled_caught
            outcome["elapsed"] = time.monotonic() - started
            out.append(outcome)
        elif op == "sleep":
            await anyio.sleep(step["seconds"])
            out.append({})
        elif op == "wait_list_changed":
            deadline = time.monotonic() + step.get("timeout", 30)
            while recorder.list_changed < step["count"]:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"only {recorder.list_changed} tools/list_changed of {step['count']} arrived"
                    )
                await anyio.sleep(0.05)
            out.append({"listChanged": recorder.list_changed})
        else:
            raise ValueError(f"unknown op {op!r}")
    return out


async def with_session(read: Any, write: Any, plan: dict[str, Any], recorder: Recorder) -> dict[str, Any]:
    callback = recorder.elicit if plan.get("elicitation") else None
    async with ClientSession(
        read, write, elicitation_callback=callback, message_handler=recorder.on_message
    ) as session:
        init = await session.initialize()
        steps = await run_steps(session, plan["steps"], recorder)
        return {"initialize": dump(init), "steps": steps}


async def over_stdio(plan: dict[str, Any], recorder: Recorder, errlog: Any) -> dict[str, Any]:
    params = StdioServerParameters(
        command=plan["binary"],
        args=["serve", *plan.get("args", [])],
        cwd=plan.get("cwd"),
        env={**os.environ, **plan.get("env", {})},
    )
    async with stdio_client(params, errlog=errlog) as (read, write):
        return await with_session(read, write, plan, recorder)


async def connect_http(plan: dict[str, Any], recorder: Recorder, url: str) -> dict[str, Any]:
    client = create_mcp_http_client(headers=plan.get("headers"))
    if "ca" in plan:
        import httpx2

        client = httpx2.AsyncClient(
            headers=plan.get("headers"),
            verify=ssl.create_default_context(cafile=plan["ca"]),
            timeout=httpx2.Timeout(30.0, read=300.0),
        )
    async with client, streamable_http_client(url, http_client=client) as (read, write):
        result = await with_session(read, write, plan, recorder)
    result["url"] = url
    return result


async def over_http(plan: dict[str, Any], recorder: Recorder, errlog: Any) -> dict[str, Any]:
    if "url" in plan:
        return await connect_http(plan, recorder, plan["url"])
    process = subprocess.Popen(
        [plan["binary"], "serve", *plan.get("args", []), "--http", plan.get("http", "127.0.0.1:0")],
        cwd=plan.get("cwd"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **plan.get("env", {})},
        text=True,
    )
    try:
        assert process.stderr is not None
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            errlog.write(line)
            marker = "serving MCP over streamable HTTP at "
            if marker in line:
                url = line.split(marker, 1)[1].strip()
        if url is None:
            raise RuntimeError("the server did not print its URL")
        if "url_host" in plan:
            scheme, rest = url.split("://", 1)
            port_and_path = rest.rsplit(":", 1)[1]
            url = f"{scheme}://{plan['url_host']}:{port_and_path}"
        return await connect_http(plan, recorder, url)
    finally:
        process.terminate()
        try:
            _, rest = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            _, rest = process.communicate()
        errlog.write(rest or "")
        stdout = process.stdout.read() if process.stdout and not process.stdout.closed else ""
        if stdout:
            errlog.write(f"[stdout] {stdout}")


async def main() -> None:
    plan = json.loads(sys.argv[1])
    recorder = Recorder(plan.get("elicitation"))
    with tempfile.TemporaryFile("w+") as errlog:
        # A server that stops answering fails the test instead of hanging it.
        with anyio.fail_after(plan.get("timeout", 180)):
            if plan.get("transport", "stdio") == "http":
                result = await over_http(plan, recorder, errlog)
            else:
                result = await over_stdio(plan, recorder, errlog)
        errlog.seek(0)
        result["stderr"] = errlog.read()
    result["elicitations"] = recorder.elicitations
    result["listChanged"] = recorder.list_changed
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
