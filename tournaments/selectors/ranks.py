"""The ranks a draw reads: every pair's place in the standings before a round, for
both formats (one read, no writes)."""

from __future__ import annotations

from tournaments import selectors
from tournaments.models import Championship
from tournaments.selectors import classic as classic_selectors


def ranks_before(championship: Championship, round_number: int) -> dict[int, int]:
    """pair -> rank in the standings over the rounds before ``round_number`` (every
    result, the championship's missed-board rule); empty before any result."""
    if round_number <= 1:
        return {}
    if championship.is_classic:
        return classic_selectors.ranks_before(championship, round_number)
    scored = selectors.scored_championship(championship, public_only=False)
    # A pair with no score yet (a bye, a late entry) ranks below every ranked pair, as
    # draw_swiss ranks a pair missing from the ranks.
    return {s.pair: s.rank for s in scored.score.standings(through_round=round_number - 1)
            if s.has_score}
