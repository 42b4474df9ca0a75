"""Selectors that turn the championship's rows into the printable documents.

Each builder reads in a constant number of queries (core's selectors score the whole
championship once with ``scoring``, so the numbers are those of the standings page and
of ``python -m scoring``) and returns a frozen document that the renderers draw outside
any transaction.

Language: a document is in one language, given to :func:`build` (the requester's,
docs/decisions.md 32); it builds inside ``translation.override`` of it,
so the rules line and the words put in the document are in that language, and
``Header.language`` tells ``render`` to draw the labels in it too.

Visibility (docs/decisions.md 16, ``selectors.public_board_numbers``): travellers and score
cards never show a board whose results are still hidden from the public, whoever asks;
board sheets and entry forms reveal the deals and are for the organiser and the head
referee only (checked in ``reports.services``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from engine.cards import other_side_points
from engine.deal import Deal
from engine.seats import dealer, first_leader
from tournaments import selectors
from tournaments.models import Board, Championship, Game, Pair, Round, Seating
from tournaments.reports import build_stages, labels
from tournaments.reports.documents import (
    BoardSheet,
    BoardSheets,
    BracketDocument,
    ByePair,
    ClassicRoundPack,
    ClassicStandingRow,
    ClassicStandings,
    ClassicStandingsTable,
    DoubleDummyTable,
    EntryForm,
    EntryFormBoard,
    EntryForms,
    GameRules,
    GroupTables,
    Header,
    Kind,
    KnockoutCards,
    PairCard,
    PairCardLine,
    PairCards,
    Pairing,
    Pairings,
    RoundPack,
    ScoreCard,
    ScoreCardRow,
    ScoreCards,
    ScoreSheets,
    StandingRow,
    Standings,
    StandingsTable,
    TableCard,
    TableCards,
    Traveller,
    TravellerRow,
    Travellers,
)
from tournaments.reports.guide_cards import GuideCard, GuideCards, GuideCardSet
from tournaments.reports.qr import table_link
from tournaments.selectors import classic as classic_reads
from tournaments.selectors.classic_words import ranking_order
from tournaments.selectors.seating import Guide, guide, round_seating
from tournaments.selectors.tables import live_table_secrets

Printable = (BoardSheets | EntryForms | TableCards | RoundPack | Standings | Travellers
             | ScoreCards | GuideCardSet | Pairings | ScoreSheets | ClassicStandings
             | PairCards | ClassicRoundPack | GroupTables | BracketDocument | KnockoutCards)
"""What :func:`build` returns: one of the documents."""


class ReportError(ValueError):
    """A document cannot be built from the championship as it stands (no boards dealt,
    no such round...). The message says what is missing and where."""


@dataclass(frozen=True, slots=True)
class RoundState:
    """What a round has for printing: its tables drawn, its boards, and how many of
    them have a deal (generated)."""

    number: int
    tables: int
    boards: int
    dealt: int


def round_states(championship: Championship) -> dict[int, RoundState]:
    """Every round's :class:`RoundState`, by number (one query)."""
    rows = (Round.objects.filter(championship=championship)
            .annotate(n_tables=Count("seatings", distinct=True),
                      n_boards=Count("boards", distinct=True),
                      n_dealt=Count("boards", filter=Q(boards__deal__isnull=False),
                                    distinct=True))
            .order_by("number").values_list("number", "n_tables", "n_boards", "n_dealt"))
    return {number: RoundState(number, tables, boards, dealt)
            for number, tables, boards, dealt in rows}


def format_refusal(kind: Kind, *, classic: bool) -> str | None:
    """Why ``kind`` is never printed for a championship of that format (``classic``
    or duplicate), in the active language, or ``None`` when it is
    (:meth:`Kind.serves`)."""
    if kind.serves(classic=classic):
        return None
    if not classic:
        return _("Només es fa en un campionat clàssic (partides a 101): en un de "
                 "predonats, imprimiu els rètols de taula i les actes de taula.")
    return {
        Kind.BOARD_SHEETS: _("Un campionat clàssic no té taulers predonats: no hi ha "
                             "mans per preparar."),
        Kind.ENTRY_FORMS: _("Un campionat clàssic no s'anota per taulers: imprimiu els "
                            "fulls d'anotació de la partida."),
        Kind.TRAVELLERS: _("Un campionat clàssic no té taulers predonats: no hi ha fulls "
                           "de recorregut. Imprimiu la classificació o els fulls de "
                           "puntuació."),
        Kind.GUIDE_CARDS: _("En un campionat clàssic cada ronda s'aparella després de "
                            "l'anterior: imprimiu els aparellaments de la ronda."),
    }[kind]


