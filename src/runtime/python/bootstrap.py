"""The Python side of a codemode Python worker (run as the module ``codemode_bootstrap``).

The host starts the worker as ``python -I -S -B -c LAUNCHER`` with two inherited memfds: the
confinement primitive (``_codemode_confine``, confine.c, which the launcher loads) and this
file, after one line of JSON, the host's ``setup`` (the Landlock ruleset attribute computed
for this kernel, the compiled seccomp filter and where its pid goes, the rlimit resources),
and after the package's deep JSON parser (``python/codemode/_deep_json.py``), which the
launcher runs first as the module ``_deep_json``.
The launcher calls ``worker_main(native, setup, args)``, which is the process from there:

- a worker (no mode): moves the protocol to private descriptors, calls ``prepare()``,
  confines itself (rlimits, Landlock, seccomp: the primitive makes the system calls with the
  host's inputs), reports that in a ``confined`` frame and calls ``serve``;
- ``--probe``: confines itself and reports, nothing else;
- ``--template``: a fork server: prepared and landlocked once, it forks a worker per request
  on its ``SOCK_SEQPACKET`` control socket (``after_fork()``, its own Landlock domain,
  rlimits, seccomp, ``serve``) and hands the worker's socket, standard-error pipe and pidfd
  to the host (``SCM_RIGHTS``).

1. ``prepare()`` -- before the process is confined: imports the offered standard modules
   (and the helpers they load lazily), warms up what touches files on first use (time zone,
   OpenSSL, codecs, ``_strptime``), builds the program's restricted builtins and creates the
   asyncio event loop (its epoll descriptor and self-pipe).
2. ``serve(rfd, wfd)`` -- after confinement (no file can be opened, no socket, thread,
   process or signal): speaks the frame protocol on the two descriptors, runs exactly one
   program, sends ``done`` and returns. It never raises.

Frames (both ways): a 4-byte little-endian length, then that many bytes of one UTF-8 JSON
object. Worker -> host: ``ready``; ``call {id, ns, m, args}`` (sent when the program calls a
member, ids 1, 2, 3, ... in that order); ``log {s}`` (one per ``print`` or completed line of
``sys.stdout``/``sys.stderr``, sent at once); ``done {}`` / ``done {value}`` /
``done {error: {kind, message}}`` with kind ``exception`` or ``invalid-output``. Host ->
worker: one ``run {program, namespaces}``, then ``ret {id, ok}`` / ``ret {id, err}`` in any
order (read through the event loop with ``rfd`` non-blocking).

The program is the body of an async function (top-level ``await`` and ``return``) compiled
as ``program.py`` with its own line numbers. Its globals hold restricted builtins (no
``open``/``input``/``breakpoint``/``help``/``exit``/``quit``, our ``print``, an import guard
that only serves the offered, already loaded modules) and, per namespace, the namespace
object (``tools``) and its error class (``ToolCallError``). Values that cross to the host
(call arguments, the return value) must be lossless JSON; the check is iterative (deep
values never recurse on the Python or C stack) and never runs program code. Names the program
declares ``global`` anywhere are globals of its body too (script semantics). A program that
waits with nothing pending (no call, timer or ready callback) ends at once with an error
instead of idling until the wall-time budget. A call the program never awaits (nor hands to
``gather``/``wait``, nor reads the result of) is reported when the run ends, one ``log``
line per call after the program's own output (``tools.x (line 3) was called but never
awaited: ...``, saying whether it ran, failed, or was still pending).

This module owns the worker process (its descriptors, its modes, the template's forks, when
the confinement is applied) and the in-process side of a run: the program's environment, the
frame codec on the worker side, the lossless-JSON check and encoding, and how errors are
described. It must not decide security: the OS confinement is the boundary (the host
prepares it; this module only applies it, through the primitive, at the right moment; the
import guard and the removed builtins are conveniences), and the host re-checks every frame.
It must not import anything outside the standard library but ``_deep_json`` (the one deep
JSON parser of the Python side, shared with the package; ``_deep_json.pyi`` types it here).
"""

from __future__ import annotations

import _json
import ast
import asyncio
import builtins
import gc
import io
import json
import os
import re
import select
import selectors
import socket
import sys
import types
from math import copysign as _copysign

# The package's deep JSON parser (python/codemode/_deep_json.py), which the launcher loads
# before this module (launch.rs).
from _deep_json import loads_deep as _loads_deep

# Imports for the type checker only: nothing more is imported at run time (the annotations
# are never evaluated, see the `__future__` import above).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import contextvars
    from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
    from typing import Any, Protocol, TypeGuard, TypeVar

    _T_co = TypeVar("_T_co", covariant=True)

    class _Descriptor(Protocol[_T_co]):
        def __get__(self, instance: object, owner: type, /) -> _T_co: ...

    class _AlwaysMatches(Protocol):
        def match(self, string: str, pos: int = ..., /) -> re.Match[str]: ...

    #: What a namespace member returns: the future of its call.
    _Member = Callable[..., asyncio.Future[Any]]

__all__ = [
    "worker_main", "prepare", "after_fork", "serve", "OFFERED_MODULES", "MAX_DEPTH", "PROGRAM_FILE",
]

#: The file name the program is compiled under (its frames are the only ones shown).
PROGRAM_FILE = "program.py"

#: The standard modules a program may import (those that imported in ``prepare``, and their
#: submodules already loaded then).
OFFERED_MODULES = (
    "json", "re", "math", "datetime", "collections", "itertools", "functools", "statistics",
    "asyncio", "decimal", "fractions", "random", "string", "textwrap", "heapq", "bisect",
    "operator", "copy", "enum", "typing", "dataclasses", "base64", "hashlib", "uuid",
    "difflib", "unicodedata", "time",
)

#: Modules loaded for the offered ones' lazy imports and for this module; never importable
#: by name from the program (except ``__future__``, for ``from __future__ import ...``).
_SUPPORT_MODULES = (
    "__future__", "_strptime", "locale", "calendar", "warnings", "linecache", "traceback",
    "tokenize", "token", "keyword", "inspect", "dis", "weakref", "contextlib", "numbers",
    "abc", "copyreg", "struct", "binascii", "reprlib", "stringprep", "encodings.idna",
    "tracemalloc", "_json", "_random", "_bisect", "_heapq",
)

#: Modules that C code imports by name while a program frame runs (``time.strptime``
#: imports ``_strptime``, a warning imports ``warnings``, ...): such an import goes through
#: the program's ``__import__``, so the guard lets these through when loaded (silently: they
#: are not in the list a refused import shows).
_INTERNAL_IMPORTS = frozenset((
    "_strptime", "warnings", "copyreg", "unicodedata", "encodings", "codecs", "traceback",
    "linecache", "__future__", "json.decoder", "_datetime", "_decimal", "_json",
))

#: Codecs looked up in ``prepare`` (a codec's module is imported on its first use).
_WARM_CODECS = (
    "ascii", "latin-1", "utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
    "utf-32-le", "utf-32-be", "cp1252", "idna", "punycode", "unicode_escape",
    "raw_unicode_escape", "hex", "base64", "rot13", "iso8859-15",
)

#: The deepest nesting of lists and dicts a value may have (a list of lists is depth 2):
#: the run frame's ``depth`` (``runtime.max_json_depth``) replaces it for each run.
MAX_DEPTH = 126

#: The most bytes of JSON one call's arguments may have: the run frame's ``callLimit``
#: (``runtime.max_call_bytes``) replaces it for each run.
CALL_LIMIT = 1 << 20
#: The longest frame body the host reads (the run frame's ``frameCap``): a frame that would
#: be longer is reported with an ``over`` frame instead (so a head over the cap is never the
#: bridge's; the host treats one as the protocol violation it is).
FRAME_CAP = 1 << 20

_MAX_SAFE_INTEGER = 2**53 - 1

#: Program frames shown per error (deep recursion would show thousands).
_FRAME_LINES_SHOWN = 20

#: A line of standard output longer than this goes out as a log before its newline.
_PARTIAL_LINE_CAP = 1 << 16

#: Read size for the answers.
_READ_SIZE = 1 << 18

_NEVER_FINISHES = (
    "the program can never finish: it awaits something that nothing will complete "
    "(no tool call, timer or other work is pending)"
)

_SURROGATES = re.compile("[\ud800-\udfff]")
_PLAIN_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
_WS: _AlwaysMatches = re.compile(r"[ \t\n\r]*")  # type: ignore[assignment]  # `*`: always matches

# Descriptors of `type` itself: they read a class's name, MRO and dict without going
# through its metaclass (so describing a value never runs program code).
_TYPE_NAME: _Descriptor[str] = type.__dict__["__name__"]
_TYPE_MRO: _Descriptor[tuple[type, ...]] = type.__dict__["__mro__"]
_TYPE_DICT: _Descriptor[Mapping[str, object]] = type.__dict__["__dict__"]

_CONTAINER = object()


class _State:
    """What ``prepare`` made and ``serve`` uses."""

    loop: asyncio.AbstractEventLoop | None = None
    selector: _IdleAwareSelector | None = None
    builtins: dict[str, Any] | None = None
    available: tuple[str, ...] = ()
    available_set: frozenset[str] = frozenset()
    known_types: tuple[tuple[type, str], ...] = ()
    host: _Host | None = None


