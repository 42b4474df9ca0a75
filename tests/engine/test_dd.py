"""The double-dummy solver against a plain minimax without pruning (the oracle), on random
endings of up to 4 tricks, for every declaration, obligada, lliure and carregar; and the
validation of positions, the table and par."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.cards import DECK, Card, Suit
from engine.dd import (
    DECLARATIONS,
    InvalidPositionError,
    Par,
    best_card,
    best_play,
    core_available,
    double_dummy,
    par,
    resolve_backend,
)
from engine.errors import EngineError
from engine.play import legal_cards, trick_winner
from engine.rules import Rules
from engine.seats import PLAY_ORDER, Seat

RULES = {
    "obligada": Rules(),
    "lliure": Rules(variant="lliure"),
    "carregar": Rules(carregar=True),
    "carregar-always": Rules(carregar=True, carregar_scope="always"),
}
BACKENDS = ["python", pytest.param("c", marks=pytest.mark.skipif(
    not core_available(), reason="engine._ddcore is not built"))]


def minimax(
    hands: list[list[Card]], leader: int, trick: list[Card], trump: Suit | None, rules: Rules
) -> int:
    """NS points from the current trick on, every legal card of every seat tried: no
    pruning, no table, no shortcut. ``hands`` by play-order index (0 = N, NS even)."""
    player = (leader + len(trick)) % 4
    if not trick and not hands[leader]:
        return 0
    values = []
    for card in sorted(legal_cards(hands[player], trick, trump, rules), key=lambda c: c.index):
        hands[player].remove(card)
        played = [*trick, card]
        if len(played) == 4:
            winner = (leader + trick_winner(played, trump)) % 4
            points = sum(c.points for c in played) + 1
            gain = points if winner % 2 == 0 else 0
            values.append(gain + minimax(hands, winner, [], trump, rules))
        else:
            values.append(minimax(hands, leader, played, trump, rules))
        hands[player].append(card)
    return max(values) if player % 2 == 0 else min(values)


def random_position(
    rng: random.Random, tricks: int, trump: Suit | None, rules: Rules, *, on_table: int = 0
) -> tuple[dict[Seat, list[Card]], Seat, list[Card]]:
    """``tricks`` cards per seat drawn from a shuffled deck, a random leader, then
    ``on_table`` random legal cards played to the first trick."""
    cards = list(DECK)
    rng.shuffle(cards)
    # Point cards are a third of the deck; draw them a bit more often so endings have points.
    cards.sort(key=lambda c: rng.random() - 0.25 * c.is_point_card)
    hands = {seat: cards[i * tricks:(i + 1) * tricks] for i, seat in enumerate(PLAY_ORDER)}
    leader = rng.choice(PLAY_ORDER)
    trick: list[Card] = []
    seat = leader
    for _ in range(on_table):
        card = rng.choice(sorted(legal_cards(hands[seat], trick, trump, rules),
                                 key=lambda c: c.index))
        hands[seat].remove(card)
        trick.append(card)
        seat = seat.right
    return hands, leader, trick


def oracle(hands: dict[Seat, list[Card]], leader: Seat, trick: Sequence[Card],
           trump: Suit | None, rules: Rules) -> int:
    by_index = [list(hands[seat]) for seat in PLAY_ORDER]
    return minimax(by_index, PLAY_ORDER.index(leader), list(trick), trump, rules)


def after_card(hands: dict[Seat, list[Card]], leader: Seat, trick: Sequence[Card],
               card: Card, trump: Suit | None, rules: Rules) -> int:
    """The oracle's value once the seat to play has played ``card``."""
    seat = leader
    for _ in trick:
        seat = seat.right
    rest = {s: [c for c in cards if c != card] for s, cards in hands.items()}
    played = [*trick, card]
    if len(played) < 4:
        return oracle(rest, leader, played, trump, rules)
    winner = PLAY_ORDER[(PLAY_ORDER.index(leader) + trick_winner(played, trump)) % 4]
    points = sum(c.points for c in played) + 1
    gain = points if winner in (Seat.N, Seat.S) else 0
    if not rest[winner]:
        return gain
    return gain + oracle(rest, winner, [], trump, rules)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("rules_name", list(RULES))