def not_ready(kind: Kind, round_number: int | None, states: dict[int, RoundState],
              *, classic: bool = False) -> str | None:
    """Why ``kind`` cannot be printed yet, in the active language, or ``None`` when it
    can: a document that shows the seating (entry forms, table cards, guide cards, the
    round pack) needs its round drawn, one that shows the deals (board sheets, the
    round pack) its boards generated. ``round_number`` ``None``: for any round (the
    prints page, before a round is chosen); 0: every round. ``states``:
    :func:`round_states`. Standings, travellers and score cards are always ready (they
    print what is public, saying what is missing). ``classic``: the championship plays
    classic games: a kind it does not print is refused (:func:`format_refusal`), and
    nothing of it needs boards (its pairings, table cards, score sheets and round pack
    need the round drawn)."""
    refusal = format_refusal(kind, classic=classic)
    if refusal is not None:
        return refusal
    needs_draw = kind in (Kind.ENTRY_FORMS, Kind.TABLE_CARDS, Kind.ROUND_PACK,
                          Kind.GUIDE_CARDS, Kind.PAIRINGS, Kind.SCORE_SHEETS,
                          Kind.KNOCKOUT_CARDS)
    needs_deals = not classic and kind in (Kind.BOARD_SHEETS, Kind.ROUND_PACK)
    needs_boards = needs_deals or (not classic and kind is Kind.ENTRY_FORMS)
    if not (needs_draw or needs_boards):
        return None
    if round_number is None or (round_number == 0 and not kind.needs_round):
        drawn = [s for s in states.values() if s.tables]
        dealt = [s for s in states.values() if s.boards and s.dealt == s.boards]
        if needs_draw and not drawn:
            return _("Encara no hi ha cap ronda sortejada: es pot imprimir després del "
                     "sorteig.")
        if needs_deals and not dealt:
            return _("Encara no s'han generat els taulers: genereu-los primer.")
        if needs_draw and needs_deals and not {s.number for s in drawn} & {
                s.number for s in dealt}:
            return _("Cap ronda sortejada no té els taulers generats: genereu-los primer.")
        return None
    state = states.get(round_number)
    if state is None:
        return None  # no such round: the request's own check says so
    if needs_boards and not state.boards:
        return _("La ronda %(n)s no té taulers: prepareu les rondes primer.") % {
            "n": round_number}
    if needs_deals and state.dealt < state.boards:
        return _("Els taulers de la ronda %(n)s encara no s'han generat: genereu-los "
                 "primer.") % {"n": round_number}
    if needs_draw and not state.tables:
        return _("La ronda %(n)s encara no està sortejada: es pot imprimir després del "
                 "sorteig.") % {"n": round_number}
    return None


def document_language(code: str | None) -> str:
    """The language a document is printed in, one of ``settings.LANGUAGES`` (``ca``,
    ``es``, ``en``): ``code`` reduced to it (``en-GB`` -> ``en``), the site's default
    (``settings.LANGUAGE_CODE``, Catalan) when ``code`` is empty or unknown. A document
    is in one language, the requester's (the interface language of the request that
    asked for it; ``print_report --language``): docs/decisions.md 32.
    """
    if code:
        try:
            return translation.get_supported_language_variant(code.strip().lower())
        except LookupError:
            pass
    return translation.get_supported_language_variant(settings.LANGUAGE_CODE)


def header(championship: Championship, *, missing: str = "") -> Header:
    """The heading every page repeats: name, date, venue, the active language (``build``
    sets the document's), a rules line written in it, when it is made (local time, now)
    and from which ``results_version``, and ``missing`` (:func:`missing_boards`)."""
    language = document_language(translation.get_language())
    scale = f"{_num(championship.scale_bottom)}-{_num(championship.scale_top)}"
    summary = " · ".join(
        [
            championship.get_variant_display(),
            championship.get_doubling_display(),
            f"{championship.get_method_display()} {scale}",
            championship.get_rounding_display(),
        ]
    )
    if championship.is_classic:
        # A classic championship's line: the variant, the target and the deal limit.
        words = game_rules(championship).lines
        summary = " · ".join([championship.get_variant_display(), *words[:2]])
    return Header(
        championship=championship.name,
        date=_date(championship, language),
        venue=championship.venue,
        language=language,
        rules_summary=str(summary),
        made_at=_made_at(language),
        results_version=championship.results_version,
        missing=missing,
    )


def _made_at(language: str) -> str:
    """Now, local time, as the language writes it: ``30/11/2026 19:05``."""
    pattern = "%Y-%m-%d %H:%M" if language.startswith("en") else "%d/%m/%Y %H:%M"
    return timezone.localtime().strftime(pattern)


def board_list(numbers: list[int]) -> str:
    """Board numbers as printed: ``13, 14``; runs of three or more joined, ``13-16, 20``."""
    parts: list[str] = []
    run: list[int] = []
    for number in [*sorted(set(numbers)), 0]:
        if run and number == run[-1] + 1:
            run.append(number)
            continue
        if len(run) >= 3:
            parts.append(f"{run[0]}-{run[-1]}")
        else:
            parts.extend(str(n) for n in run)
        run = [number]
    return ", ".join(parts)


