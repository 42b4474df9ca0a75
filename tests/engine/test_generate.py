"""Deal generation, deal numbers and commitments (engine/generate.py)."""

from __future__ import annotations

import ast
import hashlib
import hmac
import math
from collections.abc import Callable, Sequence
from math import comb
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
import engine.generate as generate_module
from engine.cards import DECK, Card
from engine.deal import Deal
from engine.errors import EngineError
from engine.generate import (
    DEAL_COUNT,
    MAX_BOARD_NUMBER,
    DealNumberError,
    DealSecretError,
    _uniform_below,
    deal_commitment,
    generate_deal,
    generate_deal_number,
    new_secret,
    rank_deal,
    secret_from_hex,
    unrank_deal,
    verify_commitment,
)
from engine.seats import Seat

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
SECRET = bytes(range(32))  # 00 01 02 ... 1f
OTHER_SECRET = bytes.fromhex("ff" * 32)

deals = st.permutations(DECK).map(
    lambda order: Deal.from_hands(
        {seat: order[i * 12 : (i + 1) * 12] for i, seat in enumerate(SEATS)}
    )
)
secrets_32 = st.binary(min_size=32, max_size=32)
board_numbers = st.integers(min_value=1, max_value=MAX_BOARD_NUMBER)


# -- an independent reading of the documented algorithm ----------------------------------


def reference_deal_number(secret: bytes, board_number: int) -> int:
    """Step 2 of engine/generate.py's docstring, written from the text alone."""
    counter = 0
    while True:
        message = (
            b"botifarra-duplicate/deal/v1"
            + board_number.to_bytes(8, "big")
            + counter.to_bytes(4, "big")
        )
        value = int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:11], "big")
        if value < DEAL_COUNT:
            return value
        counter += 1


def reference_rank(deal: Deal) -> int:
    """The deal number as the docstring defines it, by the colex sum over free positions."""
    free = list(range(48))
    ranks = []
    for seat in SEATS[:3]:
        positions = sorted(free.index(card.index) for card in deal[seat])
        ranks.append(sum(comb(p, i) for i, p in enumerate(positions, start=1)))
        free = [index for index in free if DECK[index] not in deal[seat]]
    return (ranks[0] * comb(36, 12) + ranks[1]) * comb(24, 12) + ranks[2]


# -- golden vectors: a change of algorithm must show up here -----------------------------

GOLDEN = [
    (
        SECRET,
        1,
        104364785712478818030700116,
        "N:6,3,2.9,11,8.1,5,4.1,11,4 W:9,5.1,12,7,6.11,7.9,12,8,6 "
        "S:12,11,8.5.9,12,10,8,2.7,5,2 E:1,10,7,4.10,4,3,2.6,3.10,3",
    ),
    (
        SECRET,
        2,
        118624405048211976067993557,
        "N:10.9,1,7,4.12,8,6,3.12,6,4 W:11,6.10,6,3,2.10,7.11,10,7,3 "
        "S:1,8,7,5,3.11,8.9,11,5,2.1 E:9,12,4,2.12,5.1,4.9,8,5,2",
    ),
    (
        SECRET,
        3,
        80344921814224226910046267,
        "N:12,7.1,8,4.12,7,6,2.9,10,5 W:10.7,5,2.11,8.1,11,8,7,6,4 "
        "S:9,5,3,2.9,12,3.9,1,5,4.2 E:1,11,8,6,4.11,10,6.10,3.12,3",
    ),
    (
        SECRET,
        4,
        145610951374370430151465319,
        "N:11,10,4.8,7,5,4.6.9,10,8,3 W:9,8,7,6.1,12,11,10.10,5.7,5 "
        "S:12.9,6,3.9,1,12,4,2.1,11,2 E:1,5,3,2.2.11,8,7,3.12,6,4",
    ),
    (
        OTHER_SECRET,
        1,
        68684073555111577579555391,
        "N:6.12,10,4,2.1,10,6,5.11,7,6 W:9,10,3.8.9,12,4,3.12,10,3,2 "
        "S:12,11,7,2.11,7.11,7.9,1,8,4 E:1,8,5,4.9,1,6,5,3.8,2.5",
    ),
    (
        OTHER_SECRET,
        MAX_BOARD_NUMBER,
        224723526459643575316903223,
        "N:12,11.11,10,8,7,4.11.12,11,3,2 W:9,8,2.6.9,10,8,4.1,7,5,4 "
        "S:10,5,4,3.9,5,3,2.1,12,7,2. E:1,7,6.1,12.6,5,3.9,10,8,6",
    ),
]


