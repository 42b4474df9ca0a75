"""Secure, reproducible deal generation and deal numbers (SquareDeal's scheme for bridge).

An organiser draws a secret with :func:`new_secret`, publishes :func:`deal_commitment` of it
before play, generates every board with :func:`generate_deal`, and publishes the secret
after the event (docs/file-format.md: ``championship.deal_commitment`` and
``championship.deal_secret``). Anyone can then check the commitment and regenerate every
board, on any machine and Python version, since only HMAC-SHA256, SHA-256 and integer
arithmetic are involved.

>>> secret = bytes(range(32))
>>> deal_commitment(secret)
'71893d051789a1d44db1ccc6830167b752a1bf6aaa814b44a6e1c692f10494b8'
>>> deal = generate_deal(secret, 1)
>>> deal == generate_deal(secret, 1), deal == generate_deal(secret, 2)
(True, False)
>>> unrank_deal(rank_deal(deal)) == deal
True
>>> DEAL_COUNT
235809301462142612780721600

The exact algorithm (version 1), so that an outsider can reimplement it:

1. ``N = 48! / (12!)^4`` (:data:`DEAL_COUNT`, an 88-bit number).
2. For ``counter = 0, 1, 2, ...``: ``digest = HMAC-SHA256(key=secret, msg)`` with
   ``msg = b"botifarra-duplicate/deal/v1" || board_number as 8 bytes big-endian ||
   counter as 4 bytes big-endian`` (39 bytes); ``x`` = the first 11 bytes of ``digest``
   read as a big-endian unsigned integer (88 bits, 0 <= x < 2^88). The first ``x < N``
   is the board's deal number (rejection sampling: each try succeeds with probability
   N / 2^88 ~ 0.76, so every deal number is exactly equally likely, with no modulo bias).
3. The deal is :func:`unrank_deal` of that number.

Deal numbers (:func:`rank_deal` / :func:`unrank_deal`) are a bijection between deals and
``0 .. N - 1``. The cards are numbered by their index in :data:`engine.cards.DECK`
(``9O`` = 0, ``1O`` = 1, ... ``2B`` = 47). North's hand is a 12-card subset of the 48,
East's a subset of the 36 left, South's of the 24 left (West holds the last 12); each
subset is ranked in the combinatorial number system (colexicographic order): the subset
at 0-based positions ``p1 < p2 < ... < p12`` among the cards still free (in index order) has rank
``C(p1, 1) + C(p2, 2) + ... + C(p12, 12)``. Then
``number = (rank_N * C(36, 12) + rank_E) * C(24, 12) + rank_S``. Number 0 gives North
the twelve oros, East the copes, South the espases and West the bastos.

Questions left open by the file format (the choices made here; docs/decisions.md 6):

- The file format says ``deal_commitment`` is a "hex SHA-256" without saying of
  what: here it is SHA-256 of a domain tag and the secret (:func:`deal_commitment`).
- ``deal_secret`` is "hex": taken to be the 64 hex digits of the 32 secret bytes
  (:func:`secret_from_hex`).
- Deal numbers start at 0 (0 .. DEAL_COUNT - 1); a UI may show them as they are.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable, Iterator
from math import comb, factorial

from engine.cards import DECK, Card
from engine.deal import HAND_SIZE, Deal
from engine.errors import EngineError
from engine.seats import Seat

#: Number of different deals: 48! / (12!)^4 = 235809301462142612780721600 (< 2^88).
DEAL_COUNT: int = factorial(48) // factorial(HAND_SIZE) ** 4
#: Length of a deal secret in bytes.
SECRET_SIZE = 32
#: Domain tag of the HMAC message that draws a board's deal number (version 1).
DEAL_TAG = b"botifarra-duplicate/deal/v1"
#: Domain tag hashed in front of the secret by :func:`deal_commitment` (version 1).
COMMITMENT_TAG = b"botifarra-duplicate/deal-commitment/v1"
#: Largest board number: it travels as 8 bytes in the HMAC message.
MAX_BOARD_NUMBER = 2**64 - 1
#: Seats in the order their hands are ranked (the most significant first); West is implied.
RANK_SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S, Seat.W)

_DRAW_BYTES = (DEAL_COUNT.bit_length() + 7) // 8  # 11 bytes = 88 bits, just enough for N
_DECK_SIZE = len(DECK)
# _BINOM[p][k] = C(p, k) for 0 <= p <= 48, 0 <= k <= 12 (0 when p < k).
_BINOM: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(p, k) for k in range(HAND_SIZE + 1)) for p in range(_DECK_SIZE + 1)
)
# How many numbers each of N, E, S's subset ranks spans: C(48,12), C(36,12), C(24,12).
_SUBSET_COUNTS = (comb(48, 12), comb(36, 12), comb(24, 12))


class DealSecretError(EngineError):
    """A deal secret that is not 32 bytes (or its hex form is not 64 hex digits)."""


class DealNumberError(EngineError):
    """A deal number outside 0 .. DEAL_COUNT - 1, or not an integer."""


# -- secrets and commitments ------------------------------------------------------------


def new_secret() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG (:mod:`secrets`, never :mod:`random`)."""
    return secrets.token_bytes(SECRET_SIZE)


