"""Classic championships: each round two pairs play one game (a "partida") to a target,
and the standings count games won. Pure Python, no Django.

Source: docs/rules.md "Classic championships". A game ends when a pair reaches the
target (101), when the deal limit (12) is played, or when time is called, whichever
comes first; each pair's points count up to the cap (121). Each deal only the side that
wins it scores: ``(taken - 36) x M`` with the classic multiplier (botifarra x2; contro
x2, recontro x4, Sant Vicenç x8); a revoke gives the other side ``36 x M``.

What a valid game is lives here (:func:`validate_game`, :func:`validate_hand`, every
problem with a stable code as :mod:`scoring.validate` does for a board's result), and so
does the ranking (:func:`classic_standings`): wins, then the tiebreaks the championship
chose.

>>> rules = ClassicRules()
>>> hand = Hand(chooser=Side.EW, trump=Trump.BOTIFARRA, contro=True, points=45)
>>> hand_game_score(hand)             # a botifarra with contro won 45 to 27: 9 x 4
HandScore(ns=0, ew=36)
>>> game, problems = validate_game(
...     {"ns_points": 101, "ew_points": 64, "deals": 9, "ended_by": "target"}, rules)
>>> problems, outcome(game, rules)
([], (Fraction(1, 1), Fraction(0, 1)))
>>> [p.code for p in validate_game(
...     {"ns_points": 90, "ew_points": 64, "deals": 9, "ended_by": "target"}, rules)[1]]
['target_not_reached']
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.score import HandScore, classic_infraction_score, hand_score
from engine.seats import Side
from scoring.championship import competition_ranks
from scoring.model import Trump
from scoring.text import OversizedNumber
from scoring.validate import Problem

#: A pair's points in one game are at most this (a sanity bound on what is typed: no
#: game of 12 deals comes near it).
MAX_GAME_POINTS = 9999
#: The most one deal can score: 36 x 16 (a botifarra with Sant Vicenç).
MAX_DEAL_SCORE = 36 * 16
#: The most deals a score sheet may have (the referees' form at most as many lines; an
#: interchange file's game as many, ``scoring.interchange.limits.MAX_GAME_HANDS``): a
#: game with no deal limit ends on time long before.
MAX_SHEET_DEALS = 100


class EndedBy(enum.Enum):
    """How a game ended."""

    TARGET = "target"  # a pair reached the target points
    DEALS = "deals"  # the deal limit was played
    TIME = "time"  # the time limit was called
    ADJUSTED = "adjusted"  # the referee set the score (a forfeit, a game not finished)


class LevelGame(enum.Enum):
    """What a game level at its end counts."""

    HALF = "half"  # half a win to each pair
    EXTRA_DEALS = "extra_deals"  # play ``extra_deals`` more deals; still level: half each
    NOT_BROKEN = "not_broken"  # no win to either pair


class Tiebreak(enum.Enum):
    """A ranking criterion, the larger first."""

    WINS = "wins"
    DIFFERENCE = "difference"
    POINTS_FOR = "points_for"
    HEAD_TO_HEAD = "head_to_head"  # wins in the games among the pairs still tied
    BUCHHOLZ = "buchholz"  # the sum of the opponents' wins


ENDED_BY_CHOICES = tuple(e.value for e in EndedBy)
LEVEL_GAME_CHOICES = tuple(e.value for e in LevelGame)
TIEBREAK_CHOICES = tuple(e.value for e in Tiebreak)
DEFAULT_TIEBREAKS = (Tiebreak.WINS, Tiebreak.DIFFERENCE, Tiebreak.POINTS_FOR)


@dataclass(frozen=True, slots=True)
class ClassicRules:
    """The rules of a classic championship, defaults as most Catalan events play them.

    ``max_deals`` / ``time_limit_minutes`` / ``score_cap``: ``None`` for none.
    ``bye_wins`` / ``bye_points_for`` / ``bye_points_against``: what a bye counts (a win,
    0 to 0: it moves neither the difference nor the points). ``contro`` /
    ``recontro`` / ``sant_vicenc`` / ``sant_vicenc_on_botifarra``: which doubles the
    score sheet accepts.
    """

    game_target: int = 101
    max_deals: int | None = 12
    time_limit_minutes: int | None = 55
    score_cap: int | None = 121
    level_game: LevelGame = LevelGame.HALF
    extra_deals: int = 2
    tiebreaks: tuple[Tiebreak, ...] = DEFAULT_TIEBREAKS
    bye_wins: Fraction = Fraction(1)
    bye_points_for: int = 0
    bye_points_against: int = 0
    contro: bool = True
    recontro: bool = True
    sant_vicenc: bool = False
    sant_vicenc_on_botifarra: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.game_target, int) or self.game_target < 1:
            raise ValueError(f"game_target {self.game_target!r} must be a positive integer")
        for name in ("max_deals", "time_limit_minutes", "score_cap"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} {value!r} must be a positive integer or None")
        if self.score_cap is not None and self.score_cap < self.game_target:
            raise ValueError(
                f"score_cap {self.score_cap} is below game_target {self.game_target}"
            )
        if not isinstance(self.extra_deals, int) or self.extra_deals < 0:
            raise ValueError(f"extra_deals {self.extra_deals!r} must be 0 or more")
        object.__setattr__(self, "level_game", LevelGame(self.level_game))
        tiebreaks = tuple(Tiebreak(t) for t in self.tiebreaks)
        if not tiebreaks or len(set(tiebreaks)) != len(tiebreaks):
            raise ValueError("tiebreaks must list one or more criteria, each once")
        object.__setattr__(self, "tiebreaks", tiebreaks)
        object.__setattr__(self, "bye_wins", Fraction(self.bye_wins))

    @property
    def most_deals(self) -> int | None:
        """The deals a game can last: the limit, plus the extra deals of a level game."""
        if self.max_deals is None:
            return None
        extra = self.extra_deals if self.level_game is LevelGame.EXTRA_DEALS else 0
        return self.max_deals + extra

    def counted(self, points: int) -> int:
        """A pair's points as the standings count them: at most the cap."""
        return points if self.score_cap is None else min(points, self.score_cap)


