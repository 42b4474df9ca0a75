"""Documents built from the database, and print jobs run in-process (eager Celery)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.storage import default_storage

from engine.cards import SUIT_ORDER
from engine.deal import Deal
from engine.seats import Seat
from tests.factories import UserFactory, build_championship
from tests.tournaments.reports.pdfcheck import page_texts, save_png, text_outside_page, words
from tournaments import selectors, services
from tournaments.models import Board, Membership, PrintJob, Round
from tournaments.numbers import comparative_out
from tournaments.reports import build
from tournaments.reports import services as jobs
from tournaments.reports.documents import Kind
from tournaments.reports.pdf import fmt_points
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


def _suit_text(hand: tuple, suit: object) -> str:
    return " ".join(str(c.rank) for c in hand if c.suit is suit)


def test_board_sheets_hands_match_the_deals_in_the_database_exactly(played) -> None:  # type: ignore[no-untyped-def]
    document = build.board_sheets(played, round_number=3, copies=2)
    data = render(document)
    texts = page_texts(data)
    boards = list(Board.objects.filter(championship=played, round__number=3).order_by("number"))
    assert len(texts) == len(boards) * 2
    for index, text in enumerate(texts):
        board = boards[index // 2]
        deal = Deal.from_json(board.deal)
        assert f"Tauler {board.number}" in text
        assert played.name in text
        for seat in Seat:
            for suit in SUIT_ORDER:
                ranks = _suit_text(deal[seat], suit)
                if ranks:  # a long suit may wrap onto the next line
                    assert ranks in " ".join(text.split()), (board.number, seat, suit)
    assert text_outside_page(data) == []
    save_png(data, "db-board-sheets")


def test_entry_forms_have_a_page_per_table_with_both_pairs_and_every_board(played) -> None:  # type: ignore[no-untyped-def]
    document = build.entry_forms(played, round_number=1)
    data = render(document)
    texts = page_texts(data)
    assert len(texts) == 4
    pairs = selectors.pairs_by_number(played)
    for form, text in zip(document.forms, texts, strict=True):
        assert f"Taula {form.table}" in text
        assert pairs[form.ns_pair].player1.name in text
        assert pairs[form.ew_pair].player2.name in text
        for board in form.boards:
            assert str(board.board) in words(text)
    assert text_outside_page(data) == []
    save_png(data, "db-entry-forms")


def test_standings_pdf_shows_the_same_numbers_as_the_standings_page(played) -> None:  # type: ignore[no-untyped-def]
    """Totals, averages and percentages as the standings page writes them (the one read
    model's texts: the same decimals down a column, decimal comma)."""
    from django.utils import translation

    with translation.override("ca"):
        view = selectors.standings(played, for_public=True)
    data = render(build.standings(played))
    texts = page_texts(data)
    first = " ".join(words(texts[0]))
    assert "Classificació Posició Parella" in first  # the overall table, as on the web
    for row in view.rows:
        line = " ".join([str(row.rank), str(row.pair.number), row.pair.player1])
        assert line in first, line
        assert (f"{row.total_text} {row.boards} {row.average_text} {row.percent_text}"
                in first), row.pair.number
    assert any("," in row.average_text for row in view.rows)
    # Overall, then after round 1 and after round 2.
    assert any("Classificació · després de la ronda 1" in t for t in texts)
    assert any("Classificació · després de la ronda 2" in t for t in texts)
    progress = view.progress
    assert f"Resultats: {progress.results_in} de {progress.results_expected}" in first
    assert text_outside_page(data) == []
    save_png(data, "db-standings")


def test_printed_standings_leave_out_a_hidden_board_but_count_it_in_progress(played) -> None:  # type: ignore[no-untyped-def]
    """Anyone may print standings: a result on a board still hidden changes no printed
    total or board count (docs/decisions.md 16), only the progress."""
    before = build.standings(played)
    rnd3 = Round.objects.get(championship=played, number=3)
    board = Board.objects.filter(round=rnd3).order_by("number").first()
    seating = rnd3.seatings.order_by("table__number").first()
    services.result_record(seating=seating, board=board, trump="O", ns_points_taken=60,
                           expected_version=None, acting_user=None)
    assert board.number not in selectors.public_board_numbers(played)

    after = build.standings(played)
    assert after.tables == before.tables
    public = selectors.standings(played, for_public=True)
    assert [(r.pair, r.boards) for r in after.tables[0].rows] == [
        (row.pair.number, row.boards) for row in public.rows
    ]
    assert after.progress == f"{public.progress.results_in}/{public.progress.results_expected}"
    assert after.progress != before.progress


def test_printed_standings_after_a_round_count_the_results_of_those_rounds(played) -> None:  # type: ignore[no-untyped-def]
    # A result of round 3 is in: the standings after round 1 do not count it.
    rnd3 = Round.objects.get(championship=played, number=3)
    services.result_record(seating=rnd3.seatings.order_by("table__number").first(),
                           board=Board.objects.filter(round=rnd3).order_by("number").first(),
                           trump="O", ns_points_taken=60, expected_version=None,
                           acting_user=None)
    printed = build.standings(played, through_round=1)
    web = selectors.standings(played, through_round=1, for_public=True).progress
    assert printed.progress == f"{web.results_in}/{web.results_expected}"
    whole = selectors.standings(played, for_public=True).progress
    assert printed.progress != f"{whole.results_in}/{whole.results_expected}"


def test_travellers_and_score_cards_never_show_a_hidden_board(played) -> None:  # type: ignore[no-untyped-def]
    # Round 3 gets one result on its first board: that board stays hidden (3 tables missing).
    rnd3 = Round.objects.get(championship=played, number=3)
    board = Board.objects.filter(round=rnd3).order_by("number").first()
    seating = rnd3.seatings.order_by("table__number").first()
    services.result_record(seating=seating, board=board, trump="O", ns_points_taken=40,
                           expected_version=None, acting_user=None)
    public = selectors.public_board_numbers(played)
    assert board.number not in public

    travellers = build.travellers(played)
    assert [t.board for t in travellers.travellers] == sorted(public)
    data = render(travellers)
    texts = page_texts(data)
    assert not any(f"Tauler {board.number} ·" in t for t in texts)
    assert text_outside_page(data) == []
    save_png(data, "db-travellers")

    cards = build.score_cards(played)
    pair_numbers = {seating.ns_pair.number, seating.ew_pair.number}
    for card in cards.cards:
        assert board.number not in [row.board for row in card.rows]
        assert len(card.rows) == 4  # rounds 1-2, two boards each
        assert card.total == pytest.approx(sum(row.comparative for row in card.rows),
                                           abs=1e-3)  # each printed at 4 decimals
        assert card.rows[-1].running_total == pytest.approx(card.total)
    assert pair_numbers <= {card.pair for card in cards.cards}
    data = render(cards)
    assert len(page_texts(data)) == 8
    assert text_outside_page(data) == []
    save_png(data, "db-score-cards")


def test_traveller_rows_carry_the_scores_the_traveller_page_shows(played) -> None:  # type: ignore[no-untyped-def]
    board = Board.objects.get(championship=played, number=1)
    page = selectors.traveller(board.championship, board.number)
    doc = next(t for t in build.travellers(played).travellers if t.board == 1)
    assert [(r.table, r.ns_score, r.ew_score) for r in doc.rows] == [
        (row.table, row.score.ns_score, row.score.ew_score) for row in page.rows
    ]
    from django.utils import translation

    from tournaments.templatetags.botifarra import points

    with translation.override("ca"):
        web = [points(row.score.ns_comparative, played) for row in page.rows]
    assert [fmt_points(r.ns_comparative, "ca") for r in doc.rows] == web
    assert any("," in text for text in web)


def test_board_sheets_refused_when_the_boards_have_no_deal(db: None) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, generate=False)
    with pytest.raises(build.ReportError, match="encara no té repartiment"):
        build.board_sheets(championship, round_number=1)


