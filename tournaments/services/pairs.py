"""Pairs and players: register (also late, after a draw), import a CSV list, remove one
registered by mistake, withdraw one that leaves."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from scoring.text import control_characters, normalise
from tournaments.models import (
    AuditEntry,
    Bye,
    Championship,
    Game,
    Pair,
    Player,
    Result,
    Round,
    RoundPair,
    Seating,
    Stage,
)
from tournaments.selectors.names import fold
from tournaments.services.common import (
    Capability,
    User,
    audit,
    check_not_finished,
    lock_championship,
    require,
)
from tournaments.services.errors import ChampionshipStateError, PairsCsvError, RegistrationError

#: The highest pair number, as in the single-pair form (``forms.PairForm``) and the CSV.
PAIR_NUMBER_MAX = 9999
#: At most this many characters in a player's name (``Player.name``).
PLAYER_NAME_MAX: int = Player._meta.get_field("name").max_length or 0
#: At most this many characters in a player's short name (``Player.short_name``).
SHORT_NAME_MAX: int = Player._meta.get_field("short_name").max_length or 0
#: The separators a pasted or uploaded list may use, in the order a tie is settled.
CSV_DELIMITERS = (";", "\t", ",")

_ASCII_DIGITS = frozenset("0123456789")


def _free_player_codes(championship: Championship, count: int) -> list[str]:
    """``count`` unused ``pN`` codes (the caller holds :func:`lock_championship`)."""
    taken = set(Player.objects.filter(championship=championship).values_list("code", flat=True))
    codes: list[str] = []
    n = len(taken) + 1
    while len(codes) < count:
        code = f"p{n}"
        if code not in taken:
            codes.append(code)
        n += 1
    return codes


def _check_registration_open(championship: Championship) -> int:
    """The round a pair registered now joins from: 1 before any draw, else the round
    after the last one drawn (a late pair; its missed rounds rank by the championship's
    missed-board rule, docs/decisions.md 14). Refused once every round is drawn, or
    once a stage other than a Swiss one started (a late pair would play nothing). Three
    queries."""
    check_not_finished(championship)
    last_drawn: int | None = (
        Round.objects.filter(championship=championship)
        .filter(Q(seatings__isnull=False) | Q(byes__isnull=False))
        .aggregate(n=Max("number"))["n"]
    )
    started = (Stage.objects.filter(championship=championship, started_at__isnull=False)
               .exclude(kind=Stage.Kind.SWISS).order_by("number").first())
    if started is not None:
        # A group's all-play-all, a bracket and a final are fixed when they start (even
        # when a withdrawal took the stage's first draw away since).
        raise ChampionshipStateError(
            _("La fase «%(stage)s» ja ha començat: ja no es poden inscriure parelles.")
            % {"stage": started.label}
        )
    if last_drawn is None:
        return 1
    rounds: int | None = (
        Round.objects.filter(championship=championship).aggregate(n=Max("number"))["n"])
    if rounds is not None and last_drawn >= rounds:
        raise ChampionshipStateError(
            _("La darrera ronda (%(n)s) ja està sortejada: ja no es poden inscriure "
              "parelles.") % {"n": last_drawn}
        )
    return last_drawn + 1


def registration_refusal(championship: Championship) -> ChampionshipStateError | None:
    """Why :func:`pair_register` and :func:`pairs_import_csv` would refuse any pair of
    ``championship`` now, whoever asks, as the error they raise (the championship is
    finished, or its last round is drawn); ``None`` while pairs can register (late pairs
    too). The organiser's page shows the forms read-only with this message. Two
    queries."""
    try:
        _check_registration_open(championship)
    except ChampionshipStateError as exc:
        return exc
    return None


def late_entry_round(championship: Championship) -> int | None:
    """The round a pair registered now would join from (1 before any draw; after a draw
    the round after the last one drawn: a late pair), or ``None`` when no pair may
    register (:func:`registration_refusal`). Two queries."""
    try:
        return _check_registration_open(championship)
    except ChampionshipStateError:
        return None


def _pair_number_problem(text: str) -> str | None:
    """Why ``text`` is not a pair number (1..PAIR_NUMBER_MAX, ASCII digits), or None."""
    # Leading zeros stripped before int(): Python refuses to convert over 4,300 digits.
    significant = text.lstrip("0")
    if not text or not set(text) <= _ASCII_DIGITS or len(significant) > 4 \
            or not 1 <= int(significant or "0") <= PAIR_NUMBER_MAX:
        return _("«%(text)s» no és un número de parella (de 1 a %(max)s)") % {
            "text": text[:20] + ("…" if len(text) > 20 else ""), "max": PAIR_NUMBER_MAX
        }
    return None


def _name_problem(name: str, limit: int = PLAYER_NAME_MAX) -> str | None:
    """Why ``name`` cannot be a player's name (empty, longer than ``limit``, control
    characters)."""
    if not name:
        return _("falta el nom d'un jugador")
    if len(name) > limit:
        return _("el nom «%(start)s…» passa de %(max)s caràcters") % {
            "start": name[:20], "max": limit
        }
    if control_characters(name):  # C0, DEL and C1, as the model fields refuse
        return _("el nom «%(name)s» té caràcters de control") % {
            "name": name[:40].encode("unicode_escape").decode("ascii")
        }
    return None


def _short_names(short1: str | None, short2: str | None) -> tuple[str, str]:
    """The two players' short names, stripped (empty: the default short form). Raises
    :class:`RegistrationError` on field ``short1``/``short2`` for one too long or not
    text."""
    shorts = (short1 or "").strip(), (short2 or "").strip()
    for k, short in enumerate(shorts, start=1):
        problem = _name_problem(short, SHORT_NAME_MAX) if short else None
        if problem:
            raise RegistrationError(
                _("Nom curt del jugador %(k)s: %(problem)s.") % {"k": k, "problem": problem},
                field=f"short{k}",
            )
    return shorts


def _create_pairs(
    championship: Championship, rows: Sequence[PairLine], joined_round: int = 1
) -> list[Pair]:
    """Write the players and pairs (the caller holds :func:`lock_championship`). Raises
    ``IntegrityError`` when a number is taken after all (the caller turns it into its
    own error inside a savepoint)."""
    codes = _free_player_codes(championship, 2 * len(rows))
    players = Player.objects.bulk_create(
        [
            Player(championship=championship, code=codes[2 * i + k],
                   name=(row.player1, row.player2)[k], short_name=(row.short1, row.short2)[k])
            for i, row in enumerate(rows)
            for k in (0, 1)
        ]
    )
    return Pair.objects.bulk_create(
        [
            Pair(
                championship=championship, number=row.number,
                player1=players[2 * i], player2=players[2 * i + 1],
                joined_round=joined_round,
            )
            for i, row in enumerate(rows)
        ]
    )


@transaction.atomic
def pair_register(
    *, championship: Championship, number: int, player1: str, player2: str,
    acting_user: User | None, short1: str = "", short2: str = "",
) -> Pair:
    """Register pair ``number`` (1..:data:`PAIR_NUMBER_MAX`, unique in the championship)
    of two named players (1..:data:`PLAYER_NAME_MAX` characters), each with an optional
    short name for the boards and screens (``short1``, ``short2``: at most
    :data:`SHORT_NAME_MAX` characters; empty, the default short form). After a round is drawn
    the pair is late: it joins from the next round drawn (``joined_round``).
    Registrations of one championship run one at a time (row lock), so several at once
    with different numbers all succeed and the same number twice is refused.

    Raises :class:`RegistrationError` (field ``number``, ``player1`` or ``player2``),
    :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished, or the last
    round already drawn).
    """
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.REGISTER_PAIRS)
    joined_round = _check_registration_open(championship)
    names = (player1 or "").strip(), (player2 or "").strip()
    for k, player_name in enumerate(names, start=1):
        if not player_name:
            raise RegistrationError(_("Cal el nom del jugador %(k)s.") % {"k": k},
                                    field=f"player{k}")
        problem = _name_problem(player_name)
        if problem:
            raise RegistrationError(
                _("Jugador %(k)s: %(problem)s.") % {"k": k, "problem": problem},
                field=f"player{k}",
            )
    shorts = _short_names(short1, short2)
    if (
        isinstance(number, bool) or not isinstance(number, int)
        or not 1 <= number <= PAIR_NUMBER_MAX
    ):
        raise RegistrationError(
            _("El número de parella ha de ser un enter de 1 a %(max)s, no «%(n)s».")
            % {"n": number, "max": PAIR_NUMBER_MAX},
            field="number",
        )
    taken = _("Ja hi ha una parella número %(n)s.") % {"n": number}
    if Pair.objects.filter(championship=championship, number=number).exists():
        raise RegistrationError(taken, field="number")
    try:
        with transaction.atomic():
            pair = _create_pairs(
                championship, [PairLine(0, number, *names, *shorts)], joined_round
            )[0]
    except IntegrityError:
        # Only without the lock's protection (rows written outside the services).
        raise RegistrationError(taken, field="number") from None
    audit(
        championship, AuditEntry.Action.PAIR_REGISTER, acting_user,
        target=_("parella %(n)s") % {"n": number},
        after=_pair_snapshot(PairLine(0, number, *names, *shorts), joined_round),
    )
    return pair


def _pair_snapshot(row: PairLine, joined_round: int) -> dict[str, Any]:
    """A registered pair as JSON, for the audit row (short names only when given)."""
    snapshot: dict[str, Any] = {"number": row.number, "player1": row.player1,
                                "player2": row.player2, "joined_round": joined_round}
    for key, value in (("short1", row.short1), ("short2", row.short2)):
        if value:
            snapshot[key] = value
    return snapshot


@dataclass(frozen=True, slots=True)
class PairLine:
    """One pair of a pasted list: the line it starts on (0 for the single-pair form),
    its number, the players' names and their short names (empty: the default)."""

    line: int
    number: int
    player1: str
    player2: str
    short1: str = ""
    short2: str = ""


