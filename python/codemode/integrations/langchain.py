"""LangChain and LangGraph: a scope's tools as ``StructuredTool`` s, sync and async::

    from langchain.agents import create_agent
    from codemode.integrations.langchain import tools

    agent = create_agent(model, tools(scope))

Each tool keeps codemode's name, description and JSON Schema. ``ainvoke`` awaits the call
(cancelling it cancels the call); ``invoke`` runs it to completion on a fresh event loop
(:meth:`codemode.Scope.execute_sync`), so it works where no loop runs (a script, a
LangGraph worker thread) and refuses inside a running loop (use ``ainvoke`` there). A
failed call or program becomes a ``ToolMessage`` with ``status="error"`` and codemode's
error text (the tool raises ``ToolException``, which the tool turns into that message).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.tools import StructuredTool, ToolException

from ._common import Definition, call, call_sync, definitions

if TYPE_CHECKING:
    from .._registry import Scope

__all__ = ["tools"]


def tools(scope: Scope) -> list[StructuredTool]:
    """``StructuredTool`` s for the tools ``scope``'s model sees (in ``code`` mode:
    ``run_code``, its description carrying the SDK)."""
    return [_tool(scope, definition) for definition in definitions(scope)]


def _tool(scope: Scope, definition: Definition) -> StructuredTool:
    name = definition.name

    def invoke(**arguments: Any) -> str:
        result = call_sync(scope, name, arguments)
        if not result.ok:
            raise ToolException(result.text)
        return result.text

    async def ainvoke(**arguments: Any) -> str:
        result = await call(scope, name, arguments)
        if not result.ok:
            raise ToolException(result.text)
        return result.text

    return StructuredTool(
        name=name,
        description=definition.description,
        args_schema=definition.parameters,
        func=invoke,
        coroutine=ainvoke,
        handle_tool_error=True,
    )
