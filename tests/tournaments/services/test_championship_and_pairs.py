"""Championship creation, roles, pair registration (form and CSV), rounds setup."""

from __future__ import annotations

import datetime
from decimal import Decimal
from fractions import Fraction

import pytest
from django.contrib.auth.models import Permission

from engine.rules import Variant
from scoring.model import Doubling, Method, Rounding
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Board, Championship, Membership, Pair, Player, Round, Seating

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 29)


def _creator(**kwargs):
    """A user allowed to create championships (``tournaments.add_championship``)."""
    user = UserFactory(**kwargs)
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    return user


def test_championship_create_takes_the_spec_defaults_and_makes_the_creator_organiser():
    user = _creator()
    c = services.championship_create(name="Campionat de Vic", date=DAY, acting_user=user)
    assert c.slug == "campionat-de-vic"
    assert c.status == Championship.Status.DRAFT
    rules = c.scoring_rules()
    assert (rules.doubling, rules.method, rules.rounding) == (
        Doubling.DUPLICATE, Method.PROPORTIONAL, Rounding.NONE)
    assert (rules.bottom, rules.top, rules.infraction_score) == (Fraction(1), Fraction(2), 0)
    play = c.engine_rules()
    assert play.variant is Variant.OBLIGADA and not play.carregar
    assert not play.sant_vicenc  # duplicate doubling: not allowed unless the organiser says
    assert Membership.objects.filter(championship=c, user=user, role="organiser").exists()


def test_championship_create_makes_the_slug_unique_and_refuses_a_taken_explicit_slug():
    first = services.championship_create(name="Obert", date=DAY)
    second = services.championship_create(name="Obert", date=DAY)
    assert (first.slug, second.slug) == ("obert", "obert-2")
    with pytest.raises(services.RegistrationError) as exc:
        services.championship_create(name="Un altre", slug="obert", date=DAY)
    assert exc.value.field == "slug"


