"""Every write of the tournaments app (STYLE.md "services"; zulip's ``actions``).

Each service is keyword-only, typed and ``@transaction.atomic``; one that a person
triggers takes ``acting_user=`` (``None`` means the system itself: a management command
or the import) and checks that person's role in the championship. Result writes lock
their rows with ``select_for_update`` and write their ``ResultAudit`` row in the same
transaction.

Errors are ``ValueError`` subclasses split by cause (:class:`TournamentError` and its
children). Their message says what and where, in Catalan (the UI's first language; the
msgids are translated through Django i18n), and ``field`` names the form field the error
belongs to when there is one, so a form can show it next to that field.
"""

from __future__ import annotations

import csv
import io
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as date_type
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models import (
    Board,
    Championship,
    Membership,
    Pair,
    PairBoard,
    Player,
    Result,
    ResultAudit,
    Round,
    RoundPair,
    Seating,
    Table,
)
from tournaments.selectors import user_roles

User = AbstractBaseUser | AnonymousUser

Role = Membership.Role
ORGANISER_ROLES = frozenset({Role.ORGANISER})
HEAD_ROLES = frozenset({Role.ORGANISER, Role.HEAD_REFEREE})
REFEREE_ROLES = frozenset({Role.ORGANISER, Role.HEAD_REFEREE, Role.REFEREE})


# --------------------------------------------------------------------------- errors


class TournamentError(ValueError):
    """Base of every refusal of a service. ``field``: the form field at fault, or None."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NotAllowedError(TournamentError):
    """The acting user lacks the role this action needs in this championship."""


class ChampionshipStateError(TournamentError):
    """The action does not fit the championship's or round's state (finished, closed...)."""


class RegistrationError(TournamentError):
    """A bad championship, player or pair (duplicate number, empty name...)."""


class PairsCsvError(RegistrationError):
    """A pasted pairs list with bad lines; ``problems`` lists one message per bad line."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems), field="text")
        self.problems = list(problems)


class DrawError(TournamentError):
    """A round that cannot be set up or drawn (odd number of pairs, results exist...)."""


class BoardsError(TournamentError):
    """Boards that cannot be generated now (none set up, results already in...)."""


class ResultError(TournamentError):
    """A result the rules do not allow (points out of 0..72, recontro without contro...)."""


class ResultConflict(TournamentError):
    """Someone else saved this result since the form was loaded (optimistic concurrency).

    ``current``: the stored result (``None`` if it was deleted), so the form can show what
    the other referee saved; ``current_version``: its version (0 when there is none).
    """

    def __init__(self, message: str, *, current: Result | None) -> None:
        super().__init__(message, field=None)
        self.current = current
        self.current_version = current.version if current is not None else 0


# --------------------------------------------------------------------------- roles


def _require_role(
    user: User | None, championship: Championship, roles: Iterable[str], action: str
) -> None:
    """``user=None`` is the system (commands, import) and may do anything."""
    if user is None:
        return
    if not user_roles(user, championship) & set(roles):
        raise NotAllowedError(
            _("No tens permís per a: %(action)s (campionat %(name)s).")
            % {"action": action, "name": championship.name}
        )


@transaction.atomic
def membership_grant(
    *, championship: Championship, user: AbstractBaseUser, role: str,
    acting_user: User | None = None,
) -> Membership:
    """Give ``user`` a role (organiser / referee / head_referee) in one championship.

    Only an organiser of that championship (or the system) may grant roles.
    Raises :class:`RegistrationError` for an unknown role, :class:`NotAllowedError`.
    """
    _require_role(acting_user, championship, ORGANISER_ROLES, _("donar rols"))
    if role not in Role.values:
        raise RegistrationError(_("Rol desconegut: %(role)s.") % {"role": role}, field="role")
    membership, _created = Membership.objects.get_or_create(
        championship=championship, user=user, role=role
    )
    return membership


# --------------------------------------------------------------------------- championship

RULE_FIELDS = (
    "variant", "doubling", "method", "scale_bottom", "scale_top", "rounding",
    "infraction_score", "carregar", "carregar_scope", "sant_vicenc",
    "sant_vicenc_on_botifarra", "barraca",
)


def _unique_slug(base: str) -> str:
    base = slugify(base)[:90] or "campionat"
    taken = set(
        Championship.objects.filter(slug__startswith=base).values_list("slug", flat=True)
    )
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _clean_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(rules) - set(RULE_FIELDS))
    if unknown:
        raise RegistrationError(
            _("Regles desconegudes: %(names)s.") % {"names": ", ".join(unknown)},
            field=unknown[0],
        )
    clean: dict[str, Any] = {}
    choice_fields = {
        "variant": Championship.Variant,
        "doubling": Championship.Doubling,
        "method": Championship.Method,
        "rounding": Championship.Rounding,
        "carregar_scope": Championship.CarregarScope,
    }
    for name, value in rules.items():
        if name in choice_fields:
            text = getattr(value, "value", value)
            if text not in choice_fields[name].values:
                raise RegistrationError(
                    _("%(field)s: «%(value)s» no és cap de %(choices)s.")
                    % {"field": name, "value": text,
                       "choices": ", ".join(choice_fields[name].values)},
                    field=name,
                )
            clean[name] = text
        elif name in ("scale_bottom", "scale_top", "infraction_score"):
            try:
                clean[name] = Decimal(str(value))
            except (InvalidOperation, ValueError):
                raise RegistrationError(
                    _("%(field)s: «%(value)s» no és un nombre.")
                    % {"field": name, "value": value},
                    field=name,
                ) from None
        else:
            clean[name] = bool(value)
    return clean


