"""The README's one-line adapters ("### Agent frameworks, one line each" in its "## Python"
section), each run verbatim after the section's setup block, and then driven through a
tool-call loop with the framework's offline model (the LangChain snippet's ``model`` is the
fake chat model; the raw loops get fake API clients), so a snippet that stops working, or
stops doing what the README says, fails here."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from _adapters import SUCCESS
from fastmcp import Client
from test_integration_langchain import ScriptedChat
from test_integration_openai_agents import Scripted
from test_integration_pydantic_ai import scripted
from test_readme import fenced, python_section

HEADING = "### Agent frameworks, one line each"


def blocks() -> list[str]:
    section = python_section()
    start = section.find(HEADING)
    assert start >= 0, f"the Python section has no {HEADING!r}"
    rest = section[start:]
    found: list[str] = []
    while True:
        at = rest.find("```python\n")
        if at < 0:
            return found
        found.append(fenced(rest[at:], "python"))
        rest = rest[at + len("```python\n") :]


def run_snippet(index: int, **given: Any) -> dict[str, Any]:
    setup, *snippets = blocks()
    assert len(snippets) == 5, "setup + Agents SDK, pydantic-ai, LangChain, FastMCP, raw loops"
    namespace: dict[str, Any] = {"__name__": "readme"}
    exec(compile(setup, "README setup", "exec"), namespace)
    namespace.update(given)
    exec(compile(snippets[index], f"README snippet {index}", "exec"), namespace)
    return namespace


async def test_the_agents_sdk_snippet() -> None:
    from agents import RunConfig, Runner

    agent = run_snippet(0)["agent"]
    assert [tool.name for tool in agent.tools] == ["run_code"]
    result = await Runner.run(
        agent.clone(model=Scripted(SUCCESS)), "go", run_config=RunConfig(tracing_disabled=True)
    )
    assert result.final_output == "tool said: 5"


async def test_the_pydantic_ai_snippet() -> None:
    agent = run_snippet(1)["agent"]
    result = await agent.run("go", model=scripted(SUCCESS, []))
    assert result.output == "returned: 5"


async def test_the_langchain_snippet() -> None:
    agent = run_snippet(2, model=ScriptedChat(program=SUCCESS))["agent"]
    result = await agent.ainvoke({"messages": [("user", "go")]})
    assert result["messages"][-1].content == "tool said (success): 5"


async def test_the_fastmcp_snippet() -> None:
    mcp = run_snippet(3)["mcp"]
    async with Client(mcp) as client:
        assert [tool.name for tool in await client.list_tools()] == ["run_code"]
        result = await client.call_tool("run_code", {"code": SUCCESS, "description": "add"})
        assert result.content[0].text == "5"  # type: ignore[union-attr]


class FakeOpenAI:
    """``client.chat.completions.create``: one run_code call, then a plain answer."""

    def __init__(self) -> None:
        self.chat = SimpleNamespace(completions=self)
        self.seen: list[Any] = []

    async def create(self, **request: Any) -> Any:
        self.seen.append(request)
        calls = None
        if len(self.seen) == 1:
            arguments = json.dumps({"code": SUCCESS, "description": "add"})
            calls = [
                SimpleNamespace(
                    id="call_1", function=SimpleNamespace(name="run_code", arguments=arguments)
                )
            ]
        message = SimpleNamespace(role="assistant", content=None, tool_calls=calls)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)])


class FakeAnthropic:
    """``client.messages.create``: one run_code tool use, then the end of the turn."""

    def __init__(self) -> None:
        self.messages = self
        self.seen: list[Any] = []

    async def create(self, **request: Any) -> Any:
        self.seen.append(request)
        if len(self.seen) == 1:
            use = {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "run_code",
                "input": {"code": "throw new Error('nope')", "description": "fails"},
            }
            return SimpleNamespace(content=[use], stop_reason="tool_use")
        return SimpleNamespace(content=[{"type": "text", "text": "done"}], stop_reason="end_turn")


@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_the_raw_loop_snippet(api: str) -> None:
    namespace = run_snippet(4)
    messages: list[Any] = [{"role": "user", "content": "go"}]
    if api == "openai":
        client: Any = FakeOpenAI()
        assert await namespace["openai_turn"](client, messages) is False
        assert messages[-1] == {"role": "tool", "tool_call_id": "call_1", "content": "5"}
        assert await namespace["openai_turn"](client, messages) is True
        assert client.seen[0]["tools"][0]["function"]["name"] == "run_code"
    else:
        client = FakeAnthropic()
        assert await namespace["anthropic_turn"](client, messages) is False
        (answer,) = messages[-1]["content"]
        assert answer["is_error"] is True and "nope" in answer["content"]
        assert await namespace["anthropic_turn"](client, messages) is True
        assert client.seen[0]["tools"][0]["name"] == "run_code"
