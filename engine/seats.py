"""Seats, sides and the order of play (docs/rules.md "Seats, dealer and boards").

Play goes counter-clockwise, to each player's right: N -> W -> S -> E -> N.

>>> Seat.N.right, Seat.N.partner, Seat.E.side
(<Seat.W: 'W'>, <Seat.S: 'S'>, <Side.EW: 'EW'>)
>>> dealer(1), dealer(2), dealer(3), dealer(4), dealer(5)
(<Seat.N: 'N'>, <Seat.W: 'W'>, <Seat.S: 'S'>, <Seat.E: 'E'>, <Seat.N: 'N'>)
>>> first_leader(1)
<Seat.W: 'W'>
"""

from __future__ import annotations

import enum

from engine.errors import NotationError


class Side(enum.Enum):
    """A partnership: NS or EW (shown "NS"/"EO" in the Catalan UI)."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @classmethod
    def parse(cls, text: str) -> Side:
        clean = text.strip().upper()
        if clean == "EO":  # the Catalan spelling
            clean = "EW"
        try:
            return cls(clean)
        except ValueError:
            raise NotationError(f"{text!r} is not a side (NS or EW)") from None

    def __str__(self) -> str:
        return self.value


class Seat(enum.Enum):
    """A player's seat. Partners sit opposite: N-S and E-W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def right(self) -> Seat:
        """The next player in play order (the player to this one's right)."""
        return PLAY_ORDER[(PLAY_ORDER.index(self) + 1) % 4]

    @property
    def partner(self) -> Seat:
        return PLAY_ORDER[(PLAY_ORDER.index(self) + 2) % 4]

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    @classmethod
    def parse(cls, text: str) -> Seat:
        clean = text.strip().upper()
        if clean == "O":  # oest, the Catalan West
            clean = "W"
        try:
            return cls(clean)
        except ValueError:
            raise NotationError(f"{text!r} is not a seat (N, E, S or W)") from None

    def __str__(self) -> str:
        return self.value


#: Counter-clockwise play order starting from North.
PLAY_ORDER: tuple[Seat, ...] = (Seat.N, Seat.W, Seat.S, Seat.E)


def seats_from(first: Seat) -> tuple[Seat, Seat, Seat, Seat]:
    """The four seats in play order starting at ``first``."""
    i = PLAY_ORDER.index(first)
    a, b, c, d = (PLAY_ORDER[(i + k) % 4] for k in range(4))
    return (a, b, c, d)


def dealer(board_number: int) -> Seat:
    """Dealer of board n: N, W, S, E for n mod 4 = 1, 2, 3, 0 (docs/rules.md).

    Raises ``ValueError`` for a board number below 1.
    """
    if isinstance(board_number, bool) or not isinstance(board_number, int) or board_number < 1:
        raise ValueError(f"board number {board_number!r} must be an integer >= 1")
    return PLAY_ORDER[(board_number - 1) % 4]


def first_leader(board_number: int) -> Seat:
    """The dealer's right-hand player, who leads to the first trick."""
    return dealer(board_number).right