def secret_from_hex(text: str) -> bytes:
    """The 32-byte secret from its 64 hex digits (the form of ``championship.deal_secret``).

    Surrounding spaces are ignored, upper or lower case accepted. Raises
    :class:`DealSecretError` when the text is not 64 hex digits; the message gives the
    length found, never the text, so a near-miss secret does not end up in a log.
    """
    if not isinstance(text, str):
        raise DealSecretError(f"a deal secret in hex must be text, got {type(text).__name__}")
    clean = text.strip()
    if len(clean) != 2 * SECRET_SIZE:
        raise DealSecretError(
            f"a deal secret in hex must be {2 * SECRET_SIZE} hex digits, "
            f"got {len(clean)} characters"
        )
    try:
        secret = bytes.fromhex(clean)
    except ValueError:
        raise DealSecretError(
            f"a deal secret in hex must be {2 * SECRET_SIZE} hex digits (0-9, a-f); "
            "the text given has other characters"
        ) from None
    _check_secret(secret)
    return secret


def deal_commitment(secret: bytes) -> str:
    """The SHA-256 commitment to a secret, 64 lower-case hex digits, to publish before play.

    Exactly the bytes hashed: the 38 ASCII bytes ``botifarra-duplicate/deal-commitment/v1``
    followed by the 32 secret bytes (70 bytes). In a shell, with the secret in hex::

        (printf 'botifarra-duplicate/deal-commitment/v1'; echo -n "$SECRET_HEX" | xxd -r -p) \\
          | sha256sum

    Raises :class:`DealSecretError` when ``secret`` is not 32 bytes.
    """
    _check_secret(secret)
    return hashlib.sha256(COMMITMENT_TAG + secret).hexdigest()


def verify_commitment(secret: bytes, commitment: str) -> bool:
    """True when ``commitment`` (hex, any case, surrounding spaces ignored) commits to ``secret``.

    The comparison takes constant time. A commitment that is not 64 hex digits is simply
    not a match (False). Raises :class:`DealSecretError` when ``secret`` is not 32 bytes.
    """
    expected = deal_commitment(secret)
    if not isinstance(commitment, str):
        return False
    given = commitment.strip().lower().encode("utf-8", "replace")
    return hmac.compare_digest(expected.encode("ascii"), given)


# -- generation -------------------------------------------------------------------------


def generate_deal(secret: bytes, board_number: int) -> Deal:
    """The deal of board ``board_number`` (1, 2, ...) drawn from ``secret`` (32 bytes).

    The same secret and number give the same deal everywhere; each of the
    :data:`DEAL_COUNT` deals is equally likely; deals of different boards or secrets are
    independent, and published deals reveal nothing of the secret or of other boards (as
    far as HMAC-SHA256 is a pseudorandom function). Algorithm: the module docstring.

    Raises :class:`DealSecretError` for a secret that is not 32 bytes and ``ValueError``
    for a board number that is not an integer in 1 .. 2^64 - 1.
    """
    return unrank_deal(generate_deal_number(secret, board_number))


def generate_deal_number(secret: bytes, board_number: int) -> int:
    """The deal number (0 .. DEAL_COUNT - 1) of board ``board_number`` drawn from ``secret``.

    Same errors as :func:`generate_deal`, which is ``unrank_deal`` of this number.
    """
    _check_secret(secret)
    _check_board_number(board_number)
    return _uniform_below(DEAL_COUNT, _hmac_blocks(secret, board_number))


def _hmac_blocks(secret: bytes, board_number: int) -> Iterator[bytes]:
    """HMAC-SHA256 outputs for counters 0, 1, 2, ... (counter mode, domain-separated)."""
    prefix = DEAL_TAG + board_number.to_bytes(8, "big")
    for counter in itertools.count():
        # 2^32 tries would each fail with probability ~0.24: the counter never overflows.
        message = prefix + counter.to_bytes(4, "big")
        yield hmac.new(secret, message, hashlib.sha256).digest()


