"""The values scoring works on: the rules of a championship and its results.

These are the contract between ``scoring/`` and its users (``python -m scoring``, the
Django app). All points are exact: hand scores are ``int``, comparative points are
``fractions.Fraction`` on the championship's scale (``bottom``..``top``); rounding happens
only on output (docs/file-format.md, "Comparative points").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from engine.cards import Suit
from engine.seats import Side


class Doubling(enum.Enum):
    """How contro and botifarra multiply a hand score (docs/file-format.md "Hand score")."""

    DUPLICATE = "duplicate"
    CLASSIC = "classic"


class Method(enum.Enum):
    """How scores on a board become comparative points."""

    PROPORTIONAL = "proportional"
    MATCHPOINTS = "matchpoints"


class Rounding(enum.Enum):
    NONE = "none"
    FLOOR = "floor"


class MissedBoards(enum.Enum):
    """How a pair that played fewer boards than the field (a bye, a late entry) ranks
    (docs/decisions.md 14): by its average per board played (``per_board``, the
    default), or with every missed board scored as average (``average``, A = (bottom +
    top) / 2), ranked by total."""

    PER_BOARD = "per_board"
    AVERAGE = "average"


class Adjustment(enum.Enum):
    """A director's score instead of a played result."""

    AVERAGE = "average"  # (bottom + top) / 2
    AVERAGE_PLUS = "average_plus"  # bottom + 0.6 * (top - bottom)
    AVERAGE_MINUS = "average_minus"  # bottom + 0.4 * (top - bottom)


class Trump(enum.Enum):
    """What the dealer's side declared: a suit or botifarra (no trump)."""

    O = "O"  # noqa: E741
    C = "C"
    E = "E"
    B = "B"
    BOTIFARRA = "botifarra"

    @property
    def suit(self) -> Suit | None:
        """The trump suit, ``None`` for botifarra (as ``engine.legal_cards`` takes it)."""
        return None if self is Trump.BOTIFARRA else Suit(self.value)

    @classmethod
    def from_suit(cls, suit: Suit | None) -> Trump:
        return cls.BOTIFARRA if suit is None else cls(suit.value)


def _fraction(value: object, name: str) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise ValueError(f"{name} {value!r} is not a number")
    try:
        return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, OverflowError):
        raise ValueError(f"{name} {value!r} is not a finite number") from None


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """``rules`` of the interchange file, as far as scoring needs them.

    ``bottom``/``top``: comparative points of the worst and best result on a board.
    ``infraction_score``: comparative points of the pair that committed an infraction.
    ``missed_boards``: how a pair that missed boards ranks (:class:`MissedBoards`).

    Enums may be given as their text (``method="matchpoints"``) and numbers as ``int``,
    ``Decimal``, ``float`` (read as the decimal it prints, 0.1 is 1/10) or ``Fraction``;
    they are stored as the enum and as ``Fraction``. Raises ``ValueError`` for an unknown
    text or ``bottom`` not below ``top``.

    >>> ScoringRules(method="matchpoints", bottom=0, top=Decimal("0.5")).top
    Fraction(1, 2)
    """

    doubling: Doubling = Doubling.DUPLICATE
    method: Method = Method.PROPORTIONAL
    bottom: Fraction = Fraction(1)
    top: Fraction = Fraction(2)
    rounding: Rounding = Rounding.NONE
    infraction_score: Fraction = Fraction(0)
    missed_boards: MissedBoards = MissedBoards.PER_BOARD

    def __post_init__(self) -> None:
        for name, enum_cls in (
            ("doubling", Doubling),
            ("method", Method),
            ("rounding", Rounding),
            ("missed_boards", MissedBoards),
        ):
            value = getattr(self, name)
            if not isinstance(value, enum_cls):
                try:
                    object.__setattr__(self, name, enum_cls(value))
                except ValueError:
                    choices = ", ".join(str(m.value) for m in enum_cls)
                    raise ValueError(f"{name} {value!r} is not one of {choices}") from None
        for name in ("bottom", "top", "infraction_score"):
            object.__setattr__(self, name, _fraction(getattr(self, name), name))
        if not self.bottom < self.top:
            raise ValueError(f"scale bottom {self.bottom} must be below top {self.top}")

    @classmethod
    def butinet(cls) -> ScoringRules:
        """The butinet "predonats" preset: 0 to 100, rounded down."""
        return cls(bottom=Fraction(0), top=Fraction(100), rounding=Rounding.FLOOR)


@dataclass(frozen=True, slots=True)
class Result:
    """One table's outcome on one board.

    ``ns_points_taken``: card and trick points NS took, 0..72 (EW took 72 minus it);
    ``None`` only for an adjusted result. ``trump`` is ``None`` only for an adjusted result.
    ``infraction``: the side that broke a rule, or ``None``. ``adjusted``: ``None`` or the
    director's (NS, EW) adjustments. The dealer's side follows from the board number.
    """

    round: int
    table: int
    board: int
    ns_pair: int
    ew_pair: int
    trump: Trump | None
    ns_points_taken: int | None
    delegated: bool = False
    contro: bool = False
    recontro: bool = False
    sant_vicenc: bool = False
    infraction: Side | None = None
    adjusted: tuple[Adjustment, Adjustment] | None = None

    @property
    def key(self) -> tuple[int, int, int]:
        """(round, table, board): one result per table and board in a round."""
        return (self.round, self.table, self.board)

    @property
    def is_regular(self) -> bool:
        """A played result with no infraction and no adjustment: it enters the comparison."""
        return self.infraction is None and self.adjusted is None