@dataclass(frozen=True, slots=True)
class PairsCsv:
    """A pasted or uploaded pairs list read: ``rows`` by line, the ``delimiter`` found
    (``;``, tab or ``,``) and what was ``skipped``, in the user's language ("Línia 1
    (capçalera) ignorada"), for the organiser to check. A list of two names a line
    without numbers is ``numbered=False``: its rows are numbered 1, 2, ... in order,
    and :func:`pairs_import_csv` numbers them after the highest registered."""

    rows: tuple[PairLine, ...]
    delimiter: str
    skipped: tuple[str, ...]
    numbered: bool = True


def _csv_reader(text: str, delimiter: str) -> Any:
    # A spreadsheet's UTF-8 export may start with a byte-order mark. newline="" lets
    # the csv module see every line end as it came: CR LF, LF, and an old Mac's lone CR
    # (which otherwise reads as one line with "new-line character seen in unquoted
    # field").
    return csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)


def _csv_problem(exc: csv.Error) -> str:
    """The csv module's refusal in the reader's words (its own are English only)."""
    text = str(exc)
    if "field larger than field limit" in text:
        return _("un camp de més de %(n)s caràcters: és el límit d'un camp") % {
            "n": f"{csv.field_size_limit():,}".replace(",", ".")}
    if "NUL" in text:
        return _("conté un caràcter nul")
    if "unexpected end of data" in text or "quote" in text or "EOF" in text:
        return _("unes cometes que s'obren i no es tanquen")
    return _("el format no és el d'una llista separada per «;», tabuladors o «,»")


