"""Text at every way in is composed to NFC and refuses control characters
(docs/decisions.md 33): the model fields, the forms and pages, the pairs CSV (CR-only line
ends too), the API, and the interchange file down to the printed standings. The admin
takes no text: its rows are read-only (tests/tournaments/admin/test_admin_writes.py)."""

from __future__ import annotations

import io
import json
import unicodedata
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tests.tournaments.reports.pdfcheck import page_texts
from tournaments.fields import NFCFormField
from tournaments.forms import PairForm
from tournaments.models import Championship, Pair, Player, Seating
from tournaments.reports import build
from tournaments.reports.documents import Kind
from tournaments.reports.fonts import FONT, FONT_BOLD, missing_glyphs
from tournaments.reports.render import render
from tournaments.services.interchange import championship_export

NURIA_NFD = "Nu\u0301ria Pla\u0300"  # "Núria Plà" with combining accents
NURIA = "N\u00faria Pl\u00e0"
JOSEP_NFD = "Josep Ferra\u0300 i Gu\u0308ell"
JOSEP = "Josep Ferr\u00e0 i G\u00fcell"


def _organiser_client(small: Small) -> Client:
    small.organiser.save()  # type: ignore[attr-defined]  # the factory does not store the hash
    client = Client()
    client.force_login(small.organiser)  # type: ignore[arg-type]
    return client


@pytest.fixture
def undrawn(small: Small) -> Small:
    """``small`` before its first draw: pairs still register."""
    Seating.objects.filter(round__championship=small.championship).delete()
    return small


# -- The model fields -----------------------------------------------------------------------


def test_a_decomposed_name_is_stored_composed_by_every_kind_of_save(small: Small) -> None:
    championship = small.championship
    player = Player.objects.create(championship=championship, code="x1", name=NURIA_NFD)
    assert player.name == NURIA  # the instance too, not only the row
    assert Player.objects.values_list("name", flat=True).get(pk=player.pk) == NURIA
    assert Player.objects.get(name=NURIA_NFD).pk == player.pk  # a lookup composes too

    bulk = Player.objects.bulk_create([Player(championship=championship, code="x2",
                                              name=JOSEP_NFD)])
    assert Player.objects.values_list("name", flat=True).get(code="x2") == JOSEP
    Player.objects.filter(pk=bulk[0].pk).update(name=NURIA_NFD)
    assert Player.objects.values_list("name", flat=True).get(code="x2") == NURIA

    championship.venue = "Sant Sadurni\u0301"
    championship.save()
    assert Championship.objects.values_list("venue", flat=True).get(pk=championship.pk) \
        == "Sant Sadurn\u00ed"


def test_full_clean_refuses_a_control_character_naming_it(small: Small) -> None:
    player = Player(championship=small.championship, code="x3", name="Anna\x07 Puig")
    with pytest.raises(ValidationError) as caught:
        player.full_clean()
    messages = caught.value.message_dict["name"]
    assert any("U+0007" in m for m in messages), messages
    player.name = "Anna\tPuig"  # a tab is not a name either
    with pytest.raises(ValidationError, match="U\\+0009"):
        player.full_clean()
    player.name = NURIA_NFD
    player.full_clean()
    assert player.name == NURIA


def test_full_clean_refuses_separators_and_direction_controls_naming_where(
    small: Small,
) -> None:
    player = Player(championship=small.championship, code="x4", name="Anna\u202ePuig")
    with pytest.raises(ValidationError) as caught:
        player.full_clean()
    assert any("U+202E a la posició 5" in m for m in caught.value.message_dict["name"])
    field = NFCFormField(multiline=True)  # a note: line ends are CR and LF, nothing else
    with pytest.raises(ValidationError, match="U\\+2028 a la posició 3"):
        field.clean("ab\u2028cd")
    player.name = "\U0001f469\u200d\U0001f4bb Anna"  # a joiner stays
    player.full_clean()


# -- Forms and pages ------------------------------------------------------------------------


def test_the_pair_form_composes_names_and_refuses_control_characters() -> None:
    form = PairForm({"number": "3", "player1": NURIA_NFD, "player2": JOSEP_NFD})
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["player1"], form.cleaned_data["player2"]) == (NURIA, JOSEP)
    bad = PairForm({"number": "3", "player1": "Anna\x1bPuig", "player2": "Pau"})
    assert not bad.is_valid()
    assert "U+001B" in bad.errors["player1"][0] and "player2" not in bad.errors


def test_a_multiline_form_field_allows_line_ends_only() -> None:
    field = NFCFormField(multiline=True)
    assert field.clean("1;Nu\u0301ria;Pau\r\n2;A;B") == "1;N\u00faria;Pau\r\n2;A;B"
    with pytest.raises(ValidationError, match="U\\+0007"):
        field.clean("1;A\x07;B")


@pytest.mark.usefixtures("undrawn")
def test_a_pair_registered_on_the_page_is_stored_composed(small: Small) -> None:
    client = _organiser_client(small)
    url = reverse("pairs_register", args=[small.championship.slug])
    response = client.post(url, {"pair-number": "9", "pair-player1": NURIA_NFD,
                                 "pair-player2": JOSEP_NFD, "pair-submit": "1"})
    assert response.status_code == 302
    pair = Pair.objects.get(championship=small.championship, number=9)
    assert (pair.player1.name, pair.player2.name) == (NURIA, JOSEP)


