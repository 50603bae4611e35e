"""Turning a Python function into a codemode tool description.

``tool_spec(fn)`` reads a function's signature, type hints and docstring and returns a
:class:`ToolSpec`: the tool's name, description, input schema and output schema, plus the
two conversions a host needs around a call (:meth:`ToolSpec.to_call_kwargs` for the
validated JSON arguments, :meth:`ToolSpec.to_json` for the result).

The schema subset this module relies on
---------------------------------------
Every schema emitted here stays inside codemode's *enforced* JSON Schema subset, as parsed
by ``JsonSchema::parse`` in ``src/schema/subset.rs`` (``Parser::enter`` and its helpers; the
tree is ``src/schema/model.rs``, the summary ``docs/library.md``):

- ``type`` is one name (``object``, ``array``, ``string``, ``number``, ``integer``,
  ``boolean``, ``null``); type arrays are refused ("use oneOf") -- ``declared_type``.
- ``properties``, ``required`` (declared names, each once) and ``additionalProperties``
  (``true``/``false`` only, *never a schema*) need ``"type": "object"``;
  ``items`` (one schema, never a tuple array) needs ``"type": "array"`` --
  ``keywords_need_their_type``, ``additional_properties``, ``required``, ``items``.
- ``enum``/``const``: non-empty, distinct *scalar* values matching a scalar ``type`` on the
  same node -- ``enum_and_const``.
- ``oneOf``: at least two branches, alone on its node but for annotations -- ``one_of_alone``;
  exactly one branch may match (``src/schema/validate.rs``, ``one_of_verdict``), so union
  branches here are always pairwise disjoint (``int | float`` becomes ``number``).
- Annotations ``description``, ``title``, ``default``, ``examples`` anywhere; ``default`` and
  ``examples`` must be lossless JSON (``src/json/mod.rs``, ``check_lossless``: no NaN/inf,
  no -0, integers within +-(2**53 - 1)) -- ``annotations``.
- ``{}`` accepts any JSON value (``Shape::Any``); ``integer`` accepts ``2.0``
  (``JsonType::matches``).
- Nothing else: no ``$ref``/``$defs`` (so recursive types are refused), ``anyOf``,
  ``allOf``, ``format``, ``minimum``, ``pattern``, ``prefixItems``...

So ``Optional[T]`` is ``{"oneOf": [T, {"type": "null"}]}``; ``dict[str, T]`` is an open
``{"type": "object", "additionalProperties": true}`` whose values
:meth:`ToolSpec.to_call_kwargs` checks itself; a pydantic model's ``$ref``s are inlined,
its ``anyOf`` becomes ``oneOf`` (disjoint branches only), the checks pydantic makes itself
on ``model_validate`` (``format``, ``minimum``, ``maxLength``...) move into the description,
and a recursive model or a fixed-length tuple is refused.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import functools
import inspect
import json
import math
import re
import sys
import types
import typing
import unicodedata
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from . import _limits

__all__ = [
    "ToolArgumentError",
    "ToolDefinitionError",
    "ToolResultError",
    "ToolSpec",
    "to_json",
    "tool_spec",
]

_Schema = dict[str, Any]
_Converter = Callable[[Any, str], Any]

_MAX_SAFE_INTEGER = _limits.MAX_SAFE_INTEGER
#: How deep a result value may nest: the registry's default ``max_json_depth``.
_MAX_VALUE_DEPTH = _limits.DEFAULT_VALUE_DEPTH
_MAX_TOOL_NAME = _limits.MAX_TOOL_NAME


class ToolDefinitionError(TypeError):
    """A function cannot be described as a tool (raised by :func:`tool_spec`)."""


class ToolArgumentError(ValueError):
    """Arguments do not fit the function's annotations (raised by ``to_call_kwargs``)."""


class ToolResultError(TypeError):
    """A tool's return value has no JSON form (raised by :func:`to_json`)."""


class _Unsupported(Exception):
    """An annotation outside what a schema can say; the caller adds tool and parameter."""


