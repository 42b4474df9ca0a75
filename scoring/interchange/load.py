"""The championship interchange file, version 1: read, check and write it.

Source: championship-json.md. :func:`load` checks a whole document and returns frozen
dataclasses, or raises :class:`InterchangeError` listing every problem as "JSON path:
message". :func:`dump` writes the document back, with the fields "Export adds" when given
the scores. ``load(dump(doc)) == doc``, and dumping an import of an export gives the same
document.

>>> doc = load({"format": "botifarra-duplicate/1",
...             "championship": {"name": "Prova", "slug": "prova"},
...             "rounds": [{"number": 1, "tables": [{"number": 1, "ns": 1, "ew": 2}]}]})
Traceback (most recent call last):
...
scoring.errors.InterchangeError: rounds[0].tables[0].ns: pair 1 does not exist; \
rounds[0].tables[0].ew: pair 2 does not exist

Questions the spec leaves open, and the reading chosen here:
- Which keys are required? ``format``, ``championship.name`` and ``.slug``, and in each
  list item its ``number``/``id`` (a result: ``board``; a pair: ``players``). A played
  result also needs ``trump`` and ``ns_points_taken``; every other key has the default
  the spec gives (``rules`` values, ``false`` doubles, ``null`` infraction/adjusted).
- With both ``deal_secret`` and ``deal_commitment``, the commitment must match and so must
  every board's deal (it is regenerated from the secret); a secret alone also checks deals.
- Pairs with no result are left out of ``standings`` (they have no average).
- Limits the spec does not give, chosen so every valid file fits the database and the
  program's memory (see the ``MAX_*`` constants): numbers of rounds, tables, boards and
  pairs 1..9999; names and venue at most 200 characters, player ids 50, slug 100; no
  control characters in text; scale values and ``infraction_score`` strictly between
  -10^6 and 10^6 with at most 4 decimals; at most 200,000 results and 50 MB of JSON; an
  object may not repeat a key (JSON allows it, but one of the two values would be lost
  silently).
"""

from __future__ import annotations

import datetime
import enum
import json
import os
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from math import floor, isfinite
from typing import Any, TypeVar

from engine.deal import Deal
from engine.errors import EngineError
from engine.generate import generate_deal, secret_from_hex, verify_commitment
from engine.rules import Variant
from engine.seats import Side
from scoring.championship import ChampionshipScore
from scoring.errors import InterchangeError
from scoring.model import (
    Adjustment,
    Doubling,
    Method,
    Result,
    Rounding,
    ScoringRules,
    Trump,
)

FORMAT = "botifarra-duplicate/1"
#: Keys "Export adds": accepted on input and ignored (they are recomputed).
EXPORTED_RESULT_KEYS = frozenset({"ns_score", "ew_score", "ns_comparative", "ew_comparative"})

E = TypeVar("E", bound=enum.Enum)


@dataclass(frozen=True, slots=True)
class PlayerDoc:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class PairDoc:
    number: int
    players: tuple[str, str]


@dataclass(frozen=True, slots=True)
class BoardDoc:
    """A board; ``deal`` is ``None`` when the file has no cards for it."""

    number: int
    deal: Deal | None = None