_S = _State()


class _HostGone(BaseException):
    """The host's end of the protocol is gone: stop at once, send nothing more."""


# --------------------------------------------------------------------------------------
# prepare


def prepare() -> None:
    """Loads and warms up everything a run needs, creates the event loop. Call once,
    before the process is confined; never raises for a module that fails to load."""
    if _S.loop is not None:
        return
    available = []
    for name in OFFERED_MODULES:
        try:
            __import__(name)
        except Exception:
            continue
        available.append(name)
    for name in _SUPPORT_MODULES:
        try:
            __import__(name)
        except Exception:
            pass
    _warm_up()
    _S.available = tuple(available)
    _S.available_set = frozenset(available)
    _S.known_types = _known_types()
    _S.builtins = _restricted_builtins()
    selector = _IdleAwareSelector()
    loop = asyncio.SelectorEventLoop(selector)
    asyncio.set_event_loop(loop)
    loop.set_exception_handler(_loop_exception)
    _S.selector = selector
    _S.loop = loop
    # Everything loaded so far lives as long as the process: the collector leaves it alone
    # (and a worker forked from a template does not copy its pages by walking it).
    gc.freeze()


def _attempt(step: Callable[..., object], *args: object) -> None:
    try:
        step(*args)
    except Exception:
        pass


def _warm_up() -> None:
    """First uses that read files (or load code) which the confinement will deny."""
    import codecs

    for name in _WARM_CODECS:
        _attempt(codecs.lookup, name)
    _attempt(lambda: "\u00e9x".encode("idna"))
    hashlib = sys.modules.get("hashlib")
    if hashlib is not None:
        for name in (
            "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_512",
            "blake2b", "blake2s", "shake_128",
        ):
            _attempt(lambda n=name: hashlib.new(n, b"x").digest(16) if n.startswith("shake")
                     else hashlib.new(n, b"x").digest())
        _attempt(lambda: hashlib.md5(b"x", usedforsecurity=False).digest())
        _attempt(lambda: hashlib.sha256(b"x").hexdigest())
        _attempt(lambda: hashlib.pbkdf2_hmac("sha256", b"x", b"salt", 1))
    time = sys.modules.get("time")
    if time is not None:
        _attempt(time.localtime)
        _attempt(lambda: time.mktime(time.localtime()))
        _attempt(lambda: time.strftime("%c %Z"))
        _attempt(lambda: time.strptime("2024-01-02", "%Y-%m-%d"))
    datetime = sys.modules.get("datetime")
    if datetime is not None:
        _attempt(lambda: datetime.datetime.now().astimezone())
        _attempt(lambda: datetime.datetime.fromtimestamp(0))
        _attempt(lambda: datetime.datetime.strptime("2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S"))
        _attempt(lambda: datetime.datetime.now().strftime("%c %x %X %p %A %B"))
    unicodedata = sys.modules.get("unicodedata")
    if unicodedata is not None:
        _attempt(lambda: unicodedata.normalize("NFKC", "\ufb01"))
    # Non-ASCII identifiers make the parser import unicodedata (loaded above).
    _attempt(lambda: compile(ast.parse("\u00e9 = 1"), "<warm-up>", "exec"))
    decimal = sys.modules.get("decimal")
    if decimal is not None:
        _attempt(lambda: str(decimal.Decimal(1) / decimal.Decimal(7)))
    statistics = sys.modules.get("statistics")
    if statistics is not None:
        _attempt(lambda: statistics.median([1, 2, 3]))
        _attempt(lambda: statistics.NormalDist(0, 1).cdf(0.5))
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None:
        def make_dataclass() -> None:
            point = dataclasses.make_dataclass("Point", [("x", int), ("y", int, 0)])
            dataclasses.asdict(point(1))
            repr(point(1))
        _attempt(make_dataclass)
    enum = sys.modules.get("enum")
    if enum is not None:
        _attempt(lambda: list(enum.Enum("Colour", "RED GREEN")))
    typing = sys.modules.get("typing")
    if typing is not None:
        _attempt(lambda: typing.get_type_hints(typing.NamedTuple("Pair", [("a", int)])))
    functools = sys.modules.get("functools")
    if functools is not None:
        def dispatch() -> None:
            @functools.singledispatch  # type: ignore[untyped-decorator]  # a module from sys.modules
            def f(value: object) -> object:
                return value

            @f.register  # type: ignore[untyped-decorator]
            def _(value: int) -> int:
                return value

            f(1)
            f("x")
        _attempt(dispatch)
    uuid = sys.modules.get("uuid")
    if uuid is not None:
        _attempt(lambda: (uuid.uuid4(), uuid.uuid5(uuid.NAMESPACE_DNS, "x"),
                          uuid.uuid3(uuid.NAMESPACE_DNS, "x")))
    random = sys.modules.get("random")
    if random is not None:
        _attempt(lambda: random.Random("seed").random())
        _attempt(lambda: random.SystemRandom().random())
    _attempt(lambda: re.compile(r"(?i)\w+\d*\s").findall("\u00c9t\u00e9 2 "))
    _attempt(lambda: "{:n}".format(1234.5))  # noqa: UP032 -- warms up str.format's locale path


def _known_types() -> tuple[tuple[type, str], ...]:
    """Classes of the offered modules that a return value is often by mistake, with what
    to do instead (first match in the value's MRO wins; a datetime before a date)."""
    known: list[tuple[type, str]] = []

    def add(module: str, attribute: str, reason: str) -> None:
        mod = sys.modules.get(module)
        cls = getattr(mod, attribute, None) if mod is not None else None
        if isinstance(cls, type):
            known.append((cls, reason))

    add("decimal", "Decimal", "a Decimal is not JSON; convert it with float() or str()")
    add("fractions", "Fraction", "a Fraction is not JSON; convert it with float() or str()")
    add("datetime", "datetime", "a datetime is not JSON; convert it with .isoformat()")
    add("datetime", "date", "a date is not JSON; convert it with .isoformat()")
    add("datetime", "time", "a time is not JSON; convert it with .isoformat()")
    add("datetime", "timedelta", "a timedelta is not JSON; convert it with .total_seconds()")
    add("datetime", "tzinfo", "a time zone is not JSON; convert it with str()")
    add("uuid", "UUID", "a UUID is not JSON; convert it with str()")
    add("enum", "Enum", "an enum member is not JSON; use its .value")
    add("asyncio", "Future", "a Future is not JSON (did you forget await?)")
    add("collections", "deque", "a deque is not JSON; use a list")
    add("re", "Pattern", "a compiled pattern is not JSON; use its .pattern")
    add("re", "Match", "a match object is not JSON; use .group() or .groups()")
    return tuple(known)


def _restricted_builtins() -> dict[str, Any]:
    namespace = dict(builtins.__dict__)
    for name in ("open", "input", "breakpoint", "help", "exit", "quit", "copyright",
                 "credits", "license"):
        namespace.pop(name, None)
    namespace["print"] = _print
    namespace["__import__"] = _guarded_import
    return namespace


class _IdleAwareSelector(selectors.DefaultSelector):
    """The loop's selector; a wait without a timeout with no call pending is a deadlock
    (nothing can ever wake the loop), which stops the loop instead of hanging."""

    on_idle: Callable[[], bool] | None = None

    def select(
        self, timeout: float | None = None
    ) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None and self.on_idle is not None and self.on_idle():
            timeout = 0
        return super().select(timeout)


