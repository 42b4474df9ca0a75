"""A whole classic game played by bots, deal by deal, for demos and tests. Pure Python.

:func:`play_classic_game` deals a seeded random deal, lets the engine's
:class:`~engine.bots.SensibleBot` choose trump (or delegate), double as the
championship allows and play the 48 cards, scores the deal with
:func:`scoring.classic.hand_game_score` and goes on until the game ends where the rules
end it (docs/rules.md "Classic championships"): a pair at the target, the deal limit
(plus the extra deals of a level game when the rules play them), or time called.

The dealer rotates as the deal passes, to the dealer's right (play order N, W, S, E:
the seats of boards 1, 2, 3, 4); the first dealer is drawn from the seed. Time is
simulated: each deal takes a random ``deal_minutes`` (3 to 6 minutes by default) and
time is called when the next deal would start at or past ``time_limit_minutes``: the
deal under way is finished, no new one starts. About one deal in
:data:`REVOKE_RATE` ends in a revoke (*renunci*), entered as a referee would: the
declaration and doubles, the side that revoked, no points.

The same arguments always give the same game.

>>> from scoring.classic import ClassicRules, EndedBy
>>> game = play_classic_game(ClassicRules(), seed=3)
>>> game == play_classic_game(ClassicRules(), seed=3)
True
>>> game.ended_by in set(EndedBy), 1 <= len(game.hands) <= 12
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.bots import DELEGATE, Double, SensibleBot
from engine.cards import DECK, Suit
from engine.deal import Deal
from engine.hand import HandPlay
from engine.rules import Rules
from engine.seats import Seat, Side, seats_from
from scoring.classic import ClassicRules, EndedBy, Game, Hand, play_sheet
from scoring.model import Trump

#: One deal in this many, on average, ends in a revoke.
REVOKE_RATE = 150
#: The minutes a deal takes, drawn uniformly between these.
DEAL_MINUTES = (3.5, 6.5)

_DEFAULT_PLAY = Rules()


@dataclass(frozen=True, slots=True)
class BotGame:
    """A game played by :func:`play_classic_game`: the score sheet's ``hands``, how it
    ``ended_by`` (target, deals or time), the final ``game`` as
    :func:`scoring.classic.play_sheet` reads the sheet, the simulated minute each deal
    ``started`` at and the ``minutes`` the game took."""

    hands: tuple[Hand, ...]
    ended_by: EndedBy
    game: Game
    started: tuple[float, ...]
    minutes: float


def play_classic_game(
    rules: ClassicRules,
    play: Rules = _DEFAULT_PLAY,
    *,
    seed: int,
    deal_minutes: tuple[float, float] = DEAL_MINUTES,
    revoke_rate: int = REVOKE_RATE,
) -> BotGame:
    """Play one game under ``rules`` (the target, the limits, the doubles the score sheet
    accepts) and ``play`` (the variant and carregar; its Sant Vicenç settings give way
    to ``rules``'). ``revoke_rate``: one deal in that many ends in a revoke (0: never).

    Raises ``ValueError`` for ``deal_minutes`` not ``0 < low <= high``.
    """
    low, high = deal_minutes
    if not 0 < low <= high:
        raise ValueError(f"deal_minutes {deal_minutes!r} must be 0 < low <= high")
    engine_rules = Rules(
        variant=play.variant, carregar=play.carregar, carregar_scope=play.carregar_scope,
        sant_vicenc=rules.sant_vicenc, sant_vicenc_on_botifarra=rules.sant_vicenc_on_botifarra,
        barraca=False, game_target=rules.game_target,
    )
    rng = random.Random(seed)
    bot = SensibleBot(rng.randrange(2**32))
    first_board = rng.randrange(4) + 1  # the seat of board n deals: N, W, S, E
    hands: list[Hand] = []
    started: list[float] = []
    minutes = 0.0
    while True:
        limit = rules.time_limit_minutes
        if hands and limit is not None and minutes >= limit:
            game, _problems = play_sheet(hands, rules, ended_by=EndedBy.TIME)
            assert game is not None
            return BotGame(tuple(hands), EndedBy.TIME, game, tuple(started), minutes)
        board = first_board + len(hands)
        started.append(minutes)
        hands.append(_play_deal(_deal(rng), board, engine_rules, rules, bot, rng, revoke_rate))
        minutes += rng.uniform(low, high)
        game, _problems = play_sheet(hands, rules)
        if game is not None:  # the target or the deal limit: the sheet is over
            return BotGame(tuple(hands), game.ended_by, game, tuple(started), minutes)


def _deal(rng: random.Random) -> Deal:
    cards = list(DECK)
    rng.shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})


def _play_deal(
    deal: Deal, board: int, engine_rules: Rules, rules: ClassicRules, bot: SensibleBot,
    rng: random.Random, revoke_rate: int,
) -> Hand:
    hand = HandPlay(deal, board, engine_rules)
    declarer = hand.dealer
    choice = bot.declaration(deal[declarer], may_delegate=True, seat=declarer)
    if choice == DELEGATE:
        hand.delegate()
        declarer = declarer.partner
        choice = bot.declaration(deal[declarer], may_delegate=False, seat=declarer)
    trump: Suit | None = None if choice == DELEGATE else choice
    hand.declare(trump)
    _doubling(hand, bot, rules, trump)
    hand.start_play()
    while not hand.is_over:
        hand.play(bot.choose_card(hand))
    chooser = hand.declaring_side
    revoke: Side | None = None
    if revoke_rate and rng.randrange(revoke_rate) == 0:
        revoke = rng.choice((Side.NS, Side.EW))
    return Hand(
        chooser=chooser, trump=Trump.from_suit(trump),
        points=None if revoke is not None else hand.points()[chooser],
        delegated=hand.delegated, contro=hand.contro_called,
        recontro=hand.recontro_called, sant_vicenc=hand.sant_vicenc_called, revoke=revoke,
    )


def _doubling(hand: HandPlay, bot: SensibleBot, rules: ClassicRules, trump: Suit | None) -> None:
    """Contro, recontro and Sant Vicenç, each asked only when the score sheet takes it:
    the defenders first from the dealer's right, then the declaring side, and so on."""
    order = seats_from(hand.dealer.right)
    defenders = [s for s in order if s.side is not hand.declaring_side]
    declarers = [s for s in order if s.side is hand.declaring_side]
    if not rules.contro or not _ask(hand, bot, "contro", defenders, trump):
        return
    if not rules.recontro or not _ask(hand, bot, "recontro", declarers, trump):
        return
    if rules.sant_vicenc and (trump is not None or rules.sant_vicenc_on_botifarra):
        _ask(hand, bot, "sant_vicenc", defenders, trump)


def _ask(hand: HandPlay, bot: SensibleBot, call: Double, seats: list[Seat],
         trump: Suit | None) -> bool:
    for seat in seats:
        if bot.wants_double(call, hand.deal[seat], trump, seat=seat):
            getattr(hand, call)(seat)
            return True
    return False


__all__ = ["DEAL_MINUTES", "REVOKE_RATE", "BotGame", "play_classic_game"]
