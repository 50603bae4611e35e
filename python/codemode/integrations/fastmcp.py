"""FastMCP: a scope's tools on an existing FastMCP server (Code Mode mounted beside the
server's own tools)::

    from fastmcp import FastMCP
    from codemode.integrations.fastmcp import mount

    mcp = FastMCP("my server")
    mount(scope, mcp)

Each tool is served with codemode's name, description, input schema and (for an
object-rooted output) output schema: FastMCP does not derive them from a wrapper's
signature. A call runs through the scope's pipeline and answers codemode's text (and, with
an output schema, the value as structured content). A failed call or program raises
FastMCP's ``ToolError`` with codemode's error text, which the client gets as an
``isError`` result. Cancelling the request cancels the call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.tools import Tool
from fastmcp.tools.base import ToolResult
from mcp.types import TextContent
from pydantic import PrivateAttr

from ._common import call, definitions

if TYPE_CHECKING:
    from .._registry import Scope

__all__ = ["CodemodeTool", "mount"]


class CodemodeTool(Tool):
    """A tool of a codemode scope served by FastMCP: its schemas are codemode's, and
    :meth:`run` calls it through the scope's pipeline."""

    _scope: Any = PrivateAttr(default=None)

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        scope: Scope = self._scope
        result = await call(scope, self.name, arguments)
        if not result.ok:
            raise ToolError(result.text)
        structured = (
            result.value
            if self.output_schema is not None and isinstance(result.value, dict)
            else None
        )
        return ToolResult(
            content=[TextContent(type="text", text=result.text)],
            structured_content=structured,
        )


def mount(scope: Scope, server: FastMCP[Any]) -> list[CodemodeTool]:
    """Adds the tools ``scope``'s model sees (in ``code`` mode: ``run_code``, its
    description carrying the SDK) to ``server``; returns them (``server.remove_tool(name)``
    takes one off again)."""
    mounted: list[CodemodeTool] = []
    for definition in definitions(scope):
        tool = CodemodeTool(
            name=definition.name,
            description=definition.description,
            parameters=definition.parameters,
            output_schema=definition.output_schema,
        )
        tool._scope = scope
        server.add_tool(tool)
        mounted.append(tool)
    return mounted
