"""pydantic-ai: a scope's tools as a toolset of an ``Agent``::

    from pydantic_ai import Agent
    from codemode.integrations.pydantic_ai import toolset

    agent = Agent(toolsets=[toolset(scope)])

Each tool keeps codemode's name, description and JSON Schema (pydantic-ai passes the
arguments as they are; the pipeline validates them). A call's result is codemode's text
for the model. A failed call or program raises ``ModelRetry`` with codemode's error text,
so the model reads what went wrong and may try again (``max_retries`` times; then
pydantic-ai ends the run, as for any tool). Cancelling the run cancels the call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic_ai import ModelRetry
from pydantic_ai.tools import Tool
from pydantic_ai.toolsets import FunctionToolset

from ._common import Definition, call, definitions

if TYPE_CHECKING:
    from .._registry import Scope

__all__ = ["toolset"]


def toolset(scope: Scope, *, max_retries: int | None = None) -> FunctionToolset[Any]:
    """A ``FunctionToolset`` of the tools ``scope``'s model sees (in ``code`` mode:
    ``run_code``, its description carrying the SDK). ``max_retries``: how many failed
    calls of a tool the model may retry in a run (default: the agent's)."""
    return FunctionToolset(
        [_tool(scope, definition) for definition in definitions(scope)],
        max_retries=max_retries,
    )


def _tool(scope: Scope, definition: Definition) -> Tool[Any]:
    name = definition.name

    async def invoke(**arguments: Any) -> str:
        result = await call(scope, name, arguments)
        if not result.ok:
            raise ModelRetry(result.text)
        return result.text

    tool: Tool[Any] = Tool.from_schema(
        invoke,
        name=name,
        description=definition.description,
        json_schema=definition.parameters,
    )
    return tool
