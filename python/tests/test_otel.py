"""OpenTelemetry from Python: a host that uses the OpenTelemetry SDK sees ``execute`` and
``run_code`` as spans of its own trace, a run's tool calls nested under the run in call
order, and Python tools' own spans under their tool call — with no configuration; and the
package runs where ``opentelemetry`` is not installed, importing nothing of it."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

import codemode

otel_sdk = pytest.importorskip("opentelemetry.sdk.trace")
from opentelemetry import trace  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)

EXPORTER = InMemorySpanExporter()
_provider = otel_sdk.TracerProvider()
_provider.add_span_processor(SimpleSpanProcessor(EXPORTER))
trace.set_tracer_provider(_provider)
TRACER = trace.get_tracer("the-host")


def make_scope() -> codemode.Scope:
    reg = codemode.Registry(warm_pool=0)

    @reg.tool
    def lookup(key: str) -> str:
        """Look a key up."""
        with TRACER.start_as_current_span("db.query"):
            return key.upper()

    @reg.tool
    async def fetch(url: str) -> str:
        """Fetch a URL."""
        with TRACER.start_as_current_span("http.get"):
            await asyncio.sleep(0.01)
            return url

    return reg.scope("agent", mode="code")


def spans() -> dict[int, Any]:
    return {span.context.span_id: span for span in EXPORTER.get_finished_spans()}


def children(all_spans: dict[int, Any], parent: Any) -> list[Any]:
    found = [s for s in all_spans.values() if s.parent is not None and s.parent.span_id == parent.context.span_id]
    return sorted(found, key=lambda s: s.start_time)


async def test_a_run_is_a_span_of_the_hosts_trace_with_its_tool_calls_nested_in_order() -> None:
    EXPORTER.clear()
    scope = make_scope()
    with TRACER.start_as_current_span("the agent's turn") as turn:
        run = await scope.run_code(
            "const a = await tools.lookup({key: 'x'});\n"
            "const b = await tools.fetch({url: 'u'});\n"
            "try { await tools.lookup({key: 3}); } catch (e) {}\n"
            "return a + b;",
            description="three calls",
        )
    assert run.ok, run
    all_spans = spans()
    [run_span] = children(all_spans, turn)
    assert run_span.name == "execute_tool run_code"
    assert run_span.context.trace_id == turn.get_span_context().trace_id
    assert run_span.attributes["gen_ai.operation.name"] == "execute_tool"
    assert run_span.attributes["gen_ai.tool.name"] == "run_code"
    assert run_span.attributes["codemode.run.sub_calls"] == 3
    calls = children(all_spans, run_span)
    assert [span.name for span in calls] == [
        "execute_tool lookup",
        "execute_tool fetch",
        "execute_tool lookup",
    ]
    # The Python tools' own spans, under their call (the sync tool's too: it runs in a
    # copy of the caller's context on its worker thread).
    assert [s.name for s in children(all_spans, calls[0])] == ["db.query"]
    assert [s.name for s in children(all_spans, calls[1])] == ["http.get"]
    # The call the pipeline refused never reached the tool: its span is recorded from the
    # run's record, with the error's code.
    refused = calls[2]
    assert refused.attributes["error.type"] == "INVALID_ARGS"
    assert refused.attributes["gen_ai.tool.call.id"].endswith(":code:3")
    assert refused.status.status_code == trace.StatusCode.ERROR
    assert children(all_spans, refused) == []
    # Nothing of the program, the arguments or the results.
    for span in all_spans.values():
        for value in (span.attributes or {}).values():
            assert "tools.lookup" not in str(value) and "'x'" not in str(value)


async def test_a_direct_call_is_one_span_and_a_failed_run_says_why() -> None:
    EXPORTER.clear()
    scope = codemode.Registry(warm_pool=0)

    @scope.tool
    def lookup(key: str) -> str:
        """Look a key up."""
        with TRACER.start_as_current_span("db.query"):
            return key

    agent = scope.scope("agent", mode="native")
    result = await agent.execute("lookup", {"key": "k"})
    assert result.ok
    all_spans = spans()
    [call] = [s for s in all_spans.values() if s.name.startswith("execute_tool")]
    assert call.name == "execute_tool lookup"
    assert [s.name for s in children(all_spans, call)] == ["db.query"]

    EXPORTER.clear()
    coded = codemode.Registry(warm_pool=0).scope("a", mode="code")
    run = await coded.run_code("throw new Error('no')", description="fails")
    assert not run.ok
    [run_span] = [s for s in spans().values() if s.name == "execute_tool run_code"]
    assert run_span.attributes["error.type"] == run.error_code == "CODE_RUN_FAILED"
    assert run_span.attributes["codemode.run.failure_kind"] == run.error_kind
    assert run_span.status.status_code == trace.StatusCode.ERROR


def test_without_opentelemetry_nothing_of_it_is_imported() -> None:
    program = (
        "import sys\n"
        "sys.modules['opentelemetry'] = None  # as if it were not installed\n"
        "import asyncio, codemode\n"
        "reg = codemode.Registry(warm_pool=0)\n"
        "@reg.tool\n"
        "def add(a: int, b: int) -> int:\n"
        "    '''Add.'''\n"
        "    return a + b\n"
        "run = reg.scope('a', mode='code').run_code_sync('return await tools.add({a: 1, b: 2})')\n"
        "assert run.ok and run.value == 3, run\n"
        "loaded = [m for m in sys.modules if m.startswith('opentelemetry') and sys.modules[m] is not None]\n"
        "assert not loaded, loaded\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