@dataclass(frozen=True, slots=True)
class TableDoc:
    """A table of a round: the NS and EW pair numbers and its results (their ``round``,
    ``table``, ``ns_pair`` and ``ew_pair`` filled from here)."""

    number: int
    ns: int
    ew: int
    results: tuple[Result, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundDoc:
    number: int
    tables: tuple[TableDoc, ...] = ()


@dataclass(frozen=True, slots=True)
class ChampionshipDoc:
    """A whole interchange document, checked. ``date`` is a ``datetime.date`` or ``None``;
    ``deal_commitment``/``deal_secret`` are hex text or ``None``."""

    name: str
    slug: str
    date: datetime.date | None = None
    venue: str = ""
    deal_commitment: str | None = None
    deal_secret: str | None = None
    variant: Variant = Variant.OBLIGADA
    rules: ScoringRules = field(default_factory=ScoringRules)
    players: tuple[PlayerDoc, ...] = ()
    pairs: tuple[PairDoc, ...] = ()
    boards: tuple[BoardDoc, ...] = ()
    rounds: tuple[RoundDoc, ...] = ()

    def results(self) -> Iterator[Result]:
        """Every result, round by round, table by table, in file order."""
        for round_ in self.rounds:
            for table in round_.tables:
                yield from table.results


# -- limits ----------------------------------------------------------------------------------

#: Largest JSON document read, in bytes (10^6 results took minutes and gigabytes).
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
#: Most results a document may hold.
MAX_RESULTS = 200_000
#: Round, table, board and pair numbers are 1..MAX_NUMBER.
MAX_NUMBER = 9999
#: Longest championship name, venue and player name, in characters.
MAX_NAME_LENGTH = 200
#: Longest player id, in characters.
MAX_ID_LENGTH = 50
#: Longest slug, in characters.
MAX_SLUG_LENGTH = 100
#: Scale values and ``infraction_score`` lie strictly between -MAX_SCALE and MAX_SCALE...
MAX_SCALE = 10**6
#: ... with at most this many decimals (they are stored as such).
SCALE_PLACES = 4
#: Deepest nesting of arrays and objects reported by position when the parser gives up.
MAX_DEPTH = 100
#: Integers with more digits than this are not converted (they are out of every range).
MAX_INTEGER_DIGITS = 100
#: Problems listed in full; the rest are counted.
MAX_PROBLEMS = 200


class DocumentReadError(InterchangeError):
    """The file cannot be read as a JSON document: unreadable, not UTF-8, too large, not
    JSON, nested too deep, or an object with the same key twice. ``problems`` as for
    :class:`InterchangeError` (the file-level ones have no JSON path)."""


@dataclass(frozen=True, slots=True)
class OversizedNumber:
    """An integer of the file too long to convert (``digits`` digits): :func:`parse_json`
    puts it where the number was, so :func:`load` can refuse it by JSON path."""

    digits: int

    def __str__(self) -> str:
        return f"a number of {self.digits} digits"


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
    :class:`OversizedNumber`, which :func:`load` refuses by path.

    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    scoring.interchange.DocumentReadError: a: the key appears twice in the same object
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
        raise DocumentReadError([f"not JSON this program can read: {_brief(str(exc))}"]) \
            from None
    if duplicates:
        raise DocumentReadError(_repeated_keys(data))
    return data


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
                    f"{_join(path, key)}: the key appears twice in the same object"
                    for key in value.repeated
                )
            children = [(_join(path, key), child) for key, child in value.items()]
        elif isinstance(value, list):
            children = [(f"{path}[{i}]", child) for i, child in enumerate(value)]
        stack.extend(
            (p, c) for p, c in reversed(children) if isinstance(c, dict | list)
        )
    return out


# -- loading -------------------------------------------------------------------------------

_SLUG = re.compile(r"[-a-zA-Z0-9_]+")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
# C0 and C1 control characters (NUL breaks PostgreSQL) and lone surrogates (not UTF-8).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_MISSING = object()


