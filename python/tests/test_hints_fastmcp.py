"""Type hints as FastMCP reads them (issue 44), each case with the schema it gives
(a snapshot, checked against the port of the enforced subset in test_hints.py) and what a
call does with it: ``Annotated`` with pydantic's ``Field`` (description, bounds, pattern)
and with a plain string, defaults checked against their annotation, docstring parameters
that name nothing, ``datetime``/``date``/``time``/``UUID``/``Path``/``set``/fixed-length
``tuple`` taken as FastMCP takes them (formats and bounds in the description: the subset
has no ``format``, ``minimum`` or ``pattern``; the converter checks them), and one rule for
returned values wherever they sit.

Needs pydantic (python/tests/requirements.txt)."""

from __future__ import annotations

import datetime
import uuid
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Optional

import annotated_types
import pydantic
import pytest
from pydantic import Field
from test_hints import refusal, spec

import codemode
from codemode._hints import ToolArgumentError, to_json

UTC = datetime.timezone.utc


def only_property(fn: Any) -> dict[str, Any]:
    properties = spec(fn).input_schema["properties"]
    assert len(properties) == 1
    return dict(next(iter(properties.values())))


def argument_error(fn: Any, arguments: dict[str, Any]) -> str:
    with pytest.raises(ToolArgumentError) as caught:
        spec(fn).to_call_kwargs(arguments)
    return str(caught.value)


# Annotated ---------------------------------------------------------------------------


def test_annotated_field_keeps_its_description_and_its_bound_is_checked() -> None:
    def take(n: Annotated[int, Field(description="How many.", ge=0)]) -> int:
        return n

    assert spec(take).input_schema == {
        "type": "object",
        "properties": {"n": {"type": "integer", "description": "How many. (minimum: 0)"}},
        "required": ["n"],
        "additionalProperties": False,
    }
    assert spec(take).to_call_kwargs({"n": 0}) == {"n": 0}
    assert argument_error(take, {"n": -1}) == (
        "$.n: Input should be greater than or equal to 0, got -1"
    )


def test_annotated_field_pattern_and_lengths_are_checked() -> None:
    def tag(name: Annotated[str, Field(pattern=r"^[a-z]+$", max_length=5)] = "abc") -> str:
        return name

    assert only_property(tag) == {
        "type": "string",
        "description": "(maxLength: 5, pattern: ^[a-z]+$)",
        "default": "abc",
    }
    assert argument_error(tag, {"name": "ABC"}) == (
        "$.name: String should match pattern '^[a-z]+$', got \"ABC\""
    )
    assert argument_error(tag, {"name": "abcdefg"}) == (
        '$.name: String should have at most 5 characters, got "abcdefg"'
    )


def test_annotated_types_constraints_and_a_docstring_together() -> None:
    def scale(
        factor: Annotated[float, annotated_types.Gt(0), annotated_types.Le(10)],
    ) -> float:
        """Scales.

        Args:
            factor: The factor.
        """
        return factor

    assert only_property(scale) == {
        "type": "number",
        "description": "The factor. (exclusiveMinimum: 0, maximum: 10)",
    }
    assert argument_error(scale, {"factor": 0}) == "$.factor: Input should be greater than 0, got 0"


def test_annotated_with_a_plain_string_is_the_description_over_the_docstring() -> None:
    def greet(name: Annotated[str, "Who to greet."]) -> str:
        """Greets.

        Args:
            name: Not this one.
        """
        return name

    assert only_property(greet) == {"type": "string", "description": "Who to greet."}


def test_a_field_description_alone_needs_no_check() -> None:
    def f(x: Annotated[Optional[int], Field(description="Maybe a number.")] = None) -> None:
        pass

    assert only_property(f) == {
        "description": "Maybe a number.",
        "oneOf": [{"type": "integer"}, {"type": "null"}],
        "default": None,
    }


# Defaults and docstrings ---------------------------------------------------------------


def test_a_default_of_the_wrong_type_is_refused_at_registration() -> None:
    def count(n: int = "x") -> int:  # type: ignore[assignment]
        return 0

    assert refusal(count) == (
        'tool "count": parameter "n": the default "x" does not match its annotation int'
    )


def test_a_docstring_parameter_that_matches_nothing_is_reported() -> None:
    def add(a: int, b: int) -> int:
        """Adds.

        Args:
            a: The first.
            c: The second (misnamed).
        """
        return a + b

    assert refusal(add) == (
        'tool "add": the docstring describes parameter "c", which the function does not '
        'have (its parameters: "a", "b"); fix the docstring or the name'
    )


# Values written as text ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "fmt", "text", "value"),
    [
        (
            datetime.datetime,
            "date-time",
            "2024-05-01T12:30:00Z",
            datetime.datetime(2024, 5, 1, 12, 30, tzinfo=UTC),
        ),
        (datetime.date, "date", "2024-05-01", datetime.date(2024, 5, 1)),
        (datetime.time, "time", "12:30:00", datetime.time(12, 30)),
        (
            uuid.UUID,
            "uuid",
            "123e4567-e89b-12d3-a456-426614174000",
            uuid.UUID("123e4567-e89b-12d3-a456-426614174000"),
        ),
        (Path, "path", "dir/file.txt", Path("dir/file.txt")),
        (PurePosixPath, "path", "dir/file.txt", PurePosixPath("dir/file.txt")),
    ],
)
def test_datetimes_uuids_and_paths_are_strings_with_their_format(
    annotation: Any, fmt: str, text: str, value: Any
) -> None:
    def f(x):  # type: ignore[no-untyped-def]
        return x

    f.__annotations__ = {"x": annotation, "return": annotation}
    assert only_property(f) == {"type": "string", "description": f"(format: {fmt})"}
    assert spec(f).output_schema == {"type": "string", "description": f"(format: {fmt})"}
    converted = spec(f).to_call_kwargs({"x": text})["x"]
    assert converted == value and type(converted) is type(value)
    # The rule for values returned is the same text, both ways.
    assert to_json(value) == text
    if fmt != "path":
        assert argument_error(f, {"x": "nope"}).startswith(f'$.x: "nope" is not a {fmt} (')