def _uniform_below(limit: int, blocks: Iterable[bytes]) -> int:
    """A uniform integer in ``[0, limit)`` by rejection sampling of random blocks.

    Each block's first ``ceil(bits(limit) / 8)`` bytes are read big-endian; the first
    value below ``limit`` is returned, the others are rejected (never reduced modulo
    ``limit``, which would favour the small numbers). Raises ``ValueError`` if the
    blocks run out (only a finite test stream can).
    """
    size = (limit.bit_length() + 7) // 8
    for block in blocks:
        if len(block) < size:
            raise ValueError(f"a random block of {len(block)} bytes is shorter than {size}")
        value = int.from_bytes(block[:size], "big")
        if value < limit:
            return value
    raise ValueError("the random blocks ran out before a value was accepted")


# -- deal numbers -----------------------------------------------------------------------


def rank_deal(deal: Deal) -> int:
    """The deal number of ``deal``, 0 .. DEAL_COUNT - 1 (the inverse of :func:`unrank_deal`).

    Numbering: the module docstring (combinatorial number system, cards in DECK index
    order, hands ranked N, E, S).
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"rank_deal takes a Deal, got {type(deal).__name__}")
    free = list(range(_DECK_SIZE))  # DECK indices not yet given to a ranked seat
    number = 0
    for seat, count in zip(RANK_SEATS, _SUBSET_COUNTS, strict=False):
        held = {card.index for card in deal[seat]}
        subset_rank = 0
        k = 0
        for position, index in enumerate(free):
            if index in held:
                k += 1
                subset_rank += _BINOM[position][k]
        number = number * count + subset_rank
        free = [index for index in free if index not in held]
    return number


def unrank_deal(number: int) -> Deal:
    """The deal whose deal number is ``number`` (0 .. DEAL_COUNT - 1); inverse of :func:`rank_deal`.

    >>> first = unrank_deal(0)
    >>> [" ".join(map(str, first[seat][:2])) for seat in (Seat.N, Seat.E, Seat.S, Seat.W)]
    ['9O 1O', '9C 1C', '9E 1E', '9B 1B']

    Raises :class:`DealNumberError` for a number out of range or not an integer.
    """
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(f"a deal number must be an integer, got {number!r}")
    if not 0 <= number < DEAL_COUNT:
        raise DealNumberError(f"deal number {number} is not in 0 .. {DEAL_COUNT - 1}")
    rank_s = number % _SUBSET_COUNTS[2]
    rest = number // _SUBSET_COUNTS[2]
    rank_e = rest % _SUBSET_COUNTS[1]
    rank_n = rest // _SUBSET_COUNTS[1]
    free = list(range(_DECK_SIZE))
    hands: list[tuple[Card, ...]] = []
    for subset_rank in (rank_n, rank_e, rank_s):
        positions = _unrank_subset(subset_rank, len(free))
        hands.append(tuple(DECK[free[p]] for p in positions))
        taken = set(positions)
        free = [index for p, index in enumerate(free) if p not in taken]
    hands.append(tuple(DECK[index] for index in free))
    # Cards come out in DECK index order, which is Deal's display order, and the four
    # hands partition the deck by construction: no need for Deal.from_hands' checks.
    north, east, south, west = hands
    return Deal(north=north, east=east, south=south, west=west)


def _unrank_subset(subset_rank: int, size: int) -> list[int]:
    """Positions (ascending) of the 12-subset of ``range(size)`` with colex rank ``subset_rank``."""
    positions: list[int] = []
    k = HAND_SIZE
    for position in range(size - 1, -1, -1):
        if k == 0:
            break
        count = _BINOM[position][k]
        if subset_rank >= count:
            positions.append(position)
            subset_rank -= count
            k -= 1
    positions.reverse()
    return positions


# -- input checks -----------------------------------------------------------------------


def _check_secret(secret: bytes) -> None:
    # The message names the type and length, never the bytes: a secret must not leak to logs.
    if not isinstance(secret, bytes):
        hint = " (decode hex with secret_from_hex)" if isinstance(secret, str) else ""
        raise DealSecretError(f"a deal secret must be bytes, got {type(secret).__name__}{hint}")
    if len(secret) != SECRET_SIZE:
        raise DealSecretError(
            f"a deal secret must be {SECRET_SIZE} bytes long, got {len(secret)} bytes"
        )


def _check_board_number(board_number: int) -> None:
    if isinstance(board_number, bool) or not isinstance(board_number, int):
        raise ValueError(f"board number {board_number!r} must be an integer >= 1")
    if not 1 <= board_number <= MAX_BOARD_NUMBER:
        raise ValueError(f"board number {board_number} must be in 1 .. {MAX_BOARD_NUMBER}")
