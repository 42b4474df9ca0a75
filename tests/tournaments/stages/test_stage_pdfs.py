"""The stages on paper: the group tables, the bracket on one landscape page (up to 64
pairs), the knockout round's match cards, and their print jobs."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import stages as pure
from tests.tournaments.classic.conftest import make_classic
from tests.tournaments.reports.pdfcheck import (
    page_texts,
    reader,
    save_png,
    text_outside_page,
)
from tests.tournaments.stages.conftest import Staged, make_staged, play_round
from tournaments import services, tasks
from tournaments.models import Game, PrintJob, Round, Seating, Stage
from tournaments.reports import build
from tournaments.reports import services as jobs
from tournaments.reports.documents import Kind
from tournaments.reports.render import render
from tournaments.selectors.stages import bracket_view, groups_view
from tournaments.selectors.standings import pair_names
from tournaments.templatetags.stages import round_name_of

pytestmark = pytest.mark.django_db


def _text(data: bytes) -> str:
    return " ".join(" ".join(page_texts(data)).split())


def _sizes(data: bytes) -> list[tuple[int, int]]:
    """Each page's size in whole points."""
    return [(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
            for p in reader(data).pages]


PORTRAIT = (595, 842)
LANDSCAPE = (842, 595)


def _smallest_text(data: bytes) -> float:
    """The smallest font size any text of the PDF is drawn at."""
    sizes: list[float] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object,
              size: float) -> None:
        if text.strip():
            sizes.append(size * abs(tm[0] * cm[0] or 1.0))

    for page in reader(data).pages:
        page.extract_text(visitor_text=visit)
    return min(sizes)


@pytest.fixture
def played(db: None) -> Staged:
    """16 pairs in 4 groups of 4, the winners through: the groups played (rounds 1-3)
    and the semifinals (round 4); the final (round 5) seated, not played."""
    staged = make_staged(16, groups=4, per_group=1, third_place=True)
    for r in (1, 2, 3, 4):
        play_round(staged, r, seed=7)
    staged.championship.refresh_from_db()
    return staged


@pytest.fixture
def media(tmp_path: Path, settings: object) -> Path:
    settings.MEDIA_ROOT = tmp_path  # type: ignore[attr-defined]
    return tmp_path


# ---------------------------------------------------------------------------- groups


def test_the_group_tables_show_each_group_its_standings_and_fixture(played: Staged) -> None:
    c = played.championship
    data = render(build.build(c, Kind.GROUP_TABLES, language="ca"))
    assert all(size == PORTRAIT for size in _sizes(data))
    assert text_outside_page(data) == []
    text = _text(data)
    view = groups_view(c)
    assert view is not None
    for group in view.groups:
        assert f"Grup {group.name} Partides: 6 de 6" in text
        for row in group.rows:
            # A standings line as the read model has it: rank, pair, players, wins...
            line = (f"{row.rank} {row.number} {row.pair.names} {row.wins_out} ")
            assert line in text, line
    # Who went through, and how: the group winners.
    assert text.count("1a del grup") == len(view.qualified) == 4
    # The fixture: every game of the groups with its table and score.
    for game in Game.objects.filter(seating__round__stage=view.stage).select_related(
            "seating__ns_pair", "seating__ew_pair"):
        s = game.seating
        assert (f"{s.ns_pair.number}: {s.ns_pair.player1}" in text
                and f"{game.ns_points} – {game.ew_points}" in text)
    assert "4 parelles passen a l'eliminatòria: la primera de cada grup." in text
    # Several groups a page: 4 groups of 4 take 2 pages, not 4.
    assert len(reader(data).pages) == 2
    save_png(data, "group-tables")


def test_the_group_tables_before_the_groups_end_say_who_goes_through_is_not_known(
        db: None) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=2)
    text = _text(render(build.build(staged.championship, Kind.GROUP_TABLES)))
    assert "encara no se sap qui (partides dels grups: 4 de 12)" in text
    assert "del grup" not in text.replace("dels grups", "")
    # Round 1's games are in the fixture; later rounds are not drawn yet.
    assert "Partides: 2 de 6" in text


def test_a_group_of_five_names_who_sits_each_drawn_round_out(db: None) -> None:
    staged = make_staged(10, groups=2, per_group=2)
    seated = play_round(staged, 1, seed=4)
    document = build.build(staged.championship, Kind.GROUP_TABLES)
    text = _text(render(document))
    for section in document.groups:
        playing = {p for s in seated for p in (s.ns_pair.number, s.ew_pair.number)}
        (bye,) = [p for p in section.pairs if p[0] not in playing]
        assert section.byes == ((1, bye[0], bye[1]),)
        assert f"1 — {bye[0]}: {bye[1]} descansa" in text
    assert text.count("descansa") == 2  # round 1 only: the others are not drawn


