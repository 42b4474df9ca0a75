"""Circuits over real championships: the read model from a duplicate and a classic
championship, the kept places, the pages and the API (exact keys, 304), a correction
after the end (the ranking changes, with an audit row), a merge of two persons."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.circuits.conftest import Season
from tournaments import services
from tournaments.models import (
    Championship,
    Circuit,
    FinalStanding,
    PeopleAuditEntry,
    Person,
    Result,
)
from tournaments.selectors import circuits as read
from tournaments.selectors.classic import classic_standings
from tournaments.selectors.standings import standings
from tournaments.services.common import bump_results_version

pytestmark = pytest.mark.django_db


def places(championship: Championship) -> dict[int, int]:
    """pair number -> place, from the championship's own standings."""
    if championship.is_classic:
        rows: Any = classic_standings(championship).rows
    else:
        rows = standings(championship, for_public=True).rows
    return {r.number: r.rank for r in rows if r.rank is not None}


# ------------------------------------------------------------------ read model


def test_the_ranking_sums_each_championships_places(season: Season) -> None:
    ranking = read.build_ranking(season.circuit)
    assert [e.slug for e in ranking.events] == [season.duplicate.slug, season.classic.slug]
    assert [e.provisional for e in ranking.events] == [False, True]
    table = (10, 6, 4, 2)
    expected: dict[int, float] = {}
    for championship in (season.duplicate, season.classic):
        by_place: dict[int, list[int]] = {}
        for number, place in places(championship).items():
            by_place.setdefault(place, []).append(number)
        for place, numbers in by_place.items():
            shared = sum(table[place - 1 + k] if place - 1 + k < 4 else 0
                         for k in range(len(numbers))) / len(numbers)
            for number in numbers:
                for person in season.persons[number]:
                    expected[person.pk] = expected.get(person.pk, 0) + shared
    got = {line.persons[0]: float(line.points) for line in ranking.players}
    assert got == pytest.approx(expected)
    assert len(ranking.players) == 8 and len(ranking.pairs) == 4
    # Each pair's points are its players' (the same two persons in both events).
    for line in ranking.pairs:
        assert line.points == ranking.player(line.persons[0]).points  # type: ignore[union-attr]
    assert ranking.players[0].rank == 1
    assert all(line.provisional for line in ranking.players)  # the classic is running
    assert "10, 6, 4, 2" in ranking.rules_text


def test_kept_places_are_read_in_one_row_per_championship(
        season: Season, django_assert_max_num_queries: Any) -> None:
    services.final_standings_refresh(
        championship_ids=read.stale_championships(season.circuit))
    assert read.stale_championships(season.circuit) == []
    kept = FinalStanding.objects.get(championship=season.duplicate)
    assert kept.results_version == season.duplicate.results_version
    assert all(row["final"] for row in kept.rows)
    assert {r["pair"]: r["place"] for r in kept.rows} == places(season.duplicate)
    championships = read.circuit_championships(season.circuit)
    with django_assert_max_num_queries(1):
        read.event_places(championships)
    # Nothing newer: a second refresh writes nothing.
    assert services.final_standings_refresh(
        championship_ids=[season.duplicate.pk, season.classic.pk]) == []


def test_a_players_line_says_which_events_counted(season: Season) -> None:
    circuit = services.circuit_rules_edit(
        circuit=season.circuit, acting_user=season.organiser, points="place_table",
        points_table="10, 6, 4, 2", best_of=1, min_events=1, tiebreaks=["more_events"])
    try:
        ranking = read.build_ranking(circuit)
        for line in ranking.players:
            assert line.counted == 1 and line.played == 2
            dropped = [e for e in line.events if not e.counted]
            assert len(dropped) == 1 and dropped[0].why == "not_best"
            assert line.points == max(e.points for e in line.events)
    finally:
        services.circuit_rules_edit(circuit=season.circuit, acting_user=season.organiser,
                                    points="place_table", points_table="10, 6, 4, 2",
                                    best_of=None, min_events=1,
                                    tiebreaks=["more_events", "best_result"])


# ---------------------------------------------------------------- pages and API


def test_the_api_answers_exactly_its_keys_and_304s(season: Season, client: Client) -> None:
    url = reverse("api_circuit", args=[season.circuit.slug])
    response = client.get(url)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"rules", "events", "players", "pairs"}
    assert {"points_by_place", "best_of", "min_events"} <= set(body["rules"])
    assert body["rules"]["points_by_place"] == [10, 6, 4, 2]
    assert body["events"] == [season.duplicate.slug, season.classic.slug]
    player = body["players"][0]
    assert set(player) == {"rank", "person", "name", "points", "events"}
    assert set(player["events"][0]) == {"championship", "place", "points", "counted",
                                        "provisional"}
    pair = body["pairs"][0]
    assert set(pair) == {"rank", "persons", "names", "points", "events"}
    assert len(pair["persons"]) == len(pair["names"]) == 2
    again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and not again.content
    assert client.get(reverse("api_circuit", args=["no-such"])).status_code == 404


