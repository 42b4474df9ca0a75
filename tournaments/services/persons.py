"""Persons across championships: register one, edit it, link a championship's players
to persons, merge two records of one person and undo it, export, delete or anonymise
one (docs/privacy.md).

Every write runs in one transaction and writes its ``PeopleAuditEntry`` row in it.
A merge only points the absorbed record at the one kept (``Person.merged_into``), so an
un-merge restores both exactly; readers follow the link
(``selectors.persons.canonical_ids``).

Who may: an organiser of a championship links its players and registers persons while
doing it; the persons' managers (staff, superusers, the organisers of any circuit:
``selectors.persons.manages_persons``) merge and un-merge; editing, exporting,
deleting and anonymising a person is theirs and also the organisers of a championship
the person played in.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring.text import normalise
from tournaments.errors import NotAllowedError, TournamentError
from tournaments.models import (
    AuditEntry,
    Championship,
    Circuit,
    Pair,
    PeopleAuditEntry,
    Person,
    Player,
    Registration,
)
from tournaments.models.people import name_key
from tournaments.permissions import Capability, require
from tournaments.selectors.persons import (
    canonical_ids,
    group_ids,
    has_results,
    manages_persons,
    may_edit_person,
    organises_any,
    person_data,
)
from tournaments.selectors.standings import alias_name
from tournaments.services.common import (
    AUDIT_REASON_MAX,
    AUDIT_TEXT_MAX,
    User,
    acting_person,
    bump_results_version,
)

__all__ = [
    "NEW_PERSON", "PersonError", "person_anonymise", "person_create", "person_delete",
    "person_edit", "person_export", "person_merge", "person_unmerge", "player_link",
    "players_link_bulk",
]

#: In :func:`players_link_bulk`'s choices: register a new person from the player.
NEW_PERSON = 0

NAME_MAX: int = Person._meta.get_field("name").max_length or 0
SHORT_NAME_MAX: int = Person._meta.get_field("short_name").max_length or 0
CLUB_MAX: int = Person._meta.get_field("club").max_length or 0
LICENCE_MAX: int = Person._meta.get_field("licence").max_length or 0


class PersonError(TournamentError):
    """A person that cannot be registered, changed, merged or erased so."""


A = PeopleAuditEntry.Action


def _audit_row(action: str, acting_user: User | None, person: Person | None, *,
               target: str = "", before: Any = None, after: Any = None,
               reason: str = "") -> PeopleAuditEntry:
    """The ``PeopleAuditEntry`` row of one write, built and not yet saved."""
    return PeopleAuditEntry(
        action=action, acting_user=acting_person(acting_user), person=person,
        target=(target or "")[:AUDIT_TEXT_MAX], before=before, after=after,
        reason=normalise(reason or "").strip()[:AUDIT_REASON_MAX],
    )


def _audit(action: str, acting_user: User | None, person: Person | None,
           **fields: Any) -> PeopleAuditEntry:
    """The ``PeopleAuditEntry`` row of one write, saved in its transaction."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("_audit() must run inside the write's transaction")
    entry = _audit_row(action, acting_user, person, **fields)
    entry.save()
    return entry


def _snapshot(person: Person) -> dict[str, Any]:
    return {"name": person.name, "short_name": person.short_name, "club": person.club,
            "licence": person.licence, "public_alias": person.public_alias}


def _text(value: str, field: str, label: str, maximum: int, *, required: bool = False) -> str:
    """``value`` composed (NFC) and trimmed; refused when empty (``required``), too
    long or holding control characters."""
    text = " ".join(normalise(value or "").split())
    if required and not text:
        raise PersonError(_("Cal el %(what)s.") % {"what": label}, field=field)
    if len(text) > maximum:
        raise PersonError(_("El %(what)s té més de %(n)s caràcters.")
                          % {"what": label, "n": maximum}, field=field)
    return text


def _clean(name: str, short_name: str, club: str, licence: str) -> dict[str, str]:
    return {
        "name": _text(name, "name", _("nom"), NAME_MAX, required=True),
        "short_name": _text(short_name, "short_name", _("nom curt"), SHORT_NAME_MAX),
        "club": _text(club, "club", _("club"), CLUB_MAX),
        "licence": _text(licence, "licence", _("número de llicència"), LICENCE_MAX),
    }


