"""Persons as every reader sees them: a merged record read as the one it was merged into,
and the name the public may see.

Every page, API answer and PDF that shows a person across championships goes through
:func:`canonical_ids` (which record a player's person is now) and :func:`public_name`
(what the public reads), so a merge or an alias shows everywhere at once.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from django.core.cache import cache
from django.db.models import Q, Value
from django.db.models.functions import Replace, Upper

from tournaments.models import (
    Bye,
    Championship,
    CircuitRole,
    Membership,
    Pair,
    PeopleAuditEntry,
    Person,
    Player,
    Registration,
    Seating,
)
from tournaments.models.people import name_key
from tournaments.selectors.classic import classic_standings, wins_text
from tournaments.selectors.formats import percent_column
from tournaments.selectors.standings import alias_name, pair_names, standings


def canonical_ids() -> dict[int, int]:
    """``{person id: the id it reads as}`` for every merged person (a chain of merges
    followed to its end); a person not in it reads as itself. One query."""
    links = dict(Person.objects.filter(merged_into__isnull=False)
                 .values_list("id", "merged_into_id"))
    result: dict[int, int] = {}
    for start in links:
        seen = {start}
        end = links[start]
        while end in links and end not in seen:
            seen.add(end)
            end = links[end]
        result[start] = end
    return result


def canonical(person_id: int, ids: dict[int, int] | None = None) -> int:
    """The id ``person_id`` reads as (``ids``: :func:`canonical_ids`, read once for many)."""
    if ids is None:
        ids = canonical_ids()
    return ids.get(person_id, person_id)


def public_name(person: Person) -> str:
    """The name the public sees: the name, or "Jugador 123" when the person asked not
    to be named (``public_alias``) or was anonymised."""
    if person.public_alias or person.anonymised_at is not None:
        return alias_name(person.pk)
    return person.name


# --------------------------------------------------------------------------- who manages


def manages_persons(user: Any) -> bool:
    """Whether ``user`` may manage every person (merge, un-merge, the persons list):
    staff, a superuser or an organiser of some circuit (``CircuitRole``). ``None`` is
    the system."""
    if user is None:
        return True
    if not user.is_authenticated:
        return False
    if user.is_superuser or user.is_staff:
        return True
    return CircuitRole.objects.filter(user=user, role=CircuitRole.Role.ORGANISER).exists()


def organises_any(user: Any) -> bool:
    """Whether ``user`` organises some championship (may register persons while linking
    its players) or manages persons (:func:`manages_persons`)."""
    if manages_persons(user):
        return True
    return bool(user.is_authenticated) and Membership.objects.filter(
        user=user, role=Membership.Role.ORGANISER).exists()


def group_ids(person: Person | int) -> set[int]:
    """``person`` and every record merged into it, directly or through others."""
    pk = person if isinstance(person, int) else person.pk
    ids = canonical_ids()
    end = ids.get(pk, pk)
    return {end, *(start for start, kept in ids.items() if kept == end)}


def may_edit_person(user: Any, person: Person) -> bool:
    """Whether ``user`` may edit, export, delete or anonymise ``person``: a manager of
    persons (:func:`manages_persons`) or an organiser of a championship where one of
    the person's records played."""
    if manages_persons(user):
        return True
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(
        user=user, role=Membership.Role.ORGANISER,
        championship__players__person__in=group_ids(person),
    ).exists()


# --------------------------------------------------------------------------- candidates


def _licence_key(licence: str) -> str:
    return "".join(licence.split()).upper()