class _Reader:
    """Collects every problem with its JSON path instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.count = 0

    def problem(self, path: str, message: str) -> None:
        self.count += 1
        if self.count <= MAX_PROBLEMS:
            self.problems.append(f"{path}: {_brief(message)}")

    def report(self) -> list[str]:
        """The problems, the ones past MAX_PROBLEMS counted in a last line."""
        extra = self.count - len(self.problems)
        return self.problems + ([f"... and {extra} more problem(s)"] if extra else [])

    def obj(
        self,
        value: object,
        path: str,
        *,
        required: tuple[str, ...] = (),
        optional: tuple[str, ...] = (),
        ignored: frozenset[str] = frozenset(),
    ) -> dict[str, Any] | None:
        if not isinstance(value, Mapping):
            self.problem(path, f"must be an object, not {_kind(value)}")
            return None
        known = set(required) | set(optional) | ignored
        for key in value:
            if key not in known:
                expected = ", ".join(sorted(set(required) | set(optional)))
                self.problem(_join(path, str(key)), f"unknown key (expected one of {expected})")
        for key in required:
            if key not in value:
                self.problem(_join(path, key), "is missing")
        return dict(value)

    def array(self, value: object, path: str) -> list[Any]:
        if value is _MISSING or value is None:
            return []
        if not isinstance(value, list):
            self.problem(path, f"must be a list, not {_kind(value)}")
            return []
        return value

    def integer(
        self, value: object, path: str, *, minimum: int | None = 1, maximum: int | None = None
    ) -> int | None:
        if isinstance(value, OversizedNumber):
            self.problem(path, f"{value} is out of range")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"must be a whole number, not {_kind(value)}")
            return None
        if minimum is not None and value < minimum:
            self.problem(path, f"{_show(value)} must be {minimum} or more")
            return None
        if maximum is not None and value > maximum:
            self.problem(path, f"{_show(value)} must be {maximum} or less")
            return None
        return value

    def item_number(self, value: object, path: str) -> int | None:
        """A round, table, board or pair number: 1..MAX_NUMBER."""
        return self.integer(value, path, minimum=1, maximum=MAX_NUMBER)

    def text(
        self, value: object, path: str, *, empty: bool = False, max_length: int = MAX_NAME_LENGTH
    ) -> str | None:
        if not isinstance(value, str):
            self.problem(path, f"must be text, not {_kind(value)}")
            return None
        if not empty and not value.strip():
            self.problem(path, "must not be empty")
            return None
        if len(value) > max_length:
            self.problem(path, f"{len(value)} characters, more than {max_length}")
            return None
        bad = _CONTROL.search(value)
        if bad is not None:
            self.problem(
                path, f"holds the control character {bad.group()!r} at {bad.start() + 1}"
            )
            return None
        return value

    def boolean(self, value: object, path: str) -> bool:
        if value is _MISSING:
            return False
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, not {_kind(value)}")
            return False
        return value

    def number(self, value: object, path: str) -> Fraction | None:
        if isinstance(value, OversizedNumber):
            self.problem(path, f"{value} is out of range")
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(path, f"must be a number, not {_kind(value)}")
            return None
        if not isfinite(value):
            self.problem(path, f"{value} is not a finite number")
            return None
        # str() keeps the decimal the file wrote (0.1 stays 1/10, not the nearest binary).
        return Fraction(value) if isinstance(value, int) else Fraction(str(value))

    def scale_value(self, value: object, path: str) -> Fraction | None:
        """A scale value or infraction score: |x| < MAX_SCALE, at most SCALE_PLACES decimals
        (the database keeps 10 digits, 4 of them decimals)."""
        number = self.number(value, path)
        if number is None:
            return None
        if not -MAX_SCALE < number < MAX_SCALE:
            self.problem(path, f"{_show(value)} is not between -{MAX_SCALE} and {MAX_SCALE}")
            return None
        if (number * 10**SCALE_PLACES).denominator != 1:
            self.problem(path, f"{_show(value)} has more than {SCALE_PLACES} decimals")
            return None
        return number

    def choice(self, value: object, path: str, cls: type[E], default: E) -> E:
        if value is _MISSING:
            return default
        for member in cls:
            if member.value == value:
                return member
        choices = ", ".join(str(m.value) for m in cls)
        self.problem(path, f"{_show(value)} is not one of {choices}")
        return default


def _brief(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(value: object) -> str:
    """A short, printable rendering of a JSON value for a message (never recursive)."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40])[:-1] + "…'"
    if isinstance(value, bool) or value is None:
        return _kind(value)
    if isinstance(value, int):
        if -(10**20) < value < 10**20:
            return str(value)
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if isinstance(value, float | OversizedNumber):
        return str(value)
    return _kind(value)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {_show(value)}"
    if isinstance(value, OversizedNumber):
        return str(value)
    if isinstance(value, str):
        return f"the text {_show(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,40}")


def _join(path: str, key: str) -> str:
    if not _PLAIN_KEY.fullmatch(key):
        key = _show(key)  # an odd key stays readable and printable in the path
    return f"{path}.{key}" if path else key


def load(data: object) -> ChampionshipDoc:
    """Check a whole interchange document (parsed JSON) and return it as dataclasses.

    Raises :class:`InterchangeError` whose ``problems`` lists every problem as
    ``"JSON path: message"``: wrong types and enum values, unknown keys (typos), missing
    keys, recontro without contro, Sant Vicenç without recontro, both infraction and
    adjusted, null points without adjusted, points outside 0..72, duplicate numbers or ids,
    a pair at two tables of a round, a pair playing a board twice, a result's board, pair or
    player that does not exist, invalid deals, a secret that does not match the commitment
    or the deals; and past the limits of this module (``MAX_*``): numbers over 9999, text
    too long or with control characters, scale values out of range or with more than 4
    decimals, an :class:`OversizedNumber`, more than :data:`MAX_RESULTS` results. The first
    :data:`MAX_PROBLEMS` problems are listed, then a line counts the rest. Keys "Export
    adds" (scores, comparative points, standings) are ignored. Source: championship-json.md.
    """
    reader = _Reader()
    doc = _load(reader, data)
    if reader.count or doc is None:
        raise InterchangeError(reader.report())
    return doc