# ---------------------------------------------------------------------------------------
# The public API
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ToolSpec:
    """What a tool registry needs to know about a Python function."""

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    is_async: bool
    param_names: tuple[str, ...]
    _converters: Mapping[str, _Converter] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )
    _required: tuple[str, ...] = dataclasses.field(default=(), repr=False, compare=False)
    _open: bool = dataclasses.field(default=False, repr=False, compare=False)

    def to_call_kwargs(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The keyword arguments to call the function with, from validated JSON arguments:
        objects become the dataclass, TypedDict, Enum or pydantic values the annotations
        name. Raises :class:`ToolArgumentError` (with the value's path) on a mismatch."""
        if not isinstance(arguments, Mapping):
            raise ToolArgumentError(f"$: expected object, got {_json_kind(arguments)}")
        missing = [name for name in self._required if name not in arguments]
        if missing:
            raise ToolArgumentError(f"{_key_path('$', missing[0])}: required property is missing")
        kwargs: dict[str, Any] = {}
        for key, value in arguments.items():
            path = _key_path("$", key)
            convert = self._converters.get(key)
            if convert is not None:
                kwargs[key] = convert(value, path)
            elif key in self.param_names or self._open:
                kwargs[key] = value
            else:
                raise ToolArgumentError(f"{path}: unknown parameter of tool {_q(self.name)}")
        return kwargs

    def to_json(self, value: Any) -> Any:
        """The tool's return value as JSON data (see :func:`to_json`)."""
        return to_json(value)


def tool_spec(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    output_schema: Mapping[str, Any] | None = None,
    infer_output: bool = True,
) -> ToolSpec:
    """Describes ``fn`` as a tool; raises :class:`ToolDefinitionError` when it cannot be.

    The input schema comes from the type hints (or is ``input_schema``), the description
    and the parameters' descriptions from the docstring (Google, NumPy or reST style), the
    output schema from the return annotation (when ``infer_output``; ``output_schema``
    overrides it).
    """
    if not callable(fn):
        raise ToolDefinitionError(f"{fn!r} is not callable")
    if isinstance(fn, type):
        raise ToolDefinitionError(f"{fn.__name__} is a class; register a function")
    tool = name if name is not None else _default_name(fn)
    _check_name(tool)
    label = f"tool {_q(tool)}"
    doc = _parse_doc(_doc_of(fn))
    signature = _signature(fn, label)
    hints = _hints_of(fn, label, required=input_schema is None)
    if input_schema is None:
        params = _Params.from_hints(signature, hints, doc, label, _documentable(fn))
    else:
        params = _Params.from_schema(signature, hints, input_schema, label)
    return ToolSpec(
        name=tool,
        description=description if description is not None else doc.summary,
        input_schema=params.schema,
        output_schema=_output_schema(hints, doc, output_schema, infer_output, label),
        is_async=_is_async(fn),
        param_names=params.names,
        _converters=params.converters,
        _required=params.required,
        _open=params.open,
    )


# ---------------------------------------------------------------------------------------
# Functions: names, signatures, hints, parameters
# ---------------------------------------------------------------------------------------


def _q(text: str) -> str:
    """``text`` in double quotes, as messages show names."""
    return json.dumps(text, ensure_ascii=False)


def _unwrap_partial(fn: Any) -> Any:
    while isinstance(fn, functools.partial):
        fn = fn.func
    return fn


def _is_plain_function(fn: Any) -> bool:
    return inspect.isfunction(fn) or inspect.ismethod(fn) or inspect.isbuiltin(fn)


def _default_name(fn: Any) -> str:
    target = _unwrap_partial(fn)
    name = getattr(target, "__name__", None) if _is_plain_function(target) else None
    if name is None:
        name = type(target).__name__
    if name == "<lambda>":
        raise ToolDefinitionError("a lambda has no name; pass name=")
    return str(name)


def _check_name(name: str) -> None:
    """The rule of ``tool_name_problem`` (``src/tool/definition.rs``)."""
    problem = None
    if not name:
        problem = "its name is empty"
    elif len(name) > _MAX_TOOL_NAME:
        problem = f"its name is longer than {_MAX_TOOL_NAME} characters"
    elif any(c.isspace() or unicodedata.category(c) == "Cc" for c in name):
        problem = f"its name {_q(name)} contains whitespace or control characters"
    if problem is not None:
        raise ToolDefinitionError(f"tool {_q(name)} cannot be registered: {problem}")


def _doc_of(fn: Any) -> str | None:
    target = _unwrap_partial(fn)
    if _is_plain_function(target):
        return inspect.getdoc(target)
    call = getattr(type(target), "__call__", None)
    doc = type(target).__doc__ or getattr(call, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) else None


def _documentable(fn: Any) -> frozenset[str] | None:
    """The parameter names a plain function's docstring may describe (under partials, the
    function's own), or ``None`` for what is not a plain function."""
    target = _unwrap_partial(fn)
    if not _is_plain_function(target):
        return None
    try:
        names = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return None
    return frozenset(names) | frozenset(f"*{n}" for n in names) | frozenset(f"**{n}" for n in names)


def _signature(fn: Any, label: str) -> inspect.Signature:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise ToolDefinitionError(f"{label}: its signature cannot be read ({exc})") from None


def _hints_of(fn: Any, label: str, *, required: bool) -> dict[str, Any]:
    """The type hints of ``fn`` (of the function under partials, of ``__call__`` for a
    callable object); when they are optional (an explicit input schema), ``{}`` on failure."""
    target = _unwrap_partial(fn)
    if not _is_plain_function(target):
        target = getattr(type(target), "__call__", None)
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception as exc:  # NameError, TypeError, SyntaxError from string annotations
        if not required:
            return {}
        message = f"{label}: its type hints cannot be resolved ({type(exc).__name__}: {exc})"
        raise ToolDefinitionError(message) from None


def _is_async(fn: Any) -> bool:
    target = _unwrap_partial(fn)
    if inspect.iscoroutinefunction(target):
        return True
    if _is_plain_function(target):
        return False
    return inspect.iscoroutinefunction(getattr(target, "__call__", None))


@dataclasses.dataclass(frozen=True)
class _Params:
    """A function's parameters as a tool sees them."""

    schema: _Schema
    names: tuple[str, ...]
    converters: dict[str, _Converter]
    required: tuple[str, ...]
    open: bool

    @staticmethod
    def from_hints(
        signature: inspect.Signature,
        hints: Mapping[str, Any],
        doc: _Doc,
        label: str,
        known: frozenset[str] | None = None,
    ) -> _Params:
        """``known``: the names a docstring may describe (the function's own parameters,
        also those a partial binds); ``None``: not checked (a callable object's class
        docstring describes its attributes)."""
        properties: dict[str, _Schema] = {}
        required: list[str] = []
        converters: dict[str, _Converter] = {}
        for index, param in enumerate(signature.parameters.values()):
            where = f"{label}: parameter {_q(param.name)}"
            _check_kind(param, index, where, explicit=False)
            if param.name not in hints:
                raise ToolDefinitionError(
                    f"{where} has no type annotation; annotate it (for example "
                    f"`{param.name}: str`) or pass input_schema="
                )
            try:
                node = _compile(hints[param.name], _Ctx(output=False))
            except _Unsupported as exc:
                raise ToolDefinitionError(f"{where}: {exc}") from None
            node = node.documented(doc.params.get(param.name))
            if param.default is inspect.Parameter.empty:
                required.append(param.name)
            else:
                try:
                    node = node.with_default(param.default)
                except _BadDefault as bad:
                    why = f" ({bad.why})" if bad.why else ""
                    hint = (
                        f"; if None means absent, annotate it `{param.name}: "
                        f"{_type_name(hints[param.name])} | None = None`"
                        if param.default is None
                        else ""
                    )
                    raise ToolDefinitionError(
                        f"{where}: the default {_show(bad.value)} does not match its "
                        f"annotation {_type_name(hints[param.name])}{why}{hint}"
                    ) from None
            properties[param.name] = node.schema
            converters[param.name] = node.convert
        stray = [name for name in doc.params if known is not None and name not in known]
        if stray:
            listed = ", ".join(_q(name) for name in properties) or "none"
            raise ToolDefinitionError(
                f"{label}: the docstring describes "
                + ", ".join(f"parameter {_q(name)}" for name in stray)
                + f", which the function does not have (its parameters: {listed}); "
                "fix the docstring or the name"
            )
        schema = _closed_object(properties, required)
        names = tuple(properties)
        return _Params(schema, names, converters, tuple(required), open=False)

    @staticmethod
    def from_schema(
        signature: inspect.Signature,
        hints: Mapping[str, Any],
        schema: Mapping[str, Any],
        label: str,
    ) -> _Params:
        if not isinstance(schema, Mapping):
            raise ToolDefinitionError(f"{label}: input_schema must be a dict (a JSON Schema)")
        declared = schema.get("properties", {})
        if not isinstance(declared, Mapping):
            raise ToolDefinitionError(f"{label}: input_schema's properties must be a dict")
        names: list[str] = []
        converters: dict[str, _Converter] = {}
        open_kwargs = False
        for index, param in enumerate(signature.parameters.values()):
            where = f"{label}: parameter {_q(param.name)}"
            _check_kind(param, index, where, explicit=True)
            if param.kind is inspect.Parameter.VAR_KEYWORD:
                open_kwargs = True
                continue
            if param.kind is inspect.Parameter.VAR_POSITIONAL:
                continue
            if param.kind is inspect.Parameter.POSITIONAL_ONLY:
                if param.name in declared:
                    raise ToolDefinitionError(
                        f"{where} is positional-only, so input_schema's property "
                        f"{_q(param.name)} cannot be passed by name"
                    )
                continue
            names.append(param.name)
            if param.default is inspect.Parameter.empty and param.name not in declared:
                raise ToolDefinitionError(
                    f"{where} has no default and is not a property of input_schema"
                )
            convert = _optional_converter(hints.get(param.name))
            if convert is not None:
                converters[param.name] = convert
        for key in declared:
            if key not in names and not open_kwargs:
                raise ToolDefinitionError(
                    f"{label}: input_schema's property {_q(key)} is not a parameter of the function"
                )
        return _Params(dict(schema), tuple(names), converters, (), open=open_kwargs)


def _check_kind(param: inspect.Parameter, index: int, where: str, *, explicit: bool) -> None:
    """Refuses parameters a JSON object of named arguments cannot fill."""
    kind = param.kind
    if index == 0 and param.name in ("self", "cls"):
        raise ToolDefinitionError(
            f"{where}: an unbound method is not a tool; register a function or a bound method"
        )
    if explicit:
        return
    if kind is inspect.Parameter.VAR_POSITIONAL:
        raise ToolDefinitionError(
            f"{where}: *{param.name} is not supported (tool arguments are one JSON object of "
            "named properties); declare each parameter"
        )
    if kind is inspect.Parameter.VAR_KEYWORD:
        raise ToolDefinitionError(
            f"{where}: **{param.name} is not supported (a schema needs every property "
            "declared); declare each parameter, or pass input_schema="
        )
    if kind is inspect.Parameter.POSITIONAL_ONLY:
        raise ToolDefinitionError(
            f"{where} is positional-only, so it cannot be passed by name; remove the `/`"
        )


def _optional_converter(hint: Any) -> _Converter | None:
    """The converter of ``hint`` beside an explicit schema: ``None`` (pass the value as it
    is) when there is no hint or no schema can describe it."""
    if hint is None:
        return None
    try:
        return _compile(hint, _Ctx(output=False)).convert
    except _Unsupported:
        return None


def _output_schema(
    hints: Mapping[str, Any],
    doc: _Doc,
    explicit: Mapping[str, Any] | None,
    infer: bool,
    label: str,
) -> _Schema | None:
    if explicit is not None:
        if not isinstance(explicit, Mapping):
            raise ToolDefinitionError(f"{label}: output_schema must be a dict (a JSON Schema)")
        return dict(explicit)
    if not infer or "return" not in hints:
        return None
    annotation = hints["return"]
    if annotation is None or annotation is type(None):
        return None
    try:
        node = _compile(annotation, _Ctx(output=True))
    except _Unsupported as exc:
        raise ToolDefinitionError(
            f"{label}: return type: {exc} (or pass output_schema= or infer_output=False)"
        ) from None
    return node.documented(doc.returns or None).schema


def _closed_object(properties: dict[str, _Schema], required: list[str]) -> _Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


# ---------------------------------------------------------------------------------------
# Annotations -> schema + converter
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Ctx:
    """Where a compile is: output schemas (every dataclass field present, no defaults) or
    input ones; the classes being compiled (a recursive type cannot be expressed); the
    innermost class field, for messages."""

    output: bool
    active: tuple[type, ...] = ()
    where: str = ""

    def inside(self, cls: type) -> _Ctx:
        if cls in self.active:
            raise _Unsupported(
                f"{self.where}{cls.__name__} contains itself (the schema subset has no $ref, "
                "so a recursive type cannot be expressed)"
            )
        return dataclasses.replace(self, active=(*self.active, cls))

    def at(self, cls: type, field: str) -> _Ctx:
        return dataclasses.replace(self, where=f"{cls.__name__}.{field}: ")


@dataclasses.dataclass(frozen=True)
class _Node:
    """One annotation compiled: its schema, and how a JSON value becomes its Python value.
    ``pinned`` says the description came from ``Annotated`` (nothing overrides it)."""

    schema: _Schema
    convert: _Converter
    pinned: bool = False
    #: What the schema subset cannot say and the converter checks (``(format: uuid)``,
    #: ``(minimum: 0)``): kept after whatever description the node gets.
    note: str = ""

    def documented(self, text: str | None, *, pin: bool = False) -> _Node:
        if not text or self.pinned:
            return self
        described = f"{text} {self.note}" if self.note else text
        return _Node(_annotate(self.schema, description=described), self.convert, pin, self.note)

    def noted(self, note: str) -> _Node:
        """This node with ``note`` (a check the converter makes) after its description."""
        if not note:
            return self
        text = self.schema.get("description")
        if isinstance(text, str) and text:
            described = f"{text} {note}"
        else:
            described = note
        combined = f"{self.note} {note}" if self.note else note
        return _Node(
            _annotate(self.schema, description=described), self.convert, self.pinned, combined
        )

    def with_default(self, default: Any) -> _Node:
        """This node with ``default`` in its schema. A default with a JSON form must be a
        value of the annotation (``_BadDefault`` otherwise); one without (a sentinel
        object) stays out of the schema, and the function gets it when the argument is
        absent."""
        try:
            value = to_json(default)
        except ToolResultError:
            return self
        if not _matches(self.schema, value):
            raise _BadDefault(value)
        try:
            self.convert(value, "$")
        except ToolArgumentError as exc:
            raise _BadDefault(value, str(exc).removeprefix("$: ")) from None
        return _Node(
            _annotate(self.schema, default=value), self.convert, self.pinned, self.note
        )


class _BadDefault(Exception):
    """A parameter's default that is not a value of its annotation."""

    def __init__(self, value: Any, why: str = "") -> None:
        super().__init__(why)
        self.value = value
        self.why = why


_KEY_ORDER = {
    key: rank
    for rank, key in enumerate(
        (
            "type",
            "description",
            "oneOf",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "enum",
            "const",
            "default",
            "examples",
        )
    )
}


def _annotate(schema: _Schema, **annotations: Any) -> _Schema:
    """A copy of ``schema`` with ``annotations`` set, its keys in a readable order."""
    merged = {**schema, **annotations}
    return dict(sorted(merged.items(), key=lambda item: _KEY_ORDER.get(item[0], len(_KEY_ORDER))))


def _unsupported(ctx: _Ctx, tp: Any, why: str, hint: str | None = None) -> _Unsupported:
    text = f"{ctx.where}{_type_name(tp)} is not supported ({why})"
    return _Unsupported(f"{text}; {hint}" if hint else text)


def _type_name(tp: Any) -> str:
    """How an annotation is written: ``list[int]``, ``int | None``, ``Point``."""
    if tp is None or tp is type(None):
        return "None"
    if tp is Ellipsis:
        return "..."
    if isinstance(tp, (list, tuple)):
        return "[" + ", ".join(_type_name(item) for item in tp) + "]"
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        return _type_name(args[0])
    if origin is Union or origin is types.UnionType:
        return " | ".join(_type_name(arg) for arg in args)
    if origin is Literal:
        return "Literal[" + ", ".join(repr(arg) for arg in args) + "]"
    if origin is not None:
        base = getattr(origin, "__name__", None) or repr(origin).replace("typing.", "")
        return f"{base}[{', '.join(_type_name(arg) for arg in args)}]" if args else base
    if isinstance(tp, type):
        return tp.__name__
    return re.sub(r"\btyping\.", "", repr(tp))


_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_SEQUENCES = (
    list,
    collections.abc.Sequence,
    collections.abc.MutableSequence,
    collections.abc.Collection,
    collections.abc.Iterable,
)
_MAPPINGS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)
_SETS = (set, frozenset, collections.abc.Set, collections.abc.MutableSet)
_BYTES = (bytes, bytearray, memoryview)
_AS_STRING = ("datetime", "date", "time", "timedelta", "UUID", "Path", "PurePath", "Decimal")


def _compile(tp: Any, ctx: _Ctx) -> _Node:
    """The schema and converter of annotation ``tp``; :class:`_Unsupported` outside them."""
    tp = _unalias(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        return _compile_annotated(tp, ctx)
    if tp is Any or tp is object:
        return _Node({}, _passthrough)
    if tp is None or tp is type(None):
        return _Node({"type": "null"}, _convert_none)
    if origin is None and isinstance(tp, type) and tp in _SCALARS:
        return _Node({"type": _SCALARS[tp]}, _SCALAR_CONVERTERS[tp])
    if origin is Literal:
        return _one_of([(_type_name(tp), n) for n in _literal_nodes(args, tp, ctx)], tp, ctx)
    if origin is Union or origin is types.UnionType:
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) == 1 < len(args) and _admits_none(rest[0]):
            # `Optional[Annotated[T | None, ...]]`: what Python 3.10's get_type_hints
            # makes of `x: Annotated[T | None, ...] = None`; the inner one says it all.
            return _compile(rest[0], ctx)
        return _compile_union(args, tp, ctx)
    if origin is not None and origin in _requiredness_forms():
        return _compile(args[0], ctx)
    if origin is tuple or tp is tuple:
        return _compile_tuple(tp, args, ctx)
    if origin in _SEQUENCES or tp in _SEQUENCES:
        return _compile_array(args[0] if args else None, list, ctx)
    if origin in _MAPPINGS or tp in _MAPPINGS:
        return _compile_mapping(tp, args, ctx)
    if origin in _SETS or tp in _SETS:
        return _compile_set(tp, origin, args, ctx)
    if origin is None and isinstance(tp, type):
        text_format = _text_format(tp)
        if text_format is not None:
            return _compile_text_format(tp, text_format)
        return _compile_class(tp, ctx)
    raise _refusal(tp, origin, args, ctx)


# Values written as text (FastMCP's and pydantic's JSON Schema ``format``s) -----------------
#
# The subset has no ``format``: the schema is ``{"type": "string"}`` with the format in the
# description, and the converter parses the text (refusing what does not parse). Matched by
# module and name, so nothing is imported until such a value is converted.

#: (module, class name) -> the JSON Schema format pydantic gives the class.
_TEXT_FORMATS: dict[tuple[str, str], str] = {
    ("datetime", "datetime"): "date-time",
    ("datetime", "date"): "date",
    ("datetime", "time"): "time",
    ("uuid", "UUID"): "uuid",
    ("pathlib", "Path"): "path",
    ("pathlib", "PurePath"): "path",
    ("pathlib", "PosixPath"): "path",
    ("pathlib", "PurePosixPath"): "path",
}


def _text_format(cls: type) -> str | None:
    """The format of ``cls`` when its values are written as text (exactly those classes:
    a subclass may not parse the same text)."""
    module = cls.__module__
    if module.startswith("pathlib."):  # 3.13: pathlib._local
        module = "pathlib"
    return _TEXT_FORMATS.get((module, cls.__name__))


def _parse_text(cls: type, text: str) -> Any:
    fmt = _text_format(cls)
    parse: Any
    if fmt in ("date-time", "date", "time"):
        if sys.version_info < (3, 11) and text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"  # 3.10's fromisoformat has no `Z`
        parse = cls.fromisoformat  # type: ignore[attr-defined]
    else:
        parse = cls
    return parse(text)


def _compile_text_format(cls: type, fmt: str) -> _Node:
    examples = {
        "date-time": "2024-05-01T12:30:00Z",
        "date": "2024-05-01",
        "time": "12:30:00",
        "uuid": "123e4567-e89b-12d3-a456-426614174000",
        "path": "dir/file.txt",
    }

    def convert(value: Any, path: str) -> Any:
        if not isinstance(value, str):
            raise _mismatch("string", value, path)
        try:
            return _parse_text(cls, value)
        except (TypeError, ValueError) as exc:
            raise ToolArgumentError(
                f"{path}: {_show(value)} is not a {fmt} ({cls.__name__}: {exc}); for "
                f"example {_show(examples[fmt])}"
            ) from None

    return _Node({"type": "string"}, convert).noted(f"(format: {fmt})")


def _compile_set(tp: Any, origin: Any, args: tuple[Any, ...], ctx: _Ctx) -> _Node:
    """``set[T]`` / ``frozenset[T]``: an array of ``T`` (pydantic's ``uniqueItems`` is in the
    description: the subset has no such keyword); the converter builds the set, so
    repeated items collapse, as pydantic's do."""
    kind = origin if origin is not None else tp
    build: Callable[[list[Any]], Any] = frozenset if kind is frozenset else set
    node = _compile_array(args[0] if args else None, build, ctx)

    def convert(value: Any, path: str) -> Any:
        try:
            return node.convert(value, path)
        except TypeError as exc:  # an item that cannot be in a set
            raise ToolArgumentError(f"{path}: {exc}") from None

    return _Node(node.schema, convert).noted("(uniqueItems: true)")


def _admits_none(tp: Any) -> bool:
    """Whether ``tp`` (maybe under ``Annotated``) already accepts ``None``."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if tp is None or tp is type(None) or tp is Any or tp is object:
        return True
    origin = get_origin(tp)
    return (origin is Union or origin is types.UnionType) and type(None) in get_args(tp)


def _unalias(tp: Any) -> Any:
    """``NewType`` and ``type X = ...`` (3.12) stand for what they name."""
    while True:
        if hasattr(tp, "__supertype__"):
            tp = tp.__supertype__
        elif type(tp).__name__ == "TypeAliasType" and hasattr(tp, "__value__"):
            tp = tp.__value__
        else:
            return tp


def _refusal(tp: Any, origin: Any, args: tuple[Any, ...], ctx: _Ctx) -> _Unsupported:
    """Why ``tp`` has no schema, with what to write instead."""
    kind = origin if origin is not None else tp
    if kind in _BYTES:
        return _unsupported(ctx, tp, "JSON has no bytes", "use str (for example base64 text)")
    if kind is collections.abc.Callable:
        return _unsupported(ctx, tp, "a function cannot be sent as JSON")
    if isinstance(tp, typing.TypeVar):
        return _unsupported(ctx, tp, "a type variable is not a concrete type")
    if isinstance(kind, type) and kind.__name__ == "timedelta":
        return _unsupported(
            ctx,
            tp,
            "pydantic writes it as an ISO 8601 duration, which codemode does not parse",
            "use float (seconds) or str",
        )
    if isinstance(kind, type) and kind.__name__ == "Decimal":
        return _unsupported(
            ctx,
            tp,
            "a JSON number would lose its exactness",
            "use str and convert it, or float",
        )
    if isinstance(kind, type) and kind.__name__ in _AS_STRING:
        return _unsupported(ctx, tp, "the schema subset has no formats", "use str and convert it")
    return _unsupported(
        ctx,
        tp,
        "a JSON Schema needs str, int, float, bool, None, list, tuple, dict, Literal, Union, "
        "an Enum, a TypedDict, a dataclass or a pydantic model",
    )


def _compile_annotated(tp: Any, ctx: _Ctx) -> _Node:
    """``Annotated[T, ...]`` as FastMCP reads it: the first string is the description, a
    pydantic ``Field(...)`` gives its description and constraints, and constraints
    (``Field(ge=0)``, ``annotated_types.Ge(0)``, ``Field(pattern=...)``) are checked by
    pydantic on each call and named in the description (the subset has no ``minimum`` or
    ``pattern``). Other metadata is ignored, as pydantic ignores it."""
    base = get_args(tp)[0]
    node = _compile(base, ctx)
    metadata = tp.__metadata__
    text: str | None = None
    constraints: list[Any] = []
    for item in metadata:
        if isinstance(item, str):
            text = text if text is not None else item
        elif _is_field_info(item):
            described = getattr(item, "description", None)
            if isinstance(described, str) and text is None:
                text = described
            if getattr(item, "metadata", None):
                constraints.append(item)
        elif _is_constraint(item):
            constraints.append(item)
    if constraints:
        node = _constrained(base, node, constraints, ctx)
    return node.documented(text, pin=True) if text else node


def _is_field_info(item: Any) -> bool:
    """Whether ``item`` is a pydantic ``Field(...)`` (pydantic is imported if it is one)."""
    fields = sys.modules.get("pydantic.fields")
    field_info = getattr(fields, "FieldInfo", None)
    return isinstance(field_info, type) and isinstance(item, field_info)


def _is_constraint(item: Any) -> bool:
    """Whether ``item`` is an ``annotated_types`` constraint (``Ge(0)``, ``MaxLen(8)``) or
    pydantic's own metadata (``Strict()``, a pattern), which pydantic checks."""
    module = type(item).__module__ or ""
    return module == "annotated_types" or module.startswith("pydantic")


def _constrained(base: Any, node: _Node, constraints: list[Any], ctx: _Ctx) -> _Node:
    """``node`` whose converted value pydantic then checks against ``constraints`` (its
    ``TypeAdapter`` over ``Annotated[base, *constraints]``), with the keywords of
    pydantic's schema the subset cannot hold in the description."""
    try:
        from pydantic import TypeAdapter, ValidationError
    except ImportError:  # pragma: no cover - annotated_types without pydantic
        raise _unsupported(
            ctx, base, "its constraints are checked by pydantic, which is not installed"
        ) from None
    try:
        params = (base, *constraints)
        annotated: Any = typing.cast(Any, Annotated)[params]
        adapter: Any = TypeAdapter(annotated)
        raw = adapter.json_schema(mode="serialization" if ctx.output else "validation")
    except Exception as exc:
        raise _unsupported(ctx, base, f"pydantic cannot apply its constraints: {exc}") from None
    checks = [
        f"{key}: {value if isinstance(value, str) else _show(value)}"
        for key, value in raw.items()
        if key in _PYDANTIC_CHECKS
    ]
    inner = node.convert

    def convert(value: Any, path: str) -> Any:
        converted = inner(value, path)
        try:
            return adapter.validate_python(converted)
        except ValidationError as exc:
            problems = "; ".join(str(error.get("msg", error)) for error in exc.errors())
            raise ToolArgumentError(f"{path}: {problems}, got {_show(value)}") from None

    constrained = _Node(node.schema, convert, node.pinned, node.note)
    return constrained.noted(f"({', '.join(checks)})") if checks else constrained


# Scalars ------------------------------------------------------------------------------


def _passthrough(value: Any, path: str) -> Any:
    return value


def _mismatch(expected: str, value: Any, path: str) -> ToolArgumentError:
    return ToolArgumentError(f"{path}: expected {expected}, got {_json_kind(value)}")


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _convert_none(value: Any, path: str) -> Any:
    if value is not None:
        raise _mismatch("null", value, path)
    return None


def _convert_str(value: Any, path: str) -> Any:
    if not isinstance(value, str):
        raise _mismatch("string", value, path)
    return value


def _convert_bool(value: Any, path: str) -> Any:
    if not isinstance(value, bool):
        raise _mismatch("boolean", value, path)
    return value


def _convert_int(value: Any, path: str) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON Schema's integer accepts 2.0
    raise _mismatch("integer", value, path)


def _convert_float(value: Any, path: str) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise _mismatch("number", value, path)


def _convert_number(value: Any, path: str) -> Any:
    """``int | float``: a JSON number as it came (an integer stays an int)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise _mismatch("number", value, path)


_SCALAR_CONVERTERS: dict[Any, _Converter] = {
    str: _convert_str,
    int: _convert_int,
    float: _convert_float,
    bool: _convert_bool,
}


# Literal and Enum ---------------------------------------------------------------------


def _json_key(value: Any) -> tuple[str, Any] | None:
    """A hashable key under which JSON-equal scalars meet (``1 == 1.0``, ``true != 1``)."""
    if value is None:
        return ("null", None)
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    return None


def _scalar_type(value: Any) -> str | None:
    """The schema type of an allowed ``Literal``/``Enum`` value (str, int, bool, None)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, str):
        return "string"
    return None


