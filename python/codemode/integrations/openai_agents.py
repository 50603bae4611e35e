"""The OpenAI Agents SDK: a scope's tools as ``FunctionTool`` s for an ``Agent``::

    from agents import Agent
    from codemode.integrations.openai_agents import tools

    agent = Agent(name="assistant", tools=tools(scope))

Each tool keeps codemode's name, description and JSON Schema (not strict: codemode's
schemas are passed as they are). A call runs through the scope's pipeline; its output is
codemode's text for the model. A failed call or program is answered with its error text
(``Error: ...``), which is how the SDK reports a failed tool to the model (a raised
exception would end the run instead). Cancelling the run cancels the call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents import FunctionTool
from agents.tool_context import ToolContext

from ._common import Definition, call, definitions

if TYPE_CHECKING:
    from .._registry import Scope

__all__ = ["tools"]


def tools(scope: Scope) -> list[FunctionTool]:
    """``FunctionTool`` s for the tools ``scope``'s model sees (in ``code`` mode:
    ``run_code``, its description carrying the SDK)."""
    return [_tool(scope, definition) for definition in definitions(scope)]


def _tool(scope: Scope, definition: Definition) -> FunctionTool:
    name = definition.name

    async def invoke(context: ToolContext[Any], arguments: str) -> str:
        result = await call(scope, name, arguments)
        return result.text

    return FunctionTool(
        name=name,
        description=definition.description,
        params_json_schema=definition.parameters,
        on_invoke_tool=invoke,
        strict_json_schema=False,
    )
