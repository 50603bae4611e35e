"""Tests of ``codemode._hints``: Python functions described as tools.

Every schema a test obtains goes through ``subset_issues``, a Python port of the Rust
parser of the enforced subset (``JsonSchema::parse``, ``src/schema/subset.rs``); the port
is itself checked against the expectations of that file's own unit tests
(``RUST_SUBSET_CASES``), so a schema outside the subset fails here without a Rust build.
"""

import dataclasses
import datetime
import decimal
import enum
import functools
import json
import math
import subprocess
import sys
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import (
    Annotated,
    Any,
    Callable,
    Literal,
    NewType,
    Optional,
    TypedDict,
    Union,
)

import pytest

import codemode._hints
from codemode._hints import (
    ToolArgumentError,
    ToolDefinitionError,
    ToolResultError,
    ToolSpec,
    to_json,
    tool_spec,
)

try:
    from typing import NotRequired, Required
except ImportError:  # Python 3.10
    NotRequired = Required = None  # type: ignore[assignment,misc]

# ---------------------------------------------------------------------------------------
# A port of the enforced subset's parser (src/schema/subset.rs), for checking schemas
# ---------------------------------------------------------------------------------------

_TYPES = ("object", "array", "string", "number", "integer", "boolean", "null")
_ANNOTATIONS = ("description", "title", "default", "examples")
_KEYWORDS = ("type", "properties", "required", "additionalProperties", "items", "enum", "const")
_MAX_SAFE = 9_007_199_254_740_991
_NEEDS_SCALAR = "`{}` requires a scalar `type` (string, number, integer, boolean or null)"


def _text(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _not_lossless(value: Any, path: str = "$") -> "str | None":
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, int):
        if abs(value) > _MAX_SAFE:
            return (
                f"{path}: integer {value} is outside ±{_MAX_SAFE} and would change as a "
                "JavaScript number"
            )
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return f"{path}: not a finite number"
        if value == 0 and math.copysign(1, value) < 0:
            return f"{path}: -0 is not JSON (JSON text would make it 0; use 0)"
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _not_lossless(item, f"{path}[{index}]")
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _not_lossless(item, f"{path}.{key}")
            if found:
                return found
        return None
    return f"{path}: not JSON"


def _type_matches(kind: str, value: Any) -> bool:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return {
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
        "string": isinstance(value, str),
        "number": number,
        "integer": number and float(value).is_integer(),
        "boolean": isinstance(value, bool),
        "null": value is None,
    }[kind]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


class _Checker:
    """``Parser`` of src/schema/subset.rs (enforced dialect), issue for issue."""

    def __init__(self) -> None:
        self.issues: "list[str]" = []

    def issue(self, pointer: str, message: str) -> None:
        self.issues.append(f"{pointer}: {message}")

    def node(self, schema: Any, ptr: str) -> None:
        if not isinstance(schema, dict):
            what = (
                "boolean schemas are not supported; use {} for any value"
                if isinstance(schema, bool)
                else "a schema must be a JSON object"
            )
            self.issue(ptr, f"{what} (got {_text(schema)})")
            return
        for key in schema:
            if key not in _KEYWORDS and key not in _ANNOTATIONS and key != "oneOf":
                self.issue(f"{ptr}/{_escape(key)}", f"unsupported keyword `{key}`")
        self.annotations(schema, ptr)
        declared = self.declared_type(schema, ptr)
        if "oneOf" in schema:
            self.one_of(schema, ptr)
            return
        for key, kind in (
            ("properties", "object"),
            ("required", "object"),
            ("additionalProperties", "object"),
            ("items", "array"),
        ):
            if key in schema and declared != kind:
                self.issue(f"{ptr}/{key}", f'`{key}` requires `"type": "{kind}"`')
        if declared == "object":
            self.object(schema, ptr)
        elif declared == "array":
            items = schema.get("items")
            if isinstance(items, list):
                self.issue(f"{ptr}/items", "tuple `items` (an array of schemas) is not supported")
            elif "items" in schema:
                self.node(items, f"{ptr}/items")
        self.enum_and_const(schema, ptr, declared)

    def annotations(self, schema: "dict[str, Any]", ptr: str) -> None:
        for key in ("description", "title"):
            if key in schema and not isinstance(schema[key], str):
                self.issue(f"{ptr}/{key}", f"`{key}` must be a string, got {_text(schema[key])}")
        for key in ("default", "examples"):
            problem = _not_lossless(schema[key]) if key in schema else None
            if problem:
                self.issue(f"{ptr}/{key}", f"`{key}` must be lossless JSON data: {problem}")

    def declared_type(self, schema: "dict[str, Any]", ptr: str) -> "str | None":
        kind = schema.get("type")
        if "type" not in schema:
            return None
        if isinstance(kind, str):
            if kind in _TYPES:
                return kind
            self.issue(f"{ptr}/type", f"unknown type {json.dumps(kind)}")
        elif isinstance(kind, list):
            self.issue(f"{ptr}/type", "type arrays are not supported; use oneOf")
        else:
            self.issue(f"{ptr}/type", f"`type` must be a string, got {_text(kind)}")
        return None

    def one_of(self, schema: "dict[str, Any]", ptr: str) -> None:
        others = [k for k in schema if k != "oneOf" and k not in _ANNOTATIONS]
        if others:
            listed = ", ".join(f"`{k}`" for k in others)
            self.issue(
                ptr,
                f"`oneOf` cannot be combined with {listed}; put constraints inside the branches",
            )
        branches = schema["oneOf"]
        if not isinstance(branches, list):
            self.issue(
                f"{ptr}/oneOf", f"`oneOf` must be an array of schemas, got {_text(branches)}"
            )
            return
        if len(branches) < 2:
            self.issue(f"{ptr}/oneOf", f"`oneOf` needs at least two branches, got {len(branches)}")
        for index, branch in enumerate(branches):
            self.node(branch, f"{ptr}/oneOf/{index}")

    def object(self, schema: "dict[str, Any]", ptr: str) -> None:
        names: "set[str]" = set()
        properties = schema.get("properties")
        if isinstance(properties, dict):
            for name, sub in properties.items():
                self.node(sub, f"{ptr}/properties/{_escape(name)}")
                names.add(name)
        elif "properties" in schema:
            self.issue(
                f"{ptr}/properties", f"`properties` must be an object, got {_text(properties)}"
            )
        self.required(schema, ptr, names)
        extra = schema.get("additionalProperties", True)
        if isinstance(extra, dict):
            self.issue(
                f"{ptr}/additionalProperties",
                "`additionalProperties` must be true or false (schemas are not supported)",
            )
        elif not isinstance(extra, bool):
            self.issue(
                f"{ptr}/additionalProperties",
                f"`additionalProperties` must be true or false, got {_text(extra)}",
            )

    def required(self, schema: "dict[str, Any]", ptr: str, names: "set[str]") -> None:
        if "required" not in schema:
            return
        required = schema["required"]
        if not isinstance(required, list):
            self.issue(
                f"{ptr}/required", f"`required` must be an array of names, got {_text(required)}"
            )
            return
        seen: "list[str]" = []
        for name in required:
            if not isinstance(name, str):
                self.issue(
                    f"{ptr}/required", f"`required` must list property names, got {_text(name)}"
                )
            elif name in seen:
                self.issue(f"{ptr}/required", f"`required` lists {json.dumps(name)} twice")
            elif name not in names:
                self.issue(
                    f"{ptr}/required",
                    f"required property {json.dumps(name)} is not declared in `properties`",
                )
            else:
                seen.append(name)

    def enum_and_const(self, schema: "dict[str, Any]", ptr: str, declared: "str | None") -> None:
        scalar = declared is None or declared not in ("object", "array")
        untyped = "type" not in schema
        allowed = None
        if "enum" in schema:
            if untyped:
                self.issue(f"{ptr}/enum", _NEEDS_SCALAR.replace("{}", "enum"))
            allowed = self.enumeration(schema["enum"], ptr, declared, scalar)
        constant: Any = None
        has_constant = False
        if "const" in schema:
            if not scalar:
                self.issue(f"{ptr}/const", "`const` is only supported on scalar types")
            else:
                if untyped:
                    self.issue(f"{ptr}/const", _NEEDS_SCALAR.replace("{}", "const"))
                has_constant = self.scalar_of(schema["const"], declared, "const", ptr)
                constant = schema["const"]
        if allowed is not None and has_constant and not any(_same(v, constant) for v in allowed):
            self.issue(f"{ptr}/const", f"`const` value {_text(constant)} is not one of `enum`")

    def enumeration(
        self, values: Any, ptr: str, declared: "str | None", scalar: bool
    ) -> "list[Any] | None":
        if not scalar:
            self.issue(f"{ptr}/enum", f"`enum` is only supported on scalar types, not {declared}")
            return None
        if not isinstance(values, list):
            self.issue(f"{ptr}/enum", f"`enum` must be an array, got {_text(values)}")
            return None
        if not values:
            self.issue(f"{ptr}/enum", "`enum` needs at least one value")
            return None
        ok = True
        for index, item in enumerate(values):
            ok &= self.scalar_of(item, declared, "enum", ptr)
            if any(_same(earlier, item) for earlier in values[:index]):
                self.issue(f"{ptr}/enum", f"`enum` lists {_text(item)} twice")
                ok = False
        return values if ok else None

    def scalar_of(self, value: Any, kind: "str | None", keyword: str, ptr: str) -> bool:
        if isinstance(value, (list, dict)):
            self.issue(
                f"{ptr}/{keyword}", f"`{keyword}` values must be scalars, got {_text(value)}"
            )
            return False
        problem = _not_lossless(value)
        if problem:
            self.issue(f"{ptr}/{keyword}", f"`{keyword}` value is not lossless JSON: {problem}")
            return False
        if kind is not None and not _type_matches(kind, value):
            self.issue(
                f"{ptr}/{keyword}",
                f"`{keyword}` value {_text(value)} does not match the node's type {kind}",
            )
            return False
        return True