def candidates_for(wanted: Sequence[tuple[str, str]]) -> list[list[Person]]:
    """For each ``(name, licence)`` of ``wanted``, the persons it may be: those with the
    same licence first, then those with the same :func:`name_key` (accents, case and
    punctuation aside); a merged record proposes the record kept; anonymised persons
    are never proposed. Two queries whatever the number asked (three with merges)."""
    keys = {name_key(name) for name, _lic in wanted} - {""}
    licences = {_licence_key(lic) for _name, lic in wanted} - {""}
    if not keys and not licences:
        return [[] for _w in wanted]
    found: list[Person] = list(
        Person.objects.annotate(licence_key=Upper(Replace("licence", Value(" "), Value(""))))
        .filter(Q(name_key__in=keys) | Q(licence_key__in=licences))
        .order_by("name_key", "id")
    )
    ids = canonical_ids() if any(p.merged_into_id for p in found) else {}
    kept_ids = {ids.get(p.pk, p.pk) for p in found}
    loaded: dict[int, Person] = {p.pk: p for p in found}
    missing = kept_ids - loaded.keys()
    if missing:
        loaded.update({p.pk: p for p in Person.objects.filter(pk__in=missing)})
    by_key: dict[str, list[int]] = {}
    by_licence: dict[str, list[int]] = {}
    for p in found:
        kept = ids.get(p.pk, p.pk)
        by_key.setdefault(p.name_key, []).append(kept)
        if p.licence:
            by_licence.setdefault(_licence_key(p.licence), []).append(kept)
    result: list[list[Person]] = []
    for name, licence in wanted:
        same_licence = by_licence.get(_licence_key(licence), []) if licence.strip() else []
        order = [*same_licence, *by_key.get(name_key(name), [])]
        seen: set[int] = set()
        persons: list[Person] = []
        for pk in order:
            person = loaded[pk]
            if pk in seen or person.anonymised_at is not None:
                continue
            seen.add(pk)
            persons.append(person)
        result.append(persons)
    return result


def person_candidates(name: str, licence: str = "") -> list[Person]:
    """The persons ``name`` (and ``licence``) may be: :func:`candidates_for` of one."""
    return candidates_for([(name, licence)])[0]


def persons_search(query: str, *, limit: int = 50) -> list[Person]:
    """Persons (not merged into another) whose name holds every word of ``query``
    (accents and case aside), or whose licence or number is ``query``; by name."""
    persons = Person.objects.filter(merged_into__isnull=True)
    words = name_key(query).split()
    if not words:
        return list(persons[:limit])
    condition = Q()
    for word in words:
        condition &= Q(name_key__contains=word)
    text = query.strip()
    alternatives = condition | Q(licence__iexact=text)
    if text.isdigit():
        alternatives |= Q(pk=int(text))
    return list(persons.filter(alternatives)[:limit])


# --------------------------------------------------------------------------- linking page


@dataclass(frozen=True, slots=True)
class UnlinkedPlayer:
    """A player of a championship with no person yet: its pair, name, short name, the
    licence it signed up with (public sign-up) and the persons proposed for it."""

    player_id: int
    pair: int
    seat: int  # 1 or 2 in the pair
    name: str
    short_name: str
    licence: str
    candidates: tuple[Person, ...]

    @property
    def proposal(self) -> Person | None:
        """The person the page proposes (the first candidate)."""
        return self.candidates[0] if self.candidates else None


def unlinked_players(championship: Championship) -> list[UnlinkedPlayer]:
    """Every player of ``championship`` not linked to a person, by pair, with the
    persons proposed (:func:`candidates_for`). Three queries whatever the size."""
    rows = list(
        Pair.objects.filter(championship=championship)
        .filter(Q(player1__person__isnull=True) | Q(player2__person__isnull=True))
        .order_by("number")
        .values_list(
            "number",
            "player1_id", "player1__name", "player1__short_name", "player1__person_id",
            "player2_id", "player2__name", "player2__short_name", "player2__person_id",
            "registration__player1_licence", "registration__player2_licence",
        )
    )
    players: list[tuple[int, int, int, str, str, str]] = []
    for row in rows:
        number = row[0]
        for seat, (pk, name, short, person) in ((1, row[1:5]), (2, row[5:9])):
            if person is None:
                licence = row[9] if seat == 1 else row[10]
                players.append((pk, number, seat, name, short, licence or ""))
    candidates = candidates_for([(p[3], p[5]) for p in players])
    return [UnlinkedPlayer(*p, candidates=tuple(c)) for p, c in zip(players, candidates,
                                                                     strict=True)]


