"""``manage.py demo``: the expected shape, realistic results through the services, and
idempotence (a second run says it exists; ``--reset`` rebuilds)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests.tournaments.dd_helpers import fake_solver  # noqa: F401
from tournaments import selectors
from tournaments.models import (
    AuditEntry,
    Board,
    BoardAnalysis,
    Championship,
    Pair,
    Result,
    Round,
    Seating,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _stand_in_solver(fake_solver):  # type: ignore[no-untyped-def]  # noqa: F811
    """The demo analyses its closed rounds' boards: about 10 s each with the real solver."""
    return fake_solver


def run_demo(*args):
    out = StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def test_demo_builds_24_pairs_12_tables_4_rounds_of_6_boards_with_round_4_half_played():
    out = run_demo()
    c = Championship.objects.get(slug="demo")
    assert Pair.objects.filter(championship=c).count() == 24
    assert Round.objects.filter(championship=c).count() == 4
    assert Board.objects.filter(championship=c, deal__isnull=False).count() == 24
    assert c.deal_commitment and c.status == Championship.Status.RUNNING
    for number in (1, 2, 3, 4):
        assert Seating.objects.filter(round__championship=c, round__number=number).count() == 12
    per_round = {
        n: Result.objects.filter(seating__round__championship=c, seating__round__number=n)
        .count()
        for n in (1, 2, 3, 4)
    }
    assert per_round == {1: 72, 2: 72, 3: 72, 4: 36}
    assert list(Round.objects.filter(championship=c, closed_at__isnull=False)
                .values_list("number", flat=True)) == [1, 2, 3]
    results = Result.objects.filter(seating__round__championship=c)
    assert results.filter(infraction__isnull=False).count() == 2
    assert results.filter(adjusted_ns__isnull=False).count() == 1
    assert results.filter(contro=True).exists()
    assert len(set(results.values_list("trump", flat=True))) >= 3
    assert AuditEntry.objects.filter(championship=c, action__startswith="result.").count() == 252
    # Round 4: boards 19-20 played everywhere, 21-22 at half the tables, 23-24 nowhere.
    assert selectors.public_board_numbers(c) == set(range(1, 21))
    view = selectors.standings(c)
    assert (view.progress.results_in, view.progress.results_expected) == (252, 288)
    assert "organitzador / organitzador-demo" in out and "arbitre / arbitre-demo" in out
    assert "http://127.0.0.1:8000/" in out
    assert get_user_model().objects.filter(username__in=["organitzador", "arbitre"]).count() == 2
    organiser = get_user_model().objects.get(username="organitzador")
    assert selectors.user_is_organiser(organiser, c)
    assert organiser.has_perm("tournaments.add_championship")
    assert not get_user_model().objects.get(username="arbitre").has_perm(
        "tournaments.add_championship")


def test_demo_twice_says_it_exists_and_reset_rebuilds_it():
    run_demo()
    first = Championship.objects.get(slug="demo")
    out = run_demo()
    assert "ja existeix" in out
    assert Championship.objects.get(slug="demo").pk == first.pk
    run_demo("--reset")
    rebuilt = Championship.objects.get(slug="demo")
    assert rebuilt.pk != first.pk
    assert Championship.objects.count() == 1
    assert Result.objects.count() == 252


def test_demo_stores_the_double_dummy_tables_of_the_closed_rounds(fake_solver) -> None:  # noqa: F811
    out = run_demo()
    c = Championship.objects.get(slug="demo")
    analysed = sorted(BoardAnalysis.objects.filter(board__championship=c)
                      .values_list("board__number", flat=True))
    assert analysed == list(range(1, 19))  # rounds 1-3; round 4 is not closed
    assert len(fake_solver) == 18
    assert "Anàlisi a cartes vistes: 18 taulers" in out


def test_demo_without_analysis_budget_stores_none_and_a_second_run_fills_the_gap() -> None:
    out = run_demo("--analysis-budget", "0")
    assert not BoardAnalysis.objects.exists() and "cartes vistes" not in out
    out = run_demo()
    assert "ja existeix" in out and "Anàlisi a cartes vistes: 18 taulers" in out
    assert BoardAnalysis.objects.count() == 18


@pytest.mark.parametrize(("args", "named"), [
    (["--pairs", "1"], "--pairs 1"),
    (["--pairs", "-3"], "--pairs -3"),
    (["--pairs", "10000"], "--pairs 10000"),
    (["--rounds", "0"], "--rounds 0"),
    (["--rounds", "-2"], "--rounds -2"),
    (["--rounds", "101"], "--rounds 101"),
    (["--boards-per-round", "0"], "--boards-per-round 0"),
    (["--boards-per-round", "-1"], "--boards-per-round -1"),
    (["--pairs", "6", "--rounds", "6", "--movement", "round-robin"], "--rounds 6"),
    (["--play-rounds", "-1"], "--play-rounds -1"),
    (["--rounds", "2", "--play-rounds", "3"], "--play-rounds 3"),
    (["--withdraw=-1@2"], "--withdraw '-1@2'"),
    (["--withdraw", "30@1"], "--withdraw '30@1'"),
    (["--rounds", "3", "--withdraw", "5@3"], "--withdraw '5@3'"),
    (["--withdraw", "5@0"], "--withdraw '5@0'"),
    (["--withdraw", "5@1", "--withdraw", "5@2"], "--withdraw '5@2'"),
    (["--pairs", "3", "--withdraw", "1@1", "--withdraw", "2@1"], "--withdraw '2@1'"),
    (["--slug", "No Val"], "--slug 'No Val'"),
    (["--slug", "x" * 101], "--slug"),
    (["--analysis-budget", "-1"], "--analysis-budget"),
    (["--analysis-budget", "nan"], "--analysis-budget"),
])
def test_impossible_options_end_with_one_line_naming_the_option(args, named) -> None:
    with pytest.raises(CommandError) as caught:
        run_demo(*args)
    message = str(caught.value)
    assert message.startswith(named), message
    assert "\n" not in message
    assert not Championship.objects.exists()


def test_a_refused_option_prints_one_line_and_no_traceback(tmp_path) -> None:
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "manage.py", "demo", "--boards-per-round", "0", "--skip-checks"],
        capture_output=True, text=True,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "CommandError: --boards-per-round 0: must be between 1 and 100"
    ]