def _is_unnumbered_pair(fields: Sequence[str]) -> bool:
    """Two names and no number: one line of a list without numbers."""
    return len(fields) == 2 and all(f.strip() for f in fields) \
        and bool(_pair_number_problem(fields[0].strip()))


def _sniff_delimiter(text: str) -> str:
    """The separator of a pairs list: of :data:`CSV_DELIMITERS`, the one that splits the
    most of the first 50 lines into a pair (3 to 5 fields, the first a pair number, or
    two names without a number); a tie goes to the first of them. When none splits a
    line into a pair, the one that splits the most lines at all, so that the error names
    the separator the list has (``;`` when none splits any). ``csv.Sniffer`` guesses
    among every character and may pick a letter; this rule looks only at those three."""
    best, best_score = CSV_DELIMITERS[0], (0, 0)
    for delimiter in CSV_DELIMITERS:
        pairs = split = 0
        reader = _csv_reader(text, delimiter)
        try:
            for fields in reader:
                if reader.line_num > 50:
                    break
                if (3 <= len(fields) <= 5 and not _pair_number_problem(fields[0].strip())) \
                        or _is_unnumbered_pair(fields):
                    pairs += 1
                if len(fields) > 1:
                    split += 1
        except csv.Error:  # an unclosed quote, a huge field: the reading reports it
            pass
        if (pairs, split) > best_score:
            best, best_score = delimiter, (pairs, split)
    return best


