"""Referee pages: the round's tables, one table's sheet, the phone-sized result form and
the hand score it asks for as the referee types."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from engine.cards import HAND_POINTS, other_side_points
from tournaments import referee_checks, selectors, services
from tournaments.forms import (
    GameForm,
    ResultForm,
    add_service_error,
    game_initial,
)
from tournaments.game_messages import game_problems
from tournaments.models import (
    Board,
    Championship,
    Game,
    Result,
    Round,
    Seating,
)
from tournaments.permissions import (
    Capability,
    allows,
    roles_of,
)
from tournaments.selectors.classic import round_games
from tournaments.selectors.stages import is_knockout_round
from tournaments.web.common import (
    capability_required,
    int_param,
    page_context,
    round_or_404,
    seating_or_404,
    service_worker,
)


@capability_required(Capability.ENTER_RESULT)
def referee_tables(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Pick a table: the current round (or ``?round=N``) with each table's progress."""
    number = int_param(request, "round")
    rnd = (
        round_or_404(championship, number) if number is not None
        else selectors.current_round(championship)
    )
    rounds = list(Round.objects.filter(championship=championship).order_by("number"))
    if championship.is_classic:
        # Each table's pairs and game (or "en joc"): the classic read model's.
        games = round_games(championship, rnd) if rnd is not None else None
        context = page_context(request, championship, round=rnd, games=games, rounds=rounds)
        context["can_close"] = Capability.CLOSE_ROUND in context["caps"]
        return render(request, "tournaments/referee_games.html", context)
    sheets = selectors.referee_round(rnd) if rnd is not None else []
    context = page_context(request, championship, round=rnd, sheets=sheets, rounds=rounds)
    context["can_close"] = Capability.CLOSE_ROUND in context["caps"]
    return render(request, "tournaments/referee_tables.html", context)


@capability_required(Capability.ENTER_RESULT)
def referee_table(
    request: HttpRequest, championship: Championship, round: int, table: int
) -> HttpResponse:
    """One table: the boards of the round with the dealer of each and its result so far
    (a classic championship's table has one game: its form)."""
    if championship.is_classic:
        return redirect("game_entry", championship.slug, round, table)
    seating = seating_or_404(round_or_404(championship, round), table)
    sheet = selectors.referee_table(seating)
    context = page_context(request, championship, sheet=sheet, seating=seating)
    # May correct a closed round.
    context["can_adjust"] = Capability.CHANGE_CLOSED_ROUND in context["caps"]
    return render(request, "tournaments/referee_table.html", context)


