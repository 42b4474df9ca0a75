"""Reading an interchange document's text, guarded against hostile input: a size cap,
nesting depth, integers too long to convert, and keys repeated in one object."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

from scoring.errors import InterchangeError
from scoring.interchange.limits import MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_INTEGER_DIGITS
from scoring.text import OversizedNumber, brief, normalise_all, show


class DocumentReadError(InterchangeError):
    """The file cannot be read as a JSON document: unreadable, not UTF-8, too large, not
    JSON, nested too deep, or an object with the same key twice. ``problems`` as for
    :class:`InterchangeError` (the file-level ones have no JSON path)."""




def _parse_int(text: str) -> int | OversizedNumber:
    if len(text) > MAX_INTEGER_DIGITS:
        return OversizedNumber(len(text.lstrip("-")))
    return int(text)


class _DuplicateKeys(dict[str, Any]):
    """An object that repeated keys (``repeated``); the last value of each is kept."""

    repeated: list[str]


def parse_json(text: str | bytes) -> Any:
    """Parse the text of an interchange document into plain JSON values.

    Unlike ``json.loads``, a problem is a :class:`DocumentReadError` saying what and where,
    never a crash: not JSON (line and column), text over :data:`MAX_DOCUMENT_BYTES`,
    arrays/objects nested deeper than Python can parse (with the line and column where
    nesting passes :data:`MAX_DEPTH`), an object with the same key twice (each by JSON path).
    An integer of more than :data:`MAX_INTEGER_DIGITS` digits becomes an
    :class:`OversizedNumber`, which :func:`load` refuses by path. Every text (keys too)
    comes back composed to Unicode NFC (``scoring.text.normalise_all``), escaped or not.

    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    scoring.interchange.reader.DocumentReadError: a: the key appears twice in the same object
    """
    if len(text) > MAX_DOCUMENT_BYTES:
        raise DocumentReadError([_too_large(len(text))])
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DocumentReadError([f"not UTF-8 text (byte {exc.start})"]) from None
    duplicates = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicates
        out = dict(pairs)
        if len(out) == len(pairs):
            return out
        duplicates = True
        marked = _DuplicateKeys(out)
        seen: set[str] = set()
        marked.repeated = []
        for key, _value in pairs:
            if key in seen and key not in marked.repeated:
                marked.repeated.append(key)
            seen.add(key)
        return marked

    try:
        data = json.loads(text, object_pairs_hook=pairs_hook, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise DocumentReadError(
            [f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"]
        ) from None
    except RecursionError:
        where = _too_deep_at(text)
        raise DocumentReadError(
            [f"arrays and objects nested too deep (more than {MAX_DEPTH} levels{where})"]
        ) from None
    except ValueError as exc:  # a float the parser cannot convert, or a similar limit
        raise DocumentReadError([f"not JSON this program can read: {brief(str(exc))}"]) \
            from None
    if duplicates:
        raise DocumentReadError(_repeated_keys(data))
    return normalise_all(data)


def read_json(source: str) -> Any:
    """Read and parse the interchange document in the file ``source`` (``-``: stdin).

    Refuses a file over :data:`MAX_DOCUMENT_BYTES` before reading it. Raises
    :class:`DocumentReadError`: cannot read it (the OS reason), not UTF-8, and everything
    :func:`parse_json` refuses.
    """
    try:
        if source == "-":
            stdin: Any = getattr(sys.stdin, "buffer", sys.stdin)  # a test's StringIO has none
            raw = stdin.read(MAX_DOCUMENT_BYTES + 1)
            if len(raw) > MAX_DOCUMENT_BYTES:
                raise DocumentReadError(
                    [f"standard input holds more than the {MAX_DOCUMENT_BYTES:,} bytes a "
                     "championship file may have"]
                )
        else:
            with open(source, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size > MAX_DOCUMENT_BYTES:
                    raise DocumentReadError([_too_large(size)])
                raw = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as exc:
        raise DocumentReadError([f"cannot read it ({exc.strerror or exc})"]) from None
    return parse_json(raw)


def _too_large(size: int) -> str:
    return (
        f"the file is {size:,} bytes, more than the {MAX_DOCUMENT_BYTES:,} a championship "
        "file may have"
    )


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,40}")


def join_path(path: str, key: str) -> str:
    """The JSON path of ``key`` inside ``path`` (an odd key quoted, so it stays readable).

    >>> join_path("rounds[0]", "number"), join_path("", "a b")
    ('rounds[0].number', "'a b'")
    """
    if not _PLAIN_KEY.fullmatch(key):
        key = show(key)
    return f"{path}.{key}" if path else key


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def _too_deep_at(text: str) -> str:
    """``" at line L column C"`` where nesting first passes MAX_DEPTH (or ``""``)."""
    depth = 0
    for match in _TOKENS.finditer(text):
        mark = match.group()
        if mark in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                start = match.start()
                line = text.count("\n", 0, start) + 1
                column = start - (text.rfind("\n", 0, start) + 1) + 1
                return f" at line {line} column {column}"
        elif mark in ("]", "}"):
            depth -= 1
    return ""


def _repeated_keys(data: Any) -> list[str]:
    """Each repeated key by JSON path, an object's own before its children's (an iterative
    walk: a deep document cannot exhaust the stack)."""
    out: list[str] = []
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        children: list[tuple[str, Any]] = []
        if isinstance(value, dict):
            if isinstance(value, _DuplicateKeys):
                out.extend(
                    f"{join_path(path, key)}: the key appears twice in the same object"
                    for key in value.repeated
                )
            children = [(join_path(path, key), child) for key, child in value.items()]
        elif isinstance(value, list):
            children = [(f"{path}[{i}]", child) for i, child in enumerate(value)]
        stack.extend(
            (p, c) for p, c in reversed(children) if isinstance(c, dict | list)
        )
    return out
