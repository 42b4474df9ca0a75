"""Hand score: what each side scores on one hand, before any comparison.

Source: docs/rules.md "Hand score" (the ``duplicate`` and ``classic`` doubling of a
duplicate championship, and the classic game's infraction score).

>>> hand_score(41, dealer_side=Side.NS, trump=None, contro=True)   # both x2
HandScore(ns=10, ew=-10)
>>> hand_score(30, dealer_side=Side.NS, trump=None)               # botifarra lost by 6
HandScore(ns=-12, ew=6)
>>> hand_score(45, dealer_side=Side.EW, trump=Suit.O, contro=True, recontro=True,
...            doubling="classic")
HandScore(ns=36, ew=-36)
>>> classic_infraction_score(Side.EW, trump=None, contro=True, recontro=False,
...                          sant_vicenc=False)
HandScore(ns=144, ew=0)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.cards import HAND_POINTS, Suit
from engine.errors import InvalidResultError
from engine.seats import Side

#: Points each side needs to break even: half of the 72 in a hand.
HALF = HAND_POINTS // 2

DOUBLINGS = ("duplicate", "classic")


@dataclass(frozen=True, slots=True)
class HandScore:
    """The signed hand scores of the two sides (whole points, not comparative points).

    Under ``duplicate`` doubling they need not be opposite; ``score[Side.NS]`` is ``score.ns``.
    """

    ns: int
    ew: int

    def __getitem__(self, side: Side) -> int:
        return self.ns if side is Side.NS else self.ew


def _doubling_name(doubling: object) -> str:
    """``"duplicate"``/``"classic"`` from the text or any enum whose value is that text
    (``scoring.model.Doubling``; engine does not import scoring)."""
    value = doubling.value if isinstance(doubling, enum.Enum) else doubling
    if value not in DOUBLINGS:
        raise InvalidResultError(f"doubling {doubling!r} is not one of duplicate, classic")
    return str(value)


def _check_doubles(contro: bool, recontro: bool, sant_vicenc: bool) -> None:
    if recontro and not contro:
        raise InvalidResultError("recontro without contro")
    if sant_vicenc and not recontro:
        raise InvalidResultError("Sant Vicenç without recontro")


def classic_multiplier(
    *, trump: Suit | None, contro: bool, recontro: bool, sant_vicenc: bool
) -> int:
    """M = (2 if botifarra else 1) x (8 Sant Vicenç, else 4 recontro, else 2 contro, else 1).

    Source: docs/rules.md "Hand score", docs/file-format.md "Hand score" (``classic``).
    Raises :class:`InvalidResultError` for recontro without contro, Sant Vicenç without recontro.
    """
    _check_doubles(contro, recontro, sant_vicenc)
    doubles = 8 if sant_vicenc else 4 if recontro else 2 if contro else 1
    return (2 if trump is None else 1) * doubles


def hand_score(
    ns_points_taken: int,
    *,
    dealer_side: Side,
    trump: Suit | None,
    contro: bool = False,
    recontro: bool = False,
    sant_vicenc: bool = False,
    doubling: str | enum.Enum = "duplicate",
) -> HandScore:
    """Each side's signed score on one hand.

    ``ns_points_taken``: card and trick points NS took, 0..72 (EW took the rest).
    ``dealer_side`` declared ``trump`` (a Suit, or ``None`` for botifarra); ``contro`` is called
    by the other side, ``recontro`` by the dealer's side, ``sant_vicenc`` by the other side.
    ``doubling``: ``"duplicate"`` or ``"classic"`` (or an enum with that value).

    - ``duplicate``: a side's multiplier is 2 if it declared botifarra, times 2 if it called
      contro; recontro and Sant Vicenç change nothing. ``score(s) = (taken(s) - 36) x mult(s)``.
    - ``classic``: ``score(s) = (taken(s) - 36) x M`` with :func:`classic_multiplier`, so the
      two scores are opposite. (The classic *game* gives the losing side 0 instead; a
      duplicate championship needs the signed form: docs/decisions.md 7.)

    Raises :class:`InvalidResultError` for points outside 0..72, recontro without contro,
    Sant Vicenç without recontro, or an unknown doubling.
    """
    if (
        isinstance(ns_points_taken, bool)
        or not isinstance(ns_points_taken, int)
        or not 0 <= ns_points_taken <= HAND_POINTS
    ):
        raise InvalidResultError(f"ns_points_taken {ns_points_taken!r} is not in 0..72")
    _check_doubles(contro, recontro, sant_vicenc)
    ns_net = ns_points_taken - HALF
    if _doubling_name(doubling) == "classic":
        m = classic_multiplier(
            trump=trump, contro=contro, recontro=recontro, sant_vicenc=sant_vicenc
        )
        return HandScore(ns=ns_net * m, ew=-ns_net * m)
    dealer_mult = 2 if trump is None else 1
    other_mult = 2 if contro else 1
    ns_mult, ew_mult = (
        (dealer_mult, other_mult) if dealer_side is Side.NS else (other_mult, dealer_mult)
    )
    return HandScore(ns=ns_net * ns_mult, ew=-ns_net * ew_mult)


def classic_infraction_score(
    offender: Side,
    *,
    trump: Suit | None,
    contro: bool = False,
    recontro: bool = False,
    sant_vicenc: bool = False,
) -> HandScore:
    """Classic game: the offending side scores 0, the other 36 x M, as if it took all 72.

    Source: docs/rules.md "Hand score" (Infraction in the classic game). In a duplicate
    championship an infraction is scored in comparative points instead (``scoring``).
    Raises :class:`InvalidResultError` for recontro without contro, Sant Vicenç without recontro.
    """
    m = classic_multiplier(trump=trump, contro=contro, recontro=recontro, sant_vicenc=sant_vicenc)
    return HandScore(ns=0, ew=HALF * m) if offender is Side.NS else HandScore(ns=HALF * m, ew=0)