def test_championship_create_stores_the_butinet_preset_exactly():
    c = services.championship_create(
        name="Predonats", date=DAY, scale_bottom=0, scale_top=100, rounding="floor",
        method="matchpoints", doubling="classic", variant="lliure",
    )
    c.refresh_from_db()
    assert c.scale_top == Decimal(100)
    assert c.scoring_rules().top == Fraction(100)
    assert c.scoring_rules().method is Method.MATCHPOINTS
    assert c.engine_rules().variant is Variant.LLIURE


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"method": "swiss"}, "method"),
        ({"scale_bottom": 2, "scale_top": 1}, "scale_top"),
        ({"scale_top": "molt"}, "scale_top"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_championship_create_refuses_bad_rules_naming_the_field(rules, field):
    with pytest.raises(services.RegistrationError) as exc:
        services.championship_create(name="X", date=DAY, **rules)
    assert exc.value.field == field
    assert not Championship.objects.exists()


def test_pair_register_refuses_a_repeated_number_and_a_missing_name():
    c = services.championship_create(name="X", date=DAY)
    pair = services.pair_register(championship=c, number=3, player1="Anna Puig",
                                  player2="Jordi Vila", acting_user=None)
    assert pair.names == "Anna Puig – Jordi Vila"
    with pytest.raises(services.RegistrationError) as exc:
        services.pair_register(championship=c, number=3, player1="A", player2="B",
                               acting_user=None)
    assert exc.value.field == "number"
    with pytest.raises(services.RegistrationError) as exc:
        services.pair_register(championship=c, number=4, player1="A", player2=" ",
                               acting_user=None)
    assert exc.value.field == "player2"


def test_pairs_import_csv_registers_every_line_and_skips_a_header():
    c = services.championship_create(name="X", date=DAY)
    pairs = services.pairs_import_csv(
        championship=c,
        text="número;jugador 1;jugador 2\n1;Anna Puig;Jordi Vila\n\n2; Marta Soler ;Pere Font\n",
        acting_user=None,
    )
    assert [(p.number, p.player1.name, p.player2.name) for p in pairs] == [
        (1, "Anna Puig", "Jordi Vila"), (2, "Marta Soler", "Pere Font")]
    codes = set(c.players.values_list("code", flat=True))
    assert len(codes) == 4


def test_pairs_import_csv_names_each_bad_line_and_writes_nothing():
    c = services.championship_create(name="X", date=DAY)
    with pytest.raises(services.PairsCsvError) as exc:
        services.pairs_import_csv(
            championship=c,
            text="1;Anna;Jordi\ndos;Marta;Pere\n3;Núria\n1;Joan;Rosa\n",
            acting_user=None,
        )
    problems = exc.value.problems
    assert problems[0].startswith("línia 2:") and "dos" in problems[0]
    assert problems[1].startswith("línia 3:")
    assert problems[2].startswith("línia 4:") and "línia 1" in problems[2]
    assert exc.value.field == "text"
    assert not Pair.objects.exists()


def test_pairs_import_csv_refuses_a_number_already_registered_by_its_line():
    c = services.championship_create(name="X", date=DAY)
    services.pair_register(championship=c, number=2, player1="A", player2="B",
                           acting_user=None)
    with pytest.raises(services.PairsCsvError) as exc:
        services.pairs_import_csv(championship=c, text="1;C;D\n2;E;F", acting_user=None)
    assert exc.value.problems == ["línia 2: ja hi ha una parella número 2"]
    assert Pair.objects.count() == 1


def test_only_an_organiser_of_this_championship_registers_pairs(small):
    c = services.championship_create(name="Sense sorteig", date=DAY)
    services.membership_grant(championship=c, user=small.organiser, role="organiser",
                              acting_user=None)
    services.membership_grant(championship=c, user=small.referee, role="referee",
                              acting_user=None)
    other = services.championship_create(name="Un altre", date=DAY)
    with pytest.raises(services.NotAllowedError):
        services.pair_register(championship=other, number=9, player1="A", player2="B",
                               acting_user=small.organiser)
    with pytest.raises(services.NotAllowedError):
        services.pair_register(championship=c, number=9, player1="A", player2="B",
                               acting_user=small.referee)
    pair = services.pair_register(championship=c, number=9, player1="A", player2="B",
                                  acting_user=small.organiser)
    assert pair.number == 9


def test_rounds_setup_numbers_the_boards_on_round_by_round():
    c = services.championship_create(name="X", date=DAY)
    rounds = services.rounds_setup(championship=c, rounds=3, boards_per_round=4,
                                   acting_user=None)
    assert [r.number for r in rounds] == [1, 2, 3]
    assert list(Board.objects.filter(round__number=3, championship=c)
                .values_list("number", flat=True)) == [9, 10, 11, 12]
    # Redone before any draw: replaced.
    services.rounds_setup(championship=c, rounds=2, boards_per_round=6, acting_user=None)
    assert Round.objects.filter(championship=c).count() == 2
    assert Board.objects.filter(championship=c).count() == 12


def test_rounds_setup_is_refused_once_a_round_is_drawn(small):
    with pytest.raises(services.DrawError):
        services.rounds_setup(championship=small.championship, rounds=5, boards_per_round=2,
                              acting_user=None)


@pytest.mark.parametrize("value", [0, -1, 101, True, "3"])
def test_rounds_setup_refuses_a_bad_count(value):
    c = services.championship_create(name="X", date=DAY)
    with pytest.raises(services.DrawError) as exc:
        services.rounds_setup(championship=c, rounds=value, boards_per_round=2,
                              acting_user=None)
    assert exc.value.field == "rounds"


def test_pairs_import_csv_accepts_a_spreadsheet_byte_order_mark():
    c = services.championship_create(name="X", date=DAY)
    pairs = services.pairs_import_csv(championship=c, text="\ufeffnúmero;j1;j2\n5;Anna;Joan",
                                      acting_user=None)
    assert [p.number for p in pairs] == [5]


def test_rules_change_only_while_no_result_exists(small):
    c = services.championship_update_rules(championship=small.championship,
                                           acting_user=small.organiser, method="matchpoints")
    assert c.scoring_rules().method is Method.MATCHPOINTS
    with pytest.raises(services.NotAllowedError):
        services.championship_update_rules(championship=c, acting_user=small.referee,
                                           method="proportional")
    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=40, expected_version=None, acting_user=None)
    with pytest.raises(services.ChampionshipStateError):
        services.championship_update_rules(championship=c, acting_user=small.organiser,
                                           method="proportional")