def test_sets_are_arrays_of_unique_items() -> None:
    def tags(values: set[str], frozen: frozenset[int] = frozenset()) -> set[str]:
        return values

    result = spec(tags)
    assert result.input_schema["properties"] == {
        "values": {
            "type": "array",
            "description": "(uniqueItems: true)",
            "items": {"type": "string"},
        },
        "frozen": {
            "type": "array",
            "description": "(uniqueItems: true)",
            "items": {"type": "integer"},
            "default": [],
        },
    }
    assert result.output_schema == {
        "type": "array",
        "description": "(uniqueItems: true)",
        "items": {"type": "string"},
    }
    kwargs = result.to_call_kwargs({"values": ["a", "a", "b"], "frozen": [1]})
    assert kwargs == {"values": {"a", "b"}, "frozen": frozenset({1})}
    assert type(kwargs["frozen"]) is frozenset
    assert sorted(to_json({"a", "b"})) == ["a", "b"]


def test_fixed_length_tuples_check_their_length_and_each_position() -> None:
    def move(to: tuple[int, int], label: tuple[int, str] = (0, "origin")) -> tuple[int, int]:
        return to

    result = spec(move)
    assert result.input_schema["properties"] == {
        "to": {
            "type": "array",
            "description": "(exactly 2 items: int, int)",
            "items": {"type": "integer"},
        },
        "label": {
            "type": "array",
            "description": "(exactly 2 items: int, str)",
            "default": [0, "origin"],
        },
    }
    assert result.to_call_kwargs({"to": [1, 2], "label": [3, "x"]}) == {
        "to": (1, 2),
        "label": (3, "x"),
    }
    assert argument_error(move, {"to": [1]}) == "$.to: expected exactly 2 items (int, int), got 1"
    assert argument_error(move, {"to": [1, 2], "label": ["x", 3]}) == (
        "$.label[0]: expected integer, got string"
    )


def test_what_stays_refused_says_why() -> None:
    def wait(delay: datetime.timedelta) -> None:
        pass

    assert refusal(wait) == (
        'tool "wait": parameter "delay": timedelta is not supported (pydantic writes it as an '
        "ISO 8601 duration, which codemode does not parse); use float (seconds) or str"
    )


# One rule for returned values ---------------------------------------------------------


def test_a_datetime_converts_the_same_in_a_dict_a_list_and_a_pydantic_model() -> None:
    class Event(pydantic.BaseModel):
        when: datetime.datetime
        ids: set[int]

    when = datetime.datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
    naive = datetime.datetime(2024, 5, 1, 12, 30, 0, 500)
    model = to_json(Event(when=when, ids={1}))
    plain = to_json({"when": when, "ids": {1}})
    assert model == plain == {"when": "2024-05-01T12:30:00Z", "ids": [1]}
    assert to_json([naive]) == [pydantic.TypeAdapter(datetime.datetime).dump_python(naive, mode="json")]
    assert to_json(uuid.UUID(int=1)) == "00000000-0000-0000-0000-000000000001"


# Through the registry --------------------------------------------------------------------


async def test_a_bound_and_a_format_hold_for_a_program_and_a_direct_call() -> None:
    reg = codemode.Registry(warm_pool=0)

    @reg.tool
    def days_until(
        when: datetime.date, step: Annotated[int, Field(description="Days a step.", ge=1)] = 1
    ) -> int:
        """Counts steps until a date."""
        return (when - datetime.date(2024, 1, 1)).days // step

    assert (await reg.execute("days_until", {"when": "2024-01-11", "step": 2})).value == 5
    refused = await reg.execute("days_until", {"when": "2024-01-11", "step": 0})
    assert refused.error_code == "INVALID_ARGS"
    assert "$.step: Input should be greater than or equal to 1, got 0" in refused.text
    run = await reg.run_code(
        "try { await tools.days_until({when: 'soon'}) } catch (e) { return String(e.message) }"
    )
    assert '$.when: "soon" is not a date' in str(run.value), run.text
    assert "Days a step. (minimum: 1)" in reg.sdk()

    @reg.tool
    def now() -> dict[str, Any]:
        """The time."""
        return {"at": datetime.datetime(2024, 5, 1, tzinfo=UTC), "tags": {"x"}}

    assert (await reg.execute("now")).value == {"at": "2024-05-01T00:00:00Z", "tags": ["x"]}


def test_a_partial_may_document_the_parameters_it_binds() -> None:
    import functools

    def add(a: int, b: int) -> int:
        """Adds.

        Args:
            a: The first.
            b: The second.
        """
        return a + b

    assert list(spec(functools.partial(add, 1)).input_schema["properties"]) == ["b"]