#: The Django permission a person needs to create a championship (superusers have it;
#: the organiser of the demo is given it; grant it in /admin).
CREATE_PERMISSION = "tournaments.add_championship"

#: How many times a championship with a slug made from its name is tried again when
#: another one took that slug at the same moment (each try takes the next free suffix).
SLUG_TRIES = 20


def _check_length(value: str, model: type[Any], field: str, label: str) -> None:
    limit = model._meta.get_field(field).max_length
    if len(value) > limit:
        raise RegistrationError(
            _("%(label)s: com a molt %(limit)s caràcters (n'hi ha %(n)s).")
            % {"label": label, "limit": limit, "n": len(value)},
            field=field,
        )


@transaction.atomic
def championship_create(
    *,
    name: str,
    date: date_type,
    venue: str = "",
    slug: str | None = None,
    end_date: date_type | None = None,
    acting_user: AbstractBaseUser | None = None,
    **rules: Any,
) -> Championship:
    """Create a championship in ``draft`` with the given rules (``RULE_FIELDS``; every one
    missing takes the spec's default: obligada, duplicate, proportional, scale 1..2,
    no rounding, infraction score 0). The acting user becomes its organiser; a person
    (``acting_user`` not ``None``) needs the ``tournaments.add_championship`` permission
    (:data:`CREATE_PERMISSION`).

    ``slug``: defaults to the name slugified, made unique with ``-2``, ``-3``... (tried
    again with the next suffix when another championship takes it at the same moment);
    an explicit slug that is taken, even by a championship created at the same moment, is
    refused. Raises :class:`RegistrationError` (field set), :class:`NotAllowedError`.
    """
    if (
        acting_user is not None
        and acting_user.is_authenticated
        and not acting_user.has_perm(CREATE_PERMISSION)  # type: ignore[attr-defined]
    ):
        raise NotAllowedError(_("No tens permís per crear campionats."))
    name = (name or "").strip()
    if not name:
        raise RegistrationError(_("Cal un nom."), field="name")
    _check_length(name, Championship, "name", _("Nom"))
    venue = (venue or "").strip()
    _check_length(venue, Championship, "venue", _("Lloc"))
    explicit = bool(slug)
    if slug:
        if slugify(slug) != slug:
            raise RegistrationError(
                _("L'identificador «%(slug)s» només pot tenir lletres, xifres i guions.")
                % {"slug": slug},
                field="slug",
            )
        _check_length(slug, Championship, "slug", _("Identificador"))
    clean = _clean_rules(rules)
    bottom = clean.get("scale_bottom", Decimal(1))
    top = clean.get("scale_top", Decimal(2))
    if top <= bottom:
        raise RegistrationError(
            _("L'escala ha d'anar de menys a més: mínim %(bottom)s, màxim %(top)s.")
            % {"bottom": bottom, "top": top},
            field="scale_top",
        )
    taken_message = _("Ja hi ha un campionat amb l'identificador «%(slug)s».")
    for _try in range(SLUG_TRIES):
        candidate = slug if explicit else _unique_slug(name)
        assert candidate is not None
        if explicit and Championship.objects.filter(slug=candidate).exists():
            raise RegistrationError(taken_message % {"slug": candidate}, field="slug")
        try:
            # A savepoint: a slug taken by a championship saved at the same moment is a
            # unique violation (PostgreSQL waits for the other transaction, then refuses).
            with transaction.atomic():
                championship = Championship.objects.create(
                    name=name, slug=candidate, date=date, end_date=end_date, venue=venue,
                    **clean,
                )
        except IntegrityError:
            if not Championship.objects.filter(slug=candidate).exists():
                raise  # not the slug: a bug, let it show
            if explicit:
                raise RegistrationError(
                    taken_message % {"slug": candidate}, field="slug"
                ) from None
            continue
        break
    else:
        raise RegistrationError(
            _("No s'ha trobat cap identificador lliure per a «%(name)s»: escriviu-ne un.")
            % {"name": name},
            field="slug",
        )
    if acting_user is not None and acting_user.is_authenticated:
        Membership.objects.create(
            championship=championship, user=acting_user, role=Role.ORGANISER
        )
    return championship