def test_standings_build_in_a_constant_number_of_queries(
    db: None, django_assert_max_num_queries: object
) -> None:
    small = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                               played_rounds=2)
    large = build_championship(pairs=16, rounds=2, boards_per_round=2, drawn_rounds=2,
                               played_rounds=2, seed=11)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for championship in (small, large):
        with CaptureQueriesContext(connection) as ctx:
            build.standings(championship)
            build.travellers(championship)
            build.score_cards(championship)
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


# --------------------------------------------------------------------------- jobs


@pytest.fixture
def people(played):  # type: ignore[no-untyped-def]
    organiser = UserFactory(username="org-reports")
    referee = UserFactory(username="ref-reports")
    head = UserFactory(username="head-reports")
    for user, role in ((organiser, Membership.Role.ORGANISER),
                       (referee, Membership.Role.REFEREE),
                       (head, Membership.Role.HEAD_REFEREE)):
        services.membership_grant(championship=played, user=user, role=role, acting_user=None)
    return {"organiser": organiser, "referee": referee, "head": head}


def test_only_the_organiser_and_head_referee_may_print_what_reveals_deals(played, people) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import AnonymousUser

    for kind in (Kind.BOARD_SHEETS, Kind.ENTRY_FORMS):
        for who in ("referee",):
            with pytest.raises(jobs.PrintNotAllowed):
                jobs.print_job_request(championship=played, kind=kind, round_number=1,
                                       acting_user=people[who])
        with pytest.raises(jobs.PrintNotAllowed):
            jobs.print_job_request(championship=played, kind=kind, round_number=1,
                                   acting_user=AnonymousUser())
        for who in ("organiser", "head"):
            job, _created = jobs.print_job_request(championship=played, kind=kind,
                                                   round_number=1, acting_user=people[who])
            assert job.kind == kind.value
    for kind in (Kind.STANDINGS, Kind.TRAVELLERS, Kind.SCORE_CARDS):
        job, created = jobs.print_job_request(championship=played, kind=kind,
                                              acting_user=AnonymousUser())
        assert created and job.requested_by is None


