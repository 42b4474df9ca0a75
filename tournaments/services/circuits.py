"""Circuits: create one, change its rules, add and take away its championships, give
and take its organisers, keep its championships' final places (docs/circuits.md).

Every write is atomic, audited in ``PeopleAuditEntry`` and bumps ``Circuit.version``
(the rankings' cache and ETag read it). Who may: anyone who may create a championship
creates a circuit and becomes its organiser; its organisers (or a superuser) change
it. A circuit's championships need no role of their own: their standings are public.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User as Account
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring import circuits as pure
from tournaments.errors import NotAllowedError, TournamentError
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    CircuitRole,
    FinalStanding,
    PeopleAuditEntry,
    Player,
)
from tournaments.selectors.circuits import circuit_rules, event_pair, final_rows
from tournaments.selectors.persons import canonical_ids
from tournaments.services.championships import CREATE_PERMISSION
from tournaments.services.common import User, acting_person

__all__ = [
    "CircuitError",
    "circuit_create",
    "circuit_event_add",
    "circuit_event_remove",
    "circuit_role_grant",
    "circuit_role_revoke",
    "circuit_rules_edit",
    "final_standings_refresh",
    "is_circuit_organiser",
]

#: Places a points table may have at most.
TABLE_MAX = 500
#: A place's points as typed: ASCII digits, a decimal point or comma, a sign; no
#: exponent ("1e999999999" would make ``Fraction`` build a number of a billion digits).
_POINTS = re.compile(r"[+-]?[0-9]{1,12}(?:[.,][0-9]{1,12})?")


class CircuitError(TournamentError):
    """A circuit, its rules or its championships that cannot be so (a slug taken, a bad
    points table, a championship already in it...)."""


# --------------------------------------------------------------------------- who


def is_circuit_organiser(user: Any, circuit: Circuit) -> bool:
    """Whether ``user`` runs ``circuit`` (an organiser of it, or a superuser)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_superuser", False):
        return True
    return CircuitRole.objects.filter(circuit=circuit, user_id=user.pk).exists()


def _require_organiser(user: User | None, circuit: Circuit) -> None:
    if user is None:  # the system
        return
    if not is_circuit_organiser(user, circuit):
        raise NotAllowedError(_("Només els organitzadors del circuit ho poden fer."))


def _audit(circuit: Circuit | None, action: str, acting_user: User | None, *,
           target: str = "", before: Any = None, after: Any = None) -> PeopleAuditEntry:
    return PeopleAuditEntry.objects.create(
        circuit=circuit, action=action, acting_user=acting_person(acting_user),
        target=(target or "")[:200], before=before, after=after,
    )


def _bump(circuit: Circuit) -> None:
    now = timezone.now()
    Circuit.objects.filter(pk=circuit.pk).update(version=F("version") + 1, changed_at=now)
    circuit.refresh_from_db(fields=["version", "changed_at"])


# ------------------------------------------------------------------------- rules


def clean_rules(*, points: str, points_table: Any, best_of: Any, min_events: Any,
                tiebreaks: Any) -> dict[str, Any]:
    """The rules as stored, checked; raises :class:`CircuitError` naming the field."""
    if points not in Circuit.Points.values:
        raise CircuitError(_("Forma de puntuar desconeguda: «%(value)s».")
                           % {"value": points}, field="points")
    table = _table(points_table)
    if points == Circuit.Points.PLACE_TABLE and not table:
        raise CircuitError(_("Cal la taula de punts per lloc (p. ex. 100, 85, 75, 68)."),
                           field="points_table")
    best = _count(best_of, "best_of", _("Millors resultats"), optional=True)
    if best == 0:
        raise CircuitError(_("Millors resultats: almenys 1, o buit perquè comptin tots."),
                           field="best_of")
    minimum = _count(min_events, "min_events", _("Proves mínimes"), optional=False)
    order = _tiebreaks(tiebreaks)
    return {"points": points, "points_table": table, "best_of": best,
            "min_events": minimum, "tiebreaks": order}