@transaction.atomic
def championship_update_rules(
    *, championship: Championship, acting_user: User | None, **rules: Any
) -> Championship:
    """Change rules while no result exists (results are scored under the rules they were
    entered with). Raises :class:`ChampionshipStateError`, :class:`RegistrationError`."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("canviar les regles"))
    if Result.objects.filter(board__championship=championship).exists():
        raise ChampionshipStateError(
            _("Ja hi ha resultats: les regles ja no es poden canviar.")
        )
    clean = _clean_rules(rules)
    for name, value in clean.items():
        setattr(championship, name, value)
    if championship.scale_top <= championship.scale_bottom:
        raise RegistrationError(
            _("L'escala ha d'anar de menys a més: mínim %(bottom)s, màxim %(top)s.")
            % {"bottom": championship.scale_bottom, "top": championship.scale_top},
            field="scale_top",
        )
    championship.save()
    return championship


# --------------------------------------------------------------------------- pairs

#: The highest pair number, as in the single-pair form (``forms.PairForm``) and the CSV.
PAIR_NUMBER_MAX = 9999
#: At most this many characters in a player's name (``Player.name``).
PLAYER_NAME_MAX: int = Player._meta.get_field("name").max_length  # type: ignore[assignment]

_ASCII_DIGITS = frozenset("0123456789")


def _lock_championship(championship: Championship | int) -> Championship:
    """The championship's row, locked until the transaction ends, so that registrations
    (and removals) of one championship run one at a time: every one sees the pairs and
    player codes the previous one wrote. ``FOR NO KEY UPDATE`` does not block the result
    writes (their foreign keys only take ``FOR KEY SHARE``)."""
    pk = championship if isinstance(championship, int) else championship.pk
    return Championship.objects.select_for_update(no_key=True).get(pk=pk)


def _free_player_codes(championship: Championship, count: int) -> list[str]:
    """``count`` unused ``pN`` codes (the caller holds :func:`_lock_championship`)."""
    taken = set(Player.objects.filter(championship=championship).values_list("code", flat=True))
    codes: list[str] = []
    n = len(taken) + 1
    while len(codes) < count:
        code = f"p{n}"
        if code not in taken:
            codes.append(code)
        n += 1
    return codes


def _check_not_finished(championship: Championship) -> None:
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))


def _check_registration_open(championship: Championship) -> None:
    """Pairs are registered only before the first draw: the draw seats every pair, so a
    pair added later would leave an odd number for the next round's draw, or a pair that
    never played round 1 (issue 4). One query."""
    _check_not_finished(championship)
    drawn = (
        Round.objects.filter(championship=championship, seatings__isnull=False)
        .order_by("number").values_list("number", flat=True).first()
    )
    if drawn is not None:
        raise ChampionshipStateError(
            _("La ronda %(n)s ja està sortejada: ja no es poden inscriure parelles.")
            % {"n": drawn}
        )


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


def _name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (empty, too long, control characters)."""
    if not name:
        return _("falta el nom d'un jugador")
    if len(name) > PLAYER_NAME_MAX:
        return _("el nom «%(start)s…» passa de %(max)s caràcters") % {
            "start": name[:20], "max": PLAYER_NAME_MAX
        }
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        return _("el nom «%(name)s» té caràcters de control") % {
            "name": name[:40].encode("unicode_escape").decode("ascii")
        }
    return None


def _create_pairs(
    championship: Championship, rows: Sequence[tuple[int, str, str]]
) -> list[Pair]:
    """Write the players and pairs (the caller holds :func:`_lock_championship`). Raises
    ``IntegrityError`` when a number is taken after all (the caller turns it into its
    own error inside a savepoint)."""
    codes = _free_player_codes(championship, 2 * len(rows))
    players = Player.objects.bulk_create(
        [
            Player(championship=championship, code=codes[2 * i + k], name=row[1 + k])
            for i, row in enumerate(rows)
            for k in (0, 1)
        ]
    )
    return Pair.objects.bulk_create(
        [
            Pair(
                championship=championship, number=row[0],
                player1=players[2 * i], player2=players[2 * i + 1],
            )
            for i, row in enumerate(rows)
        ]
    )


@transaction.atomic
def pair_register(
    *, championship: Championship, number: int, player1: str, player2: str,
    acting_user: User | None,
) -> Pair:
    """Register pair ``number`` (1..:data:`PAIR_NUMBER_MAX`, unique in the championship)
    of two named players (1..:data:`PLAYER_NAME_MAX` characters), before any round is
    drawn. Registrations of one championship run one at a time (row lock), so several at
    once with different numbers all succeed and the same number twice is refused.

    Raises :class:`RegistrationError` (field ``number``, ``player1`` or ``player2``),
    :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished, or a round
    already drawn).
    """
    championship = _lock_championship(championship)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("inscriure parelles"))
    _check_registration_open(championship)
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
            return _create_pairs(championship, [(number, names[0], names[1])])[0]
    except IntegrityError:
        # Only without the lock's protection (rows written outside the services).
        raise RegistrationError(taken, field="number") from None


def _parse_pairs_lines(text: str) -> list[tuple[int, int, str, str]]:
    """:func:`parse_pairs_csv` with the line each pair starts on: ``[(line, number,
    player 1, player 2)]``."""
    problems: list[str] = []
    rows: list[tuple[int, int, str, str]] = []
    seen: dict[int, int] = {}
    # A spreadsheet's UTF-8 export may start with a byte-order mark.
    reader = csv.reader(io.StringIO((text or "").lstrip("\ufeff")), delimiter=";")
    line_no = 1
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:  # an unclosed quote, a NUL, a huge field
            problems.append(
                _("línia %(n)s: no es pot llegir (%(error)s)") % {"n": line_no, "error": exc}
            )
            break
        where = _("línia %(n)s") % {"n": line_no}
        start, line_no = line_no, reader.line_num + 1
        fields = [f.strip() for f in fields]
        if not any(fields):
            continue
        if (
            not rows and not problems and _pair_number_problem(fields[0])
            and _looks_like_header(fields)
        ):
            continue
        if len(fields) != 3:
            problems.append(
                _("%(where)s: calen 3 camps separats per «;» (número;jugador 1;jugador 2), "
                  "n'hi ha %(count)s") % {"where": where, "count": len(fields)}
            )
            continue
        number_text, name1, name2 = fields
        problem = _pair_number_problem(number_text) or _name_problem(name1) \
            or _name_problem(name2)
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
        rows.append((start, number, name1, name2))
    if problems:
        raise PairsCsvError(problems)
    if not rows:
        raise PairsCsvError([_("no hi ha cap parella al text")])
    return rows


