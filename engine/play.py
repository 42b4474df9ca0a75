"""Who wins a trick and which cards are legal (docs/rules.md "Who wins a trick", "Legal play").

A trick is the sequence of cards already played to it, leader first; ``trump`` is a
:class:`~engine.cards.Suit`, or ``None`` in a botifarra (no-trump) hand.

>>> from engine.cards import Card, Suit
>>> trick = Card.parse_many("1C 4C 11O")
>>> trick_winner(trick, Suit.O)
2
>>> hand = Card.parse_many("5O 12O 2E 10B")
>>> sorted(str(c) for c in legal_cards(hand, trick, Suit.O))
['12O']
>>> illegal_reason(Card.parse("5O"), hand, trick, Suit.O)
'must beat 11O: holds 12O'
>>> illegal_reason(Card.parse("9O"), Card.parse_many("1C 4C 2C 9O"), Card.parse_many("9C"), Suit.O)
'must follow copes: holds 1C 4C 2C'

Readings chosen where the rulebooks leave room (docs/decisions.md 1-3):

- Obligada rules 1-4, "the lowest card": the lowest in trick order (the 2 below the 3...
  below the 1 below the 9), not the lowest printed number. Rules 2 and 4, "the lowest card
  of any suit held": the lowest card *of each suit* the player holds is allowed (one per
  suit), which is what example 3 and the void cases need; the point cards allowed by rule 2
  may be of any suit, trumps included.
- Rule 4, "a card that beats": when the player holds trumps that beat, only those; a trump
  that does not beat an opponent's higher trump is then not allowed.
- ``carregar``: only the second player of a trick (the leader's card is then the opponent's
  winning card), and only when that player has no card that beats. When holding the suit
  led (scope ``always``) the extra cards allowed are the point cards *of the suit led*
  (example 2 gives 1C 2C, not 9O); when void, any point card held. ``carregar`` changes
  nothing under ``lliure``, where such cards are already allowed.
- ``lliure``, partner winning: any card of the suit led, or any card when void.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card, Suit, format_cards, sort_hand
from engine.errors import IllegalPlayError
from engine.rules import CarregarScope, Rules, Variant
from engine.seats import Seat

_DEFAULT_RULES = Rules()


class IllegalCardError(IllegalPlayError):
    """A card the rules do not allow here: ``seat`` may not play ``card`` because ``reason``.

    The message reads ``"S may not play 5O: must beat 11O: holds 12O"``.
    """

    def __init__(self, seat: Seat, card: Card, reason: str) -> None:
        super().__init__(f"{seat} may not play {card}: {reason}")
        self.seat = seat
        self.card = card
        self.reason = reason


def trick_winner(trick: Sequence[Card], trump: Suit | None) -> int:
    """Index in ``trick`` (0 = the leader) of the card winning it so far.

    The highest trump; with no trump in it (always in a botifarra hand) the highest card
    of the suit led. A card of another non-trump suit never wins (docs/rules.md "Who
    wins a trick"). Raises ``ValueError`` for an empty trick.

    >>> from engine.cards import Card, Suit
    >>> trick_winner(Card.parse_many("5C 9E 1C 2B"), None)
    2
    >>> trick_winner(Card.parse_many("5C 9E 1C 2B"), Suit.B)
    3
    """
    if not trick:
        raise ValueError("an empty trick has no winner")
    best = 0
    best_card = trick[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if card.suit is best_card.suit:
            if card.strength > best_card.strength:
                best, best_card = i, card
        elif trump is not None and card.suit is trump:
            best, best_card = i, card
    return best


def _lowest_of_each_suit(cards: Iterable[Card]) -> set[Card]:
    lowest: dict[Suit, Card] = {}
    for card in cards:
        held = lowest.get(card.suit)
        if held is None or card.strength < held.strength:
            lowest[card.suit] = card
    return set(lowest.values())


def _beats(card: Card, winner: Card, trump: Suit | None) -> bool:
    """Would ``card`` take the lead from the current winning card ``winner``?"""
    if card.suit is winner.suit:
        return card.strength > winner.strength
    return trump is not None and card.suit is trump


def legal_cards(
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    rules: Rules = _DEFAULT_RULES,
) -> frozenset[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (docs/rules.md "Legal play").

    ``hand``: the player's remaining cards (1..12); ``trick``: the 0..3 cards already
    played to this trick, leader first; ``trump``: a suit or ``None`` for botifarra.
    The result is a non-empty subset of ``hand`` whenever ``hand`` is not empty. See the
    module docstring for the readings chosen. Raises ``ValueError`` for a trick of 4+ cards.

    >>> from engine.cards import Card, Suit
    >>> hand = Card.parse_many("1C 4C 2C 9O")
    >>> sorted(str(c) for c in legal_cards(hand, Card.parse_many("9C"), Suit.O))
    ['2C']
    >>> rules = Rules(carregar=True, carregar_scope="always")
    >>> sorted(str(c) for c in legal_cards(hand, Card.parse_many("9C"), Suit.O, rules))
    ['1C', '2C']
    """
    cards = tuple(hand)
    if not trick:
        return frozenset(cards)
    if len(trick) > 3:
        raise ValueError(f"a trick holds at most 3 cards before this one, got {len(trick)}")
    led = trick[0].suit
    win_index = trick_winner(trick, trump)
    winner = trick[win_index]
    partner_winning = win_index == len(trick) - 2
    following = [c for c in cards if c.suit is led]

    if rules.variant is Variant.LLIURE:
        if following:
            if not partner_winning:
                beating = [c for c in following if _beats(c, winner, trump)]
                if beating:
                    return frozenset(beating)
            return frozenset(following)
        if not partner_winning:
            beating = [c for c in cards if _beats(c, winner, trump)]
            if beating:
                return frozenset(beating)
        return frozenset(cards)

    # obligada
    if partner_winning:
        if following:  # rule 1
            allowed = {c for c in following if c.is_point_card}
            allowed |= _lowest_of_each_suit(following)
            return frozenset(allowed)
        # rule 2
        allowed = {c for c in cards if c.is_point_card}
        allowed |= _lowest_of_each_suit(cards)
        return frozenset(allowed)
    loading = rules.carregar and len(trick) == 1
    if following:  # rule 3
        beating = [c for c in following if _beats(c, winner, trump)]
        if beating:
            return frozenset(beating)
        allowed = _lowest_of_each_suit(following)
        if loading and rules.carregar_scope is CarregarScope.ALWAYS:
            allowed |= {c for c in following if c.is_point_card}
        return frozenset(allowed)
    # rule 4
    beating = [c for c in cards if _beats(c, winner, trump)]
    if beating:
        return frozenset(beating)
    allowed = _lowest_of_each_suit(cards)
    if loading:  # both scopes allow loading when void
        allowed |= {c for c in cards if c.is_point_card}
    return frozenset(allowed)


def illegal_reason(
    card: Card,
    hand: Iterable[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    rules: Rules = _DEFAULT_RULES,
) -> str | None:
    """Why ``card`` may not be played to ``trick`` from ``hand``; ``None`` when it may.

    The message names the obligation and the cards that meet it, in display order:
    ``"must beat 11O: holds 12O"``, ``"must follow copes: holds 2C"``,
    ``"cannot beat 9C: must play the lowest copes, 2C"``, ``"does not hold 5O"``.
    Same arguments as :func:`legal_cards`.

    >>> from engine.cards import Card, Suit
    >>> hand = Card.parse_many("1C 12C 7C 3C 2O")
    >>> illegal_reason(Card.parse("7C"), hand, Card.parse_many("9C 4C"), Suit.O)
    'partner is winning: play a point card of copes or the lowest, 3C'
    """
    cards = tuple(hand)
    if card not in cards:
        return f"does not hold {card}"
    legal = legal_cards(cards, trick, trump, rules)
    if card in legal:
        return None
    held = format_cards(sort_hand(legal))
    led = trick[0].suit
    win_index = trick_winner(trick, trump)
    winner = trick[win_index]
    partner_winning = win_index == len(trick) - 2
    holding_led = any(c.suit is led for c in cards)
    if holding_led and card.suit is not led:
        following = format_cards(sort_hand(c for c in cards if c.suit is led))
        return f"must follow {led.catalan_name}: holds {following}"
    if not partner_winning and any(_beats(c, winner, trump) for c in legal):
        return f"must beat {winner}: holds {held}"
    if partner_winning:
        if holding_led:
            (lowest,) = _lowest_of_each_suit(c for c in cards if c.suit is led)
            return (
                f"partner is winning: play a point card of {led.catalan_name} "
                f"or the lowest, {lowest}"
            )
        return f"partner is winning: play a point card or the lowest of a suit: {held}"
    loading = "" if len(trick) != 1 or not rules.carregar else " or load a point card"
    if holding_led:
        if loading and len(legal) > 1:
            return f"cannot beat {winner}: play the lowest {led.catalan_name}{loading}: {held}"
        return f"cannot beat {winner}: must play the lowest {led.catalan_name}, {held}"
    return f"cannot beat {winner}: must play the lowest card of a suit{loading}: {held}"

