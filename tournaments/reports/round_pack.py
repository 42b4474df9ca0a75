"""The round pack: everything one round needs, in one PDF, in the order it is used.

First the board sheets (one copy of each board per table, to make up the deals), then
the entry forms (one per table, for the referee), then the table cards (one per table,
to stand on it). A classic round's pack: the pairings for the wall, then the table
cards (the knockout cards in a knockout round), then the score sheets (one per table).
Each part is drawn by its own module on one canvas; every page carries the footer of
the stamp (when made, results version, championship).
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _

from tournaments.reports.board_sheets import draw_board_sheets
from tournaments.reports.board_sheets import page_count as sheet_pages
from tournaments.reports.documents import ClassicRoundPack, RoundPack
from tournaments.reports.entry_forms import draw_entry_forms
from tournaments.reports.knockout_cards import draw_knockout_cards
from tournaments.reports.knockout_cards import page_count as knockout_pages
from tournaments.reports.pages import OnPage, new_canvas, page_counter
from tournaments.reports.pairings import draw_pairings
from tournaments.reports.pairings import page_count as pairings_pages
from tournaments.reports.score_sheets import draw_score_sheets
from tournaments.reports.score_sheets import page_count as score_sheet_pages
from tournaments.reports.table_cards import draw_table_cards


def page_count(document: RoundPack) -> int:
    """Pages of the pack: the board sheets', then one per entry form and table card."""
    return (sheet_pages(document.board_sheets) + len(document.entry_forms.forms)
            + len(document.table_cards.cards))


def render_round_pack(document: RoundPack, on_page: OnPage | None = None) -> bytes:
    """The PDF of the round pack, labels in the active language (``render.render`` sets
    the document's). ``on_page(done, total)`` after each page."""
    buffer = io.BytesIO()
    title = _("%(championship)s · Paquet de la ronda %(round)s") % {
        "championship": document.header.championship, "round": document.round}
    c = new_canvas(buffer, title=title, numbered=False, footer=document.header.footer)
    page_done = page_counter(on_page, page_count(document))
    draw_board_sheets(c, document.board_sheets, page_done)
    draw_entry_forms(c, document.entry_forms, page_done)
    draw_table_cards(c, document.table_cards, page_done)
    c.save()
    return buffer.getvalue()


def classic_page_count(document: ClassicRoundPack) -> int:
    """Pages of a classic pack: the pairings', one per table card (the knockout cards'
    in a knockout round), the score sheets'."""
    cards = (len(document.table_cards.cards) if document.knockout_cards is None
             else knockout_pages(document.knockout_cards))
    return pairings_pages(document.pairings) + cards + score_sheet_pages(document.score_sheets)


def render_classic_round_pack(document: ClassicRoundPack, on_page: OnPage | None = None
                              ) -> bytes:
    """The PDF of a classic round's pack, labels in the active language
    (``render.render`` sets the document's). ``on_page(done, total)`` after each page."""
    buffer = io.BytesIO()
    title = _("%(championship)s · Paquet de la ronda %(round)s") % {
        "championship": document.header.championship, "round": document.round}
    c = new_canvas(buffer, title=title, numbered=False, footer=document.header.footer)
    page_done = page_counter(on_page, classic_page_count(document))
    draw_pairings(c, document.pairings, page_done)
    if document.knockout_cards is None:
        draw_table_cards(c, document.table_cards, page_done)
    else:
        draw_knockout_cards(c, document.knockout_cards, page_done)
    draw_score_sheets(c, document.score_sheets, page_done)
    c.save()
    return buffer.getvalue()