def parse_pairs_csv(text: str) -> list[tuple[int, str, str]]:
    """Parse "number;player 1;player 2" lines (a header line and blank lines are skipped;
    a field may be quoted, ``"1";"Puig; Anna";Vila``).

    The limits are the single-pair form's: a number of ASCII digits 1..
    :data:`PAIR_NUMBER_MAX`, each name 1..:data:`PLAYER_NAME_MAX` characters without
    control characters, no number twice. Returns ``[(number, player 1, player 2)]``.
    Raises :class:`PairsCsvError` listing every bad line by its line number
    ("línia 3: ...").
    """
    return [(number, name1, name2) for _line, number, name1, name2 in _parse_pairs_lines(text)]


def _looks_like_header(fields: Sequence[str]) -> bool:
    first = fields[0].lower()
    return first.startswith(("n", "pair", "parella", "pareja", "#"))


@transaction.atomic
def pairs_import_csv(
    *, championship: Championship, text: str, acting_user: User | None
) -> list[Pair]:
    """Register every pair of a pasted list ("number;player 1;player 2" per line, see
    :func:`parse_pairs_csv`), all or nothing, before any round is drawn. A number
    already registered is an error naming its line. Runs one at a time per championship
    with :func:`pair_register` (row lock).

    Raises :class:`PairsCsvError` (``problems``: one message per bad line, field ``text``),
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.
    """
    championship = _lock_championship(championship)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("inscriure parelles"))
    _check_registration_open(championship)
    lines = _parse_pairs_lines(text)
    existing = set(
        Pair.objects.filter(championship=championship).values_list("number", flat=True)
    )
    clashes = [
        _("línia %(line)s: ja hi ha una parella número %(n)s") % {"line": line, "n": number}
        for line, number, _name1, _name2 in lines
        if number in existing
    ]
    if clashes:
        raise PairsCsvError(clashes)
    try:
        with transaction.atomic():
            return _create_pairs(championship, [row[1:] for row in lines])
    except IntegrityError:
        # Only without the lock's protection (rows written outside the services).
        raise PairsCsvError(
            [_("una altra inscripció ha pres algun d'aquests números: torneu-ho a provar")]
        ) from None


@transaction.atomic
def pair_remove(*, pair: Pair, acting_user: User | None) -> None:
    """Remove a pair registered by mistake, with its two players (unless another pair
    has them), while it has no seating (it has never been seated at a table, so it has no
    result). Organiser only.

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished, or the
    pair already seated in a round).
    """
    championship = _lock_championship(pair.championship_id)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("esborrar parelles"))
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    seated = (
        Seating.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair))
        .order_by("round__number").values_list("round__number", flat=True).first()
    )
    if seated is not None:
        raise ChampionshipStateError(
            _("La parella %(n)s ja seu a una taula a la ronda %(round)s: no es pot esborrar.")
            % {"n": pair.number, "round": seated}
        )
    players = {pair.player1_id, pair.player2_id}
    pair.delete()
    still_used: set[int] = set()
    for ids in Pair.objects.filter(
        Q(player1_id__in=players) | Q(player2_id__in=players)
    ).values_list("player1_id", "player2_id"):
        still_used.update(ids)
    Player.objects.filter(pk__in=players - still_used).delete()


# --------------------------------------------------------------------------- rounds


def _has_results(championship: Championship) -> bool:
    return Result.objects.filter(board__championship=championship).exists()