def subset_issues(schema: Any) -> "list[str]":
    checker = _Checker()
    checker.node(schema, "#")
    return checker.issues


#: Schemas and the issues ``JsonSchema::parse`` reports for them, as the unit tests of
#: src/schema/subset.rs state them.
RUST_SUBSET_CASES: "list[tuple[Any, list[str]]]" = [
    (
        {
            "type": "object",
            "title": "T",
            "description": "D",
            "default": {"a": 1},
            "examples": [{"a": 2}],
            "properties": {
                "a": {"type": "integer", "enum": [1, 2, 3]},
                "b": {"type": "string", "const": "x"},
                "c": {"type": "array", "items": {"type": "boolean"}},
                "d": {"oneOf": [{"type": "null"}, {"type": "number"}], "description": "either"},
                "e": {},
                "f": {"type": "object", "additionalProperties": False},
                "g": {"type": "boolean", "enum": [True]},
                "h": {"type": "integer", "enum": [1, 2], "const": 2},
            },
            "required": ["a", "b"],
            "additionalProperties": True,
        },
        [],
    ),
    ({}, []),
    ({"type": "string"}, []),
    ({"type": "array"}, []),
    ({"type": "null"}, []),
    (
        {
            "type": "object",
            "properties": {"a": {"type": "string", "pattern": "^x", "minLength": 1}},
        },
        [
            "#/properties/a/pattern: unsupported keyword `pattern`",
            "#/properties/a/minLength: unsupported keyword `minLength`",
        ],
    ),
    ({"$ref": "#/$defs/x"}, ["#/$ref: unsupported keyword `$ref`"]),
    ({"anyOf": []}, ["#/anyOf: unsupported keyword `anyOf`"]),
    (
        {
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"type": "array", "items": [{"type": "string"}]},
                "c": {"type": "strin"},
                "d": True,
            },
            "required": ["a", "zzz", "a"],
            "additionalProperties": {"type": "string"},
        },
        [
            "#/properties/a/type: type arrays are not supported; use oneOf",
            "#/properties/b/items: tuple `items` (an array of schemas) is not supported",
            '#/properties/c/type: unknown type "strin"',
            "#/properties/d: boolean schemas are not supported; use {} for any value (got true)",
            '#/required: required property "zzz" is not declared in `properties`',
            '#/required: `required` lists "a" twice',
            "#/additionalProperties: `additionalProperties` must be true or false "
            "(schemas are not supported)",
        ],
    ),
    (
        {"properties": {}, "required": [], "additionalProperties": False, "items": {}},
        [
            '#/properties: `properties` requires `"type": "object"`',
            '#/required: `required` requires `"type": "object"`',
            '#/additionalProperties: `additionalProperties` requires `"type": "object"`',
            '#/items: `items` requires `"type": "array"`',
        ],
    ),
    (
        {"oneOf": [{"type": "string"}]},
        ["#/oneOf: `oneOf` needs at least two branches, got 1"],
    ),
    (
        {"oneOf": [{"type": "string"}, {"type": "null"}], "type": "string"},
        ["#: `oneOf` cannot be combined with `type`; put constraints inside the branches"],
    ),
    (
        {"type": "string", "enum": ["a", 1]},
        ["#/enum: `enum` value 1 does not match the node's type string"],
    ),
    ({"type": "integer", "const": 2.0}, []),
    (
        {"type": "object", "enum": [{}]},
        ["#/enum: `enum` is only supported on scalar types, not object"],
    ),
    ({"type": "string", "enum": []}, ["#/enum: `enum` needs at least one value"]),
    ({"type": "number", "enum": [1, 1.0]}, ["#/enum: `enum` lists 1.0 twice"]),
    ({"enum": ["a", "b"]}, [f"#/enum: {_NEEDS_SCALAR.replace('{}', 'enum')}"]),
    (
        {"type": "string", "enum": ["a", "b"], "const": "c"},
        ['#/const: `const` value "c" is not one of `enum`'],
    ),
    (
        {"oneOf": [{"const": "a"}, {"type": "string", "const": "b"}]},
        [f"#/oneOf/0/const: {_NEEDS_SCALAR.replace('{}', 'const')}"],
    ),
    (
        {
            "type": "object",
            "properties": {
                "mode": {"enum": ["fast", "slow"], "description": "no type"},
                "level": {"type": "integer", "enum": [1, 2, 3], "const": 4},
                "flag": {"const": True},
                "name": {"type": ["string", "null"]},
                "size": {"type": "integer", "minimum": 1},
            },
            "required": ["mode", "missing"],
        },
        [
            f"#/properties/mode/enum: {_NEEDS_SCALAR.replace('{}', 'enum')}",
            "#/properties/level/const: `const` value 4 is not one of `enum`",
            f"#/properties/flag/const: {_NEEDS_SCALAR.replace('{}', 'const')}",
            "#/properties/name/type: type arrays are not supported; use oneOf",
            "#/properties/size/minimum: unsupported keyword `minimum`",
            '#/required: required property "missing" is not declared in `properties`',
        ],
    ),
    (
        {"description": 3, "title": None, "default": 9007199254740993},
        [
            "#/description: `description` must be a string, got 3",
            "#/title: `title` must be a string, got null",
            "#/default: `default` must be lossless JSON data: $: integer 9007199254740993 is "
            "outside ±9007199254740991 and would change as a JavaScript number",
        ],
    ),
    ("string", ['#: a schema must be a JSON object (got "string")']),
    (
        {"type": "object", "properties": {"a/b~c": {"x": 1}}},
        ["#/properties/a~1b~0c/x: unsupported keyword `x`"],
    ),
]