def _load(rd: _Reader, data: object) -> ChampionshipDoc | None:
    top = rd.obj(
        data,
        "",
        required=("format", "championship"),
        optional=("rules", "players", "pairs", "boards", "rounds"),
        ignored=frozenset({"standings"}),
    )
    if top is None:
        return None
    fmt = top.get("format", _MISSING)
    if fmt is not _MISSING and fmt != FORMAT:
        rd.problem("format", f"{_show(fmt)} is not {FORMAT!r}")
    name, slug, date, venue, commitment, secret = _championship(
        rd, top.get("championship", _MISSING)
    )
    variant, rules = _rules(rd, top.get("rules", _MISSING))
    players = _players(rd, top.get("players", _MISSING))
    # Ids refused above still count as given, so their pairs do not repeat the problem.
    listed = top.get("players")
    given_ids = {
        item["id"]
        for item in (listed if isinstance(listed, list) else ())
        if isinstance(item, Mapping) and isinstance(item.get("id"), str)
    }
    pairs, pair_numbers = _pairs(rd, top.get("pairs", _MISSING), given_ids)
    boards = _boards(rd, top.get("boards", _MISSING), secret, commitment)
    count = _count_results(top.get("rounds"))
    if count > MAX_RESULTS:
        rd.problem("rounds", f"{count} results, more than the {MAX_RESULTS} a file may hold")
        return None
    rounds = _rounds(rd, top.get("rounds", _MISSING), pair_numbers, boards)
    if name is None or slug is None:
        return None
    return ChampionshipDoc(
        name=name,
        slug=slug,
        date=date,
        venue=venue,
        deal_commitment=commitment,
        deal_secret=secret,
        variant=variant,
        rules=rules,
        players=players,
        pairs=pairs,
        boards=tuple(boards.values()),
        rounds=rounds,
    )


def _count_results(rounds: object) -> int:
    """How many results the rounds hold, counted before anything is built from them."""
    count = 0
    for round_ in rounds if isinstance(rounds, list) else ():
        tables = round_.get("tables") if isinstance(round_, Mapping) else None
        for table in tables if isinstance(tables, list) else ():
            results = table.get("results") if isinstance(table, Mapping) else None
            count += len(results) if isinstance(results, list) else 0
    return count


def _deal_shape(value: object) -> bool:
    """A deal is an object of lists of text (checked before the engine reads it, so an odd
    value is one short problem)."""
    return isinstance(value, Mapping) and all(
        isinstance(hand, list) and all(isinstance(card, str) and len(card) <= 10 for card in hand)
        for hand in value.values()
    )


def _championship(
    rd: _Reader, value: object
) -> tuple[str | None, str | None, datetime.date | None, str, str | None, str | None]:
    path = "championship"
    if value is _MISSING:
        return (None, None, None, "", None, None)
    obj = rd.obj(
        value,
        path,
        required=("name", "slug"),
        optional=("date", "venue", "deal_commitment", "deal_secret"),
    )
    if obj is None:
        return (None, None, None, "", None, None)
    name = rd.text(obj["name"], f"{path}.name") if "name" in obj else None
    slug = (
        rd.text(obj["slug"], f"{path}.slug", max_length=MAX_SLUG_LENGTH)
        if "slug" in obj
        else None
    )
    if slug is not None and not _SLUG.fullmatch(slug):
        rd.problem(f"{path}.slug", f"{slug!r} may hold only letters, digits, '-' and '_'")
        slug = None
    date: datetime.date | None = None
    if obj.get("date") is not None:
        raw = obj["date"]
        try:
            date = datetime.date.fromisoformat(raw) if isinstance(raw, str) else None
        except ValueError:
            date = None
        if date is None or len(raw) != 10:
            rd.problem(f"{path}.date", f"{_show(raw)} is not a date YYYY-MM-DD")
            date = None
    venue = ""
    if obj.get("venue") is not None:
        venue = rd.text(obj["venue"], f"{path}.venue", empty=True) or ""
    hexes: dict[str, str | None] = {}
    for key in ("deal_commitment", "deal_secret"):
        raw = obj.get(key)
        hexes[key] = None
        if raw is None:
            continue
        if not isinstance(raw, str) or not _HEX64.fullmatch(raw):
            rd.problem(f"{path}.{key}", "must be 64 hex digits (0-9, a-f)")
            continue
        hexes[key] = raw
    commitment, secret = hexes["deal_commitment"], hexes["deal_secret"]
    if (
        commitment is not None
        and secret is not None
        and not verify_commitment(secret_from_hex(secret), commitment)
    ):
        rd.problem(f"{path}.deal_secret", "does not match deal_commitment")
        secret = None  # its deals would only repeat the same problem
    return (name, slug, date, venue, commitment, secret)