# ------------------------------------------------------------------------------ a deal


@dataclass(frozen=True, slots=True)
class Hand:
    """One deal as the score sheet records it.

    ``chooser``: the side that chose trump (the dealer's side; ``delegated`` when the
    dealer passed the choice to the partner). ``trump``: a suit or botifarra.
    ``points``: the card and trick points the choosing side took, 0..72 (``None`` allowed
    at a revoke, where they do not count). ``revoke``: the side that revoked, if any.
    """

    chooser: Side
    trump: Trump
    points: int | None
    delegated: bool = False
    contro: bool = False
    recontro: bool = False
    sant_vicenc: bool = False
    revoke: Side | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "chooser": self.chooser.value, "delegated": self.delegated,
            "trump": self.trump.value, "contro": self.contro, "recontro": self.recontro,
            "sant_vicenc": self.sant_vicenc, "points": self.points,
            "revoke": None if self.revoke is None else self.revoke.value,
        }


def hand_game_score(hand: Hand) -> HandScore:
    """What each pair scores on one deal of a classic game: the side that wins the deal
    scores ``(taken - 36) x M``, the other 0 (36 each: nobody scores); a revoke gives the
    other side ``36 x M`` (``engine.score``)."""
    doubles = {"contro": hand.contro, "recontro": hand.recontro,
               "sant_vicenc": hand.sant_vicenc}
    if hand.revoke is not None:
        return classic_infraction_score(hand.revoke, trump=hand.trump.suit, **doubles)
    assert hand.points is not None
    ns_taken = hand.points if hand.chooser is Side.NS else 72 - hand.points
    signed = hand_score(ns_taken, dealer_side=hand.chooser, trump=hand.trump.suit,
                        doubling="classic", **doubles)
    return HandScore(ns=max(signed.ns, 0), ew=max(signed.ew, 0))


_HAND_KEYS = ("chooser", "delegated", "trump", "contro", "recontro", "sant_vicenc",
              "points", "revoke")
