"""The printable documents as plain values: what each PDF shows, nothing about how.

``build.py`` fills them from the database; the renderers turn them into PDF bytes and
never touch the ORM (docs/architecture.md). Every class is a frozen dataclass so that a
document can be built in one transaction and rendered outside it.

Numbers: points taken 0..72, hand scores signed ints, comparative points, totals and
averages on the championship's scale (``bottom``..``top``) as the export and the web
write them (``tournaments.numbers``: ``int`` when whole, else a ``float`` with at most 4
decimals), percentages 0..100 (``float``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine.cards import other_side_points
from engine.deal import Deal
from engine.seats import Seat


class Kind(enum.Enum):
    """The kinds of document, spelled as on the command line."""

    BOARD_SHEETS = "board-sheets"
    ENTRY_FORMS = "entry-forms"
    TABLE_CARDS = "table-cards"
    ROUND_PACK = "round-pack"
    STANDINGS = "standings"
    TRAVELLERS = "travellers"
    SCORE_CARDS = "score-cards"
    GUIDE_CARDS = "guide-cards"
    PAIRINGS = "pairings"
    SCORE_SHEETS = "score-sheets"
    GROUP_TABLES = "group-tables"
    BRACKET = "bracket"
    KNOCKOUT_CARDS = "knockout-cards"

    @property
    def reveals_deals(self) -> bool:
        """Board sheets, entry forms and the round pack (which holds both) are for the
        organiser and head referee only. A classic round pack shows no deals, but stays
        theirs: it is the organiser's to print, like the duplicate one."""
        return self in (Kind.BOARD_SHEETS, Kind.ENTRY_FORMS, Kind.ROUND_PACK)

    @property
    def needs_round(self) -> bool:
        """Board sheets, entry forms, table cards, the round pack, pairings and score
        sheets are printed for one round (the others take a round too, optionally: 0
        means every round)."""
        return self in (Kind.BOARD_SHEETS, Kind.ENTRY_FORMS, Kind.TABLE_CARDS,
                        Kind.ROUND_PACK, Kind.PAIRINGS, Kind.SCORE_SHEETS,
                        Kind.KNOCKOUT_CARDS)

    @property
    def stage(self) -> str | None:
        """The stage (``Stage.Kind`` value) the kind prints, ``None`` for the kinds of
        any championship: the group tables need a groups stage, the bracket and the
        knockout cards a knockout."""
        return {Kind.GROUP_TABLES: "groups", Kind.BRACKET: "knockout",
                Kind.KNOCKOUT_CARDS: "knockout"}.get(self)

    @property
    def takes_copies(self) -> bool:
        """Board sheets (alone or in the round pack) come in copies, one per table."""
        return self in (Kind.BOARD_SHEETS, Kind.ROUND_PACK)

    @property
    def follows_results(self) -> bool:
        """Standings, travellers and score cards show results: a done one is reused
        while the results are as they were (``reports.services.results_state``). Guide
        cards show the seating, which changes without a result (a draw, an edit in the
        admin), and board sheets and entry forms the deals: built anew each time."""
        return self in (Kind.STANDINGS, Kind.TRAVELLERS, Kind.SCORE_CARDS)

    def serves(self, *, classic: bool) -> bool:
        """Whether the kind is printed for a championship of that format. A classic
        championship has no boards dealt in advance and a draw per round: no board
        sheets, entry forms by board, travellers or guide cards; its own pairings and
        score sheets instead. The other kinds serve both."""
        if classic:
            return self not in DUPLICATE_ONLY
        return self not in CLASSIC_ONLY

    @property
    def label(self) -> str:
        """The kind's name in the active language (the msgids of ``PrintJob.Kind``)."""
        return {
            Kind.BOARD_SHEETS: _("Fulls de mans"),
            Kind.ENTRY_FORMS: _("Actes de taula"),
            Kind.TABLE_CARDS: _("Rètols de taula"),
            Kind.ROUND_PACK: _("Paquet de la ronda"),
            Kind.STANDINGS: _("Classificació"),
            Kind.TRAVELLERS: _("Fulls de recorregut"),
            Kind.SCORE_CARDS: _("Fulls de puntuació"),
            Kind.GUIDE_CARDS: _("Cartells de taula i de parella"),
            Kind.PAIRINGS: _("Aparellaments de la ronda"),
            Kind.SCORE_SHEETS: _("Fulls d'anotació de la partida"),
            Kind.GROUP_TABLES: _("Quadres dels grups"),
            Kind.BRACKET: _("Quadre de les eliminatòries"),
            Kind.KNOCKOUT_CARDS: _("Fulls de les eliminatòries"),
        }[self]