def test_the_same_request_while_one_is_running_reuses_that_job(played, people) -> None:  # type: ignore[no-untyped-def]
    first, created = jobs.print_job_request(championship=played, kind="board-sheets",
                                            round_number=1, copies=4,
                                            acting_user=people["organiser"])
    again, created_again = jobs.print_job_request(championship=played, kind="board-sheets",
                                                  round_number=1, copies=4,
                                                  acting_user=people["head"])
    assert created and not created_again and again.pk == first.pk
    other, created_other = jobs.print_job_request(championship=played, kind="board-sheets",
                                                  round_number=1, copies=5,
                                                  acting_user=people["organiser"])
    assert created_other and other.pk != first.pk
    PrintJob.objects.filter(pk=first.pk).update(status=PrintJob.Status.FAILED)
    retry, created_retry = jobs.print_job_request(championship=played, kind="board-sheets",
                                                  round_number=1, copies=4,
                                                  acting_user=people["organiser"])
    assert created_retry and retry.pk != first.pk


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"kind": "posters"}, "kind"),
        ({"kind": "board-sheets"}, "round_number"),
        ({"kind": "board-sheets", "round_number": 9}, "round_number"),
        ({"kind": "board-sheets", "round_number": 1, "per_page": 2}, "per_page"),
        ({"kind": "board-sheets", "round_number": 1, "copies": 0}, "copies"),
    ],
)
def test_bad_requests_are_refused_naming_the_field(played, kwargs, field) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(jobs.BadPrintRequest) as info:
        jobs.print_job_request(championship=played, acting_user=None, **kwargs)
    assert info.value.field == field


def test_an_eager_job_runs_on_commit_and_stores_a_complete_pdf(
    played, people, media, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
) -> None:
    progress: list[int] = []
    original = jobs.print_job_progress

    def spy(*, job_id: int, percent: int, attempt: int | None = None) -> bool:
        progress.append(percent)
        return original(job_id=job_id, percent=percent, attempt=attempt)

    jobs.PROGRESS_INTERVAL, saved = 0.0, jobs.PROGRESS_INTERVAL
    jobs.print_job_progress = spy  # type: ignore[assignment]
    try:
        with django_capture_on_commit_callbacks(execute=True):
            job, created = jobs.print_job_request(
                championship=played, kind="board-sheets", round_number=1, copies=3,
                acting_user=people["organiser"],
            )
    finally:
        jobs.print_job_progress = original  # type: ignore[assignment]
        jobs.PROGRESS_INTERVAL = saved
    job.refresh_from_db()
    assert created
    assert job.status == PrintJob.Status.DONE
    assert job.progress == 100 and job.attempts == 1 and job.error == ""
    assert progress == sorted(progress) and progress and max(progress) <= 99
    assert job.results_state == jobs.results_state(played)
    assert job.file.name.startswith(f"reports/{played.slug}-board-sheets-r1-{job.pk}-1-")
    data = default_storage.open(job.file.name).read()
    assert len(page_texts(data)) == 2 * 3
    assert not list(Path(media, "reports").glob(".part-*"))


def test_a_job_that_cannot_be_built_ends_failed_with_the_reason(
    db: None, media: Path, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, generate=False)
    # A request is refused up front now (jobs.print_job_request says the boards are not
    # generated); a job queued before the boards went missing still fails with the reason.
    with pytest.raises(jobs.BadPrintRequest, match="encara no s'han generat"):
        jobs.print_job_request(championship=championship, kind="board-sheets",
                               round_number=1, acting_user=None)
    job = PrintJob.objects.create(championship=championship, kind="board-sheets",
                                  round_number=1)
    jobs.print_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "encara no té repartiment" in job.error
    assert not job.file