@pytest.mark.parametrize(("schema", "issues"), RUST_SUBSET_CASES)
def test_the_subset_port_agrees_with_the_rust_parser_tests(
    schema: Any, issues: "list[str]"
) -> None:
    assert subset_issues(schema) == issues


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------


def spec(fn: Callable[..., Any], **options: Any) -> ToolSpec:
    """``tool_spec(fn)``, its schemas checked against the subset."""
    result = tool_spec(fn, **options)
    assert subset_issues(result.input_schema) == []
    assert result.input_schema["type"] == "object"
    if result.output_schema is not None:
        assert subset_issues(result.output_schema) == []
    return result


def function_of(annotation: Any, *, default: Any = None, has_default: bool = False) -> Any:
    """A function ``f(x: annotation) -> annotation``."""

    def f(x):  # type: ignore[no-untyped-def]
        return x

    f.__annotations__ = {"x": annotation, "return": annotation}
    if has_default:
        f.__defaults__ = (default,)
    return f


def schema_of(annotation: Any) -> "dict[str, Any]":
    """The property schema of a parameter annotated ``annotation``."""
    schema: "dict[str, Any]" = spec(function_of(annotation), name="f").input_schema
    return schema["properties"]["x"]  # type: ignore[no-any-return]


def output_of(annotation: Any) -> "dict[str, Any] | None":
    return spec(function_of(annotation), name="f").output_schema


def call_value(annotation: Any, value: Any) -> Any:
    """What ``to_call_kwargs`` makes of ``value`` for a parameter annotated ``annotation``."""
    return spec(function_of(annotation), name="f").to_call_kwargs({"x": value})["x"]


def refusal(fn: Callable[..., Any], **options: Any) -> str:
    with pytest.raises(ToolDefinitionError) as caught:
        tool_spec(fn, **options)
    return str(caught.value)


# Module-level types (string forward references need them here) ------------------------


class Color(enum.Enum):
    """A colour."""

    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclasses.dataclass
class Point:
    """A point on the plane.

    Attributes:
        x: Horizontal.
        y: Vertical.
    """

    x: int
    y: int = 0
    label: Optional[str] = None
    tags: "list[str]" = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Shape:
    name: str
    corners: "list[Point]"
    color: Color = Color.RED


@dataclasses.dataclass
class TreeNode:
    value: int
    children: "list[TreeNode]"


@dataclasses.dataclass
class Circle:
    kind: Literal["circle"]
    radius: float


@dataclasses.dataclass
class Square:
    kind: Literal["square"]
    side: float


class Movie(TypedDict):
    title: str
    year: int


class MovieFilter(TypedDict, total=False):
    """Which movies."""

    title: str
    years: "list[int]"
    best: Movie


POINT_INPUT = {
    "type": "object",
    "description": "A point on the plane.",
    "properties": {
        "x": {"type": "integer", "description": "Horizontal."},
        "y": {"type": "integer", "description": "Vertical.", "default": 0},
        "label": {"oneOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["x"],
    "additionalProperties": False,
}


# ---------------------------------------------------------------------------------------
# Schemas of annotations
# ---------------------------------------------------------------------------------------


def test_the_root_lists_every_parameter_and_requires_those_without_defaults() -> None:
    def search(query: str, limit: int = 10, exact: bool = False) -> None:
        pass

    result = spec(search)
    assert result.name == "search"
    assert result.param_names == ("query", "limit", "exact")
    assert result.input_schema == {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer", "default": 10},
            "exact": {"type": "boolean", "default": False},
        },
        "required": ["query"],
        "additionalProperties": False,
    }
    assert result.output_schema is None
    assert result.is_async is False


def test_a_function_without_parameters_has_an_empty_object_schema() -> None:
    def now() -> str:
        return ""

    assert spec(now).input_schema == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    ("annotation", "schema"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (None, {"type": "null"}),
        (type(None), {"type": "null"}),
    ],
)
def test_scalar_schemas(annotation: Any, schema: "dict[str, Any]") -> None:
    assert schema_of(annotation) == schema


@pytest.mark.parametrize("annotation", [Any, object])
def test_any_and_object_accept_any_json_value(annotation: Any) -> None:
    assert schema_of(annotation) == {}
    assert call_value(annotation, {"a": [1]}) == {"a": [1]}