# --------------------------------------------------------------------------- who creates


def test_a_user_without_the_add_championship_permission_cannot_create_one():
    with pytest.raises(services.NotAllowedError):
        services.championship_create(name="Prohibit", date=DAY, acting_user=UserFactory())
    assert not Championship.objects.exists()
    superuser = UserFactory(username="super", is_superuser=True)
    assert services.championship_create(name="Permès", date=DAY, acting_user=superuser).pk


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"name": "x" * 201}, "name"), ({"venue": "v" * 201}, "venue"),
     ({"slug": "s" * 101}, "slug")],
)
def test_championship_create_refuses_text_longer_than_its_column(fields, field):
    data = {"name": "Llarg", "date": DAY, **fields}
    with pytest.raises(services.RegistrationError) as exc:
        services.championship_create(**data)
    assert exc.value.field == field
    assert not Championship.objects.exists()


# --------------------------------------------------------------------------- pair limits


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("99999999999999999999;Anna;Joan", "no és un número de parella (de 1 a 9999)"),
        ("3000000000;Anna;Joan", "no és un número de parella (de 1 a 9999)"),
        ("10000;Anna;Joan", "«10000» no és un número de parella (de 1 a 9999)"),
        ("0;Anna;Joan", "«0» no és un número de parella"),
        ("0" * 5000 + "10000;Anna;Joan", "no és un número de parella (de 1 a 9999)"),
        ("²;Anna;Joan", "«²» no és un número de parella"),
        ("-3;Anna;Joan", "«-3» no és un número de parella"),
        ("1;" + "a" * 5000 + ";Joan", "passa de 200 caràcters"),
        ("1;Anna;Jo\x00an", "caràcters de control"),
        ("1;Anna", "calen 3 camps"),
        ("1;;Joan", "falta el nom d'un jugador"),
        ("1;" + "a" * 140_000 + ";Joan", "no es pot llegir"),
    ],
    ids=["20-digits", "3e9", "10000", "zero", "zeros-then-10000", "superscript-two",
         "negative", "long-name", "nul", "two-fields", "empty-name", "huge-field"],
)
def test_pairs_import_csv_refuses_a_bad_line_naming_it_with_the_forms_limits(line, expected):
    c = services.championship_create(name="X", date=DAY)
    with pytest.raises(services.PairsCsvError) as exc:
        services.pairs_import_csv(championship=c, text="2;Marta;Pere\n" + line,
                                  acting_user=None)
    assert len(exc.value.problems) == 1
    assert exc.value.problems[0].startswith("línia 2: ")
    assert expected in exc.value.problems[0]
    assert not Pair.objects.exists() and not Player.objects.exists()


def test_pairs_import_csv_accepts_9999_leading_zeros_and_quoted_fields():
    c = services.championship_create(name="X", date=DAY)
    pairs = services.pairs_import_csv(
        championship=c,
        text='9999;Anna;Joan\n007;Marta;Pere\n"12";"Puig; Anna";Vila\n' + "0" * 5000 + "3;A;B",
        acting_user=None,
    )
    assert [(p.number, p.player1.name) for p in pairs] == [
        (9999, "Anna"), (7, "Marta"), (12, "Puig; Anna"), (3, "A")]