#: The kinds a classic championship does not print (:meth:`Kind.serves`).
DUPLICATE_ONLY = frozenset({Kind.BOARD_SHEETS, Kind.ENTRY_FORMS, Kind.TRAVELLERS,
                            Kind.GUIDE_CARDS})
#: The kinds only a classic championship prints.
CLASSIC_ONLY = frozenset({Kind.PAIRINGS, Kind.SCORE_SHEETS, Kind.GROUP_TABLES,
                          Kind.BRACKET, Kind.KNOCKOUT_CARDS})


@dataclass(frozen=True, slots=True)
class Header:
    """What every page says at the top.

    ``language``: ``ca``, ``es`` or ``en``, the document's one language (the
    requester's; ``render`` draws every label in it, ``build`` wrote the rest in it).
    ``rules_summary``: one line, e.g. "obligada · duplicate · proportional 1-2".
    ``made_at``: when the document was built, local time as the language writes it
    (``30/11/2026 19:05``); ``results_version``: ``Championship.results_version`` it was
    built from (``None`` for a document made outside a championship, as in tests).
    ``missing``: which boards a results document leaves out and why (one line, empty
    when none), see ``build.missing_boards``.
    """

    championship: str
    date: str = ""
    venue: str = ""
    language: str = "ca"
    rules_summary: str = ""
    made_at: str = ""
    results_version: int | None = None
    missing: str = ""

    @property
    def stamp(self) -> str:
        """"Fet el 30/11/2026 19:05 · versió dels resultats 7" in the active language;
        empty when neither is known."""
        if not self.made_at and self.results_version is None:
            return ""
        return _("Fet el %(when)s · versió dels resultats %(version)s") % {
            "when": self.made_at or "?",
            "version": "?" if self.results_version is None else self.results_version,
        }

    @property
    def footer(self) -> str:
        """The line at the foot of every page: the stamp, then the championship."""
        return " · ".join(part for part in (self.stamp, self.championship) if part)


def download_name(kind: Kind, championship_slug: str, round_number: int, language: str) -> str:
    """The file name a document is downloaded under, in its language: the kind's name
    and the round slugified, then the championship's slug, e.g.
    ``classificacio-open-2026.pdf``, ``clasificacion-open-2026.pdf``,
    ``standings-open-2026.pdf``, ``fulls-de-mans-open-2026-ronda-2.pdf``."""
    with translation.override(language):
        name = f"{slugify(kind.label)}-{championship_slug}"
        if round_number:
            name += "-" + slugify(_("Ronda %(n)s") % {"n": round_number})
    return f"{name}.pdf"


# Board sheets ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardSheet:
    """One board as it must be made up: the four hands, dealer and first leader."""

    board: int
    round: int
    deal: Deal
    dealer: Seat
    first_leader: Seat


@dataclass(frozen=True, slots=True)
class BoardSheets:
    """Board sheets for one round: ``copies`` sheets of every board (one per table),
    grouped by board; ``per_page`` 1 or 4 boards on an A4 page."""

    header: Header
    round: int
    boards: tuple[BoardSheet, ...]
    copies: int = 1
    per_page: int = 1

    def __post_init__(self) -> None:
        if self.per_page not in (1, 4):
            raise ValueError(f"per_page={self.per_page}: board sheets take 1 or 4 per page")
        if self.copies < 1:
            raise ValueError(f"copies={self.copies}: at least one copy")