def _comma_in_a_name(fields: Sequence[str], delimiter: str) -> str | None:
    """The name a comma seems to split in a comma-separated line ("1,Puig, Anna,Vila,
    Pere" is "Puig, Anna" and "Vila, Pere", not two players with short names), or
    ``None``. The sign: more than 3 fields, some after a comma and a space, others
    after a bare comma. A list typed with ", " throughout, or written by a spreadsheet
    (bare commas, names with commas quoted), is read as it comes."""
    if delimiter != "," or len(fields) <= 3:
        return None
    spaced = [i for i in range(1, len(fields)) if fields[i][:1] == " " and fields[i].strip()]
    if not spaced or len(spaced) == len(fields) - 1:
        return None
    i = spaced[0]
    return f"{fields[i - 1].strip()},{fields[i].rstrip()}"


def _delimiter_text(delimiter: str) -> str:
    return _("tabulador") if delimiter == "\t" else f"«{delimiter}»"


def read_pairs_csv(text: str) -> PairsCsv:
    """Read a pairs list: one pair per line, "number;player 1;player 2", optionally with
    the two players' short names after them ("number;player 1;player 2;short 1;short
    2"); the fields separated by ``;``, a tab or ``,`` (:func:`_sniff_delimiter`: one
    separator for the whole list), a field maybe quoted (``"1";"Puig; Anna";Vila``). A
    header line and blank lines are skipped and listed in ``skipped``. A list whose
    first pair is two names without a number is a list without numbers: every line
    "player 1;player 2", numbered 1, 2, ... in order (``numbered=False``).

    The limits are the single-pair form's: a number of ASCII digits 1..
    :data:`PAIR_NUMBER_MAX`, each name 1..:data:`PLAYER_NAME_MAX` characters (a short
    name at most :data:`SHORT_NAME_MAX`) without control characters, no number twice.
    Raises :class:`PairsCsvError` listing every bad line by its line number ("línia 3:
    ..."). Names are composed to NFC (docs/decisions.md 33).
    """
    problems: list[str] = []
    rows: list[PairLine] = []
    seen: dict[int, int] = {}
    header: int | None = None
    blank: list[int] = []
    numbered: bool | None = None  # decided by the first pair's line
    text = normalise((text or "").lstrip("\ufeff"))
    delimiter = _sniff_delimiter(text)
    reader = _csv_reader(text, delimiter)
    line_no = 1
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:  # an unclosed quote, a NUL, a huge field
            problems.append(
                _("línia %(n)s: no es pot llegir (%(error)s)")
                % {"n": line_no, "error": _csv_problem(exc)}
            )
            break
        where = _("línia %(n)s") % {"n": line_no}
        start, line_no = line_no, reader.line_num + 1
        if (comma := _comma_in_a_name(fields, delimiter)) is not None:
            problems.append(
                _("%(where)s: «%(name)s» sembla un nom amb una coma: poseu cada nom entre "
                  "cometes (\"%(name)s\") o separeu els camps amb «;» o tabuladors")
                % {"where": where, "name": comma[:40]}
            )
            continue
        fields = [f.strip() for f in fields]
        if not any(fields):
            blank.append(start)
            continue
        if (
            not rows and not problems and header is None
            and _pair_number_problem(fields[0]) and _looks_like_header(fields)
        ):
            header = start
            continue
        if numbered is None:
            numbered = not _is_unnumbered_pair(fields)
        if not numbered:
            problem = None if len(fields) == 2 else _(
                "%(where)s: una llista sense números porta 2 camps per línia separats per "
                "%(sep)s (jugador 1, jugador 2), n'hi ha %(count)s"
            ) % {"where": where, "count": len(fields), "sep": _delimiter_text(delimiter)}
            problem = problem or _name_problem(fields[0]) or _name_problem(fields[1])
            if problem:
                problems.append(problem if problem.startswith(where) else f"{where}: {problem}")
                continue
            rows.append(PairLine(start, len(rows) + 1, fields[0], fields[1]))
            continue
        if len(fields) == 1:
            problems.append(
                _("%(where)s: no hi ha cap separador entre els camps («;», tabulador o «,»): "
                  "calen el número i els dos jugadors, o els dos jugadors en una llista "
                  "sense números") % {"where": where}
            )
            continue
        if not 3 <= len(fields) <= 5:
            problems.append(
                _("%(where)s: calen 3 camps separats per %(sep)s (número, jugador 1, "
                  "jugador 2; i, si cal, els noms curts dels dos jugadors), n'hi ha "
                  "%(count)s") % {"where": where, "count": len(fields),
                                  "sep": _delimiter_text(delimiter)}
            )
            continue
        number_text, name1, name2, *shorts = fields
        short1, short2 = (*shorts, "", "")[:2]
        problem = _pair_number_problem(number_text) or _name_problem(name1) \
            or _name_problem(name2) \
            or (_name_problem(short1, SHORT_NAME_MAX) if short1 else None) \
            or (_name_problem(short2, SHORT_NAME_MAX) if short2 else None)
        if problem:
            problems.append(f"{where}: {problem}")
            continue
        number = int(number_text.lstrip("0"))
        if number in seen:
            problems.append(
                _("%(where)s: la parella %(n)s ja és a la línia %(first)s")
                % {"where": where, "n": number, "first": seen[number]}
            )
            continue
        seen[number] = start
        rows.append(PairLine(start, number, name1, name2, short1, short2))
    if problems:
        raise PairsCsvError(problems)
    if not rows:
        raise PairsCsvError([_("no hi ha cap parella al text")])
    skipped: list[str] = []
    if header is not None:
        skipped.append(_("Línia %(n)s (capçalera) ignorada.") % {"n": header})
    # Blank lines after the last pair are only the end of the text.
    inside = [n for n in blank if n < rows[-1].line]
    if len(inside) == 1:
        skipped.append(_("Línia %(n)s (en blanc) ignorada.") % {"n": inside[0]})
    elif inside:
        skipped.append(_("Línies en blanc ignorades: %(list)s.")
                       % {"list": ", ".join(map(str, inside))})
    return PairsCsv(tuple(rows), delimiter, tuple(skipped), numbered is not False)