def _table(value: Any) -> list[int | float]:
    if value in (None, ""):
        return []
    items: list[Any]
    if isinstance(value, str):
        items = [v for v in value.replace(";", ",").replace("\n", ",").split(",")
                 if v.strip()]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise CircuitError(_("La taula de punts ha de ser una llista de nombres."),
                           field="points_table")
    if len(items) > TABLE_MAX:
        raise CircuitError(_("La taula de punts té més de %(max)s llocs.")
                           % {"max": TABLE_MAX}, field="points_table")
    out: list[int | float] = []
    for place, item in enumerate(items, start=1):
        typed = str(item).strip()
        try:
            if isinstance(item, bool):
                raise ValueError(typed)
            if isinstance(item, (int, float)):
                number = Fraction(item)  # nan: ValueError, inf: OverflowError
            elif _POINTS.fullmatch(typed):
                number = Fraction(typed.replace(",", "."))
            else:
                raise ValueError(typed)
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            raise CircuitError(
                _("Taula de punts, lloc %(place)s: «%(value)s» no és un nombre.")
                % {"place": place, "value": str(item)[:20]}, field="points_table",
            ) from None
        if number < 0 or number > 100000:
            raise CircuitError(
                _("Taula de punts, lloc %(place)s: ha de ser entre 0 i 100000.")
                % {"place": place}, field="points_table")
        out.append(int(number) if number.denominator == 1 else round(float(number), 2))
    return out


def _count(value: Any, field: str, label: str, *, optional: bool) -> int | None:
    if value in (None, "") and optional:
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        raise CircuitError(_("%(label)s: «%(value)s» no és un nombre enter.")
                           % {"label": label, "value": str(value)[:20]},
                           field=field) from None
    if not 0 <= number <= 1000:
        raise CircuitError(_("%(label)s: ha de ser entre 0 i 1000.") % {"label": label},
                           field=field)
    return number


def _tiebreaks(value: Any) -> list[str]:
    if value in (None, ""):
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        name = str(item).strip()
        if name not in {t.value for t in pure.Tiebreak}:
            raise CircuitError(_("Desempat desconegut: «%(value)s».") % {"value": name[:40]},
                               field="tiebreaks")
        if name in out:
            raise CircuitError(_("El desempat «%(value)s» hi és dues vegades.")
                               % {"value": name}, field="tiebreaks")
        out.append(name)
    return out


def _rules_of(circuit: Circuit) -> dict[str, Any]:
    return {"name": circuit.name, "season": circuit.season,
            "description": circuit.description, "points": circuit.points,
            "points_table": circuit.points_table, "best_of": circuit.best_of,
            "min_events": circuit.min_events, "tiebreaks": circuit.tiebreaks}


def _text(value: str, field: str, label: str, limit: int, *, required: bool = False) -> str:
    text = (value or "").strip()
    if required and not text:
        raise CircuitError(_("Cal un nom."), field=field)
    if len(text) > limit:
        raise CircuitError(_("%(label)s: com a molt %(max)s caràcters.")
                           % {"label": label, "max": limit}, field=field)
    return text


@transaction.atomic
def circuit_create(
    *, name: str, slug: str = "", season: str = "", points: str = "place_table",
    points_table: Any = None, best_of: Any = None, min_events: Any = 1,
    tiebreaks: Any = ("more_events", "best_result"), acting_user: User | None,
    description: str = "",
) -> Circuit:
    """Create a circuit with its rules; the acting user becomes its organiser.
    ``slug``: defaults to the name slugified (``-2``, ``-3``... when taken); an explicit
    slug taken is refused. ``points_table``: a list of numbers or their text ("100, 85,
    75"); left empty under ``place_table``, :data:`scoring.circuits.DEFAULT_TABLE`.

    Raises :class:`CircuitError` (field set), :class:`NotAllowedError`."""
    if (acting_user is not None and acting_user.is_authenticated
            and not acting_user.has_perm(CREATE_PERMISSION)):
        raise NotAllowedError(_("No teniu permís per crear circuits."))
    name = _text(name, "name", _("Nom"), 200, required=True)
    season = _text(season, "season", _("Temporada"), 60)
    description = _text(description, "description", _("Descripció"), 1000)
    if points == Circuit.Points.PLACE_TABLE and points_table in (None, "", []):
        points_table = list(pure.DEFAULT_TABLE)
    rules = clean_rules(points=points, points_table=points_table, best_of=best_of,
                        min_events=min_events, tiebreaks=tiebreaks)
    slug = (slug or "").strip()
    if slug:
        if slugify(slug) != slug or len(slug) > 100:
            raise CircuitError(_("L'identificador «%(slug)s» només pot tenir lletres, "
                                 "xifres i guions.") % {"slug": slug[:100]}, field="slug")
        if Circuit.objects.filter(slug=slug).exists():
            raise CircuitError(_("L'identificador «%(slug)s» ja és d'un altre circuit.")
                               % {"slug": slug}, field="slug")
    else:
        base = slugify(name)[:90] or "circuit"
        slug, n = base, 1
        while Circuit.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
    try:
        with transaction.atomic():
            circuit = Circuit.objects.create(
                name=name, slug=slug, season=season, description=description, version=1,
                changed_at=timezone.now(), **rules)
    except IntegrityError:
        raise CircuitError(_("L'identificador «%(slug)s» ja és d'un altre circuit.")
                           % {"slug": slug}, field="slug") from None
    _audit(circuit, PeopleAuditEntry.Action.CIRCUIT_CREATE, acting_user, target=circuit.name,
           after={"slug": circuit.slug, **_rules_of(circuit)})
    user = acting_person(acting_user)
    if user is not None:
        CircuitRole.objects.create(circuit=circuit, user=user)
        _audit(circuit, PeopleAuditEntry.Action.ROLE_GRANT, acting_user,
               target=user.get_username(),
               after={"user": user.get_username(), "role": CircuitRole.Role.ORGANISER})
    return circuit


