"""The long loops of the live fragments, written as HTML here rather than in the
templates: a template loop over 200 rows, each with a ``{% url %}`` tag, translations
and filters, cost more than computing the standings it shows. The markup is the one the
templates wrote (tournaments/live/standings.html and traveller.html hold the rest);
every value is escaped, every word goes through the translation catalogue. Every number
is the read model's own text (``selectors.standings``, ``selectors.traveller``, and
``selectors.classic`` for a classic championship's standings, written here only): these
loops only write markup.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.selectors.boards import Traveller
from tournaments.selectors.classic import ClassicRow, wins_text
from tournaments.selectors.standings import StandingRow
from tournaments.templatetags.botifarra import side, signed, trump
from tournaments.templatetags.double_dummy import dd_mark

#: Stands for a pair's number in a reversed address (the address is reversed once).
_HOLE = 987654321


def _pair_url(slug: str) -> tuple[str, str]:
    """The pair card's address around the pair's number: ``(before, after)``."""
    before, _sep, after = reverse("pair_card", args=[slug, _HOLE]).partition(str(_HOLE))
    return escape(before), escape(after)


def _marks(row: StandingRow | ClassicRow) -> str:
    """A row's mark: withdrawn, bye (sat out the scope's last round) or late."""
    if row.withdrawn:
        title = escape(_("retirada després de la ronda %(n)s")
                       % {"n": row.pair.withdrawn_after_round})
        return f' <span class="badge withdrawn" title="{title}">{escape(_("ret."))}</span>'
    if row.bye:
        return f' <span class="badge bye">{escape(_("descans"))}</span>'
    if row.joins is not None:
        joins = escape(_("entra a la ronda %(n)s") % {"n": row.joins})
        return f' <span class="badge late">{joins}</span>'
    return ""


#: The tiebreak columns a classic championship's standings may add, by tiebreak.
CLASSIC_EXTRA_COLUMNS = ("head_to_head", "buchholz")


def classic_standings_rows(slug: str, rows: Iterable[ClassicRow],
                           extra: Iterable[str] = ()) -> SafeString:
    """A classic championship's standings rows: place, pair, games won, played, points
    for, against, difference, then the ``extra`` tiebreak columns in the order given
    (``head_to_head``, ``buchholz``). A row with no game nor bye in the scope shows "—"
    for its numbers. Every number is the read model's (``selectors.classic.ClassicRow``)."""
    before, after = _pair_url(slug)
    columns = [c for c in extra if c in CLASSIC_EXTRA_COLUMNS]
    out: list[str] = []
    for row in rows:
        pair = row.pair
        names = escape(pair.names)
        if row.has_score:
            cells = [f"<strong>{escape(row.wins_text)}</strong>", str(row.played),
                     str(row.points_for), str(row.points_against),
                     escape(row.difference_text)]
            for column in columns:
                value = row.buchholz if column == "buchholz" else row.head_to_head
                cells.append("—" if value is None else escape(wins_text(value)))
        else:
            cells = ["—", str(row.played), "—", "—", "—", *("—" for _c in columns)]
        tds = "".join(f'<td class="num">{cell}</td>' for cell in cells)
        out.append(
            f'\n    <tr data-pair="{row.number}" data-names="{escape(pair.search_text)}">'
            f'<td class="num">{row.rank_text}</td>\n'
            f'      <td class="who"><a href="{before}{row.number}{after}" title="{names}">'
            f'<strong>{row.number}</strong> <span class="names">{escape(pair.short)}</span>'
            f'</a>{_marks(row)}</td>\n      {tds}</tr>\n  '
        )
    return mark_safe("".join(out))  # noqa: S308 - every value escaped above


