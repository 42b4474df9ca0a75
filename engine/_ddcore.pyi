"""Type stub of the compiled double-dummy core (engine/_ddcore.c); use engine.dd instead.

Cards are bits ``suit index x 12 + strength`` (strength 11 = the manilla), seats are
play-order indices 0..3 (N, W, S, E), ``trump`` 0..3 or 4 for botifarra, ``flags`` bit 0
lliure, bit 1 carregar, bit 2 carregar also when following suit.
"""

from collections.abc import Sequence

def solve(
    hands: Sequence[int], leader: int, trick: Sequence[int], trump: int, flags: int, /
) -> int: ...
def best(
    hands: Sequence[int], leader: int, trick: Sequence[int], trump: int, flags: int, /
) -> tuple[int, int]: ...
def legal(hand: int, trick: Sequence[int], trump: int, flags: int, /) -> int: ...
def nodes() -> int: ...
def clear() -> None: ...