_SIDES = ("NS", "EW")
_TRUMPS = tuple(t.value for t in Trump)


def _flag(raw: Mapping[str, Any], key: str, path: str, out: list[Problem]) -> bool:
    value = raw.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        out.append(Problem("not_boolean", f"{path}{key}", {"value": value}))
        return False
    return value


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool | OversizedNumber)


def validate_hand(
    raw: Mapping[str, Any], rules: ClassicRules, *, path: str = ""
) -> tuple[Hand | None, list[Problem]]:
    """One deal of a score sheet from its raw values (``chooser``, ``delegated``,
    ``trump``, ``contro``, ``recontro``, ``sant_vicenc``, ``points``, ``revoke``), checked
    against the championship's doubles. Returns the hand (``None`` when a problem) and
    every problem, fields prefixed with ``path`` (``"hands[3]."``)."""
    out: list[Problem] = []
    if not isinstance(raw, Mapping):
        return None, [Problem("hand_not_object", path.rstrip("."), {"value": raw})]
    for key in raw:
        if key not in _HAND_KEYS:
            out.append(Problem("unknown_field", f"{path}{key}", {"value": key}))
    chooser = raw.get("chooser")
    chooser = getattr(chooser, "value", chooser)
    if chooser is None:
        out.append(Problem("chooser_missing", f"{path}chooser"))
    elif chooser not in _SIDES:
        out.append(Problem("chooser_unknown", f"{path}chooser",
                           {"value": chooser, "choices": _SIDES}))
    trump = raw.get("trump")
    trump = getattr(trump, "value", trump)
    if trump is None:
        out.append(Problem("trump_missing", f"{path}trump"))
    elif trump not in _TRUMPS:
        out.append(Problem("trump_unknown", f"{path}trump",
                           {"value": trump, "choices": _TRUMPS}))
    flags = {key: _flag(raw, key, path, out)
             for key in ("delegated", "contro", "recontro", "sant_vicenc")}
    revoke = raw.get("revoke")
    revoke = getattr(revoke, "value", revoke)
    if revoke is not None and revoke not in _SIDES:
        out.append(Problem("revoke_unknown", f"{path}revoke",
                           {"value": revoke, "choices": _SIDES}))
    points = raw.get("points")
    if points is None:
        if revoke is None:
            out.append(Problem("hand_points_missing", f"{path}points"))
    elif not _integer(points) or not 0 <= points <= 72:
        out.append(Problem("hand_points_out_of_range", f"{path}points",
                           {"value": points, "minimum": 0, "maximum": 72}))
    if flags["recontro"] and not flags["contro"]:
        out.append(Problem("recontro_without_contro", f"{path}recontro"))
    if flags["sant_vicenc"] and not flags["recontro"]:
        out.append(Problem("sant_vicenc_without_recontro", f"{path}sant_vicenc"))
    if flags["contro"] and not rules.contro:
        out.append(Problem("contro_not_allowed", f"{path}contro"))
    if flags["recontro"] and not rules.recontro:
        out.append(Problem("recontro_not_allowed", f"{path}recontro"))
    if flags["sant_vicenc"] and not rules.sant_vicenc:
        out.append(Problem("sant_vicenc_not_allowed", f"{path}sant_vicenc"))
    elif (flags["sant_vicenc"] and trump == Trump.BOTIFARRA.value
          and not rules.sant_vicenc_on_botifarra):
        out.append(Problem("sant_vicenc_on_botifarra_not_allowed", f"{path}sant_vicenc"))
    if out:
        return None, out
    return Hand(
        chooser=Side(chooser), trump=Trump(trump), points=points,
        revoke=None if revoke is None else Side(revoke), **flags,
    ), []


# ------------------------------------------------------------------------------ a game


