"""The table cards print each table's QR code and its link when the championship takes
results from the tables (reports/qr.py, build.table_links); none when it does not."""

from __future__ import annotations

import pytest
import segno
from django.test import override_settings

from tests.tournaments.conftest import Small
from tests.tournaments.reports.pdfcheck import page_texts, save_png, text_outside_page
from tournaments import services
from tournaments.models import Table
from tournaments.reports import build
from tournaments.reports import services as jobs
from tournaments.reports.documents import Kind
from tournaments.reports.qr import draw_qr, table_link
from tournaments.reports.render import render

pytestmark = pytest.mark.django_db

BASE = "https://botifarra.example.org"


def flat(text: str) -> str:
    return "".join(text.split())


@override_settings(TABLE_LINK_BASE_URL=BASE)
def test_each_card_prints_its_tables_link(small: Small) -> None:
    championship = small.championship
    for seating in small.seatings:
        services.table_secret(championship=championship, table_number=seating.table.number)
    data = render(build.build(championship, Kind.TABLE_CARDS, round_number=1, language="ca"))
    texts = page_texts(data)
    for page, seating in zip(texts, small.seatings, strict=True):
        secret = services.table_secret(championship=championship,
                                       table_number=seating.table.number).secret
        assert flat(f"{BASE}/t/{secret}/") in flat(page)
    assert text_outside_page(data) == []
    save_png(data, "table-card-qr")


@override_settings(TABLE_LINK_BASE_URL=BASE)
def test_a_reissued_secret_is_printed_and_the_old_one_not(small: Small) -> None:
    championship = small.championship
    number = small.seatings[0].table.number
    old = services.table_secret(championship=championship, table_number=number).secret
    new = services.table_secret_reissue(championship=championship, table_number=number,
                                        acting_user=small.organiser).secret
    page = page_texts(render(build.build(championship, Kind.TABLE_CARDS, round_number=1,
                                         language="ca")))[0]
    assert flat(new) in flat(page) and flat(old) not in flat(page)


def test_no_code_when_table_entry_is_off(small: Small) -> None:
    championship = small.championship
    services.table_secret(championship=championship,
                          table_number=small.seatings[0].table.number)
    services.table_entry_set(championship=championship, enabled=False,
                             acting_user=small.organiser)
    championship.refresh_from_db()
    document = build.table_cards(championship, round_number=1)
    assert all(card.link == "" for card in document.cards)
    assert "/t/" not in "".join(page_texts(render(document)))


def test_asking_for_the_cards_issues_every_tables_secret(small: Small) -> None:
    championship = small.championship
    jobs.print_job_request(championship=championship, kind=Kind.TABLE_CARDS, round_number=1,
                           acting_user=small.organiser)
    tables = set(Table.objects.filter(championship=championship)
                 .values_list("number", flat=True))
    document = build.table_cards(championship, round_number=1)
    assert {card.table for card in document.cards if card.link} == {
        card.table for card in document.cards}
    assert tables >= {card.table for card in document.cards}


def test_the_code_is_drawn_from_segnos_matrix() -> None:
    from io import BytesIO

    from reportlab.pdfgen import canvas

    link = table_link("abc", "http://x")
    assert link == "http://x/t/abc/"
    buffer = BytesIO()
    c = canvas.Canvas(buffer, pageCompression=0)
    draw_qr(c, link, 10, 10, 100)
    c.save()
    dark = sum(sum(row) for row in segno.make(link, error="m", micro=False).matrix)
    # One rectangle per run of dark modules, plus the white background: at least one
    # rectangle, never more than the dark modules.
    rectangles = buffer.getvalue().count(b" re")
    assert 1 < rectangles <= dark + 1


@override_settings(TABLE_LINK_BASE_URL=BASE)
def test_the_knockout_cards_print_the_tables_link() -> None:
    """The semifinals of a championship in stages (16 pairs, the groups played)."""
    from tests.tournaments.stages.conftest import make_staged, play_round
    from tournaments.models import Seating

    staged = make_staged(16, groups=4, per_group=1, third_place=True)
    for number in (1, 2, 3, 4):
        play_round(staged, number, seed=7)
    championship = staged.championship
    championship.refresh_from_db()
    knockout = 4  # the semifinals
    jobs.print_job_request(championship=championship, kind=Kind.KNOCKOUT_CARDS,
                           round_number=knockout, acting_user=None)
    data = render(build.build(championship, Kind.KNOCKOUT_CARDS, round_number=knockout,
                              language="ca"))
    text = flat("".join(page_texts(data)))
    seated = Seating.objects.filter(round__number=knockout, round__championship=championship)
    assert seated.exists()
    for seating in seated.select_related("table"):
        secret = services.table_secret(championship=championship,
                                       table_number=seating.table.number).secret
        assert flat(f"{BASE}/t/{secret}/") in text
    assert text_outside_page(data) == []
    save_png(data, "knockout-card-qr")
