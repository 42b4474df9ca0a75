"""Travellers: every table's result on a board, with the deal.

One board per page (continued on the next page when the tables do not fit): the deal
diagram at the top, then a row per table: pairs, trump, doubles, points taken, hand
scores and comparative points. ``build.py`` leaves out every board still hidden from the
public (docs/decisions.md 16), so the renderer prints what it is given.
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from reportlab.lib.colors import black
from reportlab.pdfgen import canvas

from engine.cards import Suit, other_side_points
from tournaments.reports import labels
from tournaments.reports.board_sheets import draw_deal
from tournaments.reports.documents import DoubleDummyTable, Traveller, Travellers
from tournaments.reports.fitting import fit
from tournaments.reports.fonts import FONT, FONT_BOLD, clean
from tournaments.reports.formats import fmt_points, fmt_score
from tournaments.reports.pages import (
    GREY,
    LIGHT,
    MARGIN,
    PAGE_WIDTH,
    SUIT_COLOURS,
    OnPage,
    heading,
    new_canvas,
    page_counter,
)
from tournaments.reports.tables import Column, TableWriter

DEAL_HEIGHT = 230.0
#: The double-dummy table under the deal: width, and the height of each of its lines.
DD_WIDTH = 380.0
DD_LINE = 14.0


def render_travellers(document: Travellers, on_page: OnPage | None = None) -> bytes:
    """The PDF of the travellers, one board per page, labels in the active language
    (``render.render`` sets the document's). ``on_page(done, estimated_total)``."""
    header = document.header
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=_("%(championship)s · Fulls de recorregut") % {
                       "championship": header.championship},
                   numbered=True, footer=header.footer, note=header.missing)
    page_done = page_counter(on_page, max(1, len(document.travellers)))

    if not document.travellers:
        heading(c, header.championship,
                _("Els taulers encara ocults al públic no s'imprimeixen."))
        c.showPage()
    for traveller in document.travellers:
        _traveller(c, document, traveller, page_done)
    c.save()
    return buffer.getvalue()


def _traveller(
    c: canvas.Canvas, document: Travellers, traveller: Traveller, page_done: object
) -> None:
    header = document.header
    title = _("Full de recorregut · Tauler %(board)s · Ronda %(round)s") % {
        "board": traveller.board, "round": traveller.round}
    first = True

    def page_top(cv: canvas.Canvas) -> float:
        nonlocal first
        y = heading(cv, title, header.championship)
        if first and traveller.deal is not None:
            first = False
            draw_deal(cv, traveller.deal, traveller.board,
                      (MARGIN + 40, y - DEAL_HEIGHT, PAGE_WIDTH - 2 * MARGIN - 80, DEAL_HEIGHT),
                      card_size=10.5)
            y -= DEAL_HEIGHT + 10
            if traveller.double_dummy is not None:
                y = draw_double_dummy(cv, traveller.double_dummy, DD_WIDTH, y)
            return y
        first = False
        return y

    dd = traveller.double_dummy
    ns, ew = labels.side("NS"), labels.side("EW")
    writer = TableWriter(
        c,
        [
            Column(_("Taula"), 0.7, "right"),
            Column(ns, 0.6, "right"),
            Column(ew, 0.6, "right"),
            Column(_("Trumfo"), 1.3, "left"),
            Column(_("Contro"), 1.0, "left"),
            Column(_("Punts %(side)s") % {"side": ns}, 0.8, "right"),
            Column(_("Punts %(side)s") % {"side": ew}, 0.8, "right"),
            Column(_("Resultat %(side)s") % {"side": ns}, 0.9, "right"),
            Column(_("Resultat %(side)s") % {"side": ew}, 0.9, "right"),
            Column(_("Comparatiu %(side)s") % {"side": ns}, 1.1, "right"),
            Column(_("Comparatiu %(side)s") % {"side": ew}, 1.1, "right"),
            *([Column(_("Cartes vistes"), 0.8, "right")] if dd else []),
            Column("", 1.2, "left", lines=2),
        ],
        page_top=page_top,
        row_height=18.0,
        size=8.5,
        on_page_done=page_done,  # type: ignore[arg-type]  # reportlab calls it with the canvas
    )
    writer.start_page()
    for i, row in enumerate(traveller.rows):
        trump = labels.trump(row.trump)
        if row.delegated:
            trump += " (D)"
        writer.row(
            [
                str(row.table),
                str(row.ns_pair),
                str(row.ew_pair),
                trump,
                row.doubles,
                "" if row.ns_points_taken is None else str(row.ns_points_taken),
                "" if row.ew_points_taken is None else str(row.ew_points_taken),
                fmt_score(row.ns_score),
                fmt_score(row.ew_score),
                row.ns_comparative_text or fmt_points(row.ns_comparative),
                row.ew_comparative_text or fmt_points(row.ew_comparative),
                *([dd_mark(row.dd_difference)] if dd else []),
                row.note,
            ],
            shade=i % 2 == 1,
        )
    writer.finish_page()