def test_a_job_already_done_is_not_run_again(played, media) -> None:  # type: ignore[no-untyped-def]
    job, _ = jobs.print_job_request(championship=played, kind="standings", acting_user=None)
    assert jobs.print_job_run(job_id=job.pk).status == PrintJob.Status.DONE
    assert jobs.print_job_run(job_id=job.pk) is None
    job.refresh_from_db()
    assert job.attempts == 1


def test_a_finished_job_is_never_marked_done_twice_or_without_its_file(played, media) -> None:  # type: ignore[no-untyped-def]
    job, _ = jobs.print_job_request(championship=played, kind="standings", acting_user=None)
    assert jobs.print_job_finish(job_id=job.pk, name="x.pdf") is False  # queued, not running
    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED and not job.file


def test_a_request_does_not_wait_on_a_job_abandoned_long_ago(played) -> None:  # type: ignore[no-untyped-def]
    from django.utils import timezone

    old, _ = jobs.print_job_request(championship=played, kind="standings", acting_user=None)
    PrintJob.objects.filter(pk=old.pk).update(
        requested_at=timezone.now() - jobs.STALE_AFTER - jobs.timedelta(seconds=1)
    )
    new, created = jobs.print_job_request(championship=played, kind="standings",
                                          acting_user=None)
    old.refresh_from_db()
    assert created and new.pk != old.pk
    assert old.status == PrintJob.Status.FAILED and "Abandonat" in old.error


def test_an_unreachable_broker_fails_the_job_not_the_page(played, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from kombu.exceptions import OperationalError

    from tournaments import enqueue

    def down(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(enqueue, "send", down)
    job, _ = jobs.print_job_request(championship=played, kind="standings", acting_user=None)
    jobs._enqueue(job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and "cua de treballs" in job.error


def test_standings_of_one_round_are_the_standings_after_that_round(played) -> None:  # type: ignore[no-untyped-def]
    document = build.standings(played, through_round=1)
    assert [t.through_round for t in document.tables] == [1]
    view = selectors.standings(played, through_round=1)
    assert [(r.pair, r.total) for r in document.tables[0].rows] == [
        (row.pair.number, comparative_out(row.total, played.scoring_rules()))
        for row in view.rows
    ]
    assert "després de la ronda 1" in page_texts(render(document))[0]


def test_the_header_gives_the_date_as_catalan_writes_it_and_a_rules_summary(played) -> None:  # type: ignore[no-untyped-def]
    header = build.header(played)
    assert header.date == "29/11/2026"
    assert header.championship == played.name and header.language == "ca"
    assert "Proporcional 1-2" in header.rules_summary


def test_matchpoint_travellers_and_score_cards_ignore_results_on_a_hidden_board(db: None) -> None:
    """Under matchpoints a board's points depend on Neuberg's E (the most regular results
    on any board). Board 1 is complete with two referee averages (two regular results),
    board 2 is still hidden: three results entered there must not move board 1's printed
    figures, which are public."""
    c = build_championship(pairs=8, rounds=1, boards_per_round=2, drawn_rounds=1,
                           method="matchpoints")
    rnd = Round.objects.get(championship=c, number=1)
    board1, board2 = Board.objects.filter(round=rnd).order_by("number")
    seatings = list(rnd.seatings.order_by("table__number"))
    for i, seating in enumerate(seatings):
        if i < 2:
            services.result_record(seating=seating, board=board1, trump=None,
                                   ns_points_taken=None, adjusted=("average", "average"),
                                   expected_version=None, acting_user=None)
        else:
            services.result_record(seating=seating, board=board1, trump="O",
                                   ns_points_taken=30 + 10 * i, expected_version=None,
                                   acting_user=None)
    assert selectors.public_board_numbers(c) == {board1.number}
    travellers_before = build.travellers(c)
    cards_before = build.score_cards(c)

    for i, seating in enumerate(seatings[:3]):
        services.result_record(seating=seating, board=board2, trump="C",
                               ns_points_taken=20 + 15 * i, expected_version=None,
                               acting_user=None)
    assert selectors.public_board_numbers(c) == {board1.number}
    assert build.travellers(c).travellers == travellers_before.travellers
    assert build.score_cards(c).cards == cards_before.cards
    # The hidden results do count for whoever may see them (the organiser's traveller).
    staff = selectors.traveller(board1.championship, board1.number, for_public=False)
    public = selectors.traveller(board1.championship, board1.number, for_public=True)
    assert [r.score.ns_comparative for r in staff.rows] != [
        r.score.ns_comparative for r in public.rows
    ]