def _choice_nodes(choices: list[tuple[Any, Any]], label: str, ctx: _Ctx) -> list[_Node]:
    """One ``{"type": T, "enum": [...]}`` node per JSON type among ``choices`` (pairs of
    JSON value and Python value), each converting its JSON values back."""
    groups: dict[str, dict[tuple[str, Any] | None, Any]] = {}
    for json_value, python_value in choices:
        kind = _scalar_type(json_value)
        if kind is None:
            raise _Unsupported(
                f"{ctx.where}{label} has the value {json_value!r}; a schema enum takes "
                "str, int, bool or None values"
            )
        key = _json_key(json_value)
        if any(key in group for group in groups.values()):
            raise _Unsupported(f"{ctx.where}{label} lists {json.dumps(json_value)} twice")
        groups.setdefault(kind, {})[key] = python_value
    nodes: list[_Node] = []
    for kind, table in groups.items():
        values = [key[1] for key in table if key is not None]
        schema: _Schema = {"type": kind} if kind == "null" else {"type": kind, "enum": values}
        nodes.append(_Node(schema, _choice_converter(table, values)))
    return nodes


def _choice_converter(table: dict[tuple[str, Any] | None, Any], values: list[Any]) -> _Converter:
    def convert(value: Any, path: str) -> Any:
        key = _json_key(value)
        if key not in table:
            allowed = ", ".join(json.dumps(v) for v in values)
            raise ToolArgumentError(f"{path}: expected one of {allowed}, got {_show(value)}")
        return table[key]

    return convert