# Referee entry forms ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryFormBoard:
    board: int
    dealer: Seat


@dataclass(frozen=True, slots=True)
class EntryForm:
    """One table in one round: the pairs and a row per board to fill in by hand."""

    round: int
    table: int
    ns_pair: int
    ns_players: str
    ew_pair: int
    ew_players: str
    boards: tuple[EntryFormBoard, ...]


@dataclass(frozen=True, slots=True)
class EntryForms:
    header: Header
    round: int
    forms: tuple[EntryForm, ...]


# Table cards -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableCard:
    """One table in one round, to stand on it: which pairs sit NS and EW and the boards
    played there."""

    table: int
    ns_pair: int
    ns_players: str
    ew_pair: int
    ew_players: str
    boards: str  # e.g. "1-4", as ``build.board_list`` writes them
    #: The table's own page (its QR code and the link under it), when the championship
    #: takes results from the tables; ``""``: none printed.
    link: str = ""


@dataclass(frozen=True, slots=True)
class TableCards:
    """The table cards of one round, one big card (an A4 landscape page) per table."""

    header: Header
    round: int
    cards: tuple[TableCard, ...]
    #: A classic championship's game rules, printed on every card (``None``: duplicate,
    #: whose cards name the boards instead).
    rules: GameRules | None = None


# The round pack ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundPack:
    """Everything one round needs, one PDF: the board sheets (one copy per table), the
    entry forms and the table cards."""

    header: Header
    round: int
    board_sheets: BoardSheets
    entry_forms: EntryForms
    table_cards: TableCards


# Standings -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandingRow:
    """``total`` and ``average`` in comparative points; ``percentage`` 0..100 of the
    scale: ``(average - bottom) / (top - bottom) * 100`` (``scoring.percentage``).
    ``*_text``: the standings page's own text of each (``selectors.standings``: the
    same decimals down a column), which the PDF prints so that page and paper read
    alike; empty in a document built by hand, which then prints the numbers with the
    same decimals down each column. ``None`` numbers: a pair with no score in the
    standings' scope (a bye, a late entry). ``status``: ``playing``, ``withdrawn``,
    ``bye`` or ``late`` (``selectors.StandingRow.status``), which the renderer words
    next to the players; ``joins``: the round a late pair joins. ``rank`` ``None``: the
    row has no place (no score in the scope, or withdrawn; ``scoring.Standing.place``),
    printed "—"."""

    rank: int | None
    pair: int
    players: str
    total: float | None
    boards: int
    average: float | None
    percentage: float | None
    total_text: str = ""
    average_text: str = ""
    percentage_text: str = ""
    status: str = "playing"
    joins: int | None = None


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """``through_round`` ``None`` for the overall standings; ``by_average``: the rows
    rank by average per board, so the average is the first number printed."""

    title: str
    through_round: int | None
    rows: tuple[StandingRow, ...]
    by_average: bool = False


@dataclass(frozen=True, slots=True)
class Standings:
    header: Header
    tables: tuple[StandingsTable, ...]
    progress: str = ""  # e.g. "96/96" results in / expected


# Travellers ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TravellerRow:
    """One table's result on the board. ``trump`` is ``O``, ``C``, ``E``, ``B``,
    ``botifarra`` or ``""`` for an adjusted result; ``doubles`` e.g. ``"C R"``;
    ``note`` says "infraction NS", "adjusted" etc. Scores ``None`` when not played."""

    table: int
    ns_pair: int
    ew_pair: int
    trump: str
    delegated: bool
    doubles: str
    ns_points_taken: int | None
    ns_score: int | None
    ew_score: int | None
    ns_comparative: float
    ew_comparative: float
    note: str = ""
    #: NS's points taken minus the double-dummy value of the trump played; ``None``
    #: without a table, and for an adjusted score or an infraction.
    dd_difference: int | None = None
    #: The comparative points as printed, the same decimals down the board's columns
    #: (``selectors.formats.column``); empty in a document built by hand, which then
    #: prints the numbers.
    ns_comparative_text: str = ""
    ew_comparative_text: str = ""

    @property
    def ew_points_taken(self) -> int | None:
        return None if self.ns_points_taken is None else other_side_points(self.ns_points_taken)


