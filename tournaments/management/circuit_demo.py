"""``python manage.py demo --circuit circuit-demo --events 3``: a season of three finished
championships ranked together.

The championships differ in format and size (a duplicate of 20 pairs, a classic of 16
pairs, a duplicate of 24 pairs; more events repeat the shapes on later dates), each built,
played by the bots and closed by the demo's own builders (``demo`` command), then
finished (``services.championship_finish``). Their players come from one pool of persons
drawn with a seed: about 70 % of each championship's players are drawn from a core of
regulars, so most of them play more than one event, the rest are newcomers. Every player
is linked to a person (``players_link_bulk``: the first time a name is seen a new person,
then that person). One regular's name is spelt two ways, "Núria Puigdomènech" in the
first championship and "Nuria Puigdomenech" in the third: the demo registers them as two
persons, then merges them (``person_merge``, audited), as an organiser would once they
noticed.

The circuit (``circuit_create``): points by place from :data:`POINTS_TABLE`, the best 2
results of a person count, 2 events at least to be ranked; the championships are added
with ``circuit_event_add``. Every write goes through the services.

Idempotent: run twice, it says the circuit exists (``--reset`` deletes the circuit, its
championships and the persons only they had, and builds them again).
"""

from __future__ import annotations

import dataclasses
import datetime
import random
from collections.abc import Sequence
from typing import Any, Protocol

from django.core.management.base import CommandError
from django.db import transaction

from tournaments import services
from tournaments.models import Championship, Circuit, Person, Player
from tournaments.services.circuits import circuit_create, circuit_event_add
from tournaments.services.persons import NEW_PERSON, person_merge, players_link_bulk

CIRCUIT_NAME = "Circuit de Botifarra d'Osona (demo)"
CIRCUIT_SEASON = "2026"
#: Points of the 1st, 2nd... place: the first ten as federations use them, then two
#: less a place down to 5 (30 places; a place beyond scores 0).
POINTS_TABLE = [100, 85, 75, 68, 62, 57, 53, 50, 47, 45, *range(43, 4, -2)]
BEST_OF = 2
MIN_EVENTS = 2
EVENTS_MAX = 6
#: The draw of the persons (who plays which event, with whom).
PERSONS_SEED = 2029
#: Regulars: the pool each event draws most of its players from.
CORE = 40
#: Share of an event's players drawn from the regulars.
REGULARS_SHARE = 0.7
#: The regular whose name the third event spells without accents.
NURIA = "Núria Puigdomènech"
NURIA_OTHER = "Nuria Puigdomenech"


class DemoBuilder(Protocol):
    """What the circuit demo uses of the ``demo`` command: its championship builders of
    ``shape``, its users, its output."""

    shape: dict[str, Any]
    classic: bool
    stdout: Any

    def _users(self) -> dict[str, Any]: ...

    def _build(self) -> Championship: ...

    def _build_classic(self) -> Championship: ...


@dataclasses.dataclass(frozen=True)
class EventShape:
    format: str
    pairs: int
    rounds: int
    boards_per_round: int
    town: str
    venue: str


#: The events in date order (repeated, a month apart, past the third).
SHAPES = (
    EventShape("duplicate", 20, 3, 4, "Vic", "Vic, Casal Cívic"),
    EventShape("classic", 16, 3, 0, "Manlleu", "Manlleu, Sala Polivalent"),
    EventShape("duplicate", 24, 3, 4, "Torelló", "Torelló, Teatre Cirvianum"),
)
FIRST_DATE = datetime.date(2026, 9, 19)


def event_slug(circuit_slug: str, k: int) -> str:
    """The slug of the circuit demo's k-th event (1-based)."""
    return f"{circuit_slug}-{k}"


def draw_players(events: int, first: Sequence[str], last: Sequence[str]) -> list[list[str]]:
    """The players' names of each event, two a pair in pair order, drawn from
    :data:`PERSONS_SEED`: :data:`REGULARS_SHARE` of each event's players from the
    :data:`CORE` regulars (:data:`NURIA` among them: she plays the first event and the
    third, there spelt :data:`NURIA_OTHER`, and not the second), the rest newcomers;
    names made of a ``first`` name and a ``last`` name."""
    rng = random.Random(PERSONS_SEED)
    names = sorted({f"{given} {surname}" for given in first for surname in last})
    rng.shuffle(names)
    core = [NURIA, *names[:CORE - 1]]
    fresh = iter(names[CORE - 1:])
    result: list[list[str]] = []
    for k in range(events):
        shape = SHAPES[k % len(SHAPES)]
        size = 2 * shape.pairs
        regulars = round(size * REGULARS_SHARE)
        nuria = k in (0, 2)
        pool = core[1:]
        drawn = rng.sample(pool, regulars - nuria)
        if nuria:
            drawn.append(NURIA if k == 0 else NURIA_OTHER)
        drawn += [next(fresh) for _ in range(size - len(drawn))]
        rng.shuffle(drawn)
        result.append(drawn)
    return result