def unlinked_count(championship: Championship) -> int:
    """How many of ``championship``'s players have no person (one query)."""
    return Player.objects.filter(championship=championship, person__isnull=True).count()


# --------------------------------------------------------------------------- person page


@dataclass(frozen=True, slots=True)
class PlayedChampionship:
    """One championship a person played: its date, name and slug, the partner's public
    name, the pair's place (``None``: none yet) and its result as the standings write
    it (a percentage, or games won in a classic championship; ``—`` when none)."""

    date: datetime.date | None
    name: str
    slug: str
    pair: int
    partner: str
    place: int | None
    result_text: str
    classic: bool


@dataclass(frozen=True, slots=True)
class PersonPage:
    """A person as the public sees them: the number, the public name and the
    championships played (by every record merged into this one), the latest first."""

    id: int
    name: str
    championships: tuple[PlayedChampionship, ...]


#: Seconds a championship's places are kept (they are keyed on its results version).
PLACES_SECONDS = 24 * 3600


def championship_places(championship: Championship
                        ) -> dict[int, tuple[int | None, float | Fraction | None]]:
    """``{pair number: (place, percentage or games won)}`` from the public standings
    (``standings.standings`` or ``classic.classic_standings``: the one home of these
    numbers), kept in the cache per results version."""
    key = f"person-places:{championship.pk}:{championship.results_version}"
    cached = cache.get(key)
    if cached is not None:
        return cast(dict[int, tuple[int | None, float | Fraction | None]], cached)
    places: dict[int, tuple[int | None, float | Fraction | None]] = {}
    if championship.is_classic:
        for crow in classic_standings(championship).rows:
            places[crow.pair.number] = (crow.rank, crow.wins if crow.has_score else None)
    else:
        for row in standings(championship, for_public=True).rows:
            places[row.pair.number] = (row.rank, row.percentage)
    cache.set(key, places, PLACES_SECONDS)
    return places


def _result_text(value: float | Fraction | None, classic: bool) -> str:
    if value is None:
        return "—"
    if classic:
        return wins_text(Fraction(value))
    return f"{percent_column([float(value)])[0]} %"


def person_page(person: Person) -> PersonPage:
    """:class:`PersonPage` of ``person`` (the record kept: callers redirect a merged
    one). Its pairs in one query, each championship's places from the cache (scored
    once per results version when not there), the partners' public names from
    ``standings.pair_names`` (so a partner shown as "Jugador N" is so here too)."""
    ids = group_ids(person)
    pairs = list(
        Pair.objects.filter(Q(player1__person__in=ids) | Q(player2__person__in=ids))
        .select_related("championship", "player1", "player2")
        .order_by("-championship__date", "-championship_id")
    )
    rows: list[PlayedChampionship] = []
    for pair in pairs:
        championship = pair.championship
        names = pair_names(championship)
        shown = names.get(pair.number)
        seat = 1 if pair.player1.person_id in ids else 2
        partner = (shown.player2 if seat == 1 else shown.player1) if shown else ""
        place, value = championship_places(championship).get(pair.number, (None, None))
        rows.append(PlayedChampionship(
            date=championship.date, name=championship.name, slug=championship.slug,
            pair=pair.number, partner=partner, place=place,
            result_text=_result_text(value, championship.is_classic),
            classic=championship.is_classic,
        ))
    return PersonPage(id=person.pk, name=public_name(person), championships=tuple(rows))


def merged_records(person: Person) -> list[Person]:
    """The records merged directly into ``person`` (each can be un-merged)."""
    return list(Person.objects.filter(merged_into=person).order_by("id"))