def _show(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _literal_nodes(args: tuple[Any, ...], tp: Any, ctx: _Ctx) -> list[_Node]:
    choices = [(arg.value if isinstance(arg, enum.Enum) else arg, arg) for arg in args]
    return _choice_nodes(choices, _type_name(tp), ctx)


def _compile_enum(cls: type[enum.Enum], ctx: _Ctx) -> _Node:
    members = list(cls)
    if not members:
        raise _Unsupported(f"{ctx.where}{cls.__name__} has no members (a schema enum needs one)")
    for member in members:
        if _scalar_type(member.value) not in ("string", "integer"):
            raise _Unsupported(
                f"{ctx.where}{cls.__name__}.{member.name} has the value {member.value!r}; "
                "enum values must be str or int"
            )
    nodes = _choice_nodes([(m.value, m) for m in members], cls.__name__, ctx)
    node = _one_of([(cls.__name__, n) for n in nodes], cls, ctx)
    return node.documented(_class_doc(cls).summary)


# Unions -------------------------------------------------------------------------------


def _compile_union(args: tuple[Any, ...], tp: Any, ctx: _Ctx) -> _Node:
    members = [_unalias(arg) for arg in args]
    if any(m is Any or m is object for m in members):
        return _Node({}, _passthrough)
    number = float in members and int in members
    if number:
        members.remove(int)  # `number` accepts integers: both branches would match them
    literals = [a for m in members if get_origin(m) is Literal for a in get_args(m)]
    branches: list[tuple[str, _Node]] = []
    if literals:
        label = "Literal[" + ", ".join(repr(value) for value in literals) + "]"
        branches += [(label, n) for n in _literal_nodes(tuple(literals), tp, ctx)]
    for member in members:
        if get_origin(member) is Literal:
            continue
        if number and member is float:
            branches.append(("int | float", _Node({"type": "number"}, _convert_number)))
        else:
            branches.append((_type_name(member), _compile(member, ctx)))
    return _one_of(branches, tp, ctx)


def _one_of(branches: list[tuple[str, _Node]], tp: Any, ctx: _Ctx) -> _Node:
    """One node when there is one branch, else a ``oneOf`` of pairwise disjoint branches
    (the subset's ``oneOf`` needs exactly one to match) converting through the branch the
    value matches."""
    if len(branches) == 1:
        return branches[0][1]
    for _, node in branches:
        if _accepts_anything(node.schema):
            return node  # `Optional[Annotated[Any, "..."]]`: any value, null too
    for index, (label, node) in enumerate(branches):
        for other_label, other in branches[index + 1 :]:
            if not _disjoint(node.schema, other.schema):
                raise _unsupported(
                    ctx,
                    tp,
                    f"{label} and {other_label} both accept some JSON values, and the schema "
                    "subset's oneOf needs exactly one branch to match",
                    "make the branches distinct (for example with a Literal tag field)",
                )
    nodes = [node for _, node in branches]
    return _Node({"oneOf": [n.schema for n in nodes]}, _union_converter(nodes))


def _union_converter(nodes: list[_Node]) -> _Converter:
    def convert(value: Any, path: str) -> Any:
        for node in nodes:
            if _matches(node.schema, value):
                return node.convert(value, path)
        raise ToolArgumentError(f"{path}: matches none of the {len(nodes)} oneOf branches")

    return convert


# Arrays and objects -------------------------------------------------------------------


def _compile_array(item: Any, build: Callable[[list[Any]], Any], ctx: _Ctx) -> _Node:
    if item is None:
        return _Node({"type": "array"}, _array_converter(None, build))
    node = _compile(item, ctx)
    return _Node({"type": "array", "items": node.schema}, _array_converter(node, build))


def _array_converter(item: _Node | None, build: Callable[[list[Any]], Any]) -> _Converter:
    def convert(value: Any, path: str) -> Any:
        if not isinstance(value, list):
            raise _mismatch("array", value, path)
        if item is None:
            return build(list(value))
        return build([item.convert(v, f"{path}[{i}]") for i, v in enumerate(value)])

    return convert


def _compile_tuple(tp: Any, args: tuple[Any, ...], ctx: _Ctx) -> _Node:
    if not args:
        return _compile_array(None, tuple, ctx)
    if len(args) == 2 and args[1] is Ellipsis:
        return _compile_array(args[0], tuple, ctx)
    if args == ((),):  # tuple[()]: the empty tuple
        args = ()
    # A fixed-length tuple (pydantic's prefixItems, which the subset has not): an array
    # whose items are the one schema all positions share (else any value), its length
    # and positions in the description, checked by the converter position by position.
    nodes = [_compile(arg, ctx) for arg in args]
    shared = nodes[0].schema if nodes and all(n.schema == nodes[0].schema for n in nodes) else None
    schema: _Schema = {"type": "array"}
    if shared is not None:
        schema["items"] = shared
    count = len(nodes)
    names = ", ".join(_type_name(arg) for arg in args)
    note = f"(exactly {count} item{'s' if count != 1 else ''}: {names})" if nodes else "(empty)"

    def convert(value: Any, path: str) -> Any:
        if not isinstance(value, list):
            raise _mismatch("array", value, path)
        if len(value) != count:
            raise ToolArgumentError(
                f"{path}: expected exactly {count} item{'s' if count != 1 else ''} "
                f"({names or 'none'}), got {len(value)}"
            )
        return tuple(
            n.convert(v, f"{path}[{i}]") for i, (n, v) in enumerate(zip(nodes, value, strict=True))
        )

    return _Node(schema, convert).noted(note)


def _compile_mapping(tp: Any, args: tuple[Any, ...], ctx: _Ctx) -> _Node:
    """``dict[str, T]``: an open object (``additionalProperties`` cannot be a schema in the
    subset); the converter checks and converts each value as ``T``."""
    key, value = (_unalias(args[0]), args[1]) if args else (str, Any)
    if key is not str:
        raise _unsupported(
            ctx, tp, "JSON object keys are strings", f"use dict[str, {_type_name(value)}]"
        )
    node = _compile(value, ctx)

    def convert(data: Any, path: str) -> Any:
        if not isinstance(data, dict):
            raise _mismatch("object", data, path)
        return {k: node.convert(v, _key_path(path, k)) for k, v in data.items()}

    return _Node({"type": "object", "additionalProperties": True}, convert)


def _key_path(path: str, key: str) -> str:
    """``path`` one key deeper, written as ``JsonPath`` writes it (``src/json/mod.rs``)."""
    if re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _compile_class(cls: type, ctx: _Ctx) -> _Node:
    if issubclass(cls, enum.Enum):
        return _compile_enum(cls, ctx)
    if _is_typeddict(cls):
        return _compile_typeddict(cls, ctx.inside(cls))
    if dataclasses.is_dataclass(cls):
        return _compile_dataclass(cls, ctx.inside(cls))
    if _is_pydantic_model(cls):
        return _compile_pydantic(cls, ctx)
    raise _refusal(cls, None, (), ctx)


def _class_hints(cls: type, ctx: _Ctx) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception as exc:
        raise _Unsupported(
            f"{ctx.where}{cls.__name__}'s type hints cannot be resolved "
            f"({type(exc).__name__}: {exc})"
        ) from None


def _class_doc(cls: type) -> _Doc:
    """The class's own docstring (not an inherited one, nor the text dataclasses and Enum
    make up)."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or doc == "An enumeration.":
        return _Doc()
    if dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}("):
        return _Doc()
    return _parse_doc(doc)


def _object_node(
    cls: type, properties: dict[str, _Node], required: list[str], build: Callable[..., Any]
) -> _Node:
    """A closed object of ``properties`` whose converter builds ``build(**values)``."""
    schema = _closed_object({k: n.schema for k, n in properties.items()}, required)

    def convert(value: Any, path: str) -> Any:
        if not isinstance(value, dict):
            raise _mismatch("object", value, path)
        for key in value:
            if key not in properties:
                raise ToolArgumentError(
                    f"{_key_path(path, key)}: unknown property of {cls.__name__}"
                )
        for key in required:
            if key not in value:
                raise ToolArgumentError(f"{_key_path(path, key)}: required property is missing")
        values = {k: properties[k].convert(v, _key_path(path, k)) for k, v in value.items()}
        try:
            return build(**values)
        except (TypeError, ValueError) as exc:
            raise ToolArgumentError(f"{path}: {cls.__name__} refused the value: {exc}") from exc

    return _Node(schema, convert).documented(_class_doc(cls).summary)


def _requiredness_forms() -> dict[Any, str]:
    """``Required``/``NotRequired`` of ``typing`` (3.11+) and of ``typing_extensions`` if it
    is imported, each with its name."""
    forms: dict[Any, str] = {}
    for module in ("typing", "typing_extensions"):
        for mark in ("Required", "NotRequired"):
            form = getattr(sys.modules.get(module), mark, None)
            if form is not None:
                forms[form] = mark
    return forms


def _is_typeddict(cls: type) -> bool:
    return issubclass(cls, dict) and hasattr(cls, "__required_keys__") and hasattr(cls, "__total__")


def _requiredness(hint: Any) -> str | None:
    """``"Required"``/``"NotRequired"`` when ``hint`` (maybe inside ``Annotated``) says so."""
    forms = _requiredness_forms()
    while True:
        origin = get_origin(hint)
        if origin is Annotated:
            hint = get_args(hint)[0]
        elif origin is not None and origin in forms:
            return forms[origin]
        else:
            return None


def _compile_typeddict(cls: type, ctx: _Ctx) -> _Node:
    hints = _class_hints(cls, ctx)
    docs = _class_doc(cls).params
    declared_required: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
    properties: dict[str, _Node] = {}
    required: list[str] = []
    for name, hint in hints.items():
        mark = _requiredness(hint)
        if mark == "Required" or (mark is None and name in declared_required):
            required.append(name)
        properties[name] = _compile(hint, ctx.at(cls, name)).documented(docs.get(name))
    return _object_node(cls, properties, required, dict)


def _compile_dataclass(cls: type, ctx: _Ctx) -> _Node:
    hints = _class_hints(cls, ctx)
    docs = _class_doc(cls).params
    properties: dict[str, _Node] = {}
    required: list[str] = []
    for field in dataclasses.fields(cls):
        if not field.init and not ctx.output:
            continue
        node = _compile(hints.get(field.name, Any), ctx.at(cls, field.name))
        node = node.documented(docs.get(field.name))
        has_default = field.default is not dataclasses.MISSING
        if ctx.output or not (has_default or field.default_factory is not dataclasses.MISSING):
            required.append(field.name)
        elif has_default:
            node = node.with_default(field.default)
        properties[field.name] = node
    return _object_node(cls, properties, required, cls)


# pydantic -----------------------------------------------------------------------------


def _pydantic_base() -> type | None:
    """pydantic's ``BaseModel`` if pydantic is already imported (a model class cannot exist
    otherwise, so it is never imported here)."""
    module = sys.modules.get("pydantic")
    base = getattr(module, "BaseModel", None)
    return base if isinstance(base, type) else None


def _is_pydantic_model(cls: type) -> bool:
    base = _pydantic_base()
    return base is not None and issubclass(cls, base)


def _is_pydantic_instance(value: Any) -> bool:
    base = _pydantic_base()
    return base is not None and isinstance(value, base)


def _compile_pydantic(cls: type, ctx: _Ctx) -> _Node:
    model: Any = cls
    if not hasattr(model, "model_json_schema"):
        raise _unsupported(ctx, cls, "pydantic v1 models are not supported", "use pydantic 2")
    try:
        raw = model.model_json_schema(mode="serialization" if ctx.output else "validation")
    except Exception as exc:
        raise _unsupported(ctx, cls, f"pydantic cannot make its JSON Schema: {exc}") from None
    defs = raw.get("$defs", {}) if isinstance(raw, dict) else {}
    try:
        schema = _from_pydantic(raw, defs, ())
    except _Unsupported as exc:
        raise _Unsupported(f"{ctx.where}{cls.__name__}: {exc}") from None

    def convert(value: Any, path: str) -> Any:
        try:
            return model.model_validate(value)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            raise ToolArgumentError(f"{path}: {cls.__name__} refused the value: {exc}") from exc

    return _Node(schema, convert)


#: Validation keywords pydantic checks itself (``model_validate``): dropped from the
#: schema (the subset has none of them) and shown in the description instead.
_PYDANTIC_CHECKS = frozenset(
    {
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "contentMediaType",
        "contentEncoding",
    }
)
#: Keywords dropped without a trace (names, pydantic's bookkeeping).
_PYDANTIC_IGNORED = frozenset(
    {
        "title",
        "discriminator",
        "$defs",
        "$schema",
        "$id",
        "readOnly",
        "writeOnly",
        "deprecated",
        "patternProperties",
        "propertyNames",
    }
)
_JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})


def _from_pydantic(raw: Any, defs: Mapping[str, Any], refs: tuple[str, ...]) -> _Schema:
    """A pydantic JSON Schema node in the subset: ``$ref`` inlined, ``anyOf`` of disjoint
    branches as ``oneOf``, titles dropped; what cannot be expressed is refused."""
    if raw is True or raw == {}:
        return {}
    if not isinstance(raw, dict):
        raise _Unsupported(f"the schema {_show(raw)} is not an object")
    node = dict(raw)
    if "$ref" in node:
        return _from_pydantic_ref(node, defs, refs)
    if "allOf" in node:
        parts = node.pop("allOf")
        if not isinstance(parts, list) or len(parts) != 1:
            raise _Unsupported("allOf cannot be expressed in the schema subset")
        return _from_pydantic({**parts[0], **node}, defs, refs)
    if isinstance(node.get("type"), list):
        node["anyOf"] = [{"type": kind} for kind in node.pop("type")]
    for keyword in ("anyOf", "oneOf"):
        if keyword in node:
            branches = [_from_pydantic(b, defs, refs) for b in node.pop(keyword)]
            return _pydantic_union(branches, node)
    return _pydantic_keywords(node, defs, refs)


def _from_pydantic_ref(
    node: dict[str, Any], defs: Mapping[str, Any], refs: tuple[str, ...]
) -> _Schema:
    ref = node.pop("$ref")
    name = ref.rsplit("/", 1)[-1] if isinstance(ref, str) else ""
    if name in refs:
        raise _Unsupported(
            f"{name} refers to itself (the schema subset has no $ref, so a recursive model "
            "cannot be expressed)"
        )
    if not isinstance(ref, str) or not ref.startswith("#/$defs/") or name not in defs:
        raise _Unsupported(f"$ref {_show(ref)} cannot be resolved")
    return _from_pydantic({**defs[name], **node}, defs, (*refs, name))


def _pydantic_union(branches: list[_Schema], rest: dict[str, Any]) -> _Schema:
    unique: list[_Schema] = []
    for branch in branches:
        if branch not in unique:
            unique.append(branch)
    if {} in unique:
        merged: _Schema = {}
    else:
        if {"type": "integer"} in unique and {"type": "number"} in unique:
            unique.remove({"type": "integer"})
        for index, branch in enumerate(unique):
            for other in unique[index + 1 :]:
                if not _disjoint(branch, other):
                    raise _Unsupported(
                        f"the union branches {_show(branch)} and {_show(other)} overlap, and "
                        "the schema subset's oneOf needs exactly one branch to match"
                    )
        merged = unique[0] if len(unique) == 1 else {"oneOf": unique}
    extra = {k: v for k, v in rest.items() if k not in _PYDANTIC_IGNORED}
    annotations = _pydantic_annotations(extra, merged)
    leftover = set(extra) - set(annotations) - {"default", "examples"}
    if leftover:
        raise _Unsupported(f"{', '.join(sorted(leftover))} beside a union cannot be expressed")
    return _annotate(merged, **annotations) if annotations else merged


def _pydantic_annotations(node: Mapping[str, Any], schema: _Schema) -> dict[str, Any]:
    """The ``description``, ``default`` and ``examples`` of ``node`` the subset keeps
    (lossless data; a default the schema accepts)."""
    kept: dict[str, Any] = {}
    if isinstance(node.get("description"), str):
        kept["description"] = node["description"]
    for key in ("default", "examples"):
        if key in node:
            try:
                value = to_json(node[key])
            except ToolResultError:
                continue
            if key == "examples" or _matches(schema, value):
                kept[key] = value
    return kept


def _pydantic_keywords(
    node: dict[str, Any], defs: Mapping[str, Any], refs: tuple[str, ...]
) -> _Schema:
    out: _Schema = {}
    checks: list[str] = []
    for key, value in node.items():
        if key == "type":
            if value not in _JSON_TYPES:
                raise _Unsupported(f"unknown type {_show(value)}")
            out["type"] = value
        elif key == "properties":
            out[key] = {k: _from_pydantic(v, defs, refs) for k, v in value.items()}
        elif key == "items":
            if not isinstance(value, dict):
                raise _Unsupported(
                    "tuple items cannot be expressed in the schema subset; use a list"
                )
            out[key] = _from_pydantic(value, defs, refs)
        elif key == "prefixItems":
            raise _Unsupported(
                "fixed-length tuples (prefixItems) cannot be expressed in the schema subset; "
                "use a list"
            )
        elif key == "additionalProperties":
            if value is False:
                out[key] = False  # a schema or true: open (model_validate checks the values)
        elif key in ("required", "enum", "const"):
            out[key] = value
        elif key in _PYDANTIC_CHECKS:
            checks.append(f"{key}: {value if isinstance(value, str) else _show(value)}")
        elif key not in _PYDANTIC_IGNORED and key not in ("description", "default", "examples"):
            raise _Unsupported(f"the keyword {key!r} cannot be expressed in the schema subset")
    out = _typed_choices(out)
    annotations = _pydantic_annotations(node, out)
    if checks:
        note = f"({', '.join(checks)})"
        text = annotations.get("description")
        annotations["description"] = f"{text} {note}" if text else note
    return _annotate(out, **annotations)


def _typed_choices(node: _Schema) -> _Schema:
    """``enum``/``const`` need a scalar ``type`` on their node: one is given from the values,
    or the node splits into a ``oneOf`` per JSON type."""
    if "type" in node or ("enum" not in node and "const" not in node):
        return node
    values = node.get("enum", [node.get("const")])
    kinds: dict[str, list[Any]] = {}
    for value in values:
        kind = "number" if isinstance(value, float) else _scalar_type(value)
        if kind is None:
            raise _Unsupported(f"the enum value {_show(value)} is not a scalar")
        kinds.setdefault(kind, []).append(value)
    if len(kinds) == 1:
        return {"type": next(iter(kinds)), **node}
    return {"oneOf": [{"type": kind, "enum": members} for kind, members in kinds.items()]}


# ---------------------------------------------------------------------------------------
# Schema reasoning: disjoint branches, and whether a value matches (for unions, defaults)
# ---------------------------------------------------------------------------------------


def _accepts_anything(schema: _Schema) -> bool:
    """Whether ``schema`` is ``{}`` but for annotations."""
    return all(key in ("description", "title", "default", "examples") for key in schema)


def _kind(schema: _Schema) -> str | None:
    kind = schema.get("type")
    return "number" if kind == "integer" else kind


def _choices(schema: _Schema) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    enum_values = schema.get("enum")
    return list(enum_values) if isinstance(enum_values, list) else None


def _disjoint(a: _Schema, b: _Schema) -> bool:
    """Whether no JSON value can match both schemas (sound, not complete: ``False`` when
    unsure). Scalars of different types, disjoint ``enum``s, and closed objects that one
    requires a property of that the other cannot have, or whose shared required property
    is disjoint, are disjoint."""
    if "oneOf" in a:
        return all(_disjoint(branch, b) for branch in a["oneOf"])
    if "oneOf" in b:
        return all(_disjoint(a, branch) for branch in b["oneOf"])
    kind_a, kind_b = _kind(a), _kind(b)
    if kind_a is None or kind_b is None:
        return False
    if kind_a != kind_b:
        return True
    if kind_a == "object":
        return _objects_disjoint(a, b) or _objects_disjoint(b, a)
    if kind_a == "array":
        return False  # [] matches both
    values_a, values_b = _choices(a), _choices(b)
    if values_a is None or values_b is None:
        return False
    return not any(_json_equal(x, y) for x in values_a for y in values_b)


def _objects_disjoint(a: _Schema, b: _Schema) -> bool:
    props_a, props_b = a.get("properties", {}), b.get("properties", {})
    required_b = b.get("required", [])
    if a.get("additionalProperties") is False and any(n not in props_a for n in required_b):
        return True
    shared = [name for name in a.get("required", []) if name in required_b]
    return any(_disjoint(props_a[name], props_b[name]) for name in shared)


def _json_equal(a: Any, b: Any) -> bool:
    key_a, key_b = _json_key(a), _json_key(b)
    return key_a is not None and key_a == key_b


def _type_matches(kind: str, value: Any) -> bool:
    if kind == "integer":
        return _json_kind(value) == "integer" or (isinstance(value, float) and value.is_integer())
    if kind == "number":
        return _json_kind(value) in ("integer", "number")
    return _json_kind(value) == kind


def _matches(schema: _Schema, value: Any) -> bool:
    """Whether JSON ``value`` satisfies ``schema`` (of the subset), as
    ``src/schema/validate.rs`` decides."""
    if "oneOf" in schema:
        return sum(1 for branch in schema["oneOf"] if _matches(branch, value)) == 1
    kind = schema.get("type")
    if kind is not None and not _type_matches(kind, value):
        return False
    choices = _choices(schema)
    if choices is not None and not any(_json_equal(value, c) for c in choices):
        return False
    if kind == "array" and "items" in schema:
        return all(_matches(schema["items"], item) for item in value)
    if kind == "object":
        return _object_matches(schema, value)
    return True


def _object_matches(schema: _Schema, value: dict[str, Any]) -> bool:
    properties = schema.get("properties", {})
    if any(name not in value for name in schema.get("required", [])):
        return False
    for key, item in value.items():
        if key in properties:
            if not _matches(properties[key], item):
                return False
        elif schema.get("additionalProperties") is False:
            return False
    return True


# ---------------------------------------------------------------------------------------
# Results -> JSON
# ---------------------------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """``value`` as JSON data: dataclasses become dicts, Enums their values, pydantic models
    ``model_dump(mode="json")``, tuples and sets lists, ``datetime``/``date``/``time``
    ISO 8601 text (UTC as ``Z``), ``UUID`` and ``Path`` their text: what pydantic's JSON
    mode writes, wherever the value is. Raises :class:`ToolResultError` naming the
    path (``$.items[2]: a bytes value is not JSON``) for what has no lossless JSON form:
    bytes, other objects, NaN and infinities, integers beyond +-(2**53 - 1), non-string
    dict keys, lone surrogates, cycles, nesting deeper than 5,000 levels. Walked with a
    stack of its own, so no depth reaches Python's recursion limit."""
    kind = type(value)
    # The common shapes first (a plain scalar, a flat dict of plain scalars), with the
    # walk's own checks; anything else, and any value those checks refuse (the walk then
    # names its path), takes the walk.
    if kind in _PLAIN_SCALARS:
        return _json_scalar(value, "$")
    if kind is dict:
        flat = _flat_dict_json(value)
        if flat is not None:
            return flat
    return _to_json_walk(value)


