"""Past seasons into a circuit (``services.seasons``, ``manage.py circuit_import`` and the
organisers' import page): the review before anything is written, the import in one
transaction, a bad file refused by name and field."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from tests.factories import UserFactory, build_championship
from tournaments.models import (
    AuditEntry,
    Championship,
    CircuitEvent,
    PeopleAuditEntry,
    Person,
    Player,
)
from tournaments.services import championship_delete, user_ensure
from tournaments.services.circuits import circuit_create
from tournaments.services.interchange import championship_export
from tournaments.services.seasons import (
    NEW_PERSON,
    FileIn,
    SeasonImportError,
    season_import,
    season_review,
)

pytestmark = pytest.mark.django_db

NAMES = ["Joan Puig", "Anna Vila", "Marta Soler", "Pere Roca",
         "Laia Serra", "Oriol Mas", "Neus Prat", "Jordi Coll"]


def season_file(slug: str, names: list[str]) -> dict[str, Any]:
    """An interchange file of a played championship of 4 pairs with ``names``."""
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2,
                                      drawn_rounds=1, played_rounds=1)
    players = list(Player.objects.filter(championship=championship).order_by("id"))
    for player, name in zip(players, names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    data = championship_export(championship)
    data["championship"]["slug"] = slug
    data["championship"]["name"] = f"Temporada {slug}"
    championship_delete(championship=championship, confirm_slug=championship.slug,
                        acting_user=None)
    return data


@pytest.fixture(scope="module")
def season_files(django_db_setup: Any, django_db_blocker: Any) -> list[FileIn]:
    """The two files, built once (their championships deleted once exported)."""
    with django_db_blocker.unblock(), transaction.atomic():
        last = AuditEntry.objects.order_by("-id").values_list("id", flat=True).first() or 0
        first = season_file("t2024", NAMES)
        second = season_file("t2025", ["Joan Puig", "Laia Serra", *NAMES[2:4],
                                       "Pau Riera", "Oriol Mas", "Neus Prat", "Clara Boix"])
        AuditEntry.objects.filter(id__gt=last).delete()  # nothing left for other modules
    return [FileIn("t2024.json", json.dumps(first)), FileIn("t2025.json", json.dumps(second))]


@pytest.fixture
def setup(db: None, season_files: list[FileIn]) -> dict[str, Any]:
    organiser = user_ensure(username="org-circuit", password="x",
                            may_create_championships=True)
    circuit = circuit_create(name="Lliga", slug="lliga", points_table=[10, 8, 6, 4],
                             acting_user=organiser)
    joan = Person.objects.create(name="Joan Puig")
    anna = [Person.objects.create(name="Anna Vila"), Person.objects.create(name="Anna Vila")]
    montse = Person.objects.create(name="Montserrat Soler")
    return {"organiser": organiser, "circuit": circuit, "joan": joan, "anna": anna,
            "montse": montse, "files": season_files}


def test_the_review_proposes_persons_and_writes_nothing(setup: dict[str, Any]) -> None:
    before = (Championship.objects.count(), Person.objects.count())
    review = season_review(circuit=setup["circuit"], files=setup["files"],
                           acting_user=setup["organiser"])
    assert (Championship.objects.count(), Person.objects.count()) == before
    rows = {(r.file, r.name): r for r in review.rows}
    assert rows["t2024.json", "Joan Puig"].status == "linked"
    assert rows["t2024.json", "Joan Puig"].proposal == setup["joan"].pk
    anna = rows["t2024.json", "Anna Vila"]
    assert anna.status == "uncertain" and {p.pk for p in anna.candidates} == {
        p.pk for p in setup["anna"]}
    marta = rows["t2024.json", "Marta Soler"]  # near: the same surname and initial
    assert marta.status == "uncertain" and marta.near and marta.proposal == NEW_PERSON
    assert [p.pk for p in marta.candidates] == [setup["montse"].pk]
    assert rows["t2024.json", "Pere Roca"].status == "new"
    assert rows["t2025.json", "Pere Roca"].first_file == "t2024.json"


def test_the_import_writes_finished_championships_of_the_circuit(
        setup: dict[str, Any]) -> None:
    review = season_review(circuit=setup["circuit"], files=setup["files"],
                           acting_user=setup["organiser"])
    anna = next(r for r in review.rows if r.name == "Anna Vila")
    marta = [r for r in review.rows if r.name == "Marta Soler"]
    choices = {anna.key: setup["anna"][1].pk, marta[0].key: setup["montse"].pk}
    made = season_import(circuit=setup["circuit"], files=setup["files"], choices=choices,
                         acting_user=setup["organiser"])
    assert [c.status for c in made] == [Championship.Status.FINISHED] * 2
    assert CircuitEvent.objects.filter(circuit=setup["circuit"]).count() == 2
    first, second = made
    assert not Player.objects.filter(championship__in=made, person=None).exists()
    person = dict(Player.objects.filter(championship=first).values_list("name", "person_id"))
    assert person["Joan Puig"] == setup["joan"].pk
    assert person["Anna Vila"] == setup["anna"][1].pk
    assert person["Marta Soler"] == setup["montse"].pk
    # A name new in both files is one new person.
    later = dict(Player.objects.filter(championship=second).values_list("name", "person_id"))
    assert later["Pere Roca"] == person["Pere Roca"]
    assert Person.objects.filter(name="Pere Roca").count() == 1
    # Marta in the second file took the proposal (a new person), not the first file's pick.
    assert later["Marta Soler"] != setup["montse"].pk
    row = PeopleAuditEntry.objects.get(action=PeopleAuditEntry.Action.CIRCUIT_IMPORT)
    assert row.circuit == setup["circuit"] and row.after["files"] == [
        "t2024.json", "t2025.json"]
    assert row.after["chosen"] == 2


def test_a_championship_already_in_the_circuit_is_not_imported_twice(
        setup: dict[str, Any]) -> None:
    circuit, organiser, files = setup["circuit"], setup["organiser"], setup["files"]
    with pytest.raises(SeasonImportError) as twice:
        season_review(circuit=circuit, files=[files[0], files[0]], acting_user=organiser)
    assert twice.value.problems == [
        "«t2024.json»: és el mateix campionat que «t2024.json»."]
    season_import(circuit=circuit, files=[files[0]], choices={}, acting_user=organiser)
    events = CircuitEvent.objects.filter(circuit=circuit).count()
    for step in (season_review, season_import):
        kwargs: dict[str, Any] = {"choices": {}} if step is season_import else {}
        with pytest.raises(SeasonImportError) as again:
            step(circuit=circuit, files=files, acting_user=organiser, **kwargs)
        assert again.value.problems == [
            "«t2024.json»: «Temporada t2024» ja és un campionat del circuit: "
            "no s'importa dues vegades."]
    assert CircuitEvent.objects.filter(circuit=circuit).count() == events == 1


def test_a_bad_file_is_refused_by_name_and_field_and_nothing_is_written(
        setup: dict[str, Any]) -> None:
    bad = json.loads(setup["files"][1].text)
    bad["pairs"][0]["number"] = "uno"
    files = [setup["files"][0], FileIn("dolenta.json", json.dumps(bad))]
    before = (Championship.objects.count(), Person.objects.count(),
              PeopleAuditEntry.objects.count())
    with pytest.raises(SeasonImportError) as raised:
        season_import(circuit=setup["circuit"], files=files, choices={},
                      acting_user=setup["organiser"])
    assert any(p.startswith("«dolenta.json»: pairs[0].number") for p in raised.value.problems)
    assert (Championship.objects.count(), Person.objects.count(),
            PeopleAuditEntry.objects.count()) == before
    with pytest.raises(SeasonImportError) as unreadable:
        season_review(circuit=setup["circuit"], files=[FileIn("x.json", "{no")],
                      acting_user=setup["organiser"])
    # Another kind of file chosen: said in Catalan, the reader's detail in brackets.
    [problem] = unreadable.value.problems
    assert problem.startswith("«x.json»: no és un fitxer d'intercanvi (JSON) que es pugui "
                              "llegir (not JSON: ")


def test_someone_not_organising_the_circuit_may_not(setup: dict[str, Any]) -> None:
    from tournaments.errors import NotAllowedError

    with pytest.raises(NotAllowedError):
        season_review(circuit=setup["circuit"], files=setup["files"],
                      acting_user=UserFactory(username="altre"))


def test_the_command_prints_the_review_and_imports(setup: dict[str, Any],
                                                   tmp_path: Path) -> None:
    paths = []
    for file in setup["files"]:
        path = tmp_path / file.name
        path.write_text(str(file.text), encoding="utf-8")
        paths.append(str(path))
    out = StringIO()
    call_command("circuit_import", "lliga", *paths, "--dry-run", stdout=out)
    assert "uncertain" in out.getvalue() and "nothing written" in out.getvalue()
    assert not CircuitEvent.objects.exists()
    out = StringIO()
    call_command("circuit_import", "lliga", *paths, stdout=out)
    assert CircuitEvent.objects.count() == 2
    with pytest.raises(CommandError, match="no circuit"):
        call_command("circuit_import", "cap", *paths)


def test_a_choice_that_is_no_person_is_refused_naming_the_file(
        setup: dict[str, Any]) -> None:
    review = season_review(circuit=setup["circuit"], files=setup["files"],
                           acting_user=setup["organiser"])
    row = review.rows[0]
    with pytest.raises(SeasonImportError, match=r"«t2024\.json»: Joan Puig: .* 999999"):
        season_import(circuit=setup["circuit"], files=setup["files"],
                      choices={row.key: 999999}, acting_user=setup["organiser"])
    assert not CircuitEvent.objects.exists()


def test_the_page_reviews_then_imports(setup: dict[str, Any], client: Any) -> None:
    url = "/circuits/lliga/organise/import/"
    assert client.get(url).status_code == 302  # to sign in
    client.force_login(UserFactory(username="altre"))
    assert client.get(url).status_code == 403
    client.force_login(setup["organiser"])
    assert client.get(url).status_code == 200
    uploads = []
    for file in setup["files"]:
        from django.core.files.uploadedfile import SimpleUploadedFile

        uploads.append(SimpleUploadedFile(file.name, str(file.text).encode()))
    page = client.post(url, {"action": "review", "files": uploads})
    assert page.status_code == 200 and "import-uncertain" in page.content.decode()
    assert not CircuitEvent.objects.exists()
    anna = next(r for r in page.context["review"].rows if r.name == "Anna Vila")
    done = client.post(url, {"action": "confirm", f"row-{anna.key}": "new"})
    assert done.status_code == 302
    assert CircuitEvent.objects.count() == 2
    assert Person.objects.filter(name="Anna Vila").count() == 3