# --------------------------------------------------------------------------- merge preview


@dataclass(frozen=True, slots=True)
class PersonSummary:
    """A person as the merge form previews it: the record, its championships (date,
    name, pair number) and the records already merged into it."""

    person: Person
    championships: tuple[tuple[datetime.date | None, str, int], ...]
    merged: tuple[int, ...]


def person_summary(person: Person) -> PersonSummary:
    """:class:`PersonSummary` of ``person`` (two queries)."""
    ids = group_ids(person)
    rows = (Pair.objects.filter(Q(player1__person__in=ids) | Q(player2__person__in=ids))
            .order_by("-championship__date")
            .values_list("championship__date", "championship__name", "number"))
    return PersonSummary(person=person, championships=tuple(rows),
                         merged=tuple(sorted(ids - {person.pk})))


def has_results(person: Person) -> bool:
    """Whether one of ``person``'s records played: a pair of theirs sat at a table or
    had a bye in some round."""
    ids = group_ids(person)
    pairs = Pair.objects.filter(Q(player1__person__in=ids) | Q(player2__person__in=ids))
    return (Seating.objects.filter(Q(ns_pair__in=pairs) | Q(ew_pair__in=pairs)).exists()
            or Bye.objects.filter(pair__in=pairs).exists())


# --------------------------------------------------------------------------- export


def person_data(person: Person) -> dict[str, Any]:
    """Everything stored about ``person`` and the records merged into it, as JSON-able
    values: the records, their players, pairs and championships, the public sign-ups of
    those pairs (contact included) and the audit rows about them."""
    ids = group_ids(person)
    records = list(Person.objects.filter(pk__in=ids).order_by("id"))
    players = list(Player.objects.filter(person__in=ids).select_related("championship")
                   .order_by("championship__date", "id"))
    player_ids = {p.pk for p in players}
    pairs = list(Pair.objects.filter(Q(player1__in=player_ids) | Q(player2__in=player_ids))
                 .select_related("player1", "player2", "championship"))
    registrations = list(Registration.objects.filter(pair__in=pairs).order_by("id"))
    audit_rows = list(PeopleAuditEntry.objects.filter(person__in=ids).order_by("at", "id"))
    return {
        "person": person.pk,
        "records": [
            {
                "id": p.pk, "name": p.name, "short_name": p.short_name, "club": p.club,
                "licence": p.licence, "public_alias": p.public_alias,
                "merged_into": p.merged_into_id, "merged_at": p.merged_at,
                "anonymised_at": p.anonymised_at, "created_at": p.created_at,
            }
            for p in records
        ],
        "players": [
            {
                "id": p.pk, "person": p.person_id, "championship": p.championship.slug,
                "championship_name": p.championship.name, "date": p.championship.date,
                "code": p.code, "name": p.name, "short_name": p.short_name,
            }
            for p in players
        ],
        "pairs": [
            {
                "championship": pair.championship.slug, "number": pair.number,
                "player1": pair.player1.name, "player2": pair.player2.name,
                "withdrawn_after_round": pair.withdrawn_after_round,
                "checked_in_at": pair.checked_in_at,
            }
            for pair in pairs
        ],
        "registrations": [
            {
                "id": r.pk, "championship": r.championship_id, "pair": r.pair_id,
                "player1_name": r.player1_name, "player2_name": r.player2_name,
                "player1_licence": r.player1_licence, "player2_licence": r.player2_licence,
                "email": r.email, "phone": r.phone, "language": r.language,
                "status": r.status, "paid": r.paid, "note": r.note,
                "created_at": r.created_at, "cancelled_at": r.cancelled_at,
            }
            for r in registrations
        ],
        "audit": [
            {
                "at": a.at, "action": a.action, "person": a.person_id, "target": a.target,
                "before": a.before, "after": a.after, "reason": a.reason,
                "acting_user": a.acting_user_id,
            }
            for a in audit_rows
        ],
    }