def missing_boards(
    scored: selectors.ScoredChampionship, *, round_number: int = 0, through_round: int = 0
) -> str:
    """Which boards a results document leaves out and why, in the active language:
    "Falten els taulers 13, 14 (encara no s'han jugat a totes les taules)", or ``""``.

    A board is named when its round is drawn and it is still hidden from the public (some
    table of that round has not played it, ``scoring.visibility``), whether or not any
    table has played it yet: the line then changes only when a board completes, so it
    tells nothing about results still hidden. A board of a round not drawn yet is not
    named (docs/decisions.md). ``round_number`` keeps the boards of that round only
    (travellers of one round); ``through_round`` those of rounds 1..N (standings and
    score cards after round N). No query."""
    seen = scored.visibility
    hidden = sorted(
        board
        for board, round_ in seen.board_rounds.items()
        if round_ is not None
        and seen.tables_due.get(round_, 0)
        and board not in seen.public
        and (not round_number or round_ == round_number)
        and (not through_round or round_ <= through_round)
    )
    if not hidden:
        return ""
    text = ngettext("Falta el tauler %(boards)s (encara no s'ha jugat a totes les taules)",
                    "Falten els taulers %(boards)s (encara no s'han jugat a totes les taules)",
                    len(set(hidden)))
    return text % {"boards": board_list(hidden)}


def _date(championship: Championship, language: str) -> str:
    """The championship's date (and end date) as the language writes it: 29/11/2026."""
    pattern = "%Y-%m-%d" if language.startswith("en") else "%d/%m/%Y"
    days = [d for d in (championship.date, getattr(championship, "end_date", None)) if d]
    return " – ".join(d.strftime(pattern) for d in days)


def _num(value: object) -> str:
    text = str(value)
    return text.rstrip("0").rstrip(".") if "." in text else text


def _players(pair: Pair) -> str:
    return f"{pair.player1.name} – {pair.player2.name}"


def _round_boards(championship: Championship, round_number: int) -> list[Board]:
    boards = list(
        Board.objects.filter(championship=championship, round__number=round_number)
        .order_by("number")
    )
    if not boards:
        raise ReportError(
            _("%(championship)s: la ronda %(round)s no té taulers (prepareu les rondes "
              "primer).") % {"championship": championship.slug, "round": round_number}
        )
    return boards


def board_sheets(
    championship: Championship, *, round_number: int, copies: int = 1, per_page: int = 1
) -> BoardSheets:
    """The board sheets of one round (one query). Raises :class:`ReportError` when the
    round has no boards or a board has no deal yet (boards not generated)."""
    sheets = []
    for board in _round_boards(championship, round_number):
        if board.deal is None:
            raise ReportError(
                _("%(championship)s: el tauler %(board)s de la ronda %(round)s encara no té "
                  "repartiment (genereu els taulers primer).")
                % {"championship": championship.slug, "board": board.number,
                   "round": round_number}
            )
        sheets.append(
            BoardSheet(
                board=board.number,
                round=round_number,
                deal=Deal.from_json(board.deal),
                dealer=dealer(board.number),
                first_leader=first_leader(board.number),
            )
        )
    return BoardSheets(
        header=header(championship),
        round=round_number,
        boards=tuple(sheets),
        copies=copies,
        per_page=per_page,
    )


def entry_forms(championship: Championship, *, round_number: int) -> EntryForms:
    """One form per table of the round (two queries). Raises :class:`ReportError` when
    the round has no boards or no tables drawn yet."""
    boards = _round_boards(championship, round_number)
    seatings = list(
        Seating.objects.filter(round__championship=championship, round__number=round_number)
        .select_related("table", "ns_pair__player1", "ns_pair__player2",
                        "ew_pair__player1", "ew_pair__player2")
        .order_by("table__number")
    )
    if not seatings:
        raise ReportError(
            _("%(championship)s: la ronda %(round)s encara no té les taules sortejades.")
            % {"championship": championship.slug, "round": round_number}
        )
    rows = tuple(EntryFormBoard(board=b.number, dealer=dealer(b.number)) for b in boards)
    return EntryForms(
        header=header(championship),
        round=round_number,
        forms=tuple(
            EntryForm(
                round=round_number,
                table=s.table.number,
                ns_pair=s.ns_pair.number,
                ns_players=_players(s.ns_pair),
                ew_pair=s.ew_pair.number,
                ew_players=_players(s.ew_pair),
                boards=rows,
            )
            for s in seatings
        ),
    )


def table_cards(championship: Championship, *, round_number: int) -> TableCards:
    """One big card per table of the round: the NS and EW pairs with their players and
    the boards played there (``selectors.seating.round_seating``, four queries). Raises
    :class:`ReportError` when the round does not exist or has no tables drawn yet."""
    rnd = Round.objects.filter(championship=championship, number=round_number).first()
    seen = None if rnd is None else round_seating(rnd)
    if seen is None or not seen.tables:
        raise ReportError(
            _("%(championship)s: la ronda %(round)s encara no té les taules sortejades.")
            % {"championship": championship.slug, "round": round_number}
        )
    boards = board_list(list(seen.boards))
    links = table_links(championship)
    return TableCards(
        header=header(championship),
        round=round_number,
        cards=tuple(
            TableCard(table=row.table, ns_pair=row.ns.number, ns_players=row.ns.names,
                      ew_pair=row.ew.number, ew_players=row.ew.names, boards=boards,
                      link=links.get(row.table, ""))
            for row in seen.tables
        ),
    )


def table_links(championship: Championship) -> dict[int, str]:
    """Each table's link for the QR codes of its cards (its live secret's page); empty
    when the championship takes no results from the tables. Read only: the print's
    request issues the tables' secrets (``reports.services``)."""
    return {number: table_link(secret)
            for number, secret in live_table_secrets(championship).items()}