def test_lists_sequences_and_homogeneous_tuples_are_arrays() -> None:
    strings = {"type": "array", "items": {"type": "string"}}
    assert schema_of(list[str]) == strings
    assert schema_of(Sequence[str]) == strings
    assert schema_of(tuple[str, ...]) == strings
    assert schema_of(list) == {"type": "array"}
    assert schema_of(list[list[int]]) == {
        "type": "array",
        "items": {"type": "array", "items": {"type": "integer"}},
    }
    assert call_value(tuple[int, ...], [1, 2.0]) == (1, 2)


def test_dict_with_str_keys_is_an_open_object_whose_values_are_checked_in_python() -> None:
    # additionalProperties cannot be a schema in the subset: the object is open, and the
    # values are converted (and checked) by to_call_kwargs.
    assert schema_of(dict[str, int]) == {"type": "object", "additionalProperties": True}
    assert schema_of(dict) == {"type": "object", "additionalProperties": True}
    assert call_value(dict[str, Color], {"a": "red"}) == {"a": Color.RED}
    with pytest.raises(ToolArgumentError, match=r'^\$\.x\["a b"\]: expected integer, got string$'):
        call_value(dict[str, int], {"a b": "1"})


def test_optional_and_union_none_are_one_of_with_null() -> None:
    nullable = {"oneOf": [{"type": "integer"}, {"type": "null"}]}
    assert schema_of(Optional[int]) == nullable
    assert schema_of(Union[int, None]) == nullable
    assert schema_of(int | None) == nullable
    assert call_value(int | None, None) is None
    assert call_value(int | None, 3) == 3


def test_unions_of_distinct_json_types_are_one_of() -> None:
    assert schema_of(Union[str, list[str], Point]) == {
        "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, POINT_INPUT]
    }
    assert schema_of(bool | int) == {"oneOf": [{"type": "boolean"}, {"type": "integer"}]}
    assert call_value(Union[str, Point], {"x": 1}) == Point(1)
    assert call_value(Union[str, Point], "p") == "p"
    assert call_value(bool | int, True) is True


def test_int_or_float_is_one_number_that_keeps_integers() -> None:
    # oneOf [integer, number] would match an integer twice, which oneOf refuses.
    assert schema_of(Union[int, float]) == {"type": "number"}
    assert schema_of(int | float | None) == {"oneOf": [{"type": "number"}, {"type": "null"}]}
    assert call_value(int | float, 3) == 3
    assert isinstance(call_value(int | float, 3), int)
    assert call_value(float, 3) == 3.0
    assert isinstance(call_value(float, 3), float)


def test_a_union_with_any_accepts_anything() -> None:
    assert schema_of(Optional[Any]) == {}
    assert schema_of(Union[int, Any]) == {}
    assert schema_of(Optional[Annotated[Any, "Anything."]]) == {"description": "Anything."}


def test_typing_module_aliases_match_the_builtin_generics() -> None:
    assert schema_of(typing.List[int]) == schema_of(list[int])
    assert schema_of(typing.Tuple[int, ...]) == schema_of(tuple[int, ...])
    assert schema_of(typing.Dict[str, int]) == schema_of(dict[str, int])
    assert schema_of(typing.Sequence[str]) == schema_of(list[str])
    assert call_value(typing.Tuple[str, ...], ["a"]) == ("a",)


def test_literals_are_enums_of_their_json_type() -> None:
    assert schema_of(Literal["asc", "desc"]) == {"type": "string", "enum": ["asc", "desc"]}
    assert schema_of(Literal[1, 2]) == {"type": "integer", "enum": [1, 2]}
    assert schema_of(Literal[True]) == {"type": "boolean", "enum": [True]}
    assert schema_of(Literal[None]) == {"type": "null"}
    assert call_value(Literal["asc", "desc"], "desc") == "desc"


def test_literals_of_several_types_split_into_one_branch_per_type() -> None:
    assert schema_of(Literal["auto", 0, None]) == {
        "oneOf": [
            {"type": "string", "enum": ["auto"]},
            {"type": "integer", "enum": [0]},
            {"type": "null"},
        ]
    }
    assert schema_of(Union[Literal["a"], Literal["b"], None]) == {
        "oneOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]
    }
    # true and 1 are different JSON values, though True == 1 in Python.
    assert call_value(Literal[1, True], True) is True
    assert call_value(Literal[1, True], 1.0) == 1


def test_enums_are_enums_of_their_values_and_convert_back_to_members() -> None:
    assert schema_of(Color) == {
        "type": "string",
        "description": "A colour.",
        "enum": ["red", "blue"],
    }
    assert schema_of(Level) == {"type": "integer", "enum": [1, 2]}
    assert call_value(Color, "blue") is Color.BLUE
    assert call_value(Level, 2.0) is Level.HIGH
    assert call_value(list[Color], ["red"]) == [Color.RED]
    assert call_value(Literal[Color.RED], "red") is Color.RED


def test_an_enum_mixing_str_and_int_values_splits_by_type() -> None:
    class Mixed(enum.Enum):
        AUTO = "auto"
        ONE = 1

    assert schema_of(Mixed) == {
        "oneOf": [{"type": "string", "enum": ["auto"]}, {"type": "integer", "enum": [1]}]
    }
    assert call_value(Mixed, 1) is Mixed.ONE


def test_typeddicts_total_and_not_total() -> None:
    movie = {
        "type": "object",
        "properties": {"title": {"type": "string"}, "year": {"type": "integer"}},
        "required": ["title", "year"],
        "additionalProperties": False,
    }
    assert schema_of(Movie) == movie
    assert schema_of(MovieFilter) == {
        "type": "object",
        "description": "Which movies.",
        "properties": {
            "title": {"type": "string"},
            "years": {"type": "array", "items": {"type": "integer"}},
            "best": movie,
        },
        "required": [],
        "additionalProperties": False,
    }
    assert call_value(MovieFilter, {"best": {"title": "X", "year": 2000}}) == {
        "best": {"title": "X", "year": 2000}
    }


@pytest.mark.skipif(Required is None, reason="typing.Required needs Python 3.11")
def test_typeddict_required_and_not_required_marks() -> None:
    class Query(TypedDict, total=False):
        text: Required[str]  # type: ignore[valid-type]
        limit: int

    class Page(TypedDict):
        number: int
        cursor: NotRequired[Annotated[str, "Opaque."]]  # type: ignore[valid-type]

    assert schema_of(Query)["required"] == ["text"]
    assert schema_of(Page) == {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "cursor": {"type": "string", "description": "Opaque."},
        },
        "required": ["number"],
        "additionalProperties": False,
    }