def test_the_pages_show_the_ranking_and_answer_304(season: Season, client: Client) -> None:
    url = reverse("circuit", args=[season.circuit.slug])
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    first = read.build_ranking(season.circuit).players[0]
    assert first.names[0] in text and season.duplicate.name in text
    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    pairs = client.get(url + "?tab=pairs&find=persona 1a")
    assert pairs.status_code == 200 and "Persona 1B" in pairs.content.decode()
    person = season.persons[1][0]
    line = client.get(reverse("circuit_person", args=[season.circuit.slug, person.pk]))
    assert line.status_code == 200 and season.classic.name in line.content.decode()
    assert client.get(reverse("circuit_person", args=[season.circuit.slug, 999999])
                      ).status_code == 404
    listing = client.get(reverse("circuits"))
    assert season.circuit.name in listing.content.decode()
    # The PDF is a print job (test_circuit_prints.py): the old address leads to it.
    pdf = client.get(reverse("circuit_pdf", args=[season.circuit.slug]))
    assert pdf.status_code == 302 and "/prints/" in pdf["Location"]


def test_the_person_page_shows_the_persons_circuits(season: Season, client: Client) -> None:
    person = season.persons[2][1]
    lines = read.person_circuit_lines(person)
    assert [(line.slug, line.line.persons, line.size) for line in lines] == [
        (season.circuit.slug, (person.pk,), 8)]
    page = client.get(reverse("person", args=[person.pk])).content.decode()
    assert season.circuit.name in page
    assert reverse("circuit_person", args=[season.circuit.slug, person.pk]) in page


# ---------------------------------------------------------------- changes


def test_a_correction_after_the_end_changes_the_ranking_with_an_audit_row(
        season: Season, django_capture_on_commit_callbacks: Any) -> None:
    duplicate = Championship.objects.get(pk=season.duplicate.pk)
    services.final_standings_refresh(
        championship_ids=read.stale_championships(season.circuit))
    before = read.build_ranking(season.circuit)
    old = places(duplicate)
    winner = min(old, key=lambda n: old[n])
    # The winning pair loses every hand it played (a correction after the end).
    for result in Result.objects.filter(board__championship=duplicate).select_related(
            "seating__ns_pair", "seating__ew_pair"):
        ns = result.seating.ns_pair.number == winner
        ew = result.seating.ew_pair.number == winner
        if ns or ew:
            Result.objects.filter(pk=result.pk).update(
                ns_points_taken=0 if ns else 72, contro=False, recontro=False,
                infraction=None, adjusted_ns=None, adjusted_ew=None)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        bump_results_version(duplicate.pk)
    duplicate.refresh_from_db()
    new = places(duplicate)
    assert new != old
    kept = FinalStanding.objects.get(championship=duplicate)
    assert kept.results_version == duplicate.results_version  # recounted at once
    entry = PeopleAuditEntry.objects.get(action="circuit.ranking", circuit=season.circuit)
    assert entry.after["championship"] == season.duplicate.slug
    moved = {int(p) for p in entry.after["persons"]}
    assert {p.pk for p in season.persons[winner]} <= moved
    winner_person = season.persons[winner][0].pk
    assert entry.before["persons"][str(winner_person)]["place"] == old[winner]
    assert entry.after["persons"][str(winner_person)]["place"] == new[winner]
    after = read.build_ranking(season.circuit)
    assert after.player(winner_person).points < before.player(winner_person).points  # type: ignore[union-attr]


def test_a_running_championship_changes_write_no_audit_row(
        season: Season, django_capture_on_commit_callbacks: Any) -> None:
    services.final_standings_refresh(championship_ids=[season.classic.pk])
    with django_capture_on_commit_callbacks(execute=True) as callbacks, \
            transaction.atomic():
        bump_results_version(season.classic.pk)
    assert callbacks == []  # not finished: nothing queued on the save path
    assert not PeopleAuditEntry.objects.filter(action="circuit.ranking").exists()


def test_a_merge_moves_the_points_into_one_line_at_once(season: Season,
                                                       client: Client) -> None:
    url = reverse("api_circuit", args=[season.circuit.slug])
    first = client.get(url)
    kept, absorbed = season.persons[1][0], season.persons[3][1]
    points = {row["person"]: row["points"] for row in first.json()["players"]}
    Person.objects.filter(pk=absorbed.pk).update(merged_into=kept)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    rows = client.get(url).json()["players"]
    merged = {row["person"]: row for row in rows}
    assert absorbed.pk not in merged
    # One line, each championship once: the better result of the two records.
    line = merged[kept.pk]
    assert len(line["events"]) == 2
    assert line["points"] >= points[kept.pk]
    assert line["points"] <= points[kept.pk] + points[absorbed.pk]
    person_url = reverse("circuit_person", args=[season.circuit.slug, absorbed.pk])
    assert client.get(person_url).url.endswith(f"/persons/{kept.pk}/")  # type: ignore[attr-defined]


