"""Comparative points of one board: scores against the field, exactly.

Source: docs/file-format.md "Comparative points". Every value is a ``Fraction`` on the
championship's scale (``bottom``..``top``); rounding (``floor``) happens last, per pair and
board, in :func:`round_points`.

The butinet board of docs/rules.md ("Duplicate scoring, public example"), scale 0 to 100:

>>> from scoring.model import ScoringRules
>>> rules = ScoringRules.butinet()
>>> [int(round_points(v, rules.rounding)) for v in comparative_points(rules, [-1, 4, 3, -11, 11])]
[45, 68, 63, 0, 100]
>>> [int(round_points(v, rules.rounding)) for v in comparative_points(rules, [2, -8, -6, 11, -22])]
[72, 42, 48, 100, 0]

Matchpoints on the default scale 1 to 2, and the same board with a missing result scaled
up by Neuberg's formula to the five results of the fullest board:

>>> from scoring.model import Method
>>> mp = ScoringRules(method=Method.MATCHPOINTS)
>>> [str(v) for v in comparative_points(mp, [10, 0, 0, -5, 20])]
['7/4', '11/8', '11/8', '1', '2']
>>> [str(v) for v in comparative_points(mp, [10, 0, -5, 20], most_results=5)]
['53/32', '43/32', '33/32', '63/32']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm

from engine.score import hand_score
from engine.seats import Side, dealer
from scoring.errors import ResultError
from scoring.model import Adjustment, Method, Result, Rounding, ScoringRules, Trump
from scoring.validate import MAX_POINTS, MIN_POINTS, describe, validate_result

Key = tuple[int, int, int]

#: Where an adjustment sits between bottom (0) and top (1): docs/file-format.md.
ADJUSTMENT_SHARE: dict[Adjustment, Fraction] = {
    Adjustment.AVERAGE: Fraction(1, 2),
    Adjustment.AVERAGE_PLUS: Fraction(3, 5),
    Adjustment.AVERAGE_MINUS: Fraction(2, 5),
}


@dataclass(frozen=True, slots=True)
class ResultScore:
    """What one result earns: hand scores and comparative points of both pairs.

    ``ns_score``/``ew_score``: signed hand scores (engine.score.hand_score), ``None`` for an
    adjusted result and at an infraction. ``ns_comparative``/``ew_comparative``: comparative
    points on the championship's scale, already rounded as the rules' ``rounding`` says.
    """

    ns_score: int | None
    ew_score: int | None
    ns_comparative: Fraction
    ew_comparative: Fraction

    def comparative(self, side: Side) -> Fraction:
        return self.ns_comparative if side is Side.NS else self.ew_comparative


def middle(rules: ScoringRules) -> Fraction:
    """``(bottom + top) / 2``: the average of the scale."""
    return (rules.bottom + rules.top) / 2


def adjusted_points(rules: ScoringRules, adjustment: Adjustment) -> Fraction:
    """A director's adjustment in comparative points (unrounded): ``average`` = (bottom +
    top) / 2, ``average_plus`` = bottom + 0.6 (top - bottom), ``average_minus`` = bottom +
    0.4 (top - bottom). Source: docs/file-format.md "Comparative points"."""
    return rules.bottom + ADJUSTMENT_SHARE[adjustment] * (rules.top - rules.bottom)


def round_points(value: Fraction, rounding: Rounding) -> Fraction:
    """Apply the rules' rounding to one pair's comparative points on one board.

    >>> round_points(Fraction(909, 20), Rounding.FLOOR), round_points(Fraction(3, 2), Rounding.NONE)
    (Fraction(45, 1), Fraction(3, 2))
    """
    if rounding is Rounding.FLOOR:
        return Fraction(value.numerator // value.denominator)
    return value


def _scale_ints(rules: ScoringRules) -> tuple[int, int, int]:
    """(p, r, q) with bottom = p/q and top - bottom = r/q, for integer-only inner loops."""
    q = lcm(rules.bottom.denominator, rules.top.denominator)
    return (int(rules.bottom * q), int((rules.top - rules.bottom) * q), q)


def comparative_by_score(
    rules: ScoringRules, scores: Iterable[int], *, most_results: int | None = None
) -> dict[int, Fraction]:
    """Unrounded comparative points of each distinct score among one direction's regular
    scores on one board (a list: one item per table, ties repeated).

    ``proportional``: ``bottom + (top - bottom) (score - min) / (max - min)``, or the middle
    of the scale when max = min. ``matchpoints``: ``mp`` = 2 per score beaten and 1 per score
    tied; with A scores here and E = ``most_results`` (the most regular results of any board
    of the championship, default A) Neuberg's formula ``mp' = (mp + 1) E / A - 1`` out of
    ``2 (E - 1)``, mapped to bottom..top; the middle of the scale when E = 1. Ranks come from
    one sort (O(n log n)), not from comparing every pair of scores.
    Source: docs/file-format.md "Comparative points". Neuberg's formula is Gérard
    Neuberg's, adopted by the WBF and ACBL in 1991; worked in M. Bavin (EBU chief tournament
    director), "The Neuberg formula" (10 results where 11 were expected: a sole top earns
    19.9 of 20, the next 17.7 ... the bottom 0.1; see tests). Raises ``ValueError`` when
    ``most_results`` is below the number of scores.
    """
    ordered = sorted(scores)
    count = len(ordered)
    if not count:
        return {}
    p, r, q = _scale_ints(rules)
    if rules.method is Method.PROPORTIONAL:
        low, spread = ordered[0], ordered[-1] - ordered[0]
        if spread == 0:
            return {low: middle(rules)}
        den = q * spread
        # One Fraction per distinct score (tied tables repeat theirs), ascending.
        return {s: Fraction(p * spread + r * (s - low), den) for s in dict.fromkeys(ordered)}
    most = count if most_results is None else most_results
    if most < count:
        raise ValueError(f"most_results {most} is below the {count} results of this board")
    if most == 1:
        return {ordered[0]: middle(rules)}
    out: dict[int, Fraction] = {}
    den = q * 2 * count * (most - 1)
    below = 0
    i = 0
    while i < count:
        j = i
        while j < count and ordered[j] == ordered[i]:
            j += 1
        mp = 2 * below + (j - i - 1)
        # bottom + (top - bottom) * ((mp + 1) E / A - 1) / (2 (E - 1)), over one denominator
        out[ordered[i]] = Fraction(p * 2 * count * (most - 1) + r * ((mp + 1) * most - count), den)
        below = j
        i = j
    return out


def comparative_points(
    rules: ScoringRules, scores: Sequence[int], *, most_results: int | None = None
) -> list[Fraction]:
    """Unrounded comparative points of one direction's regular scores on one board, in the
    order given. See :func:`comparative_by_score` for the formulas."""
    table = comparative_by_score(rules, scores, most_results=most_results)
    return [table[s] for s in scores]


@lru_cache(maxsize=4096)
def _hand_score(
    points: int,
    dealer_side: Side,
    trump: Trump,
    contro: bool,
    recontro: bool,
    sant_vicenc: bool,
    doubling: str,
) -> tuple[int, int]:
    score = hand_score(
        points,
        dealer_side=dealer_side,
        trump=trump.suit,
        contro=contro,
        recontro=recontro,
        sant_vicenc=sant_vicenc,
        doubling=doubling,
    )
    return (score.ns, score.ew)


@lru_cache(maxsize=1024)
def _dealer_side(board: int) -> Side:
    return dealer(board).side


def result_hand_score(rules: ScoringRules, result: Result) -> tuple[int, int] | None:
    """(NS, EW) hand scores of a result, ``None`` when adjusted or at an infraction.

    Raises :class:`scoring.errors.ResultError` (naming the result) for a regular result
    without trump or points, or with an impossible score (points outside 0..72, recontro
    without contro, Sant Vicenç without recontro).
    """
    if not result.is_regular:
        return None
    if result.trump is None or result.ns_points_taken is None:
        raise ResultError(f"result {result.key}: a played result needs trump and ns_points_taken")
    try:
        return _hand_score(
            result.ns_points_taken,
            _dealer_side(result.board),
            result.trump,
            result.contro,
            result.recontro,
            result.sant_vicenc,
            rules.doubling.value,
        )
    except ValueError as exc:
        raise ResultError(f"result {result.key}: {exc}") from None


def _plainly_valid(result: Result) -> bool:
    """Whether :func:`check_result` would find nothing, judged from the typed values alone
    (no :class:`scoring.validate.Problem` built): ``True`` only for a result
    :func:`scoring.validate.validate_result` accepts; anything unusual answers ``False``
    and is checked in full. Results read from the database or parsed from a file are
    typed, so scoring a championship checks each one in a few comparisons."""
    if result.ns_pair == result.ew_pair:
        return False
    trump, points = result.trump, result.ns_points_taken
    adjusted, infraction = result.adjusted, result.infraction
    if adjusted is None:
        if trump.__class__ is not Trump or points.__class__ is not int:
            return False
    else:
        if (infraction is not None or adjusted.__class__ is not tuple or len(adjusted) != 2
                or adjusted[0].__class__ is not Adjustment
                or adjusted[1].__class__ is not Adjustment):
            return False
        if trump is not None and trump.__class__ is not Trump:
            return False
        if points is not None and points.__class__ is not int:
            return False
    if points is not None and not MIN_POINTS <= points <= MAX_POINTS:
        return False
    if infraction is not None and infraction.__class__ is not Side:
        return False
    delegated, contro, recontro = result.delegated, result.contro, result.recontro
    sant_vicenc = result.sant_vicenc
    if (delegated.__class__ is not bool or contro.__class__ is not bool
            or recontro.__class__ is not bool or sant_vicenc.__class__ is not bool):
        return False
    return not ((delegated and trump is None) or (recontro and not contro)
                or (sant_vicenc and not recontro))


def check_result(result: Result) -> None:
    """Raise :class:`ResultError` (naming the result; ``problems``: every
    :class:`scoring.validate.Problem`) for a result that cannot happen: one pair on both
    sides, or anything :func:`scoring.validate.validate_result` refuses (recontro without
    contro, Sant Vicenç without recontro, points outside 0..72, checked at infractions
    too, both an infraction and an adjustment...). A typed, plainly valid result costs a
    few comparisons (:func:`_plainly_valid`); the full check runs on anything else."""
    if _plainly_valid(result):
        return
    if result.ns_pair == result.ew_pair:
        raise ResultError(f"result {result.key}: pair {result.ns_pair} on both sides")
    problems = validate_result(
        trump=result.trump,
        ns_points_taken=result.ns_points_taken,
        delegated=result.delegated,
        contro=result.contro,
        recontro=result.recontro,
        sant_vicenc=result.sant_vicenc,
        infraction=result.infraction,
        adjusted=result.adjusted,
    )
    if problems:
        raise ResultError(
            f"result {result.key}: "
            + "; ".join(f"{p.field or 'result'} {describe(p)}" for p in problems),
            problems=problems,
        )


def regular_count(results: Iterable[Result]) -> int:
    """How many of these results enter the comparison (no infraction, no adjustment)."""
    return sum(1 for r in results if r.is_regular)


def score_board(
    rules: ScoringRules,
    results: Iterable[Result],
    *,
    most_results: int | None = None,
) -> dict[Key, ResultScore]:
    """Score every result of one board: hand scores, then comparative points per direction.

    ``results``: all results of one board (any order). ``most_results``: for matchpoints,
    the most regular results of any board in the championship (Neuberg), default this
    board's. Infraction: the offender gets ``infraction_score``, the other pair the average
    of its direction's regular comparative points (unrounded), or the scale's middle when
    there are none. Adjusted: :func:`adjusted_points`. Rounding last (:func:`round_points`).
    Returns ``{(round, table, board): ResultScore}``. Raises :class:`ResultError`.
    """
    board: dict[Key, Result] = {}
    for result in results:
        check_result(result)
        board[result.key] = result
    return score_keyed(rules, board, most_results=most_results, checked=True)


def score_keyed(
    rules: ScoringRules,
    board: Mapping[Key, Result],
    *,
    most_results: int | None = None,
    checked: bool = False,
) -> dict[Key, ResultScore]:
    """:func:`score_board` of ``{(round, table, board): Result}`` whose keys are already
    computed (a championship keeps its results so); ``checked``: every result already
    passed :func:`check_result`. Results with the same hand scores share one
    :class:`ResultScore` (immutable, equal values)."""
    doubling = rules.doubling.value
    hand: dict[Key, tuple[int, int]] = {}
    for key, result in board.items():
        if not checked:
            check_result(result)
        if result.infraction is not None or result.adjusted is not None:
            continue
        trump, points = result.trump, result.ns_points_taken
        if trump is None or points is None:
            raise ResultError(f"result {key}: a played result needs trump and ns_points_taken")
        try:
            hand[key] = _hand_score(points, _dealer_side(result.board), trump, result.contro,
                                    result.recontro, result.sant_vicenc, doubling)
        except ValueError as exc:
            raise ResultError(f"result {key}: {exc}") from None
    played = list(hand.values())
    ns_table = comparative_by_score(rules, [s[0] for s in played], most_results=most_results)
    ew_table = comparative_by_score(rules, [s[1] for s in played], most_results=most_results)
    rounding = rules.rounding
    if rounding is Rounding.NONE:
        ns_rounded, ew_rounded = ns_table, ew_table
    else:
        ns_rounded = _rounded(ns_table, rounding)
        ew_rounded = _rounded(ew_table, rounding)
    out: dict[Key, ResultScore] = {}
    made: dict[tuple[int, int], ResultScore] = {}
    averages: dict[Side, Fraction] = {}
    for key, result in board.items():
        score = hand.get(key)
        if score is not None:
            shared = made.get(score)
            if shared is None:
                ns, ew = score
                shared = made[score] = ResultScore(ns, ew, ns_rounded[ns], ew_rounded[ew])
            out[key] = shared
            continue
        if result.adjusted is not None:
            ns_c = adjusted_points(rules, result.adjusted[0])
            ew_c = adjusted_points(rules, result.adjusted[1])
        else:
            assert result.infraction is not None
            if not averages:
                averages = {
                    Side.NS: _mean(rules, ns_table, [s[0] for s in played]),
                    Side.EW: _mean(rules, ew_table, [s[1] for s in played]),
                }
            if result.infraction is Side.NS:
                ns_c, ew_c = rules.infraction_score, averages[Side.EW]
            else:
                ns_c, ew_c = averages[Side.NS], rules.infraction_score
        out[key] = ResultScore(
            None, None, round_points(ns_c, rounding), round_points(ew_c, rounding)
        )
    return out


#: Whole comparative points already made as a Fraction, by value: a floored scale
#: (0..100) has few, and one Fraction each serves every board.
_WHOLE: dict[int, Fraction] = {}


def _rounded(table: Mapping[int, Fraction], rounding: Rounding) -> dict[int, Fraction]:
    """:func:`round_points` of each value of ``table``; a floored value is the one
    Fraction of its whole number (no Fraction built per score)."""
    if rounding is not Rounding.FLOOR:
        return {s: round_points(v, rounding) for s, v in table.items()}
    out: dict[int, Fraction] = {}
    for score, value in table.items():
        whole = value.numerator // value.denominator
        made = _WHOLE.get(whole)
        if made is None:
            made = Fraction(whole)
            if len(_WHOLE) < 4096:
                _WHOLE[whole] = made
        out[score] = made
    return out


def _mean(rules: ScoringRules, table: Mapping[int, Fraction], scores: Sequence[int]) -> Fraction:
    """Exact mean of the (unrounded) comparative points of these scores; the scale's middle
    when there are none. Sums numerators per denominator first: few Fraction operations."""
    if not scores:
        return middle(rules)
    buckets: dict[int, int] = {}
    for score in scores:
        value = table[score]
        buckets[value.denominator] = buckets.get(value.denominator, 0) + value.numerator
    total = sum((Fraction(n, d) for d, n in buckets.items()), Fraction(0))
    return total / len(scores)