def dd_mark(difference: int | None) -> str:
    """A row's mark against the double-dummy table, in NS's points: ``+4``, ``−3``,
    ``=``; blank without one."""
    if difference is None:
        return ""
    if difference == 0:
        return "="
    return f"+{difference}" if difference > 0 else f"\u2212{-difference}"


def draw_double_dummy(c: canvas.Canvas, dd: DoubleDummyTable, w: float, top: float) -> float:
    """The double-dummy table, centred on the page below ``top``: a title, the five
    declarations with NS's and EW's points (par shaded, in bold) and the par line.
    Returns the ``y`` below it."""
    x0 = (PAGE_WIDTH - w) / 2
    label_w = 50.0
    col_w = (w - label_w) / len(dd.lines)
    y = top - 11
    c.setFont(FONT_BOLD, 10)
    c.drawString(x0, y, clean(_("Anàlisi a cartes vistes")))
    header_y = y - DD_LINE
    for i, (_trump, _ns, is_par) in enumerate(dd.lines):
        if is_par:
            c.setFillColor(LIGHT)
            c.rect(x0 + label_w + i * col_w, header_y - 2 * DD_LINE - 4, col_w,
                   3 * DD_LINE, stroke=0, fill=1)
    ns_side, ew_side = labels.side("NS"), labels.side("EW")
    rows = [
        ("", [labels.trump(trump) for trump, _ns, _par in dd.lines], GREY),
        (ns_side, [str(ns) for _t, ns, _par in dd.lines], black),
        (ew_side, [str(other_side_points(ns)) for _t, ns, _par in dd.lines], black),
    ]
    for r, (label, cells, colour) in enumerate(rows):
        line_y = header_y - r * DD_LINE
        c.setFillColor(black)
        c.setFont(FONT_BOLD, 9)
        c.drawString(x0, line_y, clean(label))
        for i, text in enumerate(cells):
            trump, _ns, is_par = dd.lines[i]
            suit_colour = SUIT_COLOURS.get(Suit(trump)) if trump in ("O", "C", "E", "B") else None
            c.setFillColor((suit_colour or black) if r == 0 else colour)
            c.setFont(FONT_BOLD if is_par or r == 0 else FONT, 9)
            c.drawCentredString(x0 + label_w + (i + 0.5) * col_w, line_y, clean(text))
    c.setFillColor(black)
    trump, ns, _par = next(line for line in dd.lines if line[2])
    par_line = _(
        "Par: %(trump)s (%(ns_side)s %(ns)s, %(ew_side)s %(ew)s), %(score)s per a "
        "%(side)s sense contro."
    ) % {
        "trump": labels.trump(trump), "ns_side": ns_side, "ns": ns, "ew_side": ew_side,
        "ew": other_side_points(ns), "score": fmt_score(dd.par_score),
        "side": labels.side(dd.declarer),
    }
    y = header_y - 3 * DD_LINE - 2
    c.setFont(FONT, 9)
    c.drawString(x0, y, clean(par_line))
    legend = _("+/−: punts que NS han fet de més o de menys que a l'anàlisi a cartes "
               "vistes amb el mateix trumfo; =: els mateixos.")
    lines, size = fit(legend, FONT, 8, w, max_lines=2, min_size=7.5)
    c.setFont(FONT, size)
    c.setFillColor(GREY)
    for line in lines:
        y -= size * 1.25
        c.drawString(x0, y, line)
    c.setFillColor(black)
    return y - 12