def test_a_quoted_number_already_registered_is_named_by_its_line():
    c = services.championship_create(name="X", date=DAY)
    services.pair_register(championship=c, number=1, player1="A", player2="B",
                           acting_user=None)
    with pytest.raises(services.PairsCsvError) as exc:
        services.pairs_import_csv(championship=c, text='número;j1;j2\n\n"1";a;b',
                                  acting_user=None)
    assert exc.value.problems == ["línia 3: ja hi ha una parella número 1"]
    assert str(exc.value) == "línia 3: ja hi ha una parella número 1"


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"number": 10_000}, "number"), ({"number": 3_000_000_000}, "number"),
     ({"player1": "a" * 201}, "player1"), ({"player2": "Jo\x00an"}, "player2")],
)
def test_pair_register_has_the_same_limits_as_the_csv(fields, field):
    c = services.championship_create(name="X", date=DAY)
    data = {"number": 1, "player1": "Anna", "player2": "Joan", **fields}
    with pytest.raises(services.RegistrationError) as exc:
        services.pair_register(championship=c, acting_user=None, **data)
    assert exc.value.field == field
    assert not Pair.objects.exists()


# --------------------------------------------------------------------------- after a draw


def test_a_pair_registered_after_the_draw_joins_from_the_next_round(small):
    late = services.pair_register(championship=small.championship, number=9,
                                  player1="A", player2="B", acting_user=small.organiser)
    more = services.pairs_import_csv(championship=small.championship, text="10;C;D",
                                     acting_user=small.organiser)
    assert (late.joined_round, more[0].joined_round) == (2, 2)
    assert not Seating.objects.filter(round=small.round1, ns_pair=late).exists()
    # Round 2 seats all six pairs: the four of round 1 and the two late ones.
    seatings = services.round_draw(round=small.round2, seed=5, acting_user=None)
    seated = {p for s in seatings for p in (s.ns_pair.number, s.ew_pair.number)}
    assert len(seatings) == 3 and {9, 10} <= seated


def test_no_pair_is_registered_once_the_last_round_is_drawn(small):
    services.round_draw(round=small.round2, seed=5, acting_user=None)
    last = small.championship.rounds.order_by("number").last()
    if last.number > 2:
        pytest.skip("the small championship has more than two rounds")
    with pytest.raises(services.ChampionshipStateError) as exc:
        services.pair_register(championship=small.championship, number=9,
                               player1="A", player2="B", acting_user=small.organiser)
    assert "La darrera ronda (2) ja està sortejada" in str(exc.value)
    assert Pair.objects.filter(championship=small.championship).count() == 4


def test_pair_remove_removes_an_unseated_pair_and_its_players(small):
    extra = services.pair_register(championship=services.championship_create(
        name="Altre", date=DAY), number=1, player1="A", player2="B", acting_user=None)
    late = services.pair_register(championship=small.championship, number=9,
                                  player1="Tard", player2="Tardana", acting_user=None)
    with pytest.raises(services.NotAllowedError):
        services.pair_remove(pair=late, acting_user=small.referee)
    services.pair_remove(pair=late, acting_user=small.organiser)
    assert not Pair.objects.filter(pk=late.pk).exists()
    assert not Player.objects.filter(name__in=["Tard", "Tardana"]).exists()
    assert Pair.objects.filter(pk=extra.pk).exists()
    assert len(services.round_draw(round=small.round2, seed=5, acting_user=None)) == 2


def test_pair_remove_refuses_a_pair_that_sits_at_a_table(small):
    seated = small.seatings[0].ns_pair
    with pytest.raises(services.ChampionshipStateError) as exc:
        services.pair_remove(pair=seated, acting_user=small.organiser)
    assert "ronda 1" in str(exc.value)
    assert Pair.objects.filter(pk=seated.pk).exists()


def test_pair_remove_before_the_draw_frees_the_number():
    c = services.championship_create(name="X", date=DAY)
    pair = services.pair_register(championship=c, number=3, player1="A", player2="B",
                                  acting_user=None)
    services.pair_remove(pair=pair, acting_user=None)
    assert not Player.objects.filter(championship=c).exists()
    again = services.pair_register(championship=c, number=3, player1="C", player2="D",
                                   acting_user=None)
    assert again.names == "C – D"
