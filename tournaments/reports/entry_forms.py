"""Referee entry forms: one landscape A4 page per table and round.

A row per board with boxes to fill in by hand: trump (O C E B botifarra), delegated,
contro / recontro / Sant Vicenç, the points NS and EW took, the side that committed an
infraction, and the two pairs' signatures. The dealer of each board (docs/rules.md
"Seats, dealer and boards") is printed so the table knows who chooses trump.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib.colors import black
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen import canvas

from engine.cards import SUIT_ORDER
from tournaments.reports import labels
from tournaments.reports.documents import EntryForm, EntryForms
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT, FONT_BOLD, clean
from tournaments.reports.pages import GREY, LIGHT, MARGIN, SUIT_COLOURS, OnPage, new_canvas

WIDTH, HEIGHT = landscape(A4)


def render_entry_forms(document: EntryForms, on_page: OnPage | None = None) -> bytes:
    """The PDF of the entry forms, one page per table, labels in the active language
    (``render.render`` sets the document's). ``on_page(done, total)``."""
    buffer = io.BytesIO()
    title = _("%(championship)s · Actes de taula · Ronda %(round)s") % {
        "championship": document.header.championship, "round": document.round}
    c = new_canvas(buffer, title=title, numbered=False, footer=document.header.footer,
                   pagesize=landscape(A4))
    total = len(document.forms)
    done = 0

    def page_done() -> None:
        nonlocal done
        done += 1
        if on_page is not None:
            on_page(done, total)

    draw_entry_forms(c, document, page_done)
    if not document.forms:
        c.setFont(FONT, 12)
        c.drawString(MARGIN, HEIGHT - MARGIN - 20, clean(document.header.championship))
        c.showPage()
    c.save()
    return buffer.getvalue()


def draw_entry_forms(c: canvas.Canvas, document: EntryForms,
                     page_done: Callable[[], None]) -> None:
    """Draw the forms on ``c``, one A4 landscape page per table, calling ``page_done``
    after each."""
    c.setPageSize(landscape(A4))
    for form in document.forms:
        _draw_form(c, document, form)
        c.showPage()
        page_done()


def _box(c: canvas.Canvas, x: float, y: float, size: float) -> None:
    c.rect(x, y, size, size, stroke=1, fill=0)


def _draw_form(c: canvas.Canvas, document: EntryForms, form: EntryForm) -> None:
    usable = WIDTH - 2 * MARGIN
    top = HEIGHT - MARGIN
    draw_fitted(c, document.header.championship, MARGIN, top - 20, usable * 0.6, 20,
                font=FONT_BOLD, size=14, max_lines=1)
    draw_fitted(
        c,
        _("Acta de taula · Ronda %(round)s · Taula %(table)s") % {"round": form.round,
                                                                "table": form.table},
        MARGIN + usable * 0.6, top - 20, usable * 0.4, 20, font=FONT_BOLD, size=14,
        align="right", max_lines=1,
    )
    y = top - 50
    for side, pair, players in (("NS", form.ns_pair, form.ns_players),
                                ("EW", form.ew_pair, form.ew_players)):
        draw_fitted(c, _("%(side)s: Parella %(pair)s") % {"side": labels.side(side),
                                                           "pair": pair}, MARGIN, y, 140, 22,
                    font=FONT_BOLD, size=12, max_lines=1)
        draw_fitted(c, players, MARGIN + 140, y, usable / 2 - 150, 22, size=11, max_lines=2)
        y -= 24 if side == "NS" else 0
    y -= 14

    # Columns: (label, width share, cell kind)
    ns, ew = labels.side("NS"), labels.side("EW")
    columns = [
        (_("Tauler"), 0.8, "board"),
        (_("Reparteix"), 1.0, "dealer"),
        (_("Trumfo"), 3.2, "trump"),
        (_("Delegat"), 0.8, "check"),
        (_("Contro"), 0.8, "check"),
        (_("Recontro"), 0.8, "check"),
        (_("Sant Vicenç"), 0.8, "check"),
        (_("Punts %(side)s") % {"side": ns}, 1.0, "blank"),
        (_("Punts %(side)s") % {"side": ew}, 1.0, "blank"),
        (_("Infracció"), 1.3, "sides"),
        (_("Signatures %(side)s") % {"side": ns}, 1.7, "blank"),
        (_("Signatures %(side)s") % {"side": ew}, 1.7, "blank"),
    ]
    total_share = sum(share for _label, share, _kind in columns)
    widths = [usable * share / total_share for _label, share, _kind in columns]
    header_h = 26.0
    y -= header_h
    c.setFillColor(LIGHT)
    c.rect(MARGIN, y, usable, header_h, stroke=0, fill=1)
    c.setFillColor(black)
    x = MARGIN
    for (label, _share, _kind), w in zip(columns, widths, strict=True):
        draw_fitted(c, label, x, y, w, header_h, font=FONT_BOLD, size=8.5, align="center")
        x += w
    # Rows as tall as the page allows (room to write by hand), 48 pt at most.
    row_h = min(48.0, (y - MARGIN - 40) / max(len(form.boards), 1))
    for board in form.boards:
        y -= row_h
        x = MARGIN
        for (_label, _share, kind), w in zip(columns, widths, strict=True):
            c.setStrokeColor(GREY)
            c.rect(x, y, w, row_h, stroke=1, fill=0)
            c.setStrokeColor(black)
            box = min(12.0, row_h * 0.5)
            if kind == "board":
                draw_fitted(c, str(board.board), x, y, w, row_h, font=FONT_BOLD, size=14,
                            align="center", max_lines=1)
            elif kind == "dealer":
                draw_fitted(c, labels.seat_letter(board.dealer), x, y, w, row_h, font=FONT_BOLD,
                            size=12, align="center", max_lines=1)
            elif kind == "check":
                _box(c, x + (w - box) / 2, y + (row_h - box) / 2, box)
            elif kind == "trump":
                options = [(labels.suit_name(s)[:3], SUIT_COLOURS[s]) for s in SUIT_ORDER]
                options.append((_("Botifarra")[:3] + ".", black))
                step = w / len(options)
                for i, (text, colour) in enumerate(options):
                    bx = x + i * step + 2
                    _box(c, bx, y + (row_h - box) / 2, box)
                    c.setFillColor(colour)
                    c.setFont(FONT_BOLD, 8)
                    c.drawString(bx + box + 2, y + row_h / 2 - 2.5, text)
                    c.setFillColor(black)
            elif kind == "sides":
                for i, side in enumerate(("NS", "EW")):
                    bx = x + 4 + i * w / 2
                    _box(c, bx, y + (row_h - box) / 2, box)
                    c.setFont(FONT, 8)
                    c.drawString(bx + box + 2, y + row_h / 2 - 3, labels.side(side))
            x += w
    c.setFont(FONT, 9)
    c.setFillColor(GREY)
    c.drawString(MARGIN, MARGIN + 10,
                 clean(_("Àrbitre: %(line)s") % {"line": "______________________"}))
    c.drawRightString(WIDTH - MARGIN, MARGIN + 10, clean(document.header.rules_summary)[:140])
    c.setFillColor(black)