def round_pack(championship: Championship, *, round_number: int, copies: int | None = None,
               per_page: int = 1) -> RoundPack:
    """Everything round ``round_number`` needs, for one PDF: its board sheets (``copies``
    of each board; ``None``: one per table of the round), its entry forms and its table
    cards. Raises :class:`ReportError` as each of the three does (boards not generated,
    tables not drawn)."""
    cards = table_cards(championship, round_number=round_number)
    forms = entry_forms(championship, round_number=round_number)
    sheets = board_sheets(championship, round_number=round_number,
                          copies=copies or len(cards.cards), per_page=per_page)
    return RoundPack(header=sheets.header, round=round_number, board_sheets=sheets,
                     entry_forms=forms, table_cards=cards)


def _progress(progress: scoring.Progress) -> str:
    """"results in/results expected", as the document carries it (the read model's
    numbers; the renderer words it)."""
    return f"{progress.results_in}/{progress.results_expected}"


def _standing_rows(rows: Iterable[selectors.StandingRow]) -> tuple[StandingRow, ...]:
    """The read model's rows (``selectors.standings``) as the document's: the texts the
    standings page prints, the export's numbers and the row's mark."""
    return tuple(
        StandingRow(
            rank=row.rank,
            pair=row.number,
            players=row.pair.names,
            total=row.total_out,
            boards=row.boards,
            average=row.average_out,
            percentage=row.percentage,
            total_text=row.total_text,
            average_text=row.average_text,
            percentage_text=row.percent_text,
            status=row.status,
            joins=row.joins,
        )
        for row in rows
    )


def standings(championship: Championship, *, through_round: int = 0) -> Standings:
    """Overall standings, then the standings after each round (cumulative over rounds
    1..r); with ``through_round`` only the standings after that round. The rows are the
    standings page's (``selectors.standings``, the same read model, scored once), with
    its column order (``by_average``). Anyone may print standings, so they count only
    the boards public now (``for_public``), like the public standings page. Constant
    queries."""
    scored = selectors.scored_championship(championship, public_only=True)
    if through_round:
        view = selectors.standings(championship, through_round=through_round,
                                   for_public=True, scored=scored)
        return Standings(
            header=header(championship, missing=missing_boards(
                scored, through_round=through_round)),
            tables=(StandingsTable(title="", through_round=through_round,
                                   rows=_standing_rows(view.rows),
                                   by_average=view.by_average),),
            # The rounds it covers, as the standings page after that round counts them.
            progress=_progress(view.progress),
        )
    view = selectors.standings(championship, for_public=True, scored=scored)
    after = selectors.standings_after_each_round(championship, for_public=True,
                                                 scored=scored)
    tables = [StandingsTable(title="", through_round=None, rows=_standing_rows(view.rows),
                             by_average=view.by_average)]
    if len(after) > 1:
        tables += [
            StandingsTable(title="", through_round=n, rows=_standing_rows(after[n]),
                           by_average=view.by_average)
            for n in sorted(after)
        ]
    return Standings(header=header(championship, missing=missing_boards(scored)),
                     tables=tuple(tables),
                     progress=_progress(view.progress))


def _doubles(result: selectors.ResultValues) -> str:
    parts = []
    if result.contro:
        parts.append("C")
    if result.recontro:
        parts.append("R")
    if result.sant_vicenc:
        parts.append("SV")
    return " ".join(parts)


def _note(result: selectors.ResultValues) -> str:
    if result.infraction:
        return _("Infracció %(side)s") % {"side": labels.side(result.infraction)}
    if result.adjusted_ns:
        return _("Puntuació arbitral %(ns)s/%(ew)s") % {"ns": result.adjusted_ns,
                                                        "ew": result.adjusted_ew}
    return ""


def travellers(championship: Championship, *, round_number: int = 0) -> Travellers:
    """Travellers of every public board (of ``round_number`` when not 0), in board order:
    the traveller pages' rows (``selectors.travellers``, the same read model) with each
    table's result, hand scores and comparative points, the deal and its double-dummy
    table when computed. Boards still hidden from the public are left out, whoever
    asks. Constant query count."""
    scored = selectors.scored_championship(championship, public_only=True)
    out = []
    for sheet in selectors.travellers(championship, round_number=round_number,
                                      for_public=True, scored=scored):
        if not sheet.public:
            continue
        rows = tuple(
            TravellerRow(
                table=row.table,
                ns_pair=row.ns.number,
                ew_pair=row.ew.number,
                trump=row.result.trump or "",
                delegated=row.result.delegated,
                doubles=_doubles(row.result),
                ns_points_taken=row.result.ns_points_taken,
                ns_score=row.score.ns_score,
                ew_score=row.score.ew_score,
                ns_comparative=row.ns_comparative_out,
                ew_comparative=row.ew_comparative_out,
                note=_note(row.result),
                dd_difference=row.dd_difference,
                # The read model's texts: one number of decimals down each column.
                ns_comparative_text=row.ns_comparative_text,
                ew_comparative_text=row.ew_comparative_text,
            )
            for row in sheet.rows
        )
        # A board of no single round (imported) is printed under the round it was
        # first played in.
        shown_round = sheet.round if sheet.round is not None else (
            sheet.rows[0].round if sheet.rows else 0)
        out.append(
            Traveller(
                board=sheet.board,
                round=shown_round,
                dealer=sheet.dealer,
                deal=sheet.deal,
                rows=rows,
                double_dummy=_double_dummy(sheet.double_dummy),
            )
        )
    return Travellers(
        header=header(championship, missing=missing_boards(scored, round_number=round_number)),
        travellers=tuple(out),
    )


