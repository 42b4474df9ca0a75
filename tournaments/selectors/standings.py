"""Standings (overall, per round, after each round) with the progress of the results: the
one read model the standings page, its live fragment, the hall screen, the API and the
printed standings render.

:func:`standings` builds a :class:`Standings` value of plain numbers and strings (no
model instance) from one scoring of the championship: ranks, totals and averages from
``scoring``, the percentage from ``scoring.percentage``, the progress from
``scoring.progress``, and each number's text as the pages and the PDF print it
(:mod:`.formats`, in the active language). The page, the fragment and the PDF print the
``*_text`` fields; the API sends the ``*_out`` numbers (the export's values). None of
them computes a number of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

import scoring
from scoring.progress import Progress, RoundProgress, count_progress
from scoring.progress import rounds_progress as count_rounds_progress
from scoring.visibility import count_by
from tournaments.models import Championship, Pair, Person, Result
from tournaments.numbers import average_out, comparative_out
from tournaments.selectors.formats import column, column_places, percent_column, percent_value
from tournaments.selectors.games import games_progress
from tournaments.selectors.names import fold, short_name
from tournaments.selectors.results import ScoredChampionship, scored_or_new, visibility

# --------------------------------------------------------------------------- pairs


@dataclass(frozen=True, slots=True)
class PairName:
    """A pair as the read models name it: number, the two players' names, the last
    round it played when it withdrew (``None`` while in play), and the short names the
    organiser gave the players (``Player.short_name``; empty: the default short form)."""

    number: int
    player1: str
    player2: str
    withdrawn_after_round: int | None
    short1: str = ""
    short2: str = ""

    @property
    def names(self) -> str:
        """"Jordi Vila – Anna Puig"."""
        return f"{self.player1} – {self.player2}"

    @property
    def short(self) -> str:
        """"J. M. Vilaseca – A. Puig": each player's short name, else the default short
        form of the name (:func:`.names.short_name`). The one short form every page,
        screen, PDF and API "short" field shows."""
        return (f"{self.short1 or short_name(self.player1)} – "
                f"{self.short2 or short_name(self.player2)}")

    @property
    def search_text(self) -> str:
        """Every name "find my pair" looks in, as one line: both players' names, their
        short names and the short form ("Josep Maria Vilaseca Núria Fuente J. M.
        Vilaseca – N. Fuente"). The standings rows carry it for the page's script."""
        return " ".join(" ".join(text.split()) for text in (
            self.player1, self.player2, self.short1, self.short2, self.short) if text)

    def matches(self, query: str) -> bool:
        """Whether ``query`` (a number, or words each found in either player's name,
        short names included, in any order; case and accents ignored) finds this pair
        ("find my pair").

        >>> pair = PairName(7, "Josep Maria Vilaseca", "Montse Puigdomènech", None)
        >>> [pair.matches(q) for q in ("vilaseca", "MONTSE", "puigdomenech", "7", "8", "")]
        [True, True, True, True, False, False]
        >>> [pair.matches(q) for q in ("Puigdomenech Vila", "montse josep", "vila pere")]
        [True, True, False]
        """
        wanted = fold(query).split()
        if not wanted:
            return False
        if len(wanted) == 1 and wanted[0].isdigit():
            return wanted[0].lstrip("0") == str(self.number)
        haystack = fold(self.search_text)
        return all(word in haystack for word in wanted)


#: A pair's columns as :func:`pair_name` reads them, after a prefix to the pair: the
#: :class:`PairName` fields, then each player's person, whether that person asked to be
#: shown as "Jugador N" (``Person.public_alias``) and the person it was merged into.
PAIR_NAME_COLUMNS = ("number", "player1__name", "player2__name", "withdrawn_after_round",
                     "player1__short_name", "player2__short_name",
                     "player1__person_id", "player1__person__public_alias",
                     "player1__person__merged_into_id",
                     "player2__person_id", "player2__person__public_alias",
                     "player2__person__merged_into_id")
#: How many of :data:`PAIR_NAME_COLUMNS` are :class:`PairName`'s own fields (the rest
#: are the players' persons, for :func:`pair_name`'s aliases).
PAIR_NAME_FIELDS = _NAME_FIELDS = 6


def alias_name(person_id: int) -> str:
    """What the public reads instead of the name of a person who asked not to be named
    or was anonymised: "Jugador 123" (the person's number)."""
    return _("Jugador %(number)s") % {"number": person_id}


def pair_name(row: Sequence[Any], aliases: dict[int, int | None] | None = None) -> PairName:
    """A :class:`PairName` from a row of :data:`PAIR_NAME_COLUMNS`: a player whose person
    asked not to be named reads as "Jugador N" (no short name). ``aliases``: for the
    players whose person was merged into another, ``{merged person: the kept person's id
    when it asked not to be named, else None}`` (:func:`merged_aliases`); without it a
    merged person's own flag counts."""
    names = list(row[:_NAME_FIELDS])
    for k, (person, alias, merged) in enumerate((row[6:9], row[9:12])):
        if person is None:
            continue
        shown: int | None = person if alias else None
        if merged is not None and aliases is not None:
            shown = aliases.get(person)
        if shown is not None:
            names[1 + k] = alias_name(shown)
            names[4 + k] = ""
    return PairName(*names)


def merged_aliases(rows: Sequence[Sequence[Any]], offsets: Sequence[int] = (0,)
                   ) -> dict[int, int | None] | None:
    """For :func:`pair_name`: ``None`` when no player of ``rows`` (each holding
    :data:`PAIR_NAME_COLUMNS` at each of ``offsets``) links to a merged person (the usual
    case: no query), else the merged persons' kept records' aliases (two queries)."""
    merged = {row[o + i] for row in rows for o in offsets for i in (6, 9)
              if row[o + i + 2] is not None}
    if not merged:
        return None
    links = dict(Person.objects.filter(merged_into__isnull=False)
                 .values_list("id", "merged_into_id"))
    ends: dict[int, int] = {}
    for start in merged:
        end, seen = start, {start}
        while end in links and links[end] not in seen:
            end = links[end]
            seen.add(end)
        ends[start] = end
    aliased = set(Person.objects.filter(pk__in=set(ends.values()), public_alias=True)
                  .values_list("id", flat=True))
    return {start: (end if end in aliased else None) for start, end in ends.items()}


def pair_names(championship: Championship) -> dict[int, PairName]:
    """``{number: PairName}`` read as tuples (one query; two more when a player links
    to a merged person): the one place the pages, screens, PDFs and API read a pair's
    names, so a person shown as "Jugador N" is so everywhere."""
    # No ordering: the model's default joins the championship row, which every save
    # bumps, and the names are read into a dict anyway.
    rows = list(Pair.objects.filter(championship=championship).order_by().values_list(
        *PAIR_NAME_COLUMNS))
    aliases = merged_aliases(rows)
    return {row[0]: pair_name(row, aliases) for row in rows}


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings.

    ``total`` and ``average``: comparative points on the championship's scale, exact
    (``Fraction``); ``total_out``/``average_out``: the same as the export and the API
    write them (``tournaments.numbers``); ``percentage``: the average as a percentage of
    the scale (``scoring.percentage``), one decimal. ``*_text``: what the page, the hall
    and the PDF print (the same decimals down a column, at most
    :data:`.formats.MAX_DECIMALS`; the active language's separator). ``missed``: boards
    scored as average (A) under that missed-board rule.

    A pair with no score in the scope (a bye or a late entry under ``per_board``:
    ``scoring.Standing.has_score``) has ``has_score`` false, ``total`` and ``average`` 0,
    ``None`` for ``percentage`` and the ``*_out`` numbers and ``—`` for the texts.
    ``bye``: it sat out the scope's last round with a bye; ``joins``: the round a late
    pair joins, after the scope; :attr:`status` names the mark a row carries.

    ``rank``: the row's place (``scoring.Standing.place``); ``None`` for a row with no
    place (no score in the scope, or withdrawn in it), which :attr:`rank_text` shows
    as ``—`` and the API sends as null.
    """

    rank: int | None
    pair: PairName
    boards: int
    missed: int
    withdrawn: bool
    total: Fraction
    average: Fraction
    percentage: float | None
    total_out: int | float | None
    average_out: float | None
    total_text: str
    average_text: str
    percent_text: str
    has_score: bool = True
    bye: bool = False
    joins: int | None = None

    @property
    def number(self) -> int:
        return self.pair.number

    @property
    def rank_text(self) -> str:
        """The place as the page, the hall and the PDF print it: ``—`` when none."""
        return "—" if self.rank is None else str(self.rank)

    @property
    def status(self) -> str:
        """The row's mark: ``withdrawn``, ``bye`` (sat out the scope's last round),
        ``late`` (joins after the scope) or ``playing``; the API sends it, the pages and
        the PDF word it."""
        if self.withdrawn:
            return "withdrawn"
        if self.bye:
            return "bye"
        if self.joins is not None:
            return "late"
        return "playing"


@dataclass(frozen=True, slots=True)
class Standings:
    """Standings of a championship: ``rows`` ranked; ``progress``, results in / expected
    of the rounds in scope; ``rounds``, the round numbers with tables (for per-round
    links); ``round_progress``, every drawn round's progress (the hall's bar);
    ``through_round`` or ``round_only``, the scope asked (neither: overall);
    ``by_average``, the rows rank by average per board (``scoring``'s
    ``ranks_by_average``), so the average is the first number a row shows, else the
    total is."""

    rows: tuple[StandingRow, ...]
    progress: Progress
    rounds: tuple[int, ...]
    round_progress: tuple[RoundProgress, ...] = ()
    through_round: int | None = None
    round_only: int | None = None
    by_average: bool = False


def total_places(ranked: Sequence[scoring.Standing], names: dict[int, PairName],
                 rules: scoring.ScoringRules) -> int:
    """The decimals the standings' total column is written with (:func:`standing_rows`):
    a pair card's running totals use them too, so that its total reads as it does in
    the standings."""
    return column_places(
        [s.total if s.has_score else None for s in ranked if s.pair in names], rules)


def standing_rows(
    ranked: Sequence[scoring.Standing], names: dict[int, PairName],
    rules: scoring.ScoringRules,
) -> tuple[StandingRow, ...]:
    """``scoring``'s standings as :class:`StandingRow` values, each column's text
    formatted once for the whole column (no query); a row with no score has ``—`` in
    each. A pair with no row (deleted) is left out."""
    kept = [s for s in ranked if s.pair in names]
    percentages = [percent_value(s.average, rules) if s.has_score else None for s in kept]
    return tuple(
        StandingRow(
            rank=s.place, pair=names[s.pair], boards=s.boards, missed=s.missed,
            withdrawn=s.withdrawn, total=s.total, average=s.average, percentage=pct,
            total_out=comparative_out(s.total, rules) if s.has_score else None,
            average_out=average_out(s.average) if s.has_score else None,
            total_text=total, average_text=average, percent_text=pct_text,
            has_score=s.has_score, bye=s.bye, joins=s.joins,
        )
        for s, pct, total, average, pct_text in zip(
            kept, percentages,
            column([s.total if s.has_score else None for s in kept], rules,
                   places=total_places(kept, names, rules)),
            column([s.average if s.has_score else None for s in kept], rules),
            percent_column(percentages), strict=True,
        )
    )


def progress_of(scored: ScoredChampionship, *, through_round: int | None = None,
                round_only: int | None = None) -> Progress:
    """Results in / results expected of the rounds in scope (all, 1..``through_round``
    or ``round_only``; the rule: ``scoring.progress.count_progress``). Every result
    counts, hidden boards' too: it says how many are in, not what they are. No query
    (``scored`` holds the rows)."""
    seen = scored.visibility
    return count_progress(
        board_rounds=seen.board_rounds, tables_due=seen.tables_due,
        results=[(r.round, r.board_round) for r in scored.all_results],
        through_round=through_round, round_only=round_only,
    )


def rounds_progress(scored: ScoredChampionship) -> list[RoundProgress]:
    """Every drawn round's progress from an already scored championship (no query; the
    rule: ``scoring.progress.rounds_progress``)."""
    seen = scored.visibility
    return count_rounds_progress(
        board_rounds=seen.board_rounds, tables_due=seen.tables_due,
        results=[(r.round, r.board_round) for r in scored.all_results], public=seen.public,
    )


def round_progress(championship: Championship) -> dict[int, RoundProgress]:
    """``{round number: RoundProgress}`` of every drawn round, as :func:`rounds_progress`
    counts it, without scoring anything: for the organiser's pages (the championship's
    rounds, closing a round). Three queries: each result's round, board and board's
    round; the boards; the tables seated per round. A classic championship counts its
    games in out of its tables (``games_progress``, two queries)."""
    if championship.is_classic:
        return games_progress(championship)
    rows = list(Result.objects.filter(board__championship=championship).values_list(
        "seating__round__number", "board__round__number", "board__number"))
    seen = visibility(
        championship, results_per_board=count_by(board for _r, _b, board in rows))
    return {
        p.number: p
        for p in count_rounds_progress(
            board_rounds=seen.board_rounds, tables_due=seen.tables_due,
            results=[(played, board_round) for played, board_round, _board in rows],
            public=seen.public,
        )
    }



def standings(
    championship: Championship,
    *,
    through_round: int | None = None,
    round_only: int | None = None,
    for_public: bool = False,
    scored: ScoredChampionship | None = None,
) -> Standings:
    """Overall standings, standings after round ``through_round`` (rounds 1..n) or of
    ``round_only`` alone, with progress (results in / expected in that scope) and every
    round's progress.

    ``for_public=True`` (the public, a plain referee, the API, printed standings): the
    rows count only the boards public now (:func:`scored_championship`), so saving a
    result on a hidden board changes no public total, board count, average or rank; the
    progress still counts every result (it says how many are in, not what they are).
    ``scored``: the championship already scored that way (the live pages keep one per
    results version), else scored here.

    Five queries, whatever the size (results, boards, tables per round, absences, pair
    names); one when ``scored`` is given. Comparative points are those of the whole
    championship (``scoring.ChampionshipScore.standings``). Raises ``ValueError`` when
    both scopes are given.
    """
    scored = scored_or_new(championship, public_only=for_public, scored=scored)
    ranked = scored.score.standings(through_round=through_round, round_only=round_only)
    return Standings(
        rows=standing_rows(ranked, pair_names(championship), championship.scoring_rules()),
        progress=progress_of(scored, through_round=through_round, round_only=round_only),
        rounds=tuple(sorted(scored.visibility.tables_due)),
        round_progress=tuple(rounds_progress(scored)),
        through_round=through_round,
        round_only=round_only,
        by_average=scored.score.ranks_by_average,
    )


def standings_after_each_round(
    championship: Championship, *, for_public: bool = False,
    scored: ScoredChampionship | None = None,
) -> dict[int, tuple[StandingRow, ...]]:
    """``{round: standings over rounds 1..round}`` for every round with results, rows as
    :func:`standings` makes them (five queries, one when ``scored`` is given;
    ``for_public`` counts only the public boards, as :func:`standings` does)."""
    scored = scored_or_new(championship, public_only=for_public, scored=scored)
    names = pair_names(championship)
    rules = championship.scoring_rules()
    return {
        n: standing_rows(rows, names, rules)
        for n, rows in scored.score.progressive_standings().items()
    }
