"""What a valid result is: one pure function, every problem found, each with a stable code.

:func:`validate_result` takes one result's raw values as a form, an API or a file gives
them (text, numbers, booleans, ``None``; the enums of :mod:`scoring.model` and
``engine`` are accepted too) and the championship's play settings, and returns a list of
:class:`Problem` (empty when the result is valid). Every caller states the rule through
it: ``python -m scoring`` and the interchange file (:mod:`scoring.interchange`, messages
from :func:`describe` with the JSON path), the scorer itself
(:func:`scoring.comparative.check_result`), and the web app, which turns each code into a
translated message. The rules are those of docs/rules.md and docs/file-format.md ("A
result"); the settings are the championship's (docs/decisions.md 11).

``field`` is the key of the value at fault, as the file names it, relative to the
result (``""``: the result as a whole). ``params`` hold the raw values a message shows.

========================================  =================  ===================================
code                                      field              params (and when)
========================================  =================  ===================================
``trump_missing``                         ``trump``          a played result (not adjusted)
``trump_unknown``                         ``trump``          ``value``, ``choices``
``points_missing``                        ``ns_points_taken``  null, not adjusted, no
                                                             infraction
``points_not_integer``                    ``ns_points_taken``  ``value``
``points_out_of_range``                   ``ns_points_taken``  ``value``, ``minimum`` 0,
                                                             ``maximum`` 72
``not_boolean``                           a double's flag    ``value`` (``delegated``,
                                                             ``contro``, ``recontro``,
                                                             ``sant_vicenc``)
``delegated_without_trump``               ``delegated``      no trump was chosen
``recontro_without_contro``               ``recontro``
``sant_vicenc_without_recontro``          ``sant_vicenc``
``sant_vicenc_not_allowed``               ``sant_vicenc``    setting ``sant_vicenc`` off
``sant_vicenc_on_botifarra_not_allowed``  ``sant_vicenc``    setting
                                                             ``sant_vicenc_on_botifarra`` off
``infraction_unknown``                    ``infraction``     ``value``, ``choices``
``adjusted_not_object``                   ``adjusted``       ``value``
``adjusted_side_missing``                 ``adjusted.NS``    ``side``
                                          or ``.EW``
``adjusted_unknown``                      ``adjusted.NS``    ``side``, ``value``, ``choices``
                                          or ``.EW``
``infraction_and_adjusted``               ``""``             both set
========================================  =================  ===================================

``choices`` is a tuple of the accepted texts. A code never changes meaning; a new rule
gets a new code.

>>> [p.code for p in validate_result(trump="X", ns_points_taken=73, recontro=True)]
['trump_unknown', 'points_out_of_range', 'recontro_without_contro']
>>> describe(validate_result(trump="O", ns_points_taken=73)[0])
'73 is not in 0..72'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.seats import Side
from scoring.errors import ResultError
from scoring.model import Adjustment, Trump
from scoring.text import OversizedNumber, kind, show

#: The points one side can take on a board (docs/rules.md "Scoring").
MIN_POINTS, MAX_POINTS = 0, 72
TRUMP_CHOICES = tuple(t.value for t in Trump)
SIDE_CHOICES = ("NS", "EW")
ADJUSTMENT_CHOICES = tuple(a.value for a in Adjustment)
DOUBLES = ("delegated", "contro", "recontro", "sant_vicenc")


class PlaySettings(Protocol):
    """The championship's settings a result is checked against: ``engine.Rules``, the
    web app's championship row, or :class:`ResultRules` all have them."""

    @property
    def sant_vicenc(self) -> bool: ...

    @property
    def sant_vicenc_on_botifarra(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class ResultRules:
    """Play settings for a result check. The defaults allow every double, as a file with
    no such settings is read (docs/decisions.md 11)."""

    sant_vicenc: bool = True
    sant_vicenc_on_botifarra: bool = True


ALL_ALLOWED = ResultRules()


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a result: a stable ``code`` (see the module's table), the
    ``field`` at fault (``""`` for the result as a whole) and the ``params`` a message
    shows."""

    code: str
    field: str
    params: dict[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ResultValues:
    """A result's values once checked, typed (:func:`parse_result`)."""

    trump: Trump | None
    ns_points_taken: int | None
    delegated: bool = False
    contro: bool = False
    recontro: bool = False
    sant_vicenc: bool = False
    infraction: Side | None = None
    adjusted: tuple[Adjustment, Adjustment] | None = None


_ABSENT = object()


def _text(value: object) -> object:
    """An enum's value (``Trump.O``, ``Suit.O``, ``Side.NS`` -> its text), else ``value``."""
    return getattr(value, "value", value)


def _adjusted(
    value: object, out: list[Problem]
) -> tuple[Adjustment, Adjustment] | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        sides: tuple[object, object] = (value.get("NS", _ABSENT), value.get("EW", _ABSENT))
    elif isinstance(value, list | tuple) and len(value) == 2:
        sides = (value[0], value[1])
    else:
        out.append(Problem("adjusted_not_object", "adjusted", {"value": value}))
        return None
    found: list[Adjustment] = []
    for side, raw in zip(SIDE_CHOICES, sides, strict=True):
        path = f"adjusted.{side}"
        text = _text(raw)
        if raw is _ABSENT or raw is None or raw == "":
            out.append(Problem("adjusted_side_missing", path, {"side": side}))
        elif isinstance(text, str) and text in ADJUSTMENT_CHOICES:
            found.append(Adjustment(text))
        else:
            out.append(
                Problem(
                    "adjusted_unknown", path,
                    {"side": side, "value": text, "choices": ADJUSTMENT_CHOICES},
                )
            )
    return (found[0], found[1]) if len(found) == 2 else None


def _check(
    trump: object,
    ns_points_taken: object,
    doubles: dict[str, object],
    infraction: object,
    adjusted: object,
    rules: PlaySettings,
) -> tuple[ResultValues, list[Problem]]:
    out: list[Problem] = []
    adjusted_pair = _adjusted(adjusted, out)
    # An adjusted result may leave trump and points out; a result whose "adjusted" is
    # malformed is checked as if adjusted (its problem is already reported).
    is_adjusted = adjusted is not None
    trump_text = _text(trump)
    trump_value: Trump | None = None
    if trump_text is None:
        if not is_adjusted:
            out.append(Problem("trump_missing", "trump"))
    elif isinstance(trump_text, str) and trump_text in TRUMP_CHOICES:
        trump_value = Trump(trump_text)
    else:
        out.append(
            Problem("trump_unknown", "trump", {"value": trump_text, "choices": TRUMP_CHOICES})
        )
    points: int | None = None
    if ns_points_taken is None:
        # At an infraction the points do not count (docs/rules.md "Infractions"): they
        # may be given, for the record, or left out.
        if not is_adjusted and _text(infraction) is None:
            out.append(Problem("points_missing", "ns_points_taken"))
    elif isinstance(ns_points_taken, OversizedNumber) or (
        isinstance(ns_points_taken, int)
        and not isinstance(ns_points_taken, bool)
        and not MIN_POINTS <= ns_points_taken <= MAX_POINTS
    ):
        out.append(
            Problem(
                "points_out_of_range", "ns_points_taken",
                {"value": ns_points_taken, "minimum": MIN_POINTS, "maximum": MAX_POINTS},
            )
        )
    elif isinstance(ns_points_taken, bool) or not isinstance(ns_points_taken, int):
        out.append(Problem("points_not_integer", "ns_points_taken", {"value": ns_points_taken}))
    else:
        points = ns_points_taken
    flags: dict[str, bool] = {}
    for name in DOUBLES:
        raw = doubles[name]
        if isinstance(raw, bool):
            flags[name] = raw
        else:
            out.append(Problem("not_boolean", name, {"value": raw}))
            flags[name] = False
    if flags["delegated"] and trump_text is None:
        out.append(Problem("delegated_without_trump", "delegated"))
    if flags["recontro"] and not flags["contro"]:
        out.append(Problem("recontro_without_contro", "recontro"))
    if flags["sant_vicenc"]:
        if not flags["recontro"]:
            out.append(Problem("sant_vicenc_without_recontro", "sant_vicenc"))
        if not rules.sant_vicenc:
            out.append(Problem("sant_vicenc_not_allowed", "sant_vicenc"))
        elif trump_value is Trump.BOTIFARRA and not rules.sant_vicenc_on_botifarra:
            out.append(Problem("sant_vicenc_on_botifarra_not_allowed", "sant_vicenc"))
    infraction_text = _text(infraction)
    side: Side | None = None
    if infraction_text is not None:
        if isinstance(infraction_text, str) and infraction_text in SIDE_CHOICES:
            side = Side(infraction_text)
        else:
            out.append(
                Problem(
                    "infraction_unknown", "infraction",
                    {"value": infraction_text, "choices": SIDE_CHOICES},
                )
            )
    if infraction_text is not None and is_adjusted:
        out.append(Problem("infraction_and_adjusted", ""))
    values = ResultValues(
        trump=trump_value,
        ns_points_taken=points,
        infraction=side,
        adjusted=adjusted_pair,
        **flags,
    )
    return values, out


def validate_result(
    *,
    trump: object,
    ns_points_taken: object,
    delegated: object = False,
    contro: object = False,
    recontro: object = False,
    sant_vicenc: object = False,
    infraction: object = None,
    adjusted: object = None,
    rules: PlaySettings = ALL_ALLOWED,
) -> list[Problem]:
    """Every problem of one result's raw values, in the order of the fields; ``[]`` when
    it is valid.

    ``trump``: ``"O"``, ``"C"``, ``"E"``, ``"B"``, ``"botifarra"`` (or the enum), ``None``
    only when adjusted. ``ns_points_taken``: the card and trick points NS took, an
    ``int`` 0..72, ``None`` only when adjusted or at an infraction (where the points do
    not count). ``delegated``, ``contro``, ``recontro``,
    ``sant_vicenc``: ``bool``; recontro needs contro, Sant Vicenç needs recontro and the
    ``rules`` settings ``sant_vicenc`` (and ``sant_vicenc_on_botifarra`` on a botifarra
    hand). ``infraction``: ``None``, ``"NS"`` or ``"EW"``. ``adjusted``: ``None``,
    ``{"NS": A, "EW": A}`` or ``(A, A)`` with A ``average``, ``average_plus``,
    ``average_minus``; never with an infraction. Never raises.
    """
    doubles = {
        "delegated": delegated, "contro": contro, "recontro": recontro,
        "sant_vicenc": sant_vicenc,
    }
    return _check(trump, ns_points_taken, doubles, infraction, adjusted, rules)[1]


def parse_result(
    *,
    trump: object,
    ns_points_taken: object,
    delegated: object = False,
    contro: object = False,
    recontro: object = False,
    sant_vicenc: object = False,
    infraction: object = None,
    adjusted: object = None,
    rules: PlaySettings = ALL_ALLOWED,
) -> ResultValues:
    """The typed values of a valid result (arguments as :func:`validate_result`).

    Raises :class:`scoring.errors.ResultError` whose ``problems`` are the
    :class:`Problem` list (its message: each :func:`describe`, with the field).

    >>> parse_result(trump="botifarra", ns_points_taken=41, contro=True).trump
    <Trump.BOTIFARRA: 'botifarra'>
    """
    doubles = {
        "delegated": delegated, "contro": contro, "recontro": recontro,
        "sant_vicenc": sant_vicenc,
    }
    values, problems = _check(trump, ns_points_taken, doubles, infraction, adjusted, rules)
    if problems:
        raise ResultError(
            "; ".join(f"{p.field or 'result'}: {describe(p)}" for p in problems),
            problems=problems,
        )
    return values


def _choices(params: Mapping[str, Any]) -> str:
    return ", ".join(str(c) for c in params.get("choices", ()))


#: English message of each code (the file's and ``python -m scoring``'s language).
MESSAGES: dict[str, str] = {
    "trump_missing": "is missing (a played result needs its trump)",
    "trump_unknown": "{value} is not one of {choices}",
    "points_missing": "may be null only when adjusted or infraction is set",
    "points_not_integer": "must be a whole number, not {kind}",
    "points_out_of_range": "{value} is not in {minimum}..{maximum}",
    "not_boolean": "must be true or false, not {kind}",
    "delegated_without_trump": "delegated without a trump",
    "recontro_without_contro": "recontro without contro",
    "sant_vicenc_without_recontro": "Sant Vicenç without recontro",
    "sant_vicenc_not_allowed": "Sant Vicenç is not played in this championship",
    "sant_vicenc_on_botifarra_not_allowed":
        "Sant Vicenç on a botifarra hand is not played in this championship",
    "infraction_unknown": "{value} is not one of null, {choices}",
    "adjusted_not_object": "must be an object with NS and EW, not {kind}",
    "adjusted_side_missing": "is missing",
    "adjusted_unknown": "{value} is not one of {choices}",
    "infraction_and_adjusted": "both infraction and adjusted are set",
}


def describe(problem: Problem) -> str:
    """The English message of ``problem`` (without its field or JSON path).

    >>> describe(Problem("not_boolean", "contro", {"value": "yes"}))
    "must be true or false, not the text 'yes'"
    """
    params = problem.params
    template = MESSAGES.get(problem.code, problem.code)
    if isinstance(params.get("value"), OversizedNumber):
        template = "{value} is out of range"  # as every oversized number of a file
    return template.format(
        value=show(params.get("value")),
        kind=kind(params.get("value")),
        choices=_choices(params),
        minimum=params.get("minimum", MIN_POINTS),
        maximum=params.get("maximum", MAX_POINTS),
        side=params.get("side", ""),
    )
