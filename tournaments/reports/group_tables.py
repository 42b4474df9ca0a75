"""The groups stage on paper: A4 portrait, one section per group, as many groups a page
as fit (a group too long for what is left of a page starts on the next one; one longer
than a page goes on over the next, its heading repeated).

A section: the group's name and its games in out of due; its pairs in a standings table
(rank, pair, players, games won, difference, points for, and how the pair went
through); then its fixture from the seatings of the stage's rounds (the round, the
table, the two pairs and the score once entered). Under the page heading, one line
saying how many pairs go through and whether that is known.

``build_stages.group_tables`` makes the document from ``selectors.stages.groups_view``;
this module only draws it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.reports.documents import GroupTables, GroupTableSection
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT_BOLD
from tournaments.reports.pages import (
    GREY,
    LIGHT,
    MARGIN,
    PAGE_WIDTH,
    OnPage,
    heading,
    new_canvas,
    page_counter,
)
from tournaments.reports.tables import Column, TableWriter

#: A standings line and a fixture line, in points, and their text sizes.
ROW_HEIGHT = 14.0
GAME_HEIGHT = 12.0
SIZE = 8.5
GAME_SIZE = 8.0
#: A group's title bar, the gap under a section, the qualification line.
TITLE_HEIGHT = 20.0
GAP = 14.0
NOTE_HEIGHT = 14.0
#: The page's foot: the footer lines are drawn below this.
BOTTOM = MARGIN + 6


def render_group_tables(document: GroupTables, on_page: OnPage | None = None) -> bytes:
    """The PDF of the group tables, labels in the active language (``render.render``
    sets the document's). ``on_page(done, estimated_total)`` after each page."""
    header = document.header
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=_("%(championship)s · Quadres dels grups") % {
                       "championship": header.championship},
                   numbered=True, footer=header.footer, note=header.missing)
    page_done = page_counter(on_page, page_estimate(document))
    _Flow(c, document, page_done).draw()
    c.save()
    return buffer.getvalue()


def section_height(group: GroupTableSection) -> float:
    """The height a group's section takes, its gap under it included."""
    games = max(len(group.games) + (len(group.byes) if group.games else 0), 1)
    return (TITLE_HEIGHT + (len(group.rows) + 1) * ROW_HEIGHT + 4 + 6
            + (games + 1) * GAME_HEIGHT + 4 + GAP)


