"""A pairs list of two names a line without numbers (numbered after the highest
registered), the separator and count a bad line names, "Surname, Given names" short
names and "find my pair" by words in any order."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tournaments import selectors, services
from tournaments.models import AuditEntry, Pair
from tournaments.selectors.names import short_name
from tournaments.selectors.standings import PairName

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 2)
UNNUMBERED = ("Vilaseca, Josep Maria\tFuente, Núria de la\n"
              "Anna Puig\tJordi Vila\n"
              "Marta Soler\tPere Font\n")


def test_a_tab_list_of_two_names_a_line_is_read_without_numbers():
    read = services.read_pairs_csv(UNNUMBERED)
    assert read.delimiter == "\t"
    assert read.numbered is False
    assert [(r.number, r.player1, r.player2) for r in read.rows] == [
        (1, "Vilaseca, Josep Maria", "Fuente, Núria de la"),
        (2, "Anna Puig", "Jordi Vila"),
        (3, "Marta Soler", "Pere Font"),
    ]
    assert services.read_pairs_csv("1\tAnna\tJoan\n").numbered is True


def test_a_list_without_numbers_is_numbered_after_the_highest_registered():
    c = services.championship_create(name="X", date=DAY)
    services.pair_register(championship=c, number=7, player1="A", player2="B",
                           acting_user=None)
    pairs = services.pairs_import_csv(championship=c, text=UNNUMBERED, acting_user=None)
    assert [(p.number, p.player1.name) for p in pairs] == [
        (8, "Vilaseca, Josep Maria"), (9, "Anna Puig"), (10, "Marta Soler")]
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.PAIRS_IMPORT).get()
    assert [p["number"] for p in entry.after["pairs"]] == [8, 9, 10]
    short = selectors.pair_names(c)
    assert short[8].short == "J. M. Vilaseca – N. de la Fuente"


def test_a_header_of_column_words_is_skipped_but_a_first_pair_is_not():
    read = services.read_pairs_csv("Jugador 1\tJugador 2\nNúria Puig\tPau Vila\n")
    assert read.skipped == ("Línia 1 (capçalera) ignorada.",)
    # "Núria" starts like "Número", "Pau" like "Parella": names all the same.
    read = services.read_pairs_csv("Núria Puig\tPau Vila\nAnna Soler\tJoan Font\n")
    assert read.skipped == ()
    assert [r.player1 for r in read.rows] == ["Núria Puig", "Anna Soler"]


def test_a_bad_line_of_a_list_without_numbers_names_the_tab_and_the_fields_found():
    with pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("Anna Puig\tJordi Vila\nMarta Soler\tPere Font\tJoan\n")
    assert exc.value.problems == [
        "línia 2: una llista sense números porta 2 camps per línia separats per "
        "tabulador (jugador 1, jugador 2), n'hi ha 3"]


def test_a_tab_list_with_a_missing_name_names_the_tab_not_the_semicolon():
    with pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("1\tAnna Puig\tJordi Vila\n2\tMarta Soler\n")
    assert "tabulador" in exc.value.problems[0] and "«;»" not in exc.value.problems[0]
    assert exc.value.problems[0].endswith("n'hi ha 2")


def test_a_line_without_any_separator_says_so():
    with pytest.raises(services.PairsCsvError) as exc:
        services.read_pairs_csv("Anna Puig\nJordi Vila\n")
    assert exc.value.problems[0].startswith("línia 1: no hi ha cap separador")


def test_numbers_past_the_highest_allowed_are_refused():
    c = services.championship_create(name="X", date=DAY)
    services.pair_register(championship=c, number=9999, player1="A", player2="B",
                           acting_user=None)
    with pytest.raises(services.PairsCsvError) as exc:
        services.pairs_import_csv(championship=c, text="C D\tE F\n", acting_user=None)
    assert "10000" in exc.value.problems[0]
    assert Pair.objects.filter(championship=c).count() == 1


def test_the_page_says_how_the_pairs_were_numbered(client, small):
    from tournaments.models import Seating
    Seating.objects.filter(round__championship=small.championship).delete()
    client.force_login(small.organiser)
    highest = max(Pair.objects.filter(championship=small.championship)
                  .values_list("number", flat=True))
    url = reverse("pairs_register", args=[small.championship.slug])
    assert 'id="csv-help-unnumbered"' in client.get(url).content.decode()
    response = client.post(url, {"csv-text": UNNUMBERED, "csv-submit": "1"}, follow=True)
    shown = [str(m) for m in response.context["messages"]]
    assert "3 parelles inscrites." in shown
    assert (f"La llista no porta números: les parelles tenen els números del "
            f"{highest + 1} al {highest + 3}, per l'ordre de la llista.") in shown
    response = client.post(url, {"csv-text": "Rosa Mir\tLluís Roca\n", "csv-submit": "1"},
                           follow=True)
    shown = [str(m) for m in response.context["messages"]]
    assert "1 parella inscrita." in shown


@pytest.mark.parametrize(("name", "short"), [
    ("Vilaseca, Josep Maria", "J. M. Vilaseca"),
    ("Fuente, Núria de la", "N. de la Fuente"),
    ("Vila Puig, Jordi", "J. Vila"),
    ("Puig, Anna", "A. Puig"),
    ("Josep Maria Vilaseca", "J. M. Vilaseca"),
])
def test_surname_comma_given_names_reads_the_other_way_round(name, short):
    assert short_name(name) == short


@pytest.mark.parametrize(("query", "found"), [
    ("Vilaseca Nuria", True), ("nuria VILASECA", True), ("fuente josep", True),
    ("j. m. vilaseca", True), ("vilaseca pere", False), ("8", True), ("08", True),
    ("9", False),
])
def test_find_my_pair_matches_every_word_in_any_order(query, found):
    pair = PairName(8, "Vilaseca, Josep Maria", "Fuente, Núria de la", None)
    assert pair.matches(query) is found


def test_the_standings_page_finds_words_in_another_order(client):
    from tests.factories import build_championship
    from tournaments.models import Player
    c = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1,
                           played_rounds=1)
    pair = Pair.objects.get(championship=c, number=3)
    Player.objects.filter(pk=pair.player1_id).update(name="Josep Maria Vilaseca")
    Player.objects.filter(pk=pair.player2_id).update(name="Núria de la Fuente")
    response = client.get(reverse("standings", args=[c.slug]), {"find": "Vilaseca Nuria"})
    assert [p.number for p in response.context["found"]] == [3]
    html = response.content.decode()
    # The row carries every name the page's script looks in.
    assert 'data-pair="3" data-names="Josep Maria Vilaseca Núria de la Fuente' in html