@pytest.mark.parametrize(("secret", "board", "number", "compact"), GOLDEN)
def test_golden_vectors_fix_the_deal_of_each_secret_and_board(
    secret: bytes, board: int, number: int, compact: str
) -> None:
    assert generate_deal_number(secret, board) == number
    assert generate_deal(secret, board) == Deal.from_compact(compact)
    assert generate_deal(secret, board).to_compact(1) == compact
    assert rank_deal(Deal.from_compact(compact)) == number


@pytest.mark.parametrize(("secret", "board", "number", "compact"), GOLDEN)
def test_the_documented_algorithm_reproduces_the_golden_vectors(
    secret: bytes, board: int, number: int, compact: str
) -> None:
    assert reference_deal_number(secret, board) == number
    assert reference_rank(Deal.from_compact(compact)) == number


def test_board_3_of_the_golden_secret_needed_one_rejected_draw() -> None:
    # Counter 0 gives an 88-bit value >= DEAL_COUNT: the rejection path is in the vectors.
    message = b"botifarra-duplicate/deal/v1" + (3).to_bytes(8, "big") + (0).to_bytes(4, "big")
    first = int.from_bytes(hmac.new(SECRET, message, hashlib.sha256).digest()[:11], "big")
    assert first >= DEAL_COUNT
    assert generate_deal_number(SECRET, 3) != first % DEAL_COUNT


def test_golden_commitments() -> None:
    assert deal_commitment(SECRET) == (
        "71893d051789a1d44db1ccc6830167b752a1bf6aaa814b44a6e1c692f10494b8"
    )
    assert deal_commitment(OTHER_SECRET) == (
        "831620e89592f01ca1a12f84ef7d41cdb9aa3509107ca06e1c146a5258ae8355"
    )
    tagged = b"botifarra-duplicate/deal-commitment/v1" + SECRET
    assert len(tagged) == 70
    assert deal_commitment(SECRET) == hashlib.sha256(tagged).hexdigest()


# -- reproducibility and independence ---------------------------------------------------


@given(secrets_32, board_numbers)
def test_the_same_secret_and_board_number_always_give_the_same_deal(
    secret: bytes, board: int
) -> None:
    deal = generate_deal(secret, board)
    assert generate_deal(secret, board) == deal
    assert rank_deal(deal) == generate_deal_number(secret, board)
    assert generate_deal_number(secret, board) == reference_deal_number(secret, board)


def test_different_boards_and_secrets_give_different_deals() -> None:
    boards = [generate_deal(SECRET, board) for board in range(1, 2001)]
    assert len({rank_deal(deal) for deal in boards}) == 2000
    flipped = bytes([SECRET[0] ^ 1]) + SECRET[1:]  # one bit differs
    assert all(generate_deal(flipped, b) != generate_deal(SECRET, b) for b in range(1, 101))


def _same_seat_cards(first: Deal, second: Deal) -> int:
    return sum(first.holder(card) is second.holder(card) for card in DECK)


def test_consecutive_boards_share_a_quarter_of_card_seats_as_independent_deals_do() -> None:
    # Independent deals put a card in the same seat with probability 1/4: 12 of 48 cards.
    pairs = 2000
    same = [
        _same_seat_cards(generate_deal(SECRET, b), generate_deal(SECRET, b + 1))
        for b in range(1, pairs + 1)
    ]
    assert abs(sum(same) / pairs - 12) < 0.3  # about 5 standard errors


def test_the_same_board_under_two_secrets_shares_a_quarter_of_card_seats() -> None:
    pairs = 2000
    same = [
        _same_seat_cards(generate_deal(SECRET, b), generate_deal(OTHER_SECRET, b))
        for b in range(1, pairs + 1)
    ]
    assert abs(sum(same) / pairs - 12) < 0.3


# -- uniformity: every card in every seat equally often (chi-square) ---------------------

SAMPLE = 20_000
STAT_SECRET = hashlib.sha256(b"botifarra-duplicate test: card-seat uniformity").digest()
#: The check fails below this p-value; with a fixed secret the fair run is deterministic.
ALPHA = 0.001


