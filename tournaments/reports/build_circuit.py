"""A circuit's ranking document (``circuit_ranking.CircuitRankingDocument``) from
``selectors.circuits``'s read model: the players' ranking, then the pairs', with the
rules' sentence, the season, the championships counted and a provisional mark. Reads
only; the print job (``reports.services.print_job_run``) renders it."""

from __future__ import annotations

from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models import Circuit
from tournaments.reports.build import document_language
from tournaments.reports.circuit_ranking import (
    CircuitRankingDocument,
    CircuitRankingRow,
    CircuitRankingTable,
)
from tournaments.selectors import circuits as read


def events_text(line: read.Line) -> str:
    """"3", or "3 (2)" when fewer results counted than were played."""
    return (str(line.played) if line.counted == line.played
            else f"{line.played} ({line.counted})")


def _rows(lines: tuple[read.Line, ...]) -> tuple[CircuitRankingRow, ...]:
    return tuple(CircuitRankingRow(
        line.rank_text, line.name, line.points_text, events_text(line),
        _("no classificat: %(n)s proves") % {"n": line.played}
        if line.why == "min_events" else "") for line in lines)


def circuit_ranking_document(circuit: Circuit, *, state: str, language: str
                             ) -> CircuitRankingDocument:
    """The ranking of ``circuit`` as it stands in ``state`` (``read.circuit_state``),
    every text in ``language`` (``ca``, ``es``, ``en``)."""
    with translation.override(document_language(language)):
        ranking = read.circuit_ranking(circuit, state=state)
        parts = [ranking.season, _("%(n)s proves") % {"n": len(ranking.events)}]
        if ranking.provisional:
            parts.append(_("provisional: hi ha proves en joc"))
        return CircuitRankingDocument(
            title=ranking.name, subtitle=" · ".join(p for p in parts if p),
            rules=ranking.rules_text,
            footer=_("Fet el %(when)s") % {
                "when": timezone.localtime().strftime("%d/%m/%Y %H:%M")},
            tables=(CircuitRankingTable(_("Rànquing individual"), _rows(ranking.players)),
                    CircuitRankingTable(_("Rànquing de parelles"), _rows(ranking.pairs))),
            language=document_language(language),
        )


def circuit_download_name(circuit_slug: str, language: str) -> str:
    """The file name the ranking is downloaded under, in its language:
    ``ranquing-del-circuit-SLUG.pdf``, ``ranking-del-circuito-SLUG.pdf``..."""
    with translation.override(document_language(language)):
        return f"{slugify(_('Rànquing del circuit'))}-{circuit_slug}.pdf"
