"""``manage.py demo --circuit circuit-demo --events 3``: the circuit's ranking, as its API
answers it, checked against a count made here from the three championships' public
standings and the circuit's rules (not from the circuit's code); a merge and an
un-merge through the API answer; the ETags; a correction after the end.

The demo is built once for the module (about 10 s of bots and services) and deleted
after it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client, override_settings

from tournaments.management import circuit_demo
from tournaments.models import (
    Championship,
    Circuit,
    PeopleAuditEntry,
    Person,
    Player,
    Result,
)
from tournaments.services.common import bump_results_version
from tournaments.services.persons import person_merge, person_unmerge

SLUG = "circuit-demo"
API = f"/api/v1/circuits/{SLUG}/"
PAGE = f"/circuits/{SLUG}/"


@pytest.fixture(scope="module")
def demo(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """The circuit demo, built once; its output. Slow: about 10 s (the bots play 264
    boards and 24 games through the services)."""
    with django_db_blocker.unblock():
        out = StringIO()
        with override_settings(
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            call_command("demo", "--circuit", SLUG, "--events", "3", stdout=out)
        yield out.getvalue()
        with transaction.atomic():
            circuit_demo.delete(SLUG)
            PeopleAuditEntry.objects.all().delete()
            get_user_model().objects.filter(
                username__in=["organitzador", "arbitre", "arbitre-principal", "admin"]
            ).delete()


def api(client: Client) -> dict[str, Any]:
    response = client.get(API)
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


def places(client: Client, slug: str) -> list[tuple[int, int]]:
    """(pair, place) of every ranked pair, from the championship's public standings."""
    rows = client.get(f"/api/v1/c/{slug}/standings/").json()["standings"]
    return [(row["pair"], row["rank"]) for row in rows if row["rank"] is not None]


def table_points(placed: list[tuple[int, int]], table: list[int]) -> dict[int, Fraction]:
    """Each pair's points by place: pairs sharing a place share the points of the places
    they cover, averaged."""
    by_place: dict[int, list[int]] = defaultdict(list)
    for pair, place in placed:
        by_place[place].append(pair)
    points: dict[int, Fraction] = {}
    for place, pairs in by_place.items():
        covered = [Fraction(table[p - 1]) if p <= len(table) else Fraction(0)
                   for p in range(place, place + len(pairs))]
        for pair in pairs:
            points[pair] = sum(covered, Fraction(0)) / len(covered)
    return points


def expected_ranking(client: Client) -> dict[int, tuple[int, Fraction, int]]:
    """``{person: (rank, points, events)}`` of the ranked players, counted here: each
    championship's places from its public standings API, its pairs' players from its
    public pairs API (their persons read from the players, merges followed), the
    circuit's points table, the best ``best_of`` results, ``min_events`` events, ties
    broken by more events, then the better best results."""
    circuit = Circuit.objects.get(slug=SLUG)
    table = list(circuit.points_table)
    merged = dict(Person.objects.exclude(merged_into=None)
                  .values_list("pk", "merged_into_id"))
    results: dict[int, list[Fraction]] = defaultdict(list)
    slugs = [circuit_demo.event_slug(SLUG, k) for k in (1, 2, 3)]
    for slug in slugs:
        championship = Championship.objects.get(slug=slug)
        person_of = {name: merged.get(person, person) for name, person in
                     Player.objects.filter(championship=championship)
                     .values_list("name", "person_id")}
        pairs = {row["number"]: (row["player1"], row["player2"])
                 for row in client.get(f"/api/v1/c/{slug}/pairs/").json()}
        for pair, points in table_points(places(client, slug), table).items():
            for name in pairs[pair]:
                results[person_of[name]].append(points)
    rows = []
    for person, got in results.items():
        if len(got) < circuit.min_events:
            continue
        best = sorted(got, reverse=True)[:circuit.best_of]
        key = (-sum(best), -len(got), tuple(-p for p in best))
        rows.append((key, person, sum(best, Fraction(0)), len(got)))
    rows.sort()
    ranking: dict[int, tuple[int, Fraction, int]] = {}
    for index, (key, person, points, events) in enumerate(rows):
        rank = index + 1
        if index and key == rows[index - 1][0]:
            rank = ranking[rows[index - 1][1]][0]
        ranking[person] = (rank, points, events)
    return ranking


def answered_ranking(answer: dict[str, Any]) -> dict[int, tuple[int, Fraction, int]]:
    return {row["person"]: (row["rank"], Fraction(str(row["points"])), len(row["events"]))
            for row in answer["players"] if row["rank"] is not None}


def line_of(answer: dict[str, Any], person: int) -> dict[str, Any] | None:
    return next((row for row in answer["players"] if row["person"] == person), None)