def _double_dummy(dd: selectors.DoubleDummy | None) -> DoubleDummyTable | None:
    if dd is None:
        return None
    return DoubleDummyTable(
        lines=tuple((line.trump, line.ns_points, line.is_par) for line in dd.lines),
        declarer=dd.declarer.value,
        par_score=dd.par_score,
    )


def result_text(result: selectors.ResultValues) -> str:
    """A result in a few characters, in the active language: trump, doubles and the
    points NS-EW took, e.g. ``Oros C 41-31``."""
    if result.adjusted_ns:
        return _("Puntuació arbitral")
    parts = [labels.trump(result.trump or "")]
    if result.delegated:
        parts.append("(D)")
    doubles = _doubles(result)
    if doubles:
        parts.append(doubles)
    if result.ns_points_taken is not None:
        parts.append(f"{result.ns_points_taken}-{other_side_points(result.ns_points_taken)}")
    if result.infraction:
        parts.append("[" + _("Infracció %(side)s") % {"side": labels.side(result.infraction)}
                     + "]")
    return " ".join(parts)


def score_cards(
    championship: Championship, *, pair_number: int = 0, through_round: int = 0
) -> ScoreCards:
    """Score cards of every pair (or of pair ``pair_number``): the pair card pages' read
    model (``selectors.score_cards``), each board in round and board order with its
    running total; with ``through_round`` only the boards of rounds 1..``through_round``
    and the total of the standings after it. Boards still hidden from the public are
    left out and do not count. Comparative points as the web writes them
    (``tournaments.numbers``). Constant query count. Raises :class:`ReportError` for a
    pair that does not exist."""
    scored = selectors.scored_championship(championship, public_only=True)
    cards = []
    for card in selectors.score_cards(championship, for_public=True,
                                      through_round=through_round or None, scored=scored):
        if pair_number and card.pair.number != pair_number:
            continue
        rows = tuple(
            ScoreCardRow(
                round=row.round,
                board=row.board,
                opponents=row.opponent.number,
                opponent_players=row.opponent.names,
                direction=row.direction.value,
                result=result_text(row.result),
                score=row.score,
                comparative=row.comparative_out,
                running_total=row.running_total_out,
                # The read model's texts: one number of decimals down each column.
                comparative_text=row.comparative_text,
                running_total_text=row.running_total_text,
            )
            for row in card.rows
        )
        cards.append(ScoreCard(pair=card.pair.number, players=card.pair.names, rows=rows,
                               total=card.total_out, total_text=card.total_text))
    if pair_number and not cards:
        raise ReportError(_("%(championship)s: no hi ha cap parella %(pair)s.")
                          % {"championship": championship.slug, "pair": pair_number})
    return ScoreCards(
        header=header(championship, missing=missing_boards(scored, through_round=through_round)),
        cards=tuple(cards),
        through_round=through_round)


def build(
    championship: Championship,
    kind: Kind,
    *,
    round_number: int = 0,
    copies: int | None = 1,
    per_page: int = 1,
    language: str | None = None,
) -> Printable:
    """The document of ``kind`` for ``championship`` in ``language`` (``ca``, ``es``,
    ``en``; see :func:`document_language`, the site's default when ``None``): its
    header, rules line, dates and words are built inside ``translation.override`` of it,
    and ``render`` draws it in the same one. ``round_number``: board sheets and entry
    forms, table cards and the round pack print that round (required, 1 or more);
    ``copies`` of each board sheet, ``None`` one per table of the round (1 before the
    draw); standings and score cards count
    rounds 1..N; travellers show the boards of round N; guide cards the seating of round
    N; 0 means every round for these four. Raises :class:`ReportError` (its message in
    ``language`` too)."""
    with translation.override(document_language(language)):
        return _build(championship, kind, round_number=round_number, copies=copies,
                      per_page=per_page)


def _build(
    championship: Championship, kind: Kind, *, round_number: int, copies: int | None,
    per_page: int,
) -> Printable:
    if kind.needs_round and round_number < 1:
        raise ReportError(_("%(kind)s: cal dir quina ronda.") % {"kind": kind.label})
    refusal = format_refusal(kind, classic=championship.is_classic)
    if refusal is not None:
        raise ReportError(_("%(kind)s: %(reason)s") % {"kind": kind.label,
                                                        "reason": refusal})
    if championship.is_classic:
        return _build_classic(championship, kind, round_number=round_number)
    if kind is Kind.BOARD_SHEETS:
        if copies is None:
            copies = max(1, Seating.objects.filter(
                round__championship=championship, round__number=round_number).count())
        return board_sheets(championship, round_number=round_number, copies=copies,
                            per_page=per_page)
    if kind is Kind.ENTRY_FORMS:
        return entry_forms(championship, round_number=round_number)
    if kind is Kind.TABLE_CARDS:
        return table_cards(championship, round_number=round_number)
    if kind is Kind.ROUND_PACK:
        return round_pack(championship, round_number=round_number, copies=copies,
                          per_page=per_page)
    if kind is Kind.STANDINGS:
        return standings(championship, through_round=round_number)
    if kind is Kind.TRAVELLERS:
        return travellers(championship, round_number=round_number)
    if kind is Kind.GUIDE_CARDS:
        return build_guide_card_set(championship, round_number=round_number,
                                    header=header(championship))
    return score_cards(championship, through_round=round_number)


