"""``manage.py demo --finals``: a duplicate championship with a qualifying stage and
finals by its standings, played by the bots through the services; its options' errors."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.dd_helpers import fake_solver  # noqa: F401
from tournaments.models import Championship, Result, Round, Seating, Stage
from tournaments.selectors.finals import finals_view

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _stand_in_solver(fake_solver):  # type: ignore[no-untyped-def]  # noqa: F811
    return fake_solver


def run_demo(*args: str) -> str:
    out = StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def test_demo_with_finals_plays_a_qualifying_stage_then_each_final() -> None:
    """12 pairs, 3 + 2 rounds of 2 boards played by the bots (about 3 s; slow on a
    loaded machine)."""
    out = run_demo("--pairs", "12", "--finals", "A:4,B:4", "--boards-per-round", "2",
                   "--analysis-budget", "0")
    c = Championship.objects.get(slug="demo-finals")
    stages = list(Stage.objects.filter(championship=c).order_by("number"))
    assert [(s.kind, s.carry_over, s.carry_over_percent) for s in stages] == [
        ("swiss", "none", 0), ("finals", "percent", 50)]
    assert [(r.stage.number if r.stage else None, r.stage_round) for r in
            Round.objects.filter(championship=c).order_by("number")] == [
        (1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]
    assert not Round.objects.filter(championship=c, closed_at__isnull=True).exists()
    view = finals_view(c)
    assert view is not None
    assert [(f.name, len(f.rows)) for f in view.finals] == [("A", 4), ("B", 4)]
    assert len(view.outside) == 4
    for n in (4, 5):  # the finals' rounds: 2 tables a final, every board played
        assert Seating.objects.filter(round__championship=c, round__number=n).count() == 4
        assert Result.objects.filter(seating__round__championship=c,
                                     seating__round__number=n).count() == 8
    for final in view.finals:
        assert all(row.boards == 4 for row in final.rows)
        assert f"Final {final.name} (4 parelles): 1. {final.rows[0].pair.number}" in out


@pytest.mark.parametrize(("args", "named"), [
    (["--finals", "A16"], "--finals 'A16'"),
    (["--finals", "A:16,B"], "--finals 'A:16,B'"),
    (["--finals", "A:x"], "--finals 'A:x'"),
    (["--finals", "A:1"], "--finals 'A:1'"),
    (["--finals", "A:4,A:4"], "--finals 'A:4,A:4'"),
    (["--finals", ":4"], "--finals ':4'"),
    (["--pairs", "10", "--finals", "A:8,B:4"], "--finals 'A:8,B:4'"),
    (["--finals", "A:4", "--finals-rounds", "0"], "--finals-rounds 0"),
    (["--finals", "A:4", "--carry-over-percent", "101"], "--carry-over-percent 101"),
    (["--finals-rounds", "2"], "--finals-rounds"),
    (["--format", "classic", "--finals", "A:4"], "--finals"),
])
def test_bad_finals_options_end_with_one_line_naming_the_option(
    args: list[str], named: str,
) -> None:
    with pytest.raises(CommandError) as caught:
        run_demo(*args)
    message = str(caught.value)
    assert message.startswith(named), message
    assert "\n" not in message
    assert not Championship.objects.exists()


def test_demo_of_40_pairs_with_finals_a16_b16() -> None:
    """Slow (about 15 s): the documented shape, 40 pairs, 3 + 2 rounds of 6 boards."""
    out = run_demo("--pairs", "40", "--finals", "A:16,B:16", "--analysis-budget", "0")
    c = Championship.objects.get(slug="demo-finals")
    view = finals_view(c)
    assert view is not None
    assert [(f.name, len(f.rows)) for f in view.finals] == [("A", 16), ("B", 16)]
    assert len(view.outside) == 8
    assert Result.objects.filter(seating__round__championship=c).count() == (
        3 * 20 + 2 * 16) * 6
    assert "Final B (16 parelles)" in out
