"""The referees' dashboard of a round: every table's boards (a classic championship:
its game) with what the table entered, the late tables first, one tap to the referee's
form; and the referees' actions on the table's entries (accept one, clear a table's).

The numbers and states are ``selectors.tables.round_tables``'s. The table part is a
fragment polled with htmx every few seconds (``?v=``: the version it shows; 204 while
nothing changed). Its version (``round_tables_version``) changes with the results
version and with every write of a table's entry (which does not bump the results
version), and with the minute, so "fa 6 min" stays true."""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.forms import ConfirmForm
from tournaments.models import Championship, Round
from tournaments.permissions import Capability
from tournaments.selectors.tables import (
    EntryState,
    RoundTables,
    round_tables,
    round_tables_version,
    waiting_entries,
)
from tournaments.web.common import capability_required, page_context, round_or_404

#: Seconds between two polls of the dashboard's fragment.
POLL_SECONDS = 3


def _version(rnd: Round) -> str:
    return f"{round_tables_version(rnd)}-{int(time.time() // 60)}"


def _rows(championship: Championship, view: RoundTables) -> list[dict[str, Any]]:
    """Each table of ``view`` with, per board (the game), the referee's form's address
    and how many minutes it has waited."""
    now = timezone.now()
    rows = []
    for table in view.tables:
        cells = []
        for row in table.items:
            item = row.item
            if item.board is None:
                url = reverse("game_entry", args=[championship.slug, view.round, table.table])
            else:
                url = reverse("result_entry",
                              args=[championship.slug, view.round, table.table, item.board])
            minutes = (int((now - row.since).total_seconds() // 60)
                       if row.since is not None else None)
            cells.append({"item": item, "state": item.state.value, "url": url,
                          "minutes": minutes,
                          "waiting": item.state in (EntryState.PROVISIONAL,
                                                    EntryState.DISPUTED)})
        rows.append({"table": table, "cells": cells,
                     "waiting": any(c["waiting"] for c in cells)})
    return rows


def _context(request: HttpRequest, championship: Championship, rnd: Round) -> dict[str, Any]:
    view = round_tables(rnd)
    return page_context(
        request, championship, round=rnd, view=view, rows=_rows(championship, view),
        version=_version(rnd), poll_seconds=POLL_SECONDS,
        poll_url=reverse("referee_round_live", args=[championship.slug, rnd.number]),
        can_act=not rnd.is_closed and championship.status != Championship.Status.FINISHED,
    )


@capability_required(Capability.ENTER_RESULT)
def referee_round(request: HttpRequest, championship: Championship, round: int
                  ) -> HttpResponse:
    """The round's dashboard (referee, head referee, organiser)."""
    rnd = round_or_404(championship, round)
    context = _context(request, championship, rnd)
    context["rounds"] = list(Round.objects.filter(championship=championship)
                             .order_by("number").values_list("number", flat=True))
    return render(request, "tournaments/referee_round.html", context)


@capability_required(Capability.ENTER_RESULT)
def referee_round_live(request: HttpRequest, championship: Championship, round: int
                       ) -> HttpResponse:
    """The dashboard's fragment: 204 while its version is the one the page shows."""
    rnd = round_or_404(championship, round)
    if request.GET.get("v") == _version(rnd):
        response = HttpResponse(status=204)
    else:
        response = render(request, "tournaments/_referee_round_tables.html",
                          _context(request, championship, rnd))
    response["Cache-Control"] = "no-store, private"
    return response


def _back(championship: Championship, round: int) -> HttpResponse:
    return redirect("referee_round", championship.slug, round)


def _board_param(request: HttpRequest) -> int | None:
    raw = (request.POST.get("board") or request.GET.get("board") or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else None


def _confirm_step(request: HttpRequest, championship: Championship, rnd: Round,
                  table: int, board: int | None, *, accept: bool) -> HttpResponse | None:
    """The confirmation step of accept and clear, without JavaScript too: a GET, or a
    POST without ``confirm`` ticked, shows what would be accepted or cleared (the
    table's waiting entries, their values) with "Ho confirmo"; ``None`` when the POST
    is confirmed. With JavaScript the dashboard asks in a dialog and ticks it."""
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        return None
    if request.POST.get("step") == "1":  # from this page, not ticked: say why
        form.is_valid()
    else:
        form = ConfirmForm()
    entries = waiting_entries(rnd, table, board, every_board=not accept)
    return render(request, "tournaments/table_entry_confirm.html", page_context(
        request, championship, round=rnd, table=table, board=board, accept=accept,
        entries=entries, form=form, action_url=request.path,
        back_url=reverse("referee_round", args=[championship.slug, rnd.number])))


@capability_required(Capability.ENTER_RESULT)
def table_entry_accept(request: HttpRequest, championship: Championship, round: int,
                       table: int) -> HttpResponse:
    """Accept the table's entry on ``board`` (none: the game) as the referee's result,
    once confirmed (:func:`_confirm_step`)."""
    rnd = round_or_404(championship, round)
    board = _board_param(request)
    step = _confirm_step(request, championship, rnd, table, board, accept=True)
    if step is not None:
        return step
    try:
        services.table_entry_accept(round=rnd, table_number=table, board_number=board,
                                    acting_user=request.user)
    except ValueError as exc:  # every service refusal is a ValueError
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Taula %(table)s: resultat acceptat i comptat.")
                         % {"table": table})
    return _back(championship, round)


@capability_required(Capability.ENTER_RESULT)
def table_entries_clear(request: HttpRequest, championship: Championship, round: int,
                        table: int) -> HttpResponse:
    """Clear the table's entries of the round still waiting (superseded), once
    confirmed (:func:`_confirm_step`)."""
    rnd = round_or_404(championship, round)
    step = _confirm_step(request, championship, rnd, table, None, accept=False)
    if step is not None:
        return step
    try:
        cleared = services.table_entries_clear(round=rnd, table_number=table,
                                               acting_user=request.user)
    except ValueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Taula %(table)s: %(n)s entrades esborrades.")
                         % {"table": table, "n": cleared})
    return _back(championship, round)
