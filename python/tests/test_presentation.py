"""What a model is given: the SDK text, the tool definitions in the OpenAI, Anthropic and
MCP shapes per scope mode, and the system prompt."""

from __future__ import annotations

from typing import Any, TypedDict

import pytest

import codemode


class Weather(TypedDict):
    """The weather at a place."""

    city: str
    celsius: float


def make_registry(**options: Any) -> codemode.Registry:
    options.setdefault("warm_pool", 0)
    reg = codemode.Registry(**options)

    @reg.tool
    def get_weather(city: str) -> Weather:
        """Current weather of a city.

        Args:
            city: the city's name
        """
        return {"city": city, "celsius": 21.5}

    @reg.tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    return reg


def test_the_typescript_sdk_declares_the_tools() -> None:
    reg = make_registry()
    text = reg.sdk()
    assert text.startswith("## Writing code for run_code\n")
    assert "```" in text
    assert "get_weather" in text and "add" in text
    assert "Current weather of a city." in text
    assert "city: string" in text
    assert "celsius: number" in text
    assert text == reg.sdk("typescript")  # byte-stable
    agent = reg.scope("agent")
    agent.restrict(allow=["add"])
    assert "get_weather" not in agent.sdk()


def test_the_python_sdk_is_rendered_too() -> None:
    text = make_registry().sdk("python")
    assert "class Tools" in text or "Protocol" in text
    assert "def get_weather" in text or "get_weather" in text


def test_native_mode_gives_every_tool_in_each_shape() -> None:
    reg = make_registry()
    assert reg.mode == "native"
    openai = reg.tool_definitions("openai")
    assert [d["function"]["name"] for d in openai] == ["add", "get_weather"]
    assert openai[1] == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather of a city.",
            "parameters": openai[1]["function"]["parameters"],
        },
    }
    assert openai[1]["function"]["parameters"]["properties"]["city"]["type"] == "string"
    anthropic = reg.tool_definitions("anthropic")
    assert anthropic[0] == {
        "name": "add",
        "description": "Add two numbers.",
        "input_schema": openai[0]["function"]["parameters"],
    }
    mcp = reg.tool_definitions("mcp")
    assert set(mcp[0]) == {"name", "description", "inputSchema"}  # an integer output: none
    assert mcp[1]["outputSchema"]["type"] == "object"
    assert mcp[1]["outputSchema"]["properties"]["celsius"]["type"] == "number"
    assert reg.system_prompt() == ""


def test_code_mode_gives_run_code_alone_with_the_sdk() -> None:
    reg = make_registry()
    coder = reg.scope("coder", mode="code")
    assert coder.mode == "code"
    [tool] = coder.tool_definitions("openai")
    assert tool["function"]["name"] == "run_code"
    description = tool["function"]["description"]
    assert coder.sdk() in description
    params = tool["function"]["parameters"]
    assert params["required"] == ["code", "description"]
    [bare] = coder.tool_definitions("anthropic", include_sdk=False)
    assert coder.sdk() not in bare["description"]
    prompt = coder.system_prompt()
    assert coder.sdk() in prompt and "run_code" in prompt
    [mcp] = coder.tool_definitions("mcp")
    assert mcp["name"] == "run_code" and "outputSchema" not in mcp
    assert coder.sdk() in mcp["description"]


def test_both_mode_gives_the_tools_and_run_code() -> None:
    reg = make_registry(mode="both")
    names = [d["name"] for d in reg.tool_definitions("anthropic")]
    assert sorted(names) == ["add", "get_weather", "run_code"]
    native = reg.scope("native-agent", mode="native")
    assert [d["name"] for d in native.tool_definitions("anthropic")] == ["add", "get_weather"]


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError):
        make_registry().tool_definitions("gemini")  # type: ignore[arg-type]