@dataclass(frozen=True, slots=True)
class Game:
    """A game's final score as entered (not capped): ``ns_points`` / ``ew_points`` of
    the pairs that sat NS and EW in the draw, ``deals`` played, how it ``ended_by``, and
    the score sheet's ``hands`` when it was entered deal by deal."""

    ns_points: int
    ew_points: int
    deals: int
    ended_by: EndedBy
    hands: tuple[Hand, ...] = ()

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ns_points": self.ns_points, "ew_points": self.ew_points,
            "deals": self.deals, "ended_by": self.ended_by.value,
        }
        if self.hands:
            out["hands"] = [h.as_json() for h in self.hands]
        return out


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of a score sheet: the deal's scores and the running totals."""

    deal: int
    hand: Hand
    ns_score: int
    ew_score: int
    ns_total: int
    ew_total: int


def sheet_lines(hands: Sequence[Hand]) -> list[SheetLine]:
    """Each deal's score and the running totals, as the score sheet shows them."""
    lines: list[SheetLine] = []
    ns = ew = 0
    for number, hand in enumerate(hands, start=1):
        score = hand_game_score(hand)
        ns, ew = ns + score.ns, ew + score.ew
        lines.append(SheetLine(number, hand, score.ns, score.ew, ns, ew))
    return lines


def play_sheet(
    hands: Sequence[Hand], rules: ClassicRules, *, ended_by: EndedBy | str | None = None
) -> tuple[Game | None, list[Problem]]:
    """The game a score sheet records, ended where the rules end it: after the deal on
    which a pair reaches the target, or after the deal limit (and the extra deals of a
    level game). A sheet that stops before either ended on ``time`` (or was
    ``adjusted``): ``ended_by`` says which. A deal after the end is a problem at its
    line (``hands[k]``)."""
    ended = None if ended_by is None else EndedBy(ended_by)
    out: list[Problem] = []
    if not hands:
        return None, [Problem("hands_empty", "hands")]
    lines = sheet_lines(hands)
    end_at: tuple[int, EndedBy] | None = None
    for line in lines:
        if max(line.ns_total, line.ew_total) >= rules.game_target:
            end_at = (line.deal, EndedBy.TARGET)
        elif rules.max_deals is not None and line.deal >= rules.max_deals:
            level = line.ns_total == line.ew_total
            extra = rules.level_game is LevelGame.EXTRA_DEALS and rules.extra_deals > 0
            limit = rules.max_deals
            if extra and (line.deal > limit or level):
                limit = rules.max_deals + rules.extra_deals
            if line.deal >= limit:
                end_at = (line.deal, EndedBy.DEALS)
        if end_at is not None:
            break
    last = lines[-1]
    if end_at is not None and end_at[0] < len(lines):
        out.append(Problem("hand_after_end", f"hands[{end_at[0]}]",
                           {"deal": end_at[0] + 1, "ended": end_at[0]}))
        return None, out
    if end_at is None:
        if ended not in (EndedBy.TIME, EndedBy.ADJUSTED):
            out.append(Problem("sheet_not_finished", "ended_by",
                               {"deals": len(lines), "target": rules.game_target}))
            return None, out
        if ended is EndedBy.TIME and rules.time_limit_minutes is None:
            out.append(Problem("no_time_limit", "ended_by"))
            return None, out
        result = ended
    else:
        result = ended if ended is EndedBy.ADJUSTED else end_at[1]
    return Game(last.ns_total, last.ew_total, len(lines), result, tuple(hands)), out


def _game_field(raw: Mapping[str, Any], key: str, out: list[Problem], *,
                minimum: int = 0) -> int | None:
    value = raw.get(key)
    if value is None:
        out.append(Problem("value_missing", key))
        return None
    if not _integer(value):
        out.append(Problem("not_integer", key, {"value": value}))
        return None
    if not minimum <= value <= MAX_GAME_POINTS:
        out.append(Problem("out_of_range", key,
                           {"value": value, "minimum": minimum, "maximum": MAX_GAME_POINTS}))
        return None
    return int(value)