# --------------------------------------------------------------------------- guide cards


def build_guide_cards(
    championship: Championship, *, by: str, round_number: int = 0,
    header: Header | None = None, seen: Guide | None = None,
) -> GuideCards:
    """The guide cards of every drawn round (only round ``round_number`` when not 0),
    per table (``by="table"``) or per pair (``"pair"``), labels in the active language.
    ``header``: the page heading (``build.header``, which carries the document's
    language); a plain one in Catalan when ``None``. ``seen``: the seating already read
    (``selectors.seating.guide``), else read here (four queries). Raises ``ValueError`` for
    another ``by``."""
    if by not in ("table", "pair"):
        raise ValueError(f"guide cards are by table or by pair, not {by!r}")
    if seen is None:
        seen = guide(championship)
    if header is None:
        header = Header(
            championship=championship.name,
            date=championship.date.isoformat() if championship.date else "",
            venue=championship.venue,
        )
    cards: list[GuideCard] = []
    if by == "table":
        for table, rows in seen.tables.items():
            lines = tuple((str(r), str(ns), str(ew)) for r, ns, ew in rows
                          if not round_number or r == round_number)
            if lines:
                cards.append(GuideCard(
                    _("Taula %(n)s") % {"n": table}, "",
                    (_("Ronda"), _("Parella NS"), _("Parella EO")), lines,
                ))
    else:
        for pair, seats in seen.pairs.items():
            lines = tuple(
                (str(s.round), "—", _("descansa")) if s.bye
                else (str(s.round), str(s.table), labels.side(s.direction or ""))
                for s in seats
                if not round_number or s.round == round_number
            )
            if lines:
                cards.append(GuideCard(
                    _("Parella %(n)s") % {"n": pair}, seen.names.get(pair, ""),
                    (_("Ronda"), _("Taula"), _("Línia")), lines,
                ))
    return GuideCards(header=header, by=by, cards=tuple(cards))


def build_guide_card_set(
    championship: Championship, *, round_number: int = 0, header: Header | None = None
) -> GuideCardSet:
    """Table cards and pair cards of every drawn round (of round ``round_number`` only
    when not 0), from one read of the seating (four queries)."""
    seen = guide(championship)
    tables = build_guide_cards(championship, by="table", round_number=round_number,
                               header=header, seen=seen)
    pairs = build_guide_cards(championship, by="pair", round_number=round_number,
                              header=tables.header, seen=seen)
    return GuideCardSet(header=tables.header, tables=tables, pairs=pairs)


# ---------------------------------------------------------------- classic championships


def game_rules(championship: Championship) -> GameRules:
    """A classic championship's game rules as the table cards and score sheets print
    them (``Championship.classic_rules``), worded in the active language: the target,
    the deal limit and the extra deals of a level game, the time limit, the cap, the
    doubles allowed and the variant. No query."""
    rules = championship.classic_rules()
    most = rules.most_deals
    extra = 0 if most is None or rules.max_deals is None else most - rules.max_deals
    lines = [ngettext("Partida a %(n)s punt", "Partida a %(n)s punts",
                      rules.game_target) % {"n": rules.game_target}]
    if rules.max_deals is None:
        lines.append(_("Sense límit de mans"))
    else:
        lines.append(ngettext("Com a màxim %(n)s mà", "Com a màxim %(n)s mans",
                              rules.max_deals) % {"n": rules.max_deals})
    if extra:
        lines.append(ngettext("%(n)s mà més si la partida va empatada",
                              "%(n)s mans més si la partida va empatada", extra)
                     % {"n": extra})
    minutes = rules.time_limit_minutes
    lines.append(_("Sense límit de temps") if minutes is None else ngettext(
        "Temps límit: %(n)s minut", "Temps límit: %(n)s minuts", minutes) % {"n": minutes})
    lines.append(_("Es compten tots els punts") if rules.score_cap is None else
                 _("Es compten fins a %(n)s punts") % {"n": rules.score_cap})
    doubles = [name for name, allowed in (("contro", rules.contro),
                                          ("recontro", rules.recontro)) if allowed]
    if rules.sant_vicenc:
        doubles.append(_("Sant Vicenç (també en botifarra)")
                       if rules.sant_vicenc_on_botifarra else "Sant Vicenç")
    lines.append(_("Doblatges: %(doubles)s") % {"doubles": ", ".join(doubles)} if doubles
                 else _("Sense doblatges"))
    lines.append(_("Variant: %(variant)s") % {
        "variant": championship.get_variant_display()})
    return GameRules(
        target=rules.game_target, max_deals=rules.max_deals, extra_deals=extra,
        time_limit_minutes=minutes, score_cap=rules.score_cap, contro=rules.contro,
        recontro=rules.recontro, sant_vicenc=rules.sant_vicenc, lines=tuple(lines),
        deal_lines=most if most is not None else NO_LIMIT_DEAL_LINES,
    )