def _rules(rd: _Reader, value: object) -> tuple[Variant, ScoringRules]:
    if value is _MISSING:
        return (Variant.OBLIGADA, ScoringRules())
    obj = rd.obj(
        value,
        "rules",
        optional=("variant", "doubling", "method", "scale", "rounding", "infraction_score"),
    )
    if obj is None:
        return (Variant.OBLIGADA, ScoringRules())
    default = ScoringRules()
    variant = rd.choice(obj.get("variant", _MISSING), "rules.variant", Variant, Variant.OBLIGADA)
    doubling = rd.choice(
        obj.get("doubling", _MISSING), "rules.doubling", Doubling, default.doubling
    )
    method = rd.choice(obj.get("method", _MISSING), "rules.method", Method, default.method)
    rounding = rd.choice(
        obj.get("rounding", _MISSING), "rules.rounding", Rounding, default.rounding
    )
    bottom, top = default.bottom, default.top
    if "scale" in obj:
        scale = rd.obj(obj["scale"], "rules.scale", required=("bottom", "top"))
        if scale is not None and "bottom" in scale and "top" in scale:
            low = rd.scale_value(scale["bottom"], "rules.scale.bottom")
            high = rd.scale_value(scale["top"], "rules.scale.top")
            if low is not None and high is not None:
                if low >= high:
                    rd.problem("rules.scale", f"bottom {_show(scale['bottom'])} must be below top")
                else:
                    bottom, top = low, high
    infraction = default.infraction_score
    if "infraction_score" in obj:
        given = rd.scale_value(obj["infraction_score"], "rules.infraction_score")
        infraction = infraction if given is None else given
    return (
        variant,
        ScoringRules(
            doubling=doubling,
            method=method,
            bottom=bottom,
            top=top,
            rounding=rounding,
            infraction_score=infraction,
        ),
    )


def _players(rd: _Reader, value: object) -> tuple[PlayerDoc, ...]:
    out: list[PlayerDoc] = []
    seen: set[str] = set()
    for i, item in enumerate(rd.array(value, "players")):
        path = f"players[{i}]"
        obj = rd.obj(item, path, required=("id", "name"))
        if obj is None or "id" not in obj or "name" not in obj:
            continue
        pid = rd.text(obj["id"], f"{path}.id", max_length=MAX_ID_LENGTH)
        name = rd.text(obj["name"], f"{path}.name")
        if pid is None or name is None:
            continue
        if pid in seen:
            rd.problem(f"{path}.id", f"player {_show(pid)} appears twice")
            continue
        seen.add(pid)
        out.append(PlayerDoc(pid, name))
    return tuple(out)


def _pairs(
    rd: _Reader, value: object, player_ids: set[str]
) -> tuple[tuple[PairDoc, ...], set[int]]:
    """The valid pairs, and every pair number given (a pair with a bad player is one
    problem, not one more at each table it sits)."""
    out: list[PairDoc] = []
    seen: set[int] = set()
    for i, item in enumerate(rd.array(value, "pairs")):
        path = f"pairs[{i}]"
        obj = rd.obj(item, path, required=("number", "players"))
        if obj is None or "number" not in obj or "players" not in obj:
            continue
        number = rd.item_number(obj["number"], f"{path}.number")
        members = obj["players"]
        ok = True
        if not isinstance(members, list) or len(members) != 2:
            rd.problem(f"{path}.players", "must be a list of two player ids")
            ok = False
        else:
            for j, pid in enumerate(members):
                if not isinstance(pid, str) or pid not in player_ids:
                    rd.problem(f"{path}.players[{j}]", f"player {_show(pid)} does not exist")
                    ok = False
            if ok and members[0] == members[1]:
                rd.problem(f"{path}.players", f"player {_show(members[0])} twice in one pair")
                ok = False
        if number is None:
            continue
        if number in seen:
            rd.problem(f"{path}.number", f"pair {number} appears twice")
            continue
        seen.add(number)
        if ok:
            out.append(PairDoc(number, (members[0], members[1])))
    return tuple(out), seen


