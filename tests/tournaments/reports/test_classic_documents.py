"""The printed documents of a classic championship: standings by games won, the round's
pairings, table cards and score sheets with the game's rules, pair cards, the round
pack; the duplicate-only documents refused with the reason, never an empty PDF."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.classic.conftest import Classic, make_classic
from tests.tournaments.readers import pdf_rows
from tests.tournaments.reports.pdfcheck import page_texts, save_png, text_outside_page
from tournaments import services
from tournaments.models import PrintJob, Seating
from tournaments.reports import build
from tournaments.reports import services as jobs
from tournaments.reports.documents import DUPLICATE_ONLY, Kind
from tournaments.reports.render import render
from tournaments.selectors import classic as reads


def _text(data: bytes) -> str:
    return " ".join(" ".join(page_texts(data)).split())


def _play(c: Classic, round_index: int, *, tables: int | None = None) -> None:
    """Draw round ``round_index`` and enter the games of its first ``tables`` tables
    (all when ``None``): NS win 101 to 30 + the table's index; a 150-point game at the
    second table, counted as 121 under the cap."""
    rnd = c.rounds[round_index]
    services.round_draw(round=rnd, seed=5 + round_index, acting_user=c.organiser)
    seated = list(Seating.objects.filter(round=rnd).order_by("table__number"))
    for k, seating in enumerate(seated[:tables]):
        ns = 150 if k == 1 else 101
        services.game_record(seating=seating, ns_points=ns, ew_points=30 + k, deals=9,
                             ended_by="target", expected_version=None,
                             acting_user=c.referee)


@pytest.fixture
def played(db: None) -> Classic:
    """7 pairs (3 tables and a bye a round), 3 rounds: rounds 1-2 played, round 3
    drawn with one game of three in."""
    c = make_classic(pairs=7, rounds=3)
    _play(c, 0)
    _play(c, 1)
    _play(c, 2, tables=1)
    c.championship.refresh_from_db()
    return c


@pytest.fixture
def media(tmp_path: Path, settings: object) -> Path:
    settings.MEDIA_ROOT = tmp_path  # type: ignore[attr-defined]
    return tmp_path


def test_the_standings_pdf_prints_the_read_models_ranks_and_wins(played: Classic) -> None:
    c = played.championship
    view = reads.classic_standings(c)
    data = render(build.build(c, Kind.STANDINGS, language="ca"))
    pages = pdf_rows(data)
    overall = pages[0]
    labels = [cell for cells in overall for cell in cells]
    for label in ("Posició", "Parella", "Jugadors", "Jugades", "Diferència"):
        assert label in labels, label
    rows = [cells for cells in overall if len(cells) >= 8 and cells[1].isdigit()
            and (cells[0].isdigit() or cells[0] == "—")]
    assert len(rows) == len(view.rows) == 7
    for cells, row in zip(rows, view.rows, strict=True):
        assert cells[0] == row.rank_text and cells[1] == str(row.number)
        assert cells[3:8] == [row.wins_text, str(row.played), str(row.points_for),
                              str(row.points_against), row.difference_text]
    # The cap: the 150-point games count 121.
    assert all(row.points_for <= 121 * 3 for row in view.rows)
    text = _text(data)
    assert "Partides guanyades" in text and "Punts en contra" in text
    # The order as the standings page says it (selectors.classic_words).
    assert "Ordenat per partides guanyades, després diferència, després punts a favor" in text
    # Honest about the games still missing: 7 in of 9, the 2 of round 3 named.
    assert "Partides: 7 de 9" in text
    assert "Falten 2 partides per entrar (ronda 3: 2)" in text
    # Overall, then after each round.
    assert "Classificació · després de la ronda 3" in text
    assert text_outside_page(data) == []
    save_png(data, "classic-standings")


def test_standings_after_a_complete_round_miss_nothing_and_show_halves(db: None) -> None:
    c = make_classic(pairs=4, rounds=2, tiebreaks=["wins", "buchholz", "difference"])
    services.round_draw(round=c.rounds[0], seed=3, acting_user=c.organiser)
    first, second = Seating.objects.filter(round=c.rounds[0]).order_by("table__number")
    services.game_record(seating=first, ns_points=80, ew_points=80, deals=12,
                         ended_by="deals", expected_version=None, acting_user=c.referee)
    services.game_record(seating=second, ns_points=101, ew_points=20, deals=7,
                         ended_by="target", expected_version=None, acting_user=c.referee)
    document = build.build(c.championship, Kind.STANDINGS, round_number=1, language="ca")
    assert document.header.missing == ""
    assert document.columns == ("buchholz",)
    view = reads.classic_standings(c.championship, through_round=1)
    assert [r.wins for r in document.tables[0].rows] == [r.wins_text for r in view.rows]
    text = _text(render(document))
    assert "½" in text and "Buchholz" in text and "Partides: 2 de 2" in text
    assert "Enfrontament directe" not in text  # not a tiebreak here: no column
    assert "Falt" not in text


def test_the_score_sheet_has_a_line_per_deal_and_the_rules(played: Classic) -> None:
    c = played.championship
    document = build.build(c, Kind.SCORE_SHEETS, round_number=3, language="ca")
    assert document.rules.deal_lines == 12
    data = render(document)
    pages = pdf_rows(data)
    assert len(pages) == 3  # one table a page
    for page, sheet in zip(pages, document.sheets, strict=True):
        numbers = [cells[0] for cells in page if cells and cells[0].isdigit()
                   and len(cells) == 1 and int(cells[0]) <= 40]
        assert numbers == [str(n) for n in range(1, 13)], numbers
        text = " ".join(" ".join(cells) for cells in page)
        assert f"Ronda 3 · Taula {sheet.table}" in text
        assert sheet.ns_players in text and sheet.ew_players in text
        assert "Partida a 101 punts" in text and "Com a màxim 12 mans" in text
        assert "Temps límit: 55 minuts" in text and "Es compten fins a 121 punts" in text
        assert "Doblatges: contro, recontro" in text
        for label in ("Mà", "Qui tria", "Delegat", "Trumfo", "Contro", "Recontro",
                      "Renunci", "Total NS", "Total EO",
                      "Resultat final", "Mans jugades", "Com s'ha acabat", "Punts assolits",
                      "Mans esgotades", "Temps esgotat", "Signatura NS", "Àrbitre"):
            assert label in text, label
        assert "Sant Vicenç" not in text  # not allowed here: no column for it
    assert text_outside_page(data) == []
    save_png(data, "classic-score-sheet")


def test_a_level_game_with_extra_deals_gets_their_lines_and_no_limit_gets_16(
        db: None) -> None:
    c = make_classic(pairs=4, rounds=1, level_game="extra_deals", extra_deals=2,
                     sant_vicenc=True)
    services.round_draw(round=c.rounds[0], seed=1, acting_user=c.organiser)
    document = build.build(c.championship, Kind.SCORE_SHEETS, round_number=1)
    assert document.rules.deal_lines == 14
    page = pdf_rows(render(document))[0]
    assert [cells[0] for cells in page if len(cells) == 1 and cells[0].isdigit()
            and int(cells[0]) <= 40] == [str(n) for n in range(1, 15)]
    text = " ".join(" ".join(cells) for cells in page)
    assert "2 mans més si la partida va empatada" in text and "Sant Vicenç" in text

    c.championship.max_deals = None  # no deal limit: the sheet's 16 lines
    document = build.score_sheets(c.championship, round_number=1)
    assert document.rules.deal_lines == 16
    assert "Sense límit de mans" in _text(render(document))

    c.championship.max_deals = 30  # 32 lines: each sheet goes on over a second page
    document = build.score_sheets(c.championship, round_number=1)
    data = render(document)
    pages = pdf_rows(data)
    assert len(pages) == 2 * len(document.sheets)
    first, second = ([cells[0] for cells in page if len(cells) == 1 and cells[0].isdigit()
                      and int(cells[0]) <= 40] for page in pages[:2])
    assert first + second == [str(n) for n in range(1, 33)]
    texts = [" ".join(" ".join(cells) for cells in page) for page in pages[:2]]
    assert "continuació" in texts[1] and "continuació" not in texts[0]
    assert "Resultat final" in texts[1] and "Resultat final" not in texts[0]
    assert text_outside_page(data) == []


def test_pairings_and_table_cards_of_a_round(played: Classic) -> None:
    c = played.championship
    rnd = reads.round_games(c, played.rounds[1])
    wall = render(build.build(c, Kind.PAIRINGS, round_number=2, language="ca"))
    text = _text(wall)
    assert "Aparellaments de la ronda 2" in text
    for table in rnd.tables:
        assert f"{table.ns.number}: {table.ns.names}" in text
        assert f"{table.ew.number}: {table.ew.names}" in text
    (bye,) = rnd.byes
    assert f"{bye.number}: {bye.names} descansa" in text
    assert text_outside_page(wall) == []
    save_png(wall, "classic-pairings")

    cards = render(build.build(c, Kind.TABLE_CARDS, round_number=2, language="ca"))
    texts = page_texts(cards)
    assert len(texts) == len(rnd.tables) == 3
    for page, table in zip(texts, rnd.tables, strict=True):
        flat = " ".join(page.split())
        assert f"Taula {table.table}" in flat and table.ns.names in flat
        assert "Partida a 101 punts" in flat and "Variant: Lliure" in flat
        assert "Taulers" not in flat
    assert text_outside_page(cards) == []
    save_png(cards, "classic-table-card")


def test_the_round_pack_holds_pairings_a_card_and_a_sheet_per_table(played: Classic) -> None:
    c = played.championship
    document = build.build(c, Kind.ROUND_PACK, round_number=3, language="ca")
    data = render(document)
    texts = [" ".join(t.split()) for t in page_texts(data)]
    assert len(texts) == 1 + 3 + 3
    assert "Aparellaments de la ronda 3" in texts[0]
    assert sum("Partida a 101 punts" in t and "Full d'anotació" not in t
               for t in texts[1:4]) == 3
    assert sum("Full d'anotació · Ronda 3" in t for t in texts) == 3
    assert text_outside_page(data) == []


def test_pair_cards_show_each_round_with_the_rank_after_it(played: Classic) -> None:
    c = played.championship
    document = build.build(c, Kind.SCORE_CARDS, language="ca")
    assert len(document.cards) == 7
    data = render(document)
    pages = pdf_rows(data)
    for card, page in zip(document.cards, pages, strict=True):
        lines = reads.pair_card(c, card.pair)
        rows = [cells for cells in page if cells and cells[0] in {"1", "2", "3"}
                and len(cells) >= 5]
        assert len(rows) == len(lines)
        for cells, line in zip(rows, lines, strict=True):
            assert cells[-2:] == [line.wins_after_text,
                                  "—" if line.rank_after is None else str(line.rank_after)]
    text = _text(data)
    assert "150 – 31 (121 – 31)" in text  # the cap, shown next to the points entered
    assert "entre parèntesis, els que compten quan passen de 121" in text
    assert "descans" in text and "guanyada" in text and "perduda" in text
    assert text_outside_page(data) == []
    save_png(data, "classic-pair-card", page=2)
    after_one = build.build(c, Kind.SCORE_CARDS, round_number=1)
    assert {line.round for card in after_one.cards for line in card.lines} == {1}


@pytest.mark.parametrize("kind", sorted(DUPLICATE_ONLY, key=lambda k: k.value))
def test_duplicate_only_documents_are_refused_with_the_reason(
        played: Classic, kind: Kind, media: Path) -> None:
    c = played.championship
    with pytest.raises(build.ReportError, match="clàssic"):
        build.build(c, kind, round_number=1, language="ca")
    with pytest.raises(jobs.BadPrintRequest, match="clàssic") as refused:
        jobs.print_job_request(championship=c, kind=kind, round_number=1,
                               acting_user=played.organiser)
    assert refused.value.field == "kind"
    assert jobs.not_ready(kind, jobs.round_states(c), classic=True)
    assert not PrintJob.objects.filter(championship=c).exists()


def test_classic_only_documents_are_refused_for_a_duplicate_championship(db: None) -> None:
    from tests.factories import build_championship

    duplicate = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    for kind in (Kind.PAIRINGS, Kind.SCORE_SHEETS):
        with pytest.raises(jobs.BadPrintRequest, match="clàssic"):
            jobs.print_job_request(championship=duplicate, kind=kind, round_number=1)


def test_a_classic_round_not_drawn_yet_is_refused_not_printed_empty(db: None) -> None:
    c = make_classic(pairs=4, rounds=1).championship
    states = jobs.round_states(c)
    for kind in (Kind.PAIRINGS, Kind.TABLE_CARDS, Kind.SCORE_SHEETS, Kind.ROUND_PACK):
        assert "sortej" in (jobs.not_ready(kind, states, classic=True) or "")
        with pytest.raises(jobs.BadPrintRequest, match="sortej"):
            jobs.print_job_request(championship=c, kind=kind, round_number=1)
    # Standings and pair cards are always ready: every pair, no place yet.
    assert jobs.not_ready(Kind.STANDINGS, states, classic=True) is None
    standings = build.build(c, Kind.STANDINGS, language="ca")
    assert [row.rank for row in standings.tables[0].rows] == [None] * 4
    assert "Partides: 0 de 0" in _text(render(standings))
    cards = build.build(c, Kind.SCORE_CARDS, language="ca")
    assert [card.lines for card in cards.cards] == [()] * 4
    assert len(page_texts(render(cards))) == 4


def test_a_print_job_prints_the_classic_round_pack(played: Classic, media: Path) -> None:
    c = played.championship
    job, created = jobs.print_job_request(championship=c, kind="round-pack",
                                          round_number=2, copies=None,
                                          acting_user=played.organiser)
    job = jobs.print_job_run(job_id=job.pk)
    assert created and job is not None and job.status == PrintJob.Status.DONE
    assert job.copies == 1  # no board sheets to copy


@pytest.mark.django_db(transaction=True)  # the job is sent on commit
def test_print_report_prints_pairings_and_refuses_board_sheets(
        tmp_path: Path, settings: object) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"  # type: ignore[attr-defined]
    c = make_classic(pairs=4, rounds=1)
    services.round_draw(round=c.rounds[0], seed=2, acting_user=c.organiser)
    out = tmp_path / "aparellaments.pdf"
    call_command("print_report", "pairings", c.championship.slug, "--round", "1",
                 "-o", str(out), stdout=io.StringIO(), stderr=io.StringIO())
    assert "Aparellaments de la ronda 1" in _text(out.read_bytes())
    with pytest.raises(CommandError) as refused:
        call_command("print_report", "board-sheets", c.championship.slug, "--round", "1",
                     "-o", str(tmp_path / "fulls.pdf"), stderr=io.StringIO())
    assert str(refused.value) == ("Fulls de mans: Un campionat clàssic no té taulers "
                                  "predonats: no hi ha mans per preparar.")
    assert not (tmp_path / "fulls.pdf").exists()


def test_every_classic_document_carries_the_stamp(played: Classic) -> None:
    c = played.championship
    # (The stages' kinds need a championship with stages: tests/tournaments/stages.)
    for kind in (k for k in Kind if k.serves(classic=True) and k.stage is None):
        document = build.build(c, kind, round_number=2, language="ca")
        for page in page_texts(render(document)):
            assert f"versió dels resultats {c.results_version}" in " ".join(page.split())


def test_the_prints_page_and_the_api_offer_the_classic_documents_and_refuse_the_others(
        played: Classic, media: Path) -> None:
    from django.test import Client
    from django.urls import reverse
    from rest_framework.test import APIClient

    slug = played.championship.slug
    client = Client()
    client.force_login(played.organiser)
    url = reverse("print_jobs", args=[slug])
    page = client.get(url).content.decode()
    for kind in ("round-pack", "pairings", "table-cards", "score-sheets", "standings",
                 "score-cards"):
        assert f'id="print-{kind}"' in page and f'data-not-ready="{kind}"' not in page
    for kind in ("board-sheets", "entry-forms", "travellers", "guide-cards"):
        assert f'data-not-ready="{kind}"' in page, kind
    assert "no té taulers predonats" in page
    assert 'id="id_round-pack_copies"' not in page  # no board sheets to copy
    seating = client.get(reverse("round_seating", args=[slug, 2])).content.decode()
    assert "Aparellaments, rètols de taula i fulls d'anotació" in seating
    posted = client.post(url, {"kind": "travellers", "round_number": 0})
    assert posted.status_code == 200
    assert "no hi ha fulls de recorregut" in posted.content.decode()

    api = APIClient()
    api.force_authenticate(played.organiser)
    refused = api.post(reverse("api_print_jobs", args=[slug]),
                       {"kind": "entry-forms", "round_number": 1}, format="json",
                       HTTP_ACCEPT_LANGUAGE="ca")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["kind"]
    assert "fulls d'anotació" in refused.json()["detail"]
    assert not PrintJob.objects.filter(championship=played.championship).exists()