def test_solver_equals_the_minimax_oracle_on_random_endings(
    backend: str, rules_name: str
) -> None:
    rules = RULES[rules_name]
    rng = random.Random(f"dd-{rules_name}")
    checked = 0
    for case in range(60):
        trump = DECLARATIONS[case % 5]
        tricks = 1 + case % 4 if rules_name != "lliure" else 1 + case % 3
        hands, leader, trick = random_position(rng, tricks, trump, rules, on_table=case % 4)
        expected = oracle(hands, leader, trick, trump, rules)
        got = double_dummy(hands, trump, leader, rules, played_in_trick=trick,
                           backend=backend)  # type: ignore[arg-type]
        assert got == expected, (case, trump, hands, leader, trick)
        checked += 1
    assert checked == 60


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("rules_name", ["obligada", "lliure", "carregar-always"])
def test_best_card_is_legal_and_achieves_the_value(backend: str, rules_name: str) -> None:
    rules = RULES[rules_name]
    rng = random.Random(f"best-{rules_name}")
    for case in range(40):
        trump = DECLARATIONS[case % 5]
        hands, leader, trick = random_position(rng, 1 + case % 3, trump, rules,
                                               on_table=(case * 7) % 4)
        value, card = best_play(hands, trump, leader, rules, played_in_trick=trick,
                                backend=backend)  # type: ignore[arg-type]
        seat = leader
        for _ in trick:
            seat = seat.right
        assert card in legal_cards(hands[seat], trick, trump, rules)
        assert value == oracle(hands, leader, trick, trump, rules)
        assert after_card(hands, leader, trick, card, trump, rules) == value, (case, card)
        # best_card may pick another of several optimal cards (ties follow the order the
        # search meets them in); whichever it is must be legal and keep the value.
        other = best_card(hands, trump, leader, rules, played_in_trick=trick,
                          backend=backend)  # type: ignore[arg-type]
        assert other in legal_cards(hands[seat], trick, trump, rules)
        assert after_card(hands, leader, trick, other, trump, rules) == value, (case, other)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_known_ending_counts_card_points_and_one_per_trick(backend: str) -> None:
    hands = {
        Seat.N: Card.parse_many("9O 2C"),
        Seat.W: Card.parse_many("1O 3C"),
        Seat.S: Card.parse_many("12O 4C"),
        Seat.E: Card.parse_many("2O 5C"),
    }
    # N's manilla takes 5 + 4 + 3 + 0 and 1 for the trick; E's 5C takes the last trick.
    assert double_dummy(hands, Suit.O, Seat.N, backend=backend) == 13  # type: ignore[arg-type]
    # Botifarra, E to lead: the same as the oracle.
    assert double_dummy(hands, None, Seat.E, backend=backend) == oracle(  # type: ignore[arg-type]
        {s: list(c) for s, c in hands.items()}, Seat.E, [], None, Rules())
    assert best_card(hands, Suit.O, Seat.N, backend=backend) == Card.parse("9O")  # type: ignore[arg-type]


def test_the_python_backend_can_be_forced_by_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BOTIFARRA_DD_BACKEND", "python")
    assert resolve_backend() == "python"
    monkeypatch.setenv("BOTIFARRA_DD_BACKEND", "pascal")
    with pytest.raises(ValueError, match="pascal"):
        resolve_backend()
    monkeypatch.delenv("BOTIFARRA_DD_BACKEND")
    assert resolve_backend() == ("c" if core_available() else "python")