def _boards(
    rd: _Reader, value: object, secret: str | None, commitment: str | None
) -> dict[int, BoardDoc]:
    out: dict[int, BoardDoc] = {}
    secret_bytes = secret_from_hex(secret) if secret is not None else None
    for i, item in enumerate(rd.array(value, "boards")):
        path = f"boards[{i}]"
        obj = rd.obj(item, path, required=("number",), optional=("deal",))
        if obj is None or "number" not in obj:
            continue
        number = rd.item_number(obj["number"], f"{path}.number")
        deal: Deal | None = None
        if obj.get("deal") is not None and not _deal_shape(obj["deal"]):
            rd.problem(
                f"{path}.deal", "must be an object of seats N, E, S, W, each a list of cards"
            )
        elif obj.get("deal") is not None:
            try:
                deal = Deal.from_json(obj["deal"])
            except EngineError as exc:
                rd.problem(f"{path}.deal", str(exc))
        if number is None:
            continue
        if number in out:
            rd.problem(f"{path}.number", f"board {number} appears twice")
            continue
        if (
            deal is not None
            and secret_bytes is not None
            and generate_deal(secret_bytes, number) != deal
        ):
            rd.problem(f"{path}.deal", f"is not board {number}'s deal from deal_secret")
        out[number] = BoardDoc(number, deal)
    return out


_RESULT_KEYS = (
    "trump",
    "delegated",
    "contro",
    "recontro",
    "sant_vicenc",
    "ns_points_taken",
    "infraction",
    "adjusted",
)


def _rounds(
    rd: _Reader, value: object, pair_numbers: set[int], boards: Mapping[int, BoardDoc]
) -> tuple[RoundDoc, ...]:
    out: list[RoundDoc] = []
    seen_rounds: set[int] = set()
    played: dict[tuple[int, int], str] = {}  # (pair, board) -> path of the first result
    for i, item in enumerate(rd.array(value, "rounds")):
        path = f"rounds[{i}]"
        obj = rd.obj(item, path, required=("number",), optional=("tables",))
        if obj is None or "number" not in obj:
            continue
        number = rd.item_number(obj["number"], f"{path}.number")
        if number is not None and number in seen_rounds:
            rd.problem(f"{path}.number", f"round {number} appears twice")
            number = None
        if number is not None:
            seen_rounds.add(number)
        tables: list[TableDoc] = []
        seen_tables: set[int] = set()
        seated: dict[int, str] = {}  # pair -> path of its table in this round
        for j, t_item in enumerate(rd.array(obj.get("tables", _MISSING), f"{path}.tables")):
            t_path = f"{path}.tables[{j}]"
            table = _table(rd, t_item, t_path, number, pair_numbers, boards, played)
            if table is None:
                continue
            if table.number in seen_tables:
                rd.problem(f"{t_path}.number", f"table {table.number} appears twice")
                continue
            seen_tables.add(table.number)
            for side, pair in (("ns", table.ns), ("ew", table.ew)):
                if pair in seated and seated[pair] != t_path:
                    rd.problem(f"{t_path}.{side}", f"pair {pair} already sits at {seated[pair]}")
                seated.setdefault(pair, t_path)
            tables.append(table)
        if number is not None:
            out.append(RoundDoc(number, tuple(tables)))
    return tuple(out)