def test_a_championship_without_groups_formed_or_without_stages_is_refused(
        db: None) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    with pytest.raises(build.ReportError, match="Els grups encara no estan formats"):
        build.build(staged.championship, Kind.GROUP_TABLES)
    with pytest.raises(jobs.BadPrintRequest, match="El quadre encara no està fet"):
        jobs.print_job_request(championship=staged.championship, kind="bracket")
    plain = make_classic(pairs=4, rounds=1)
    with pytest.raises(build.ReportError, match="no té fase de grups"):
        build.build(plain.championship, Kind.GROUP_TABLES)
    with pytest.raises(jobs.BadPrintRequest, match="no té eliminatòries"):
        jobs.print_job_request(championship=plain.championship, kind="bracket")


# --------------------------------------------------------------------------- bracket


def test_the_bracket_shows_the_played_matches_and_the_next(played: Staged) -> None:
    c = played.championship
    data = render(build.build(c, Kind.BRACKET, language="ca"))
    assert _sizes(data) == [LANDSCAPE]
    assert text_outside_page(data) == []
    text = _text(data)
    view = bracket_view(c)
    assert view is not None
    assert "Semifinals Ronda 4" in text and "Final Ronda 5" in text
    assert "Partida pel tercer lloc" in text and "Campió" in text
    for match in view.rounds[0].matches:
        assert match.top is not None and match.bottom is not None and match.game
        assert f"{match.top.number} {match.top.short} {match.game.top_points}" in text
        assert f"{match.bottom.number} {match.bottom.short} {match.game.bottom_points}" in text
    final = view.rounds[1].matches[0]
    assert final.top is not None and f"{final.top.number} {final.top.short}" in text


def test_the_bracket_names_the_champion_once_the_final_is_in(played: Staged) -> None:
    play_round(played, 5, seed=7)
    view = bracket_view(played.championship)
    assert view is not None and view.champion is not None and view.third is not None
    text = _text(render(build.build(played.championship, Kind.BRACKET)))
    assert f"{view.champion.number} · {view.champion.names}" in text
    assert f"Subcampió: {view.runner_up.number} · " in text  # type: ignore[union-attr]
    assert f"Tercer lloc: {view.third.number} · " in text


@pytest.fixture
def sixty_four(db: None) -> Staged:
    """64 pairs registered; the knockout's bracket is set by the tests."""
    return make_staged(64, groups=16, per_group=1)


@pytest.mark.parametrize("pairs", [12, 16, 32, 64])
def test_the_bracket_is_one_landscape_page_up_to_64_pairs(sixty_four: Staged,
                                                          pairs: int) -> None:
    c = sixty_four.championship
    knockout = Stage.objects.get(championship=c, kind="knockout")
    seeded = pure.seed_bracket(list(range(1, pairs + 1)))
    knockout.bracket = {"positions": list(seeded.positions), "third_place": False}
    knockout.save(update_fields=["bracket"])
    data = render(build.build(c, Kind.BRACKET, language="ca"))
    assert _sizes(data) == [LANDSCAPE]
    assert text_outside_page(data) == []
    text = _text(data)
    names = pair_names(c)
    for n in range(1, pairs + 1):
        assert f"{n} {names[n].short}" in text, n
    rounds = (pairs - 1).bit_length()
    titles = [round_name_of(2 ** (rounds - k), k) for k in range(1, rounds + 1)]
    assert [title in text for title in titles] == [True] * rounds, titles
    assert "de l'eliminatòria" not in text  # every round has its name, 64 pairs too
    byes = 2 ** rounds - pairs
    assert text.count("descansa") == byes
    # Legible: 64 pairs (32 first-round matches) at 6 pt at least, fewer larger.
    assert _smallest_text(data) >= (5.9 if pairs == 64 else 6.5)
    save_png(data, f"bracket-{pairs}")


# -------------------------------------------------------------------- knockout cards