def chi_square_sf_even(statistic: float, df: int) -> float:
    """Exact upper tail of the chi-square law with an even number of degrees of freedom."""
    half = statistic / 2
    term, total = 1.0, 1.0
    for i in range(1, df // 2):
        term *= half / i
        total += term
    return math.exp(-half) * total


def chi_square_sf_3(statistic: float) -> float:
    """Exact upper tail of the chi-square law with 3 degrees of freedom."""
    return math.erfc(math.sqrt(statistic / 2)) + math.sqrt(2 * statistic / math.pi) * math.exp(
        -statistic / 2
    )


def card_seat_counts(deal_of: Callable[[int], Deal], boards: int) -> list[list[int]]:
    """counts[card index][seat] over boards 1..boards, seats in N, E, S, W order."""
    counts = [[0, 0, 0, 0] for _ in DECK]
    for board in range(1, boards + 1):
        deal = deal_of(board)
        for column, seat in enumerate(SEATS):
            for card in deal[seat]:
                counts[card.index][column] += 1
    return counts


def uniformity_p_values(counts: Sequence[Sequence[int]]) -> tuple[float, float]:
    """(p of the total Pearson statistic, df 48 x 3 = 144; smallest per-card p, Bonferroni x48).

    Each card's seat is uniform and independent from deal to deal, so each card's Pearson
    statistic follows chi-square(3) and their sum has expectation 144.
    """
    boards = sum(counts[0])
    expected = boards / 4
    per_card = [sum((seen - expected) ** 2 / expected for seen in row) for row in counts]
    total_p = chi_square_sf_even(sum(per_card), df=3 * len(per_card))
    worst_p = min(1.0, len(per_card) * chi_square_sf_3(max(per_card)))
    return total_p, worst_p


def test_chi_square_tails_match_known_quantiles() -> None:
    # Table values: chi-square(144) upper 0.1% point ~ 202.2; chi-square(3) upper 5% = 7.815.
    assert chi_square_sf_even(202.2, 144) == pytest.approx(0.001, rel=0.05)
    assert chi_square_sf_even(144, 144) == pytest.approx(0.484, abs=0.01)
    assert chi_square_sf_3(7.815) == pytest.approx(0.05, rel=0.01)


def test_each_card_lands_in_each_seat_equally_often() -> None:
    counts = card_seat_counts(lambda board: generate_deal(STAT_SECRET, board), SAMPLE)
    assert all(sum(row) == SAMPLE for row in counts)
    assert [sum(row[c] for row in counts) for c in range(4)] == [12 * SAMPLE] * 4
    total_p, worst_p = uniformity_p_values(counts)
    assert total_p > ALPHA
    assert worst_p > ALPHA


def _block(board: int) -> bytes:
    return hmac.new(STAT_SECRET, board.to_bytes(8, "big"), hashlib.sha256).digest()


def _deal_from_order(order: Sequence[Card]) -> Deal:
    return Deal.from_hands({seat: order[i * 12 : (i + 1) * 12] for i, seat in enumerate(SEATS)})


def modulo_of_64_bits(board: int) -> Deal:
    """A too-small random number reduced modulo DEAL_COUNT: only the first 2^64 numbers."""
    return unrank_deal(int.from_bytes(_block(board)[:8], "big") % DEAL_COUNT)


def fisher_yates_with_byte_modulo(board: int) -> Deal:
    """Fisher-Yates whose swaps take a random byte modulo i + 1 (small j favoured)."""
    data = _block(board) + hashlib.sha256(_block(board)).digest()
    order = list(DECK)
    for i in range(47, 0, -1):
        j = data[47 - i] % (i + 1)
        order[i], order[j] = order[j], order[i]
    return _deal_from_order(order)


MANILLA_OROS = Card.parse("9O")


def manilla_moved_to_north(board: int) -> Deal:
    """A fair deal, but in one deal in ten North swaps its lowest card for the 9O."""
    deal = generate_deal(STAT_SECRET, board)
    holder = deal.holder(MANILLA_OROS)
    if holder is Seat.N or _block(board)[0] % 10:
        return deal
    hands = {seat: list(deal[seat]) for seat in SEATS}
    lowest = hands[Seat.N][-1]
    hands[holder][hands[holder].index(MANILLA_OROS)] = lowest
    hands[Seat.N][-1] = MANILLA_OROS
    return Deal.from_hands(hands)


@pytest.mark.parametrize(
    "biased", [modulo_of_64_bits, fisher_yates_with_byte_modulo, manilla_moved_to_north]
)
def test_the_uniformity_check_catches_a_biased_generator(biased: Callable[[int], Deal]) -> None:
    total_p, worst_p = uniformity_p_values(card_seat_counts(biased, SAMPLE))
    assert total_p < ALPHA or worst_p < ALPHA


def test_rejection_sampling_skips_values_at_or_above_the_limit() -> None:
    blocks = [bytes([250]), bytes([200]), bytes([199]), bytes([3])]
    assert _uniform_below(200, blocks) == 199
    assert _uniform_below(200, iter([bytes([0])])) == 0
    # 2^16 values on two bytes for a limit of 300: no reduction modulo 300.
    assert _uniform_below(300, [(1000).to_bytes(2, "big"), (299).to_bytes(2, "big")]) == 299


def test_rejection_sampling_refuses_short_or_exhausted_streams() -> None:
    with pytest.raises(ValueError, match="1 bytes is shorter than 2"):
        _uniform_below(300, [b"\x00"])
    with pytest.raises(ValueError, match="ran out"):
        _uniform_below(200, [bytes([255])])


# -- deal numbers ------------------------------------------------------------------------


def test_deal_count_is_48_factorial_over_12_factorial_to_the_fourth() -> None:
    assert DEAL_COUNT == 235_809_301_462_142_612_780_721_600
    assert math.factorial(48) // math.factorial(12) ** 4 == DEAL_COUNT
    assert comb(48, 12) * comb(36, 12) * comb(24, 12) == DEAL_COUNT
    assert DEAL_COUNT.bit_length() == 88
    assert engine.DEAL_COUNT == DEAL_COUNT


def test_deal_number_0_gives_each_seat_one_suit_in_n_e_s_w_order() -> None:
    deal = unrank_deal(0)
    assert [{card.suit.value for card in deal[seat]} for seat in SEATS] == [
        {"O"},
        {"C"},
        {"E"},
        {"B"},
    ]
    assert rank_deal(deal) == 0


def test_the_last_deal_number_reverses_the_suits() -> None:
    deal = unrank_deal(DEAL_COUNT - 1)
    assert [{card.suit.value for card in deal[seat]} for seat in SEATS] == [
        {"B"},
        {"E"},
        {"C"},
        {"O"},
    ]


def test_deal_number_1_moves_souths_lowest_espasa_up_a_place() -> None:
    # South's 12-subset of the last 24 cards: colex rank 1 = positions 0..10 and 12.
    deal = unrank_deal(1)
    assert deal.holder(Card.parse("9B")) is Seat.S
    assert deal.holder(Card.parse("2E")) is Seat.W


def test_north_is_the_most_significant_hand() -> None:
    # Swapping N's 2O with E's 9C gives North colex rank 1 and E, S rank 0.
    hands = {seat: list(unrank_deal(0)[seat]) for seat in SEATS}
    hands[Seat.N][-1], hands[Seat.E][0] = hands[Seat.E][0], hands[Seat.N][-1]
    assert rank_deal(Deal.from_hands(hands)) == comb(36, 12) * comb(24, 12)


@given(st.integers(min_value=0, max_value=DEAL_COUNT - 1))
def test_unrank_then_rank_gives_the_number_back(number: int) -> None:
    assert rank_deal(unrank_deal(number)) == number


@given(deals)
def test_rank_then_unrank_gives_the_deal_back(deal: Deal) -> None:
    number = rank_deal(deal)
    assert 0 <= number < DEAL_COUNT
    assert unrank_deal(number) == deal
    assert number == reference_rank(deal)


@given(st.integers(min_value=0, max_value=DEAL_COUNT - 1))
def test_unranked_deals_are_valid_deals(number: int) -> None:
    deal = unrank_deal(number)
    assert Deal.from_json(deal.to_json()) == deal


@pytest.mark.parametrize("bad", [-1, DEAL_COUNT, DEAL_COUNT + 5, 2**100])
def test_unrank_refuses_a_number_out_of_range_and_names_it(bad: int) -> None:
    with pytest.raises(DealNumberError, match=f"deal number {bad} is not in 0 .. {DEAL_COUNT - 1}"):
        unrank_deal(bad)


@pytest.mark.parametrize("bad", ["5", 1.0, True, None])
def test_unrank_refuses_what_is_not_an_integer(bad: object) -> None:
    with pytest.raises(DealNumberError, match=f"must be an integer, got {bad!r}"):
        unrank_deal(bad)  # type: ignore[arg-type]


def test_rank_refuses_what_is_not_a_deal() -> None:
    with pytest.raises(TypeError, match="takes a Deal, got dict"):
        rank_deal({})  # type: ignore[arg-type]


# -- input checks ---------------------------------------------------------------------


@pytest.mark.parametrize(("secret", "length"), [(b"", 0), (bytes(16), 16), (bytes(33), 33)])
def test_a_secret_of_the_wrong_length_is_refused_with_its_length(
    secret: bytes, length: int
) -> None:
    with pytest.raises(DealSecretError, match=f"32 bytes long, got {length} bytes"):
        generate_deal(secret, 1)
    with pytest.raises(DealSecretError, match=f"got {length} bytes"):
        deal_commitment(secret)


def test_a_secret_that_is_not_bytes_is_refused_without_echoing_it() -> None:
    text = "00" * 32
    with pytest.raises(DealSecretError, match=r"must be bytes, got str \(decode hex") as caught:
        generate_deal(text, 1)  # type: ignore[arg-type]
    assert text not in str(caught.value)
    with pytest.raises(DealSecretError, match="must be bytes, got bytearray"):
        generate_deal(bytearray(32), 1)  # type: ignore[arg-type]
    assert issubclass(DealSecretError, EngineError)


@pytest.mark.parametrize("bad", [0, -1, MAX_BOARD_NUMBER + 1])
def test_a_board_number_out_of_range_is_refused_and_named(bad: int) -> None:
    with pytest.raises(ValueError, match=f"board number {bad} must be in 1 .. {MAX_BOARD_NUMBER}"):
        generate_deal(SECRET, bad)


@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_a_board_number_that_is_not_an_integer_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match=f"board number {bad!r} must be an integer"):
        generate_deal(SECRET, bad)  # type: ignore[arg-type]