def _loop_exception(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """asyncio's reports (a callback that raised, an error never retrieved) become logs."""
    host = _S.host
    if host is None or host.closed:
        return
    try:
        text = "asyncio: " + str(context.get("message") or "an error in the event loop")
        exc = context.get("exception")
        if exc is not None:
            text += ": " + _exception_header(exc)
        host.log(text)
    except BaseException:
        pass


# --------------------------------------------------------------------------------------
# The program's builtins


def _guarded_import(
    name: object,
    globals: Mapping[str, object] | None = None,
    locals: Mapping[str, object] | None = None,
    fromlist: Sequence[str] = (),
    level: int = 0,
) -> types.ModuleType:
    """``__import__`` for the program: only the offered modules, already loaded."""
    if level:
        raise ImportError("relative imports are not available in this sandbox")
    if type(name) is not str:
        raise TypeError("module name must be str, not " + _type_name(type(name)))
    top = name.partition(".")[0]
    module = sys.modules.get(name)
    allowed = top in _S.available_set or name in _INTERNAL_IMPORTS
    if not allowed or not isinstance(module, types.ModuleType):
        raise ImportError(
            "module %r is not available in this sandbox (available: %s)"
            % (name, ", ".join(_S.available)),
            name=name,
        )
    if fromlist:
        return module
    return sys.modules[top]


def _print(
    *args: object, sep: str | None = " ", end: str | None = "\n", file: Any = None,
    flush: bool = False,
) -> None:
    """``print``: one log frame per call (``end`` and ``flush`` do not matter)."""
    if file is None:
        file = sys.stdout
    if type(file) is not _LogStream:
        return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
    if sep is None:
        sep = " "
    elif not isinstance(sep, str):
        raise TypeError("sep must be None or a string, not " + _type_name(type(sep)))
    file._print(sep.join([str(arg) for arg in args]))
    return None


_print.__name__ = _print.__qualname__ = "print"
_print.__module__ = "builtins"
# The type hints are for mypy only: a program inspecting print sees none, as with the builtin.
_print.__annotations__ = {}


class _LogStream:
    """``sys.stdout``/``sys.stderr`` of a run: each completed line is one log frame."""

    encoding = "utf-8"
    errors = "strict"
    newlines = None
    line_buffering = True
    closed = False

    def __init__(self, host: _Host, name: str) -> None:
        self._host = host
        self.name = name
        self._parts: list[str] = []
        self._size = 0

    def write(self, text: str) -> int:
        if type(text) is not str:
            if not isinstance(text, str):
                raise TypeError("write() argument must be str, not " + _type_name(type(text)))
            text = str.__str__(text)
        if "\n" in text:
            lines = text.split("\n")
            self._host.log(self._take() + lines[0])
            for line in lines[1:-1]:
                self._host.log(line)
            if lines[-1]:
                self._parts.append(lines[-1])
                self._size = len(lines[-1])
        elif text:
            self._parts.append(text)
            self._size += len(text)
            if self._size > _PARTIAL_LINE_CAP:
                self._host.log(self._take())
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def _take(self) -> str:
        text = "".join(self._parts)
        self._parts = []
        self._size = 0
        return text

    def _print(self, text: str) -> None:
        self._host.log(self._take() + text)

    def finish(self) -> None:
        """Sends what is left of an unfinished line."""
        if self._parts:
            self._host.log(self._take())

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def seekable(self) -> bool:
        return False

    def fileno(self) -> int:
        raise io.UnsupportedOperation("the program's output has no file descriptor")

    def __repr__(self) -> str:
        return "<%s: lines go to the run's log>" % self.name


# A program reaches these methods through sys.stdout: their type hints (for mypy only, and
# naming types that exist only under TYPE_CHECKING) are not shown to it.
for _method in vars(_LogStream).values():
    if callable(_method):
        _method.__annotations__ = {}
del _method


# --------------------------------------------------------------------------------------
# Namespaces and their errors


def _make_error_class(class_name: str, member_property: object) -> type:
    """The error class of a namespace: ``ToolCallError(message, member=None, code=None)``;
    instances have ``.message``, ``.code`` and the member property (e.g. ``.toolName``);
    ``str(e)`` is the message."""
    prop = member_property if _usable_property(member_property) else None

    def __init__(
        self: Any, message: object = "", member: object = None, code: object = None
    ) -> None:
        Exception.__init__(self, message)
        self.message = message
        self.code = code
        if prop is not None:
            setattr(self, prop, member)

    return type(class_name, (Exception,), {
        "__init__": __init__,
        "__module__": "__main__",
        "__qualname__": class_name,
        "__doc__": "A failed call of a namespace member: .message says why; ."
        + (prop or "member") + " names the member; .code is the failure's stable code"
        " (e.g. TOOL_DENIED).",
    })


def _usable_property(name: object) -> TypeGuard[str]:
    return (
        type(name) is str
        and name.isidentifier()
        and not name.startswith("__")
        and name not in ("args", "message", "code", "with_traceback", "add_note")
    )


def _tool_error(
    error_class: type, member_property: object, message: str, member: str,
    code: str | None = "INVALID_ARGS",
) -> BaseException:
    """A failed call's error: the message, the member and the failure's stable code
    (the worker's own refusals are of the arguments: ``INVALID_ARGS``)."""
    error: BaseException = error_class(message)
    if _usable_property(member_property):
        setattr(error, member_property, member)
    error.code = code  # type: ignore[attr-defined]  # the namespace's class declares it
    return error


def _make_member(
    host: _Host, index: int, label: str, name: str, error_class: type, member_property: object,
    positional: bool = False,
) -> _Member:
    def member(*args: object, **kwargs: object) -> asyncio.Future[Any]:
        value: object
        if positional:
            # The host reads the list of the arguments (``store.set(key, value)``).
            if kwargs:
                raise TypeError(
                    "%s.%s() takes positional arguments only, not %s="
                    % (label, name, next(iter(kwargs))))
            value = [*args]
        elif kwargs:
            if args:
                raise TypeError(
                    "%s() takes its arguments as one dict or as keyword arguments, not both"
                    % name
                )
            value = kwargs
        elif len(args) == 1:
            value = args[0]
        elif not args:
            value = {}
        else:
            raise TypeError(
                "%s() takes one argument (a dict of the tool's arguments), %d given"
                % (name, len(args))
            )
        future = host.call(index, name, value, error_class, member_property, positional)
        host.track(future, label, name, _program_line(sys._getframe(1)))
        return future

    member.__name__ = member.__qualname__ = name
    member.__module__ = None  # type: ignore[assignment]  # like a builtin's
    member.__annotations__ = {}  # the hints are for mypy; a program inspecting a tool sees none
    return member


def _make_namespace(
    host: _Host, index: int, label: str, member_names: list[object], error_class: type,
    member_property: object, positional: bool = False,
) -> object:
    """The namespace object: members as attributes (ASCII identifiers) and items (all)."""
    members: dict[str, _Member] = {}
    for name in member_names:
        if type(name) is str and name not in members:
            members[name] = _make_member(
                host, index, label, name, error_class, member_property, positional)
    attributes = {n: f for n, f in members.items() if n.isascii() and n.isidentifier()}
    names = tuple(members)

    def unknown(name: object, how: str) -> str:
        if type(name) is not str:
            return "%s members are named by strings, not %s" % (label, _type_name(type(name)))
        if how == "attribute" and name in members:
            return "%s member %r is reached by subscript: %s[%r]" % (label, name, label, name)
        text = "%s has no member %r" % (label, name)
        difflib = sys.modules.get("difflib")
        close: list[str] = []
        if difflib is not None:
            try:
                close = difflib.get_close_matches(name, names, n=3)
            except Exception:
                close = []
        if close:
            spelled = " or ".join(
                ("%s.%s" % (label, c)) if c in attributes else ("%s[%r]" % (label, c))
                for c in close
            )
            text += "; did you mean " + spelled + "?"
        else:
            text += " (it has %d; list(%s) names them)" % (len(names), label)
        return text

    def __getattribute__(self: object, name: str) -> object:
        found = attributes.get(name)
        if found is not None:
            return found
        if type(name) is str and name[:2] == "__" and name[-2:] == "__":
            return object.__getattribute__(self, name)
        raise AttributeError(unknown(name, "attribute"))

    def __getitem__(self: object, name: object) -> _Member:
        if type(name) is str:
            found = members.get(name)
            if found is not None:
                return found
        raise KeyError(unknown(name, "item"))

    def __setattr__(self: object, name: str, value: object) -> None:
        raise AttributeError("%s is read-only" % label)

    def __delattr__(self: object, name: str) -> None:
        raise AttributeError("%s is read-only" % label)

    def __contains__(self: object, name: object) -> bool:
        return type(name) is str and name in members

    def __iter__(self: object) -> Iterator[str]:
        return iter(names)

    def __len__(self: object) -> int:
        return len(names)

    def __dir__(self: object) -> list[str]:
        return list(attributes)

    def __repr__(self: object) -> str:
        shown = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")
        return "<%s: %d members: %s>" % (label, len(names), shown)

    cls = type(label if label.isidentifier() else "Namespace", (), {
        "__slots__": (),
        "__module__": "__main__",
        "__getattribute__": __getattribute__,
        "__getitem__": __getitem__,
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
        "__contains__": __contains__,
        "__iter__": __iter__,
        "__len__": __len__,
        "__dir__": __dir__,
        "__repr__": __repr__,
    })
    return object.__new__(cls)


# --------------------------------------------------------------------------------------
# Lossless JSON


def _type_name(cls: object) -> str:
    try:
        return _TYPE_NAME.__get__(cls, type)
    except Exception:
        return "object"


def _mro(cls: object) -> tuple[type, ...]:
    try:
        return _TYPE_MRO.__get__(cls, type)
    except Exception:
        return ()


_EXACT_REASONS: tuple[tuple[type, str], ...] = (
    (tuple, "a tuple is not JSON; use a list"),
    (set, "a set is not JSON; use a list"),
    (frozenset, "a frozenset is not JSON; use a list"),
    (bytes, "bytes are not JSON; decode them to a str (or base64-encode them)"),
    (bytearray, "a bytearray is not JSON; decode it to a str (or base64-encode it)"),
    (memoryview, "a memoryview is not JSON; decode it to a str (or base64-encode it)"),
    (complex, "a complex number is not JSON; use a list [real, imag]"),
    (range, "a range is not JSON; use list(...)"),
    (types.GeneratorType, "a generator is not JSON; use list(...)"),
    (types.AsyncGeneratorType, "an async generator is not JSON; collect it into a list"),
    (types.CoroutineType, "a coroutine is not JSON (did you forget await?)"),
    (types.FunctionType, "a function is not JSON (did you forget to call it?)"),
    (types.BuiltinFunctionType, "a function is not JSON (did you forget to call it?)"),
    (types.MethodType, "a method is not JSON (did you forget to call it?)"),
    (types.ModuleType, "a module is not JSON"),
    (type, "a class is not JSON"),
    (type({}.keys()), "dict keys are not JSON; use list(...)"),
    (type({}.values()), "dict values are not JSON; use list(...)"),
    (type({}.items()), "dict items are not JSON; use a dict or list(...)"),
    (map, "a map object is not JSON; use list(...)"),
    (filter, "a filter object is not JSON; use list(...)"),
    (zip, "a zip object is not JSON; use list(...)"),
    (enumerate, "an enumerate object is not JSON; use list(...)"),
    (reversed, "a reversed object is not JSON; use list(...)"),
)


def _describe(value: object) -> str:
    """Why ``value`` (not a JSON type) is refused, without running any of its code."""
    cls = type(value)
    for exact, reason in _EXACT_REASONS:
        if cls is exact:
            return reason
    mro = _mro(cls)
    name = _type_name(cls)
    for known, reason in _S.known_types:
        for base in mro:
            if base is known:
                return reason
    for base in mro:
        try:
            if "__dataclass_fields__" in _TYPE_DICT.__get__(base, type):
                return ("a dataclass instance (%s) is not JSON; convert it with "
                        "dataclasses.asdict()" % name)
        except Exception:
            pass
    for base in mro:
        if base is tuple:
            return "a %s (a tuple) is not JSON; use a list (or a dict: ._asdict())" % name
        for plain in (str, int, float, list, dict):
            if base is plain:
                plain_name = _type_name(plain)
                return "an object of type %s (a %s subclass) is not JSON; convert it with %s()" % (
                    name, plain_name, plain_name)
    return "an object of type %s is not JSON" % name


def _int_reason(value: int) -> str:
    text = str(value) if value.bit_length() <= 3000 else "of %d bits" % value.bit_length()
    return ("integer %s is outside \u00b1(2^53\u22121) and would change as a JavaScript "
            "number" % text)


def _float_reason(value: float) -> str:
    if value == 0.0:
        return "-0.0 is not JSON (JSON text would make it 0; use 0.0)"
    return "%r is not a finite number (JSON has no NaN or Infinity)" % value


def _surrogate_reason(text: str, what: str) -> str:
    found = _SURROGATES.search(text)
    return "%s with a lone surrogate (U+%04X at index %d) is not UTF-8 text" % (
        what, ord(found.group()), found.start())  # type: ignore[union-attr]  # callers found one


def _key_step(key: str) -> str:
    if _PLAIN_KEY.match(key):
        return "." + key
    return "[" + (_quote_ascii(key) if _SURROGATES.search(key) is not None else _quote(key)) + "]"


def _path(frames: list[list[Any]], count: int, last: str | None = None) -> str:
    """The path through the first ``count`` frames (each at the child it is on), then
    ``last`` (a step, already written) if given."""
    steps = []
    for frame in frames[:count]:
        index = frame[2] - 1
        steps.append(_key_step(frame[1][index][0]) if frame[3] else "[%d]" % index)
    if last is not None:
        steps.append(last)
    if len(steps) > 100:
        return "$%s...(%d steps)...%s" % (
            "".join(steps[:50]), len(steps) - 100, "".join(steps[-50:]))
    return "$" + "".join(steps)


def _check_json(root: Any) -> tuple[str | None, int]:
    """``(None, depth)`` when ``root`` is lossless JSON (``depth``: its deepest nesting),
    else ``("$.path: reason", 0)``. Iterative; exact types only, no program code runs."""
    cls = type(root)
    if cls is str:
        if not root.isascii() and _SURROGATES.search(root):
            return "$: " + _surrogate_reason(root, "a str"), 0
        return None, 0
    if cls is int:
        if -_MAX_SAFE_INTEGER <= root <= _MAX_SAFE_INTEGER:
            return None, 0
        return "$: " + _int_reason(root), 0
    if cls is float:
        if root - root == 0.0 and (root != 0.0 or _copysign(1.0, root) > 0):
            return None, 0
        return "$: " + _float_reason(root), 0
    if root is None or cls is bool:
        return None, 0
    if cls is not list and cls is not dict:
        return "$: " + _describe(root), 0
    if MAX_DEPTH < 1:
        return "$: lists and dicts nest deeper than %d levels" % MAX_DEPTH, 0
    # A frame: [container, items (the list, or the dict's (key, value) pairs), next index,
    # is a dict].
    frames: list[list[Any]] = [[root, root if cls is list else list(root.items()), 0, cls is dict]]
    on_path = {id(root)}
    deepest = 1
    surrogates = _SURROGATES.search
    while frames:
        frame = frames[-1]
        items = frame[1]
        index = frame[2]
        if index >= len(items):
            frames.pop()
            on_path.discard(id(frame[0]))
            continue
        frame[2] = index + 1
        if frame[3]:
            key, value = items[index]
            if type(key) is not str:
                return "%s: a key of type %s; JSON keys are strings" % (
                    _path(frames, len(frames) - 1), _type_name(type(key))), 0
            if not key.isascii() and surrogates(key):
                return "%s: %s" % (
                    _path(frames, len(frames) - 1), _surrogate_reason(key, "a key")), 0
        else:
            value = items[index]
        cls = type(value)
        if cls is str:
            if not value.isascii() and surrogates(value):
                return "%s: %s" % (_path(frames, len(frames)), _surrogate_reason(value, "a str")), 0
            continue
        if cls is int:
            if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
                continue
            return "%s: %s" % (_path(frames, len(frames)), _int_reason(value)), 0
        if cls is float:
            if value - value == 0.0 and (value != 0.0 or _copysign(1.0, value) > 0):
                continue
            return "%s: %s" % (_path(frames, len(frames)), _float_reason(value)), 0
        if value is None or cls is bool:
            continue
        if cls is list or cls is dict:
            if id(value) in on_path:
                for ancestor, frame_of in enumerate(frames):  # noqa: B007 -- used after break
                    if frame_of[0] is value:
                        break
                return "%s: circular reference (back to %s)" % (
                    _path(frames, len(frames)), _path(frames, ancestor)), 0
            if len(frames) >= MAX_DEPTH:
                return "%s: lists and dicts nest deeper than %d levels" % (
                    _path(frames, len(frames)), MAX_DEPTH), 0
            frames.append([value, value if cls is list else list(value.items()), 0, cls is dict])
            on_path.add(id(value))
            if len(frames) > deepest:
                deepest = len(frames)
            continue
        return "%s: %s" % (_path(frames, len(frames)), _describe(value)), 0
    return None, deepest


# The bridge's JSON codec: the C accelerator's functions, captured and configured here,
# before any program runs. A program that patches `json.dumps`, `json.loads`,
# `json.JSONEncoder`, `json.JSONDecoder` or the globals of `json.encoder` and
# `json.decoder` changes what its own `json` does, never what the bridge sends or reads:
# these objects hold their settings in C and look nothing up in those modules.
_make_encoder = _json.make_encoder
_quote = _json.encode_basestring
_quote_ascii = _json.encode_basestring_ascii
# (typeshed types the context as a scanner; the C type reads a decoder's attributes.)
_scan = _json.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def _not_json(value: object) -> object:
    raise TypeError("Object of type %s is not JSON serializable" % type(value).__name__)


# Compact, not ASCII-escaped, no NaN; without a circularity check (for checked values: the
# check refused cycles), so one encoder serves every call.
_ENCODE_CHECKED = _make_encoder(None, _not_json, _quote, None, ":", ",", False, False, False)


def _dumps(value: object) -> str:
    """Compact JSON text of ``value`` (cycles refused: a fresh marker table per call)."""
    encode = _make_encoder({}, _not_json, _quote, None, ":", ",", False, False, False)
    return "".join(encode(value, 0))


def _encode_checked(value: object, depth: int) -> str:
    """JSON text of a value ``_check_json`` accepted (C encoder when shallow)."""
    if depth <= 64:
        try:
            return "".join(_ENCODE_CHECKED(value, 0))
        except RecursionError:
            pass
    return _encode_deep(value)


def _encode_deep(root: Any) -> str:
    """JSON text of a checked value, without recursion."""
    out: list[str] = []
    put = out.append
    quote = _quote
    frames: list[list[Any]] = []
    value = root
    while True:
        cls = type(value)
        if cls is str:
            put(quote(value))
        elif cls is list:
            if value:
                put("[")
                frames.append([value, 0, False])
            else:
                put("[]")
        elif cls is dict:
            if value:
                put("{")
                frames.append([list(value.items()), 0, True])
            else:
                put("{}")
        elif value is None:
            put("null")
        elif value is True:
            put("true")
        elif value is False:
            put("false")
        elif cls is int:
            put(int.__repr__(value))
        else:
            put(float.__repr__(value))
        while frames:
            frame = frames[-1]
            items = frame[0]
            index = frame[1]
            if index == len(items):
                frames.pop()
                put("}" if frame[2] else "]")
                continue
            if index:
                put(",")
            frame[1] = index + 1
            if frame[2]:
                key, value = items[index]
                put(quote(key))
                put(":")
            else:
                value = items[index]
            break
        else:
            return "".join(out)


def _loads(text: str) -> Any:
    """Parses JSON text (ValueError if it is not exactly one JSON value); deep text is parsed
    without recursion."""
    try:
        value, end = _scan(text, _WS.match(text, 0).end())
    except StopIteration as err:
        raise ValueError("expected a value at %d" % err.value) from None
    except RecursionError:
        return _loads_deep(text)
    if _WS.match(text, end).end() != len(text):
        raise ValueError("extra data at %d" % end)
    return value


def _clean(text: str) -> str:
    """Text safe to send: a lone surrogate becomes U+FFFD."""
    if text.isascii():
        return text
    return _SURROGATES.sub("\ufffd", text)


# --------------------------------------------------------------------------------------
# Describing errors


def _exception_header(exc: BaseException) -> str:
    """``Name: text`` (or ``Name`` when the text is empty) of an exception."""
    name = _type_name(type(exc))
    try:
        text = str(exc)
    except BaseException:
        text = "<exception str() failed>"
    text = _with_suggestion(exc, text)
    if name == "RuntimeError" and text.startswith("asyncio.run() cannot be called from a running"):
        text += (" (the program already runs in an event loop: await the coroutine instead, "
                 "e.g. `return await main()`)")
    return "%s: %s" % (name, text) if text else name


def _with_suggestion(exc: BaseException, text: str) -> str:
    """Python's "Did you mean" for a NameError or AttributeError (the interpreter adds it
    only when it prints a traceback itself), and a missing import of an offered module."""
    try:
        name = getattr(exc, "name", None)
        if type(name) is not str or not isinstance(exc, (NameError, AttributeError)):
            return text
        if "did you mean" in text.lower():  # a namespace's own suggestion (tools.x)
            return text
        if isinstance(exc, NameError):
            tb = exc.__traceback__
            if tb is None:
                return text
            while tb.tb_next is not None:
                tb = tb.tb_next
            frame = tb.tb_frame
            candidates = list(frame.f_locals) + list(frame.f_globals) + list(frame.f_builtins)
        else:
            candidates = dir(getattr(exc, "obj", None))
        candidates = [c for c in candidates[:1000] if type(c) is str and c != name]
        difflib = sys.modules.get("difflib")
        close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.7) if difflib else []
        if close:
            text += ". Did you mean: %r?" % close[0]
        if isinstance(exc, NameError) and name in _S.available_set:
            text += (" Or did you forget to import %r?" if close else
                     ". Did you forget to import %r?") % name
    except BaseException:
        pass
    return text