def test_a_knockout_round_has_one_card_per_seated_match(played: Staged) -> None:
    c = played.championship
    data = render(build.build(c, Kind.KNOCKOUT_CARDS, round_number=4, language="ca"))
    assert all(size == PORTRAIT for size in _sizes(data))
    assert text_outside_page(data) == []
    text = _text(data)
    seated = list(Seating.objects.filter(round=played.round(4)).select_related(
        "ns_pair", "ew_pair", "table").order_by("table__number"))
    assert len(seated) == 2 and len(reader(data).pages) == 1  # two cards a page
    for k, s in enumerate(seated, start=1):
        assert f"Ronda 4 · Taula {s.table.number} Semifinals, partida {k}" in text
        assert f"NS: Parella {s.ns_pair.number} {s.ns_pair.player1}" in text
        assert f"EO: Parella {s.ew_pair.number} {s.ew_pair.player1}" in text
    assert "La partida no pot acabar empatada" in text and "Guanyador" in text
    save_png(data, "knockout-cards")
    # The final's round seats the final and the third-place match.
    text = _text(render(build.build(c, Kind.KNOCKOUT_CARDS, round_number=5)))
    assert "Ronda 5 · Taula 1 Final " in text and "Partida pel tercer lloc" in text


def test_the_round_pack_of_a_knockout_round_carries_the_knockout_cards(
        played: Staged) -> None:
    c = played.championship
    text = _text(render(build.build(c, Kind.ROUND_PACK, round_number=4, language="ca")))
    assert "Semifinals, partida 1" in text and "Semifinals, partida 2" in text
    assert "La partida no pot acabar empatada" in text
    # A group round's pack keeps the plain table cards.
    text = _text(render(build.build(c, Kind.ROUND_PACK, round_number=2, language="ca")))
    assert "Semifinals" not in text and "partida 1" not in text


def test_knockout_cards_of_a_group_round_are_refused(played: Staged) -> None:
    with pytest.raises(build.ReportError, match="La ronda 2 no és de les eliminatòries "
                                                r"\(rondes 4, 5\)"):
        build.build(played.championship, Kind.KNOCKOUT_CARDS, round_number=2)
    with pytest.raises(jobs.BadPrintRequest, match="no és de les eliminatòries"):
        jobs.print_job_request(championship=played.championship, kind="knockout-cards",
                               round_number=2)


def test_the_extra_deals_of_a_level_game_are_on_the_card(db: None) -> None:
    staged = make_staged(4, groups=1, per_group=2, level_game="extra_deals", extra_deals=2)
    for r in (1, 2, 3):
        play_round(staged, r, seed=1)
    first = Round.objects.filter(championship=staged.championship,
                                 stage__kind="knockout").order_by("number").first()
    assert first is not None
    services.round_draw(round=first, acting_user=staged.organiser, seed=1)
    text = _text(render(build.build(staged.championship, Kind.KNOCKOUT_CARDS,
                                    round_number=first.number)))
    assert ("La partida no pot acabar empatada: si ho està, es juguen 2 mans més; si encara "
            "ho està, decideix l'àrbitre.") in text
    assert f"Ronda {first.number} · Taula 1 Final " in text


# ------------------------------------------------------------------ jobs, page, API


@pytest.mark.parametrize(("kind", "round_number", "words"), [
    ("group-tables", 0, "Grup D"), ("bracket", 0, "Semifinals"),
    ("knockout-cards", 4, "Guanyador")])
def test_a_print_job_runs_the_stage_documents_through_the_task(
        played: Staged, media: Path, kind: str, round_number: int, words: str) -> None:
    job, created = jobs.print_job_request(championship=played.championship, kind=kind,
                                          round_number=round_number,
                                          acting_user=played.organiser)
    assert created
    tasks.print_job_task.apply(args=[job.pk])
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE, job.error
    data = Path(job.file.path).read_bytes()
    assert data.startswith(b"%PDF") and len(reader(data).pages) >= 1
    assert words in _text(data)


def test_the_prints_page_offers_the_stage_documents_only_with_stages(
        played: Staged, media: Path) -> None:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(played.organiser)
    page = client.get(reverse("print_jobs", args=[played.championship.slug])).content.decode()
    for kind in ("group-tables", "bracket", "knockout-cards"):
        assert f'id="print-{kind}"' in page and f'data-not-ready="{kind}"' not in page
    posted = client.post(reverse("print_jobs", args=[played.championship.slug]),
                         {"kind": "bracket", "round_number": 0})
    assert posted.status_code == 302
    assert PrintJob.objects.filter(championship=played.championship, kind="bracket").exists()
    plain = make_classic(pairs=4, rounds=1)
    client.force_login(plain.organiser)
    page = client.get(reverse("print_jobs", args=[plain.championship.slug])).content.decode()
    for kind in ("group-tables", "bracket", "knockout-cards"):
        assert f'id="print-{kind}"' not in page


def test_the_api_prints_the_bracket(played: Staged, media: Path) -> None:
    from django.urls import reverse
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(played.organiser)
    answer = client.post(reverse("api_print_jobs", args=[played.championship.slug]),
                         {"kind": "bracket"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["kind"] == "bracket"