@capability_required(Capability.ENTER_RESULT)
def result_entry(
    request: HttpRequest, championship: Championship, round: int, table: int, board: int
) -> HttpResponse:
    """Enter or correct one table's result on one board (phone-sized form).

    The version the referee saw travels as a hidden field: when another referee saved in
    between, ``services.result_record`` raises ``ResultConflict`` and the page shows what
    the other referee saved, with the form re-based on that version (nothing is lost
    silently: saving again is a deliberate correction).
    """
    seating = seating_or_404(round_or_404(championship, round), table)
    board_row = get_object_or_404(
        Board, championship=championship, number=board, round_id=seating.round_id
    )
    current = Result.objects.filter(seating=seating, board=board_row).first()
    conflict: Result | None = None
    conflict_mine = False  # the conflicting version is this user's own (another tab)
    unusual: list[tuple[str, str]] = []
    roles = roles_of(request.user, championship)
    can_adjust = allows(roles, Capability.ADJUST_SCORE)
    # A closed round's results, and an adjusted score, change only by the head referee or
    # the organiser (docs/decisions.md 17; services.result_record refuses anyone else): a
    # plain referee sees them read-only, with no save button.
    can_save = (
        allows(roles, Capability.CHANGE_CLOSED_ROUND) or not seating.round.is_closed
    ) and (can_adjust or current is None or not current.is_adjusted)
    if request.method == "POST":
        form = ResultForm(request.POST, championship=championship, can_adjust=can_adjust)
        if form.is_valid():
            data = dict(form.cleaned_data)
            version = data.pop("version")
            # Legal but unusual (referee_checks): asked once before it is saved.
            unusual = referee_checks.unusual_for_form(
                championship, seating, board_row, data, current
            )
            if unusual and request.POST.get("confirm_unusual") != "1":
                form.add_error(None, _("Comproveu-ho abans de desar."))
            else:
                unusual = []
        if form.is_valid() and not unusual:
            try:
                saved = services.result_record(
                    seating=seating, board=board_row, expected_version=version,
                    acting_user=request.user, **data,
                )
            except services.ResultConflict as exc:
                form.add_error(None, str(exc))
                conflict = exc.current
                conflict_mine = exc.by_same_user
                # Re-base on what is stored now so a deliberate second save corrects it.
                rebased = cast(QueryDict, form.data).copy()  # a bound form's own data
                rebased["version"] = str(exc.current_version or "")
                form.data = rebased
            except ValueError as exc:  # every service refusal is a ValueError
                if isinstance(exc, services.TournamentError) and exc.field == "adjusted":
                    exc.field = "adjusted_ns"
                add_service_error(form, exc)
            else:
                messages.success(request, _saved_message(championship, board, saved))
                # One tap per step: on to the table's next board still without a result,
                # its points field focused; none left: back to the round's tables.
                following = selectors.next_board_without_result(seating, after=board)
                if following is None:
                    return redirect(
                        reverse("referee_tables", args=[championship.slug])
                        + f"?round={round}"
                    )
                return redirect("result_entry", championship.slug, round, table, following)
    else:
        form = ResultForm(
            championship=championship, can_adjust=can_adjust, initial=_initial(current),
            autofocus_points=current is None and can_save,
        )
    return render(
        request,
        "tournaments/result_form.html",
        page_context(
            request, championship, seating=seating, board=board_row, form=form,
            current=current, conflict=conflict, conflict_mine=conflict_mine, can_save=can_save,
            score=selectors.result_hand_score(championship, current) if current else None,
            conflict_score=(
                selectors.result_hand_score(championship, conflict) if conflict else None
            ),
            dealer=board_row.dealer,
            next_board=Board.objects.filter(round_id=seating.round_id, number__gt=board)
            .order_by("number").values_list("number", flat=True).first(),
            ew_points=_ew_points(form), unusual=unusual,
            infraction_chosen=bool(form["infraction"].value()),
            history=selectors.result_history(current) if current else [],
        ),
    )


def _saved_message(championship: Championship, board: int, saved: services.ResultSaved
                   ) -> str:
    """What the referee reads on the next page after a save: which board, and its hand
    score (the scorer's, ``selectors.result_hand_score``) since the page that opens is
    another board's. The same values again (a retry after a lost response) is no
    conflict: the stored result stays as it was (``services.result_record``)."""
    if saved.kind is services.SaveKind.UNCHANGED:
        return _("Tauler %(board)s: aquest resultat ja estava desat.") % {"board": board}
    score = selectors.result_hand_score(championship, saved.result)
    if score is None:  # an infraction or an adjusted score has no hand score
        return _("Tauler %(board)s desat.") % {"board": board}
    return _("Tauler %(board)s desat: NS %(ns)s · EO %(ew)s.") % {
        "board": board, "ns": _signed(score["ns"]), "ew": _signed(score["ew"]),
    }


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _ew_points(form: ResultForm) -> int | None:
    """EW's points from the NS points in the form, for the page without JS."""
    raw = form["ns_points_taken"].value()
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return None
    return other_side_points(value) if 0 <= value <= HAND_POINTS else None


def _initial(result: Result | None) -> dict[str, Any]:
    if result is None:
        return {}
    return {
        "trump": result.trump,
        "delegated": result.delegated,
        "contro": result.contro,
        "recontro": result.recontro,
        "sant_vicenc": result.sant_vicenc,
        "ns_points_taken": result.ns_points_taken,
        "infraction": result.infraction or "",
        "note": result.note,
        "adjusted_ns": result.adjusted_ns or "",
        "adjusted_ew": result.adjusted_ew or "",
        "version": result.version,
    }