# The exact types whose JSON the scalar check gives (subclasses, such as IntEnum, take the walk).
_PLAIN_SCALARS = frozenset({type(None), bool, int, float, str})


def _flat_dict_json(value: dict[Any, Any]) -> dict[str, Any] | None:
    """The JSON of a dict of string keys and plain scalars, else ``None``."""
    out: dict[str, Any] = {}
    try:
        for key, member in value.items():
            if type(key) is not str or type(member) not in _PLAIN_SCALARS:
                return None
            out[key] = _json_scalar(member, "")
    except ToolResultError:
        return None
    return out


def _to_json_walk(value: Any) -> Any:
    """:func:`to_json` by the general walk."""
    root: list[Any] = [None]
    # (value, the container and key to store its JSON in, path, depth), or the id of a
    # container whose members are all converted (it leaves the cycle check).
    stack: list[tuple[Any, Any, Any, str, int] | int] = [(value, root, 0, "$", 0)]
    active: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, int):
            active.discard(item)
            continue
        current, container, key, path, depth = item
        container[key] = _json_step(current, path, depth, active, stack)
    return root[0]


def _json_step(
    value: Any,
    path: str,
    depth: int,
    active: set[int],
    stack: list[tuple[Any, Any, Any, str, int] | int],
) -> Any:
    """The JSON of a scalar, or an empty container whose members go on ``stack``."""
    original = value
    value = _json_unwrap(value, path)
    if not isinstance(value, (list, tuple, Mapping)):
        return _json_scalar(value, path)
    if depth >= _MAX_VALUE_DEPTH:
        raise ToolResultError(f"{path}: value nests deeper than {_MAX_VALUE_DEPTH} levels")
    marker = id(original)
    if marker in active:
        raise ToolResultError(f"{path}: the value contains itself (a cycle has no JSON form)")
    active.add(marker)
    stack.append(marker)
    # A plain scalar member is converted here; the rest (and a scalar the check refuses,
    # so that the walk names its path) go on the stack.
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, member in value.items():
            if not isinstance(key, str):
                raise ToolResultError(
                    f"{path}: the dict key {key!r} is not a string (JSON keys are)"
                )
            out[key] = _plain_or(member, _DEFERRED)
            if out[key] is _DEFERRED:
                stack.append((member, out, key, _key_path(path, key), depth + 1))
        return out
    items: list[Any] = [None] * len(value)
    for index, member in enumerate(value):
        items[index] = _plain_or(member, _DEFERRED)
        if items[index] is _DEFERRED:
            stack.append((member, items, index, f"{path}[{index}]", depth + 1))
    return items