# -- secrets and commitments ------------------------------------------------------------


def test_new_secret_is_32_fresh_bytes() -> None:
    first, second = new_secret(), new_secret()
    assert isinstance(first, bytes)
    assert len(first) == 32
    assert first != second


def test_generation_never_uses_the_random_module() -> None:
    tree = ast.parse(Path(generate_module.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "random" not in imported
    assert "secrets" in imported


def test_a_commitment_verifies_only_its_own_secret() -> None:
    commitment = deal_commitment(SECRET)
    assert verify_commitment(SECRET, commitment)
    assert verify_commitment(SECRET, f"  {commitment.upper()} ")
    assert not verify_commitment(OTHER_SECRET, commitment)
    assert not verify_commitment(SECRET, commitment[:-1] + "0")
    assert not verify_commitment(SECRET, "not hex at all ñ")
    assert not verify_commitment(SECRET, None)  # type: ignore[arg-type]


@given(secrets_32)
def test_commitment_round_trip_for_any_secret(secret: bytes) -> None:
    commitment = deal_commitment(secret)
    assert len(commitment) == 64
    assert int(commitment, 16) >= 0
    assert verify_commitment(secret, commitment)
    assert secret_from_hex(secret.hex()) == secret
    assert secret_from_hex(secret.hex().upper()) == secret


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("00" * 31, "must be 64 hex digits, got 62 characters"),
        ("0" * 63, "must be 64 hex digits, got 63 characters"),
        ("zz" * 32, "must be 64 hex digits .*other characters"),
        ("00 " * 21 + "0", "other characters"),
    ],
)
def test_secret_from_hex_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(DealSecretError, match=message):
        secret_from_hex(text)


def test_public_names_are_exported_from_the_engine_package() -> None:
    for name in (
        "generate_deal",
        "deal_commitment",
        "rank_deal",
        "unrank_deal",
        "new_secret",
        "verify_commitment",
        "DEAL_COUNT",
    ):
        assert getattr(engine, name) is getattr(generate_module, name)
        assert name in engine.__all__