def validate_game(
    raw: Mapping[str, Any], rules: ClassicRules
) -> tuple[Game | None, list[Problem]]:
    """A game from its raw values (``ns_points``, ``ew_points``, ``deals``,
    ``ended_by``, optional ``hands``), checked against the rules. Returns the game
    (``None`` when a problem) and every problem, each at its field:

    - ``target``: one pair at or above the target, the other below;
    - ``deals``: neither at the target, the deal limit (plus the extra deals a level game
      plays) reached, not passed;
    - ``time``: neither at the target, within the deal limit; only with a time limit;
    - ``adjusted``: the referee's score, any points;
    - with ``hands``, the sheet's totals, deals and end must be the final's (a final
      left out is taken from the sheet).
    """
    out: list[Problem] = []
    if not isinstance(raw, Mapping):
        return None, [Problem("game_not_object", "", {"value": raw})]
    hands_raw = raw.get("hands")
    hands: list[Hand] = []
    if hands_raw not in (None, []):
        if not isinstance(hands_raw, list):
            return None, [Problem("hands_not_list", "hands", {"value": hands_raw})]
        if len(hands_raw) > MAX_SHEET_DEALS:
            return None, [Problem("sheet_too_long", "hands",
                                  {"value": len(hands_raw), "maximum": MAX_SHEET_DEALS})]
        for k, item in enumerate(hands_raw):
            hand, problems = validate_hand(item, rules, path=f"hands[{k}].")
            out.extend(problems)
            if hand is not None:
                hands.append(hand)
        if out:
            return None, out
    ended_raw = raw.get("ended_by")
    ended_raw = getattr(ended_raw, "value", ended_raw)
    if ended_raw is not None and ended_raw not in ENDED_BY_CHOICES:
        out.append(Problem("ended_by_unknown", "ended_by",
                           {"value": ended_raw, "choices": ENDED_BY_CHOICES}))
        return None, out
    if hands:
        sheet, problems = play_sheet(hands, rules, ended_by=ended_raw)
        if problems or sheet is None:
            return None, problems
        for key in ("ns_points", "ew_points", "deals"):
            given = raw.get(key)
            if given is not None and given != getattr(sheet, key):
                out.append(Problem("sheet_mismatch", key,
                                   {"value": given, "sheet": getattr(sheet, key)}))
        if ended_raw is not None and ended_raw != sheet.ended_by.value:
            out.append(Problem("sheet_mismatch", "ended_by",
                               {"value": ended_raw, "sheet": sheet.ended_by.value}))
        return (None, out) if out else (sheet, [])
    for key in raw:
        if key not in ("ns_points", "ew_points", "deals", "ended_by", "hands"):
            out.append(Problem("unknown_field", key, {"value": key}))
    ns = _game_field(raw, "ns_points", out)
    ew = _game_field(raw, "ew_points", out)
    deals = _game_field(raw, "deals", out)
    if ended_raw is None:
        out.append(Problem("value_missing", "ended_by"))
    if out or ns is None or ew is None or deals is None or ended_raw is None:
        return None, out
    ended = EndedBy(ended_raw)
    game = Game(ns, ew, deals, ended)
    out.extend(game_problems(game, rules))
    return (None, out) if out else (game, [])