def parse_pairs_csv(text: str) -> list[tuple[int, str, str]]:
    """The pairs of a pasted list (:func:`read_pairs_csv`) as ``[(number, player 1,
    player 2)]``. Raises :class:`PairsCsvError` listing every bad line by its line
    number ("línia 3: ...")."""
    return [(row.number, row.player1, row.player2) for row in read_pairs_csv(text).rows]


#: How a header's first field starts (folded): "Número", "Núm.", "Nº", "#", "Parella",
#: "Pareja", "Pair", "Jugador", "Id", "Equip", "Team".
_HEADER_STARTS = ("n", "#", "pa", "pl", "jug", "id", "equip", "team")


#: The words a column of names is headed with (folded), in a list without numbers.
_NAME_COLUMNS = frozenset({
    "jugador", "jugadora", "player", "nom", "noms", "nombre", "name", "cognom", "cognoms",
    "apellido", "apellidos", "surname", "parella", "pareja", "pair",
})


def _looks_like_header(fields: Sequence[str]) -> bool:
    """A first line that names the columns: its first field a column's name, or empty
    with words (no digit) after it. Two fields, as a list without numbers has, are
    names unless each starts with a column's word ("Jugador 1", "Nom"): "Núria Puig"
    starts as "Número" does."""
    if _is_unnumbered_pair(fields):
        return all(
            next(iter(re.findall(r"[^\W\d_]+", fold(f))), "") in _NAME_COLUMNS
            for f in fields
        )
    first = fold(fields[0])
    if first:
        return first.startswith(_HEADER_STARTS)
    rest = " ".join(fields[1:])
    return bool(rest.strip()) and not any(c.isdigit() for c in rest)