# ---------------------------------------------------------------- services


def test_the_services_refuse_bad_rules_and_strangers(season: Season) -> None:
    circuit = Circuit.objects.get(pk=season.circuit.pk)
    with pytest.raises(services.CircuitError) as error:
        services.circuit_create(name="Altre", slug=circuit.slug,
                                acting_user=season.organiser)
    assert error.value.field == "slug"
    with pytest.raises(services.CircuitError) as error:
        services.circuit_create(name="Altre", points_table="100, x", acting_user=None)
    assert error.value.field == "points_table" and "lloc 2" in str(error.value)
    with pytest.raises(services.CircuitError) as error:
        services.circuit_create(name="Altre", tiebreaks=["coin"], acting_user=None)
    assert error.value.field == "tiebreaks"
    stranger = UserFactory(username="foraster")
    with pytest.raises(services.NotAllowedError):
        services.circuit_event_remove(circuit=circuit, championship=season.classic,
                                      acting_user=stranger)
    with pytest.raises(services.CircuitError):
        services.circuit_event_add(circuit=circuit, championship=season.classic,
                                   acting_user=season.organiser)
    version = circuit.version
    services.circuit_event_remove(circuit=circuit, championship=season.classic,
                                  acting_user=season.organiser)
    circuit.refresh_from_db()
    assert circuit.version == version + 1
    assert PeopleAuditEntry.objects.filter(circuit=circuit,
                                           action="circuit.event_remove").count() == 1
    assert [e.slug for e in read.build_ranking(circuit).events] == [season.duplicate.slug]


def test_the_organisers_page_adds_a_championship(season: Season, client: Client) -> None:
    client.force_login(season.organiser)
    url = reverse("circuit_manage", args=[season.circuit.slug])
    services.circuit_event_remove(circuit=season.circuit, championship=season.classic,
                                  acting_user=season.organiser)
    found = client.get(url, {"q": "clàssic"})
    assert season.classic.slug in found.content.decode()
    added = client.post(url, {"action": "add", "championship": season.classic.slug})
    assert added.status_code == 302
    assert len(read.circuit_championships(season.circuit)) == 2
    refused = client.post(url, {"action": "rules", "name": "X", "points": "place_table",
                                "points_table": "10, -3", "min_events": "1"})
    assert refused.status_code == 200 and "lloc 2" in refused.content.decode()
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


def test_the_organisers_search_asks_in_vos(season: Season, client: Client) -> None:
    """A sentence asking the user to do something is in "vós" (buttons may be names)."""
    client.force_login(season.organiser)
    html = client.get(reverse("circuit_manage", args=[season.circuit.slug]),
                      {"q": "zzz"}).content.decode()
    assert "Cerca un campionat" not in html
    assert "Busqueu un campionat pel nom o l'identificador" in html


def test_a_championship_with_finals_places_final_a_then_b_then_the_rest() -> None:
    from tests.tournaments.stages.test_finals import make_finals, play
    from tournaments.selectors.finals import finals_view

    championship = make_finals(pairs=10, sizes=(4, 4))
    for n in (1, 2, 3):
        play(championship, n)
    championship.refresh_from_db()
    view = finals_view(championship, for_public=True)
    assert view is not None
    rows = read.final_rows(championship)
    got = [(r["pair"], r["place"]) for r in rows]
    a = [(r.pair.number, r.rank) for r in view.finals[0].rows]
    b = [(r.pair.number, r.rank + 4) for r in view.finals[1].rows]  # type: ignore[operator]
    assert got[:8] == a + b
    outside = {p.number for p in view.outside}
    assert {n for n, _place in got[8:]} == outside and len(outside) == 2
    assert sorted(place for _n, place in got[8:])[0] == 9
    assert all(r["field"] == 10 and not r["final"] for r in rows)


def test_a_knockout_puts_its_champion_and_runner_up_first() -> None:
    from tests.tournaments.stages.conftest import make_staged, play_round
    from tournaments.selectors.stages import bracket_view

    staged = make_staged(8, groups=2, per_group=1)
    for r in range(1, 5):
        play_round(staged, r, seed=3)
    view = bracket_view(staged.championship)
    assert view is not None and view.champion is not None and view.runner_up is not None
    rows = read.final_rows(staged.championship)
    assert [(r["pair"], r["place"]) for r in rows[:2]] == [
        (view.champion.number, 1), (view.runner_up.number, 2)]
    rest = [r["place"] for r in rows[2:]]
    assert rest == sorted(rest) and rest[0] == 3 and len(rows) == 8
    assert all(r["wins"] is not None and r["percentage"] is None for r in rows)