@transaction.atomic
def rounds_setup(
    *, championship: Championship, rounds: int, boards_per_round: int,
    acting_user: User | None,
) -> list[Round]:
    """Create rounds 1..``rounds``, each with ``boards_per_round`` boards numbered on
    (round r holds boards (r-1)*b+1 .. r*b), as on butinet where every table of a round
    plays the same boards. Replaces an earlier setup while no table is drawn; boards must
    then be generated again.

    Raises :class:`DrawError` (fields ``rounds`` / ``boards_per_round``),
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("preparar les rondes"))
    _check_not_finished(championship)
    for value, name in ((rounds, "rounds"), (boards_per_round, "boards_per_round")):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
            raise DrawError(
                _("«%(value)s» ha de ser un enter entre 1 i 100.") % {"value": value},
                field=name,
            )
    if Seating.objects.filter(round__championship=championship).exists():
        raise DrawError(
            _("Ja s'han sortejat taules: les rondes ja no es poden canviar."), field="rounds"
        )
    Board.objects.filter(championship=championship).delete()
    Round.objects.filter(championship=championship).delete()
    created = Round.objects.bulk_create(
        [Round(championship=championship, number=n) for n in range(1, rounds + 1)]
    )
    Board.objects.bulk_create(
        [
            Board(championship=championship, round=rnd, number=(rnd.number - 1)
                  * boards_per_round + k)
            for rnd in created
            for k in range(1, boards_per_round + 1)
        ]
    )
    championship.boards_per_round = boards_per_round
    championship.deal_secret = ""
    championship.deal_commitment = ""
    championship.save(update_fields=["boards_per_round", "deal_secret", "deal_commitment"])
    return created


#: How many seeded shuffles a draw tries to avoid pairs meeting again.
DRAW_TRIES = 200


@transaction.atomic
def round_draw(
    *, round: Round, seed: int | None = None, acting_user: User | None
) -> list[Seating]:
    """Seat every pair of the championship at a table for ``round`` by a seeded random
    draw: with ``seed`` the same pairs always give the same tables. 24 pairs give 12
    tables; every table plays the round's boards. Among ``DRAW_TRIES`` shuffles from the
    seed, the first with the fewest pairs meeting again (from earlier rounds) wins.

    Redrawing replaces the tables while the round has no result. ``seed=None`` draws a
    fresh seed, stored in ``round.draw_seed``. The championship becomes ``running``.

    Raises :class:`DrawError` (odd or too few pairs, results exist, closed round),
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.

    Question (spec): an odd number of pairs would need a bye (a sitting-out pair); the
    spec does not say how a bye scores, so it is refused.
    """
    # The championship first (as the registrations and rounds_setup lock it): a pair
    # registered while this draw runs would be left out of it.
    championship = _lock_championship(round.championship_id)
    round = Round.objects.select_for_update().get(pk=round.pk)
    round.championship = championship
    _require_role(acting_user, championship, ORGANISER_ROLES, _("sortejar taules"))
    _check_not_finished(championship)
    if round.is_closed:
        raise DrawError(_("La ronda %(n)s ja està tancada.") % {"n": round.number})
    if Result.objects.filter(seating__round=round).exists():
        raise DrawError(
            _("La ronda %(n)s ja té resultats: no es pot tornar a sortejar.")
            % {"n": round.number}
        )
    numbers = sorted(
        Pair.objects.filter(championship=championship).values_list("number", flat=True)
    )
    if len(numbers) < 2 or len(numbers) % 2:
        raise DrawError(
            _("Cal un nombre parell de parelles (com a mínim 2) per sortejar: n'hi ha %(n)s.")
            % {"n": len(numbers)}
        )
    if seed is None:
        seed = secrets.randbits(62)
    met: set[frozenset[int]] = {
        frozenset(pair)
        for pair in Seating.objects.filter(round__championship=championship)
        .exclude(round=round)
        .values_list("ns_pair__number", "ew_pair__number")
    }
    rng = random.Random(seed)
    best: list[int] = []
    best_repeats = len(numbers) + 1
    for _try in range(DRAW_TRIES):
        order = numbers[:]
        rng.shuffle(order)
        repeats = sum(
            frozenset(order[i : i + 2]) in met for i in range(0, len(order), 2)
        )
        if repeats < best_repeats:
            best, best_repeats = order, repeats
        if repeats == 0:
            break
    Seating.objects.filter(round=round).delete()
    tables_needed = len(best) // 2
    existing_tables = {
        t.number: t for t in Table.objects.filter(championship=championship)
    }
    new_tables = Table.objects.bulk_create(
        [
            Table(championship=championship, number=n)
            for n in range(1, tables_needed + 1)
            if n not in existing_tables
        ]
    )
    existing_tables.update({t.number: t for t in new_tables})
    pairs = {p.number: p for p in Pair.objects.filter(championship=championship)}
    seatings = Seating.objects.bulk_create(
        [
            Seating(
                round=round, table=existing_tables[i // 2 + 1],
                ns_pair=pairs[best[i]], ew_pair=pairs[best[i + 1]],
            )
            for i in range(0, len(best), 2)
        ]
    )
    _write_round_pairs(round, seatings)
    round.draw_seed = seed
    round.save(update_fields=["draw_seed"])
    if championship.status == Championship.Status.DRAFT:
        championship.status = Championship.Status.RUNNING
        championship.save(update_fields=["status"])
    return seatings


def _write_round_pairs(round: Round, seatings: Sequence[Seating]) -> None:
    """The (round, pair) rows whose unique constraint holds "one table per round"."""
    try:
        with transaction.atomic():
            RoundPair.objects.bulk_create(
                [
                    RoundPair(round=round, pair_id=pair_id, seating=s)
                    for s in seatings
                    for pair_id in (s.ns_pair_id, s.ew_pair_id)
                ]
            )
    except IntegrityError:
        raise DrawError(
            _("Una parella no pot seure a dues taules a la ronda %(n)s.") % {"n": round.number}
        ) from None


@transaction.atomic
def seating_set(
    *, round: Round, table_number: int, ns_pair: Pair, ew_pair: Pair,
    acting_user: User | None,
) -> Seating:
    """Seat two pairs at one table by hand (a movement typed in, or the import).

    Raises :class:`DrawError` when a pair already sits elsewhere in that round.
    """
    _require_role(acting_user, round.championship, ORGANISER_ROLES, _("assignar taules"))
    if ns_pair.pk == ew_pair.pk:
        raise DrawError(_("Una parella no pot jugar contra ella mateixa."), field="ew_pair")
    table, _created = Table.objects.get_or_create(
        championship_id=round.championship_id, number=table_number
    )
    seating = Seating.objects.create(round=round, table=table, ns_pair=ns_pair, ew_pair=ew_pair)
    _write_round_pairs(round, [seating])
    return seating


# --------------------------------------------------------------------------- boards


@transaction.atomic
def boards_generate(*, championship: Championship, acting_user: User | None) -> list[Board]:
    """Draw a fresh secret (``engine.new_secret``), store it with its SHA-256 commitment
    (``engine.deal_commitment``; public from now on) and deal every board with
    ``engine.generate_deal(secret, number)``.

    Refused once any result exists (the tables have seen the cards) or the secret was
    published. Raises :class:`BoardsError`, :class:`NotAllowedError`.
    """
    from engine.generate import deal_commitment, generate_deal, new_secret

    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("generar els taulers"))
    if championship.deal_secret_published:
        raise BoardsError(_("La llavor ja és pública: els taulers no es poden regenerar."))
    if _has_results(championship):
        raise BoardsError(
            _("Ja hi ha resultats: els taulers no es poden regenerar.")
        )
    boards = list(Board.objects.filter(championship=championship).order_by("number"))
    if not boards:
        raise BoardsError(_("Primer cal preparar les rondes i els taulers."))
    secret = new_secret()
    for board in boards:
        board.deal = generate_deal(secret, board.number).to_json()
    Board.objects.bulk_update(boards, ["deal"])
    championship.deal_secret = secret.hex()
    championship.deal_commitment = deal_commitment(secret)
    championship.save(update_fields=["deal_secret", "deal_commitment"])
    return boards


# --------------------------------------------------------------------------- results

_ADJUSTMENTS = frozenset(Result.Adjustment.values)
_TRUMPS = frozenset(Result.Trump.values)


@dataclass(frozen=True, slots=True)
class ResultData:
    """A result as entered (championship-json.md "A result"), validated by
    :func:`validate_result`. ``adjusted``: ``None`` or ``(NS, EW)`` adjustments."""

    trump: str | None
    ns_points_taken: int | None
    delegated: bool = False
    contro: bool = False
    recontro: bool = False
    sant_vicenc: bool = False
    infraction: str | None = None
    adjusted: tuple[str, str] | None = None
    note: str = ""


def _enum_text(value: Any) -> Any:
    return getattr(value, "value", value)


def _normalise_adjusted(value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        value = (value.get("NS"), value.get("EW"))
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ResultError(
            _("La puntuació arbitral necessita un valor per a NS i un per a EO."),
            field="adjusted",
        )
    ns, ew = (_enum_text(v) for v in value)
    for side, text in (("NS", ns), ("EO", ew)):
        if text not in _ADJUSTMENTS:
            raise ResultError(
                _("Puntuació arbitral de %(side)s: «%(value)s» no és cap de %(choices)s.")
                % {"side": side, "value": text, "choices": ", ".join(sorted(_ADJUSTMENTS))},
                field="adjusted",
            )
    return (ns, ew)


def validate_result(
    championship: Championship,
    *,
    trump: Any,
    ns_points_taken: Any,
    delegated: bool = False,
    contro: bool = False,
    recontro: bool = False,
    sant_vicenc: bool = False,
    infraction: Any = None,
    adjusted: Any = None,
    note: str = "",
) -> ResultData:
    """Check one result against rules.md and the championship's settings.

    ``trump``: ``"O"``, ``"C"``, ``"E"``, ``"B"``, ``"botifarra"`` (or a ``scoring.Trump``;
    ``engine.Suit``; ``None`` only when adjusted). ``ns_points_taken``: 0..72 (``None``
    only when adjusted). Doubles in order: recontro needs contro, Sant Vicenç needs
    recontro and the championship's ``sant_vicenc`` setting, and on a botifarra hand its
    ``sant_vicenc_on_botifarra`` (rules.md "Where sources disagree"). ``infraction``:
    ``None``, ``"NS"`` or ``"EW"``, never with ``adjusted``.

    Raises :class:`ResultError` whose ``field`` names the field at fault.
    """
    adjusted_pair = _normalise_adjusted(adjusted)
    trump_text = _enum_text(trump)
    if trump_text is not None and trump_text not in _TRUMPS:
        raise ResultError(
            _("Trumfo «%(value)s» desconegut: ha de ser O, C, E, B o botifarra.")
            % {"value": trump_text},
            field="trump",
        )
    if trump_text is None and adjusted_pair is None:
        raise ResultError(_("Cal el trumfo (o botifarra)."), field="trump")
    if ns_points_taken is None:
        if adjusted_pair is None:
            raise ResultError(_("Cal saber els punts que ha fet NS (0 a 72)."),
                              field="ns_points_taken")
    elif (
        isinstance(ns_points_taken, bool)
        or not isinstance(ns_points_taken, int)
        or not 0 <= ns_points_taken <= 72
    ):
        raise ResultError(
            _("Els punts de NS han de ser un enter de 0 a 72, no «%(value)s».")
            % {"value": ns_points_taken},
            field="ns_points_taken",
        )
    if delegated and trump_text is None:
        raise ResultError(_("Delegat sense trumfo."), field="delegated")
    if recontro and not contro:
        raise ResultError(_("No hi pot haver recontro sense contro."), field="recontro")
    if sant_vicenc and not recontro:
        raise ResultError(_("No hi pot haver Sant Vicenç sense recontro."), field="sant_vicenc")
    if sant_vicenc and not championship.sant_vicenc:
        raise ResultError(
            _("En aquest campionat no es permet el Sant Vicenç."), field="sant_vicenc"
        )
    if (
        sant_vicenc
        and trump_text == Result.Trump.BOTIFARRA
        and not championship.sant_vicenc_on_botifarra
    ):
        raise ResultError(
            _("En aquest campionat no es permet el Sant Vicenç en una botifarra."),
            field="sant_vicenc",
        )
    infraction_text = _enum_text(infraction) or None
    if infraction_text == "EO":
        infraction_text = "EW"
    if infraction_text is not None and infraction_text not in ("NS", "EW"):
        raise ResultError(
            _("Infracció: «%(value)s» ha de ser NS o EO.") % {"value": infraction_text},
            field="infraction",
        )
    if infraction_text is not None and adjusted_pair is not None:
        raise ResultError(
            _("Un resultat no pot tenir alhora infracció i puntuació arbitral."),
            field="infraction",
        )
    return ResultData(
        trump=trump_text,
        ns_points_taken=ns_points_taken,
        delegated=bool(delegated),
        contro=bool(contro),
        recontro=bool(recontro),
        sant_vicenc=bool(sant_vicenc),
        infraction=infraction_text,
        adjusted=adjusted_pair,
        note=(note or "").strip()[:500],
    )


def _audit(
    result: Result | None, *, seating: Seating, board: Board, action: str,
    acting_user: User | None, before: dict[str, Any] | None, after: dict[str, Any] | None,
    at: Any,
) -> None:
    ResultAudit.objects.create(
        championship_id=board.championship_id,
        result=result,
        round_number=seating.round.number,
        table_number=seating.table.number,
        board_number=board.number,
        action=action,
        acting_user=acting_user if acting_user is not None and acting_user.is_authenticated
        else None,
        at=at,
        before=before,
        after=after,
    )


@transaction.atomic
def result_record(
    *,
    seating: Seating,
    board: Board,
    trump: Any,
    ns_points_taken: int | None,
    delegated: bool = False,
    contro: bool = False,
    recontro: bool = False,
    sant_vicenc: bool = False,
    infraction: Any = None,
    adjusted: Any = None,
    note: str = "",
    expected_version: int | None,
    acting_user: User | None,
) -> Result:
    """Enter (``expected_version=None``) or correct (``expected_version`` = the version
    the form was loaded with) the result of ``board`` at ``seating``'s table.

    Locks the seating and the result row (``select_for_update``) so that two referees
    saving at once are serialised; the second then sees a version other than the one it
    expected and gets :class:`ResultConflict` instead of overwriting the first. A
    correction bumps ``version`` by one; every write adds a :class:`ResultAudit` row
    (before/after) in the same transaction.

    Refusals: :class:`NotAllowedError` (not a referee/head referee/organiser of this
    championship; a closed round needs head referee or organiser),
    :class:`ChampionshipStateError` (championship finished),
    :class:`ResultError` (rules, see :func:`validate_result`; a board of another round;
    a pair that already played the board), :class:`ResultConflict`.
    """
    seating = (
        Seating.objects.select_for_update(of=("self",))
        .select_related("round__championship", "table", "ns_pair", "ew_pair")
        .get(pk=seating.pk)
    )
    board = Board.objects.get(pk=board.pk)
    round = seating.round
    championship = round.championship
    _require_role(acting_user, championship, REFEREE_ROLES, _("entrar resultats"))
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("El campionat ja s'ha acabat: els resultats no es poden canviar.")
        )
    if round.is_closed:
        _require_role(acting_user, championship, HEAD_ROLES,
                      _("canviar resultats d'una ronda tancada"))
    if board.championship_id != championship.pk or (
        board.round_id is not None and board.round_id != round.pk
    ):
        raise ResultError(
            _("El tauler %(board)s no es juga a la ronda %(round)s.")
            % {"board": board.number, "round": round.number},
            field="board",
        )
    data = validate_result(
        championship, trump=trump, ns_points_taken=ns_points_taken, delegated=delegated,
        contro=contro, recontro=recontro, sant_vicenc=sant_vicenc, infraction=infraction,
        adjusted=adjusted, note=note,
    )
    current = (
        Result.objects.select_for_update(of=("self",))
        .filter(seating=seating, board=board)
        .first()
    )
    where = _("taula %(table)s, tauler %(board)s") % {
        "table": seating.table.number, "board": board.number
    }
    if current is None and expected_version is not None:
        raise ResultConflict(
            _("%(where)s: el resultat que corregies ja no existeix.") % {"where": where},
            current=None,
        )
    if current is not None and expected_version != current.version:
        raise ResultConflict(
            _("%(where)s: un altre àrbitre ja ha desat aquest resultat (versió %(v)s). "
              "Revisa'l abans de tornar a desar.") % {"where": where, "v": current.version},
            current=current,
        )
    now = timezone.now()
    fields = {
        "trump": data.trump,
        "ns_points_taken": data.ns_points_taken,
        "delegated": data.delegated,
        "contro": data.contro,
        "recontro": data.recontro,
        "sant_vicenc": data.sant_vicenc,
        "infraction": data.infraction,
        "adjusted_ns": data.adjusted[0] if data.adjusted else None,
        "adjusted_ew": data.adjusted[1] if data.adjusted else None,
        "note": data.note,
    }
    if current is None:
        played = list(
            PairBoard.objects.filter(
                board=board, pair_id__in=(seating.ns_pair_id, seating.ew_pair_id)
            ).values_list("pair__number", flat=True)
        )
        if played:
            raise ResultError(
                _("La parella %(pair)s ja ha jugat el tauler %(board)s.")
                % {"pair": played[0], "board": board.number},
                field="board",
            )
        result = Result(
            seating=seating, board=board, entered_by=_person(acting_user),
            entered_at=now, updated_at=now, version=1, **fields,
        )
        try:
            with transaction.atomic():
                result.save()
                PairBoard.objects.bulk_create(
                    [
                        PairBoard(pair_id=seating.ns_pair_id, board=board, result=result),
                        PairBoard(pair_id=seating.ew_pair_id, board=board, result=result),
                    ]
                )
        except IntegrityError:
            # Only reachable in a race the row lock did not cover (another seating of
            # the same pairs); the database constraint keeps the invariant.
            stored = Result.objects.filter(seating=seating, board=board).first()
            raise ResultConflict(
                _("%(where)s: un altre àrbitre ja ha desat aquest resultat.")
                % {"where": where},
                current=stored,
            ) from None
        _audit(result, seating=seating, board=board, action=ResultAudit.Action.CREATE,
               acting_user=acting_user, before=None, after=result.snapshot(), at=now)
        return result
    before = current.snapshot()
    for name, value in fields.items():
        setattr(current, name, value)
    current.version += 1
    current.updated_at = now
    current.entered_by = _person(acting_user) or current.entered_by
    current.save()
    _audit(current, seating=seating, board=board, action=ResultAudit.Action.UPDATE,
           acting_user=acting_user, before=before, after=current.snapshot(), at=now)
    return current


def _person(user: User | None) -> Any:
    return user if user is not None and user.is_authenticated else None


def result_correct(
    *, result: Result, expected_version: int, acting_user: User | None, **data: Any
) -> Result:
    """Correct a stored result (audited, version + 1): :func:`result_record` on the same
    table and board, with ``data`` the result's fields (all of them, as in a form)."""
    return result_record(
        seating=result.seating, board=result.board, expected_version=expected_version,
        acting_user=acting_user, **data,
    )