def game_problems(game: Game, rules: ClassicRules) -> list[Problem]:
    """What is wrong with a final score under the rules (see :func:`validate_game`)."""
    out: list[Problem] = []
    target = rules.game_target
    ns, ew, deals, ended = game.ns_points, game.ew_points, game.deals, game.ended_by
    if ended is EndedBy.ADJUSTED:
        return out
    if deals < 1:
        out.append(Problem("deals_out_of_range", "deals",
                           {"value": deals, "minimum": 1, "maximum": rules.most_deals}))
        return out
    most = rules.most_deals
    if most is not None and deals > most:
        out.append(Problem("deals_out_of_range", "deals",
                           {"value": deals, "minimum": 1, "maximum": most}))
    if ended is EndedBy.TARGET:
        if ns >= target and ew >= target:
            out.append(Problem("both_reached_target", "ew_points" if ew <= ns else "ns_points",
                               {"target": target}))
        elif ns < target and ew < target:
            out.append(Problem("target_not_reached",
                               "ns_points" if ns >= ew else "ew_points", {"target": target}))
        elif max(ns, ew) >= target + MAX_DEAL_SCORE:
            out.append(Problem("beyond_last_deal", "ns_points" if ns >= ew else "ew_points",
                               {"value": max(ns, ew), "target": target,
                                "maximum": target - 1 + MAX_DEAL_SCORE}))
        return out
    if ns >= target or ew >= target:
        out.append(Problem("target_reached", "ended_by", {"target": target,
                                                          "value": ended.value}))
        return out
    if ended is EndedBy.DEALS:
        if rules.max_deals is None:
            out.append(Problem("no_deal_limit", "ended_by"))
        elif deals < rules.max_deals:
            out.append(Problem("deal_limit_not_reached", "deals",
                               {"value": deals, "limit": rules.max_deals}))
        elif (ns == ew and rules.level_game is LevelGame.EXTRA_DEALS
              and rules.extra_deals > 0 and deals == rules.max_deals):
            out.append(Problem("level_needs_extra_deals", "deals",
                               {"limit": rules.max_deals, "extra": rules.extra_deals}))
        elif deals > rules.max_deals and deals != rules.max_deals + rules.extra_deals:
            # Past the limit a game plays every extra deal, level or not (play_sheet).
            out.append(Problem("extra_deals_count", "deals",
                               {"value": deals, "extra": rules.extra_deals,
                                "limit": rules.max_deals}))
    elif ended is EndedBy.TIME and rules.time_limit_minutes is None:
        out.append(Problem("no_time_limit", "ended_by"))
    return out


def outcome(game: Game, rules: ClassicRules) -> tuple[Fraction, Fraction]:
    """The wins the game gives (NS, EW): 1 and 0, or a level game by the rules (half
    each, or nothing when not broken). Level is on the counted (capped) points."""
    ns, ew = rules.counted(game.ns_points), rules.counted(game.ew_points)
    if ns > ew:
        return Fraction(1), Fraction(0)
    if ew > ns:
        return Fraction(0), Fraction(1)
    if rules.level_game is LevelGame.NOT_BROKEN:
        return Fraction(0), Fraction(0)
    return Fraction(1, 2), Fraction(1, 2)


# ------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game of the championship: the round, the pairs seated NS and EW, the game."""

    round: int
    ns_pair: int
    ew_pair: int
    game: Game


@dataclass(frozen=True, slots=True)
class ClassicStanding:
    """One line of a classic championship's standings.

    ``wins``: games won (a level game as the rules count it; a bye as ``bye_wins``);
    ``played``: games at a table; ``byes``: rounds sat out; ``points_for`` /
    ``points_against``: counted (capped) points, byes included; ``difference`` their
    difference; ``buchholz``: the sum of the opponents' wins; ``head_to_head``: wins in
    the games among the pairs tied with it before that tiebreak (``None`` unless that
    tiebreak is in use). ``rank``: competition rank (1, 2, 2, 4) by the championship's
    tiebreaks. Only rows :attr:`placed` (a game or a bye in the scope, not withdrawn)
    have a place; the others are listed after them.
    """

    rank: int
    pair: int
    wins: Fraction
    played: int
    points_for: int
    points_against: int
    difference: int
    buchholz: Fraction = Fraction(0)
    head_to_head: Fraction | None = None
    byes: int = 0
    withdrawn: bool = False
    bye: bool = False  # sat out the scope's last round

    @property
    def has_score(self) -> bool:
        return self.played + self.byes > 0

    @property
    def placed(self) -> bool:
        return self.has_score and not self.withdrawn

    @property
    def place(self) -> int | None:
        """:attr:`rank` when :attr:`placed`, else ``None`` (shown "—")."""
        return self.rank if self.placed else None


@dataclass
class _Line:
    wins: Fraction = Fraction(0)
    played: int = 0
    points_for: int = 0
    points_against: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)