@transaction.atomic
def pairs_import_csv(
    *, championship: Championship, text: str, acting_user: User | None
) -> list[Pair]:
    """Register every pair of a pasted list ("number;player 1;player 2" per line, or
    separated by tabs or commas, see :func:`read_pairs_csv`), all or nothing; after a
    draw they are late pairs, as in :func:`pair_register`. A number already registered
    is an error naming its line. Runs one at a time per championship with
    :func:`pair_register` (row lock).

    Raises :class:`PairsCsvError` (``problems``: one message per bad line, field ``text``),
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.
    """
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.REGISTER_PAIRS)
    joined_round = _check_registration_open(championship)
    read = read_pairs_csv(text)
    lines = read.rows
    existing = set(
        Pair.objects.filter(championship=championship).values_list("number", flat=True)
    )
    if not read.numbered:
        # Numbered in order after the highest registered (decision 74).
        after = max(existing, default=0)
        if after + len(lines) > PAIR_NUMBER_MAX:
            raise PairsCsvError([
                _("les parelles anirien del %(first)s al %(last)s, i el número més alt és "
                  "%(max)s") % {"first": after + 1, "last": after + len(lines),
                                 "max": PAIR_NUMBER_MAX}
            ])
        lines = tuple(dataclasses.replace(row, number=after + row.number) for row in lines)
    clashes = [
        _("línia %(line)s: ja hi ha una parella número %(n)s") % {"line": line, "n": number}
        for line, number in ((row.line, row.number) for row in lines)
        if number in existing
    ]
    if clashes:
        raise PairsCsvError(clashes)
    try:
        with transaction.atomic():
            pairs = _create_pairs(championship, lines, joined_round)
    except IntegrityError:
        # Only without the lock's protection (rows written outside the services).
        raise PairsCsvError(
            [_("una altra inscripció ha pres algun d'aquests números: torneu-ho a provar")]
        ) from None
    audit(
        championship, AuditEntry.Action.PAIRS_IMPORT, acting_user,
        target=_("%(n)s parelles") % {"n": len(pairs)},
        after={"pairs": [_pair_snapshot(row, joined_round) for row in lines]},
    )
    return pairs


@transaction.atomic
def pair_remove(*, pair: Pair, acting_user: User | None) -> None:
    """Remove a pair registered by mistake, with its two players (unless another pair
    has them), while it has no seating (it has never been seated at a table, so it has no
    result). Organiser only.

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished, or the
    pair already seated in a round).
    """
    championship = lock_championship(pair.championship_id)
    require(acting_user, championship, Capability.REMOVE_PAIR)
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    seated = (
        Seating.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair))
        .order_by("round__number").values_list("round__number", flat=True).first()
    )
    if seated is None:
        seated = (
            Bye.objects.filter(pair=pair).order_by("round__number")
            .values_list("round__number", flat=True).first()
        )
    if seated is not None:
        raise ChampionshipStateError(
            _("La parella %(n)s ja seu a una taula a la ronda %(round)s: no es pot esborrar.")
            % {"n": pair.number, "round": seated}
        )
    players = {pair.player1_id, pair.player2_id}
    audit(
        championship, AuditEntry.Action.PAIR_REMOVE, acting_user,
        target=_("parella %(n)s") % {"n": pair.number},
        before=_pair_snapshot(
            PairLine(0, pair.number, pair.player1.name, pair.player2.name,
                     pair.player1.short_name, pair.player2.short_name), pair.joined_round),
    )
    pair.delete()
    still_used: set[int] = set()
    for ids in Pair.objects.filter(
        Q(player1_id__in=players) | Q(player2_id__in=players)
    ).values_list("player1_id", "player2_id"):
        still_used.update(ids)
    Player.objects.filter(pk__in=players - still_used).delete()


@transaction.atomic
def pair_short_names_set(
    *, pair: Pair, short1: str, short2: str, acting_user: User | None
) -> Pair:
    """Set the short names of ``pair``'s two players (what the boards and screens show;
    empty: the default short form of the name), at any time until the championship is
    finished. Organiser only (whoever registers pairs); audited, and the live pages
    show it at once (the audit row bumps the results version).

    Raises :class:`RegistrationError` (field ``short1`` or ``short2``: longer than
    :data:`SHORT_NAME_MAX` characters, control characters), :class:`NotAllowedError`,
    :class:`ChampionshipStateError` (finished).
    """
    championship = lock_championship(pair.championship_id)
    require(acting_user, championship, Capability.REGISTER_PAIRS)
    check_not_finished(championship)
    pair = Pair.objects.select_related("player1", "player2").get(pk=pair.pk)
    shorts = _short_names(short1, short2)
    players = (pair.player1, pair.player2)
    before = {f"short{k}": p.short_name for k, p in enumerate(players, start=1)}
    for player, short in zip(players, shorts, strict=True):
        if player.short_name != short:
            player.short_name = short
            player.save(update_fields=["short_name"])
    after = {f"short{k}": s for k, s in enumerate(shorts, start=1)}
    if after != before:
        audit(championship, AuditEntry.Action.PAIR_SHORT_NAMES, acting_user,
              target=_("parella %(n)s") % {"n": pair.number}, before=before, after=after)
    return pair