@pytest.mark.django_db
def test_the_demo_builds_three_finished_championships_sharing_most_players(
        demo: str) -> None:
    """Slow when it runs first (10-40 s): it builds the module's demo."""
    circuit = Circuit.objects.get(slug=SLUG)
    championships = [e.championship for e in circuit.events.select_related("championship")]
    assert [c.slug for c in championships] == [f"{SLUG}-1", f"{SLUG}-2", f"{SLUG}-3"]
    assert {c.status for c in championships} == {Championship.Status.FINISHED}
    assert [c.format for c in championships] == ["duplicate", "classic", "duplicate"]
    assert [c.pairs.count() for c in championships] == [20, 16, 24]
    assert not Player.objects.filter(championship__in=championships, person=None).exists()
    merged = dict(Person.objects.exclude(merged_into=None)
                  .values_list("pk", "merged_into_id"))
    persons = [{merged.get(p, p) for p in Player.objects.filter(championship=c)
                .values_list("person_id", flat=True)} for c in championships]
    for k, mine in enumerate(persons):
        others = set().union(*(p for j, p in enumerate(persons) if j != k))
        assert 0.6 <= len(mine & others) / len(mine) <= 0.8
    nuria = Person.objects.get(name=circuit_demo.NURIA)
    other = Person.objects.get(name=circuit_demo.NURIA_OTHER)
    assert other.merged_into_id == nuria.pk
    assert PeopleAuditEntry.objects.filter(
        action=PeopleAuditEntry.Action.PERSON_MERGE, person=nuria).exists()
    assert circuit.points_table[:10] == [100, 85, 75, 68, 62, 57, 53, 50, 47, 45]
    assert (circuit.best_of, circuit.min_events) == (2, 2)
    # Run again: it says it exists and changes nothing.
    out = StringIO()
    call_command("demo", "--circuit", SLUG, stdout=out)
    assert "ja existeix" in out.getvalue()
    assert Circuit.objects.filter(slug=SLUG).count() == 1


@pytest.mark.django_db
def test_the_api_ranking_equals_a_count_from_the_public_standings(demo: str) -> None:
    client = Client()
    answer = api(client)
    assert answer["rules"]["best_of"] == 2 and answer["rules"]["min_events"] == 2
    assert answer["events"] == [circuit_demo.event_slug(SLUG, k) for k in (1, 2, 3)]
    expected = expected_ranking(client)
    assert len(expected) > 20
    assert answered_ranking(answer) == expected
    # Every counted result is among the best two; the unranked played fewer than two.
    for row in answer["players"]:
        counted = [e for e in row["events"] if e["counted"]]
        assert len(counted) <= 2
        if row["rank"] is None:
            assert len(row["events"]) < 2


@pytest.mark.django_db
def test_a_merge_moves_the_points_into_one_line_and_unmerging_restores_both(
        demo: str) -> None:
    client = Client()
    nuria = Person.objects.get(name=circuit_demo.NURIA)
    other = Person.objects.get(name=circuit_demo.NURIA_OTHER)
    merged = line_of(api(client), nuria.pk)
    assert merged is not None and len(merged["events"]) == 2
    assert line_of(api(client), other.pk) is None
    person_unmerge(person=other, acting_user=None)
    try:
        answer = api(client)
        apart = [line_of(answer, nuria.pk), line_of(answer, other.pk)]
        assert all(line is not None and len(line["events"]) == 1 for line in apart)
        assert [line["events"][0]["championship"] for line in apart if line] == [
            f"{SLUG}-1", f"{SLUG}-3"]
        assert sum(Fraction(str(line["points"])) for line in apart if line) == \
            Fraction(str(merged["points"]))
        assert all(line["rank"] is None for line in apart if line)  # one event each
        assert answered_ranking(answer) == expected_ranking(client)
    finally:
        person_merge(kept=nuria, absorbed=other, acting_user=None)
    again = line_of(api(client), nuria.pk)
    assert again is not None and again["points"] == merged["points"]
    assert line_of(api(client), other.pk) is None


@pytest.mark.django_db
@pytest.mark.parametrize("url", [PAGE, API])
def test_the_page_and_the_api_answer_304_to_their_etag(demo: str, url: str) -> None:
    client = Client()
    first = client.get(url)
    assert first.status_code == 200 and first.get("ETag")
    again = client.get(url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304


@pytest.mark.django_db
def test_a_correction_after_the_end_changes_the_ranking_with_an_audit_row(
        demo: str) -> None:
    """No service changes a finished championship's result: the correction is written
    as the database would be corrected, its results version bumped."""
    client = Client()
    api(client)  # the places are kept as they stand
    slug = circuit_demo.event_slug(SLUG, 1)
    championship = Championship.objects.get(slug=slug)
    before = places(client, slug)
    last = before[-1][0]
    results = Result.objects.filter(seating__round__championship=championship)
    with transaction.atomic():
        for seat, side in (("ns_pair", ("average_plus", "average_minus")),
                           ("ew_pair", ("average_minus", "average_plus"))):
            results.filter(**{f"seating__{seat}__number": last}).update(
                trump=None, ns_points_taken=None, delegated=False, contro=False,
                recontro=False, sant_vicenc=False, infraction=None,
                adjusted_ns=side[0], adjusted_ew=side[1])
        bump_results_version(championship.pk)
    after = places(client, slug)
    assert dict(after)[last] < dict(before)[last]
    answer = api(client)
    assert answered_ranking(answer) == expected_ranking(client)
    row = PeopleAuditEntry.objects.filter(
        action=PeopleAuditEntry.Action.CIRCUIT_RANKING, circuit__slug=SLUG).last()
    assert row is not None and row.before["championship"] == slug
