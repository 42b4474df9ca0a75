"""Double-dummy analysis of the boards: ``engine.dd_table`` and ``engine.par`` stored as
:class:`tournaments.models.BoardAnalysis` (docs/decisions.md "Double-dummy analysis").

How the tables get computed:

- :func:`tournaments.services.round_close` sends, once its transaction commits, one
  Celery task per board of the round (:func:`round_analysis_enqueue`,
  ``tournaments.tasks.board_analysis_task``) when ``settings.BOARD_ANALYSIS_ON_CLOSE``
  is on (the default). Without a broker there is no worker: the same tasks run, board
  after board, on the web process's one background thread (``enqueue.in_background``),
  so the request that closed the round does not wait for the solver and no two rounds'
  tables are computed at once; no board is started after
  ``settings.CELERY_TASK_SOFT_TIME_LIMIT`` seconds (the time a worker gives one task).
  A broker that cannot be reached, or a task that fails, never undoes the close: it is
  logged.
- ``manage.py analyse_boards SLUG [--round N]`` (:func:`boards_analyse`) computes the
  missing or stale ones on demand: imported championships, a site without a worker,
  a broker that was down.

A table is shown only where the deal itself is shown (``selectors.traveller``, the live
traveller, the printed travellers), and only while it is current: computed from the
board's deal and play settings as they are now (``BoardAnalysis.source``).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

from engine import dd_table, par
from tournaments import enqueue
from tournaments.models import Board, BoardAnalysis, Championship
from tournaments.services.common import bump_results_version

log = logging.getLogger(__name__)

#: How the five declarations are keyed in ``BoardAnalysis.table`` (a result's ``trump``).
TRUMP_KEYS = ("O", "C", "E", "B", "botifarra")


def _key(trump: object) -> str:
    return "botifarra" if trump is None else str(trump)


def board_analyse(*, board_id: int, force: bool = False) -> BoardAnalysis | None:
    """Compute and store the double-dummy table and par of board ``board_id``.

    Returns the stored :class:`BoardAnalysis` (the existing one, untouched, when it is
    current and ``force`` is not set), or ``None`` when there is nothing to analyse: no
    such board, no deal yet, or the deal or play settings changed while the solver ran
    (the table would be stale; the next run computes the new one).

    The solver runs outside any transaction (about half a second per board, a few seconds
    at worst); the row is then written in a short one that locks the board and bumps the
    championship's results version, so the pages that show the deal show the table.
    Raises ``engine.EngineError`` for a stored deal that is not a deal.
    """
    board = Board.objects.select_related("championship").filter(pk=board_id).first()
    if board is None or board.deal is None:
        return None
    rules = board.championship.engine_rules()
    source = BoardAnalysis.source_of(board.deal, rules)
    if not force:
        existing = BoardAnalysis.objects.filter(board_id=board_id).first()
        if existing is not None and existing.source == source:
            return existing
    deal = board.get_deal()
    assert deal is not None
    started = time.perf_counter()
    table = dd_table(deal, board.dealer, rules)
    seconds = time.perf_counter() - started
    best = par(table, board.dealer)
    with transaction.atomic():
        locked = (
            # The board's row only, FOR NO KEY UPDATE (a new deal waits; a result's
            # foreign-key check, KEY SHARE, does not): a result save holds the
            # championship's row and takes the board's at its commit, so a lock on both,
            # or one a result's check waits for, could deadlock with it.
            Board.objects.select_for_update(no_key=True, of=("self",))
            .select_related("championship")
            .filter(pk=board_id).first()
        )
        if locked is None or BoardAnalysis.source_of(
            locked.deal, locked.championship.engine_rules()
        ) != source:
            return None
        analysis, _created = BoardAnalysis.objects.update_or_create(
            board=locked,
            defaults={
                "table": {_key(trump): ns for trump, ns in table.items()},
                "par": {"trump": _key(best.trump), "ns_points": best.ns_points,
                        "score": best.score},
                "source": source,
                "seconds": round(seconds, 3),
            },
        )
        # The traveller pages and documents are cached per results version.
        bump_results_version(locked.championship_id)
    log.info("board %s analysed in %.1f s", board_id, seconds)
    return analysis


def round_analysis_enqueue(*, round_id: int) -> list[int]:
    """Send one ``board_analysis_task`` per board of round ``round_id`` that has a deal,
    in board order; returns the ids of the boards sent.

    Meant for ``transaction.on_commit`` after the round closes: a broker that cannot be
    reached stops the sending and is logged, and a task run in-process (no broker) that
    fails is logged too; neither raises, since the round is closed by then and
    ``manage.py analyse_boards`` can fill the gap.
    """
    board_ids = list(
        Board.objects.filter(round_id=round_id, deal__isnull=False)
        .order_by("number").values_list("pk", flat=True)
    )
    if enqueue.runs_in_process():
        enqueue.in_background(functools.partial(
            _analyse_in_process, round_id, board_ids, settings.CELERY_TASK_SOFT_TIME_LIMIT
        ))
        return board_ids
    sent: list[int] = []
    for board_id in board_ids:
        try:
            enqueue.board_analysis(board_id)
        except (BrokerError, OSError) as exc:
            log.error("round %s: board analysis not queued (%s); "
                      "run manage.py analyse_boards", round_id, exc)
            break
        except Exception:  # an in-process run that failed: the close stands
            log.exception("round %s: analysis of board %s failed", round_id, board_id)
            continue
        sent.append(board_id)
    return sent


def _analyse_in_process(round_id: int, board_ids: list[int], budget: float) -> list[int]:
    """The boards' tasks run here, in order (no broker; on the background thread), until
    ``budget`` seconds are spent; returns the ids of the boards run. A task logs its own
    failure (``tasks.board_analysis_task``); the boards left are logged."""
    started = time.monotonic()
    done: list[int] = []
    for board_id in board_ids:
        if time.monotonic() - started >= budget:
            log.error("round %s: double-dummy analysis over its %s s; boards left: %s "
                      "(run manage.py analyse_boards)", round_id, budget,
                      board_ids[len(done):])
            break
        try:
            enqueue.board_analysis(board_id)
        except Exception:  # the task catches its own; a task module that fails to load
            log.exception("round %s: analysis of board %s failed", round_id, board_id)
        done.append(board_id)
    return done


@dataclass
class AnalysisRun:
    """What :func:`boards_analyse` did: board numbers ``computed`` now, already
    ``current``, ``without_deal``, and ``left`` (not reached within the time budget);
    ``seconds`` of solver in all."""

    computed: list[int] = field(default_factory=list)
    current: list[int] = field(default_factory=list)
    without_deal: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    seconds: float = 0.0


def boards_analyse(
    *,
    championship: Championship,
    round_number: int | None = None,
    force: bool = False,
    budget: float | None = None,
    on_board: Callable[[int, BoardAnalysis | None], None] | None = None,
) -> AnalysisRun:
    """Compute the missing or stale double-dummy tables of a championship's boards (of
    round ``round_number`` only when given), in board order, each with
    :func:`board_analyse` (``force``: every one again).

    ``budget``: seconds after which no further board is started (the boards not reached
    are listed in ``left``); ``None``: no limit. ``on_board(number, analysis)`` is
    called after each board (progress output). Raises ``ValueError`` when the
    championship has no round ``round_number``.
    """
    boards = Board.objects.filter(championship=championship)
    if round_number is not None:
        if not championship.rounds.filter(number=round_number).exists():
            raise ValueError(f"the championship has no round {round_number}")
        boards = boards.filter(round__number=round_number)
    run = AnalysisRun()
    rules = championship.engine_rules()
    stored = {
        a.board_id: a for a in BoardAnalysis.objects.filter(board__in=boards)
    }
    started = time.perf_counter()
    for board in boards.order_by("number"):
        if board.deal is None:
            run.without_deal.append(board.number)
            continue
        existing = stored.get(board.pk)
        if not force and existing is not None and existing.is_current(board, rules):
            run.current.append(board.number)
            continue
        if budget is not None and time.perf_counter() - started >= budget:
            run.left.append(board.number)
            continue
        analysis = board_analyse(board_id=board.pk, force=force)
        if analysis is None:
            run.left.append(board.number)
        else:
            run.computed.append(board.number)
            run.seconds += analysis.seconds
        if on_board is not None:
            on_board(board.number, analysis)
    return run
