"""An agent loop that offers Code Mode to a model through OpenAI's function-tool shape.

The model sees one tool, ``run_code``, whose description carries the generated SDK of the
Python tools below. It answers with a program; the loop runs it through the pipeline and
hands back only what the program printed or returned.

The model here is scripted: ``ScriptedOpenAI`` answers ``client.chat.completions.create``
with pre-written tool calls in the shape of OpenAI's chat-completions responses, so the
example runs with no network and no key. With ``openai.OpenAI()`` in its place the loop is
the same.

Run: ``python examples/python/openai_agent_loop.py``
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import codemode

reg = codemode.Registry(mode="code")


@reg.tool(parallel_safe=True)
def temperature(city: str) -> float:
    """Today's high in a city, in °C.

    Args:
        city: the city's English name
    """
    return {"Lisbon": 24.5, "Oslo": 7.0, "Nairobi": 22.0}[city]


agent = reg.scope("assistant")  # one agent's view of the registry (mode "code")


# The agent loop: offer run_code, run the programs the model writes, until it answers.
async def agent_loop(client: Any, question: str) -> str:
    tools = agent.tool_definitions("openai")  # [{"type": "function", "function": run_code}]
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    while True:
        response = client.chat.completions.create(model="gpt-4.1", messages=messages, tools=tools)
        reply = response.choices[0].message
        if not reply.tool_calls:
            return str(reply.content)
        messages.append({"role": "assistant", "content": reply.content, "tool_calls": [
            {"id": c.id, "type": "function",
             "function": {"name": c.function.name, "arguments": c.function.arguments}}
            for c in reply.tool_calls
        ]})
        for call in reply.tool_calls:
            result = await agent.execute(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.text})


# --- The scripted model: OpenAI's response shape, pre-written answers, no network. ---


@dataclasses.dataclass
class Function:
    name: str
    arguments: str  # JSON text, as OpenAI sends it


@dataclasses.dataclass
class ToolCall:
    id: str
    function: Function
    type: str = "function"


@dataclasses.dataclass
class Message:
    content: str | None
    tool_calls: list[ToolCall] | None = None
    role: str = "assistant"


@dataclasses.dataclass
class Choice:
    message: Message
    index: int = 0
    finish_reason: str = "stop"


@dataclasses.dataclass
class ChatCompletion:
    choices: list[Choice]


PROGRAM = """\
const cities = ["Lisbon", "Oslo", "Nairobi"];
const highs = await Promise.all(cities.map((city) => tools.temperature({city})));
const best = highs.indexOf(Math.max(...highs));
console.log(`checked ${cities.length} cities`);
return {city: cities[best], high: highs[best]};
"""


class ScriptedOpenAI:
    """Stands in for ``openai.OpenAI()``: the first answer calls ``run_code`` with
    ``PROGRAM``; the next one reads the tool result and answers in words."""

    def __init__(self) -> None:
        self.chat = self
        self.completions = self
        self.requests: list[dict[str, Any]] = []

    def create(
        self, *, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> ChatCompletion:
        self.requests.append({"model": model, "messages": list(messages), "tools": tools})
        if messages[-1]["role"] == "user":
            arguments = json.dumps({"code": PROGRAM, "description": "the warmest city"})
            call = ToolCall(id="call_1", function=Function("run_code", arguments))
            return ChatCompletion([Choice(Message(None, [call]), finish_reason="tool_calls")])
        result = messages[-1]["content"]
        return ChatCompletion([Choice(Message(f"From the program's output: {result}"))])


async def main() -> None:
    client = ScriptedOpenAI()
    answer = await agent_loop(client, "Which of Lisbon, Oslo and Nairobi is warmest today?")
    offered = client.requests[0]["tools"]
    print("offered:", [tool["function"]["name"] for tool in offered])
    print("the SDK in run_code's description:", "temperature" in offered[0]["function"]["description"])
    print("answer:", answer)


if __name__ == "__main__":
    asyncio.run(main())
