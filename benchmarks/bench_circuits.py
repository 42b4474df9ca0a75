"""A circuit's rankings over 30 championships of 200 pairs, from their kept places;
goal: the whole ranking (players and pairs) rebuilt in under 200 ms.

Run from the repository root, on a database of its own (migrated here if needed):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botifarra_circuits_bench \\
        .venv/bin/python benchmarks/bench_circuits.py [--events 30] [--pairs 200] [--repeat 9]

Builds (once, then reused) ``--events`` finished championships of ``--pairs`` pairs
each in one circuit, straight into the tables (no results: only what the ranking reads),
with their players linked to persons of a pool of ``pairs x 4`` (each championship
draws its pairs from it, half of them the same pairs as the championship before) and
each championship's places kept (``FinalStanding``, current results version). Then it
times, best and median of R runs:

- the pure ranking (``scoring.circuits`` players and pairs over the events);
- ``selectors.circuits.build_ranking``: everything a page does on a cache miss (the
  championships, their kept places, the players' persons, the merges, the names, the
  ranking, the rows' texts), with its query count;
- ``selectors.circuits.circuit_state``: the ETag (every page and API request, also a
  304).

Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine, timed  # after the path tweak above

SLUG = "bench-circuit"


def build(events: int, pairs: int) -> None:
    """The circuit and its championships, unless already built with these sizes."""
    from tournaments.models import (
        Championship,
        Circuit,
        CircuitEvent,
        FinalStanding,
        Pair,
        Person,
        Player,
    )
    from tournaments.models.people import name_key

    circuit = Circuit.objects.filter(slug=SLUG).first()
    if circuit is not None and circuit.events.count() == events and \
            Pair.objects.filter(championship__circuit_events__circuit=circuit).count() \
            == events * pairs:
        return
    if circuit is not None:
        ids = list(circuit.events.values_list("championship_id", flat=True))
        circuit.delete()
        Championship.objects.filter(pk__in=ids).delete()
    Person.objects.filter(name__startswith="Bench ").delete()
    rng = random.Random(2026)
    pool = Person.objects.bulk_create([
        Person(name=f"Bench {n}", name_key=name_key(f"Bench {n}"))
        for n in range(pairs * 4)])
    circuit = Circuit.objects.create(name="Bench", slug=SLUG, points="place_table",
                                     points_table=list(range(200, 0, -1)), best_of=10,
                                     min_events=3, tiebreaks=["more_events", "best_result"])
    previous: list[tuple[Person, Person]] = []
    for e in range(events):
        championship = Championship.objects.create(
            name=f"Bench {e + 1}", slug=f"bench-circuit-{e + 1}",
            date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * e),
            status=Championship.Status.FINISHED, results_version=5)
        kept = rng.sample(previous, len(previous) // 2) if previous else []
        used = {p.pk for pair in kept for p in pair}
        free = [p for p in pool if p.pk not in used]
        rng.shuffle(free)
        fresh = [(free[2 * i], free[2 * i + 1]) for i in range(pairs - len(kept))]
        couples = kept + fresh
        rng.shuffle(couples)
        players = Player.objects.bulk_create([
            Player(championship=championship, code=str(k + 1), name=person.name,
                   person=person)
            for k, person in enumerate(p for couple in couples for p in couple)])
        made = Pair.objects.bulk_create([
            Pair(championship=championship, number=n + 1, player1=players[2 * n],
                 player2=players[2 * n + 1]) for n in range(pairs)])
        order = list(range(pairs))
        rng.shuffle(order)
        FinalStanding.objects.create(championship=championship, results_version=5, rows=[
            {"pair": made[i].number, "place": place, "players": [
                players[2 * i].pk, players[2 * i + 1].pk],
             "percentage": round(rng.uniform(30, 70), 1), "wins": None, "played": None,
             "field": pairs, "final": True}
            for place, i in enumerate(order, start=1)])
        CircuitEvent.objects.create(circuit=circuit, championship=championship)
        previous = couples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring import circuits as pure
    from tournaments.models import Circuit, Player
    from tournaments.selectors import circuits as read

    call_command("migrate", verbosity=0)
    build(args.events, args.pairs)
    circuit = Circuit.objects.get(slug=SLUG)
    print(machine())
    print(f"{args.events} championships x {args.pairs} pairs, best_of 10, min_events 3")
    assert read.stale_championships(circuit) == []

    championships = read.circuit_championships(circuit)
    places = read.event_places(championships)
    person = dict(Player.objects.filter(championship__circuit_events__circuit=circuit)
                  .values_list("id", "person_id"))
    events = [pure.Event(c.slug, len(places[c.pk]), tuple(
        read.event_pair(r, (person[r["players"][0]], person[r["players"][1]]))
        for r in places[c.pk])) for c in championships]
    rules = read.circuit_rules(circuit)

    def pure_only() -> None:
        pure.player_ranking(events, rules)
        pure.pair_ranking(events, rules)

    best, median = timed(pure_only, args.repeat)
    print(f"pure ranking (players + pairs): best {best * 1000:.0f} ms, "
          f"median {median * 1000:.0f} ms")
    with CaptureQueriesContext(connection) as queries:
        ranking = read.build_ranking(circuit)
    best, median = timed(lambda: read.build_ranking(circuit), args.repeat)
    print(f"build_ranking ({len(ranking.players)} players, {len(ranking.pairs)} pairs): "
          f"best {best * 1000:.0f} ms, median {median * 1000:.0f} ms, "
          f"{len(queries)} queries")
    with CaptureQueriesContext(connection) as queries:
        read.circuit_state(circuit)
    best, median = timed(lambda: read.circuit_state(circuit), args.repeat)
    print(f"circuit_state (the ETag): best {best * 1000:.1f} ms, "
          f"median {median * 1000:.1f} ms, {len(queries)} queries")


if __name__ == "__main__":
    main()
