"""scoring.classic_play: a whole classic game played by the bots ends where the rules end
it, calls only the doubles the championship allows, and is the same for the same seed."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from engine.rules import Rules
from scoring.classic import ClassicRules, EndedBy, LevelGame, hand_game_score, validate_game
from scoring.classic_play import BotGame, play_classic_game
from scoring.model import Trump

SEEDS = range(12)


def totals(game: BotGame) -> list[tuple[int, int]]:
    """The running totals after each deal, added up here deal by deal."""
    ns = ew = 0
    out = []
    for hand in game.hands:
        score = hand_game_score(hand)
        ns, ew = ns + score.ns, ew + score.ew
        out.append((ns, ew))
    return out


def check_end(game: BotGame, rules: ClassicRules) -> None:
    """The game stopped on the deal the rules stop it, and the sheet says so."""
    running = totals(game)
    target = rules.game_target
    assert all(max(t) < target for t in running[:-1])  # nobody reached it before the end
    final = running[-1]
    assert (game.game.ns_points, game.game.ew_points, game.game.deals) == (
        *final, len(game.hands))
    if game.ended_by is EndedBy.TARGET:
        assert max(final) >= target > min(final)
    else:
        assert max(final) < target
    if game.ended_by is EndedBy.DEALS:
        assert rules.max_deals is not None
        level = running[rules.max_deals - 1][0] == running[rules.max_deals - 1][1]
        extra = rules.extra_deals if rules.level_game is LevelGame.EXTRA_DEALS and level else 0
        assert len(game.hands) == rules.max_deals + extra
    elif rules.max_deals is not None:
        assert len(game.hands) <= rules.max_deals
    limit = rules.time_limit_minutes
    if game.ended_by is EndedBy.TIME:
        assert limit is not None and game.minutes >= limit
    if limit is not None:
        assert all(start < limit for start in game.started)  # no deal started past time
    assert len(game.started) == len(game.hands)
    raw = {"hands": [h.as_json() for h in game.hands], "ended_by": game.ended_by.value,
           "ns_points": final[0], "ew_points": final[1], "deals": len(game.hands)}
    stored, problems = validate_game(raw, rules)
    assert problems == [] and stored == game.game


@pytest.mark.parametrize("rules", [
    ClassicRules(),
    ClassicRules(game_target=51, max_deals=None, time_limit_minutes=None),
    ClassicRules(time_limit_minutes=20),
    ClassicRules(max_deals=4, time_limit_minutes=None, level_game=LevelGame.EXTRA_DEALS),
], ids=["defaults", "target-only", "short-time", "four-deals"])
def test_every_game_ends_where_the_rules_end_it(rules: ClassicRules) -> None:
    endings: Counter[EndedBy] = Counter()
    for seed in SEEDS:
        game = play_classic_game(rules, seed=seed)
        check_end(game, rules)
        endings[game.ended_by] += 1
    if rules.max_deals is None and rules.time_limit_minutes is None:
        assert set(endings) == {EndedBy.TARGET}
    if rules.time_limit_minutes == 20:
        assert endings[EndedBy.TIME] >= len(SEEDS) // 2
    if rules == ClassicRules():  # 3.5 to 6.5 minutes a deal: every ending happens
        assert set(endings) == {EndedBy.TARGET, EndedBy.DEALS, EndedBy.TIME}


def test_a_game_level_at_the_deal_limit_plays_the_extra_deals() -> None:
    """One deal then, level (36 to 36: nobody scores), two more."""
    rules = ClassicRules(max_deals=1, extra_deals=2, time_limit_minutes=None,
                         level_game=LevelGame.EXTRA_DEALS)
    lengths: Counter[int] = Counter()
    for seed in range(400):
        game = play_classic_game(rules, seed=seed, revoke_rate=0)
        check_end(game, rules)
        lengths[len(game.hands)] += 1
        if lengths[3]:
            break
    assert lengths[3] == 1


def test_the_same_seed_plays_the_same_game() -> None:
    rules = ClassicRules()
    first = play_classic_game(rules, seed=41)
    assert play_classic_game(rules, seed=41) == first
    assert play_classic_game(rules, seed=42) != first
    # The dealer rotates to the right each deal: N, W, S, E, so the sides alternate.
    sides = [h.chooser for h in first.hands]
    assert all(a is not b for a, b in pairwise(sides))


def test_only_the_doubles_the_championship_allows_are_called() -> None:
    short = {"max_deals": 6, "time_limit_minutes": None}
    free = ClassicRules(sant_vicenc=True, sant_vicenc_on_botifarra=True, **short)
    no_contro = ClassicRules(contro=False, recontro=False, **short)
    no_recontro = ClassicRules(recontro=False, **short)
    no_sv_on_botifarra = ClassicRules(sant_vicenc=True, **short)
    called: Counter[str] = Counter()
    for seed in range(6):
        for hand in play_classic_game(free, Rules(variant="lliure"), seed=seed).hands:
            called["contro"] += hand.contro
        for hand in play_classic_game(no_contro, seed=seed).hands:
            assert not hand.contro and not hand.recontro and not hand.sant_vicenc
        for hand in play_classic_game(no_recontro, seed=seed).hands:
            assert not hand.recontro and not hand.sant_vicenc
            called["contro without recontro"] += hand.contro
        for hand in play_classic_game(no_sv_on_botifarra, seed=seed).hands:
            assert not (hand.sant_vicenc and hand.trump is Trump.BOTIFARRA)
    assert called["contro"] > 0 and called["contro without recontro"] > 0


def test_a_revoke_is_entered_with_its_side_and_no_points() -> None:
    rules = ClassicRules(time_limit_minutes=None)
    game = play_classic_game(rules, seed=5, revoke_rate=1)
    assert all(h.revoke is not None and h.points is None for h in game.hands)
    check_end(game, rules)
    assert play_classic_game(rules, seed=5, revoke_rate=0).hands[0].revoke is None


@pytest.mark.parametrize("minutes", [(0.0, 1.0), (5.0, 4.0), (-1.0, 2.0)])
def test_deal_minutes_out_of_order_are_refused(minutes: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="deal_minutes"):
        play_classic_game(ClassicRules(), seed=1, deal_minutes=minutes)