def _frame_lines(numbers: Sequence[int | None]) -> list[str]:
    lines: list[str] = []
    index = 0
    while index < len(numbers):
        end = index
        while end < len(numbers) and numbers[end] == numbers[index]:
            end += 1
        number = numbers[index]
        line = ("  at %s, line %d" % (PROGRAM_FILE, number)) if isinstance(number, int) \
            else "  at " + PROGRAM_FILE
        run = end - index
        lines.extend([line] * min(run, 3))
        if run > 3:
            lines.append("  [previous line repeated %d more times]" % (run - 3))
        index = end
    if len(lines) > _FRAME_LINES_SHOWN:
        tail = _FRAME_LINES_SHOWN - 5
        lines = lines[:5] + ["  ... %d more ..." % (len(lines) - 5 - tail)] + lines[-tail:]
    return lines


def _program_line_numbers(tb: types.TracebackType | None) -> list[int | None]:
    numbers: list[int | None] = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == PROGRAM_FILE:
            numbers.append(tb.tb_lineno)
        tb = tb.tb_next
    return numbers


def _describe_exception(exc: BaseException, depth: int = 0) -> str:
    """The header, notes and the program's frames (innermost last) of an uncaught
    exception; the first sub-exceptions of a group."""
    lines = [_exception_header(exc)]
    try:
        notes = getattr(exc, "__notes__", None)
        if isinstance(notes, list):
            lines.extend(note for note in notes[:10] if isinstance(note, str))
    except BaseException:
        pass
    lines.extend(_frame_lines(_program_line_numbers(exc.__traceback__)))
    if isinstance(exc, getattr(builtins, "BaseExceptionGroup", ())) and depth < 3:
        subs = exc.exceptions  # type: ignore[attr-defined]  # a BaseExceptionGroup (3.11+)
        for number, sub in enumerate(subs[:10], 1):
            sub_lines = _describe_exception(sub, depth + 1).split("\n")
            lines.append("  [%d] %s" % (number, sub_lines[0]))
            lines.extend("    " + line for line in sub_lines[1:])
        if len(subs) > 10:
            lines.append("  ... and %d more" % (len(subs) - 10))
    return "\n".join(lines)


