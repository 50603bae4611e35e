"""FastMCP (python/tests/requirements.txt pins it): ``mount(scope, server)`` puts Code
Mode on an existing FastMCP server beside its own tools, with codemode's schemas and
descriptions, driven by FastMCP's in-memory client: a program that succeeds, one that
fails and one whose tool call is denied (both an ``isError`` result with codemode's text),
native tools with their output schemas, and cancellation."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _adapters import DENIED, FAILURE, SLOW, SUCCESS, cancel_when_started, setup
from fastmcp import Client, FastMCP
from fastmcp.exceptions import ToolError
from mcp.types import TextContent

import codemode
from codemode.integrations.fastmcp import mount


def server_with(scope: codemode.Scope) -> FastMCP[Any]:
    mcp: FastMCP[Any] = FastMCP("existing")

    @mcp.tool
    def ping() -> str:
        """The server's own tool."""
        return "pong"

    mount(scope, mcp)
    return mcp


def text(result: Any) -> str:
    (block,) = result.content
    assert isinstance(block, TextContent)
    return block.text


async def test_run_code_is_served_with_codemodes_schema_beside_the_servers_own_tools() -> None:
    state = setup()
    async with Client(server_with(state.scope)) as client:
        listed = {tool.name: tool for tool in await client.list_tools()}
        assert sorted(listed) == ["ping", "run_code"]
        (definition,) = state.scope.tool_definitions("mcp")
        assert listed["run_code"].description == definition["description"]
        assert listed["run_code"].input_schema == definition["inputSchema"]
        result = await client.call_tool("run_code", {"code": SUCCESS, "description": "add"})
        assert not result.is_error
        assert text(result) == "5"
        assert (await client.call_tool("ping", {})).data == "pong"


@pytest.mark.parametrize(("program", "expect"), [(FAILURE, "boom from the program"), (DENIED, "denied")])
async def test_a_failed_or_denied_program_is_an_is_error_result_with_codemodes_text(
    program: str, expect: str
) -> None:
    state = setup()
    async with Client(server_with(state.scope)) as client:
        result = await client.call_tool(
            "run_code", {"code": program, "description": "fails"}, raise_on_error=False
        )
        assert result.is_error
        assert text(result).startswith("Error: code run failed"), text(result)
        assert expect in text(result).lower()
        with pytest.raises(ToolError, match="code run failed"):
            await client.call_tool("run_code", {"code": program, "description": "fails"})


async def test_native_tools_keep_their_descriptions_and_output_schemas() -> None:
    reg = codemode.Registry(warm_pool=0)

    @reg.tool
    def locate(city: str, precise: bool = False) -> dict[str, float]:
        """Where a city is.

        Args:
            city: The city's name.
            precise: More digits.
        """
        return {"lat": 38.7, "lon": -9.1}

    async with Client(server_with(reg)) as client:
        listed = {tool.name: tool for tool in await client.list_tools()}
        (definition,) = reg.tool_definitions("mcp")
        assert listed["locate"].input_schema == definition["inputSchema"]
        assert listed["locate"].input_schema["properties"]["city"]["description"] == "The city's name."
        assert listed["locate"].output_schema == definition["outputSchema"]
        result = await client.call_tool("locate", {"city": "Lisbon"})
        assert result.structured_content == {"lat": 38.7, "lon": -9.1}
        refused = await client.call_tool("locate", {"city": 3}, raise_on_error=False)
        assert refused.is_error
        assert text(refused).startswith("Error: invalid arguments:\n- $.city"), text(refused)


async def test_cancelling_the_clients_call_cancels_the_program_and_its_tool_call() -> None:
    state = setup()
    async with Client(server_with(state.scope)) as client:
        task: asyncio.Task[Any] = asyncio.ensure_future(
            client.call_tool("run_code", {"code": SLOW, "description": "waits"})
        )
        # The client's cancellation (notifications/cancelled) reaches the server's call.
        await cancel_when_started(task, state)
