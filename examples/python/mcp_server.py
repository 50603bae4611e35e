"""An MCP server (the MCP Python SDK's FastMCP, named ``MCPServer`` since mcp 2) that
exposes Code Mode over its Python tools.

The tools are plain Python functions registered with ``@reg.tool`` (their JSON Schema comes
from the type hints and the docstring, as with FastMCP's ``@mcp.tool()``). The server
offers one MCP tool, ``run_code``: its description carries the generated TypeScript SDK of
those tools, and each call runs the model's program in codemode's embedded engine, where
every ``await tools.x(args)`` goes through the pipeline. The client sees only what the
program printed or returned; a failed program is an MCP tool error with codemode's text.

Run (stdio): ``python examples/python/mcp_server.py``; an editor's MCP configuration names
the same command.
"""

from __future__ import annotations

from typing import TypedDict

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

import codemode


class Order(TypedDict):
    id: str
    customer: str
    status: str


ORDERS = [
    Order(id="A-1", customer="ada", status="shipped"),
    Order(id="A-2", customer="ada", status="open"),
    Order(id="B-1", customer="bob", status="open"),
]
PRICES = {"A-1": 12.5, "A-2": 30.0, "B-1": 7.25}

reg = codemode.Registry(mode="code")


@reg.tool(parallel_safe=True)
def list_orders(customer: str) -> list[Order]:
    """The orders of a customer.

    Args:
        customer: the customer's id
    """
    return [order for order in ORDERS if order["customer"] == customer]


@reg.tool(parallel_safe=True)
async def order_total(order_id: str) -> float:
    """The total of an order, in euros.

    Args:
        order_id: the order's id
    """
    if order_id not in PRICES:
        raise KeyError(f"no order {order_id}")
    return PRICES[order_id]


server = MCPServer("orders")
RUN_CODE = reg.tool_definitions("mcp")[0]  # name, description (with the SDK), inputSchema


@server.tool(name=RUN_CODE["name"], description=RUN_CODE["description"])
async def run_code(code: str, description: str) -> str:
    """Runs a TypeScript program over the orders tools."""
    run = await reg.run_code(code, description=description)
    if not run.ok:
        raise ToolError(run.text)
    return run.text


if __name__ == "__main__":
    server.run()  # stdio