@transaction.atomic
def circuit_rules_edit(
    *, circuit: Circuit, acting_user: User | None, points: str, points_table: Any,
    best_of: Any, min_events: Any, tiebreaks: Any, name: str | None = None,
    season: str | None = None, description: str | None = None,
) -> Circuit:
    """Change the circuit's rules (and its name, season, description when given); the
    rankings follow at once. Nothing written when nothing changes.
    Raises :class:`CircuitError` (field set), :class:`NotAllowedError`."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    _require_organiser(acting_user, circuit)
    values = clean_rules(points=points, points_table=points_table, best_of=best_of,
                         min_events=min_events, tiebreaks=tiebreaks)
    if name is not None:
        values["name"] = _text(name, "name", _("Nom"), 200, required=True)
    if season is not None:
        values["season"] = _text(season, "season", _("Temporada"), 60)
    if description is not None:
        values["description"] = _text(description, "description", _("Descripció"), 1000)
    before = _rules_of(circuit)
    for key, value in values.items():
        setattr(circuit, key, value)
    after = _rules_of(circuit)
    if before == after:
        return circuit
    circuit.save(update_fields=list(values))
    _bump(circuit)
    _audit(circuit, PeopleAuditEntry.Action.CIRCUIT_RULES, acting_user, target=circuit.name,
           before={k: v for k, v in before.items() if after[k] != v},
           after={k: v for k, v in after.items() if before[k] != v})
    return circuit


@transaction.atomic
def circuit_event_add(*, circuit: Circuit, championship: Championship,
                      acting_user: User | None) -> CircuitEvent:
    """Add ``championship`` to the circuit (its places count at once: live while it is
    played). Raises :class:`CircuitError` (already in it), :class:`NotAllowedError`."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    _require_organiser(acting_user, circuit)
    if CircuitEvent.objects.filter(circuit=circuit, championship=championship).exists():
        raise CircuitError(_("«%(name)s» ja és una prova del circuit.")
                           % {"name": championship.name}, field="championship")
    event = CircuitEvent.objects.create(circuit=circuit, championship=championship)
    _bump(circuit)
    _audit(circuit, PeopleAuditEntry.Action.CIRCUIT_EVENT_ADD, acting_user,
           target=championship.name, after={"championship": championship.slug})
    return event


