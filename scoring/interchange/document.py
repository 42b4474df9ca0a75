"""The checked interchange document as frozen dataclasses (what :func:`.load` returns and
:func:`.dump` writes)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.deal import Deal
from engine.rules import Variant
from scoring.model import Result, ScoringRules

FORMAT = "botifarra-duplicate/1"
#: Keys "Export adds": accepted on input and ignored (they are recomputed).
EXPORTED_RESULT_KEYS = frozenset({"ns_score", "ew_score", "ns_comparative", "ew_comparative"})


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