@capability_required(Capability.ENTER_RESULT)
def result_hand_score(
    request: HttpRequest, championship: Championship, round: int, table: int, board: int
) -> JsonResponse:
    """``GET ?trump=&ns_points_taken=&contro=...`` -> ``referee_checks.hand_score`` of
    board ``board`` as JSON: ``{"ns": int, "ew": int}``, or ``None`` for both (and an
    ``error`` while the values are incomplete or not allowed). The result form asks it
    as the referee types."""
    return JsonResponse(referee_checks.hand_score(championship, board, request.GET))


# --------------------------------------------------------------- a classic game


def _game_page(request: HttpRequest, championship: Championship, round: int, table: int
               ) -> tuple[Seating, Game | None]:
    """The table's seating and its game; 404 for a championship of predonats."""
    if not championship.is_classic:
        raise Http404(_("Aquest campionat és de predonats: els resultats s'entren per tauler."))
    seating = seating_or_404(round_or_404(championship, round), table)
    return seating, Game.objects.filter(seating=seating).first()


def _sheet_mode(request: HttpRequest, current: Game | None) -> bool:
    """Deal by deal (``mode=sheet``) or the final (``mode=final``); a game stored with
    its sheet opens on its sheet."""
    mode = request.POST.get("mode") or request.GET.get("mode") or ""
    if mode in ("sheet", "final"):
        return mode == "sheet"
    return bool(current is not None and current.hands)


@capability_required(Capability.ENTER_RESULT)
def game_entry(
    request: HttpRequest, championship: Championship, round: int, table: int
) -> HttpResponse:
    """Enter or correct one table's game (classic championship), phone-sized: the final
    (points NS and EO, deals, how it ended) or the score sheet deal by deal, its running
    totals asked of the server as the referee types (:func:`game_sheet`).

    As a board's result: the version the referee saw travels as a hidden field; when
    another save came in between, ``services.game_record`` raises ``GameConflict`` and
    the page shows the stored game with the form re-based on its version, what was
    typed kept. The same values again (a double tap) are saved once. After a save, the
    next table of the round without a game, in the same mode (final or sheet)."""
    seating, current = _game_page(request, championship, round, table)
    roles = roles_of(request.user, championship)
    can_adjust = allows(roles, Capability.ADJUST_SCORE)
    can_save = (
        allows(roles, Capability.CHANGE_CLOSED_ROUND) or not seating.round.is_closed
    ) and (can_adjust or current is None or current.ended_by != Game.EndedBy.ADJUSTED)
    sheet = _sheet_mode(request, current)
    knockout = is_knockout_round(seating.round)
    conflict: Game | None = None
    conflict_mine = False
    preview: dict[str, Any] | None = None
    if request.method == "POST":
        more = 1 if request.POST.get("add_line") else 0
        form = GameForm(request.POST, championship=championship, sheet=sheet,
                        can_adjust=can_adjust, more_lines=more, knockout=knockout)
        if sheet:
            # The sheet as typed, before a refusal's errors empty the fields they name.
            preview = _preview(championship, form)
        if more:
            form.is_valid()  # the lines typed so far, checked; nothing saved
        elif form.is_valid():
            data = form.values()
            try:
                saved = services.game_record(
                    seating=seating, expected_version=form.cleaned_data["version"],
                    acting_user=request.user, **data,
                )
            except services.GameConflict as exc:
                form.add_error(None, str(exc))
                conflict, conflict_mine = exc.current, exc.by_same_user
                # Re-based on what is stored now: saving again is a deliberate correction.
                rebased = cast(QueryDict, form.data).copy()
                rebased["version"] = str(exc.current_version or "")
                form.data = rebased
            except ValueError as exc:  # every service refusal is a ValueError
                form.add_service_error(exc)
            else:
                messages.success(request, _game_saved_message(table, saved))
                following = selectors.next_table_without_game(seating, after=table)
                if following is None:
                    return redirect(reverse("referee_tables", args=[championship.slug])
                                    + f"?round={round}")
                # A referee copying score sheets goes on deal by deal at the next table.
                return redirect(reverse("game_entry", args=[championship.slug, round, following])
                                + ("?mode=sheet" if sheet else ""))
    else:
        initial = game_initial(current)
        if sheet and initial.get("ended_by") not in (Game.EndedBy.TIME,
                                                     Game.EndedBy.ADJUSTED):
            initial.pop("ended_by", None)  # the sheet's own end
        form = GameForm(championship=championship, sheet=sheet, can_adjust=can_adjust,
                        hands=(current.hands or []) if current and sheet else [],
                        initial=initial, knockout=knockout)
    if sheet and preview is None:
        preview = _preview(championship, form)
    return render(
        request, "tournaments/game_form.html",
        page_context(
            request, championship, seating=seating, form=form, current=current,
            sheet=sheet, can_save=can_save, can_adjust=can_adjust,
            conflict=conflict, conflict_mine=conflict_mine, preview=preview,
            # Each line of the sheet with its scores and running totals.
            sheet_lines=list(zip(form.line_forms, [line for _k, line in preview["cells"]],
                                 strict=True)) if preview else [],
            history=selectors.game_history(current) if current else [],
        ),
    )


