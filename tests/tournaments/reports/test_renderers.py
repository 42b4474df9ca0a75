"""The renderers on plain documents: pages, texts, cards, fonts, nothing off the page."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from engine.cards import SUIT_ORDER
from engine.seats import Seat
from tests.tournaments.reports import samples
from tests.tournaments.reports.pdfcheck import (
    page_texts,
    reader,
    save_png,
    text_outside_page,
    words,
)
from tournaments.reports.board_sheets import page_count
from tournaments.reports.pdf import FONT, fit, fmt_percent, fmt_points, width
from tournaments.reports.render import render


def _suit_line(cards: tuple, suit: object) -> str:
    return " ".join(str(c.rank) for c in cards if c.suit is suit)


def test_board_sheets_print_every_hand_by_suit_high_to_low_one_board_per_page() -> None:
    document = samples.board_sheets(boards=4, copies=3)
    data = render(document)
    texts = page_texts(data)
    assert len(texts) == 12 == page_count(document)
    # Grouped by board: board 1 copies 1..3, then board 2...
    for index, text in enumerate(texts):
        sheet = document.boards[index // 3]
        assert f"Tauler {sheet.board}" in text
        assert f"Còpia {index % 3 + 1} de 3" in text
        for seat in Seat:
            for suit in SUIT_ORDER:
                ranks = _suit_line(sheet.deal[seat], suit)
                if ranks:  # a long suit may wrap onto the next line
                    assert ranks in " ".join(text.split()), (seat, suit, ranks)
        assert "NORD" in text and "SUD" in text and "OEST" in text and "EST" in text
        assert "Reparteix" in text and "Sortida" in text


def test_board_sheets_mark_dealer_and_first_leader_of_each_board() -> None:
    data = render(samples.board_sheets(boards=4))
    texts = page_texts(data)
    expected = {1: ("Nord", "Oest"), 2: ("Oest", "Sud"), 3: ("Sud", "Est"), 4: ("Est", "Nord")}
    for board, text in enumerate(texts, start=1):
        dealer_name, leader_name = expected[board]
        assert f"Reparteix: {dealer_name}" in text
        assert f"Sortida: {leader_name}" in text


def test_four_boards_per_page_quarter_the_page_count() -> None:
    document = samples.board_sheets(boards=5, copies=2, per_page=4)
    data = render(document)
    assert len(reader(data).pages) == 3 == page_count(document)
    assert page_texts(data)[0].count("Ronda 1") == 4


def test_progress_is_reported_after_every_page() -> None:
    calls: list[tuple[int, int]] = []
    render(samples.board_sheets(boards=3, copies=2), lambda d, t: calls.append((d, t)))
    assert calls == [(n, 6) for n in range(1, 7)]


def test_fonts_are_embedded_and_catalan_characters_survive() -> None:
    data = render(samples.standings(pairs=4, rounds=1))
    text = page_texts(data)[0]
    for word in ("Classificació", "Cal·lígraf", "Ç", "Àngels", "Güell", "Col·lell", "Penedès"):
        assert word in text
    fonts = reader(data).pages[0]["/Resources"]["/Font"]
    assert fonts
    for ref in fonts.values():
        font = ref.get_object()
        assert "BitstreamVera" in font["/BaseFont"]
        assert "/FontFile2" in font["/FontDescriptor"].get_object()  # embedded TrueType


def test_the_rare_l_ligature_is_printed_as_l_middle_dot() -> None:
    lines, _size = fit("Coŀlegi", FONT, 10, 500)
    assert lines == ["Col·legi"]


@given(
    text=st.text(alphabet="abcdefghij àèéíïòóúüç·ÀÇ-", min_size=0, max_size=200),
    box=st.floats(min_value=20, max_value=400),
    lines=st.integers(min_value=1, max_value=3),
)
def test_fitted_text_never_exceeds_its_box(text: str, box: float, lines: int) -> None:
    fitted, size = fit(text, FONT, 12, box, max_lines=lines)
    assert 1 <= len(fitted) <= lines
    assert size <= 12
    for line in fitted:
        assert width(line, FONT, size) <= box + 1e-6


@pytest.mark.parametrize(
    ("name", "document"),
    [
        ("board-sheets", samples.board_sheets(boards=2)),
        ("board-sheets-4", samples.board_sheets(boards=4, per_page=4)),
        ("entry-forms", samples.entry_forms()),
        ("standings", samples.standings(pairs=60)),
        ("travellers", samples.travellers()),
        ("score-cards", samples.score_cards()),
    ],
)
def test_every_kind_keeps_its_text_inside_the_page_and_renders_to_png(
    name: str, document: object
) -> None:
    data = render(document)  # type: ignore[arg-type]
    assert data.startswith(b"%PDF")
    assert text_outside_page(data) == []
    assert save_png(data, f"sample-{name}").exists()


def test_standings_pages_are_numbered_x_of_y() -> None:
    data = render(samples.standings(pairs=60, rounds=1))
    texts = page_texts(data)
    total = len(texts)
    assert total >= 4
    for number, text in enumerate(texts, start=1):
        assert f"Pàgina {number} de {total}" in text


def test_standings_list_rank_pair_total_average_and_percentage() -> None:
    document = samples.standings(pairs=5, rounds=1)
    text = page_texts(render(document))[0]
    row = document.tables[0].rows[1]
    assert " ".join(["2", str(row.pair), row.players]) in " ".join(words(text))
    ca = "ca"
    assert fmt_points(row.total, ca) in text
    assert fmt_points(row.average, ca) in text
    assert fmt_percent(row.percentage, ca) in text and "," in fmt_percent(row.percentage, ca)


def test_labels_follow_the_document_language() -> None:
    from dataclasses import replace

    from django.utils import translation
    from django.utils.translation import gettext

    document = samples.board_sheets(boards=1)
    english = replace(document, header=replace(document.header, language="en"))
    with translation.override("es"):  # the caller's language does not matter
        text = page_texts(render(english))[0]
    with translation.override("en"):
        north = gettext("Nord")
    assert "Board 1" in text and f"Dealer: {north}" in text
    assert "Oros" in text and "Espases" in text  # game words stay Catalan, as on the web
    assert "Tauler" not in text and "Reparteix" not in text and "Mà" not in text
    spanish = replace(document, header=replace(document.header, language="es"))
    text = page_texts(render(spanish))[0]
    with translation.override("es"):
        north = gettext("Nord")
    assert "Tablero 1" in text and f"Reparte: {north}" in text and "Espadas" in text
    assert "Mano" not in text and "Tauler" not in text


def test_travellers_show_each_table_and_the_deal() -> None:
    document = samples.travellers(boards=1, tables=3)
    text = page_texts(render(document))[0]
    assert "Full de recorregut · Tauler 1 · Ronda 1" in text
    assert "Mà" not in text
    assert "1,1" in words(text) and "1,9" in words(text)  # comparative points, comma
    assert "Botifarra" in text and "Oros (D)" in text
    assert "-10" in text and "+5" in text  # table 1: botifarra lost by 5 doubles NS's loss
    north = _suit_line(document.travellers[0].deal[Seat.N], SUIT_ORDER[0])  # type: ignore[index]
    assert north in text


def test_score_cards_show_running_total_and_total() -> None:
    document = samples.score_cards(pairs=1, boards=4)
    text = " ".join(words(page_texts(render(document))[0]))
    assert "Total 6,0" in text
    assert "4,5" in text and "4.5" not in text


def test_an_empty_document_still_makes_a_valid_pdf() -> None:
    from tournaments.reports.documents import Travellers

    data = render(Travellers(header=samples.HEADER, travellers=()))
    assert len(PdfReader(__import__("io").BytesIO(data)).pages) == 1


def test_the_page_check_catches_text_that_runs_off_the_page() -> None:
    import io

    from tournaments.reports.pdf import new_canvas

    buffer = io.BytesIO()
    c = new_canvas(buffer, title="x", numbered=False)
    c.setFont(FONT, 12)
    c.drawString(500, 400, "Maria dels Àngels Puigcercós i Vallverdú")
    c.drawString(100, 400, "dins")
    c.showPage()
    c.save()
    outside = text_outside_page(buffer.getvalue())
    assert len(outside) == 1 and "Puigcercós" in outside[0]


def test_a_twelve_card_suit_is_printed_whole_and_inside_the_page() -> None:
    from engine.cards import DECK
    from engine.deal import Deal
    from engine.seats import dealer, first_leader
    from tournaments.reports.documents import BoardSheet, BoardSheets

    # North holds every oros, East every copes...: the longest suits a deal can have.
    deal = Deal.from_hands({seat: DECK[i * 12 : (i + 1) * 12]
                            for i, seat in enumerate((Seat.N, Seat.E, Seat.S, Seat.W))})
    sheet = BoardSheet(board=1, round=1, deal=deal, dealer=dealer(1),
                       first_leader=first_leader(1))
    for per_page in (1, 4):
        document = BoardSheets(header=samples.HEADER, round=1, boards=(sheet,) * 4,
                               per_page=per_page)
        data = render(document)
        text = page_texts(data)[0]
        assert " ".join(text.split()).count("9 1 12 11 10 8 7 6 5 4 3 2") >= 4
        assert text_outside_page(data) == []


def test_cards_are_printed_large_enough_to_read_at_arms_length() -> None:
    """22 pt on a one-board page, 11 pt on a four-board page (shrunk only for a suit
    too long for its box)."""
    sizes: dict[int, list[float]] = {1: [], 4: []}
    for per_page in (1, 4):
        data = render(samples.board_sheets(boards=4, per_page=per_page))

        def visit(text: str, cm: list[float], tm: list[float], font: object, size: float,
                  per_page: int = per_page) -> None:
            if text.strip() and all(part.isdigit() for part in text.split()):
                sizes[per_page].append(size * tm[0])

        reader(data).pages[0].extract_text(visitor_text=visit)
    assert sizes[1] and sorted(sizes[1])[len(sizes[1]) // 2] >= 22
    assert sizes[4] and sorted(sizes[4])[len(sizes[4]) // 2] >= 11


def _digit_line_sizes(data: bytes, page: int = 0) -> dict[str, float]:
    """Each line of card ranks on a page and its font size (points)."""
    sizes: dict[str, float] = {}

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip() and all(part.isdigit() for part in text.split()):
            sizes[text.strip()] = size * tm[0]

    reader(data).pages[page].extract_text(visitor_text=visit)
    return sizes


def test_two_suits_of_one_length_print_at_one_size_whatever_the_cards() -> None:
    """South's 6 oros with the three two-digit ranks and West's 6 low oros: one size,
    and so is every other suit of the deal (a long suit wraps, it never shrinks)."""
    from engine.cards import Card, Suit
    from engine.deal import Deal
    from engine.seats import dealer, first_leader
    from tournaments.reports.documents import BoardSheet, BoardSheets, Traveller, Travellers

    oros = [Card(rank, Suit.O) for rank in (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)]
    rest = [c for c in __import__("engine.cards", fromlist=["DECK"]).DECK if c.suit is not Suit.O]
    hands = {
        Seat.S: oros[:6] + rest[:6],
        Seat.W: oros[6:] + rest[6:12],
        Seat.N: rest[12:24],
        Seat.E: rest[24:36],
    }
    deal = Deal.from_hands(hands)
    south, west = _suit_line(deal[Seat.S], Suit.O), _suit_line(deal[Seat.W], Suit.O)
    assert south == "9 1 12 11 10 8" and west == "7 6 5 4 3 2"
    sheet = BoardSheet(board=20, round=1, deal=deal, dealer=dealer(20),
                       first_leader=first_leader(20))
    traveller = Traveller(board=20, round=1, dealer=dealer(20), deal=deal, rows=())
    documents = [BoardSheets(header=samples.HEADER, round=1, boards=(sheet,) * 4, per_page=p)
                 for p in (1, 4)]
    documents.append(Travellers(header=samples.HEADER, travellers=(traveller,)))  # type: ignore[arg-type]
    for document in documents:
        data = render(document)
        sizes = _digit_line_sizes(data)
        sizes.pop("20", None)  # the board number in the centre
        assert max(sizes.values()) == pytest.approx(min(sizes.values())), (
            type(document).__name__, sizes)
        assert text_outside_page(data) == []
    save_png(render(documents[0]), "sample-board-sheets-same-length")
    save_png(render(documents[2]), "sample-traveller-board-20")


def test_the_board_number_keeps_clear_of_the_west_and_east_markers() -> None:
    from tournaments.reports.board_sheets import (
        DISC,
        INSET,
        LETTER,
        centre_number_size,
    )
    from tournaments.reports.pdf import FONT_BOLD

    for side in (54.0, 60.0, 95.0, 150.0):  # traveller, 4 per page, 1 per page
        letter = side * LETTER
        disc_left = side - letter * (INSET + DISC)  # East's disc, inner edge
        for board in range(1, 130):
            size = centre_number_size(board, side)
            right = side / 2 + width(str(board), FONT_BOLD, size) / 2
            assert right + letter * 0.3 <= disc_left, (side, board)
        assert centre_number_size(1, side) == pytest.approx(side * 0.3)  # no needless shrink


def test_no_document_calls_a_board_a_hand() -> None:
    from dataclasses import replace

    for document in (samples.board_sheets(boards=1), samples.entry_forms(tables=1),
                     samples.standings(pairs=3, rounds=1), samples.travellers(boards=1),
                     samples.score_cards(pairs=1)):
        for language, board, hand in (("ca", "Tauler", "Mà"), ("es", "Tablero", "Mano"),
                                      ("en", "Board", "Hand")):
            localised = replace(document, header=replace(document.header, language=language))
            text = " ".join(page_texts(render(localised)))  # type: ignore[arg-type]
            assert board in text, (type(document).__name__, language)
            assert hand not in text and hand.lower() + "s" not in text.lower().split()


@pytest.mark.parametrize(
    ("value", "language", "expected"),
    [
        (1.5682, "ca", "1,5682"),
        (1.5682, "es", "1,5682"),
        (1.5682, "en", "1.5682"),
        (3, "ca", "3"),
        (2.0, "ca", "2,0"),  # an average the web also writes 2,0 (Decimal("2.0"))
        (-0.25, "ca", "-0,25"),
        (1.56823, "ca", "1,5682"),
        (1.56825, "ca", "1,5683"),  # half up, as the export
        (None, "ca", ""),
    ],
)
def test_points_are_written_as_the_web_writes_them_in_each_language(
    value: float | None, language: str, expected: str
) -> None:
    assert fmt_points(value, language) == expected


def test_standings_print_decimal_commas_in_catalan() -> None:
    document = samples.standings(pairs=3, rounds=1)
    row = document.tables[0].rows[0]
    text = " ".join(words(page_texts(render(document))[0]))
    assert fmt_points(row.total, "ca") in text and "," in fmt_points(row.total, "ca")
    assert f"{row.percentage:.1f}" not in text


@given(
    ranks=st.lists(st.sampled_from([9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2]), unique=True,
                   max_size=12),
    available=st.floats(min_value=40, max_value=300),
    card_size=st.sampled_from([10.5, 11.0, 22.0]),
)
def test_any_suit_fits_its_line_at_the_size_its_length_gives(
    ranks: list[int], available: float, card_size: float
) -> None:
    from tournaments.reports.board_sheets import suit_size
    from tournaments.reports.pdf import FONT_BOLD

    size = suit_size(len(ranks), card_size, available)
    assert 0 < size <= card_size
    assert width(" ".join(map(str, ranks)), FONT_BOLD, size) <= available + 1e-6