def _describe_syntax_error(exc: SyntaxError) -> str:
    name = _type_name(type(exc))
    message = exc.msg if isinstance(exc.msg, str) else str(exc)
    where = [PROGRAM_FILE]
    if isinstance(exc.lineno, int):
        where.append("line %d" % exc.lineno)
        if isinstance(exc.offset, int) and exc.offset > 0:
            where.append("column %d" % exc.offset)
    return "%s: %s (%s)" % (name, message, ", ".join(where))


def _stuck_lines(task: asyncio.Task[Any]) -> list[str]:
    """Where the program waits (for a run that can never finish)."""
    numbers: list[int | None] = []
    coro: Any = task.get_coro()
    for _ in range(1000):
        if coro is None:
            break
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None and frame.f_code.co_filename == PROGRAM_FILE:
            numbers.append(frame.f_lineno)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return _frame_lines(numbers)


# --------------------------------------------------------------------------------------
# Compiling the program


def _compile(source: str) -> types.CodeType:
    """The program as the body of ``async def __program__()``, compiled as program.py."""
    tree = ast.parse(source, PROGRAM_FILE, "exec")
    body = tree.body
    # `from __future__ import ...` must stay at module level (after a docstring).
    start = 1 if body and isinstance(body[0], ast.Expr) and isinstance(
        body[0].value, ast.Constant) and isinstance(body[0].value.value, str) else 0
    end = start
    while end < len(body) and isinstance(body[end], ast.ImportFrom) and \
            body[end].module == "__future__":  # type: ignore[attr-defined]  # an ImportFrom
        end += 1
    future = body[start:end]
    body = body[:start] + body[end:]
    # Script semantics for `global`: a name that a nested function declares global (or that
    # the program declares global at its top level) is a global of the program's own body
    # too, so `counter = 0` then `def bump(): global counter` share one variable.
    shared = _global_names(body)
    body = [node for node in body if not isinstance(node, ast.Global)]
    found = _top_level_yield(body)
    if found is not None:
        raise SyntaxError("'yield' outside function", (
            PROGRAM_FILE, found.lineno, found.col_offset + 1, None))
    if not body:
        body = [ast.Pass(lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)]
    last = body[-1]
    if shared:
        body = [ast.Global(names=shared, lineno=1, col_offset=0, end_lineno=1,
                           end_col_offset=0)] + body
    function = ast.AsyncFunctionDef(
        name="__program__",
        args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                           kw_defaults=[], kwarg=None, defaults=[]),
        body=body,
        decorator_list=[],
        returns=None,
        type_comment=None,
    )
    if "type_params" in ast.AsyncFunctionDef._fields:
        function.type_params = []  # type: ignore[attr-defined]  # 3.12+
    function.lineno = 1
    function.col_offset = 0
    function.end_lineno = getattr(last, "end_lineno", None) or getattr(last, "lineno", 1)
    function.end_col_offset = getattr(last, "end_col_offset", None) or 0
    module = ast.Module(body=future + [function], type_ignores=[])
    # Every parsed node has its location; only the function is new (set above), so
    # ast.fix_missing_locations (recursive) is not needed.
    return compile(module, PROGRAM_FILE, "exec", dont_inherit=True)


def _global_names(body: list[ast.stmt]) -> list[str]:
    """The names of every `global` statement of the program, sorted."""
    names: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global):
            names.update(node.names)
        stack.extend(ast.iter_child_nodes(node))
    return sorted(names)


def _top_level_yield(body: list[ast.stmt]) -> ast.Yield | ast.YieldFrom | None:
    """A `yield` of the program's own body (it would make it an async generator)."""
    skip = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
            ast.SetComp, ast.DictComp, ast.GeneratorExp)
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return node
        if isinstance(node, skip):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return None