@dataclass(frozen=True, slots=True)
class DoubleDummyTable:
    """A board's double-dummy table as printed under its deal: ``lines`` are
    ``(trump, ns_points, is_par)`` in the order O, C, E, B, botifarra (``trump`` as a
    row's; EW take the rest of the 72, ``engine.cards.other_side_points``); ``declarer``
    ``NS`` or ``EW`` (the dealer's side, which names trump); ``par_score`` that side's
    hand score at par, without doubles."""

    lines: tuple[tuple[str, int, bool], ...]
    declarer: str
    par_score: int


@dataclass(frozen=True, slots=True)
class Traveller:
    """``double_dummy``: the board's table when computed (only boards whose deal is
    printed get one)."""

    board: int
    round: int
    dealer: Seat
    deal: Deal | None
    rows: tuple[TravellerRow, ...]
    double_dummy: DoubleDummyTable | None = None


@dataclass(frozen=True, slots=True)
class Travellers:
    header: Header
    travellers: tuple[Traveller, ...]


# Score cards -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreCardRow:
    """One board a pair played: ``direction`` ``NS`` or ``EW``; ``result`` a short text
    such as ``"B C 41"`` (trump, doubles, NS points); ``score`` the pair's hand score."""

    round: int
    board: int
    opponents: int
    opponent_players: str
    direction: str
    result: str
    score: int | None
    comparative: float
    running_total: float
    #: As printed, the same decimals down the card's column (``selectors.formats.
    #: column``); empty in a document built by hand, which then prints the numbers.
    comparative_text: str = ""
    running_total_text: str = ""


@dataclass(frozen=True, slots=True)
class ScoreCard:
    """``total_text``: the total as printed, with the decimals of the running totals'
    column it closes."""

    pair: int
    players: str
    rows: tuple[ScoreCardRow, ...]
    total: float = 0.0
    total_text: str = ""


@dataclass(frozen=True, slots=True)
class ScoreCards:
    """``through_round`` 0: every round; N: the boards of rounds 1..N only (the rounds
    the standings after round N count)."""

    header: Header
    cards: tuple[ScoreCard, ...]
    through_round: int = 0


