"""What the public reads of a classic championship on the live pages: the standings, a
pair's card, a round's games and the hall screen, each one frozen value built from
:mod:`tournaments.selectors.classic` (which computes every number through
``scoring.classic``); :mod:`tournaments.web.live` renders and caches them.

The games, byes, tables and pairs are read once per results version and kept by the
process for ``LIVE_STALE_SECONDS`` (:func:`games_for_version`), so the fragments a change
makes stale (the standings, the hall, the round) read them once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from scoring.progress import RoundProgress
from tournaments.models import Championship, Round
from tournaments.selectors.classic import (
    CardLine,
    ChampionshipGames,
    ClassicRow,
    ClassicStandings,
    RoundGames,
    TableGame,
    championship_games,
    classic_standings,
    pair_card,
    round_games,
)
from tournaments.selectors.hall import current_progress
from tournaments.selectors.standings import PairName, pair_names

# --------------------------------------------------------------------------- the games

#: ``{championship id: (its creation, version, time.monotonic(), games)}``.
_GAMES: dict[int, tuple[Any, int, float, ChampionshipGames]] = {}


def games_for_version(championship: Championship) -> ChampionshipGames:
    """:func:`championship_games` of the championship's version (four queries), kept by
    this process ``LIVE_STALE_SECONDS`` (0: read every time). Every write bumps the
    version, so the kept games are never older than the version they are kept for."""
    keep = float(getattr(settings, "LIVE_STALE_SECONDS", 0) or 0)
    if keep <= 0:
        return championship_games(championship)
    now = time.monotonic()
    kept = _GAMES.get(championship.pk)
    if (kept is not None and kept[0] == championship.created_at
            and kept[1] == championship.results_version and now - kept[2] < keep):
        return kept[3]
    data = championship_games(championship)
    if len(_GAMES) > 64:
        _GAMES.clear()
    _GAMES[championship.pk] = (championship.created_at, championship.results_version,
                               now, data)
    return data


def forget_games() -> None:
    """Forget the games this process keeps (tests)."""
    _GAMES.clear()


# --------------------------------------------------------------------------- standings


def live_classic_standings(championship: Championship, *, through_round: int | None = None
                           ) -> ClassicStandings:
    """:func:`tournaments.selectors.classic.classic_standings` over rounds
    1..``through_round`` (every round when ``None``): five queries when the games are not
    kept (the games, byes, tables, pairs, the pair names)."""
    return classic_standings(championship, through_round=through_round,
                             data=games_for_version(championship))


# --------------------------------------------------------------------------- pair card


@dataclass(frozen=True, slots=True)
class ClassicCard:
    """A pair's card: ``pair``; ``row``, its line of the overall standings; ``lines``,
    round by round (:class:`CardLine`); ``ranks``, ``(round, rank)`` after each round it
    had a place, its game in (or its bye); ``pairs_ranked``, the field's size (the
    chart's scale)."""

    pair: PairName
    row: ClassicRow | None
    lines: tuple[CardLine, ...]
    ranks: tuple[tuple[int, int], ...]
    pairs_ranked: int


def live_classic_card(championship: Championship, number: int) -> ClassicCard | None:
    """Pair ``number``'s card (``None``: no such pair). A constant number of queries
    (the pair names, the standings' games, the card's games and seats)."""
    names = pair_names(championship)
    if number not in names:
        return None
    standings = live_classic_standings(championship)
    row = next((r for r in standings.rows if r.number == number), None)
    lines = tuple(pair_card(championship, number))
    return ClassicCard(
        pair=names[number], row=row, lines=lines,
        # A round still being played has no place on the chart yet: only the rounds
        # whose game is in, and the pair's byes.
        ranks=tuple((line.round, line.rank_after) for line in lines
                    if line.rank_after is not None and line.result != "playing"),
        pairs_ranked=len(standings.rows),
    )


# --------------------------------------------------------------------------- a round


def live_round_games(championship: Championship, number: int) -> RoundGames | None:
    """Round ``number``'s tables with their games and its byes (``None``: no such
    round). Four queries."""
    found = Round.objects.filter(championship=championship, number=number).first()
    if found is None:
        return None
    return round_games(championship, found)


# --------------------------------------------------------------------------- hall


@dataclass(frozen=True, slots=True)
class ClassicHall:
    """The hall screen of a classic championship: ``standings`` overall; ``current``, the
    round being played (the first with games missing, else the last drawn); ``playing``,
    its tables whose game is not in yet; ``byes``, its pairs that sit out."""

    standings: ClassicStandings
    current: RoundProgress | None
    playing: tuple[TableGame, ...]
    byes: tuple[PairName, ...]


def live_classic_hall(championship: Championship) -> ClassicHall:
    """The hall screen's values: the standings and the current round's games still
    played. A constant number of queries."""
    standings = live_classic_standings(championship)
    current = current_progress(standings.round_progress)
    games = None if current is None else live_round_games(championship, current.number)
    return ClassicHall(
        standings=standings, current=current,
        playing=() if games is None else tuple(t for t in games.tables if t.game is None),
        byes=() if games is None else games.byes,
    )
