"""codemode: a tool registry, one guarded execution pipeline, and Code Mode for LLM agents.

A model gets one ``run_code`` tool plus a generated TypeScript SDK of its tools; programs
run in an embedded JavaScript engine and every ``await tools.x(args)`` re-enters the
pipeline (visibility, policies, guards, timeouts, output checks) — the same pipeline a
direct call goes through::

    import codemode

    reg = codemode.Registry()

    @reg.tool
    def add(a: int, b: int) -> int:
        \"\"\"Add two numbers.\"\"\"
        return a + b

    agent = reg.scope("agent-1", mode="code")
    run = await agent.run_code("return await tools.add({a: 1, b: 2})")
    assert run.value == 3
"""

from __future__ import annotations

from ._bridge import Accept, Allow, Ask, Block, Deny
from ._errors import (
    CodemodeError,
    ConfigError,
    HostError,
    InvalidArgumentsError,
    PanicError,
    ToolCallError,
    ToolDefinitionError,
    UnsupportedSchemaError,
)
from ._hints import ToolArgumentError, ToolResultError, ToolSpec, to_json, tool_spec
from ._results import Progress, RunResult, ServerStatus, SubCall, ToolCall, ToolResult

try:
    from ._native import ERROR_CODES
    from ._native import __version__ as __version__
    from ._registry import McpServers, Registration, Registry, Scope, Session, ToolOptions
except ImportError as _missing:
    # The source tree without a built extension: the pure-Python parts (codemode._hints)
    # still import; the registry says how to get the rest.
    if _missing.name != "codemode._native":
        raise
    _NATIVE_MISSING = str(_missing)

    def __getattr__(name: str) -> object:
        if name in {
            "ERROR_CODES",
            "__version__",
            "McpServers",
            "Registration",
            "Registry",
            "Scope",
            "Session",
            "ToolOptions",
        }:
            raise ImportError(
                f"codemode.{name} needs the compiled extension codemode._native, which is "
                f"not built ({_NATIVE_MISSING}); build and install the wheel "
                "(python/README.md)"
            )
        raise AttributeError(f"module 'codemode' has no attribute {name!r}")

__all__ = [
    "ERROR_CODES",
    "Accept",
    "Allow",
    "Ask",
    "Block",
    "CodemodeError",
    "ConfigError",
    "Deny",
    "HostError",
    "InvalidArgumentsError",
    "McpServers",
    "PanicError",
    "Progress",
    "Registration",
    "Registry",
    "RunResult",
    "Scope",
    "ServerStatus",
    "Session",
    "SubCall",
    "ToolArgumentError",
    "ToolCall",
    "ToolCallError",
    "ToolDefinitionError",
    "ToolOptions",
    "ToolResult",
    "ToolResultError",
    "ToolSpec",
    "UnsupportedSchemaError",
    "__version__",
    "to_json",
    "tool_spec",
]
