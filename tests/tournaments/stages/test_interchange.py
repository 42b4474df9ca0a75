"""A championship in groups then a knockout through the interchange file: its stages,
groups, qualified pairs and bracket are exported, imported back as they were (export,
import, export gives the same file), and ``python -m scoring`` on the exported file
finds the same group winners and the same champion as the web app's read model."""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from scoring.__main__ import main
from tests.tournaments.stages.conftest import Staged, make_staged, play_round
from tournaments import services
from tournaments.models import Round, Stage
from tournaments.selectors.stages import bracket_view, groups_view

pytestmark = pytest.mark.django_db


def played(pairs: int = 12, **options: Any) -> Staged:
    """Groups of 4 pairs (3 rounds) then a knockout, every game in."""
    staged = make_staged(pairs, **options)
    total = Round.objects.filter(championship=staged.championship).count()
    for number in range(1, total + 1):
        play_round(staged, number, seed=11)
    return staged


def same_file(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    out["championship"].pop("slug")
    out["championship"].pop("name")
    return out


def scored(tmp_path: Path, document: dict[str, Any], *args: str) -> tuple[int, str, str]:
    path = tmp_path / "staged.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([str(path), *args])
    return status, out.getvalue(), err.getvalue()


def test_a_staged_championship_round_trips_and_scores_as_the_web_app(tmp_path: Path) -> None:
    """One played championship for the round trip and the scorer (12 pairs in 3 groups,
    the winners and the best second through, a third-place match)."""
    staged = played(12, groups=3, per_group=1, second_chance=1, third_place=True)
    exported = services.championship_export(staged.championship)
    stages = exported["stages"]
    assert [(s["kind"], s["rounds"]) for s in stages] == [
        ("groups", [1, 2, 3]), ("knockout", [4, 5])]
    groups, knockout = stages
    db_groups = Stage.objects.get(championship=staged.championship, kind="groups")
    assert groups["groups"] == db_groups.groups and groups["qualified"] == db_groups.qualified
    assert [q["how"] for q in groups["qualified"]] == ["group"] * 3 + ["second_chance"]
    assert knockout["bracket"]["third_place"] is True
    assert len(knockout["bracket"]["positions"]) == 4
    assert groups["qualified_agrees"] is True
    view = bracket_view(staged.championship)
    assert view is not None and view.champion is not None and view.third is not None
    assert knockout["champion"] == view.champion.number
    assert knockout["third"] == view.third.number

    imported = services.championship_import(data=exported, acting_user=None).championship
    again = services.championship_export(imported)
    assert same_file(again) == same_file(exported)
    copies = list(Stage.objects.filter(championship=imported).order_by("number"))
    assert [(s.kind, s.is_started) for s in copies] == [("groups", True), ("knockout", True)]
    assert [(r.number, r.stage.kind if r.stage else None, r.stage_round) for r in
            Round.objects.filter(championship=imported).order_by("number")] == [
        (1, "groups", 1), (2, "groups", 2), (3, "groups", 3),
        (4, "knockout", 1), (5, "knockout", 2)]
    # The read model finds the same groups and the same champion in the copy.
    copy_view = bracket_view(imported)
    copy_groups = groups_view(imported)
    assert copy_view is not None and copy_view.champion is not None
    assert copy_view.champion.number == view.champion.number
    assert copy_groups is not None
    assert [q.pair for q in copy_groups.qualified] == [q["pair"] for q in groups["qualified"]]

    # python -m scoring on the exported file: the games give the same qualification
    # and the same champion.
    status, out, err = scored(tmp_path, exported)
    assert status == 0 and err == ""
    printed = json.loads(out)["stages"]
    assert printed[1]["champion"] == view.champion.number
    assert printed[0]["qualification"] == groups["qualified"]
    original = groups_view(staged.championship)
    assert original is not None
    for table, group in zip(original.groups, printed[0]["group_standings"], strict=True):
        assert [r.number for r in table.rows] == [line["pair"] for line in group["standings"]]
        assert [r.qualified for r in table.rows] == [
            line["qualified"] for line in group["standings"]]
    status, out, _err = scored(tmp_path, exported, "--format", "table")
    assert status == 0
    champion = view.champion
    assert f"Champion: {champion.number} {champion.player1} – {champion.player2}\n" in out
    assert out.count("\nGroup ") == 3 and "\nFinal\n" in out and "Third place" in out

    # A file whose stored qualified pairs are not the games': said on stderr, scored.
    edited = copy.deepcopy(exported)
    first, second = edited["stages"][0]["qualified"][:2]
    edited["stages"][0]["qualified"][:2] = [second, first]
    status, out, err = scored(tmp_path, edited)
    assert status == 0
    assert err.startswith("warning: stages[0].qualified: the file qualifies pairs ")
    assert json.loads(out)["stages"][0]["qualified_agrees"] is False


def test_a_championship_exported_mid_groups_is_played_on_after_the_import() -> None:
    """Exported after two group rounds (no qualification nor bracket yet), imported, and
    played to the end on the copy: the groups fixed in the file are the ones played, the
    knockout starts from them, and the copy's file scores the same champion."""
    staged = make_staged(8, groups=2, per_group=2)
    for number in (1, 2):
        play_round(staged, number, seed=5)
    exported = services.championship_export(staged.championship)
    groups, knockout = exported["stages"]
    assert "qualified" not in groups and "bracket" not in knockout
    assert (groups["games_in"], groups["games_due"]) == (8, 12)
    imported = services.championship_import(data=exported, acting_user=None).championship
    assert same_file(services.championship_export(imported)) == same_file(exported)
    copies = list(Stage.objects.filter(championship=imported).order_by("number"))
    assert [(s.kind, s.is_started) for s in copies] == [("groups", True), ("knockout", False)]
    copy_staged = Staged(imported, staged.organiser, staged.organiser, copies)
    for number in (3, 4, 5):
        play_round(copy_staged, number, seed=5)
    final = services.championship_export(imported)
    assert final["stages"][0]["groups"] == groups["groups"]
    assert [q["pair"] for q in final["stages"][0]["qualified"]] == [
        q["pair"] for q in final["stages"][0]["qualification"]]
    view = bracket_view(imported)
    assert view is not None and view.champion is not None
    assert final["stages"][1]["champion"] == view.champion.number