def standings_rows(slug: str, rows: Iterable[StandingRow], *,
                   by_average: bool = False) -> SafeString:
    """The standings table's body rows; ``by_average`` (``Standings.by_average``): the
    average, the number the rows rank by, comes before the total."""
    before, after = _pair_url(slug)
    retired, missed_title = escape(_("ret.")), escape(_("taulers comptats com a mitjana"))
    bye = f' <span class="badge bye">{escape(_("descans"))}</span>'
    out: list[str] = []
    for row in rows:
        pair = row.pair
        names = escape(pair.names)
        extra = ""
        if row.withdrawn:
            title = escape(_("retirada després de la ronda %(n)s")
                           % {"n": pair.withdrawn_after_round})
            extra += f' <span class="badge withdrawn" title="{title}">{retired}</span>'
        elif row.bye:
            extra += bye
        elif row.joins is not None:
            joins = escape(_("entra a la ronda %(n)s") % {"n": row.joins})
            extra += f' <span class="badge late">{joins}</span>'
        if row.missed:
            extra += f' <span class="muted" title="{missed_title}">+{row.missed}A</span>'
        first, second = ((row.average_text, row.total_text) if by_average
                         else (row.total_text, row.average_text))
        out.append(
            f'\n    <tr data-pair="{row.number}" data-names="{escape(pair.search_text)}">'
            f'<td class="num">{row.rank_text}</td>\n'
            f'      <td class="who"><a href="{before}{row.number}{after}" title="{names}">'
            f'<strong>{row.number}</strong> <span class="names">{escape(pair.short)}</span>'
            f'</a>{extra}</td>\n'
            f'      <td class="num"><strong>{escape(first)}</strong></td>\n'
            f'      <td class="num">{escape(second)}</td>\n'
            f'      <td class="num">{escape(row.percent_text)}</td></tr>\n  '
        )
    return mark_safe("".join(out))  # noqa: S308 - every value escaped above


def traveller_rows(slug: str, traveller: Traveller) -> SafeString:
    """The traveller table's body rows: one per table that played the board."""
    before, after = _pair_url(slug)
    dd = traveller.double_dummy
    delegated = f'<span class="muted" title="{escape(_("delegat"))}">·d</span>'
    adjusted = escape(_("Puntuació arbitral"))
    doubles = {name: f'<span class="badge">{escape(word)}</span>' for name, word in (
        ("sant_vicenc", _("Sant Vicenç")), ("recontro", _("Recontro")),
        ("contro", _("Contro")))}
    infraction = escape(_("Infracció"))

    out: list[str] = []
    for row in traveller.rows:
        r, score = row.result, row.score
        played: str
        if r.is_adjusted:
            played = adjusted
        else:
            played = str(trump(r.trump)) + (delegated if r.delegated else "")
        badge = (doubles["sant_vicenc"] if r.sant_vicenc else doubles["recontro"]
                 if r.recontro else doubles["contro"] if r.contro else "")
        if r.infraction:
            badge += (f' <span class="badge hidden">{infraction} '
                      f'{escape(side(r.infraction))}</span>')
        taken = "—" if r.ns_points_taken is None else str(r.ns_points_taken)
        mark = f" {dd_mark(row.dd_difference)}" if dd else ""
        ns, ew = row.ns, row.ew
        out.append(
            f'\n  <tr><td class="num">{row.table}</td>\n'
            f'    <td><span class="pairs"><a href="{before}{ns.number}{after}" '
            f'title="{escape(ns.names)}">{ns.number}</a>–<a href="{before}{ew.number}{after}" '
            f'title="{escape(ew.names)}">{ew.number}</a></span><br>{played}\n'
            f'      {badge}</td>\n'
            f'    <td class="num">{taken}{mark}</td>\n'
            f'    <td class="num split">{signed(score.ns_score)} / {signed(score.ew_score)}</td>\n'
            f'    <td class="num split"><strong>{escape(row.ns_comparative_text)}</strong> / '
            f'<strong>{escape(row.ew_comparative_text)}</strong></td></tr>\n  '
        )
    return mark_safe("".join(out))  # noqa: S308 - every value escaped above
