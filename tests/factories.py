"""factory_boy factories for the tournaments app.

They build rows directly (fast, for tests of reads and constraints); tests of the rules
go through ``tournaments.services``, as the app does.
"""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from engine import sant_vicenc_default
from tournaments.models import (
    Board,
    Championship,
    Membership,
    Pair,
    Player,
    Round,
    Seating,
    Table,
)

FIRST_NAMES = ["Anna", "Jordi", "Montserrat", "Josep", "Núria", "Pere", "Marta", "Joan"]
LAST_NAMES = ["Puig", "Vila", "Soler", "Font", "Riera", "Casals", "Pujol", "Serra"]


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"usuari{n}")
    # Hashed before the row is written, so a session made with force_login stays valid.
    password = factory.django.Password("contrasenya-prova")


class ChampionshipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Championship

    name = factory.Sequence(lambda n: f"Campionat de prova {n}")
    slug = factory.Sequence(lambda n: f"prova-{n}")
    date = datetime.date(2026, 11, 29)
    venue = "Vic"
    doubling = Championship.Doubling.DUPLICATE
    # As championship_create: Sant Vicenç follows the doubling unless given.
    sant_vicenc = factory.LazyAttribute(lambda o: sant_vicenc_default(o.doubling))


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    championship = factory.SubFactory(ChampionshipFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.REFEREE


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    championship = factory.SubFactory(ChampionshipFactory)
    code = factory.Sequence(lambda n: f"p{n}")
    name = factory.Sequence(
        lambda n: f"{FIRST_NAMES[n % len(FIRST_NAMES)]} {LAST_NAMES[(n // 8) % len(LAST_NAMES)]}"
    )


class PairFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pair

    championship = factory.SubFactory(ChampionshipFactory)
    number = factory.Sequence(lambda n: n + 1)
    player1 = factory.SubFactory(
        PlayerFactory, championship=factory.SelfAttribute("..championship")
    )
    player2 = factory.SubFactory(
        PlayerFactory, championship=factory.SelfAttribute("..championship")
    )


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    championship = factory.SubFactory(ChampionshipFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    championship = factory.SubFactory(ChampionshipFactory)
    number = factory.Sequence(lambda n: n + 1)


class BoardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Board

    championship = factory.SubFactory(ChampionshipFactory)
    number = factory.Sequence(lambda n: n + 1)
    round = None
    deal = None


class SeatingFactory(factory.django.DjangoModelFactory):
    """A seating row only: the (round, pair) rows of the services are not written."""

    class Meta:
        model = Seating

    round = factory.SubFactory(RoundFactory)
    table = factory.SubFactory(
        TableFactory, championship=factory.SelfAttribute("..round.championship")
    )
    ns_pair = factory.SubFactory(
        PairFactory, championship=factory.SelfAttribute("..round.championship")
    )
    ew_pair = factory.SubFactory(
        PairFactory, championship=factory.SelfAttribute("..round.championship")
    )


def build_championship(
    *,
    pairs: int = 4,
    rounds: int = 2,
    boards_per_round: int = 2,
    drawn_rounds: int = 1,
    played_rounds: int = 0,
    seed: int = 7,
    generate: bool = True,
    **rules: object,
) -> Championship:
    """A championship built through the services, as an organiser would: ``pairs`` pairs,
    ``rounds`` x ``boards_per_round`` boards (dealt from a secret when ``generate``), the
    first ``drawn_rounds`` rounds drawn with ``seed`` and the first ``played_rounds`` of
    them filled with simple, varied results (no bots: fast and predictable)."""
    from tournaments import services

    championship = services.championship_create(
        name=f"Campionat {pairs} parelles", date=datetime.date(2026, 11, 29), venue="Vic",
        acting_user=None, **rules,
    )
    services.pairs_import_csv(
        championship=championship,
        text="\n".join(
            f"{n};{FIRST_NAMES[n % 8]} {LAST_NAMES[n % 7]};{FIRST_NAMES[(n + 3) % 8]} "
            f"{LAST_NAMES[(n + 2) % 8]}"
            for n in range(1, pairs + 1)
        ),
        acting_user=None,
    )
    created = services.rounds_setup(
        championship=championship, rounds=rounds, boards_per_round=boards_per_round,
        acting_user=None,
    )
    if generate:
        services.boards_generate(championship=championship, acting_user=None)
    trumps = ["O", "C", "E", "B", "botifarra"]
    for rnd in created[:drawn_rounds]:
        seatings = services.round_draw(round=rnd, seed=seed + rnd.number, acting_user=None)
        if rnd.number > played_rounds:
            continue
        for board in Board.objects.filter(round=rnd).order_by("number"):
            for i, seating in enumerate(seatings):
                k = board.number * 7 + i * 5
                services.result_record(
                    seating=seating, board=board, trump=trumps[k % 5],
                    ns_points_taken=(k * 11) % 73, contro=k % 3 == 0,
                    expected_version=None, acting_user=None,
                )
    championship.refresh_from_db()
    return championship