def _table(
    rd: _Reader,
    value: object,
    path: str,
    round_number: int | None,
    pair_numbers: set[int],
    boards: Mapping[int, BoardDoc],
    played: dict[tuple[int, int], str],
) -> TableDoc | None:
    obj = rd.obj(value, path, required=("number", "ns", "ew"), optional=("results",))
    if obj is None or not {"number", "ns", "ew"} <= obj.keys():
        return None
    number = rd.item_number(obj["number"], f"{path}.number")
    ns = rd.item_number(obj["ns"], f"{path}.ns")
    ew = rd.item_number(obj["ew"], f"{path}.ew")
    for key, pair in (("ns", ns), ("ew", ew)):
        if pair is not None and pair not in pair_numbers:
            rd.problem(f"{path}.{key}", f"pair {pair} does not exist")
    if ns is not None and ns == ew:
        rd.problem(f"{path}.ew", f"pair {ns} cannot play against itself")
    results: list[Result] = []
    seen_boards: set[int] = set()
    for k, r_item in enumerate(rd.array(obj.get("results", _MISSING), f"{path}.results")):
        r_path = f"{path}.results[{k}]"
        result = _result(rd, r_item, r_path, round_number, number, ns, ew, boards)
        if result is None:
            continue
        if result.board in seen_boards:
            rd.problem(f"{r_path}.board", f"board {result.board} twice at this table")
            continue
        seen_boards.add(result.board)
        for pair in (result.ns_pair, result.ew_pair):
            first = played.setdefault((pair, result.board), r_path)
            if first != r_path:
                rd.problem(
                    f"{r_path}.board", f"pair {pair} already played board {result.board} at {first}"
                )
        results.append(result)
    if number is None or ns is None or ew is None:
        return None
    return TableDoc(number, ns, ew, tuple(results))


def _result(
    rd: _Reader,
    value: object,
    path: str,
    round_number: int | None,
    table: int | None,
    ns: int | None,
    ew: int | None,
    boards: Mapping[int, BoardDoc],
) -> Result | None:
    obj = rd.obj(
        value, path, required=("board",), optional=_RESULT_KEYS, ignored=EXPORTED_RESULT_KEYS
    )
    if obj is None or "board" not in obj:
        return None
    before = len(rd.problems)
    board = rd.item_number(obj["board"], f"{path}.board")
    if board is not None and board not in boards:
        rd.problem(f"{path}.board", f"board {board} does not exist")
    adjusted = _adjusted(rd, obj.get("adjusted"), f"{path}.adjusted")
    trump: Trump | None = None
    if obj.get("trump") is not None:
        trump = rd.choice(obj["trump"], f"{path}.trump", Trump, Trump.BOTIFARRA)
    elif adjusted is None:
        rd.problem(f"{path}.trump", "is missing (a played result needs its trump)")
    delegated = rd.boolean(obj.get("delegated", _MISSING), f"{path}.delegated")
    contro = rd.boolean(obj.get("contro", _MISSING), f"{path}.contro")
    recontro = rd.boolean(obj.get("recontro", _MISSING), f"{path}.recontro")
    sant_vicenc = rd.boolean(obj.get("sant_vicenc", _MISSING), f"{path}.sant_vicenc")
    if recontro and not contro:
        rd.problem(f"{path}.recontro", "recontro without contro")
    if sant_vicenc and not recontro:
        rd.problem(f"{path}.sant_vicenc", "Sant Vicenç without recontro")
    points: int | None = None
    if obj.get("ns_points_taken") is not None:
        points = rd.integer(obj["ns_points_taken"], f"{path}.ns_points_taken", minimum=None)
        if points is not None and not 0 <= points <= 72:
            rd.problem(f"{path}.ns_points_taken", f"{_show(points)} is not in 0..72")
    elif adjusted is None:
        rd.problem(f"{path}.ns_points_taken", "may be null only when adjusted is set")
    infraction: Side | None = None
    if obj.get("infraction") is not None:
        raw = obj["infraction"]
        if raw in ("NS", "EW"):
            infraction = Side(raw)
        else:
            rd.problem(f"{path}.infraction", f"{_show(raw)} is not one of null, NS, EW")
    if infraction is not None and adjusted is not None:
        rd.problem(path, "both infraction and adjusted are set")
    if len(rd.problems) > before or None in (board, round_number, table, ns, ew):
        return None
    assert board is not None and round_number is not None and table is not None
    assert ns is not None and ew is not None
    return Result(
        round=round_number,
        table=table,
        board=board,
        ns_pair=ns,
        ew_pair=ew,
        trump=trump,
        ns_points_taken=points,
        delegated=delegated,
        contro=contro,
        recontro=recontro,
        sant_vicenc=sant_vicenc,
        infraction=infraction,
        adjusted=adjusted,
    )


def _adjusted(rd: _Reader, value: object, path: str) -> tuple[Adjustment, Adjustment] | None:
    if value is None:
        return None
    obj = rd.obj(value, path, required=("NS", "EW"))
    if obj is None or not {"NS", "EW"} <= obj.keys():
        return None
    before = len(rd.problems)
    ns = rd.choice(obj["NS"], f"{path}.NS", Adjustment, Adjustment.AVERAGE)
    ew = rd.choice(obj["EW"], f"{path}.EW", Adjustment, Adjustment.AVERAGE)
    return None if len(rd.problems) > before else (ns, ew)


