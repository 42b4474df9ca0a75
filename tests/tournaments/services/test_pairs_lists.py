"""Pairs lists pasted or uploaded with ``;``, tabs or ``,``, with or without a header,
and the players' short names (form, list, read models)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation

from tournaments import selectors, services
from tournaments.models import Pair, Player

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 29)


def _names(pairs):
    return [(p.number, p.player1.name, p.player2.name) for p in pairs]


def test_a_tab_separated_paste_with_a_header_registers_every_pair():
    c = services.championship_create(name="X", date=DAY)
    text = ("Número\tJugador 1\tJugador 2\n"
            "1\tJosep Maria Vilaseca\tMontse Puigdomènech\n"
            "2\tPuig, Anna\tVila, Jordi\n"
            "3\tNúria de la Fuente\tMª Àngels Puig\n")
    pairs = services.pairs_import_csv(championship=c, text=text, acting_user=None)
    assert _names(pairs) == [
        (1, "Josep Maria Vilaseca", "Montse Puigdomènech"),
        (2, "Puig, Anna", "Vila, Jordi"),
        (3, "Núria de la Fuente", "Mª Àngels Puig"),
    ]
    read = services.read_pairs_csv(text)
    assert read.delimiter == "\t"
    assert read.skipped == ("Línia 1 (capçalera) ignorada.",)


@pytest.mark.parametrize(("text", "delimiter"), [
    ("1,Anna Puig,Jordi Vila\n2,Marta Soler,Pere Font\n", ","),
    ("1;Anna Puig;Jordi Vila\r\n2;Marta Soler;Pere Font\r\n", ";"),
    ("1\tAnna Puig\tJordi Vila\n2\tMarta Soler\tPere Font", "\t"),
    ('"1","Anna Puig","Jordi Vila"\n"2","Marta Soler","Pere Font"\n', ","),
    ("Parella,Jugador A,Jugador B\n1,Anna Puig,Jordi Vila\n2,Marta Soler,Pere Font\n", ","),
    ("1;Anna Puig;Jordi Vila, fill\n2;Marta Soler;Pere Font\n", ";"),
])
def test_the_separator_is_found_among_semicolon_tab_and_comma(text, delimiter):
    read = services.read_pairs_csv(text)
    assert read.delimiter == delimiter
    assert [(r.number, r.player1) for r in read.rows] == [(1, "Anna Puig"), (2, "Marta Soler")]


def test_skipped_header_and_blank_lines_are_listed_but_not_the_trailing_ones():
    text = "núm;j1;j2\n1;A;B\n\n2;C;D\n;;\n3;E;F\n\n\n"
    read = services.read_pairs_csv(text)
    assert [r.number for r in read.rows] == [1, 2, 3]
    assert read.skipped == ("Línia 1 (capçalera) ignorada.",
                            "Línies en blanc ignorades: 3, 5.")
    assert services.read_pairs_csv("1;A;B\n\n2;C;D").skipped == (
        "Línia 2 (en blanc) ignorada.",)
    assert services.read_pairs_csv("1;A;B\n2;C;D\n").skipped == ()


def test_a_bad_line_of_a_tab_list_names_its_line_and_the_tab():
    with pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("1\tAnna\tJoan\n2\tMarta\n")
    assert exc.value.problems == [
        "línia 2: calen 3 camps separats per tabulador (número, jugador 1, jugador 2; "
        "i, si cal, els noms curts dels dos jugadors), n'hi ha 2"]


def test_a_bad_line_is_named_in_the_users_language():
    with translation.override("en"), pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("1;Anna;Joan\n2;Marta\n")
    assert exc.value.problems[0].startswith("line 2: ")
    with translation.override("es"):
        assert services.read_pairs_csv("n;a;b\n1;A;B").skipped == (
            "Línea 1 (cabecera) ignorada.",)


def test_short_names_come_as_two_optional_extra_columns():
    c = services.championship_create(name="X", date=DAY)
    services.pairs_import_csv(
        championship=c, acting_user=None,
        text="1;Josep Maria Vilaseca;Anna Puig;Pep Vilaseca;Anna P.\n2;Marta Soler;Joan Font\n",
    )
    shorts = dict(Player.objects.filter(championship=c).values_list("name", "short_name"))
    assert shorts == {"Josep Maria Vilaseca": "Pep Vilaseca", "Anna Puig": "Anna P.",
                      "Marta Soler": "", "Joan Font": ""}
    names = selectors.pair_names(c)
    assert names[1].short == "Pep Vilaseca – Anna P."
    assert names[2].short == "M. Soler – J. Font"


def test_a_short_name_too_long_is_refused_by_its_line():
    with pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("1;Anna;Joan;" + "x" * 61)
    assert exc.value.problems[0].startswith("línia 1: ") and "60" in exc.value.problems[0]


def test_pair_register_takes_short_names_and_refuses_a_bad_one():
    c = services.championship_create(name="X", date=DAY)
    pair = services.pair_register(championship=c, number=1, player1="Josep Maria Vilaseca",
                                  player2="Anna Puig", short1="Pep", acting_user=None)
    pair = Pair.objects.select_related("player1", "player2").get(pk=pair.pk)
    assert (pair.player1.short_name, pair.player2.short_name) == ("Pep", "")
    assert selectors.pair_names(c)[1].short == "Pep – A. Puig"
    with pytest.raises(services.RegistrationError) as exc:
        services.pair_register(championship=c, number=2, player1="A", player2="B",
                               short2="x" * 61, acting_user=None)
    assert exc.value.field == "short2"
    assert not Pair.objects.filter(championship=c, number=2).exists()


def test_the_default_short_form_reaches_the_read_models():
    c = services.championship_create(name="X", date=DAY)
    services.pair_register(championship=c, number=7, player1="Josep Maria Vilaseca",
                           player2="Maria del Carme Puig i Ferrer", acting_user=None)
    assert selectors.pair_names(c)[7].short == "J. M. Vilaseca – M. C. Puig"


def test_a_paste_of_ten_thousand_bad_lines_gives_a_readable_message():
    text = "\n".join(f"x{n};Anna;Joan" for n in range(10_000))
    with pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv(text)
    assert len(exc.value.problems) == 10_000  # every line still known to the caller
    message = str(exc.value)
    assert message.startswith("línia 1: «x0» no és un número de parella")
    assert "línia 20:" in message and "línia 21:" not in message
    assert message.endswith("i 9980 línies més amb errors")
    assert len(message) < 2_000
    with translation.override("en"), pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("\n".join(f"x{n};A;B" for n in range(21)))
    assert str(exc.value).endswith("and 1 more line with errors")


def test_surname_comma_name_in_a_comma_list_is_refused_not_read_as_short_names():
    """"1,Puig, Anna,Vila, Pere" read as players «Puig» and «Anna» with short names
    «Vila» and «Pere», silently; it is refused, naming the name and the way out."""
    with pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("1,Puig, Anna,Vila, Pere\n2,Soler, Marta,Joan Font\n")
    assert exc.value.problems == [
        "línia 1: «Puig, Anna» sembla un nom amb una coma: poseu cada nom entre cometes "
        "(\"Puig, Anna\") o separeu els camps amb «;» o tabuladors",
        "línia 2: «Soler, Marta» sembla un nom amb una coma: poseu cada nom entre cometes "
        "(\"Soler, Marta\") o separeu els camps amb «;» o tabuladors",
    ]
    # Quoted, typed with ", " throughout, or with short names: read as they come.
    quoted = services.read_pairs_csv('1,"Puig, Anna","Vila, Pere"\n').rows[0]
    assert (quoted.player1, quoted.player2) == ("Puig, Anna", "Vila, Pere")
    typed = services.read_pairs_csv("1, Anna Puig, Pere Vila, Anna P., Pere V.\n").rows[0]
    assert (typed.player1, typed.short2) == ("Anna Puig", "Pere V.")
    three = services.read_pairs_csv("1,Anna Puig, Pere Vila\n").rows[0]
    assert three.player2 == "Pere Vila"
    bare = services.read_pairs_csv("1,Anna Puig,Pere Vila,Anna P.,Pere V.\n").rows[0]
    assert bare.short1 == "Anna P."