# Marks a member the walk converts later.
_DEFERRED = object()


def _plain_or(value: Any, other: Any) -> Any:
    """The JSON of a plain scalar the checks accept, else ``other``."""
    if type(value) not in _PLAIN_SCALARS:
        return other
    try:
        return _json_scalar(value, "")
    except ToolResultError:
        return other


def _json_unwrap(value: Any, path: str) -> Any:
    """Enums, dataclass instances and pydantic models as the plain data they stand for;
    sets as lists, and datetimes, dates, times, UUIDs and paths as the text pydantic's JSON
    mode writes for them (the rule is one wherever the value is: a dict, a list, a
    dataclass or a model, an argument or a result)."""
    if isinstance(value, enum.Enum):
        return value.value
    fmt = _text_format(type(value))
    if fmt is not None:
        if fmt == "date-time" and value.utcoffset() is not None and not value.utcoffset():
            return value.replace(tzinfo=None).isoformat() + "Z"
        return value.isoformat() if fmt in ("date-time", "date", "time") else str(value)
    if isinstance(value, (set, frozenset)):
        return list(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if _is_pydantic_instance(value):
        try:
            return value.model_dump(mode="json")
        except Exception as exc:
            raise ToolResultError(
                f"{path}: {type(value).__name__}.model_dump failed: {exc}"
            ) from exc
    return value


def _json_scalar(value: Any, path: str) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > _MAX_SAFE_INTEGER:
            raise ToolResultError(
                f"{path}: integer {value} is outside ±{_MAX_SAFE_INTEGER} and would change "
                "as a JavaScript number"
            )
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ToolResultError(
                f"{path}: {value!r} is not JSON (NaN and infinities have no JSON form)"
            )
        return float(value) + 0.0  # -0.0 becomes 0.0: JSON text has no negative zero
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ToolResultError(
                f"{path}: a string with a lone surrogate is not UTF-8 text"
            ) from None
        return str(value)
    raise ToolResultError(f"{path}: {_describe_non_json(value)} is not JSON")


def _describe_non_json(value: Any) -> str:
    if isinstance(value, (set, frozenset)):
        return "a set"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "a bytes value"
    return f"a value of type {type(value).__name__}"


# ---------------------------------------------------------------------------------------
# Docstrings: Google, NumPy and reST styles
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class _Doc:
    """A docstring read: the text before its sections, each parameter's (or attribute's)
    text, and the text of its Returns section."""

    summary: str = ""
    params: dict[str, str] = dataclasses.field(default_factory=dict)
    returns: str = ""


_PARAM_SECTIONS = frozenset(
    {
        "args",
        "arguments",
        "parameters",
        "params",
        "keyword args",
        "keyword arguments",
        "other parameters",
        "attributes",
    }
)
_RETURN_SECTIONS = frozenset({"returns", "return", "yields"})
_OTHER_SECTIONS = frozenset(
    {
        "raises",
        "raise",
        "warns",
        "examples",
        "example",
        "note",
        "notes",
        "see also",
        "warning",
        "warnings",
        "todo",
        "references",
        "methods",
    }
)
_SECTIONS = _PARAM_SECTIONS | _RETURN_SECTIONS | _OTHER_SECTIONS
_REST_FIELD = re.compile(r":([A-Za-z]+)((?:\s+[^:\s]+)*)\s*:(.*)")
_REST_PARAM_TAGS = frozenset(
    {"param", "parameter", "arg", "argument", "key", "keyword", "ivar", "var", "cvar"}
)
_REST_TAGS = _REST_PARAM_TAGS | frozenset(
    {
        "return",
        "returns",
        "rtype",
        "type",
        "raises",
        "raise",
        "except",
        "exception",
        "vartype",
        "meta",
    }
)
_GOOGLE_ENTRY = re.compile(r"\*{0,2}([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:(.*)")


def _parse_doc(doc: str | None) -> _Doc:
    if not doc:
        return _Doc()
    lines = inspect.cleandoc(doc).splitlines()
    result = _Doc()
    index = 0
    summary_end = len(lines)
    while index < len(lines):
        section = _section_at(lines, index)
        if section is None:
            index += 1
            continue
        summary_end = min(summary_end, index)
        index = _read_section(lines, index, section, result)
    result.summary = "\n".join(lines[:summary_end]).strip()
    return result


def _section_at(lines: list[str], index: int) -> str | None:
    """``"google"``, ``"numpy"`` or ``"rest"`` when a section starts at ``lines[index]``."""
    line = lines[index]
    if not line or line[0].isspace():
        return None
    google = re.fullmatch(r"([A-Za-z][A-Za-z ]*?)\s*:\s*", line)
    if google and google.group(1).lower() in _SECTIONS:
        return "google"
    underline = lines[index + 1] if index + 1 < len(lines) else ""
    if line.strip().lower() in _SECTIONS and re.fullmatch(r"\s*-{3,}\s*", underline):
        return "numpy"
    rest = _REST_FIELD.match(line)
    if rest and rest.group(1).lower() in _REST_TAGS:
        return "rest"
    return None


def _read_section(lines: list[str], index: int, style: str, into: _Doc) -> int:
    """Reads the section starting at ``lines[index]`` into ``into``; the index after it."""
    if style == "rest":
        end = _indented_end(lines, index + 1)
        _read_rest_field(lines[index:end], into)
        return end
    if style == "google":
        name = lines[index].strip().rstrip(":").strip().lower()
        end = _indented_end(lines, index + 1)
        _read_block(name, _dedent(lines[index + 1 : end]), into, numpy=False)
        return end
    name = lines[index].strip().lower()
    end = index + 2
    while end < len(lines) and _section_at(lines, end) is None:
        end += 1
    _read_block(name, _dedent(lines[index + 2 : end]), into, numpy=True)
    return end


def _indented_end(lines: list[str], index: int) -> int:
    """The index of the first non-blank, unindented line at or after ``index``."""
    while index < len(lines) and (not lines[index].strip() or lines[index][0].isspace()):
        index += 1
    return index


def _dedent(lines: list[str]) -> list[str]:
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] if line.strip() else "" for line in lines]


