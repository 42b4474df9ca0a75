"""Reads of the movement, now :mod:`tournaments.selectors.seating` (the seating's one read
model); these names stay for the callers that still import them from here."""

from __future__ import annotations

from tournaments.models import Pair
from tournaments.selectors.seating import (
    Guide,
    PairSeat,
    RoundSeating,
    SeatRow,
    guide,
    next_seat,
    round_seating,
)
from tournaments.selectors.seating import pair_seats as seats_of_pair

__all__ = ["Guide", "PairSeat", "RoundSeating", "SeatRow", "guide", "next_seat",
           "pair_seats", "round_seating"]


def pair_seats(pair: Pair) -> list[PairSeat]:
    """``pair``'s seat in every drawn round (:func:`tournaments.selectors.seating.pair_seats`)."""
    return seats_of_pair(pair.championship, pair.number)