# Classic championships ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRules:
    """A classic championship's game as a table plays it (``scoring.classic.
    ClassicRules``): ``target`` points, ``max_deals`` (``None``: no limit) and the
    ``extra_deals`` a level game plays after it (0: none), ``time_limit_minutes`` and
    ``score_cap`` (``None``: none), the doubles the score sheet takes. ``lines``: the
    same in words, one rule a line, in the document's language, with the variant
    (obligada or lliure). ``deal_lines``: a score sheet's lines, the most deals a game
    can last (16 without a deal limit)."""

    target: int
    max_deals: int | None
    extra_deals: int
    time_limit_minutes: int | None
    score_cap: int | None
    contro: bool
    recontro: bool
    sant_vicenc: bool
    lines: tuple[str, ...]
    deal_lines: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a classic round: the pairs seated NS and EW with their players."""

    table: int
    ns_pair: int
    ns_players: str
    ew_pair: int
    ew_players: str


@dataclass(frozen=True, slots=True)
class ByePair:
    """A pair that sits the round out."""

    pair: int
    players: str


@dataclass(frozen=True, slots=True)
class Pairings:
    """A classic round's pairings for the wall: every table, then the byes."""

    header: Header
    round: int
    tables: tuple[Pairing, ...]
    byes: tuple[ByePair, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreSheets:
    """The score sheets of a classic round, one per table: the paper the table keeps its
    game on, deal by deal, under the game's ``rules``. ``ends``: how a game of the
    championship can end, worded, to tick at the foot (the target; the deal limit and
    time only when the championship has them)."""

    header: Header
    round: int
    rules: GameRules
    sheets: tuple[Pairing, ...]
    ends: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ClassicStandingRow:
    """One line of a classic championship's standings, the read model's texts
    (``selectors.classic.ClassicRow``): ``wins`` ``2½``, ``difference`` ``+12`` or
    ``−7``, ``buchholz`` and ``head_to_head`` when those tiebreaks are in use (else
    empty). ``rank`` ``None``: no place (printed "—"); ``status`` and ``joins`` as a
    duplicate row's."""

    rank: int | None
    pair: int
    players: str
    wins: str
    played: int
    points_for: int
    points_against: int
    difference: str
    buchholz: str = ""
    head_to_head: str = ""
    status: str = "playing"
    joins: int | None = None


@dataclass(frozen=True, slots=True)
class ClassicStandingsTable:
    """``through_round`` ``None``: the overall standings."""

    through_round: int | None
    rows: tuple[ClassicStandingRow, ...]


@dataclass(frozen=True, slots=True)
class ClassicStandings:
    """A classic championship's standings: overall, then after each round (or after one
    round only). ``order``: the ranking order in words; ``columns``: the tiebreak
    columns printed after the difference (``buchholz``, ``head_to_head``, those in use);
    ``progress``: games in / games due (tables seated) of the rounds it covers, e.g.
    ``5/8``."""

    header: Header
    tables: tuple[ClassicStandingsTable, ...]
    order: str = ""
    columns: tuple[str, ...] = ()
    progress: str = ""


@dataclass(frozen=True, slots=True)
class PairCardLine:
    """One round on a classic pair card (``selectors.classic.CardLine``), in the pair
    card page's words: ``table`` and ``opponent`` ``None`` for a bye; ``score`` the
    pair's points then the opponent's (``101 – 64``; ``150 – 31 (121 – 31)``: the
    counted points in brackets when the cap cut them), empty while the game is played
    or for a bye; ``result`` worded; ``wins_after`` the running wins (``2½``);
    ``rank_after`` the rank after the round (``—``: none)."""

    round: int
    table: int | None
    opponent: int | None
    opponent_players: str
    score: str
    result: str
    wins_after: str
    rank_after: str


@dataclass(frozen=True, slots=True)
class PairCard:
    pair: int
    players: str
    lines: tuple[PairCardLine, ...]


@dataclass(frozen=True, slots=True)
class PairCards:
    """Classic pair cards; ``through_round`` 0: every round, N: rounds 1..N;
    ``cap_note``: what the bracketed points are, when the championship has a cap."""

    header: Header
    cards: tuple[PairCard, ...]
    through_round: int = 0
    cap_note: str = ""


@dataclass(frozen=True, slots=True)
class ClassicRoundPack:
    """Everything a classic round needs, one PDF: the pairings for the wall, the table
    cards (in a knockout round, the knockout cards instead: ``knockout_cards``, each
    match's title and what a level game does) and the score sheets (one per table)."""

    header: Header
    round: int
    pairings: Pairings
    table_cards: TableCards
    score_sheets: ScoreSheets
    knockout_cards: KnockoutCards | None = None


# Stages ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupTableRow:
    """One line of a group's standings (``selectors.stages.GroupRow``) as printed:
    ``rank`` ``—`` for no place, ``wins`` ``2½``, ``difference`` ``+12``;
    ``qualified`` how the pair went through, worded (empty: it did not, or not yet)."""

    rank: str
    pair: int
    players: str
    wins: str
    difference: str
    points_for: int
    qualified: str


@dataclass(frozen=True, slots=True)
class GroupGame:
    """One game of a group's fixture, from the seatings of the stage's rounds:
    ``round`` the championship's round, ``stage_round`` its place in the stage;
    ``score`` the NS pair's points then the EW pair's (empty until played)."""

    round: int
    stage_round: int
    table: int
    ns_pair: int
    ns_players: str
    ew_pair: int
    ew_players: str
    score: str


@dataclass(frozen=True, slots=True)
class GroupTableSection:
    """A group: its pairs (number, players) as drawn, its standings, its fixture (and
    who sits each drawn round out), and its games in out of due (``3/6``)."""

    name: str
    pairs: tuple[tuple[int, str], ...]
    rows: tuple[GroupTableRow, ...]
    games: tuple[GroupGame, ...]
    progress: str
    #: ``(round, pair, players)``: a pair of the group that sits a drawn round out.
    byes: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GroupTables:
    """The groups stage, one section per group (``selectors.stages.groups_view``).
    ``qualification``: one line saying whether who went through is final, and how
    (by place, by second chance)."""

    header: Header
    stage: str
    groups: tuple[GroupTableSection, ...]
    qualification: str = ""


@dataclass(frozen=True, slots=True)
class BracketSide:
    """One pair of a bracket match: number, short names, points once played (empty
    before)."""

    pair: int
    name: str
    points: str = ""


@dataclass(frozen=True, slots=True)
class BracketBox:
    """A bracket match (``selectors.stages.BracketMatch``): ``top``/``bottom`` ``None``
    for a bye in the first round or a pair not known yet; ``winner`` its pair number
    once decided; ``table`` where it is played once seated."""

    round: int
    number: int
    top: BracketSide | None
    bottom: BracketSide | None
    winner: int | None
    table: int | None
    bye: bool = False
    third_place: bool = False


@dataclass(frozen=True, slots=True)
class BracketColumn:
    """A knockout round: its title ("Quarts de final"), the championship's round it is
    played in (``None`` when it has none yet) and its matches top to bottom (the
    third-place match is kept apart, :attr:`BracketDocument.third_place`)."""

    title: str
    round_number: int | None
    matches: tuple[BracketBox, ...]


@dataclass(frozen=True, slots=True)
class BracketDocument:
    """The knockout bracket on one landscape page: a column per round, the champion at
    the right (``champion``, ``runner_up``, ``third`` worded "12 · J. Vila – A. Puig",
    empty until known)."""

    header: Header
    stage: str
    columns: tuple[BracketColumn, ...]
    third_place: BracketBox | None = None
    champion: str = ""
    runner_up: str = ""
    third: str = ""


@dataclass(frozen=True, slots=True)
class KnockoutCard:
    """One seated knockout match's card: where (``round``, ``table``), what ("Quarts de
    final, partida 3": ``title``), and the two pairs, NS first."""

    round: int
    table: int
    title: str
    ns_pair: int
    ns_players: str
    ew_pair: int
    ew_players: str
    #: The table's own page (its QR code), when the championship takes results from the
    #: tables; ``""``: none printed.
    link: str = ""


@dataclass(frozen=True, slots=True)
class KnockoutCards:
    """The cards of one round's knockout matches; ``rules``: the game's rules, one a
    line; ``level``: what a level game does, worded."""

    header: Header
    round: int
    cards: tuple[KnockoutCard, ...]
    rules: tuple[str, ...] = ()
    level: str = ""


Document = (BoardSheets | EntryForms | TableCards | RoundPack | Standings | Travellers
            | ScoreCards | Pairings | ScoreSheets | ClassicStandings | PairCards
            | ClassicRoundPack | GroupTables | BracketDocument | KnockoutCards)

KIND_OF: dict[type, Kind] = {
    BoardSheets: Kind.BOARD_SHEETS,
    EntryForms: Kind.ENTRY_FORMS,
    TableCards: Kind.TABLE_CARDS,
    RoundPack: Kind.ROUND_PACK,
    Standings: Kind.STANDINGS,
    Travellers: Kind.TRAVELLERS,
    ScoreCards: Kind.SCORE_CARDS,
    Pairings: Kind.PAIRINGS,
    ScoreSheets: Kind.SCORE_SHEETS,
    ClassicStandings: Kind.STANDINGS,
    PairCards: Kind.SCORE_CARDS,
    ClassicRoundPack: Kind.ROUND_PACK,
    GroupTables: Kind.GROUP_TABLES,
    BracketDocument: Kind.BRACKET,
    KnockoutCards: Kind.KNOCKOUT_CARDS,
}