# -- dumping -------------------------------------------------------------------------------


def export_number(value: Fraction, *, places: int = 4) -> float:
    """A Fraction as a JSON number rounded half up to ``places`` decimals (4 in the spec).

    >>> export_number(Fraction(47, 32)), export_number(Fraction(3, 2))
    (1.4688, 1.5)
    """
    scale = 10**places
    return float(Decimal(floor(value * scale + Fraction(1, 2))) / scale)


def _plain(value: Fraction) -> int | float:
    """A rules value (scale, infraction score) as the JSON number the file wrote."""
    if value.denominator == 1:
        return int(value)
    return float(Decimal(value.numerator) / Decimal(value.denominator))


def _comparative(value: Fraction, rules: ScoringRules) -> int | float:
    if rules.rounding is Rounding.FLOOR and value.denominator == 1:
        return int(value)
    return export_number(value)


def dump(doc: ChampionshipDoc, scores: ChampionshipScore | None = None) -> dict[str, Any]:
    """The interchange document of ``doc`` (plain JSON values, keys in the spec's order).

    With ``scores`` (of ``doc.results()`` under ``doc.rules``), adds what "Export adds":
    each result's ``ns_score``, ``ew_score`` (``null`` when adjusted or at an infraction),
    ``ns_comparative`` and ``ew_comparative`` (4 decimals when rounding is ``none``,
    whole numbers when ``floor``), and the top-level ``standings`` (``total`` likewise,
    ``average`` with 4 decimals). Optional values that are absent are left out.
    """
    championship: dict[str, Any] = {"name": doc.name, "slug": doc.slug}
    if doc.date is not None:
        championship["date"] = doc.date.isoformat()
    if doc.venue:
        championship["venue"] = doc.venue
    if doc.deal_commitment is not None:
        championship["deal_commitment"] = doc.deal_commitment
    if doc.deal_secret is not None:
        championship["deal_secret"] = doc.deal_secret
    rules = doc.rules
    out: dict[str, Any] = {
        "format": FORMAT,
        "championship": championship,
        "rules": {
            "variant": doc.variant.value,
            "doubling": rules.doubling.value,
            "method": rules.method.value,
            "scale": {"bottom": _plain(rules.bottom), "top": _plain(rules.top)},
            "rounding": rules.rounding.value,
            "infraction_score": _plain(rules.infraction_score),
        },
        "players": [{"id": p.id, "name": p.name} for p in doc.players],
        "pairs": [{"number": p.number, "players": list(p.players)} for p in doc.pairs],
        "boards": [_dump_board(b) for b in doc.boards],
        "rounds": [
            {
                "number": r.number,
                "tables": [
                    {
                        "number": t.number,
                        "ns": t.ns,
                        "ew": t.ew,
                        "results": [_dump_result(x, rules, scores) for x in t.results],
                    }
                    for t in r.tables
                ],
            }
            for r in doc.rounds
        ],
    }
    if scores is not None:
        out["standings"] = [
            {
                "rank": s.rank,
                "pair": s.pair,
                "total": _comparative(s.total, rules),
                "boards": s.boards,
                "average": export_number(s.average),
            }
            for s in scores.standings()
        ]
    return out


def _dump_board(board: BoardDoc) -> dict[str, Any]:
    out: dict[str, Any] = {"number": board.number}
    if board.deal is not None:
        out["deal"] = board.deal.to_json()
    return out


def _dump_result(
    result: Result, rules: ScoringRules, scores: ChampionshipScore | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "board": result.board,
        "trump": None if result.trump is None else result.trump.value,
        "delegated": result.delegated,
        "contro": result.contro,
        "recontro": result.recontro,
        "sant_vicenc": result.sant_vicenc,
        "ns_points_taken": result.ns_points_taken,
        "infraction": None if result.infraction is None else result.infraction.value,
        "adjusted": None
        if result.adjusted is None
        else {"NS": result.adjusted[0].value, "EW": result.adjusted[1].value},
    }
    if scores is not None:
        score = scores.result(result.key)
        out["ns_score"] = score.ns_score
        out["ew_score"] = score.ew_score
        out["ns_comparative"] = _comparative(score.ns_comparative, rules)
        out["ew_comparative"] = _comparative(score.ew_comparative, rules)
    return out
