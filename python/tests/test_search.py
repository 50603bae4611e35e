"""``describe_tools`` with a Python embedder (``Registry(embedder=...)``): semantic ranking
fused with the lexical one, answers within ``describe_max_tokens``, and an embedder that
fails or is slow leaving the search lexical, never failing the call."""

from __future__ import annotations

import time
from typing import Any

import pytest

import codemode

# A tiny embedder that knows which words mean the same thing: enough to find a tool that
# shares no word with the request (a real model does this for any words).
CONCEPTS = [
    {"weather", "forecast", "umbrella", "rain", "sunny", "temperature"},
    {"add", "sum", "plus", "total", "numbers"},
    {"email", "mail", "inbox", "send"},
]


def concept_embedder(texts: list[str]) -> list[list[float]]:
    vectors = []
    for text in texts:
        words = {w.strip(".,?!:;()").lower() for w in text.split()}
        vectors.append([float(len(words & concept)) + 0.01 for concept in CONCEPTS])
    return vectors


def make_registry(**options: Any) -> codemode.Registry:
    reg = codemode.Registry(mode="code", sdk_max_tokens=1000, warm_pool=0, **options)

    @reg.tool
    def get_forecast(city: str) -> str:
        """Weather forecast for a city."""
        return "sunny"

    @reg.tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    # Enough tools that the SDK is over sdk_max_tokens and describe_tools is offered.
    for i in range(40):

        def filler(x: str) -> str:
            return x

        filler.__name__ = f"archive_record_{i:02}"
        filler.__doc__ = (
            "Archive one record of the ledger for later audits, keeping its history and "
            "the reasons given for every change made to it over the years."
        )
        reg.tool(filler)
    return reg


async def describe(reg: codemode.Registry, arguments: dict[str, Any]) -> codemode.ToolResult:
    return await reg.execute("describe_tools", arguments)


async def test_a_python_embedder_finds_a_tool_by_meaning() -> None:
    query = "will I need an umbrella in Oslo tomorrow?"
    lexical = await describe(make_registry(), {"query": query, "limit": 1})
    assert lexical.ok, lexical.text
    assert "get_forecast" not in lexical.text
    reg = make_registry(embedder=concept_embedder, embedder_model="concepts")
    hybrid = await describe(reg, {"query": query, "limit": 1})
    assert hybrid.ok, hybrid.text
    assert hybrid.text.startswith(f"Best matches for {query!r}".replace("'", '"')), hybrid.text
    assert "best first: get_forecast." in hybrid.text
    assert "Ranked by words only" not in hybrid.text
    again = await describe(reg, {"query": query, "limit": 1})
    assert again.text == hybrid.text


async def test_a_failing_embedder_leaves_the_search_lexical() -> None:
    def broken(texts: list[str]) -> list[list[float]]:
        raise RuntimeError("no model here")

    reg = make_registry(embedder=broken)
    result = await describe(reg, {"query": "add two numbers", "limit": 1})
    assert result.ok, result.text
    assert result.text.startswith(
        'Best matches for "add two numbers", best first: add.\n'
        "Ranked by words only: the embedder gave no vectors (EMBED_FAILED).\n"
    ), result.text


async def test_a_slow_embedder_is_waited_for_within_its_bound() -> None:
    def slow(texts: list[str]) -> list[list[float]]:
        time.sleep(3)
        return concept_embedder(texts)

    reg = make_registry(embedder=slow, embedder_timeout_ms=200, embedder_index_timeout_ms=200)
    started = time.monotonic()
    result = await describe(reg, {"query": "add two numbers", "limit": 1})
    assert time.monotonic() - started < 2.5
    assert result.ok, result.text
    assert "(EMBED_TIMEOUT)" in result.text


async def test_answers_fit_their_budget_and_arguments_are_checked() -> None:
    reg = make_registry(describe_max_tokens=500)
    result = await describe(reg, {"query": "archive a ledger record", "limit": 20})
    assert result.ok, result.text
    assert (len(result.text.encode()) + 3) // 4 <= 500, len(result.text)
    assert "Shortened to fit" in result.text or "Left out" in result.text
    cases: list[tuple[dict[str, Any], str]] = [
        ({"query": "x", "limit": "3"}, "`limit` must be an integer from 1 to 20"),
        ({"query": "x", "limit": 0}, "got 0"),
        ({"query": "x", "lmit": 3}, 'unknown argument "lmit"'),
    ]
    for arguments, says in cases:
        refused = await describe(reg, arguments)
        assert not refused.ok
        assert refused.error_code == "INVALID_ARGS"
        assert says in refused.text, refused.text


def test_an_async_embedder_is_refused() -> None:
    async def embedder(texts: list[str]) -> list[list[float]]:
        return []

    with pytest.raises(codemode.ConfigError, match="sync callable"):
        codemode.Registry(embedder=embedder)
