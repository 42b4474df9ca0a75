"""Deals: four 12-card hands holding the 48 cards once (docs/file-format.md "Notation").

>>> from engine.cards import DECK
>>> deal = Deal.from_hands({seat: DECK[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})
>>> [str(c) for c in deal[Seat.N][:3]]
['9O', '1O', '12O']
>>> Deal.from_compact(deal.to_compact(1)) == deal
True
>>> Deal.from_json(deal.to_json()) == deal
True
>>> deal.to_compact(1).split()[0]
'N:9,1,12,11,10,8,7,6,5,4,3,2...'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import DECK, SUIT_ORDER, Card, sort_hand
from engine.errors import InvalidDealError, NotationError
from engine.seats import PLAY_ORDER, Seat, dealer, seats_from

HAND_SIZE = 12


@dataclass(frozen=True, slots=True)
class Deal:
    """The four hands of a board; ``deal[Seat.N]`` is North's hand, a tuple of 12 Cards
    in display order (suits O C E B, ranks high to low).

    Build one with :meth:`from_hands`, :meth:`from_json` or :meth:`from_compact`; each
    raises :class:`InvalidDealError` saying which card is missing or repeated, or which
    seat has how many cards.
    """

    north: tuple[Card, ...]
    east: tuple[Card, ...]
    south: tuple[Card, ...]
    west: tuple[Card, ...]

    def __getitem__(self, seat: Seat) -> tuple[Card, ...]:
        return (self.north, self.east, self.south, self.west)[_SEAT_INDEX[seat]]

    def hands(self) -> dict[Seat, tuple[Card, ...]]:
        return {seat: self[seat] for seat in Seat}

    def holder(self, card: Card) -> Seat:
        for seat in Seat:
            if card in self[seat]:
                return seat
        raise InvalidDealError(f"{card} is in no hand")  # unreachable for a valid deal

    @classmethod
    def from_hands(cls, hands: Mapping[Seat, Iterable[Card]]) -> Deal:
        sorted_hands = {seat: sort_hand(hands.get(seat, ())) for seat in Seat}
        _validate(sorted_hands)
        return cls(
            sorted_hands[Seat.N], sorted_hands[Seat.E], sorted_hands[Seat.S], sorted_hands[Seat.W]
        )

    # JSON: {"N": ["9O", ...], "E": [...], "S": [...], "W": [...]}
    @classmethod
    def from_json(cls, data: Any) -> Deal:
        """Parse the JSON form; raises :class:`NotationError` or :class:`InvalidDealError`."""
        if not isinstance(data, Mapping):
            raise InvalidDealError("a deal must be an object with the seats N, E, S and W")
        unknown = sorted(set(map(str, data)) - {"N", "E", "S", "W"})
        if unknown:
            raise InvalidDealError(f"unknown seat(s) {', '.join(unknown)} (use N, E, S, W)")
        hands: dict[Seat, list[Card]] = {}
        for seat in Seat:
            cards = data.get(seat.value)
            if cards is None:
                raise InvalidDealError(f"seat {seat} is missing")
            if isinstance(cards, str) or not isinstance(cards, Iterable):
                raise InvalidDealError(f"seat {seat}: a hand must be a list of cards")
            try:
                hands[seat] = [Card.parse(text) for text in cards]
            except NotationError as exc:
                raise NotationError(f"seat {seat}: {exc}") from None
        return cls.from_hands(hands)

    def to_json(self) -> dict[str, list[str]]:
        return {seat.value: [str(card) for card in self[seat]] for seat in Seat}

    # Compact: "N:9,1,12.8,3.11,10,4,2.7,6,5 W:... S:... E:..." from the dealer, in play order.
    @classmethod
    def from_compact(cls, text: str) -> Deal:
        """Parse the one-line form of docs/file-format.md "Deals" (hands in any seat order)."""
        hands: dict[Seat, list[Card]] = {}
        parts = text.split()
        if len(parts) != 4:
            raise NotationError(f"{text!r}: a compact deal has four hands, found {len(parts)}")
        for part in parts:
            seat_text, sep, suits_text = part.partition(":")
            if not sep:
                raise NotationError(f"{part!r}: a hand starts with its seat, as in 'N:9,1.8..'")
            seat = Seat.parse(seat_text)
            if seat in hands:
                raise InvalidDealError(f"seat {seat} appears twice")
            groups = suits_text.split(".")
            if len(groups) != 4:
                raise NotationError(
                    f"{part!r}: four suits separated by '.', found {len(groups)}"
                )
            cards: list[Card] = []
            for suit, group in zip(SUIT_ORDER, groups, strict=True):
                for rank in filter(None, group.split(",")):
                    try:
                        cards.append(Card.parse(rank + suit.value))
                    except NotationError:
                        raise NotationError(f"{part!r}: {rank!r} is not a rank (1..12)") from None
            hands[seat] = cards
        return cls.from_hands(hands)

    def to_compact(self, board_number: int = 1) -> str:
        """One line: hands from the dealer of ``board_number`` in play order."""
        out = []
        for seat in seats_from(dealer(board_number)):
            groups = [
                ",".join(str(card.rank) for card in self[seat] if card.suit is suit)
                for suit in SUIT_ORDER
            ]
            out.append(f"{seat}:{'.'.join(groups)}")
        return " ".join(out)


_SEAT_INDEX = {Seat.N: 0, Seat.E: 1, Seat.S: 2, Seat.W: 3}


def _validate(hands: Mapping[Seat, tuple[Card, ...]]) -> None:
    counts = Counter(card for hand in hands.values() for card in hand)
    repeated = sorted((card for card, n in counts.items() if n > 1), key=lambda c: c.index)
    if repeated:
        where = "; ".join(
            f"{card} held by {', '.join(str(s) for s in PLAY_ORDER if card in hands[s])}"
            for card in repeated
        )
        raise InvalidDealError(f"repeated card(s): {where}")
    missing = [card for card in DECK if card not in counts]
    if missing:
        raise InvalidDealError(f"missing card(s): {' '.join(map(str, missing))}")
    wrong = [f"{seat} has {len(hands[seat])}" for seat in Seat if len(hands[seat]) != HAND_SIZE]
    if wrong:
        raise InvalidDealError(f"each seat must hold 12 cards: {', '.join(wrong)}")