def test_dataclasses_list_fields_with_defaults_as_optional() -> None:
    assert schema_of(Point) == POINT_INPUT


def test_nested_dataclasses_and_their_output_schema() -> None:
    color = {"type": "string", "description": "A colour.", "enum": ["red", "blue"]}
    assert schema_of(Shape) == {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "corners": {"type": "array", "items": POINT_INPUT},
            "color": {**color, "default": "red"},
        },
        "required": ["name", "corners"],
        "additionalProperties": False,
    }
    # A returned dataclass has every field: all are required, and defaults are not shown.
    output = output_of(Shape)
    assert output is not None
    assert output["required"] == ["name", "corners", "color"]
    assert output["properties"]["color"] == color
    assert output["properties"]["corners"]["items"]["required"] == ["x", "y", "label", "tags"]


def test_dataclasses_are_rebuilt_from_arguments() -> None:
    value = {"name": "tri", "corners": [{"x": 1}, {"x": 2, "y": 3, "tags": ["a"]}]}
    assert call_value(Shape, value) == Shape("tri", [Point(1), Point(2, 3, tags=["a"])], Color.RED)
    assert call_value(Optional[Shape], {"name": "n", "corners": [], "color": "blue"}) == Shape(
        "n", [], Color.BLUE
    )


def test_tagged_dataclass_unions_are_disjoint_and_pick_their_branch() -> None:
    schema = schema_of(Union[Circle, Square])
    assert [branch["properties"]["kind"] for branch in schema["oneOf"]] == [
        {"type": "string", "enum": ["circle"]},
        {"type": "string", "enum": ["square"]},
    ]
    assert call_value(Union[Circle, Square], {"kind": "square", "side": 2}) == Square("square", 2.0)


def test_annotated_strings_become_descriptions() -> None:
    assert schema_of(Annotated[int, "How many."]) == {"type": "integer", "description": "How many."}
    assert schema_of(Optional[Annotated[str, "A name."]]) == {
        "oneOf": [{"type": "string", "description": "A name."}, {"type": "null"}]
    }
    assert schema_of(Annotated[Optional[str], "A name.", 42]) == {
        "description": "A name.",
        "oneOf": [{"type": "string"}, {"type": "null"}],
    }


def test_annotated_text_wins_over_the_docstring_which_wins_over_the_class_docstring() -> None:
    def draw(a: Annotated[int, "From Annotated."], b: int, p: Point, q: Point) -> None:
        """Draw.

        Args:
            a: From the docstring.
            b: Only the docstring.
            p: The origin.
        """

    properties = spec(draw).input_schema["properties"]
    assert properties["a"]["description"] == "From Annotated."
    assert properties["b"]["description"] == "Only the docstring."
    assert properties["p"]["description"] == "The origin."
    assert properties["q"]["description"] == "A point on the plane."


def test_newtype_stands_for_its_type() -> None:
    UserId = NewType("UserId", int)
    assert schema_of(UserId) == {"type": "integer"}
    assert schema_of(list[UserId]) == {"type": "array", "items": {"type": "integer"}}


def test_string_annotations_are_resolved() -> None:
    def f(count: "int", points: "list[Point]") -> "Optional[str]":
        return None

    result = spec(f)
    assert result.input_schema["properties"]["count"] == {"type": "integer"}
    assert result.input_schema["properties"]["points"]["items"] == POINT_INPUT
    assert result.output_schema == {"oneOf": [{"type": "string"}, {"type": "null"}]}


# ---------------------------------------------------------------------------------------
# Docstrings
# ---------------------------------------------------------------------------------------


def test_google_docstrings() -> None:
    def search(query: str, limit: int = 5, sort: str = "asc") -> "list[str]":
        """Search the index.

        Matches are ranked by relevance.

        Args:
            query: What to look for;
                words are ANDed.
            limit (int, optional): At most this many.
            sort: Order.

        Returns:
            list[str]: The matching titles.

        Raises:
            ValueError: Never.
        """
        return []

    result = spec(search)
    assert result.description == "Search the index.\n\nMatches are ranked by relevance."
    assert result.input_schema["properties"] == {
        "query": {"type": "string", "description": "What to look for; words are ANDed."},
        "limit": {"type": "integer", "description": "At most this many.", "default": 5},
        "sort": {"type": "string", "description": "Order.", "default": "asc"},
    }
    assert result.output_schema == {
        "type": "array",
        "description": "The matching titles.",
        "items": {"type": "string"},
    }


def test_numpy_docstrings() -> None:
    def scale(values: "list[float]", factor: float, low: int = 0, high: int = 1) -> float:
        """Scale values.

        Parameters
        ----------
        values : list of float
            The values to scale,
            in order.
        factor : float
            The factor.
        low, high : int
            The bounds.

        Returns
        -------
        float
            The total.
        """
        return 0.0

    result = spec(scale)
    assert result.description == "Scale values."
    properties = result.input_schema["properties"]
    assert properties["values"]["description"] == "The values to scale, in order."
    assert properties["factor"]["description"] == "The factor."
    assert properties["low"]["description"] == properties["high"]["description"] == "The bounds."
    assert result.output_schema == {"type": "number", "description": "The total."}


def test_rest_docstrings() -> None:
    def fetch(url: str, retries: int = 3) -> str:
        """Fetch a page.

        :param url: The address,
            absolute.
        :param int retries: How often to retry.
        :returns: The body.
        :rtype: str
        """
        return ""

    result = spec(fetch)
    assert result.description == "Fetch a page."
    assert result.input_schema["properties"] == {
        "url": {"type": "string", "description": "The address, absolute."},
        "retries": {"type": "integer", "description": "How often to retry.", "default": 3},
    }
    assert result.output_schema == {"type": "string", "description": "The body."}


def test_name_and_description_can_be_given() -> None:
    def f(x: int) -> None:
        """Ignored."""

    result = spec(f, name="renamed", description="Given.")
    assert (result.name, result.description) == ("renamed", "Given.")
    schema = {"type": "object", "properties": {"x": {}}}
    assert spec(lambda x: x, name="anon", input_schema=schema).name == "anon"


def test_no_docstring_means_an_empty_description() -> None:
    def f() -> None:
        pass

    assert spec(f).description == ""


# ---------------------------------------------------------------------------------------
# Defaults, async, callables
# ---------------------------------------------------------------------------------------


