"""What a print request costs and who sees it: reuse of done public jobs while the results
are unchanged, a bound on the jobs kept, the form's defaults, Catalan refusals, rounds."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory, build_championship
from tests.tournaments.reports.pdfcheck import page_texts
from tournaments import selectors, services
from tournaments.models import Board, Membership, PrintJob, Round
from tournaments.numbers import comparative_out
from tournaments.reports import build
from tournaments.reports import services as jobs
from tournaments.reports.render import render


@pytest.fixture
def media(tmp_path: Path, settings: object) -> Path:
    settings.MEDIA_ROOT = tmp_path  # type: ignore[attr-defined]
    return tmp_path


@pytest.fixture
def played(db: None):  # type: ignore[no-untyped-def]
    """8 pairs (4 tables), 3 rounds of 2 boards; rounds 1-2 played, round 3 drawn only."""
    return build_championship(pairs=8, rounds=3, boards_per_round=2, drawn_rounds=3,
                              played_rounds=2)


@pytest.fixture
def organiser(played):  # type: ignore[no-untyped-def]
    user = UserFactory(username="org-bounds")
    user.save()
    services.membership_grant(championship=played, user=user,
                              role=Membership.Role.ORGANISER, acting_user=None)
    return user


def _record_one_result_in_round_3(championship: object) -> None:
    rnd3 = Round.objects.get(championship=championship, number=3)
    board = Board.objects.filter(round=rnd3).order_by("number").first()
    seating = rnd3.seatings.order_by("table__number").first()
    services.result_record(seating=seating, board=board, trump="O", ns_points_taken=40,
                           expected_version=None, acting_user=None)


# ------------------------------------------------------------------ reuse and bound


def test_a_public_request_reuses_the_done_job_until_a_result_changes(
    played, media, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first, created = jobs.print_job_request(championship=played, kind="travellers",
                                                acting_user=AnonymousUser())
    first.refresh_from_db()
    assert created and first.status == PrintJob.Status.DONE
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            again, created_again = jobs.print_job_request(
                championship=played, kind="travellers", acting_user=AnonymousUser()
            )
        assert again.pk == first.pk and not created_again and callbacks == []
    assert PrintJob.objects.count() == 1
    assert len(list(Path(media, "reports").iterdir())) == 1

    _record_one_result_in_round_3(played)
    with django_capture_on_commit_callbacks(execute=True):
        newer, created_newer = jobs.print_job_request(championship=played, kind="travellers",
                                                      acting_user=AnonymousUser())
    assert created_newer and newer.pk != first.pk


def test_a_deleted_result_also_counts_as_a_change(played, media) -> None:  # type: ignore[no-untyped-def]
    before = jobs.results_state(played)
    assert jobs.results_state(played) == before  # stable while nothing changes
    _record_one_result_in_round_3(played)
    after_record = jobs.results_state(played)
    assert after_record != before
    result = Board.objects.get(championship=played, number=5).results.get()
    services.result_delete(result=result, expected_version=result.version, acting_user=None)
    assert jobs.results_state(played) not in (before, after_record)


def test_board_sheets_are_never_reused_from_a_done_job(played, organiser, media) -> None:  # type: ignore[no-untyped-def]
    job, _ = jobs.print_job_request(championship=played, kind="board-sheets", round_number=1,
                                    acting_user=organiser)
    assert jobs.print_job_run(job_id=job.pk).status == PrintJob.Status.DONE
    again, created = jobs.print_job_request(championship=played, kind="board-sheets",
                                            round_number=1, acting_user=organiser)
    assert created and again.pk != job.pk


def _done_job(championship: object, kind: str, minutes_ago: int) -> PrintJob:
    job = PrintJob.objects.create(championship=championship, kind=kind,
                                  status=PrintJob.Status.FAILED,
                                  finished_at=timezone.now() - timedelta(minutes=minutes_ago))
    name = default_storage.save(f"reports/old-{job.pk}.pdf",
                                __import__("io").BytesIO(b"%PDF-1.4"))
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.DONE, file=name)
    job.refresh_from_db()
    return job


def test_only_the_newest_finished_jobs_of_a_kind_are_kept_with_their_files(
    played, media  # type: ignore[no-untyped-def]
) -> None:
    old = [_done_job(played, "standings", minutes_ago=100 - n) for n in range(5)]
    other_kind = _done_job(played, "travellers", minutes_ago=500)
    queued = PrintJob.objects.create(championship=played, kind="standings",
                                     requested_at=timezone.now() - timedelta(days=1))
    assert jobs.print_jobs_prune(championship_id=played.pk, kind="standings", keep=3) == 2
    kept = set(PrintJob.objects.filter(kind="standings").values_list("pk", flat=True))
    assert kept == {old[2].pk, old[3].pk, old[4].pk, queued.pk}
    assert not default_storage.exists(old[0].file.name)
    assert not default_storage.exists(old[1].file.name)
    assert default_storage.exists(old[2].file.name)
    assert PrintJob.objects.filter(pk=other_kind.pk).exists()


def test_finishing_a_job_prunes_its_kind_down_to_the_bound(
    played, media, monkeypatch  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setattr(jobs, "KEEP_FINISHED", 2)
    older = [_done_job(played, "standings", minutes_ago=60 - n) for n in range(3)]
    job, created = jobs.print_job_request(championship=played, kind="standings",
                                          acting_user=None)
    assert created
    assert jobs.print_job_run(job_id=job.pk).status == PrintJob.Status.DONE
    left = set(PrintJob.objects.filter(kind="standings").values_list("pk", flat=True))
    assert left == {job.pk, older[2].pk}


# ------------------------------------------------------------------ who sees what


def test_anonymous_visitors_see_only_public_jobs_and_no_usernames(
    played, organiser, media, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        sheets, _ = jobs.print_job_request(championship=played, kind="board-sheets",
                                           round_number=1, acting_user=organiser)
        standings, _ = jobs.print_job_request(championship=played, kind="standings",
                                              acting_user=organiser)
    assert [j.pk for j in jobs.jobs_for(played, AnonymousUser())] == [standings.pk]
    assert {j.pk for j in jobs.jobs_for(played, organiser)} == {sheets.pk, standings.pk}

    url = reverse("print_jobs", args=[played.slug])
    page = Client().get(url).content.decode()
    assert reverse("print_job_download", args=[played.slug, standings.pk]) in page
    assert reverse("print_job_download", args=[played.slug, sheets.pk]) not in page
    assert "org-bounds" not in page
    assert 'name="copies"' not in page  # only for whoever may print board sheets
    assert re.search(r'name="round_number" value="0"', page)  # every round, by default
    assert "Fulls de mans i actes de taula" not in page  # help only for what it may print
    organiser_client = Client()
    organiser_client.force_login(organiser)
    assert "org-bounds" in organiser_client.get(url).content.decode()
    download = Client().get(reverse("print_job_download", args=[played.slug, sheets.pk]))
    assert download.status_code == 403


# ------------------------------------------------------------------ the form


def test_the_form_proposes_the_latest_drawn_round_and_one_copy_per_table(db: None) -> None:
    none_drawn = build_championship(pairs=4, rounds=2, drawn_rounds=0)
    assert jobs.request_defaults(none_drawn) == jobs.RequestDefaults(round_number=1, copies=1)
    two_drawn = build_championship(pairs=8, rounds=3, drawn_rounds=2, seed=3)
    assert jobs.request_defaults(two_drawn) == jobs.RequestDefaults(round_number=2, copies=4)


def test_pressing_the_button_at_once_prints_the_board_sheets_of_the_latest_round(
    played, organiser, media, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
) -> None:
    client = Client()
    client.force_login(organiser)
    url = reverse("print_jobs", args=[played.slug])
    response = client.get(url)
    page = response.content.decode()
    # Each document its own form, asking only what it needs: the board sheets' round is
    # the latest drawn, its copies blank (one per table of the round).
    sheets = page[page.index('id="print-board-sheets"'):page.index('id="print-entry-forms"')]
    assert re.search(r'name="round_number" value="3"', sheets)
    assert re.search(r'<input[^>]*name="copies"(?![^>]*value=)', sheets)
    assert "En blanc: una per taula de la ronda." in sheets
    standings = page[page.index('id="print-standings"'):page.index('id="print-travellers"')]
    assert "Després de la ronda" in standings and "copies" not in standings
    assert "0 = totes les rondes" in standings
    (form,) = [f for kind, _reason, f in response.context["documents"]
               if kind.value == "board-sheets"]
    data = {name: form[name].value() for name in form.fields}
    assert data["kind"] == "board-sheets" and data["copies"] is None
    data = {name: value for name, value in data.items() if value is not None}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, data)
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert (job.kind, job.round_number, job.copies, job.status) == (
        "board-sheets", 3, 4, PrintJob.Status.DONE
    )


def test_a_board_sheet_request_without_a_round_is_refused_in_catalan(played, organiser) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(organiser)
    response = client.post(reverse("print_jobs", args=[played.slug]),
                           {"kind": "board-sheets", "round_number": 0, "copies": 1,
                            "per_page": 1})
    page = response.content.decode()
    assert response.status_code == 200 and not PrintJob.objects.exists()
    assert "Fulls de mans: cal dir quina ronda (1 o més)." in page
    assert "say which round" not in page


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "posters"}, "«posters» no és cap tipus de document"),
        ({"kind": "entry-forms"}, "Actes de taula: cal dir quina ronda"),
        ({"kind": "travellers", "round_number": 9}, "no té cap ronda 9"),
        ({"kind": "board-sheets", "round_number": 1, "per_page": 2}, "n'hi pot haver 1 o 4"),
        ({"kind": "board-sheets", "round_number": 1, "copies": 501}, "d'1 a 500"),
        ({"kind": "standings", "round_number": -1}, "el número de ronda és 1 o més"),
    ],
)
def test_every_refusal_says_what_is_wrong_in_catalan(played, kwargs, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(jobs.BadPrintRequest, match=re.escape(message)):
        jobs.print_job_request(championship=played, acting_user=None, **kwargs)


def test_printing_what_reveals_the_deals_is_refused_in_catalan(played) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(jobs.PrintNotAllowed, match="només l'organitzador i l'àrbitre"):
        jobs.print_job_request(championship=played, kind="board-sheets", round_number=1,
                               acting_user=AnonymousUser())


# ------------------------------------------------------------------ rounds


def test_score_cards_with_a_round_count_rounds_one_to_that_round(played, media) -> None:  # type: ignore[no-untyped-def]
    document = build.score_cards(played, through_round=1)
    after_1 = {row.pair.number: row.total
               for row in selectors.standings(played, through_round=1).rows}
    rules = played.scoring_rules()
    assert document.through_round == 1 and len(document.cards) == 8
    for card in document.cards:
        assert [row.round for row in card.rows] == [1, 1]
        assert card.total == comparative_out(after_1[card.pair], rules)
    job, _ = jobs.print_job_request(championship=played, kind="score-cards", round_number=1,
                                    acting_user=None)
    job = jobs.print_job_run(job_id=job.pk)
    assert job.round_number == 1 and job.status == PrintJob.Status.DONE
    text = page_texts(default_storage.open(job.file.name).read())[0]
    assert "després de la ronda 1" in text
    everything = page_texts(render(build.score_cards(played)))[0]
    assert "fins a la ronda" not in everything
