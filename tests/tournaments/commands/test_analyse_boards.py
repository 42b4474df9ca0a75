"""``manage.py analyse_boards SLUG [--round N] [--force] [--budget S]``: fills in the
double-dummy tables the close did not compute (an import, a broker that was down)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import build_championship
from tests.tournaments.dd_helpers import STORED_TABLE, fake_solver  # noqa: F401
from tournaments import services
from tournaments.models import BoardAnalysis, Championship

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Championship:
    return build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                              played_rounds=2)


def analyse(*args: str) -> str:
    out = StringIO()
    call_command("analyse_boards", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def analysed_boards(championship: Championship) -> list[int]:
    return sorted(BoardAnalysis.objects.filter(board__championship=championship)
                  .values_list("board__number", flat=True))


def test_one_round_then_the_rest_each_board_once(played, fake_solver) -> None:  # noqa: F811
    out = analyse(played.slug, "--round", "1")
    assert analysed_boards(played) == [1, 2]
    assert "board 1: O 30 · C 41 · E 52 · B 20 · botifarra 36 (par E: NS 52)" in out
    assert "2 boards analysed" in out
    out = analyse(played.slug)
    assert analysed_boards(played) == [1, 2, 3, 4]
    assert "2 boards analysed" in out and "2 already current" in out
    assert len(fake_solver) == 4
    out = analyse(played.slug, "--force")
    assert "4 boards analysed" in out and len(fake_solver) == 8
    assert BoardAnalysis.objects.get(board__championship=played,
                                     board__number=4).table == STORED_TABLE


def test_a_budget_leaves_boards_for_another_run(played, fake_solver) -> None:  # noqa: F811
    out = analyse(played.slug, "--budget", "0")
    assert "0 boards analysed" in out and "Left for another run: boards 1, 2, 3, 4." in out
    assert analysed_boards(played) == [] and fake_solver == []


def test_an_imported_championship_gets_its_tables(played, fake_solver) -> None:  # noqa: F811
    imported = services.championship_import(
        data=services.championship_export(played), acting_user=None).championship
    assert imported.pk != played.pk and analysed_boards(imported) == []
    analyse(imported.slug)
    assert analysed_boards(imported) == [1, 2, 3, 4] and analysed_boards(played) == []


@pytest.mark.parametrize("args,message", [
    (["no-such-slug"], "no championship with the slug 'no-such-slug'"),
    (["{slug}", "--round", "9"], "the championship has no round 9"),
    (["{slug}", "--budget", "-1"], "--budget must be 0 or more seconds"),
    (["{slug}", "--budget", "nan"], "--budget must be 0 or more seconds"),
])
def test_bad_input_is_a_clear_error(played, fake_solver, args, message) -> None:  # noqa: F811
    with pytest.raises(CommandError, match=message):
        analyse(*[a.format(slug=played.slug) for a in args])
    assert fake_solver == []