#: At most this many characters in a withdrawal's reason (``Pair.withdrawal_reason``).
WITHDRAWAL_REASON_MAX: int = Pair._meta.get_field("withdrawal_reason").max_length or 0


@transaction.atomic
def pair_withdraw(
    *, pair: Pair, after_round: int, reason: str, acting_user: User | None
) -> list[int]:
    """Withdraw ``pair`` after round ``after_round``: it keeps every result it played
    (its opponents keep their boards and scores), it is left out of the draws of later
    rounds (an odd field then gets a bye), and the standings list it as withdrawn.
    Organiser only; ``reason`` (1..:data:`WITHDRAWAL_REASON_MAX` characters) is stored
    and written to the admin log with the acting user.

    A later round already drawn without any result loses its draw (the organiser draws
    it again without the pair); the numbers of those rounds are returned.

    Raises :class:`RegistrationError` (field ``after_round``: not a round from the one
    the pair joined, minus one, to the last; field ``reason``: empty or too long),
    :class:`ChampionshipStateError` (finished, already withdrawn, a later round has
    results), :class:`NotAllowedError`.
    """
    championship = lock_championship(pair.championship_id)
    require(acting_user, championship, Capability.WITHDRAW_PAIR)
    check_not_finished(championship)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.is_withdrawn:
        raise ChampionshipStateError(
            _("La parella %(n)s ja es va retirar després de la ronda %(round)s.")
            % {"n": pair.number, "round": pair.withdrawn_after_round}
        )
    last = Round.objects.filter(championship=championship).aggregate(n=Max("number"))["n"] or 0
    first = pair.joined_round - 1
    if (
        isinstance(after_round, bool) or not isinstance(after_round, int)
        or not first <= after_round <= last
    ):
        raise RegistrationError(
            _("La retirada ha de ser després d'una ronda de %(first)s a %(last)s, no "
              "«%(n)s».") % {"first": first, "last": last, "n": after_round},
            field="after_round",
        )
    reason = (reason or "").strip()
    if not reason or len(reason) > WITHDRAWAL_REASON_MAX:
        raise RegistrationError(
            _("Cal el motiu de la retirada (com a molt %(max)s caràcters).")
            % {"max": WITHDRAWAL_REASON_MAX},
            field="reason",
        )
    later = Round.objects.filter(championship=championship, number__gt=after_round)
    # A board's result or, classic, a game: either keeps its round's draw.
    played = min(
        (number for model in (Result, Game) if (number := (
            model.objects.filter(seating__round__in=later)
            .order_by("seating__round__number")
            .values_list("seating__round__number", flat=True).first()
        )) is not None),
        default=None,
    )
    if played is not None:
        raise ChampionshipStateError(
            _("La ronda %(n)s ja té resultats: la parella %(pair)s només es pot retirar "
              "després d'aquesta ronda.") % {"n": played, "pair": pair.number}
        )
    undone = sorted(
        set(
            Seating.objects.filter(round__in=later)
            .filter(Q(ns_pair=pair) | Q(ew_pair=pair))
            .values_list("round__number", flat=True)
        )
        | set(Bye.objects.filter(round__in=later, pair=pair).values_list(
            "round__number", flat=True))
    )
    if undone:
        redraw = Round.objects.filter(championship=championship, number__in=undone)
        RoundPair.objects.filter(round__in=redraw).delete()
        Seating.objects.filter(round__in=redraw).delete()
        Bye.objects.filter(round__in=redraw).delete()
        redraw.update(draw_seed=None, movement="")
    pair.withdrawn_after_round = after_round
    pair.withdrawal_reason = reason
    pair.save(update_fields=["withdrawn_after_round", "withdrawal_reason"])
    audit(
        championship, AuditEntry.Action.PAIR_WITHDRAW, acting_user,
        target=_("parella %(n)s") % {"n": pair.number},
        before={"withdrawn_after_round": None},
        after={"withdrawn_after_round": after_round, "draws_undone": undone},
        reason=reason,
    )
    return undone
