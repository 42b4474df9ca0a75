"""One entry point for every kind: ``render(document, on_page) -> bytes`` (PDF).

Renderers take the plain dataclasses of ``documents`` and never touch the ORM. A
document is in one language, its header's (``Header.language``): :func:`render` draws
it inside ``translation.override`` of that language, so every label (Catalan msgids,
``labels``) and every number (``formats``) follows it, whatever language the caller has
active.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import translation

from tournaments.reports.board_sheets import render_board_sheets
from tournaments.reports.bracket import render_bracket
from tournaments.reports.classic_standings import render_classic_standings
from tournaments.reports.documents import (
    BoardSheets,
    BracketDocument,
    ClassicRoundPack,
    ClassicStandings,
    Document,
    EntryForms,
    GroupTables,
    KnockoutCards,
    PairCards,
    Pairings,
    RoundPack,
    ScoreCards,
    ScoreSheets,
    Standings,
    TableCards,
    Travellers,
)
from tournaments.reports.entry_forms import render_entry_forms
from tournaments.reports.group_tables import render_group_tables
from tournaments.reports.guide_cards import GuideCardSet, render_guide_card_set
from tournaments.reports.knockout_cards import render_knockout_cards
from tournaments.reports.pages import OnPage
from tournaments.reports.pair_cards import render_pair_cards
from tournaments.reports.pairings import render_pairings
from tournaments.reports.round_pack import render_classic_round_pack, render_round_pack
from tournaments.reports.score_cards import render_score_cards
from tournaments.reports.score_sheets import render_score_sheets
from tournaments.reports.standings import render_standings
from tournaments.reports.table_cards import render_table_cards
from tournaments.reports.travellers import render_travellers

RENDERERS: dict[type, Callable[[Any, OnPage | None], bytes]] = {
    BoardSheets: render_board_sheets,
    EntryForms: render_entry_forms,
    TableCards: render_table_cards,
    RoundPack: render_round_pack,
    Standings: render_standings,
    Travellers: render_travellers,
    ScoreCards: render_score_cards,
    GuideCardSet: render_guide_card_set,
    Pairings: render_pairings,
    ScoreSheets: render_score_sheets,
    ClassicStandings: render_classic_standings,
    PairCards: render_pair_cards,
    ClassicRoundPack: render_classic_round_pack,
    GroupTables: render_group_tables,
    BracketDocument: render_bracket,
    KnockoutCards: render_knockout_cards,
}


def render(document: Document | GuideCardSet, on_page: OnPage | None = None) -> bytes:
    """The PDF bytes of ``document`` in its header's language (``ca``, ``es`` or
    ``en``); ``on_page(done, total)`` after each page drawn.

    Raises ``TypeError`` for an object that is not one of the documents.
    """
    try:
        renderer = RENDERERS[type(document)]
    except KeyError:
        raise TypeError(f"{type(document).__name__} is not a printable document") from None
    with translation.override(document.header.language):
        return renderer(document, on_page)