def _bump_circuits(championship_ids: Iterable[int]) -> None:
    """Add one to the version of every circuit with one of ``championship_ids`` among
    its events: their rankings read persons (a merge or an alias changes them)."""
    ids = set(championship_ids)
    if ids:
        Circuit.objects.filter(events__championship__in=ids).update(
            version=F("version") + 1, changed_at=timezone.now())


def _championships_of(ids: Iterable[int]) -> set[int]:
    return set(Player.objects.filter(person__in=set(ids))
               .values_list("championship_id", flat=True))


@transaction.atomic
def person_create(*, name: str, short_name: str = "", club: str = "", licence: str = "",
                  acting_user: User | None) -> Person:
    """Register a person. Allowed to the persons' managers and to any championship's
    organiser (who registers persons while linking their players).

    Raises :class:`PersonError` (field ``name``, ``short_name``, ``club``, ``licence``:
    empty name, too long), :class:`NotAllowedError`."""
    if not organises_any(acting_user):
        raise NotAllowedError(_("No teniu permís per registrar persones."))
    person = Person(**_clean(name, short_name, club, licence))
    person.save()
    _audit(A.PERSON_CREATE, acting_user, person, target=person.name,
           after=_snapshot(person))
    return person


@transaction.atomic
def person_edit(*, person: Person, name: str, short_name: str = "", club: str = "",
                licence: str = "", public_alias: bool = False,
                acting_user: User | None) -> Person:
    """Change a person's record (name, short name, club, licence, and whether the public
    sees them as "Jugador N"). A change of the alias bumps the results version of every
    championship the person played (their live pages show it at once) and the version of
    the circuits of those championships.

    Raises :class:`PersonError` (as :func:`person_create`; an anonymised person),
    :class:`NotAllowedError`."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if not may_edit_person(acting_user, person):
        raise NotAllowedError(_("No teniu permís per canviar aquesta persona."))
    if person.anonymised_at is not None:
        raise PersonError(_("Aquesta persona està anonimitzada: no es pot canviar."))
    before = _snapshot(person)
    for key, value in _clean(name, short_name, club, licence).items():
        setattr(person, key, value)
    person.public_alias = bool(public_alias)
    after = _snapshot(person)
    if after == before:
        return person
    person.save()
    _audit(A.PERSON_EDIT, acting_user, person, target=f"#{person.pk}", before=before,
           after=after)
    if before["public_alias"] != after["public_alias"] or before["name"] != after["name"]:
        # The alias shows in every championship of the person and of the records merged
        # into it (a merged record reads the kept one's alias).
        championships = _championships_of(group_ids(person))
        for championship_id in sorted(championships):
            bump_results_version(championship_id)
        _bump_circuits(championships)
    return person


def _link_one(player: Player, person: Person | None, acting_user: User | None) -> bool:
    """Link ``player`` (locked, its championship's capability checked) to ``person``
    (``None``: unlink); audited. False when it already was so."""
    if player.person_id == (person.pk if person else None):
        return False
    if person is not None and person.anonymised_at is not None:
        raise PersonError(_("No es pot enllaçar un jugador amb una persona anonimitzada."),
                          field="person")
    if person is not None:
        # Two players of one championship are two people: never one person.
        kept = group_ids(person)
        clash = (Player.objects.filter(championship_id=player.championship_id,
                                       person__in=kept).exclude(pk=player.pk).first())
        if clash is not None:
            raise PersonError(
                _("%(person)s ja és el jugador «%(player)s» d'aquest campionat.")
                % {"person": person.name, "player": clash.name}, field="person")
    before = player.person_id
    player.person = person
    player.save(update_fields=["person"])
    unlinked = Person.objects.filter(pk=before).first() if before is not None else None
    _audit(A.PERSON_LINK, acting_user, person or unlinked,
           target=f"{player.name} · {player.championship_id}"[:AUDIT_TEXT_MAX],
           before={"player": player.pk, "person": before},
           after={"player": player.pk, "person": person.pk if person else None})
    return True


@transaction.atomic
def player_link(*, player: Player, person: Person | None, acting_user: User | None) -> Player:
    """Link a championship's ``player`` to ``person`` (``None``: unlink). The
    championship's organiser; any time, finished championships included. A merged
    record is linked to the record kept. Bumps the championship's results version
    (a person shown as "Jugador N" changes its public pages).

    Raises :class:`PersonError` (field ``person``: an anonymised person, one already
    another player of that championship), :class:`NotAllowedError`."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    championship = Championship.objects.get(pk=player.championship_id)
    require(acting_user, championship, Capability.REGISTER_PAIRS)
    if person is not None:
        person = _locked_kept(person.pk)
    if _link_one(player, person, acting_user):
        bump_results_version(championship.pk)
        _bump_circuits([championship.pk])
    return player


def _locked_kept(pk: int) -> Person:
    """The record ``pk`` reads as, its row locked: a merge locks the rows it joins, so a
    link waits for a merge under way and then sees the merged group (one person is
    never two players of one championship). Raises :class:`PersonError` (field
    ``person``) when the record is gone (deleted meanwhile)."""
    for _attempt in range(3):
        kept = _kept_id(pk)
        person = Person.objects.select_for_update().filter(pk=kept).first()
        if person is None:
            break
        if person.merged_into_id is None:
            return person
        pk = person.merged_into_id  # merged while we waited for its lock: follow it
    raise PersonError(_("No hi ha cap persona amb el número %(id)s.") % {"id": pk},
                      field="person")


def _kept_id(pk: int) -> int:
    """The record ``pk`` reads as (merges followed)."""
    seen = {pk}
    while True:
        nxt = Person.objects.filter(pk=pk).values_list("merged_into_id", flat=True).first()
        if nxt is None or nxt in seen:
            return pk
        seen.add(nxt)
        pk = nxt


@transaction.atomic
def players_link_bulk(*, championship: Championship, choices: Mapping[int, int],
                      acting_user: User | None) -> int:
    """Link many players of ``championship`` at once: ``choices`` maps a player's id to
    a person's id, or to :data:`NEW_PERSON` to register a new person from the player
    (its name and short name, and the licence its pair signed up with). Players already
    linked are left as they are. Returns how many were linked. All or nothing.

    Raises :class:`PersonError` (an unknown player or person, as :func:`player_link`),
    :class:`NotAllowedError`."""
    require(acting_user, championship, Capability.REGISTER_PAIRS)
    players = {p.pk: p for p in Player.objects.select_for_update()
               .filter(championship=championship, pk__in=list(choices))}
    unknown = set(choices) - players.keys()
    if unknown:
        raise PersonError(_("El jugador %(id)s no és d'aquest campionat.")
                          % {"id": min(unknown)}, field="person")
    wanted = {pk for pk in choices.values() if pk != NEW_PERSON}
    # Locked, with the records they read as (below): a merge under way is waited for.
    persons = {p.pk: p for p in Person.objects.select_for_update()
               .filter(pk__in=wanted).order_by("pk")}
    if wanted - persons.keys():
        raise PersonError(_("No hi ha cap persona amb el número %(id)s.")
                          % {"id": min(wanted - persons.keys())}, field="person")
    licences = _signup_licences(championship)
    ids = canonical_ids()
    kept_ids = {ids.get(pk, pk) for pk in wanted}
    persons.update({p.pk: p for p in Person.objects.select_for_update()
                    .filter(pk__in=kept_ids - persons.keys()).order_by("pk")})
    # The person each already linked player of the championship reads as: one person is
    # never two players of one championship.
    taken: dict[int, str] = {
        ids.get(person_id, person_id): name
        for person_id, name in Player.objects.filter(
            championship=championship, person__isnull=False).values_list("person_id", "name")
    }
    todo = [players[pk] for pk in sorted(choices) if players[pk].person_id is None]
    new_persons = [
        Person(name=player.name, name_key=name_key(player.name),
               short_name=player.short_name,
               licence=licences.get(player.pk, "")[:LICENCE_MAX])
        for player in todo if choices[player.pk] == NEW_PERSON
    ]
    created = iter(Person.objects.bulk_create(new_persons))
    entries: list[PeopleAuditEntry] = []
    for player in todo:
        if choices[player.pk] == NEW_PERSON:
            person = next(created)
            entries.append(_audit_row(A.PERSON_CREATE, acting_user, person,
                                      target=person.name, after=_snapshot(person)))
        else:
            person = persons[ids.get(choices[player.pk], choices[player.pk])]
            if person.anonymised_at is not None:
                raise PersonError(_("No es pot enllaçar un jugador amb una persona "
                                    "anonimitzada."), field="person")
            if person.pk in taken:
                raise PersonError(
                    _("%(person)s ja és el jugador «%(player)s» d'aquest campionat.")
                    % {"person": person.name, "player": taken[person.pk]}, field="person")
        taken[person.pk] = player.name
        player.person = person
        entries.append(_audit_row(
            A.PERSON_LINK, acting_user, person,
            target=f"{player.name} · {championship.pk}",
            before={"player": player.pk, "person": None},
            after={"player": player.pk, "person": person.pk}))
    Player.objects.bulk_update(todo, ["person"])
    PeopleAuditEntry.objects.bulk_create(entries)
    if todo:
        bump_results_version(championship.pk)
        _bump_circuits([championship.pk])
    return len(todo)


def _signup_licences(championship: Championship) -> dict[int, str]:
    """``{player id: licence}`` as the players' pairs signed up (public sign-up)."""
    result: dict[int, str] = {}
    for p1, p2, l1, l2 in (Registration.objects.filter(championship=championship,
                                                       pair__isnull=False)
                           .values_list("pair__player1_id", "pair__player2_id",
                                        "player1_licence", "player2_licence")):
        result[p1], result[p2] = l1, l2
    return result


def _require_manager(acting_user: User | None) -> None:
    if not manages_persons(acting_user):
        raise NotAllowedError(_("Només els organitzadors d'un circuit i els administradors "
                                "poden fusionar persones."))


def person_merge_problem(kept: Person, absorbed: Person) -> PersonError | None:
    """Why ``absorbed`` cannot be merged into ``kept`` as they stand (the refusal
    :func:`person_merge` raises), or ``None``: the merge form says it on the preview,
    before the confirmation. Reads only; :func:`person_merge` asks again under its
    locks."""
    if kept.pk == absorbed.pk:
        return PersonError(_("No es pot fusionar una persona amb ella mateixa."),
                           field="absorbed")
    if kept.merged_into_id is not None:
        end = _kept_id(kept.pk)
        return PersonError(
            _("La persona %(kept)s ja està fusionada amb la %(end)s: fusioneu-la amb la "
              "%(end)s.") % {"kept": kept.pk, "end": end}, field="kept")
    if absorbed.merged_into_id is not None:
        return PersonError(_("La persona %(id)s ja està fusionada amb la %(end)s.")
                           % {"id": absorbed.pk, "end": absorbed.merged_into_id},
                           field="absorbed")
    if kept.anonymised_at is not None or absorbed.anonymised_at is not None:
        return PersonError(_("No es pot fusionar una persona anonimitzada."),
                           field="absorbed")
    kept_group, absorbed_group = group_ids(kept), group_ids(absorbed)
    if kept_group & absorbed_group:
        return PersonError(_("Aquestes dues persones ja són la mateixa."), field="absorbed")
    kept_championships = _championships_of(kept_group)
    absorbed_championships = _championships_of(absorbed_group)
    shared = kept_championships & absorbed_championships
    if shared:
        together = Championship.objects.filter(pk__in=shared).order_by("date").first()
        in_pair = Pair.objects.filter(
            Q(player1__person__in=kept_group, player2__person__in=absorbed_group)
            | Q(player1__person__in=absorbed_group, player2__person__in=kept_group)).first()
        if in_pair is not None:
            message = _("No es poden fusionar: van jugar junts a la parella %(n)s de "
                        "«%(championship)s», són dues persones.") % {
                "n": in_pair.number, "championship": in_pair.championship.name}
        else:
            message = _("No es poden fusionar: tots dos van jugar «%(championship)s» com "
                        "a jugadors diferents, són dues persones.") % {
                "championship": together.name if together else ""}
        return PersonError(message, field="absorbed")
    return None


@transaction.atomic
def person_merge(*, kept: Person, absorbed: Person, acting_user: User | None,
                 reason: str = "") -> None:
    """Merge ``absorbed`` into ``kept``: ``absorbed`` now reads as ``kept`` everywhere
    (its championships show on ``kept``'s page, circuits rank them as one). Nothing else
    moves: :func:`person_unmerge` restores both. Bumps the circuits' versions.

    Refused (:class:`PersonError`): one person into itself, into a record merged into
    another (merge into the one that one reads as), a record already merged, an
    anonymised person, two persons who played one championship as two players (the
    same pair or not: they are two people). :class:`NotAllowedError`: not a manager of
    persons."""
    _require_manager(acting_user)
    locked = {p.pk: p for p in Person.objects.select_for_update()
              .filter(pk__in=[kept.pk, absorbed.pk])}
    kept, absorbed = locked[kept.pk], locked[absorbed.pk]
    problem = person_merge_problem(kept, absorbed)
    if problem is not None:
        raise problem
    kept_championships = _championships_of(group_ids(kept))
    absorbed_championships = _championships_of(group_ids(absorbed))
    absorbed.merged_into = kept
    absorbed.merged_at = timezone.now()
    absorbed.save(update_fields=["merged_into", "merged_at"])
    _audit(A.PERSON_MERGE, acting_user, kept, target=f"#{absorbed.pk} → #{kept.pk}",
           before={"person": absorbed.pk, "merged_into": None},
           after={"person": absorbed.pk, "merged_into": kept.pk}, reason=reason)
    _after_merge_change(kept_championships | absorbed_championships, kept, absorbed)


def _after_merge_change(championships: set[int], kept: Person, absorbed: Person) -> None:
    """A merge or un-merge changes the circuits' rankings, and the public names where
    the two records' aliases differ."""
    _bump_circuits(championships)
    if kept.public_alias != absorbed.public_alias:
        for championship_id in sorted(championships):
            bump_results_version(championship_id)


@transaction.atomic
def person_unmerge(*, person: Person, acting_user: User | None) -> None:
    """Undo the merge of ``person`` (a record merged into another): both read as
    themselves again, each with its own championships. Audited, bumps the circuits'
    versions. Raises :class:`PersonError` (not merged), :class:`NotAllowedError`."""
    _require_manager(acting_user)
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.merged_into_id is None:
        raise PersonError(_("Aquesta persona no està fusionada amb cap altra."))
    kept = Person.objects.get(pk=person.merged_into_id)
    championships = _championships_of(group_ids(kept))
    person.merged_into = None
    person.merged_at = None
    person.save(update_fields=["merged_into", "merged_at"])
    _audit(A.PERSON_UNMERGE, acting_user, kept, target=f"#{person.pk} ↛ #{kept.pk}",
           before={"person": person.pk, "merged_into": kept.pk},
           after={"person": person.pk, "merged_into": None})
    _after_merge_change(championships, kept, person)


@transaction.atomic
def person_export(*, person: Person, acting_user: User | None) -> dict[str, Any]:
    """Everything stored about ``person`` (``selectors.persons.person_data``), the
    export audited. Raises :class:`NotAllowedError`."""
    if not may_edit_person(acting_user, person):
        raise NotAllowedError(_("No teniu permís per exportar les dades d'aquesta persona."))
    data = person_data(person)
    _audit(A.PERSON_EXPORT, acting_user, person, target=f"#{person.pk}")
    return data


@transaction.atomic
def person_delete(*, person: Person, acting_user: User | None) -> None:
    """Delete a person who has no players linked and no records merged into it. One
    with results is anonymised instead (:func:`person_anonymise`); one with players but
    no results needs them unlinked first. The audit row keeps only the number.

    Raises :class:`PersonError`, :class:`NotAllowedError`."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if not may_edit_person(acting_user, person):
        raise NotAllowedError(_("No teniu permís per esborrar aquesta persona."))
    if has_results(person):
        raise PersonError(_("Aquesta persona té resultats: no es pot esborrar, però sí "
                            "anonimitzar."))
    if Player.objects.filter(person__in=group_ids(person)).exists():
        raise PersonError(_("Aquesta persona té jugadors enllaçats: desenllaceu-los "
                            "abans d'esborrar-la."))
    if Person.objects.filter(merged_into=person).exists():
        raise PersonError(_("Hi ha persones fusionades amb aquesta: desfeu la fusió "
                            "abans d'esborrar-la."))
    pk = person.pk
    PeopleAuditEntry.objects.filter(person=person).update(before=None, after=None,
                                                          target="")
    was_merged = person.merged_into_id
    person.delete()
    _audit(A.PERSON_DELETE, acting_user, None, target=f"#{pk}",
           before={"person": pk, "merged_into": was_merged})


@transaction.atomic
def person_anonymise(*, person: Person, acting_user: User | None) -> Person:
    """Erase a person's name and contact, keeping their results: the person and every
    record merged into it become "Jugador N" (N: the kept record's number) with no
    short name, club nor licence; their players in every championship take that name;
    the public sign-ups of their pairs lose the e-mail, the phone and the player's
    licence and name; the audit rows about them lose their copies of the data. Every
    championship's results version is bumped (its pages show it at once).

    Raises :class:`PersonError` (already anonymised), :class:`NotAllowedError`."""
    person = Person.objects.select_for_update().get(pk=_kept_id(person.pk))
    if not may_edit_person(acting_user, person):
        raise NotAllowedError(_("No teniu permís per anonimitzar aquesta persona."))
    if person.anonymised_at is not None:
        raise PersonError(_("Aquesta persona ja està anonimitzada."))
    ids = group_ids(person)
    # Stored in the site's language whatever the organiser's (the pages show the alias
    # in the reader's: ``selectors.persons.public_name``).
    with translation.override(settings.LANGUAGE_CODE):
        alias = alias_name(person.pk)
    now = timezone.now()
    Person.objects.filter(pk__in=ids).update(
        name=alias, name_key=alias.casefold(), short_name="", club="", licence="",
        anonymised_at=now)
    players = list(Player.objects.filter(person__in=ids)
                   .values_list("id", "championship_id", "name"))
    player_ids = [pk for pk, _c, _n in players]
    old_names = {name for _p, _c, name in players if name.strip()}
    Player.objects.filter(pk__in=player_ids).update(name=alias, short_name="")
    for seat in (1, 2):
        Registration.objects.filter(**{f"pair__player{seat}__in": player_ids}).update(
            email="", phone="", note="",
            **{f"player{seat}_name": alias, f"player{seat}_licence": ""})
    PeopleAuditEntry.objects.filter(person__in=ids).update(before=None, after=None,
                                                           target="")
    championships = {c for _p, c, _n in players}
    _scrub_championship_logs(championships, old_names, alias)
    _audit(A.PERSON_ANONYMISE, acting_user, person, target=f"#{person.pk}",
           after={"records": sorted(ids), "players": len(player_ids)})
    for championship_id in sorted(championships):
        bump_results_version(championship_id)
    _bump_circuits(championships)
    person.refresh_from_db()
    return person


def _scrub_championship_logs(championships: set[int], names: set[str], alias: str) -> None:
    """The championships' own logs kept the players' names as the pairs were registered
    and renamed: each row of theirs that holds one of ``names`` gets ``alias`` instead."""
    if not names:
        return
    actions = Q(action__startswith="pair.") | Q(action__startswith="signup.") | Q(
        action=AuditEntry.Action.CHAMPIONSHIP_IMPORT)
    for entry in AuditEntry.objects.filter(actions, championship__in=championships):
        text = json.dumps([entry.target, entry.before, entry.after], cls=DjangoJSONEncoder)
        if not any(json.dumps(name)[1:-1] in text for name in names):
            continue
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(json.dumps(name)[1:-1], json.dumps(alias)[1:-1])
        entry.target, entry.before, entry.after = json.loads(text)
        entry.save(update_fields=["target", "before", "after"])