def build_circuit(command: DemoBuilder, *, slug: str, events: int, reset: bool,
                  first: Sequence[str], last: Sequence[str]) -> Circuit | None:
    """Build the circuit demo through ``command``'s championship builders (the ``demo``
    command: ``_users``, ``_build``, ``_build_classic`` of its ``shape``), the players
    named from ``first`` and ``last`` names; ``None`` when it exists and ``reset`` is
    not asked (the command says so)."""
    if not 1 <= events <= EVENTS_MAX:
        raise CommandError(f"--events {events}: must be between 1 and {EVENTS_MAX}")
    existing = Circuit.objects.filter(slug=slug).first()
    if existing is not None and not reset:
        command.stdout.write(
            f"El circuit de la demo ja existeix ({existing.name}); `python manage.py demo "
            f"--circuit {slug} --reset` el torna a crear.")
        return None
    taken = [event_slug(slug, k) for k in range(1, events + 1)
             if Championship.objects.filter(slug=event_slug(slug, k)).exists()]
    if taken and not reset:
        raise CommandError(f"--circuit {slug}: the championship {taken[0]} exists already "
                           "(--reset deletes it)")
    with transaction.atomic():
        if reset:
            delete(slug)
        try:
            return _build(command, slug, draw_players(events, first, last))
        except ValueError as exc:  # a service refused: nothing is kept, one line
            raise CommandError(str(exc)) from None


def delete(slug: str) -> None:
    """The circuit, its demo championships and the persons no other championship has."""
    championships = list(Championship.objects.filter(slug__regex=rf"^{slug}-[0-9]+$"))
    persons = set(Player.objects.filter(championship__in=championships)
                  .exclude(person=None).values_list("person_id", flat=True))
    persons |= set(Person.objects.filter(merged_into__in=persons).values_list("pk", flat=True))
    Circuit.objects.filter(slug=slug).delete()
    for championship in championships:
        services.championship_delete(championship=championship,
                                     confirm_slug=championship.slug, acting_user=None)
    orphans = Person.objects.filter(pk__in=persons, players__isnull=True)
    orphans.update(merged_into=None)
    orphans.delete()


def _build(command: DemoBuilder, slug: str, drawn: list[list[str]]) -> Circuit:
    users = command._users()
    organiser = users["organitzador"]
    circuit = circuit_create(
        name=CIRCUIT_NAME, slug=slug, season=CIRCUIT_SEASON, points="place_table",
        points_table=POINTS_TABLE, best_of=BEST_OF, min_events=MIN_EVENTS,
        tiebreaks=["more_events", "best_result"], acting_user=organiser,
    )
    persons: dict[str, int] = {}
    for k, names in enumerate(drawn, start=1):
        shape = SHAPES[(k - 1) % len(SHAPES)]
        championship = _championship(command, slug, k, shape, names)
        _link(championship, names, persons, organiser)
        services.championship_finish(championship=championship, acting_user=organiser)
        circuit_event_add(circuit=circuit, championship=championship, acting_user=organiser)
        command.stdout.write(f"  {championship.name}: {shape.pairs} parelles")
    if NURIA in persons and NURIA_OTHER in persons:
        person_merge(kept=Person.objects.get(pk=persons[NURIA]),
                     absorbed=Person.objects.get(pk=persons[NURIA_OTHER]),
                     acting_user=organiser,
                     reason="La mateixa jugadora, escrita sense accents a la tercera prova")
        command.stdout.write(f"  Fusionades: «{NURIA_OTHER}» amb «{NURIA}»")
    circuit.refresh_from_db()
    return circuit


def _championship(command: DemoBuilder, slug: str, k: int, shape: EventShape,
                  names: list[str]) -> Championship:
    """The k-th event, built and played to its last round by the demo's builders."""
    classic = shape.format == Championship.Format.CLASSIC
    month = FIRST_DATE.month - 1 + (k - 1)
    date = FIRST_DATE.replace(year=FIRST_DATE.year + month // 12, month=month % 12 + 1)
    kind = "Partides" if classic else "Parelles"
    command.shape = {
        "slug": event_slug(slug, k), "pairs": shape.pairs, "rounds": shape.rounds,
        "boards_per_round": shape.boards_per_round,
        "movement": (Championship.Movement.SWISS if classic
                     else Championship.Movement.RANDOM).value,
        "play_rounds": shape.rounds, "withdraw": {}, "format": shape.format,
        "stages": None, "deals_per_game": None, "finals": None,
        "name": f"{CIRCUIT_NAME.removesuffix(' (demo)')} · {k}a prova: {shape.town} "
                f"({kind}, demo)",
        "date": date, "venue": shape.venue, "names": names,
    }
    command.classic = classic
    return command._build_classic() if classic else command._build()


def _link(championship: Championship, names: list[str], persons: dict[str, int],
          organiser: Any) -> None:
    """Link every player to the person of its name (a new one the first time)."""
    players = dict(Player.objects.filter(championship=championship)
                   .values_list("name", "pk"))
    choices = {players[name]: persons.get(name, NEW_PERSON) for name in names}
    players_link_bulk(championship=championship, choices=choices, acting_user=organiser)
    for name, person in Player.objects.filter(championship=championship).values_list(
            "name", "person_id"):
        persons.setdefault(name, person)
