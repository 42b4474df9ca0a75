"""The checked interchange document as frozen dataclasses (what :func:`.load` returns and
:func:`.dump` writes).

Besides the fields of docs/file-format.md, a document carries the state of a
championship that this program adds to the file so that an export imports back as it
was (docs/decisions.md "Interchange file: fields added by this program"); each is
optional, ``None`` (or empty) when the file leaves it out, and then an import keeps its
earlier reading:

- ``championship.status`` (``draft``, ``running``, ``finished``), ``.end_date``,
  ``.boards_per_round`` (0: not set up);
- ``rules.sant_vicenc``, ``.sant_vicenc_on_botifarra``, ``.carregar``,
  ``.carregar_scope``, ``.barraca`` (the play settings next to ``rules.variant``);
- ``boards[].round``: the round whose tables all play the board (the movement);
- ``rounds[].closed_at`` (ISO 8601 with its time zone, or null: open) and
  ``rounds[].draw_seed``;
- ``results[].note``: the referee's note;
- the movement (docs/file-format.md "Movements: byes, withdrawals, late entries"):
  ``championship.movement``, ``rules.missed_boards``, ``pairs[].joined_round``,
  ``.withdrawn_after_round``, ``.withdrawal_reason``, ``rounds[].byes``,
  ``rounds[].movement``.

A classic championship (``championship.format`` ``classic``, docs/file-format.md
"Classic championships") has no boards and no results: its ``rules`` are a
``scoring.classic.ClassicRules`` (:attr:`ChampionshipDoc.classic`) and each table holds
its game (:attr:`TableDoc.game`, with the referee's note in ``game_note``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.deal import Deal
from engine.rules import CarregarScope, Variant
from scoring.championship import Absences
from scoring.classic import ClassicRules, ClassicStanding, Game, PlayedGame, classic_standings
from scoring.model import Result, ScoringRules
from scoring.stages import Group, Qualified
from scoring.validate import ResultRules

FORMAT = "botifarra-duplicate/1"
#: Keys "Export adds": accepted on input and ignored (they are recomputed).
EXPORTED_RESULT_KEYS = frozenset({"ns_score", "ew_score", "ns_comparative", "ew_comparative"})
#: ``championship.status`` values.
STATUSES = ("draft", "running", "finished")
#: ``championship.format`` values: boards dealt in advance, or one game a round.
DUPLICATE = "duplicate"
CLASSIC = "classic"
FORMATS = (DUPLICATE, CLASSIC)


@dataclass(frozen=True, slots=True)
class PlayerDoc:
    """A player; ``short_name`` what the boards and screens show ("" for the default
    short form of ``name``; added by this program)."""

    id: str
    name: str
    short_name: str = ""


@dataclass(frozen=True, slots=True)
class PairDoc:
    """A pair; ``joined_round`` > 1 for a late entry, ``withdrawn_after_round`` once it
    withdrew (with ``withdrawal_reason``)."""

    number: int
    players: tuple[str, str]
    joined_round: int = 1
    withdrawn_after_round: int | None = None
    withdrawal_reason: str = ""


@dataclass(frozen=True, slots=True)
class BoardDoc:
    """A board; ``deal`` is ``None`` when the file has no cards for it."""

    number: int
    deal: Deal | None = None
    round: int | None = None


@dataclass(frozen=True, slots=True)
class TableDoc:
    """A table of a round: the NS and EW pair numbers and its results (their ``round``,
    ``table``, ``ns_pair`` and ``ew_pair`` filled from here). ``notes``: ``(board,
    note)`` of each result with a note. In a classic championship, ``game`` instead (``None``
    while it is played) and its note ``game_note``."""

    number: int
    ns: int
    ew: int
    results: tuple[Result, ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    game: Game | None = None
    game_note: str = ""

    def note(self, board: int) -> str:
        """The note of this table's result on ``board`` (``""`` when none)."""
        return next((text for number, text in self.notes if number == board), "")


@dataclass(frozen=True, slots=True)
class RoundDoc:
    """A round; ``closed_at`` is an aware ``datetime`` once the round was closed."""

    number: int
    tables: tuple[TableDoc, ...] = ()
    closed_at: datetime.datetime | None = None
    draw_seed: int | None = None
    byes: tuple[int, ...] = ()
    movement: str | None = None


#: ``stages[].kind`` values, and the kinds each ``championship.format`` takes.
STAGE_KINDS = ("swiss", "groups", "knockout", "finals")
FORMAT_STAGE_KINDS = {
    DUPLICATE: ("swiss", "finals"),
    CLASSIC: ("swiss", "groups", "knockout"),
}


@dataclass(frozen=True, slots=True)
class BracketDoc:
    """A knockout's bracket as fixed when it started: round 1's places top to bottom
    (a pair number, or ``None`` for a bye) and whether a third-place match is played."""

    positions: tuple[int | None, ...]
    third_place: bool = False