def classic_standings(
    games: Iterable[PlayedGame],
    rules: ClassicRules,
    *,
    pairs: Iterable[int] = (),
    byes: Iterable[tuple[int, int]] = (),
    withdrawn: Iterable[int] = (),
    through_round: int | None = None,
) -> list[ClassicStanding]:
    """The standings over the games of rounds up to ``through_round`` (all when
    ``None``): one row per pair in ``pairs`` or in a game or bye, the placed rows first,
    each block in rank order (then pair number).

    ``byes``: ``(round, pair)``; ``withdrawn``: pairs out of the championship (listed,
    not placed). Ranking: the rules' tiebreaks in order, each the larger first;
    ``head_to_head`` compares only the pairs still tied when it is reached.
    """
    scope = [g for g in games if through_round is None or g.round <= through_round]
    bye_list = [(r, p) for r, p in byes if through_round is None or r <= through_round]
    last_round = max([g.round for g in scope] + [r for r, _ in bye_list], default=0)
    lines: dict[int, _Line] = defaultdict(_Line)
    for number in pairs:
        lines.setdefault(number, _Line())
    for g in scope:
        ns_wins, ew_wins = outcome(g.game, rules)
        ns, ew = rules.counted(g.game.ns_points), rules.counted(g.game.ew_points)
        for pair, other, wins, got, lost in (
            (g.ns_pair, g.ew_pair, ns_wins, ns, ew), (g.ew_pair, g.ns_pair, ew_wins, ew, ns),
        ):
            line = lines[pair]
            line.wins += wins
            line.played += 1
            line.points_for += got
            line.points_against += lost
            line.opponents.append(other)
    for _round, pair in bye_list:
        line = lines[pair]
        line.byes += 1
        line.wins += rules.bye_wins
        line.points_for += rules.bye_points_for
        line.points_against += rules.bye_points_against
    gone = set(withdrawn)
    sat_out_last = {p for r, p in bye_list if r == last_round}
    buchholz = {p: sum((lines[o].wins for o in line.opponents), Fraction(0))
                for p, line in lines.items()}
    use_h2h = Tiebreak.HEAD_TO_HEAD in rules.tiebreaks
    h2h: dict[int, Fraction] = {}

    def value(key: Tiebreak, pair: int, tied: frozenset[int]) -> Fraction:
        line = lines[pair]
        if key is Tiebreak.WINS:
            return line.wins
        if key is Tiebreak.DIFFERENCE:
            return Fraction(line.points_for - line.points_against)
        if key is Tiebreak.POINTS_FOR:
            return Fraction(line.points_for)
        if key is Tiebreak.BUCHHOLZ:
            return buchholz[pair]
        among = Fraction(0)
        for g in scope:
            if {g.ns_pair, g.ew_pair} <= tied and pair in (g.ns_pair, g.ew_pair):
                ns_w, ew_w = outcome(g.game, rules)
                among += ns_w if pair == g.ns_pair else ew_w
        h2h[pair] = among
        return among

    def classes(group: list[int], keys: Sequence[Tiebreak]) -> list[list[int]]:
        if not keys or len(group) < 2:
            return [sorted(group)]
        tied = frozenset(group)
        by_value: dict[Fraction, list[int]] = defaultdict(list)
        for p in group:
            by_value[value(keys[0], p, tied)].append(p)
        out: list[list[int]] = []
        for v in sorted(by_value, reverse=True):
            out.extend(classes(by_value[v], keys[1:]))
        return out

    placed = [p for p, line in lines.items() if line.played + line.byes and p not in gone]
    rest = [p for p in lines if p not in set(placed)]
    rows: list[ClassicStanding] = []
    for block in (placed, rest):
        offset = len(rows)  # the rows not placed rank after every placed one
        ordered = classes(block, rules.tiebreaks)
        keys = [k for k, cls in enumerate(ordered) for _ in cls]
        ranks = competition_ranks(keys)
        for rank, pair in zip(ranks, [p for cls in ordered for p in cls], strict=True):
            line = lines[pair]
            rows.append(ClassicStanding(
                rank=rank + offset, pair=pair,
                wins=line.wins, played=line.played, points_for=line.points_for,
                points_against=line.points_against,
                difference=line.points_for - line.points_against,
                buchholz=buchholz[pair],
                head_to_head=h2h.get(pair, Fraction(0)) if use_h2h else None,
                byes=line.byes, withdrawn=pair in gone, bye=pair in sat_out_last,
            ))
    return rows