def test_only_json_defaults_that_fit_the_schema_are_shown() -> None:
    marker = object()

    def f(
        a: "tuple[int, ...]" = (1, 2),
        b: Color = Color.BLUE,
        d: Any = marker,
        e: float = math.nan,
        f: "Optional[Point]" = None,
        g: int = 2**60,
    ) -> None:
        pass

    properties = spec(f).input_schema["properties"]
    assert properties["a"]["default"] == [1, 2]
    assert properties["b"]["default"] == "blue"
    assert properties["f"]["default"] is None
    for name in "deg":
        assert "default" not in properties[name], name
    assert spec(f).input_schema["required"] == []


def test_a_default_that_is_not_a_value_of_its_annotation_is_refused_at_registration() -> None:
    def f(n: int = "x") -> None:  # type: ignore[assignment]
        pass

    assert refusal(f) == 'tool "f": parameter "n": the default "x" does not match its annotation int'

    def g(when: "list[int]" = [1, "2"]) -> None:  # type: ignore[list-item]  # noqa: B006
        pass

    assert refusal(g) == (
        'tool "g": parameter "when": the default [1, "2"] does not match its annotation list[int]'
    )

    pydantic = pytest.importorskip("pydantic")

    def h(n: Annotated[int, pydantic.Field(ge=0)] = -1) -> None:
        pass

    assert refusal(h) == (
        'tool "h": parameter "n": the default -1 does not match its annotation int '
        "(Input should be greater than or equal to 0, got -1)"
    )
    if sys.version_info >= (3, 11):  # 3.10's get_type_hints makes `int = None` Optional

        def k(n: int = None) -> None:  # type: ignore[assignment]
            pass

        assert refusal(k) == (
            'tool "k": parameter "n": the default null does not match its annotation int; '
            "if None means absent, annotate it `n: int | None = None`"
        )


def test_async_functions_partials_and_callable_objects_are_detected() -> None:
    async def fetch(url: str) -> str:
        return url

    def sync(url: str) -> str:
        return url

    class Client:
        async def __call__(self, url: str) -> str:
            return url

        async def get(self, url: str) -> str:
            return url

    assert spec(fetch).is_async is True
    assert spec(sync).is_async is False
    assert spec(functools.partial(fetch)).is_async is True
    assert spec(Client()).is_async is True
    assert spec(Client().get).is_async is True


def test_partials_bound_methods_and_callable_objects() -> None:
    def search(index: str, query: str, limit: int = 10) -> "list[str]":
        """Search one index."""
        return []

    bound = spec(functools.partial(search, "books"))
    assert (bound.name, bound.description) == ("search", "Search one index.")
    assert bound.param_names == ("query", "limit")
    keyword = spec(functools.partial(search, limit=3))
    assert keyword.input_schema["properties"]["limit"] == {"type": "integer", "default": 3}

    class Counter:
        """Counts things."""

        def __call__(self, step: int) -> int:
            return step

        def add(self, amount: int) -> int:
            return amount

    counter = spec(Counter())
    assert (counter.name, counter.description, counter.param_names) == (
        "Counter",
        "Counts things.",
        ("step",),
    )
    assert spec(Counter().add).param_names == ("amount",)


# ---------------------------------------------------------------------------------------
# Explicit schemas, output schemas
# ---------------------------------------------------------------------------------------


def test_an_explicit_input_schema_replaces_the_hints() -> None:
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "mode": {"type": "string"}},
        "required": ["path"],
    }

    def read(path, mode="r", *, color: Color = Color.RED):  # type: ignore[no-untyped-def]
        return path

    result = spec(read, input_schema=schema)
    assert result.input_schema == schema
    assert result.param_names == ("path", "mode", "color")
    # Annotated parameters still convert; the others pass as they are.
    assert result.to_call_kwargs({"path": "p", "color": "blue"}) == {
        "path": "p",
        "color": Color.BLUE,
    }


def test_an_explicit_input_schema_must_name_the_parameters() -> None:
    def read(path, /, mode="r"):  # type: ignore[no-untyped-def]
        return path

    message = refusal(read, input_schema={"type": "object", "properties": {"path": {}}})
    assert message == (
        'tool "read": parameter "path" is positional-only, so input_schema\'s property "path" '
        "cannot be passed by name"
    )

    def write(path, data):  # type: ignore[no-untyped-def]
        return path

    assert refusal(write, input_schema={"type": "object", "properties": {"path": {}}}) == (
        'tool "write": parameter "data" has no default and is not a property of input_schema'
    )
    assert refusal(
        write, input_schema={"type": "object", "properties": {"path": {}, "data": {}, "x": {}}}
    ) == ('tool "write": input_schema\'s property "x" is not a parameter of the function')

    def anything(**options):  # type: ignore[no-untyped-def]
        return options

    result = spec(anything, input_schema={"type": "object", "properties": {"x": {}}})
    assert result.to_call_kwargs({"x": 1, "y": 2}) == {"x": 1, "y": 2}


def test_output_schemas_follow_the_return_annotation() -> None:
    def nothing() -> None:
        pass

    def unannotated():  # type: ignore[no-untyped-def]
        pass

    def anything() -> Any:
        pass

    assert spec(nothing).output_schema is None
    assert spec(unannotated).output_schema is None
    assert spec(anything).output_schema == {}
    assert output_of(Movie) == schema_of(Movie)
    assert output_of(Color) == schema_of(Color)
    assert output_of(tuple[int, ...]) == {"type": "array", "items": {"type": "integer"}}


def test_output_schema_can_be_given_or_turned_off() -> None:
    def count() -> int:
        return 1

    assert spec(count, output_schema={"type": "number"}).output_schema == {"type": "number"}
    assert spec(count, infer_output=False).output_schema is None

    def odd() -> bytes:
        return b""

    assert refusal(odd) == (
        'tool "odd": return type: bytes is not supported (JSON has no bytes); use str (for '
        "example base64 text) (or pass output_schema= or infer_output=False)"
    )
    assert spec(odd, infer_output=False).output_schema is None


# ---------------------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        (
            datetime.timedelta,
            "timedelta is not supported (pydantic writes it as an ISO 8601 duration, which "
            "codemode does not parse); use float (seconds) or str",
        ),
        (
            decimal.Decimal,
            "Decimal is not supported (a JSON number would lose its exactness); use str and "
            "convert it, or float",
        ),
        (bytes, "bytes is not supported (JSON has no bytes); use str (for example base64 text)"),
        (
            Callable[[int], int],
            "Callable[[int], int] is not supported (a function cannot be sent as JSON)",
        ),
        (
            dict[int, str],
            "dict[int, str] is not supported (JSON object keys are strings); use dict[str, str]",
        ),
        (
            Optional[bytes],
            "bytes is not supported (JSON has no bytes); use str (for example base64 text)",
        ),
    ],
)
def test_unsupported_types_are_refused_naming_the_parameter(annotation: Any, message: str) -> None:
    def search(limit):  # type: ignore[no-untyped-def]
        pass

    search.__annotations__ = {"limit": annotation}
    assert refusal(search) == f'tool "search": parameter "limit": {message}'