@dataclass(frozen=True, slots=True)
class StageDoc:
    """A stage (docs/file-format.md "Stages"): its ``kind``, ``name``, the championship
    ``rounds`` it owns (in order: its round k is ``rounds[k-1]``), the settings of its
    kind (the others keep their defaults) and what was fixed as it went: ``groups``
    (the groups, or the finals, when the stage started), ``qualified`` (a groups stage's
    qualified pairs in seed order, when the next stage started), ``bracket`` (a
    knockout's, when it started) and the ``seed`` of a random split; ``None`` until
    then."""

    kind: str
    name: str = ""
    rounds: tuple[int, ...] = ()
    group_count: int = 0
    split: str = "snake"
    per_group: int = 1
    second_chance: int = 0
    rest_rule: str = "best_placed"
    exclude_zero_wins: bool = True
    third_place: bool = False
    avoid_same_group: bool = True
    finals: tuple[tuple[str, int], ...] = ()
    carry_over: str = "none"
    carry_over_percent: int = 0
    seed: int | None = None
    groups: tuple[Group, ...] | None = None
    qualified: tuple[Qualified, ...] | None = None
    bracket: BracketDoc | None = None


@dataclass(frozen=True, slots=True)
class PlayDoc:
    """The play settings the file may carry next to ``rules.variant`` (``None``: not
    given; an import then takes the program's default)."""

    sant_vicenc: bool | None = None
    sant_vicenc_on_botifarra: bool | None = None
    carregar: bool | None = None
    carregar_scope: CarregarScope | None = None
    barraca: bool | None = None

    @property
    def result_rules(self) -> ResultRules:
        """The settings a result is checked against; a setting the file leaves out allows
        the double (docs/decisions.md 11)."""
        return ResultRules(
            sant_vicenc=self.sant_vicenc is not False,
            sant_vicenc_on_botifarra=self.sant_vicenc_on_botifarra is not False,
        )


@dataclass(frozen=True, slots=True)
class ChampionshipDoc:
    """A whole interchange document, checked. ``date`` is a ``datetime.date`` or ``None``;
    ``deal_commitment``/``deal_secret`` are hex text or ``None``. ``format``:
    :data:`DUPLICATE` or :data:`CLASSIC`; ``classic``: the rules of a classic
    championship's games (``None`` for a duplicate one, whose ``rules`` count)."""

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
    status: str | None = None
    end_date: datetime.date | None = None
    boards_per_round: int | None = None
    play: PlayDoc = field(default_factory=PlayDoc)
    movement: str | None = None
    format: str = DUPLICATE
    classic: ClassicRules | None = None
    stages: tuple[StageDoc, ...] = ()

    @property
    def is_classic(self) -> bool:
        return self.format == CLASSIC

    @property
    def is_finished(self) -> bool:
        """``status`` is ``finished``; a file without a status is finished once its deal
        secret is published (docs/decisions.md 15)."""
        if self.status is not None:
            return self.status == "finished"
        return self.deal_secret is not None

    def absences(self) -> Absences:
        """The byes, late entries and withdrawals of the file, as the standings rank them
        (``scoring.championship.Absences``)."""
        sat_out: dict[int, set[int]] = {}
        for pair in self.pairs:
            if pair.joined_round > 1:
                sat_out.setdefault(pair.number, set()).update(range(1, pair.joined_round))
        for round_ in self.rounds:
            for number in round_.byes:
                sat_out.setdefault(number, set()).add(round_.number)
        withdrawn = {
            p.number: p.withdrawn_after_round
            for p in self.pairs if p.withdrawn_after_round is not None
        }
        return Absences({p: frozenset(r) for p, r in sat_out.items()}, withdrawn)

    def games(self) -> Iterator[PlayedGame]:
        """Every game of a classic championship, round by round, table by table."""
        for round_ in self.rounds:
            for table in round_.tables:
                if table.game is not None:
                    yield PlayedGame(round_.number, table.ns, table.ew, table.game)

    def classic_standings(self) -> list[ClassicStanding]:
        """A classic championship's standings (``scoring.classic.classic_standings``):
        every pair, the byes of ``rounds[].byes``, a pair withdrawn after a round up to
        the last round with tables counted as withdrawn (the web app's standings read the
        same, ``tournaments.selectors.classic``)."""
        rules = self.classic or ClassicRules()
        last = max((r.number for r in self.rounds if r.tables), default=0)
        return classic_standings(
            self.games(), rules,
            pairs=[p.number for p in self.pairs],
            byes=[(r.number, p) for r in self.rounds for p in r.byes],
            withdrawn=[p.number for p in self.pairs
                       if p.withdrawn_after_round is not None
                       and p.withdrawn_after_round <= last],
        )

    def results(self) -> Iterator[Result]:
        """Every result, round by round, table by table, in file order."""
        for round_ in self.rounds:
            for table in round_.tables:
                yield from table.results