@transaction.atomic
def result_delete(
    *, result: Result, expected_version: int, acting_user: User | None
) -> None:
    """Delete a result entered by mistake (head referee or organiser; audited).

    Raises :class:`ResultConflict` when it changed since ``expected_version``.
    """
    current = (
        Result.objects.select_for_update(of=("self",))
        .select_related("seating__round__championship", "seating__table", "board")
        .filter(pk=result.pk)
        .first()
    )
    if current is None:
        raise ResultConflict(_("El resultat ja no existeix."), current=None)
    championship = current.seating.round.championship
    _require_role(acting_user, championship, HEAD_ROLES, _("esborrar resultats"))
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("El campionat ja s'ha acabat: els resultats no es poden canviar.")
        )
    if current.version != expected_version:
        raise ResultConflict(
            _("Un altre àrbitre ha canviat aquest resultat (versió %(v)s).")
            % {"v": current.version},
            current=current,
        )
    before = current.snapshot()
    _audit(None, seating=current.seating, board=current.board,
           action=ResultAudit.Action.DELETE, acting_user=acting_user, before=before,
           after=None, at=timezone.now())
    current.delete()


# --------------------------------------------------------------------------- closing


@transaction.atomic
def round_close(
    *, round: Round, acting_user: User | None, allow_missing: bool = False
) -> Round:
    """Close a round: from now on only a head referee or the organiser may change its
    results. Refused while a table lacks a result on one of the round's boards, unless
    ``allow_missing`` (a table that did not play a board simply has no result).

    Raises :class:`ChampionshipStateError` (already closed, missing results; the message
    lists up to 10 missing "table/board"), :class:`NotAllowedError`.
    """
    round = Round.objects.select_for_update().select_related("championship").get(pk=round.pk)
    _require_role(acting_user, round.championship, HEAD_ROLES, _("tancar rondes"))
    if round.is_closed:
        raise ChampionshipStateError(_("La ronda %(n)s ja està tancada.") % {"n": round.number})
    if not allow_missing:
        boards = list(Board.objects.filter(round=round).values_list("number", flat=True))
        done = set(
            Result.objects.filter(seating__round=round).values_list(
                "seating__table__number", "board__number"
            )
        )
        missing = [
            f"{table}/{board}"
            for table in Seating.objects.filter(round=round)
            .order_by("table__number").values_list("table__number", flat=True)
            for board in boards
            if (table, board) not in done
        ]
        if missing:
            raise ChampionshipStateError(
                _("Falten %(count)s resultats a la ronda %(n)s (taula/tauler: %(list)s).")
                % {"count": len(missing), "n": round.number, "list": ", ".join(missing[:10])}
            )
    round.closed_at = timezone.now()
    round.save(update_fields=["closed_at"])
    return round