#: The lines of a score sheet when the championship sets no deal limit.
NO_LIMIT_DEAL_LINES = 16


def _round_games(championship: Championship, round_number: int) -> classic_reads.RoundGames:
    """The round's tables and byes (``selectors.classic.round_games``, three queries).
    Raises :class:`ReportError` when the round does not exist or is not drawn yet."""
    rnd = Round.objects.filter(championship=championship, number=round_number).first()
    seen = None if rnd is None else classic_reads.round_games(championship, rnd)
    if seen is None or not seen.tables:
        raise ReportError(
            _("%(championship)s: la ronda %(round)s encara no té les taules sortejades.")
            % {"championship": championship.slug, "round": round_number}
        )
    return seen


def _pairings(seen: classic_reads.RoundGames) -> tuple[Pairing, ...]:
    return tuple(Pairing(table=t.table, ns_pair=t.ns.number, ns_players=t.ns.names,
                         ew_pair=t.ew.number, ew_players=t.ew.names) for t in seen.tables)


def pairings(championship: Championship, *, round_number: int,
             seen: classic_reads.RoundGames | None = None) -> Pairings:
    """A classic round's pairings for the wall: table, NS pair, EW pair, and the pairs
    that sit out (``selectors.classic.round_games``). Raises :class:`ReportError` when
    the round is not drawn."""
    seen = seen or _round_games(championship, round_number)
    return Pairings(
        header=header(championship), round=round_number, tables=_pairings(seen),
        byes=tuple(ByePair(pair=p.number, players=p.names) for p in seen.byes),
    )


def classic_table_cards(championship: Championship, *, round_number: int,
                        seen: classic_reads.RoundGames | None = None) -> TableCards:
    """A classic round's table cards: the table, its two pairs and the game's rules
    (:func:`game_rules`). Raises :class:`ReportError` when the round is not drawn."""
    seen = seen or _round_games(championship, round_number)
    links = table_links(championship)
    return TableCards(
        header=header(championship), round=round_number,
        cards=tuple(TableCard(table=p.table, ns_pair=p.ns_pair, ns_players=p.ns_players,
                              ew_pair=p.ew_pair, ew_players=p.ew_players, boards="",
                              link=links.get(p.table, ""))
                    for p in _pairings(seen)),
        rules=game_rules(championship),
    )


def score_sheets(championship: Championship, *, round_number: int,
                 seen: classic_reads.RoundGames | None = None) -> ScoreSheets:
    """A classic round's score sheets, one per table, with the game's rules and a line
    per deal the game can last (:attr:`GameRules.deal_lines`). Raises
    :class:`ReportError` when the round is not drawn."""
    seen = seen or _round_games(championship, round_number)
    rules = game_rules(championship)
    ended = Game.EndedBy
    ends = [ended.TARGET.label]
    if rules.max_deals is not None:
        ends.append(ended.DEALS.label)
    if rules.time_limit_minutes is not None:
        ends.append(ended.TIME.label)
    return ScoreSheets(header=header(championship), round=round_number, rules=rules,
                       sheets=_pairings(seen), ends=tuple(str(e) for e in ends))


def classic_round_pack(championship: Championship, *, round_number: int
                       ) -> ClassicRoundPack:
    """Everything a classic round needs, one read of the round: its pairings, its table
    cards (the knockout cards in a round of a knockout) and its score sheets. Raises
    :class:`ReportError` when it is not drawn."""
    seen = _round_games(championship, round_number)
    wall = pairings(championship, round_number=round_number, seen=seen)
    knockout = None
    if build_stages.is_knockout_round_number(championship, round_number):
        knockout = build_stages.knockout_cards(
            championship, round_number=round_number, head=wall.header,
            rules=game_rules(championship))
    return ClassicRoundPack(
        header=wall.header, round=round_number, pairings=wall,
        table_cards=classic_table_cards(championship, round_number=round_number, seen=seen),
        score_sheets=score_sheets(championship, round_number=round_number, seen=seen),
        knockout_cards=knockout,
    )


#: The tiebreak columns a classic standings table may add after the difference.
TIEBREAK_COLUMNS = ("buchholz", "head_to_head")


def _classic_rows(rows: Iterable[classic_reads.ClassicRow], columns: tuple[str, ...]
                  ) -> tuple[ClassicStandingRow, ...]:
    """The read model's rows as the document's: its texts, nothing computed here."""
    return tuple(
        ClassicStandingRow(
            rank=row.rank, pair=row.number, players=row.pair.names, wins=row.wins_text,
            played=row.played, points_for=row.points_for,
            points_against=row.points_against, difference=row.difference_text,
            buchholz=row.buchholz_text if "buchholz" in columns else "",
            head_to_head=(classic_reads.wins_text(row.head_to_head)
                          if "head_to_head" in columns and row.head_to_head is not None
                          else ""),
            status=row.status, joins=row.joins,
        )
        for row in rows
    )


