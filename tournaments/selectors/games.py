"""The referee's reads of a classic championship's games: each round's games in out of
its tables, the next table still without a game, and the live totals of a score sheet
as it is typed (``scoring.classic`` scores every deal; this module only reads the rows
and arranges the values the game form shows)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring import classic
from scoring.progress import RoundProgress
from scoring.validate import Problem
from tournaments.models import AuditEntry, Championship, Game, Seating

# ---------------------------------------------------------------------------- progress


def games_progress(championship: Championship) -> dict[int, RoundProgress]:
    """``{round number: RoundProgress}`` of every drawn round of a classic championship:
    games in out of tables seated (no boards: ``boards`` 0). Two queries."""
    due: dict[int, int] = defaultdict(int)
    for number in Seating.objects.filter(round__championship=championship).values_list(
            "round__number", flat=True):
        due[number] += 1
    done: dict[int, int] = defaultdict(int)
    for number in Game.objects.filter(seating__round__championship=championship).values_list(
            "seating__round__number", flat=True):
        done[number] += 1
    return {n: RoundProgress(n, done[n], tables, 0, 0) for n, tables in sorted(due.items())}


def next_table_without_game(seating: Seating, after: int) -> int | None:
    """The table of ``seating``'s round the referee goes to after saving table
    ``after``'s game: the first table numbered above it with no game, else the first
    below it; ``None`` when every table of the round has its game (one query)."""
    empty = list(
        Seating.objects.filter(round_id=seating.round_id, game__isnull=True)
        .order_by("table__number").values_list("table__number", flat=True)
    )
    later = [n for n in empty if n > after]
    earlier = [n for n in empty if n < after]
    found = later or earlier
    return found[0] if found else None


def game_history(game: Game) -> list[Any]:
    """The audit rows of one table's game, oldest first (one query)."""
    seating = game.seating
    return list(
        AuditEntry.objects.filter(
            championship_id=seating.round.championship_id,
            action__in=AuditEntry.GAME_ACTIONS,
            round_number=seating.round.number, table_number=seating.table.number,
        ).select_related("acting_user").order_by("at", "id")
    )


# ------------------------------------------------------------------------ a score sheet


@dataclass(frozen=True, slots=True)
class PreviewLine:
    """One typed deal of a score sheet: ``row`` its line on the form (0-based), ``deal``
    its number in the game (1-based), each side's score on it and the running totals;
    the scores are ``None`` from the first line with a problem on."""

    row: int
    deal: int
    ns_score: int | None
    ew_score: int | None
    ns_total: int | None
    ew_total: int | None


@dataclass(frozen=True, slots=True)
class SheetPreview:
    """A score sheet as typed so far: its lines, the problems (fields ``hands[row].x``
    at the form's line ``row``, or ``ended_by``), and, when the sheet is complete and
    valid, the game it records (``game``: final, deals, how it ended). ``playing``: no
    problem, but the game has not reached its end (neither the target nor the deal
    limit): it goes on, or ended on time."""

    lines: tuple[PreviewLine, ...]
    problems: tuple[Problem, ...]
    game: classic.Game | None
    playing: bool

    @property
    def ns_total(self) -> int | None:
        return self.lines[-1].ns_total if self.lines else 0

    @property
    def ew_total(self) -> int | None:
        return self.lines[-1].ew_total if self.lines else 0


def row_field(field: str, rows: Sequence[int]) -> str:
    """A problem's field of the sheet as sent (``hands[k]...``, ``k`` among the typed
    lines) at the form's line instead (``hands[rows[k]]...``)."""
    if not field.startswith("hands["):
        return field
    end = field.index("]")
    k = int(field[6:end])
    return f"hands[{rows[k] if k < len(rows) else k}]{field[end + 1:]}"


def sheet_preview(
    championship: Championship, typed: Sequence[tuple[int, Mapping[str, Any]]],
    *, ended_by: str | None = None, knockout: bool = False,
) -> SheetPreview:
    """The running totals of a score sheet being typed: ``typed`` is each line that is
    not blank as ``(row on the form, raw deal)`` (the keys of
    ``scoring.classic.validate_hand``); ``ended_by`` the end the referee chose, if any
    (``time``, ``adjusted``). Every deal is scored by ``scoring.classic`` under the
    championship's rules (no query; ``knockout``: a knockout round's, see
    ``Championship.classic_rules``)."""
    rules = championship.classic_rules(knockout=knockout)
    problems: list[Problem] = []
    hands: list[classic.Hand] = []
    for row, raw in typed:
        hand, found = classic.validate_hand(raw, rules, path=f"hands[{row}].")
        problems.extend(found)
        if hand is not None and not problems:
            hands.append(hand)
    scored = classic.sheet_lines(hands)
    lines: list[PreviewLine] = []
    for k, (row, _raw) in enumerate(typed):
        if k < len(scored):
            s = scored[k]
            lines.append(PreviewLine(row, k + 1, s.ns_score, s.ew_score,
                                     s.ns_total, s.ew_total))
        else:  # after a line with a problem: not scored
            lines.append(PreviewLine(row, k + 1, None, None, None, None))
    if problems or not hands:
        return SheetPreview(tuple(lines), tuple(problems), None, False)
    rows = [row for row, _raw in typed]
    game, found = classic.play_sheet(hands, rules, ended_by=ended_by)
    playing = [p for p in found if p.code == "sheet_not_finished"]
    others = [Problem(p.code, row_field(p.field, rows), p.params) for p in found
              if p.code != "sheet_not_finished"]
    return SheetPreview(tuple(lines), tuple(others), game, bool(playing) and not others)