FOUR = {
    Seat.N: Card.parse_many("9O 2C"),
    Seat.W: Card.parse_many("1O 3C"),
    Seat.S: Card.parse_many("12O 4C"),
    Seat.E: Card.parse_many("2O 5C"),
}


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        ({Seat.N: FOUR[Seat.N], Seat.W: FOUR[Seat.W], Seat.S: FOUR[Seat.S]}, {},
         "missing E"),
        ({**FOUR, Seat.E: Card.parse_many("9O 5C")}, {}, r"held twice: 9O in N, E"),
        ({**FOUR, Seat.E: Card.parse_many("5C")}, {}, "same number of cards"),
        ({s: () for s in Seat}, {}, "same number of cards, 1 to 12"),
        ({**FOUR, Seat.E: ["2O", "5C"]}, {}, "'2O' in E is not a card"),
        (FOUR, {"played_in_trick": Card.parse_many("5O")}, "same number of cards"),
        ({**FOUR, Seat.N: Card.parse_many("2C")},
         {"played_in_trick": Card.parse_many("9O 7O")}, "same number of cards"),
        (FOUR, {"played_in_trick": Card.parse_many("2O")}, "held twice: 2O in E, the trick"),
        (FOUR, {"trump": "O"}, "'O' is not a suit"),
        (FOUR, {"leader": "N"}, "leader 'N' is not a seat"),
    ],
)
def test_a_bad_position_is_refused_with_a_clear_message(
    hands: dict[Seat, Sequence[Card]], kwargs: dict[str, object], message: str
) -> None:
    kwargs = dict(kwargs)
    trump = kwargs.pop("trump", Suit.O)
    leader = kwargs.pop("leader", Seat.N)
    with pytest.raises(InvalidPositionError, match=message) as info:
        double_dummy(hands, trump, leader, **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, EngineError)
    assert isinstance(info.value, ValueError)


def test_a_trick_under_way_is_passed_as_the_cards_on_the_table() -> None:
    # N led 9O; W (1O 3C) is to play, S and E still hold two cards.
    hands = {
        Seat.N: Card.parse_many("2C"),
        Seat.W: Card.parse_many("1O 3C"),
        Seat.S: Card.parse_many("12O 4C"),
        Seat.E: Card.parse_many("2O 5C"),
    }
    trick = Card.parse_many("9O")
    assert double_dummy(hands, Suit.O, Seat.N, played_in_trick=trick) == 13
    assert best_card(hands, Suit.O, Seat.N, played_in_trick=trick) == Card.parse("1O")


def test_par_picks_the_best_score_for_the_declaring_side() -> None:
    table: dict[Suit | None, int] = {Suit.O: 40, Suit.C: 30, Suit.E: 20, Suit.B: 33, None: 41}
    assert par(table, Seat.N) == Par(trump=None, ns_points=41, score=10)  # (41-36) x 2
    assert par(table, Seat.S) == Par(trump=None, ns_points=41, score=10)
    # EW declare: espases leaves NS 20, EW score 52 - 36 = 16 (botifarra: (31-36) x 2).
    assert par(table, Seat.W) == Par(trump=Suit.E, ns_points=20, score=16)
    # A tie in score: the most points for the declaring side, then suit order.
    tie: dict[Suit | None, int] = {Suit.O: 38, Suit.C: 38, Suit.E: 10, Suit.B: 50, None: 37}
    assert par(tie, Seat.E) == Par(trump=Suit.E, ns_points=10, score=26)
    assert par({**tie, Suit.E: 38}, Seat.N) == Par(trump=Suit.B, ns_points=50, score=14)
    even: dict[Suit | None, int] = dict.fromkeys(DECLARATIONS, 36)
    assert par(even, Seat.N) == Par(trump=Suit.O, ns_points=36, score=0)
    with pytest.raises(InvalidPositionError, match="no value for botifarra"):
        par({Suit.O: 1, Suit.C: 2, Suit.E: 3, Suit.B: 4}, Seat.N)
    with pytest.raises(InvalidPositionError, match="73"):
        par({**table, Suit.O: 73}, Seat.N)