def test_plain_classes_are_refused() -> None:
    class Engine:
        pass

    def run(engine: Engine) -> None:
        pass

    assert refusal(run).startswith(
        'tool "run": parameter "engine": Engine is not supported (a JSON Schema needs str, int,'
    )


def test_recursive_types_are_refused() -> None:
    def walk(tree: TreeNode) -> None:
        pass

    assert refusal(walk) == (
        'tool "walk": parameter "tree": TreeNode.children: TreeNode contains itself (the schema '
        "subset has no $ref, so a recursive type cannot be expressed)"
    )


def test_errors_inside_a_class_name_its_field() -> None:
    @dataclasses.dataclass
    class Query:
        words: bytes

    def find(query: Query) -> None:
        pass

    assert refusal(find) == (
        'tool "find": parameter "query": Query.words: bytes is not supported '
        "(JSON has no bytes); use str (for example base64 text)"
    )


def test_overlapping_unions_are_refused() -> None:
    @dataclasses.dataclass
    class A:
        x: int = 0

    @dataclasses.dataclass
    class B:
        y: int = 0

    def f(item: Union[A, B]) -> None:
        pass

    message = refusal(f)
    assert message.startswith('tool "f": parameter "item": A | B is not supported (A and B both')
    assert "oneOf needs exactly one branch to match" in message

    def g(mode: Union[str, Literal["fast"]]) -> None:
        pass

    assert "Literal['fast'] and str both accept some JSON values" in refusal(g)

    def h(a: Union[list[int], list[str]]) -> None:
        pass

    assert "list[int] and list[str] both accept" in refusal(h)


def test_parameters_without_annotations_are_refused() -> None:
    def f(a: int, b) -> None:  # type: ignore[no-untyped-def]
        pass

    assert refusal(f) == (
        'tool "f": parameter "b" has no type annotation; annotate it (for example `b: str`) '
        "or pass input_schema="
    )


def test_variadic_and_positional_only_parameters_are_refused() -> None:
    def star(*items: int) -> None:
        pass

    def stars(**options: int) -> None:
        pass

    def slash(a: int, /) -> None:
        pass

    assert refusal(star) == (
        'tool "star": parameter "items": *items is not supported (tool arguments are one JSON '
        "object of named properties); declare each parameter"
    )
    assert refusal(stars).startswith(
        'tool "stars": parameter "options": **options is not supported'
    )
    assert refusal(slash) == (
        'tool "slash": parameter "a" is positional-only, so it cannot be passed by name; '
        "remove the `/`"
    )


def test_unbound_methods_are_refused() -> None:
    class Tools:
        def search(self, query: str) -> None:
            pass

    assert refusal(Tools.search) == (
        'tool "search": parameter "self": an unbound method is not a tool; register a function '
        "or a bound method"
    )


def test_enums_and_literals_with_values_a_schema_cannot_list_are_refused() -> None:
    class Ratio(enum.Enum):
        HALF = 0.5

    def f(r: Ratio) -> None:
        pass

    assert refusal(f) == (
        'tool "f": parameter "r": Ratio.HALF has the value 0.5; enum values must be str or int'
    )

    def g(r: Literal[b"x"]) -> None:
        pass

    assert refusal(g) == (
        "tool \"g\": parameter \"r\": Literal[b'x'] has the value b'x'; a schema enum takes "
        "str, int, bool or None values"
    )


def test_bad_names_and_unresolvable_hints_are_refused() -> None:
    assert refusal(lambda: None) == "a lambda has no name; pass name="
    assert refusal(len, name="two words").startswith('tool "two words" cannot be registered')

    def f(x: "Missing") -> None:  # type: ignore[name-defined]  # noqa: F821
        pass

    assert refusal(f) == (
        "tool \"f\": its type hints cannot be resolved (NameError: name 'Missing' is not defined)"
    )


# ---------------------------------------------------------------------------------------
# to_call_kwargs
# ---------------------------------------------------------------------------------------


def test_to_call_kwargs_converts_nested_values() -> None:
    def draw(shapes: "list[Shape]", level: Optional[Level] = None, flags: "dict[str, bool]" = {}):  # type: ignore[no-untyped-def]  # noqa: B006
        return shapes

    result = spec(draw)
    kwargs = result.to_call_kwargs(
        {"shapes": [{"name": "s", "corners": [{"x": 0, "label": "o"}]}], "level": 1}
    )
    assert kwargs == {"shapes": [Shape("s", [Point(0, label="o")])], "level": Level.LOW}
    assert draw(**kwargs) == kwargs["shapes"]


def test_to_call_kwargs_reports_mismatches_with_their_path() -> None:
    def draw(shape: Shape, count: int = 1) -> None:
        pass

    result = spec(draw)
    cases = [
        ({"count": 1}, "$.shape: required property is missing"),
        (
            {"shape": {"name": "s", "corners": []}, "other": 1},
            '$.other: unknown parameter of tool "draw"',
        ),
        (
            {"shape": {"name": "s", "corners": [{"x": "1"}]}},
            "$.shape.corners[0].x: expected integer, got string",
        ),
        (
            {"shape": {"name": "s", "corners": [], "extra": 1}},
            "$.shape.extra: unknown property of Shape",
        ),
        ({"shape": {"name": "s"}}, "$.shape.corners: required property is missing"),
        (
            {"shape": {"name": "s", "corners": [], "color": "green"}},
            '$.shape.color: expected one of "red", "blue", got "green"',
        ),
    ]
    for arguments, message in cases:
        with pytest.raises(ToolArgumentError) as caught:
            result.to_call_kwargs(arguments)
        assert str(caught.value) == message


def test_errors_raised_while_building_a_dataclass_become_argument_errors() -> None:
    @dataclasses.dataclass
    class Positive:
        n: int

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError("n must be positive")

    with pytest.raises(
        ToolArgumentError, match=r"^\$\.x: Positive refused the value: n must be positive$"
    ):
        call_value(Positive, {"n": 0})


# ---------------------------------------------------------------------------------------
# to_json
# ---------------------------------------------------------------------------------------


