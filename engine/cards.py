"""Cards: suits, ranks, trick order and card points (docs/rules.md "Cards and points").

>>> card = Card.parse(" 9o ")
>>> str(card), card.rank, card.suit, card.points
('9O', 9, <Suit.O: 'O'>, 5)
>>> Card.parse("1C").beats(Card.parse("12C"))
True
>>> [str(c) for c in sorted(Card.parse_many("2C 9C 1C"), reverse=True)]
['9C', '1C', '2C']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

from engine.errors import InvalidResultError, NotationError


class Suit(enum.Enum):
    """The four suits, in display order O C E B (docs/file-format.md "Notation")."""

    O = "O"  # noqa: E741  oros (coins)
    C = "C"  # copes (cups)
    E = "E"  # espases (swords)
    B = "B"  # bastos (batons)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """``"o"`` -> ``Suit.O``; raises :class:`NotationError` naming the text."""
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise NotationError(f"{text!r} is not a suit (O, C, E or B)") from None

    @property
    def catalan_name(self) -> str:
        return SUIT_NAMES_CA[self]

    @property
    def index(self) -> int:
        return SUIT_ORDER.index(self)

    def __str__(self) -> str:
        return self.value


SUIT_ORDER: tuple[Suit, ...] = (Suit.O, Suit.C, Suit.E, Suit.B)
SUIT_NAMES_CA = {Suit.O: "oros", Suit.C: "copes", Suit.E: "espases", Suit.B: "bastos"}

#: Ranks from the highest to the lowest in a trick: 9 (manilla), 1 (as), 12 (rei)...
TRICK_ORDER: tuple[int, ...] = (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
#: Strength of a rank inside its suit: 11 for the manilla down to 0 for the 2.
STRENGTH: dict[int, int] = {rank: 11 - i for i, rank in enumerate(TRICK_ORDER)}
#: Card points (docs/rules.md): 9=5, 1=4, 12=3, 11=2, 10=1, the rest 0. 60 in a deck.
CARD_POINTS: dict[int, int] = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}
#: Points per trick on top of the card points: 12 tricks, 72 points a hand.
TRICK_POINTS = 1
#: Card and trick points in one hand, shared by the two sides: 60 + 12 x 1.
HAND_POINTS = 72


def other_side_points(points: int) -> int:
    """The points the other side took in a hand where one side took ``points``: every
    hand shares :data:`HAND_POINTS` (72) between the two sides (docs/rules.md "Cards and
    points"). Raises :class:`~engine.errors.InvalidResultError` (a ``ValueError``) for
    points outside 0..72.

    >>> other_side_points(41), other_side_points(0), other_side_points(72)
    (31, 72, 0)
    >>> other_side_points(73)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidResultError: 73 is not a hand's points (0..72)
    """
    if isinstance(points, bool) or not 0 <= points <= HAND_POINTS:
        raise InvalidResultError(f"{points!r} is not a hand's points (0..{HAND_POINTS})")
    return HAND_POINTS - points


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One of the 48 cards. Ordered by suit (O C E B) then trick strength.

    ``rank`` is the printed number 1..12, ``points`` its card points (0..5).
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in STRENGTH:
            raise NotationError(f"{self.rank!r} is not a rank (1..12)")

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"9O"`` -> the manilla of oros. Case-insensitive, surrounding spaces ignored.

        Raises :class:`NotationError` naming the bad text (``13O``, ``0C``, ``9X``, ``O9``, ``""``).
        """
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a card")
        clean = text.strip().upper()
        digits = clean[:-1]
        # isascii: str.isdigit also accepts other scripts' digits ("٩", "¹") that int() mangles.
        if len(clean) < 2 or not (digits.isascii() and digits.isdigit()) or digits[0] == "0":
            raise NotationError(f"{text!r} is not a card (rank 1..12 then O, C, E or B)")
        rank = int(clean[:-1])
        if rank not in STRENGTH or clean[-1] not in "OCEB":
            raise NotationError(f"{text!r} is not a card (rank 1..12 then O, C, E or B)")
        return _CARDS[(rank, Suit(clean[-1]))]

    @classmethod
    def parse_many(cls, text: str | Iterable[str]) -> tuple[Card, ...]:
        """Cards separated by spaces or commas, or an iterable of card texts."""
        items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return tuple(cls.parse(item) for item in items)

    @property
    def points(self) -> int:
        return CARD_POINTS.get(self.rank, 0)

    @property
    def strength(self) -> int:
        """Position in the suit's trick order: 11 (the 9) down to 0 (the 2)."""
        return STRENGTH[self.rank]

    @property
    def is_point_card(self) -> bool:
        return self.rank in CARD_POINTS

    @property
    def index(self) -> int:
        """0..47: suit-major in O C E B order, then ranks high to low."""
        return self.suit.index * 12 + (11 - self.strength)

    def beats(self, other: Card) -> bool:
        """True when both are of one suit and this card ranks higher in a trick."""
        return self.suit is other.suit and self.strength > other.strength

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (-self.suit.index, self.strength) < (-other.suit.index, other.strength)

    def __str__(self) -> str:
        return f"{self.rank}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: dict[tuple[int, Suit], Card] = {
    (rank, suit): Card(rank, suit) for suit in SUIT_ORDER for rank in TRICK_ORDER
}
#: The 48 cards in index order (O high..low, C, E, B).
DECK: tuple[Card, ...] = tuple(_CARDS[(rank, suit)] for suit in SUIT_ORDER for rank in TRICK_ORDER)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as space-separated text, in the order given."""
    return " ".join(str(card) for card in cards)


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Display order: suits O C E B, ranks high to low within a suit."""
    return tuple(sorted(cards, key=lambda c: c.index))