def page_estimate(document: GroupTables) -> int:
    """Pages of the document, estimated from the sections' heights."""
    room = 842.0 - 2 * MARGIN - 70
    return max(1, -(-int(sum(section_height(g) for g in document.groups)) // int(room)))


class _Flow:
    """Sections one under another, a new page when the next does not fit."""

    def __init__(self, c: canvas.Canvas, document: GroupTables,
                 page_done: Callable[[], None]) -> None:
        self.c = c
        self.document = document
        self.page_done = page_done
        self.y: float | None = None
        self.fresh = False  # nothing drawn yet under the page's heading
        header = document.header
        self.subtitle = " · ".join(
            part for part in (header.date, header.venue, header.rules_summary) if part)

    def draw(self) -> None:
        if not self.document.groups:
            self.new_page()
        for group in self.document.groups:
            self.section(group)
        self.end_page()

    def new_page(self) -> float:
        """Start a page with the heading; returns the y below it."""
        self.end_page()
        c = self.c
        y = heading(c, self.document.header.championship, self.subtitle)
        y = heading(c, self.document.stage, "", top=y + 4)
        if self.document.qualification:
            draw_fitted(c, self.document.qualification, MARGIN, y - NOTE_HEIGHT,
                        PAGE_WIDTH - 2 * MARGIN, NOTE_HEIGHT, size=9, max_lines=1,
                        colour=GREY)
            y -= NOTE_HEIGHT + 4
        self.y = y
        self.fresh = True
        return y

    def end_page(self) -> None:
        if self.y is not None:
            self.c.showPage()
            self.page_done()
            self.y = None

    def room(self) -> float:
        return 0.0 if self.y is None else self.y - BOTTOM

    def section(self, group: GroupTableSection) -> None:
        # A section that fits a fresh page but not what is left starts a page.
        if self.y is None or (section_height(group) > self.room() and not self.fresh):
            self.new_page()
        self.fresh = False
        title = _("Grup %(name)s") % {"name": group.name}
        self.title_bar(title, group.progress)
        self.table(
            title,
            [Column(_("Posició"), 0.7, "right"), Column(_("Parella"), 0.7, "right"),
             Column(_("Jugadors"), 3.6, "left"),
             Column(_("Partides guanyades"), 1.2, "right"),
             Column(_("Diferència"), 1.0, "right"), Column(_("Punts a favor"), 1.0, "right"),
             Column(_("Passa"), 1.5, "left")],
            [[row.rank, str(row.pair), row.players, row.wins, row.difference,
              str(row.points_for), row.qualified] for row in group.rows],
            bold=[bool(row.qualified) for row in group.rows],
            row_height=ROW_HEIGHT, size=SIZE,
        )
        assert self.y is not None
        self.y -= 6
        if group.games:
            # The games round by round, each round's bye after its tables.
            lines = sorted(
                [((g.round, 0, g.table), [str(g.round), str(g.table),
                                          _pair(g.ns_pair, g.ns_players),
                                          _pair(g.ew_pair, g.ew_players), g.score])
                 for g in group.games]
                + [((rnd, 1, pair), [str(rnd), "—", _pair(pair, players), _("descansa"), ""])
                   for rnd, pair, players in group.byes],
                key=lambda line: line[0])
            self.table(
                title,
                [Column(_("Ronda"), 0.7, "right"), Column(_("Taula"), 0.7, "right"),
                 Column(_("Parella NS"), 3.4, "left"), Column(_("Parella EO"), 3.4, "left"),
                 Column(_("Resultat"), 1.2, "center")],
                [values for _key, values in lines],
                bold=[False] * len(lines), row_height=GAME_HEIGHT, size=GAME_SIZE,
            )
        else:
            if self.room() < GAME_HEIGHT:
                self.new_page()
            assert self.y is not None
            self.y -= GAME_HEIGHT
            draw_fitted(self.c, _("Encara no hi ha cap partida del grup sortejada."),
                        MARGIN, self.y, PAGE_WIDTH - 2 * MARGIN, GAME_HEIGHT,
                        size=GAME_SIZE, max_lines=1, colour=GREY)
        assert self.y is not None
        self.y -= GAP

    def title_bar(self, title: str, progress: str) -> None:
        if self.room() < TITLE_HEIGHT + 2 * ROW_HEIGHT:
            self.new_page()
        assert self.y is not None
        c = self.c
        usable = PAGE_WIDTH - 2 * MARGIN
        self.y -= TITLE_HEIGHT
        c.setFillColor(LIGHT)
        c.rect(MARGIN, self.y, usable, TITLE_HEIGHT, stroke=0, fill=1)
        draw_fitted(c, title, MARGIN + 2, self.y, usable * 0.6, TITLE_HEIGHT,
                    font=FONT_BOLD, size=12, max_lines=1)
        if progress:
            done, _slash, due = progress.partition("/")
            draw_fitted(c, _("Partides: %(done)s de %(due)s") % {"done": done, "due": due},
                        MARGIN + usable * 0.6, self.y, usable * 0.4 - 2, TITLE_HEIGHT,
                        size=9, align="right", max_lines=1, colour=GREY)

    def table(self, title: str, columns: list[Column], rows: list[list[str]], *,
              bold: list[bool], row_height: float, size: float) -> None:
        """A table from the flow's y; past the page's foot it goes on over the next
        page under the heading and the group's title, "continuació"."""
        first = True

        def page_top(cv: canvas.Canvas) -> float:
            nonlocal first
            if first:
                first = False
                assert self.y is not None
                return self.y
            # TableWriter showed the page: count it, then start the next one.
            self.y = None
            self.page_done()
            self.new_page()
            self.title_bar(_("%(title)s (continuació)") % {"title": title}, "")
            assert self.y is not None
            return self.y

        def page_done() -> None:
            pass  # counted in page_top, where the flow starts the next page

        if self.room() < 2 * row_height + 4:
            self.new_page()
        writer = TableWriter(self.c, columns, page_top=page_top, row_height=row_height,
                             size=size, bottom=BOTTOM, on_page_done=page_done)
        writer.start_page()
        for i, (values, strong) in enumerate(zip(rows, bold, strict=True)):
            writer.row(values, bold=strong, shade=i % 2 == 1)
        self.y = writer.y


def _pair(number: int, players: str) -> str:
    return _("%(pair)s: %(players)s") % {"pair": number, "players": players}