def _entries(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Unindented lines each start an entry; indented (and blank) lines continue it."""
    entries: list[tuple[str, list[str]]] = []
    for line in lines:
        if line and not line[0].isspace():
            entries.append((line, []))
        elif entries:
            entries[-1][1].append(line)
    return entries


def _reflow(lines: list[str]) -> str:
    """Lines joined with spaces, paragraphs (split at blank lines) with a blank line."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


def _read_block(name: str, lines: list[str], into: _Doc, *, numpy: bool) -> None:
    if name in _PARAM_SECTIONS:
        for head, body in _entries(lines):
            for param, first in _param_heads(head, numpy=numpy):
                into.params.setdefault(param, _reflow([first, *body]))
    elif name in ("returns", "return"):
        into.returns = _numpy_returns(lines) if numpy else _strip_type_prefix(_reflow(lines))


def _param_heads(head: str, *, numpy: bool) -> list[tuple[str, str]]:
    """The names an entry's first line documents, each with the text on that line."""
    if numpy:
        names = head.split(":", 1)[0]
        return [(n.strip().lstrip("*"), "") for n in names.split(",") if n.strip()]
    match = _GOOGLE_ENTRY.fullmatch(head)
    return [(match.group(1), match.group(2))] if match else []


def _numpy_returns(lines: list[str]) -> str:
    texts = [_reflow(body) for _, body in _entries(lines)]
    return "\n".join(text for text in texts if text)


def _strip_type_prefix(text: str) -> str:
    """``"int: the count"`` -> ``"the count"`` (a Google Returns line may start with a type)."""
    head, colon, rest = text.partition(":")
    bare = head
    while re.search(r"\[[^\[\]]*\]", bare):
        bare = re.sub(r"\[[^\[\]]*\]", "", bare)
    bare = re.sub(r"\s*\|\s*", "|", bare)
    if colon and re.fullmatch(r"[\w.|]+", bare) and rest.startswith((" ", "\n")):
        return rest.strip()
    return text


def _read_rest_field(lines: list[str], into: _Doc) -> None:
    match = _REST_FIELD.match(lines[0])
    if match is None:
        return
    tag, words, first = match.group(1).lower(), match.group(2).split(), match.group(3)
    text = _reflow([first, *lines[1:]])
    if tag in _REST_PARAM_TAGS and words:
        into.params.setdefault(words[-1].lstrip("*"), text)
    elif tag in ("return", "returns"):
        into.returns = text
