"""Persons across championships (services.persons, selectors.persons): candidates by
licence and name (accents and case aside), linking, merge and un-merge, who may merge,
the "Jugador N" alias in the pairs' names, export, delete and anonymise."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import PairFactory, UserFactory
from tests.tournaments.conftest import Small
from tournaments import selectors, services
from tournaments.models import (
    AuditEntry,
    Championship,
    Circuit,
    CircuitEvent,
    CircuitRole,
    Pair,
    PeopleAuditEntry,
    Person,
    Player,
    Registration,
)
from tournaments.selectors import persons as reads
from tournaments.selectors.seating import seating_plan

pytestmark = pytest.mark.django_db

A = PeopleAuditEntry.Action


def _person(name: str, licence: str = "", **extra: object) -> Person:
    return services.person_create(name=name, licence=licence, acting_user=None, **extra)


def _pair(small: Small, number: int) -> Pair:
    return Pair.objects.select_related("player1", "player2").get(
        championship=small.championship, number=number)


def test_candidates_ignore_accents_case_and_marks_and_put_the_licence_first() -> None:
    nuria = _person("Núria  Puig-Ferré")
    other = _person("Anna Vila", licence="B-123")
    gone = _person("Nuria Puig Ferre")
    Person.objects.filter(pk=gone.pk).update(anonymised_at="2026-01-01T00:00Z")
    assert reads.person_candidates("NURIA puig ferre") == [nuria]
    # The same licence (spaces and case aside) first, then the same name.
    assert reads.person_candidates("Núria Puig Ferré", "b-123 ") == [other, nuria]
    assert reads.person_candidates("Pere Mas") == []


def test_a_merged_record_proposes_the_one_kept() -> None:
    kept, absorbed = _person("Jordi Vila"), _person("Jordi Vila Puig", licence="77")
    services.person_merge(kept=kept, absorbed=absorbed, acting_user=None)
    assert reads.person_candidates("jordi vila puig") == [kept]
    assert reads.person_candidates("x", "77") == [kept]


def test_unlinked_players_use_the_sign_up_licence_in_three_queries(small: Small) -> None:
    licensed = _person("Persona amb llicència", licence="L-9")
    same_name = _person("Jordi Vila")  # pair 1, player 1
    Registration.objects.create(championship=small.championship, player1_name="x",
                                player2_name="y", player2_licence="L-9", position=1,
                                pair=_pair(small, 1))
    with CaptureQueriesContext(connection) as queries:
        rows = reads.unlinked_players(small.championship)
    assert len(queries) <= 3
    assert len(rows) == 8
    first, second = rows[0], rows[1]
    assert (first.pair, first.seat, first.proposal) == (1, 1, same_name)
    assert (second.licence, second.proposal) == ("L-9", licensed)


def test_linking_in_bulk_proposals_and_new_persons_audited(small: Small) -> None:
    jordi = _person("JORDI VILA")
    rows = reads.unlinked_players(small.championship)
    choices = {r.player_id: (r.proposal.pk if r.proposal else services.NEW_PERSON)
               for r in rows}
    version = small.championship.results_version
    linked = services.players_link_bulk(championship=small.championship, choices=choices,
                                        acting_user=small.organiser)
    assert linked == 8
    assert reads.unlinked_players(small.championship) == []
    assert _pair(small, 1).player1.person_id == jordi.pk
    new = Person.objects.get(name="Núria Font")  # pair 1, player 2: a new person
    assert PeopleAuditEntry.objects.filter(person=new, action=A.PERSON_CREATE).exists()
    assert PeopleAuditEntry.objects.filter(action=A.PERSON_LINK).count() == 8
    small.championship.refresh_from_db()
    assert small.championship.results_version > version
    # A referee may not link.
    with pytest.raises(services.NotAllowedError):
        services.player_link(player=_pair(small, 2).player1, person=jordi,
                             acting_user=small.referee)


def test_one_person_is_never_two_players_of_one_championship(small: Small) -> None:
    anna = _person("Anna")
    services.player_link(player=_pair(small, 1).player1, person=anna, acting_user=None)
    with pytest.raises(services.PersonError, match="ja és el jugador"):
        services.player_link(player=_pair(small, 2).player2, person=anna, acting_user=None)


def _two_championships(small: Small) -> tuple[Person, Person, Championship]:
    """Two records of one person: pair 1's first player here, and a player of another
    championship."""
    here, there = _person("Jordi Vila"), _person("Jordi Vila i Puig")
    services.player_link(player=_pair(small, 1).player1, person=here, acting_user=None)
    other = PairFactory(number=1, player1__name="Jordi Vila i Puig")
    services.player_link(player=other.player1, person=there, acting_user=None)
    return here, there, other.championship


def test_merge_shows_both_records_championships_and_unmerge_restores(small: Small) -> None:
    here, there, other = _two_championships(small)
    circuit = Circuit.objects.create(name="Lliga", slug="lliga")
    CircuitEvent.objects.create(circuit=circuit, championship=other)
    manager = UserFactory(username="circuit-org")
    CircuitRole.objects.create(circuit=circuit, user=manager)
    services.person_merge(kept=here, absorbed=there, acting_user=manager, reason="el mateix")
    there.refresh_from_db()
    assert there.merged_into_id == here.pk
    assert reads.canonical(there.pk) == here.pk
    page = reads.person_page(here)
    assert {c.slug for c in page.championships} == {small.championship.slug, other.slug}
    circuit.refresh_from_db()
    assert circuit.version == 1
    (row,) = PeopleAuditEntry.objects.filter(action=A.PERSON_MERGE)
    assert (row.person_id, row.reason, row.acting_user_id) == (here.pk, "el mateix", manager.pk)

    services.person_unmerge(person=there, acting_user=manager)
    there.refresh_from_db()
    assert there.merged_into_id is None
    assert [c.slug for c in reads.person_page(here).championships] == [small.championship.slug]
    assert [c.slug for c in reads.person_page(there).championships] == [other.slug]
    assert PeopleAuditEntry.objects.filter(action=A.PERSON_UNMERGE).count() == 1


def test_a_championship_organiser_who_runs_no_circuit_cannot_merge(small: Small) -> None:
    here, there, _other = _two_championships(small)
    with pytest.raises(services.NotAllowedError):
        services.person_merge(kept=here, absorbed=there, acting_user=small.organiser)
    staff = UserFactory(username="staff", is_staff=True)
    services.person_merge(kept=here, absorbed=there, acting_user=staff)
    with pytest.raises(services.NotAllowedError):
        services.person_unmerge(person=there, acting_user=small.organiser)


def test_merge_refusals_say_why(small: Small) -> None:
    a, b, c = _person("A"), _person("B"), _person("C")
    with pytest.raises(services.PersonError, match="ella mateixa"):
        services.person_merge(kept=a, absorbed=a, acting_user=None)
    services.person_merge(kept=a, absorbed=b, acting_user=None)
    with pytest.raises(services.PersonError, match="fusioneu-la amb la"):
        services.person_merge(kept=b, absorbed=c, acting_user=None)
    # Partners in one pair, and two players of one championship: two people.
    pair1, pair2 = _pair(small, 1), _pair(small, 2)
    p, q, r = _person("P"), _person("Q"), _person("R")
    services.player_link(player=pair1.player1, person=p, acting_user=None)
    services.player_link(player=pair1.player2, person=q, acting_user=None)
    services.player_link(player=pair2.player1, person=r, acting_user=None)
    with pytest.raises(services.PersonError, match="parella 1"):
        services.person_merge(kept=p, absorbed=q, acting_user=None)
    with pytest.raises(services.PersonError, match="jugadors diferents"):
        services.person_merge(kept=p, absorbed=r, acting_user=None)


def test_the_alias_shows_jugador_n_in_the_pairs_names_and_bumps_the_version(
        small: Small) -> None:
    pair = _pair(small, 2)
    person = _person("Montserrat Soler")
    services.player_link(player=pair.player1, person=person, acting_user=small.organiser)
    small.championship.refresh_from_db()
    version = small.championship.results_version
    services.person_edit(person=person, name=person.name, public_alias=True,
                         acting_user=small.organiser)
    small.championship.refresh_from_db()
    assert small.championship.results_version == version + 1
    names = selectors.pair_names(small.championship)[2]
    assert names.player1 == f"Jugador {person.pk}" and names.short1 == ""
    assert "Montserrat" not in names.short and "Jugador" in names.names
    assert selectors.pair_names(small.championship)[1].player1 == "Jordi Vila"
    seating = seating_plan(small.championship)[0]
    assert f"Jugador {person.pk}" in {
        n for row in seating.tables for n in (row.ns.player1, row.ew.player1)}
    # A record merged into an aliased one reads as that one.
    kept = _person("Kept")
    services.person_edit(person=kept, name="Kept", public_alias=True, acting_user=None)
    services.person_edit(person=person, name=person.name, public_alias=False,
                         acting_user=None)
    services.person_merge(kept=kept, absorbed=person, acting_user=None)
    assert selectors.pair_names(small.championship)[2].player1 == f"Jugador {kept.pk}"


def test_export_holds_the_person_players_pairs_sign_up_and_audit(small: Small) -> None:
    pair = _pair(small, 3)
    person = _person("Josep Font", licence="X1", club="Vic")
    services.player_link(player=pair.player1, person=person, acting_user=None)
    Registration.objects.create(championship=small.championship, player1_name="Josep Font",
                                player2_name="Marta Casals", email="josep@example.org",
                                phone="600", position=1, pair=pair)
    data = services.person_export(person=person, acting_user=small.organiser)
    assert data["records"][0]["licence"] == "X1" and data["records"][0]["club"] == "Vic"
    assert data["players"][0]["championship"] == small.championship.slug
    assert data["pairs"][0]["number"] == 3
    assert data["registrations"][0]["email"] == "josep@example.org"
    assert {a["action"] for a in data["audit"]} >= {A.PERSON_CREATE, A.PERSON_LINK}
    assert PeopleAuditEntry.objects.filter(action=A.PERSON_EXPORT, person=person).exists()
    # An organiser of another championship only may not.
    stranger = UserFactory(username="altre")
    with pytest.raises(services.NotAllowedError):
        services.person_export(person=person, acting_user=stranger)


def test_delete_is_refused_with_results_and_anonymise_erases(small: Small) -> None:
    pair = _pair(small, 4)
    person = _person("Núria Riera", licence="N4", club="Olot", short_name="N. R.")
    services.player_link(player=pair.player1, person=person, acting_user=None)
    Registration.objects.create(championship=small.championship, player1_name="Núria Riera",
                                player2_name="Joan Pujol", player1_licence="N4",
                                email="n@example.org", phone="611", position=1, pair=pair)
    with pytest.raises(services.PersonError, match="anonimitzar"):
        services.person_delete(person=person, acting_user=small.organiser)
    small.championship.refresh_from_db()
    version = small.championship.results_version
    services.person_anonymise(person=person, acting_user=small.organiser)
    person.refresh_from_db()
    alias = f"Jugador {person.pk}"
    assert (person.name, person.licence, person.club, person.short_name) == (alias, "", "", "")
    assert person.anonymised_at is not None
    assert Player.objects.get(pk=pair.player1_id).name == alias
    registration = Registration.objects.get(pair=pair)
    assert (registration.email, registration.phone, registration.player1_name,
            registration.player1_licence) == ("", "", alias, "")
    assert registration.player2_name == "Joan Pujol"
    log = AuditEntry.objects.filter(championship=small.championship)
    assert any("Joan Pujol" in str([e.target, e.before, e.after]) for e in log)
    assert not any("Núria Riera" in str([e.target, e.before, e.after]) for e in log)
    assert not PeopleAuditEntry.objects.filter(person=person, before__isnull=False).exists()
    small.championship.refresh_from_db()
    assert small.championship.results_version > version
    assert selectors.pair_names(small.championship)[4].player1 == alias
    assert reads.person_candidates("Núria Riera") == []


def test_delete_a_person_with_no_players() -> None:
    person = _person("Ningú")
    services.person_delete(person=person, acting_user=None)
    assert not Person.objects.filter(pk=person.pk).exists()
    (row,) = PeopleAuditEntry.objects.filter(action=A.PERSON_DELETE)
    assert row.target == f"#{person.pk}" and row.person_id is None


def test_linking_a_whole_championship_costs_the_same_queries_at_any_size() -> None:
    def link(pairs: int) -> int:
        championship = PairFactory(number=1).championship
        for number in range(2, pairs + 1):
            PairFactory(championship=championship, number=number,
                        player1__name=f"Nom {number} u", player2__name=f"Nom {number} dos")
        players = Player.objects.filter(championship=championship)
        _person(players[0].name)  # one proposal, the rest new persons
        rows = reads.unlinked_players(championship)
        choices = {r.player_id: (r.proposal.pk if r.proposal else services.NEW_PERSON)
                   for r in rows}
        with CaptureQueriesContext(connection) as queries:
            assert services.players_link_bulk(championship=championship, choices=choices,
                                              acting_user=None) == 2 * pairs
        return len(queries)

    assert link(3) == link(40)