def _preview(championship: Championship, form: GameForm) -> dict[str, Any]:
    """The sheet's running totals (``selectors.sheet_preview``) with each problem's
    words, for the page and its live fragment."""
    if form.is_bound:
        form.is_valid()
        typed = form.typed_raw()
        ended = getattr(form, "cleaned_data", {}).get("ended_by") or None
    else:
        typed = [(k, _initial_raw(dict(line.initial)))
                 for k, line in enumerate(form.line_forms) if line.initial]
        ended = form.initial.get("ended_by") or None
    view = selectors.sheet_preview(championship, typed, ended_by=ended,
                                   knockout=form.knockout)
    rows = {line.row: line for line in view.lines}
    return {
        "view": view,
        "problems": [message for _field, message in game_problems(view.problems)],
        # Each line of the form with its scores and running totals (None: not typed).
        "cells": [(k, rows.get(k)) for k in range(len(form.line_forms))],
        "ended_label": Game.EndedBy(view.game.ended_by.value).label if view.game else "",
    }


def _initial_raw(initial: dict[str, Any]) -> dict[str, Any]:
    """A line's initial values (a stored deal) back as ``scoring.classic`` takes them."""
    return {key: (value if value != "" else None) for key, value in initial.items()}


@capability_required(Capability.ENTER_RESULT)
def game_sheet(
    request: HttpRequest, championship: Championship, round: int, table: int
) -> HttpResponse:
    """``GET`` with the score sheet's fields -> the running totals as an HTML fragment
    (htmx swaps it in, each line's total out of band). Reads only."""
    seating, _current = _game_page(request, championship, round, table)
    form = GameForm(request.GET, championship=championship, sheet=True,
                    can_adjust=allows(roles_of(request.user, championship),
                                      Capability.ADJUST_SCORE),
                    knockout=is_knockout_round(seating.round))
    return render(request, "tournaments/_game_sheet_totals.html",
                  {"preview": _preview(championship, form), "form": form, "oob": True,
                   "championship": championship})


def _game_saved_message(table: int, saved: services.GameSaved) -> str:
    """What the referee reads on the next table's page after a save."""
    if saved.kind is services.SaveKind.UNCHANGED:
        return _("Taula %(table)s: aquesta partida ja estava desada.") % {"table": table}
    return _("Taula %(table)s desada: NS %(ns)s · EO %(ew)s.") % {
        "table": table, "ns": saved.game.ns_points, "ew": saved.game.ew_points}


@require_GET
def referee_service_worker(request: HttpRequest, slug: str) -> HttpResponse:
    """The referees' service worker, served from ``/c/<slug>/referee/`` so that its
    scope is the championship's referee pages: it keeps them (and their static files)
    for offline use; the result form queues a result itself while offline
    (``static/tournaments/referee_outbox.js``). It holds nothing of the championship:
    served to anyone, like the static files."""
    return service_worker(request, "tournaments/referee_sw.js")
