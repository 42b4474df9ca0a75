"""What the referee's result form checks besides the rules: the hand score shown while
typing (the scorer's own rule, which the page asks through
``tournaments.web.referee.result_hand_score``) and the results that are legal but
unusual enough to ask for a confirmation before they are saved (docs/decisions.md,
"Unusual results"). Rules only: the views that ask them are in ``web/referee.py``.

Unusual results (each asks "is this right?" once; the referee confirms and it is saved
as it is):

- ``all_points``: a side took all 72 points (NS 0 or 72) in a played hand;
- ``sant_vicenc``: a Sant Vicenç, with what the championship's doubling does with it
  (classic: the hand counts 8 times, 16 on a botifarra; duplicate: recorded, it changes
  no score);
- ``far_from_field``: with at least two other tables' regular results on the board (no
  infraction, no adjusted score), NS's points differ by more than :data:`FAR_FROM_FIELD`
  from their median (the same deal rarely goes 30 points another way: often a line
  swapped, or EW's points typed as NS's).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from engine.cards import HAND_POINTS, Suit, other_side_points
from engine.score import classic_multiplier
from scoring.comparative import result_hand_score
from tournaments.models import Board, Championship, Result, Seating
from tournaments.result_messages import result_problems

#: NS points farther than this from the median of the board's other results are unusual.
FAR_FROM_FIELD = 30


def _flag(value: Any) -> bool:
    return str(value).lower() in ("1", "on", "true", "yes")


def _points(value: Any) -> int | None:
    text = str(value if value is not None else "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else None


def hand_score(championship: Championship, board_number: int, data: Any
               ) -> dict[str, Any]:
    """The hand score of the values typed so far, by the scorer's rule
    (``scoring.comparative.result_hand_score``, the one the standings count):
    ``{"ns": int, "ew": int}``; ``{"ns": None, "ew": None, "error": message}`` while the
    values are incomplete or not allowed (the message the form would show); both
    ``None`` and no error for an infraction or an adjusted score (no hand score)."""
    trump = (data.get("trump") or "").strip() or None
    ns = _points(data.get("ns_points_taken"))
    infraction = (data.get("infraction") or "").strip() or None
    flags = {k: _flag(data.get(k)) for k in ("delegated", "contro", "recontro", "sant_vicenc")}
    if infraction:
        return {"ns": None, "ew": None}
    problems = result_problems(championship, trump=trump, ns_points_taken=ns,
                               infraction=None, **flags)
    if problems:
        return {"ns": None, "ew": None, "error": problems[0][1]}
    result = scoring.Result(
        round=1, table=1, board=board_number, ns_pair=1, ew_pair=2,
        trump=scoring.Trump(trump), ns_points_taken=ns, delegated=flags["delegated"],
        contro=flags["contro"], recontro=flags["recontro"], sant_vicenc=flags["sant_vicenc"],
    )
    score = result_hand_score(championship.scoring_rules(), result)
    if score is None:
        return {"ns": None, "ew": None}
    return {"ns": score[0], "ew": score[1]}


def sant_vicenc_effect(doubling: str, trump: Any) -> str:
    """What a Sant Vicenç does under ``doubling`` (``"duplicate"`` or ``"classic"``) on a
    hand of ``trump`` (a suit letter or ``"botifarra"``), in the active language: the
    classic multiplier (``engine.score.classic_multiplier``, 8 or 16), or, under duplicate
    doubling, that it is only recorded (docs/rules.md "Hand score")."""
    if doubling != "classic":
        return _("Sant Vicenç: amb el doblatge duplicat queda anotat però no canvia la "
                 "puntuació.")
    suit = None if str(trump or "botifarra") == "botifarra" else Suit(str(trump))
    times = classic_multiplier(trump=suit, contro=True, recontro=True, sant_vicenc=True)
    return _("Sant Vicenç: amb el doblatge clàssic la mà compta %(n)s vegades.") % {"n": times}


def unusual(
    *, trump: Any, ns_points_taken: int | None, sant_vicenc: bool, infraction: Any,
    adjusted: Any, others: Sequence[int], doubling: str,
) -> list[tuple[str, str]]:
    """The unusual features of a valid result, as ``(code, message)`` in the active
    language; ``[]`` when nothing is unusual. ``others``: NS points of the board's other
    played results; ``doubling``: the championship's (``"duplicate"`` or ``"classic"``),
    which decides what a Sant Vicenç does. An infraction or an adjusted score is never
    asked about."""
    if infraction or adjusted or ns_points_taken is None:
        return []
    found: list[tuple[str, str]] = []
    if ns_points_taken in (0, HAND_POINTS):
        found.append(("all_points", _(
            "Una línia s'ha endut els 72 punts (NS %(ns)s, EO %(ew)s).")
            % {"ns": ns_points_taken, "ew": other_side_points(ns_points_taken)}))
    if sant_vicenc:
        found.append(("sant_vicenc", sant_vicenc_effect(doubling, trump)))
    if len(others) >= 2:
        median = statistics.median(others)
        if abs(ns_points_taken - median) > FAR_FROM_FIELD:
            found.append(("far_from_field", ngettext(
                "NS %(ns)s punt, i a les altres taules NS en fan %(median)s (mediana): "
                "potser s'han canviat les línies?",
                "NS %(ns)s punts, i a les altres taules NS en fan %(median)s (mediana): "
                "potser s'han canviat les línies?", ns_points_taken)
                % {"ns": ns_points_taken, "median": formats.number_format(
                    median, decimal_pos=0 if median == int(median) else 1)}))
    return found


def unusual_for_form(championship: Championship, seating: Seating, board: Board,
                     data: dict[str, Any], current: Result | None) -> list[tuple[str, str]]:
    """:func:`unusual` for the result form's cleaned data (one query for the board's
    other results). A result saved before with the same points and Sant Vicenç was
    already confirmed: not asked again."""
    if current is not None and current.ns_points_taken == data.get("ns_points_taken") \
            and current.sant_vicenc == bool(data.get("sant_vicenc")):
        return []
    # Regular results only: an infraction's points, when given, count for nothing
    # (docs/rules.md "Infractions"), so they do not make a result look unusual either.
    others = [
        n for n in Result.objects.filter(board=board, infraction__isnull=True)
        .exclude(seating=seating).values_list("ns_points_taken", flat=True) if n is not None
    ]
    adjusted = data.get("adjusted_ns") or data.get("adjusted")
    return unusual(
        trump=data.get("trump"), ns_points_taken=data.get("ns_points_taken"),
        sant_vicenc=bool(data.get("sant_vicenc")), infraction=data.get("infraction"),
        adjusted=adjusted, others=others, doubling=championship.doubling,
    )