@transaction.atomic
def circuit_event_remove(*, circuit: Circuit, championship: Championship,
                         acting_user: User | None) -> None:
    """Take ``championship`` out of the circuit (its places no longer count).
    Raises :class:`CircuitError` (not in it), :class:`NotAllowedError`."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    _require_organiser(acting_user, circuit)
    deleted, _rows = CircuitEvent.objects.filter(circuit=circuit,
                                                 championship=championship).delete()
    if not deleted:
        raise CircuitError(_("«%(name)s» no és una prova del circuit.")
                           % {"name": championship.name}, field="championship")
    _bump(circuit)
    _audit(circuit, PeopleAuditEntry.Action.CIRCUIT_EVENT_REMOVE, acting_user,
           target=championship.name, before={"championship": championship.slug})


@transaction.atomic
def circuit_role_grant(*, circuit: Circuit, user: Account, acting_user: User | None,
                       role: str = "organiser") -> CircuitRole:
    """Make ``user`` an organiser of the circuit (nothing written when already one).
    Raises :class:`CircuitError` (unknown role), :class:`NotAllowedError`."""
    _require_organiser(acting_user, circuit)
    if role not in CircuitRole.Role.values:
        raise CircuitError(_("Rol desconegut: %(role)s.") % {"role": role}, field="role")
    held, created = CircuitRole.objects.get_or_create(circuit=circuit, user=user, role=role)
    if created:
        _audit(circuit, PeopleAuditEntry.Action.ROLE_GRANT, acting_user,
               target=user.get_username(), after={"user": user.get_username(), "role": role})
    return held


@transaction.atomic
def circuit_role_revoke(*, role: CircuitRole, acting_user: User | None) -> None:
    """Take a role away; the circuit's last organiser stays.
    Raises :class:`CircuitError` (the last organiser), :class:`NotAllowedError`."""
    circuit = Circuit.objects.select_for_update().get(pk=role.circuit_id)
    _require_organiser(acting_user, circuit)
    if not CircuitRole.objects.filter(circuit=circuit).exclude(pk=role.pk).exists():
        raise CircuitError(_("El circuit ha de tenir almenys un organitzador."), field="user")
    name = role.user.get_username()
    role.delete()
    _audit(circuit, PeopleAuditEntry.Action.ROLE_REVOKE, acting_user, target=name,
           before={"user": name, "role": role.role})


# ---------------------------------------------------------------- final places


def final_standings_refresh(*, championship_ids: Iterable[int]) -> list[int]:
    """Keep the current final places of each championship (``FinalStanding``) whose
    kept ones are missing or of an older results version; returns the ids rewritten.

    When a finished championship's kept places were already final and a place changed
    (a correction after the end), each of its circuits gets a ``circuit.ranking`` audit
    row naming the championship and, for every person whose place changed, the place
    and the points before and after. Each championship in its own transaction, its
    kept row locked, so two refreshes at once write one audit row."""
    done = []
    for championship_id in championship_ids:
        if _refresh_one(championship_id):
            done.append(championship_id)
    return done


@transaction.atomic
def _refresh_one(championship_id: int) -> bool:
    championship = Championship.objects.filter(pk=championship_id).first()
    if championship is None:
        return False
    held = FinalStanding.objects.select_for_update().filter(
        championship_id=championship_id).first()
    if held is not None and held.results_version == championship.results_version:
        return False
    rows = final_rows(championship)
    if held is None:
        try:
            with transaction.atomic():
                FinalStanding.objects.create(championship=championship, rows=rows,
                                             results_version=championship.results_version)
        except IntegrityError:  # another refresh kept them at the same moment
            return False
        return True
    before = held.rows
    held.rows = rows
    held.results_version = championship.results_version
    held.computed_at = timezone.now()
    held.save(update_fields=["rows", "results_version", "computed_at"])
    was_final = bool(before) and all(r.get("final") for r in before)
    if championship.status == Championship.Status.FINISHED and was_final:
        _audit_changes(championship, before, rows)
    return True


def _places_by_person(rows: Sequence[dict[str, Any]], persons: Mapping[int, int | None],
                      merged: dict[int, int]) -> dict[int, tuple[int, int]]:
    """``{person: (row index, place)}`` (a person twice: the better place)."""
    out: dict[int, tuple[int, int]] = {}
    for index, row in enumerate(rows):
        for player in row["players"]:
            person = persons.get(player)
            if person is None:
                continue
            person = merged.get(person, person)
            if person not in out or row["place"] < out[person][1]:
                out[person] = (index, row["place"])
    return out


def _audit_changes(championship: Championship, before: list[dict[str, Any]],
                   after: list[dict[str, Any]]) -> None:
    persons = dict(Player.objects.filter(championship=championship)
                   .values_list("id", "person_id"))
    merged = canonical_ids()
    old = _places_by_person(before, persons, merged)
    new = _places_by_person(after, persons, merged)
    changed = sorted(p for p in old.keys() | new.keys()
                     if (old.get(p) or (0, None))[1] != (new.get(p) or (0, None))[1])
    if not changed:
        return
    for event in CircuitEvent.objects.filter(championship=championship).select_related(
            "circuit"):
        rules = circuit_rules(event.circuit)
        old_points = _points(before, rules)
        new_points = _points(after, rules)

        def side(places: dict[int, tuple[int, int]], points: list[pure.Points],
                 person: int) -> dict[str, Any] | None:
            if person not in places:
                return None
            index, place = places[person]
            value = points[index]
            return {"place": place,
                    "points": int(value) if value.denominator == 1 else float(value)}

        _audit(event.circuit, PeopleAuditEntry.Action.CIRCUIT_RANKING, None,
               target=championship.name,
               before={"championship": championship.slug,
                       "persons": {str(p): side(old, old_points, p) for p in changed}},
               after={"championship": championship.slug,
                      "persons": {str(p): side(new, new_points, p) for p in changed}})


def _points(rows: list[dict[str, Any]], rules: pure.CircuitRules) -> list[pure.Points]:
    pairs = tuple(event_pair(r, (r["pair"], -r["pair"]), rules) for r in rows)
    return list(pure.event_points(pure.Event("", len(rows), pairs), rules))