def test_to_json_turns_results_into_json_data() -> None:
    value = {
        "shape": Shape("s", [Point(1, tags=["a"])]),
        "pair": (1, Level.HIGH),
        "movie": Movie(title="X", year=2000),
        "zero": -0.0,
        "none": None,
    }
    assert to_json(value) == {
        "shape": {
            "name": "s",
            "corners": [{"x": 1, "y": 0, "label": None, "tags": ["a"]}],
            "color": "red",
        },
        "pair": [1, 2],
        "movie": {"title": "X", "year": 2000},
        "zero": 0.0,
        "none": None,
    }
    assert math.copysign(1, to_json(-0.0)) == 1
    shared = [1]
    assert to_json([shared, shared]) == [[1], [1]]
    assert spec(function_of(int), name="f").to_json(Color.RED) == "red"


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        0,
        -(2**53 - 1),
        1.5,
        -0.0,
        "",
        "é\u2028",
        {},
        {"a": 1, "b": None, "c": "x", "d": -0.0, "e": False, "f": 2**53 - 1},
        {"level": Level.HIGH, "n": 1},
        {"nested": {"a": [1]}},
        Level.HIGH,
    ],
)
def test_to_json_of_common_shapes_is_what_the_walk_gives(value: Any) -> None:
    # Plain scalars and flat dicts take a shorter path; it must agree with the walk.
    fast = to_json(value)
    walked = codemode._hints._to_json_walk(value)
    assert json.dumps(fast) == json.dumps(walked)
    assert type(fast) is type(walked)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"items": [1, 2, {3: b"x"}]}, "$.items[2]: the dict key 3 is not a string (JSON keys are)"),
        ([b"x"], "$[0]: a bytes value is not JSON"),
        ({"a": object()}, "$.a: a value of type object is not JSON"),
        (
            {"a b": [math.nan]},
            '$["a b"][0]: nan is not JSON (NaN and infinities have no JSON form)',
        ),
        ([math.inf], "$[0]: inf is not JSON (NaN and infinities have no JSON form)"),
        ({1: "x"}, "$: the dict key 1 is not a string (JSON keys are)"),
        (
            {"id": 2**53},
            "$.id: integer 9007199254740992 is outside ±9007199254740991 and would change as a "
            "JavaScript number",
        ),
        ("\ud800", "$: a string with a lone surrogate is not UTF-8 text"),
        (Point(1, tags=[b"a"]), "$.tags[0]: a bytes value is not JSON"),  # type: ignore[list-item]
    ],
)
def test_to_json_refuses_what_has_no_json_form_naming_the_path(value: Any, message: str) -> None:
    with pytest.raises(ToolResultError) as caught:
        to_json(value)
    assert str(caught.value) == message
    assert isinstance(caught.value, TypeError)


def test_to_json_refuses_cycles_and_deep_values_without_recursing() -> None:
    cycle: "list[Any]" = [1]
    cycle.append(cycle)
    with pytest.raises(ToolResultError, match=r"^\$\[1\]: the value contains itself"):
        to_json(cycle)
    deep: Any = []
    for _ in range(4_999):
        deep = [deep]
    assert to_json(deep) is not None  # 5,000 levels: deeper than Python's recursion limit
    with pytest.raises(ToolResultError, match="value nests deeper than 5000 levels"):
        to_json([deep])


# ---------------------------------------------------------------------------------------
# pydantic (optional)
# ---------------------------------------------------------------------------------------


def test_the_module_never_imports_pydantic() -> None:
    root = Path(codemode._hints.__file__).resolve().parents[1]
    code = (
        f"import sys; sys.path.insert(0, {str(root)!r}); import codemode._hints; "
        "print('pydantic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_pydantic_models_become_subset_schemas() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Address(pydantic.BaseModel):
        """Where."""

        city: str
        zip: Optional[str] = None

    class Person(pydantic.BaseModel):
        name: str = pydantic.Field(description="Full name.", min_length=1)
        age: int = 0
        home: Address
        others: "list[Address]" = []
        color: Color = Color.RED
        score: Union[int, float] = 0

    def save(person: Person) -> Person:
        return person

    result = spec(save)
    address = {
        "type": "object",
        "description": "Where.",
        "properties": {
            "city": {"type": "string"},
            "zip": {"oneOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
        "required": ["city"],
    }
    assert result.input_schema["properties"]["person"] == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Full name. (minLength: 1)"},
            "age": {"type": "integer", "default": 0},
            "home": address,
            "others": {"type": "array", "items": address, "default": []},
            "color": {
                "type": "string",
                "description": "A colour.",
                "enum": ["red", "blue"],
                "default": "red",
            },
            "score": {"type": "number", "default": 0},
        },
        "required": ["name", "home"],
    }
    assert result.output_schema is not None
    assert result.output_schema["properties"]["home"] == address


def test_pydantic_arguments_and_results_round_trip() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Cat(pydantic.BaseModel):
        kind: Literal["cat"]
        lives: int = 9

    class Dog(pydantic.BaseModel):
        kind: Literal["dog"]

    class Owner(pydantic.BaseModel):
        pet: Union[Cat, Dog] = pydantic.Field(discriminator="kind")
        level: Level = Level.LOW

    def adopt(owner: Owner, extra: Optional[list[Owner]] = None) -> Owner:
        return owner

    result = spec(adopt)
    pet = result.input_schema["properties"]["owner"]["properties"]["pet"]
    assert [b["properties"]["kind"] for b in pet["oneOf"]] == [
        {"type": "string", "const": "cat"},
        {"type": "string", "const": "dog"},
    ]
    kwargs = result.to_call_kwargs({"owner": {"pet": {"kind": "dog"}, "level": 2}})
    assert kwargs == {"owner": Owner(pet=Dog(kind="dog"), level=Level.HIGH)}
    assert result.to_json(adopt(**kwargs)) == {"pet": {"kind": "dog"}, "level": 2}
    with pytest.raises(ToolArgumentError, match=r"^\$\.owner: Owner refused the value"):
        result.to_call_kwargs({"owner": {"pet": {"kind": "cow"}}})


def test_pydantic_models_the_subset_cannot_express_are_refused() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Tree(pydantic.BaseModel):
        kids: "list[Tree]" = []

    class Pair(pydantic.BaseModel):
        both: "tuple[int, str]"

    def grow(tree: Tree) -> None:
        pass

    def pair(p: Pair) -> None:
        pass

    assert refusal(grow) == (
        'tool "grow": parameter "tree": Tree: Tree refers to itself (the schema subset has no '
        "$ref, so a recursive model cannot be expressed)"
    )
    assert refusal(pair) == (
        'tool "pair": parameter "p": Pair: fixed-length tuples (prefixItems) cannot be expressed '
        "in the schema subset; use a list"
    )