def _cache_source(source: str) -> None:
    """The program's lines for linecache (warnings and tracebacks read no file)."""
    linecache = sys.modules.get("linecache")
    if linecache is None:
        return
    lines = [line + "\n" for line in source.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    linecache.cache[PROGRAM_FILE] = (len(source), None, lines, PROGRAM_FILE)


# --------------------------------------------------------------------------------------
# The host connection


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    written = 0
    while written < len(view):
        try:
            written += os.write(fd, view[written:])
        except BlockingIOError:
            select.select([], [fd], [])


if TYPE_CHECKING:
    _FutureBase = asyncio.Future[Any]
else:
    _FutureBase = asyncio.Future


class _Call(_FutureBase):
    """The future of one tool call, which knows whether the program ever awaited it (or
    handed it to ``gather``, ``wait``, ... -- they add a done callback -- or read its result):
    a call the program drops is reported when the run ends, not lost silently."""

    awaited = False
    tracker: dict[int, _Call] | None = None
    call_id = 0
    label = ""
    member = ""
    line = 0

    def _seen(self) -> None:
        if not self.awaited:
            self.awaited = True
            if self.tracker is not None:
                self.tracker.pop(self.call_id, None)

    def __await__(self) -> Generator[Any, None, Any]:
        self._seen()
        return super().__await__()

    __iter__ = __await__

    def add_done_callback(
        self, fn: Callable[[_Call], object], /, *, context: contextvars.Context | None = None
    ) -> None:
        self._seen()
        super().add_done_callback(fn, context=context)

    def result(self) -> Any:
        self._seen()
        return super().result()

    def exception(self) -> BaseException | None:
        self._seen()
        return super().exception()


def _program_line(frame: types.FrameType | None) -> int:
    """The line of the program's frame among the nearest few (0 when none is the program's)."""
    for _ in range(8):
        if frame is None:
            return 0
        if frame.f_code.co_filename == PROGRAM_FILE:
            return frame.f_lineno
        frame = frame.f_back
    return 0


def _unawaited_line(call: _Call) -> str:
    """What the model reads about a call its program never awaited."""
    where = " (line %d)" % call.line if call.line else ""
    what = "%s.%s%s was called but never awaited" % (call.label, call.member, where)
    if not call.done():
        return (what + ": the run ended before its answer, so its result was lost (the call "
                "may have been cancelled); await it, or gather the calls")
    if call.cancelled():
        return what + ": it was cancelled"
    error = super(_Call, call).exception()
    if error is not None:
        return "%s: it failed and the error was never raised: %s" % (what, error)
    return what + ": it ran, and its result was dropped; await it to use the result"


#: How many never-awaited calls a run's output names one by one.
_UNAWAITED_SHOWN = 10


class _Host:
    """The protocol on the two descriptors: frames out, answers in."""

    def __init__(self, rfd: int, wfd: int) -> None:
        self.rfd = rfd
        self.wfd = wfd
        self.inbox = bytearray()
        self.next_id = 1
        # id -> (future, member, error class, member property)
        # Per pending call: its future, member, error class, member property, and whether
        # its answer is a positional namespace's (a list of at most one value).
        self.pending: dict[int, tuple[asyncio.Future[Any], str, type, object, bool]] = {}
        self.closed = False  # `done` was sent (or the host is gone): nothing more goes out
        self.eof = False
        self.idle_stop = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.streams: tuple[_LogStream, ...] = ()
        # id -> a call the program has not awaited (yet), reported when the run ends
        self.unawaited: dict[int, _Call] = {}
        self.next_tracked = 1
        # A frame sent while another is being written (a finalizer or signal handler that
        # prints between two partial writes) waits its turn: frames never interleave.
        self.sending = False
        self.deferred: list[bytes] = []

    # Out

    def send_bytes(self, body: bytes) -> None:
        if self.closed:
            return
        if len(body) > FRAME_CAP:
            body = ('{"t":"over","bytes":%d}' % len(body)).encode("ascii")
        frame = len(body).to_bytes(4, "little") + body
        if self.sending:
            self.deferred.append(frame)
            return
        self.sending = True
        try:
            _write_all(self.wfd, frame)
            while self.deferred:
                _write_all(self.wfd, self.deferred.pop(0))
        except OSError:
            self.closed = True
            raise _HostGone() from None
        finally:
            self.sending = False

    def send_text(self, text: str) -> None:
        self.send_bytes(text.encode("utf-8"))

    def log(self, text: str) -> None:
        if not self.closed:
            self.send_text('{"t":"log","s":' + _dumps(_clean(text)) + "}")

    def call(
        self, index: int, member: str, value: object, error_class: type, member_property: object,
        positional: bool = False,
    ) -> asyncio.Future[Any]:
        # prepare() made _S.loop (serve needs it before any call).
        loop: asyncio.AbstractEventLoop = (
            self.loop if self.loop is not None else _S.loop  # type: ignore[assignment]
        )
        problem, depth = _check_json(value)
        future = _Call(loop=loop)
        if problem is not None:
            future.set_exception(_tool_error(
                error_class, member_property,
                "the arguments are not lossless JSON: " + problem, member))
            return future
        args = _encode_checked(value, depth).encode("utf-8")
        if len(args) > CALL_LIMIT:
            future.set_exception(_tool_error(
                error_class, member_property,
                "the arguments are over the per-call limit: their JSON text is %d bytes, "
                "more than %d (runtime.max_call_bytes)" % (len(args), CALL_LIMIT), member))
            return future
        call_id = self.next_id
        body = b"".join((
            ('{"t":"call","id":%d,"ns":%d,"m":%s,"args":' % (
                call_id, index, _dumps(_clean(member)))).encode("utf-8"),
            args, b"}"))
        self.next_id = call_id + 1
        self.pending[call_id] = (future, member, error_class, member_property, positional)
        self.send_bytes(body)
        return future

    def track(self, future: asyncio.Future[Any], label: str, member: str, line: int) -> None:
        """Remembers a call until the program awaits it (see ``_Call``)."""
        if type(future) is not _Call or future.awaited:
            return
        future.call_id = self.next_tracked
        self.next_tracked += 1
        future.tracker = self.unawaited
        future.label = label
        future.member = member
        future.line = line
        self.unawaited[future.call_id] = future

    def finish_streams(self) -> None:
        for stream in self.streams:
            stream.finish()
        # The calls the program never awaited, in the order it made them, after its output.
        for call in list(self.unawaited.values())[:_UNAWAITED_SHOWN]:
            self.log(_unawaited_line(call))
        if len(self.unawaited) > _UNAWAITED_SHOWN:
            more = len(self.unawaited) - _UNAWAITED_SHOWN
            self.log("... and %d more calls never awaited" % more)
        self.unawaited.clear()

    def finish_error(self, kind: str, message: str) -> None:
        if self.closed:
            return
        self.finish_streams()
        self.send_text(_dumps({"t": "done", "error": {"kind": kind, "message": _clean(message)}}))
        self.closed = True

    def finish_value(self, value: object) -> None:
        if self.closed:
            return
        if value is None:
            self.finish_streams()
            self.send_text('{"t":"done"}')
            self.closed = True
            return
        problem, depth = _check_json(value)
        if problem is not None:
            self.finish_error("invalid-output", "the return value is not lossless JSON: " + problem)
            return
        body = ('{"t":"done","value":' + _encode_checked(value, depth) + "}").encode("utf-8")
        if len(body) > 0xFFFFFFFF:
            self.finish_error("invalid-output", "the return value is too large to send (%d bytes "
                              "of JSON)" % len(body))
            return
        self.finish_streams()
        self.send_bytes(body)
        self.closed = True

    # In

    def _take_frame(self) -> bytes | None:
        inbox = self.inbox
        if len(inbox) < 4:
            return None
        length = int.from_bytes(inbox[:4], "little")
        if len(inbox) < 4 + length:
            return None
        body = bytes(inbox[4:4 + length])
        del inbox[:4 + length]
        return body

    def read_frame_blocking(self) -> bytes | None:
        """The next frame's bytes, or None at the end of the stream."""
        while True:
            body = self._take_frame()
            if body is not None:
                return body
            try:
                chunk = os.read(self.rfd, _READ_SIZE)
            except BlockingIOError:
                select.select([self.rfd], [], [])
                continue
            if not chunk:
                return None
            self.inbox += chunk

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Reads the answers through ``loop`` from now on."""
        self.loop = loop
        try:
            os.set_blocking(self.rfd, False)
        except OSError:
            pass  # one read per readiness works on a blocking pipe too
        loop.add_reader(self.rfd, self._readable)
        if _S.selector is not None:
            _S.selector.on_idle = self._idle
        if self.inbox:
            loop.call_soon(self._dispatch)

    def _readable(self) -> None:
        try:
            chunk = os.read(self.rfd, _READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.eof = True
            try:
                self.loop.remove_reader(self.rfd)  # type: ignore[union-attr]  # start() set it
            except Exception:
                pass
            self.loop.stop()  # type: ignore[union-attr]  # start() set it
            return
        self.inbox += chunk
        self._dispatch()

    def _dispatch(self) -> None:
        while True:
            body = self._take_frame()
            if body is None:
                return
            self._answer(body)

    def _answer(self, body: bytes) -> None:
        try:
            frame = _loads(body.decode("utf-8"))
        except Exception:
            return
        if type(frame) is not dict or frame.get("t") != "ret":
            return
        call_id = frame.get("id")
        if type(call_id) is not int or call_id not in self.pending:
            return
        if "ok" in frame:
            future, _member, _cls, _prop, positional = self.pending.pop(call_id)
            value = frame["ok"]
            if positional:
                value = value[0] if type(value) is list and value else None
            if not future.done():
                future.set_result(value)
        elif "err" in frame:
            future, member, error_class, member_property, _positional = self.pending.pop(call_id)
            message = frame["err"]
            if type(message) is not str:
                message = _dumps(message)
            code = frame.get("code")
            if not future.done():
                future.set_exception(_tool_error(
                    error_class, member_property, message, member,
                    code if type(code) is str else None))

    def _idle(self) -> bool:
        if self.pending or self.eof or self.closed:
            return False
        self.idle_stop = True
        self.loop.stop()  # type: ignore[union-attr]  # start() set it
        return True


# --------------------------------------------------------------------------------------
# serve


def serve(rfd: int, wfd: int) -> None:
    """Runs the one program of this worker over the protocol on ``rfd``/``wfd`` and
    returns after its ``done`` frame (or at the end of the input). Never raises."""
    host: _Host | None = None
    try:
        host = _Host(rfd, wfd)
        _S.host = host
        _serve(host)
    except _HostGone:
        return
    except BaseException as exc:
        try:
            if host is not None and not host.closed:
                host.finish_error("exception",
                                  "the Python runtime failed: " + _exception_header(exc))
        except BaseException:
            pass


def _program_globals(host: _Host, namespaces: list[object]) -> dict[str, Any]:
    env: dict[str, Any] = {"__builtins__": _S.builtins, "__name__": "__main__"}
    classes: dict[str, type] = {}
    for index, spec in enumerate(namespaces):
        if type(spec) is not dict:
            continue
        label = spec.get("global")
        class_name = spec.get("error_class")
        member_property = spec.get("member_property")
        member_names = spec.get("members")
        if type(label) is not str or type(class_name) is not str or type(member_names) is not list:
            continue
        error_class = classes.get(class_name)
        if error_class is None:
            error_class = classes[class_name] = _make_error_class(class_name, member_property)
        namespace: object
        if spec.get("callable") is True:
            # ``progress(...)``: the global is the one member itself; its errors' class is
            # no global of its own.
            first = member_names[0] if member_names else None
            if type(first) is not str or label == "__builtins__":
                continue
            env[label] = _make_member(host, index, label, first, error_class, member_property, True)
            continue
        namespace = _make_namespace(host, index, label, member_names, error_class,
                                    member_property, spec.get("positional") is True)
        if class_name != "__builtins__":
            env[class_name] = error_class
        if label != "__builtins__":
            env[label] = namespace
    return env


def _serve(host: _Host) -> None:
    if _S.loop is None:
        prepare()
    loop: asyncio.AbstractEventLoop = _S.loop  # type: ignore[assignment]  # prepare() made it
    host.send_text('{"t":"ready"}')
    while True:
        body = host.read_frame_blocking()
        if body is None:
            return
        try:
            frame = _loads(body.decode("utf-8"))
        except Exception:
            continue
        if type(frame) is dict and frame.get("t") == "run":
            break
    program = frame.get("program")
    namespaces = frame.get("namespaces", [])
    global MAX_DEPTH, CALL_LIMIT, FRAME_CAP
    depth = frame.get("depth")
    if type(depth) is int and depth > 0:
        MAX_DEPTH = depth
    call_limit = frame.get("callLimit")
    if type(call_limit) is int and call_limit > 0:
        CALL_LIMIT = call_limit
    frame_cap = frame.get("frameCap")
    if type(frame_cap) is int and frame_cap > 0:
        FRAME_CAP = frame_cap
    if type(program) is not str or type(namespaces) is not list:
        host.finish_error("exception", "the Python runtime failed: a malformed run frame")
        return
    stdout = _LogStream(host, "<stdout>")
    stderr = _LogStream(host, "<stderr>")
    host.streams = (stdout, stderr)
    sys.stdout = stdout
    sys.stderr = stderr
    _cache_source(program)
    try:
        code = _compile(program)
    except SyntaxError as exc:
        host.finish_error("exception", _describe_syntax_error(exc))
        return
    except ValueError as exc:  # 3.11: "source code string cannot contain null bytes"
        host.finish_error("exception", "SyntaxError: %s (%s)" % (exc, PROGRAM_FILE))
        return
    except Exception as exc:  # e.g. RecursionError for a too deeply nested program
        host.finish_error("exception", _exception_header(exc))
        return
    env = _program_globals(host, namespaces)
    try:
        exec(code, env)
    except BaseException as exc:
        host.finish_error("exception", _describe_exception(exc))
        return
    coroutine = env.pop("__program__")()
    if type(coroutine) is not types.CoroutineType:
        host.finish_error("exception", "SyntaxError: 'yield' outside function (%s)" % PROGRAM_FILE)
        return
    host.start(loop)
    task = loop.create_task(coroutine)
    try:
        value = loop.run_until_complete(task)
    except _HostGone:
        return
    except BaseException as exc:
        if host.eof:
            return
        if host.idle_stop and not task.done():
            message = "\n".join([_NEVER_FINISHES] + _stuck_lines(task))
            host.finish_error("exception", message)
            return
        host.finish_error("exception", _describe_exception(exc))
        return
    host.finish_value(value)


# --------------------------------------------------------------------------------------
# after_fork (a worker forked from a template)


def after_fork() -> None:
    """In a worker forked from a prepared template: a fresh event loop of its own (the
    template's epoll instance and self-pipe must not be shared) and a reseeded ``random``.
    Call once, in the child, before it is confined."""
    old = _S.loop
    if old is not None:
        try:
            old.close()
        except Exception:
            pass
    selector = _IdleAwareSelector()
    loop = asyncio.SelectorEventLoop(selector)
    asyncio.set_event_loop(loop)
    loop.set_exception_handler(_loop_exception)
    _S.selector = selector
    _S.loop = loop
    random = sys.modules.get("random")
    if random is not None:
        try:
            random.seed()
        except Exception:
            pass
    # Touch what a run touches (the compiler, the loop, the JSON paths) now, while the
    # worker waits in the pool, so the copy-on-write faults of the first touch after the
    # fork are not paid on the run's path.
    try:
        code = _compile("xs = [str(i) for i in range(8)]\nreturn {'xs': xs}")
        env: dict[str, Any] = {"__builtins__": _S.builtins, "__name__": "__main__"}
        exec(code, env)
        loop.run_until_complete(env["__program__"]())
        _loads('{"t":"run","program":"return 1","namespaces":[]}')
        _dumps({"t": "done", "value": [1, "x", None]})
    except Exception:
        pass


# --------------------------------------------------------------------------------------
# worker_main (the process: a worker, the probe, or the template)

if TYPE_CHECKING:

    class _Native(Protocol):
        """The confinement primitive (``_codemode_confine``, confine.c): each call returns
        0 or the errno of the system call that failed."""

        def setrlimit(self, resource: int, value: int, /) -> int: ...
        def pdeathsig(self) -> int: ...
        def landlock(self, attr: bytes, /) -> int: ...
        def drop_capabilities(self) -> int: ...
        def seccomp(self, program: bytes, /) -> int: ...


class _Worker:
    """What the host prepared (``setup``: the Landlock attribute, the seccomp filter, the
    rlimit resources) and the limits of the command line."""

    def __init__(self, native: _Native, setup: dict[str, Any], heap_mb: int,
                 cpu_seconds: int) -> None:
        self.native = native
        self.setup = setup
        self.heap_mb = heap_mb
        self.cpu_seconds = cpu_seconds

    def rlimits(self, base: int) -> str | None:
        """Address space = ``base`` + the heap budget; no file writes, no core dumps, few
        descriptors, the CPU backstop. What failed, or None."""
        resources = self.setup["rlimits"]
        for resource, value in (
            (resources["as"], base + self.heap_mb * 1024 * 1024),
            (resources["fsize"], 0),
            (resources["core"], 0),
            (resources["nofile"], self.setup["max_files"]),
            (resources["cpu"], self.cpu_seconds),
        ):
            code = self.native.setrlimit(resource, value)
            if code:
                return _os_error(code)
        return None

    def landlock(self) -> tuple[str, str | None]:
        """Landlock as the host computed it for this kernel: the level reached and what
        failed."""
        landlock = self.setup["landlock"]
        level: str = landlock["level"]
        if level == "none":
            return "none", None
        code = self.native.landlock(bytes.fromhex(landlock["attr"]))
        if code:
            return "none", _os_error(code)
        return level, None

    def seccomp(self) -> str | None:
        """Capabilities dropped, then the host's filter with this process's pid in its
        slots, on every thread. What failed, or None."""
        seccomp = self.setup["seccomp"]
        if seccomp["error"]:
            return "seccomp: " + str(seccomp["error"])
        code = self.native.drop_capabilities()
        if code:
            return "seccomp: dropping capabilities: " + _os_error(code)
        program = bytearray.fromhex(seccomp["filter"])
        pid = os.getpid().to_bytes(4, sys.byteorder)
        for slot in seccomp["pid_slots"]:
            program[slot * 8 + 4 : slot * 8 + 8] = pid
        code = self.native.seccomp(bytes(program))
        if code < 0:
            return "seccomp: thread %d could not be synchronized" % -code
        if code:
            return "seccomp: " + _os_error(code)
        return None

    def finish(self, landlock: str, rlimits: bool, detail: list[str]) -> dict[str, Any]:
        """seccomp last; the ``confined`` frame of every layer."""
        failed = self.seccomp()
        if failed is not None:
            detail.append(failed)
        # The primitive is not needed any more (and every call it could make is denied now).
        sys.modules.pop("_codemode_confine", None)
        return {"t": "confined", "landlock": landlock, "seccomp": failed is None,
                "rlimits": rlimits, "detail": "; ".join(detail)}

    def confine(self) -> dict[str, Any]:
        """Every layer, in a worker started as a process of its own."""
        detail: list[str] = []
        try:
            failed = self.rlimits(_virtual_size())
        except OSError as exc:
            failed = _os_error(exc.errno or 0)
        if failed is not None:
            detail.append("rlimits: " + failed)
        level, why = self.landlock()
        if why is not None:
            detail.append("landlock: " + why)
        return self.finish(level, failed is None, detail)

    def confine_forked(self, landlock: str, template_detail: str,
                       template_size: int) -> dict[str, Any]:
        """A forked worker's part: a Landlock domain of its own nested in the template's (so
        siblings cannot signal each other or the template), rlimits, seccomp."""
        detail = [template_detail] if template_detail else []
        level, why = self.landlock()
        # This domain failed or is weaker than the template's: the template's stays in force,
        # so a full one counts as `partial` (siblings are not scoped apart) and a weaker one
        # as it is (no level is claimed where there is none).
        if why is not None or _LANDLOCK_ORDER.index(level) < _LANDLOCK_ORDER.index(landlock):
            detail.append("landlock (own domain): " + (level if why is None else why))
            if landlock == "full":
                landlock = "partial"
        rlimits = False
        if template_size == 0:
            detail.append("rlimits: the template's size is unknown")
        else:
            failed = self.rlimits(template_size + self.setup["forked_slack"])
            if failed is not None:
                detail.append("rlimits: " + failed)
            rlimits = failed is None
        return self.finish(landlock, rlimits, detail)


#: Landlock's levels, weakest first.
_LANDLOCK_ORDER = ("none", "partial", "full")


def _os_error(code: int) -> str:
    return "%s (os error %d)" % (os.strerror(code), code)


def _virtual_size() -> int:
    """This process's virtual size now, from ``/proc/self/statm``."""
    # Before confinement (the builtin `open`: the program's builtins lack it, this module's
    # do not).
    with open("/proc/self/statm", "rb") as statm:
        pages = int(statm.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _write_frame(fd: int, frame: dict[str, Any]) -> None:
    body = json.dumps(frame, separators=(",", ":")).encode("utf-8")
    _write_all(fd, len(body).to_bytes(4, "little") + body)


def _complain(text: str) -> None:
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except Exception:
        pass


def _exit(code: int) -> None:
    """Ends the process at once: no finalization (the worker is single use, and a finalizer
    of the program must not run after its budget)."""
    for stream in (sys.stdout, sys.stderr, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except Exception:
            pass
    os._exit(code)


def _parse(args: list[str]) -> tuple[int, int, str]:
    """``--heap-mb N --cpu-seconds N [--probe | --template]``: the limits and the mode."""
    heap_mb, cpu_seconds, mode = 512, 3600, "single"
    at = 0
    while at < len(args):
        arg = args[at]
        if arg in ("--heap-mb", "--cpu-seconds"):
            if at + 1 >= len(args) or not args[at + 1].isdigit():
                raise ValueError("%s needs a number" % arg)
            if arg == "--heap-mb":
                heap_mb = int(args[at + 1])
            else:
                cpu_seconds = int(args[at + 1])
            at += 2
            continue
        if arg == "--probe":
            mode = "probe"
        elif arg == "--template":
            mode = "template"
        else:
            raise ValueError("unknown worker argument `%s`" % arg)
        at += 1
    return heap_mb, cpu_seconds, mode


def worker_main(native: _Native, setup: bytes, args: list[str]) -> None:
    """The worker process, from the launcher: moves the protocol to private descriptors
    (fd 0 becomes ``/dev/null``, fd 1 standard error, so no stray write can forge a frame),
    then (``args``' mode) confines itself and reports (``--probe``), or serves as the
    template (``--template``), or prepares, confines itself, reports in a ``confined`` frame
    and serves its one program. Never returns: the process exits without finalizing."""
    try:
        heap_mb, cpu_seconds, mode = _parse(args)
        worker = _Worker(native, json.loads(setup), heap_mb, cpu_seconds)
    except Exception as exc:
        _complain("codemode python worker: %s" % exc)
        _exit(2)
        return
    try:
        rfd = os.dup(0)
        wfd = os.dup(1)
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
    except OSError as exc:
        _complain("codemode python worker: cannot set up its descriptors: %s" % exc)
        _exit(1)
        return
    if mode == "template":
        os.close(wfd)
        _exit(_template(worker, rfd))
        return
    try:
        if mode == "probe":
            _write_frame(wfd, worker.confine())
            _exit(0)
            return
        prepare()
        _write_frame(wfd, worker.confine())
    except BaseException as exc:
        _complain("codemode python worker: %s" % _exception_header(exc))
        _exit(1)
        return
    del worker, native
    serve(rfd, wfd)
    _exit(0)


def _template(worker: _Worker, control_fd: int) -> int:
    """The fork server: prepared and landlocked once (inherited by every child); each
    ``spawn`` request on ``control`` (a ``SOCK_SEQPACKET`` socket) forks a child that makes a
    fresh event loop, applies its own Landlock domain, rlimits and seccomp, and serves one
    program on a socket whose other end, with the child's standard-error pipe and a pidfd,
    goes back to the host."""
    try:
        prepare()
        try:
            size = _virtual_size()
        except OSError:
            size = 0
        landlock, why = worker.landlock()
        detail = "" if why is None else "landlock: " + why
        control = socket.socket(fileno=control_fd)
        control.send(json.dumps({"t": "confined", "landlock": landlock, "seccomp": False,
                                 "rlimits": size > 0, "detail": detail}).encode("utf-8"))
    except BaseException as exc:
        _complain("codemode python template: %s" % _exception_header(exc))
        return 1
    # Reaped between requests only (here and when idle a second), never while a fork is
    # handed over: a pid is not reused while the template may still open a pidfd for it,
    # and no finished worker stays a zombie while the pool asks for no new one.
    while True:
        try:
            ready, _, _ = select.select([control], [], [], 1.0)
            if not ready:
                _reap_children()
                continue
            body = control.recv(4096)
        except OSError:
            return 1
        if not body:
            return 0
        _reap_children()
        # Only `spawn` is ever sent; any message is taken as one.
        _fork_worker(worker, control, landlock, detail, size)


def _reap_children() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except OSError:
            return
        if pid == 0:
            return


def _fork_worker(worker: _Worker, control: socket.socket, landlock: str, detail: str,
                 size: int) -> None:
    """Forks one worker and hands its descriptors to the host."""
    try:
        host_end, worker_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError as exc:
        _fork_failed(control, exc)
        return
    try:
        stderr_read, stderr_write = os.pipe()
    except OSError as exc:
        host_end.close()
        worker_end.close()
        _fork_failed(control, exc)
        return
    template = os.getpid()
    try:
        pid = os.fork()
    except OSError as exc:
        for end in (host_end, worker_end):
            end.close()
        os.close(stderr_read)
        os.close(stderr_write)
        _fork_failed(control, exc)
        return
    if pid == 0:
        # The child: one program, then exit. Dies with the template (which dies with the
        # host); keeps none of the template's ends.
        code = 1
        try:
            worker.native.pdeathsig()
            if os.getppid() != template:
                _exit(1)
            control.close()
            host_end.close()
            os.close(stderr_read)
            os.dup2(stderr_write, 2)
            os.dup2(stderr_write, 1)
            os.close(stderr_write)
            code = _forked_worker(worker, worker_end, landlock, detail, size)
        except BaseException as exc:
            _complain("codemode python worker: %s" % _exception_header(exc))
        _exit(code)
        return
    # The template: hand the descriptors over, keep none.
    worker_end.close()
    os.close(stderr_write)
    fds = [host_end.fileno(), stderr_read]
    pidfd = -1
    try:
        # Our own child, not reaped before the next request: `pid` names it even if it
        # already exited.
        pidfd = os.pidfd_open(pid)
        fds.append(pidfd)
    except OSError:
        pass
    try:
        socket.send_fds(control, [b'{"t":"spawned","pid":%d}' % pid], fds)
    except OSError as exc:
        _complain("codemode python template: cannot hand over a worker: %s" % exc)
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    finally:
        host_end.close()
        os.close(stderr_read)
        if pidfd >= 0:
            os.close(pidfd)


def _fork_failed(control: socket.socket, why: OSError) -> None:
    _complain("codemode python template: cannot fork a worker: %s" % why)
    try:
        control.send(b'{"t":"spawned","pid":0}')
    except OSError:
        pass


def _forked_worker(worker: _Worker, end: socket.socket, landlock: str, detail: str,
                   size: int) -> int:
    """The forked child: a fresh event loop, then its confinement, then the program."""
    after_fork()
    confined = worker.confine_forked(landlock, detail, size)
    fd = end.detach()
    _write_frame(fd, confined)
    del worker
    serve(fd, fd)
    return 0
