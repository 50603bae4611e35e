"""What every adapter needs: the scope's tool definitions and one call through the
pipeline."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._registry import Scope
    from .._results import ToolResult


@dataclasses.dataclass(frozen=True)
class Definition:
    """One tool as a scope's model sees it: codemode's name, description (``run_code``'s
    carries the SDK), input schema and, for an object-rooted output, output schema."""

    name: str
    description: str
    parameters: dict[str, Any]
    output_schema: dict[str, Any] | None


def definitions(scope: Scope) -> list[Definition]:
    """The tools ``scope``'s model is given now."""
    return [
        Definition(
            name=str(tool["name"]),
            description=str(tool["description"]),
            parameters=dict(tool["inputSchema"]),
            output_schema=tool.get("outputSchema"),
        )
        for tool in scope.tool_definitions("mcp")
    ]


async def call(scope: Scope, name: str, arguments: Any) -> ToolResult:
    """One call of ``name`` through ``scope``'s pipeline. ``arguments``: a mapping, or the
    JSON text a model wrote (text that is not JSON is an ``INVALID_ARGS`` result, as
    arguments of the wrong shape are)."""
    return await scope.execute(name, {} if arguments is None or arguments == "" else arguments)


def call_sync(scope: Scope, name: str, arguments: Any) -> ToolResult:
    """:func:`call` outside an event loop (``Scope.execute_sync``)."""
    return scope.execute_sync(name, {} if arguments is None or arguments == "" else arguments)