@pytest.mark.usefixtures("undrawn")
def test_a_control_character_on_the_page_is_a_field_error_and_stores_nothing(
    small: Small,
) -> None:
    client = _organiser_client(small)
    url = reverse("pairs_register", args=[small.championship.slug])
    response = client.post(url, {"pair-number": "9", "pair-player1": "Anna\x07",
                                 "pair-player2": "Pau", "pair-submit": "1"})
    assert response.status_code == 200
    assert "U+0007" in response.context["pair_form"].errors["player1"][0]
    assert not Pair.objects.filter(championship=small.championship, number=9).exists()


@pytest.mark.usefixtures("undrawn")
@pytest.mark.parametrize("how", ["paste", "upload"])
def test_a_csv_with_old_mac_line_ends_registers_every_pair_composed(
    small: Small, how: str
) -> None:
    client = _organiser_client(small)
    text = f"numero;jugador 1;jugador 2\r10;{NURIA_NFD};Pau Roca\r11;Anna Puig;{JOSEP_NFD}\r"
    if how == "paste":
        data: dict[str, object] = {"csv-text": text, "csv-submit": "1"}
    else:
        data = {"csv-file": SimpleUploadedFile("mac.csv", text.encode()), "csv-submit": "1"}
    response = client.post(reverse("pairs_register", args=[small.championship.slug]), data)
    body = response.content.decode()
    assert "new-line character" not in body
    assert response.status_code == 302, body[:2000]
    names = dict(Pair.objects.filter(championship=small.championship, number__gte=10)
                 .values_list("number", "player1__name"))
    assert names == {10: NURIA, 11: "Anna Puig"}
    assert Player.objects.get(championship=small.championship, name=JOSEP)


@pytest.mark.usefixtures("undrawn")
def test_a_csv_control_character_is_named_with_its_line(small: Small) -> None:
    client = _organiser_client(small)
    response = client.post(reverse("pairs_register", args=[small.championship.slug]),
                           {"csv-text": "10;Anna;Pau\r11;Marta\x07;Joan", "csv-submit": "1"})
    assert response.status_code == 200
    error = response.context["csv_form"].errors["text"][0]
    assert "2" in error and "control" in error
    assert not Pair.objects.filter(championship=small.championship, number=10).exists()


# -- The admin ------------------------------------------------------------------------------


@pytest.fixture
def admin_client(db: None) -> Client:
    user = UserFactory(username="super-text", is_staff=True, is_superuser=True)
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_takes_no_player_name(admin_client: Client, small: Small) -> None:
    player = Player.objects.filter(championship=small.championship).first()
    assert player is not None
    name = player.name
    url = reverse("admin:tournaments_player_change", args=[player.pk])
    form = {"championship": small.championship.pk, "code": player.code, "name": NURIA_NFD}
    assert admin_client.post(url, form).status_code == 403
    player.refresh_from_db()
    assert player.name == name


# -- The API --------------------------------------------------------------------------------


def test_the_api_refuses_a_control_character_in_a_reason_as_a_field_error() -> None:
    from tournaments.api.serializers import DeleteInputSerializer, ResultInputSerializer

    delete = DeleteInputSerializer(data={"reason": "error\x07"})
    assert not delete.is_valid()
    assert "U+0007" in str(delete.errors["reason"][0])
    assert DeleteInputSerializer(data={"reason": "Error de l'a\u0300rbitre"}).is_valid()
    note = ResultInputSerializer(data={"note": "x\x1b"})
    assert not note.is_valid() and "U+001B" in str(note.errors["note"][0])


# -- The interchange file, down to the printed standings ------------------------------------


def test_an_imported_file_with_decomposed_names_exports_and_prints_them_composed(
    db: None, tmp_path: Path,
) -> None:
    source = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1,
                                played_rounds=1)
    data = championship_export(source)
    for player in data["players"]:
        if player["name"] == source.pairs.get(number=1).player1.name:
            player["name"] = NURIA_NFD
        elif player["name"] == source.pairs.get(number=1).player2.name:
            player["name"] = JOSEP_NFD
    data["championship"]["name"] = "Campionat de Sant Sadurni\u0301"
    data["championship"]["slug"] = "nfd-import"
    text = json.dumps(data, ensure_ascii=False)
    assert NURIA_NFD in text  # the file holds the decomposed text as it is
    path = tmp_path / "nfd.json"
    path.write_text(text, encoding="utf-8")

    out = io.StringIO()
    call_command("import_championship", str(path), stdout=out)
    imported = Championship.objects.exclude(pk=source.pk).get()
    assert imported.name == "Campionat de Sant Sadurn\u00ed"

    exported = json.dumps(championship_export(imported), ensure_ascii=False)
    assert NURIA in exported and JOSEP in exported
    assert NURIA_NFD not in exported and "\u0301" not in exported and "\u0300" not in exported
    assert unicodedata.is_normalized("NFC", exported)

    pdf = render(build.build(imported, Kind.STANDINGS))
    printed = " ".join(" ".join(page_texts(pdf)).split())
    assert f"{NURIA} – {JOSEP}" in printed
    assert "Sant Sadurn\u00ed" in printed
    for font in (FONT, FONT_BOLD):
        assert missing_glyphs(NURIA + JOSEP + imported.name, font) == []
    # The check can fail: the font has no combining accents, the decomposed name would
    # have printed a box for each.
    assert missing_glyphs(NURIA_NFD) == ["\u0301", "\u0300"]