def missing_games(view: classic_reads.ClassicStandings) -> str:
    """Which games a classic standings document does not count yet, in the active
    language: "Falten 3 partides per entrar (ronda 2: 1, ronda 3: 2)", or ``""``.
    Rounds in the view's scope (rounds 1..N after round N) only. No query."""
    short = [(p.number, p.results_expected - p.results_in) for p in view.round_progress
             if (view.through_round is None or p.number <= view.through_round)
             and p.results_in < p.results_expected]
    if not short:
        return ""
    count = sum(n for _r, n in short)
    where = ", ".join(_("ronda %(round)s: %(n)s") % {"round": r, "n": n} for r, n in short)
    return ngettext("Falta %(n)s partida per entrar (%(where)s)",
                    "Falten %(n)s partides per entrar (%(where)s)", count) % {
        "n": count, "where": where}


def classic_standings(championship: Championship, *, through_round: int = 0
                      ) -> ClassicStandings:
    """A classic championship's standings (``selectors.classic.classic_standings``, the
    one read model; games read once): overall, then after each round, or only after
    ``through_round``; the ranking order in the pages' sentence
    (``selectors.classic_words.ranking_order``), the tiebreak columns in use, the games
    in out of the games due and which are still missing."""
    data = classic_reads.championship_games(championship)
    view = classic_reads.classic_standings(championship, through_round=through_round or None,
                                           data=data)
    columns = tuple(c for c in TIEBREAK_COLUMNS if c in view.tiebreaks)
    tables = [ClassicStandingsTable(through_round or None, _classic_rows(view.rows, columns))]
    if not through_round and len(view.rounds) > 1:
        tables += [
            ClassicStandingsTable(n, _classic_rows(classic_reads.classic_standings(
                championship, through_round=n, data=data).rows, columns))
            for n in view.rounds
        ]
    return ClassicStandings(
        header=header(championship, missing=missing_games(view)),
        tables=tuple(tables),
        order=ranking_order(championship.classic_rules()),
        columns=columns,
        progress=_progress(view.progress),
    )


def _card_line(line: classic_reads.CardLine) -> PairCardLine:
    """A pair card's round in words (the read model's numbers, as they are)."""
    score = ""
    if line.points is not None:
        score = f"{line.points} – {line.opponent_points}"
        if (line.counted, line.opponent_counted) != (line.points, line.opponent_points):
            score += f" ({line.counted} – {line.opponent_counted})"
    result = {  # the pair card page's words
        "won": _("guanyada"), "lost": _("perduda"), "level": _("empatada"),
        "bye": _("descans"), "playing": _("en joc"),
    }.get(line.result, line.result)
    return PairCardLine(
        round=line.round, table=line.table,
        opponent=None if line.opponent is None else line.opponent.number,
        opponent_players="" if line.opponent is None else line.opponent.names,
        score=score, result=result, wins_after=line.wins_after_text,
        rank_after="—" if line.rank_after is None else str(line.rank_after),
    )


def pair_cards(championship: Championship, *, pair_number: int = 0,
               through_round: int = 0) -> PairCards:
    """Classic pair cards of every pair (or of pair ``pair_number``): each round's
    opponent, score, result, running wins and rank after it
    (``selectors.classic.pair_card``); with ``through_round`` rounds 1..N only. Raises
    :class:`ReportError` for a pair that does not exist."""
    names = selectors.pair_names(championship)
    numbers = sorted(names) if not pair_number else [pair_number]
    if pair_number and pair_number not in names:
        raise ReportError(_("%(championship)s: no hi ha cap parella %(pair)s.")
                          % {"championship": championship.slug, "pair": pair_number})
    read = classic_reads.pair_cards(championship, numbers)
    cards = tuple(
        PairCard(pair=n, players=names[n].names, lines=tuple(
            _card_line(line) for line in read[n]
            if not through_round or line.round <= through_round))
        for n in numbers
    )
    cap = championship.classic_rules().score_cap
    note = "" if cap is None else _(
        "Punts com s'han entrat; entre parèntesis, els que compten quan passen de "
        "%(cap)s.") % {"cap": cap}
    return PairCards(header=header(championship), cards=cards, through_round=through_round,
                     cap_note=note)


def _build_classic(championship: Championship, kind: Kind, *, round_number: int
                   ) -> Printable:
    """The document of ``kind`` for a classic championship (a kind it prints,
    :func:`format_refusal`); a stage's kinds from ``build_stages``."""
    if kind.stage is not None:
        try:
            if kind is Kind.GROUP_TABLES:
                return build_stages.group_tables(championship, head=header(championship))
            if kind is Kind.BRACKET:
                return build_stages.bracket(championship, head=header(championship))
            return build_stages.knockout_cards(
                championship, round_number=round_number, head=header(championship),
                rules=game_rules(championship))
        except build_stages.StageRefused as exc:
            raise ReportError(str(exc)) from None
    if kind is Kind.PAIRINGS:
        return pairings(championship, round_number=round_number)
    if kind is Kind.TABLE_CARDS:
        return classic_table_cards(championship, round_number=round_number)
    if kind is Kind.SCORE_SHEETS:
        return score_sheets(championship, round_number=round_number)
    if kind is Kind.ROUND_PACK:
        return classic_round_pack(championship, round_number=round_number)
    if kind is Kind.STANDINGS:
        return classic_standings(championship, through_round=round_number)
    return pair_cards(championship, through_round=round_number)