@transaction.atomic
def round_reopen(*, round: Round, acting_user: User | None) -> Round:
    """Reopen a closed round while the championship runs. Raises as :func:`round_close`."""
    round = Round.objects.select_for_update().select_related("championship").get(pk=round.pk)
    _require_role(acting_user, round.championship, HEAD_ROLES, _("reobrir rondes"))
    if round.championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))
    round.closed_at = None
    round.save(update_fields=["closed_at"])
    return round


@transaction.atomic
def championship_finish(*, championship: Championship, acting_user: User | None) -> Championship:
    """Finish the championship: results are final and every open round is closed.

    Raises :class:`ChampionshipStateError` (already finished), :class:`NotAllowedError`.
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("acabar el campionat"))
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja està acabat."))
    now = timezone.now()
    Round.objects.filter(championship=championship, closed_at__isnull=True).update(closed_at=now)
    championship.status = Championship.Status.FINISHED
    championship.save(update_fields=["status"])
    return championship


@transaction.atomic
def deal_secret_publish(*, championship: Championship, acting_user: User | None) -> Championship:
    """Make the deal secret public so anyone can check the commitment and regenerate
    every board (``verify_deals``). Only once the championship is finished.

    Raises :class:`ChampionshipStateError` (not finished, no secret, already published),
    :class:`NotAllowedError`.
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("publicar la llavor"))
    if championship.status != Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("La llavor només es pot publicar quan el campionat s'ha acabat.")
        )
    if not championship.deal_secret:
        raise ChampionshipStateError(_("Aquest campionat no té llavor: no s'hi van generar "
                                       "els taulers."))
    if championship.deal_secret_published:
        raise ChampionshipStateError(_("La llavor ja és pública."))
    championship.deal_secret_published_at = timezone.now()
    championship.save(update_fields=["deal_secret_published_at"])
    return championship
