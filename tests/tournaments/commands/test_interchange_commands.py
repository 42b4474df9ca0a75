"""import_championship / export_championship (round trip, refusals) and verify_deals."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import CommandError, call_command

from engine.generate import generate_deal
from tests.factories import build_championship
from tournaments import services
from tournaments.models import AuditEntry, Championship, Result
from tournaments.services.interchange import championship_export

pytestmark = pytest.mark.django_db


def run(*args):
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def played():
    c = build_championship(pairs=6, rounds=3, boards_per_round=2, drawn_rounds=3,
                           played_rounds=2)
    seating = c.rounds.get(number=1).seatings.order_by("table__number").first()
    board = c.boards.get(number=1)
    result = Result.objects.get(seating=seating, board=board)
    services.result_correct(result=result, expected_version=1, acting_user=None,
                            trump=None, ns_points_taken=None,
                            adjusted=("average_plus", "average_minus"))
    board2 = c.boards.get(number=2)
    result2 = Result.objects.get(seating=seating, board=board2)
    services.result_correct(result=result2, expected_version=1, acting_user=None,
                            trump="C", ns_points_taken=30, infraction="EW")
    return c


def test_export_then_import_then_export_gives_the_same_document(played, tmp_path):
    path = tmp_path / "c.json"
    run("export_championship", played.slug, "-o", str(path))
    first = json.loads(path.read_text(encoding="utf-8"))
    assert first["format"] == "botifarra-duplicate/1"
    assert len(first["standings"]) == 6
    slug = run("import_championship", str(path)).strip()
    assert slug == f"{played.slug}-2"  # the original is still there
    again = json.loads(run("export_championship", slug))
    first["championship"]["slug"] = slug
    first["championship"]["name"] += " (2)"  # and so is its name
    assert again == first
    imported = Championship.objects.get(slug=slug)
    assert imported.status == Championship.Status.RUNNING
    assert imported.boards_per_round == 2
    assert AuditEntry.objects.filter(championship=imported, action="result.create").count() == 12


def test_an_imported_name_already_taken_gets_the_next_free_number_and_says_so(
    played, tmp_path
):
    from io import StringIO

    path = tmp_path / "c.json"
    run("export_championship", played.slug, "-o", str(path))
    Championship.objects.filter(pk=played.pk).update(name="Open de Sitges")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["championship"]["name"] = "Open de Sitges"
    path.write_text(json.dumps(data), encoding="utf-8")
    names = []
    for _ in range(2):
        out, err = StringIO(), StringIO()
        call_command("import_championship", str(path), stdout=out, stderr=err)
        imported = Championship.objects.get(slug=out.getvalue().strip())
        names.append(imported.name)
        assert f"imported as {imported.name!r}" in err.getvalue()
        assert "'Open de Sitges' already exists" in err.getvalue()
        entry = AuditEntry.objects.get(championship=imported, action="championship.import")
        assert entry.after["name_in_file"] == "Open de Sitges"
    assert names == ["Open de Sitges (2)", "Open de Sitges (3)"]
    # A gap is filled; a free name is kept as it is, silently.
    Championship.objects.filter(name="Open de Sitges (2)").update(name="Altre")
    assert services.championship_import(data=data, acting_user=None).championship.name \
        == "Open de Sitges (2)"
    data["championship"]["name"] = "Open de Tarragona"
    fresh = services.championship_import(data=data, acting_user=None)
    assert (fresh.championship.name, fresh.renamed_from) == ("Open de Tarragona", None)
    # A long name is shortened to fit the column with its number.
    data["championship"]["name"] = "L" * 200
    services.championship_import(data=data, acting_user=None)
    long = services.championship_import(data=data, acting_user=None)
    assert long.championship.name.endswith(" (2)") and len(long.championship.name) <= 200
    assert long.renamed_from == "L" * 200


def test_a_published_championship_round_trips_with_its_secret(played, tmp_path):
    services.championship_finish(championship=played, acting_user=None)
    played = services.deal_secret_publish(championship=played, acting_user=None)
    data = championship_export(played)
    assert data["championship"]["deal_secret"] == played.deal_secret
    data["championship"]["slug"] = "publicat"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("import_championship", str(path)).strip() == "publicat"
    imported = Championship.objects.get(slug="publicat")
    assert imported.status == Championship.Status.FINISHED
    assert imported.public_deal_secret == played.deal_secret
    data["championship"]["name"] += " (2)"  # the original is still there
    assert championship_export(imported) == data


def test_the_secret_is_not_exported_before_it_is_published(played):
    data = championship_export(played)
    assert "deal_secret" not in data["championship"]
    assert data["championship"]["deal_commitment"] == played.deal_commitment


def test_a_bad_file_is_refused_whole_with_each_json_path_and_nothing_written(played, tmp_path):
    data = championship_export(played)
    bad = copy.deepcopy(data)
    bad["championship"]["slug"] = "dolent"
    bad["rounds"][1]["tables"][0]["results"][0]["ns_points_taken"] = 73
    bad["rounds"][0]["tables"][1]["results"][0]["recontro"] = True
    bad["rounds"][0]["tables"][1]["results"][0]["contro"] = False
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    before = Championship.objects.count(), Result.objects.count()
    with pytest.raises(CommandError) as exc:
        run("import_championship", str(path))
    message = str(exc.value)
    assert "rounds[1].tables[0].results[0].ns_points_taken: 73 is not in 0..72" in message
    assert "rounds[0].tables[1].results[0]" in message
    assert "nothing imported" in message
    assert (Championship.objects.count(), Result.objects.count()) == before


def test_a_file_that_is_not_json_is_refused_with_a_clean_message(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        run("import_championship", str(path))
    assert "not JSON" in str(exc.value) and "line 1" in str(exc.value)
    with pytest.raises(CommandError) as exc:
        run("import_championship", str(tmp_path / "missing.json"))
    assert "cannot read" in str(exc.value)


def test_the_import_command_exits_non_zero_without_a_traceback(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "botifarra-duplicate/1",
                                "championship": {"name": "X", "slug": "x"},
                                "pairs": [{"number": 1, "players": ["a", "b"]}]}))
    done = subprocess.run(
        [sys.executable, "manage.py", "import_championship", str(path), "--skip-checks"],
        capture_output=True, text=True, env=_env(tmp_path),
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "pairs[0].players" in done.stderr


def _env(tmp_path):
    import os

    return {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}


def test_export_of_an_unknown_slug_is_a_clean_error():
    with pytest.raises(CommandError, match="no championship with slug 'cap'"):
        run("export_championship", "cap")


def test_an_import_without_date_or_results_is_a_draft():
    from tournaments.services.interchange import championship_import

    c = championship_import(acting_user=None, data={
        "format": "botifarra-duplicate/1",
        "championship": {"name": "Esborrany", "slug": "esb"},
        "players": [{"id": "a", "name": "Anna"}, {"id": "b", "name": "Biel"}],
        "pairs": [{"number": 1, "players": ["a", "b"]}],
    }).championship
    assert (c.date, c.status, c.pairs.count()) == (None, Championship.Status.DRAFT, 1)


# -- verify_deals ----------------------------------------------------------------------


@pytest.fixture
def published_file(played, tmp_path):
    services.championship_finish(championship=played, acting_user=None)
    played = services.deal_secret_publish(championship=played, acting_user=None)
    path = tmp_path / "published.json"
    path.write_text(json.dumps(championship_export(played)), encoding="utf-8")
    return path


def test_verify_deals_checks_every_board_of_a_published_file(published_file):
    out = run("verify_deals", str(published_file))
    assert "commitment: ok" in out
    assert [line for line in out.splitlines() if line.startswith("board ")] == [
        f"board {n}: ok" for n in range(1, 7)]
    assert "all 6 board(s) match" in out


def test_verify_deals_reports_a_board_that_was_swapped(published_file):
    data = json.loads(published_file.read_text())
    secret = bytes.fromhex(data["championship"]["deal_secret"])
    data["boards"][2]["deal"] = generate_deal(secret, 99).to_json()
    published_file.write_text(json.dumps(data))
    from io import StringIO

    out = StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_deals", str(published_file), stdout=out)
    assert "board 3: MISMATCH" in out.getvalue()
    assert "board 4: ok" in out.getvalue()


def test_verify_deals_reports_a_secret_that_does_not_match_the_commitment(published_file):
    data = json.loads(published_file.read_text())
    data["championship"]["deal_commitment"] = "0" * 64
    published_file.write_text(json.dumps(data))
    from io import StringIO

    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_deals", str(published_file), stdout=out)
    assert "commitment: MISMATCH" in out.getvalue()


def test_verify_deals_refuses_a_file_whose_secret_is_not_published(played, tmp_path):
    path = tmp_path / "secret.json"
    path.write_text(json.dumps(championship_export(played)))
    with pytest.raises(CommandError, match=r"not\s+published"):
        run("verify_deals", str(path))


def test_an_import_with_sant_vicenc_on_botifarra_allows_it_in_the_championship():
    from tournaments.services.interchange import championship_import

    c = championship_import(acting_user=None, data={
        "format": "botifarra-duplicate/1",
        "championship": {"name": "SV", "slug": "sv"},
        "players": [{"id": k, "name": k.upper()} for k in "abcd"],
        "pairs": [{"number": 1, "players": ["a", "b"]}, {"number": 2, "players": ["c", "d"]}],
        "boards": [{"number": 1}],
        "rounds": [{"number": 1, "tables": [{"number": 1, "ns": 1, "ew": 2, "results": [
            {"board": 1, "trump": "botifarra", "contro": True, "recontro": True,
             "sant_vicenc": True, "ns_points_taken": 50}]}]}],
    }).championship
    assert c.sant_vicenc_on_botifarra
    assert c.boards.get(number=1).round.number == 1
    assert championship_export(c)["rounds"][0]["tables"][0]["results"][0]["ns_score"] == 28


# -- hostile files: a clear message by JSON path, no traceback, nothing written -------------


def _minimal(**changes):
    data = {
        "format": "botifarra-duplicate/1",
        "championship": {"name": "Prova", "slug": "prova"},
        "players": [{"id": k, "name": k.upper()} for k in "abcd"],
        "pairs": [{"number": 1, "players": ["a", "b"]}, {"number": 2, "players": ["c", "d"]}],
        "boards": [{"number": 1}],
        "rounds": [{"number": 1, "tables": [{"number": 1, "ns": 1, "ew": 2, "results": [
            {"board": 1, "trump": "O", "ns_points_taken": 40}]}]}],
    }
    for change in changes.values():
        change(data)
    return data


HOSTILE = {
    "deep": ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    "huge-integer": (
        json.dumps(_minimal()).replace('"ns_points_taken": 40', '"ns_points_taken": '
                                       + "9" * 5000),
        "rounds[0].tables[0].results[0].ns_points_taken: a number of 5000 digits is out of range",
    ),
    "huge-scale": (
        json.dumps(_minimal(r=lambda d: d.update(rules={"scale": {"bottom": 0, "top": 1e30}}))),
        "rules.scale.top: 1e+30 is not between -1000000 and 1000000",
    ),
    "huge-infraction-score": (
        json.dumps(_minimal(r=lambda d: d.update(rules={"infraction_score": 1e300}))),
        "rules.infraction_score: 1e+300 is not between -1000000 and 1000000",
    ),
    "repeated-key": (
        json.dumps(_minimal()).replace('"ns": 1', '"ns": 1, "ns": 2'),
        "rounds[0].tables[0].ns: the key appears twice in the same object",
    ),
    "round-40000": (
        json.dumps(_minimal(r=lambda d: d["rounds"][0].update(number=40000))),
        "rounds[0].number: 40000 must be 9999 or less",
    ),
    "table-70000": (
        json.dumps(_minimal(r=lambda d: d["rounds"][0]["tables"][0].update(number=70000))),
        "rounds[0].tables[0].number: 70000 must be 9999 or less",
    ),
    "board-40000": (
        json.dumps(_minimal(r=lambda d: d["boards"][0].update(number=40000),
                            s=lambda d: d["rounds"][0]["tables"][0]["results"][0].update(
                                board=40000))),
        "boards[0].number: 40000 must be 9999 or less",
    ),
    "long-name": (
        json.dumps(_minimal(r=lambda d: d["championship"].update(name="n" * 201))),
        "championship.name: 201 characters, more than 200",
    ),
    "long-venue": (
        json.dumps(_minimal(r=lambda d: d["championship"].update(venue="v" * 201))),
        "championship.venue: 201 characters, more than 200",
    ),
    "long-slug": (
        json.dumps(_minimal(r=lambda d: d["championship"].update(slug="s" * 101))),
        "championship.slug: 101 characters, more than 100",
    ),
    "long-player-id": (
        json.dumps(_minimal(r=lambda d: d["players"].append({"id": "x" * 500, "name": "X"}))),
        "players[4].id: 500 characters, more than 50",
    ),
    "nul-in-name": (
        json.dumps(_minimal(r=lambda d: d["players"][0].update(name="An\u0000na"))),
        "players[0].name: holds the control character '\\x00' at 3",
    ),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_by_path_and_nothing_is_written(name, tmp_path):
    text, expected = HOSTILE[name]
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    before = Championship.objects.count(), Result.objects.count()
    with pytest.raises(CommandError) as exc:
        run("import_championship", str(path))
    assert expected in str(exc.value)
    assert (Championship.objects.count(), Result.objects.count()) == before


def test_the_model_limits_are_checked_even_past_the_spec_limits():
    from scoring.interchange import ChampionshipDoc, PlayerDoc, RoundDoc
    from tournaments.services.interchange import model_limit_problems

    doc = ChampionshipDoc(
        name="n" * 201, slug="no slug", venue="v",
        players=(PlayerDoc("x" * 51, "A\x00B"),), rounds=(RoundDoc(70000),),
    )
    problems = model_limit_problems(doc)
    assert [p.split(":")[0] for p in problems] == [
        "championship.name", "championship.slug", "players[0].id", "players[0].name",
        "rounds[0].number",
    ]
    assert model_limit_problems(ChampionshipDoc(name="n", slug="s")) == []


def test_a_taken_long_slug_gets_a_suffix_within_the_column():
    data = _minimal(r=lambda d: d["championship"].update(slug="s" * 100))
    from tournaments.services.interchange import championship_import

    first = championship_import(data=data, acting_user=None).championship
    second = championship_import(data=data, acting_user=None).championship
    assert (first.slug, second.slug) == ("s" * 100, "s" * 98 + "-2")


@pytest.mark.parametrize(
    ("boards", "expected"),
    [
        (5, "boards: must be a list, not the number 5"),
        ("abc", "boards: must be a list, not the text 'abc'"),
        ([{"number": 10**30}],
         "boards[0].number: a number of about 31 digits must be 9999 or less"),
        ([{"number": 1, "deal": 7}], "boards[0].deal: must be an object of seats N, E, S, W"),
    ],
)
def test_verify_deals_refuses_a_malformed_file_by_path(published_file, boards, expected):
    data = json.loads(published_file.read_text())
    data["boards"] = boards
    data["rounds"] = []
    published_file.write_text(json.dumps(data))
    from io import StringIO

    out = StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("verify_deals", str(published_file), stdout=out)
    assert expected in str(exc.value)
    assert "MISMATCH" not in out.getvalue()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ('{"championship": {"deal_commitment": "' + "0" * 64 + '", "deal_secret": '
         + "1" * 5000 + "}}", "must be 64 hex digits"),
        ('{"championship": {}, "championship": {}}', "championship: the key appears twice"),
    ],
    ids=["deep", "huge-integer-secret", "repeated-key"],
)
def test_verify_deals_refuses_a_hostile_file_cleanly(tmp_path, text, expected):
    path = tmp_path / "hostile.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=expected):
        run("verify_deals", str(path))


def test_import_reads_standard_input(monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(_minimal())))
    assert run("import_championship", "-").strip() == "prova"
    assert Championship.objects.get(slug="prova").name == "Prova"


def test_export_to_a_missing_folder_is_a_clean_error(played):
    with pytest.raises(CommandError, match=r"/nonexistent/dir/c\.json: cannot write"):
        run("export_championship", played.slug, "-o", "/nonexistent/dir/c.json")


def test_scale_values_the_columns_cannot_hold_are_refused_before_writing(monkeypatch):
    from fractions import Fraction

    from scoring import InterchangeError, ScoringRules
    from scoring.interchange import ChampionshipDoc
    from tournaments.services import interchange

    rules = ScoringRules(bottom=Fraction(0), top=Fraction(10**7),
                         infraction_score=Fraction(1, 3))
    monkeypatch.setattr(interchange, "load",
                        lambda data: ChampionshipDoc(name="X", slug="x", rules=rules))
    with pytest.raises(InterchangeError) as exc:
        interchange.championship_import(data={}, acting_user=None)
    assert exc.value.problems == [
        "rules.scale.top: 1e+07 does not fit (-1000000..1000000)",
        "rules.infraction_score: 0.333333 needs more than 4 decimals",
    ]
    assert not Championship.objects.filter(slug="x").exists()


# -- the whole state round trips ----------------------------------------------------------


def _import(data, slug):
    from tournaments.services.interchange import championship_import

    data = copy.deepcopy(data)
    data["championship"]["slug"] = slug
    return championship_import(acting_user=None, data=data).championship


def _renamed(data, slug):
    data = copy.deepcopy(data)
    data["championship"]["slug"] = slug
    data["championship"]["name"] += " (2)"  # the original is still there
    return data


def test_a_closed_round_with_notes_and_play_settings_round_trips(played):
    services.round_close(round=played.rounds.get(number=1), acting_user=None)
    result = Result.objects.filter(seating__round__number=2).order_by("id").first()
    Result.objects.filter(pk=result.pk).update(note="Taula 1: el repartiment es va refer")
    Championship.objects.filter(pk=played.pk).update(carregar=True, barraca=True)
    played.refresh_from_db()
    data = championship_export(played)
    assert data["rounds"][0]["closed_at"] is not None
    assert "closed_at" not in data["rounds"][1]
    assert data["rules"]["carregar"] is True and data["rules"]["barraca"] is True
    assert data["championship"]["status"] == "running"
    assert [b["round"] for b in data["boards"]] == [1, 1, 2, 2, 3, 3]
    imported = _import(data, "tancada")
    assert championship_export(imported) == _renamed(data, "tancada")
    assert imported.rounds.get(number=1).closed_at == played.rounds.get(number=1).closed_at
    assert not imported.rounds.get(number=2).is_closed
    assert (imported.carregar, imported.barraca) == (True, True)
    assert imported.boards.get(number=5).round.number == 3  # no result yet: still round 3
    assert Result.objects.filter(
        seating__round__championship=imported, note__startswith="Taula 1"
    ).count() == 1


def test_a_finished_championship_round_trips_closed_and_finished(played):
    services.championship_finish(championship=played, acting_user=None)
    played.refresh_from_db()
    data = championship_export(played)
    assert data["championship"]["status"] == "finished"
    assert "deal_secret" not in data["championship"]  # finished, secret not yet published
    assert all(r.get("closed_at") for r in data["rounds"])
    imported = _import(data, "acabat")
    assert imported.status == Championship.Status.FINISHED
    assert not imported.deal_secret_published
    assert championship_export(imported) == _renamed(data, "acabat")


def test_a_plain_referee_cannot_change_a_closed_round_of_an_imported_championship(played):
    from tests.factories import MembershipFactory, UserFactory
    from tournaments.models import Membership

    services.round_close(round=played.rounds.get(number=1), acting_user=None)
    imported = _import(championship_export(played), "importat")
    referee = UserFactory()
    MembershipFactory(championship=imported, user=referee, role=Membership.Role.REFEREE)
    closed = Result.objects.filter(seating__round__championship=imported,
                                   seating__round__number=1).order_by("id").first()
    before = closed.snapshot()
    with pytest.raises(services.NotAllowedError):
        services.result_correct(result=closed, expected_version=closed.version,
                                acting_user=referee, trump="O", ns_points_taken=40)
    closed.refresh_from_db()
    assert closed.snapshot() == before
    open_ = Result.objects.filter(seating__round__championship=imported,
                                  seating__round__number=2).order_by("id").first()
    changed = services.result_correct(result=open_, expected_version=open_.version,
                                      acting_user=referee, trump="O", ns_points_taken=40).result
    assert (changed.trump, changed.ns_points_taken, changed.version) == ("O", 40, 2)


def test_an_old_file_without_the_added_fields_still_imports(played):
    data = championship_export(played)
    for key in ("status", "boards_per_round"):
        data["championship"].pop(key, None)
    for key in ("sant_vicenc", "sant_vicenc_on_botifarra", "carregar", "carregar_scope",
                "barraca"):
        data["rules"].pop(key)
    for board in data["boards"]:
        board.pop("round", None)
    imported = _import(data, "antic")
    assert imported.status == Championship.Status.RUNNING
    assert imported.boards_per_round == 2
    assert imported.boards.get(number=3).round.number == 2


def test_what_the_import_would_refuse_is_not_exported(played):
    from scoring import InterchangeError

    played.pairs.filter(number=6).update(number=10_000)  # e.g. typed in the admin
    with pytest.raises(InterchangeError) as caught:
        championship_export(played)
    assert "pairs[5].number: 10000 must be 9999 or less" in caught.value.problems
    with pytest.raises(CommandError, match="would not import back"):
        run("export_championship", played.slug)


def test_the_file_limits_fit_the_columns_an_import_writes():
    from django.db.backends.base.operations import BaseDatabaseOperations

    from scoring import interchange as limits
    from tournaments.models import Board, Pair, Player, Round, Table

    assert Championship._meta.get_field("name").max_length == limits.MAX_NAME_LENGTH
    assert Championship._meta.get_field("venue").max_length == limits.MAX_NAME_LENGTH
    assert Championship._meta.get_field("slug").max_length == limits.MAX_SLUG_LENGTH
    assert Player._meta.get_field("code").max_length == limits.MAX_ID_LENGTH
    assert Player._meta.get_field("name").max_length == limits.MAX_NAME_LENGTH
    assert Result._meta.get_field("note").max_length == limits.MAX_NOTE_LENGTH
    ranges = BaseDatabaseOperations.integer_field_ranges
    for model in (Pair, Board, Round, Table):  # every number column holds 1..MAX_NUMBER
        assert ranges[model._meta.get_field("number").get_internal_type()][1] >= \
            limits.MAX_NUMBER
    assert ranges[Round._meta.get_field("draw_seed").get_internal_type()][1] >= \
        limits.MAX_DRAW_SEED
    scale = Championship._meta.get_field("scale_top")
    assert 10 ** (scale.max_digits - scale.decimal_places) == limits.MAX_SCALE
    assert scale.decimal_places == limits.SCALE_PLACES


# -- python -m scoring --public agrees with the public standings --------------------------


def test_scoring_public_on_a_mid_round_export_gives_the_public_standings(
    client, capsys, tmp_path
):
    from django.urls import reverse

    from scoring.__main__ import main as scoring_main

    c = build_championship(pairs=8, rounds=3, boards_per_round=2, drawn_rounds=3,
                           played_rounds=2, method="matchpoints")
    seatings = list(c.rounds.get(number=3).seatings.order_by("table__number"))
    board5, board6 = c.boards.get(number=5), c.boards.get(number=6)
    for i, seating in enumerate(seatings):  # board 5 complete, board 6 at table 1 only
        for board in (board5, board6) if i == 0 else (board5,):
            services.result_record(seating=seating, board=board, trump="E",
                                   ns_points_taken=20 + 9 * i + board.number,
                                   expected_version=None, acting_user=None)
    api = client.get(reverse("api_standings", args=[c.slug])).json()["standings"]
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(championship_export(c)), encoding="utf-8")
    capsys.readouterr()
    assert scoring_main([str(path), "--public"]) == 0
    public = json.loads(capsys.readouterr().out)["standings"]
    assert scoring_main([str(path)]) == 0
    everything = json.loads(capsys.readouterr().out)["standings"]

    def rows(standings):
        return [(s["rank"], s["pair"], s["total"], s["boards"], s["average"])
                for s in standings]

    assert rows(public) == rows(api)
    assert rows(everything) != rows(api)  # board 6 counts only for the organiser's view
    assert sum(s["boards"] for s in everything) == sum(s["boards"] for s in api) + 2


def test_an_import_by_a_person_is_audited_under_their_name(played):
    from tests.factories import UserFactory
    from tournaments.services.interchange import championship_import

    organiser = UserFactory(is_superuser=True)
    imported = championship_import(data=_renamed(championship_export(played), "meu"),
                                   acting_user=organiser).championship
    audits = AuditEntry.objects.filter(championship=imported, action__startswith="result.")
    assert audits.count() == 12
    assert set(audits.values_list("acting_user", flat=True)) == {organiser.pk}
    with pytest.raises(services.NotAllowedError):
        championship_import(data=_renamed(championship_export(played), "altre"),
                            acting_user=UserFactory())
    assert not Championship.objects.filter(slug="altre").exists()
