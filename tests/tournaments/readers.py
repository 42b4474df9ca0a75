"""Reading what a person reads, the way a person reads it: the standings, traveller and
pair card pages (HTML), the API's JSON and the printed PDFs (their text, row by row),
each into plain rows of text or numbers, for the parity tests
(tests/tournaments/test_read_model_parity.py) to compare."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from typing import Any

from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tournaments.models import Championship
from tournaments.reports.build import build
from tournaments.reports.documents import Kind
from tournaments.reports.render import render

#: A number as the pages and PDFs print it: a sign, digits, a decimal comma (Catalan).
NUMBER = re.compile(r"[+\-−]?\d+(?:,\d+)?")


def number(text: str) -> Decimal:
    """``"1,25"`` -> ``Decimal("1.25")``; ``"−3"`` (the minus sign) -> ``Decimal(-3)``."""
    return Decimal(text.strip().replace("−", "-").replace(",", "."))


def rounded_as(value: float | int, text: str) -> Decimal:
    """An API number rounded half up to the decimals ``text`` shows (the page's column
    may show fewer than the API's 4)."""
    places = len(text.split(",")[1]) if "," in text else 0
    return Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


# --------------------------------------------------------------------------- HTML


@dataclass
class _Row:
    attrs: dict[str, str]
    cells: list[str] = field(default_factory=list)
    header: bool = False


class _Tables(HTMLParser):
    """The body rows of every ``<table id=...>``: each row's attributes and the text of
    each cell (``td`` or ``th``), spaces collapsed."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[_Row]] = {}
        self._table: str | None = None
        self._in_body = False
        self._row: _Row | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "table" and found.get("id"):
            self._table = found["id"]
            self.tables[self._table] = []
        elif tag == "tbody" and self._table:
            self._in_body = True
        elif tag == "tr" and self._in_body and self._table:
            self._row = _Row(found)
            self.tables[self._table].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
            self._row.header = self._row.header or tag == "th"
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.cells.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr":
            self._row = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(html: str) -> dict[str, list[_Row]]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


# --------------------------------------------------------------------------- PDF


def pdf_rows(data: bytes) -> list[list[list[str]]]:
    """Each page's lines of text, top to bottom, each line's pieces left to right: a
    table row's cells drawn on one baseline come out as one line (a cell wrapped on two
    lines comes out as lines of its own)."""
    pages = []
    for page in PdfReader(io.BytesIO(data)).pages:
        pieces: list[tuple[float, float, str]] = []

        def visit(text: str, cm: list[float], tm: list[float], _font: Any, _size: float,
                  pieces: list[tuple[float, float, str]] = pieces) -> None:
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            pieces.append((round(y, 1), x, text.strip()))

        page.extract_text(visitor_text=visit)
        lines: dict[float, list[tuple[float, str]]] = {}
        for y, x, text in pieces:
            lines.setdefault(y, []).append((x, text))
        pages.append([[t for _x, t in sorted(lines[y])] for y in sorted(lines, reverse=True)])
    return pages


def _is_int(text: str) -> bool:
    return text.isascii() and text.isdigit()


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class StandingLine:
    """One pair's line as a reader reads it: texts from the page and the PDF, numbers
    from the API (``None``: no score); ``mark``, the row's mark as the API names it
    (``playing``, ``withdrawn``, ``bye``, ``late``), read back from the page's and the
    PDF's words. ``rank`` ``None``: no place (``—`` on the page and the PDF)."""

    rank: int | None
    pair: int
    total: Any
    average: Any
    percentage: Any
    mark: str = "playing"


@dataclass(frozen=True)
class Read:
    lines: list[StandingLine]
    progress: tuple[int, int]
    #: The number the rows lead with: "total" or "average" (the page's and the PDF's
    #: column order, the API's ``ranked_by``).
    ranked_by: str = "total"


#: The marks' Catalan words, as the page and the PDF print them.
_MARKS = (("withdrawn", "ret."), ("bye", "descans"), ("late", "entra a la ronda"))


def _mark(text: str) -> str:
    return next((mark for mark, word in _MARKS if word in text), "playing")


def _place(text: str) -> int | None:
    """A place as the page and the PDF print it: a number, or ``—`` for none."""
    return None if text == "—" else int(text)


def standings_page(client: Client, championship: Championship, **query: int) -> Read:
    """The standings page's rows (``round=N``/``through=N`` as the page takes them), its
    number columns read in the header's order."""
    response = client.get(reverse("standings", args=[championship.slug]), query)
    assert response.status_code == 200
    html = response.content.decode()
    progress = re.search(r'<p id="progress">\D*?(\d+) de (\d+)', html)
    assert progress is not None
    order = re.findall(r'data-col="(total|average)"', html)
    assert order in ([], ["total", "average"], ["average", "total"]), order
    by_average = order == ["average", "total"]
    rows = html_tables(html).get("standings", [])
    return Read(
        [StandingLine(_place(r.cells[0]), int(r.attrs["data-pair"]),
                      r.cells[3] if by_average else r.cells[2],
                      r.cells[2] if by_average else r.cells[3], r.cells[4], _mark(r.cells[1]))
         for r in rows],
        (int(progress.group(1)), int(progress.group(2))),
        "average" if by_average else "total",
    )


def standings_api(client: Client, championship: Championship, **query: int) -> Read:
    response = client.get(reverse("api_standings", args=[championship.slug]), query)
    assert response.status_code == 200
    data = response.json()
    return Read(
        [StandingLine(r["rank"], r["pair"], r["total"], r["average"], r["percentage"],
                      r["status"])
         for r in data["standings"]],
        (data["progress"]["results_in"], data["progress"]["results_expected"]),
        data["ranked_by"],
    )


def standings_pdf(championship: Championship, *, through_round: int = 0) -> Read:
    """The first table of the printed standings (the overall one, or the one after
    ``through_round``): each row's rank, pair, mark and its last four cells (total,
    boards, average, percentage, or average, total, boards, percentage when the header
    puts "Mitjana" first; the players' cell may wrap onto lines of its own)."""
    data = render(build(championship, Kind.STANDINGS, round_number=through_round,
                        language="ca"))
    pages = pdf_rows(data)
    text = " ".join(" ".join(cell for line in pages[0] for cell in line).split())
    progress = re.search(r"Resultats: (\d+) de (\d+)", text)
    assert progress is not None
    by_average = text.index("Mitjana") < text.index("Total")
    rows: list[tuple[list[str], list[str]]] = []  # (cells, the players' wrapped lines)
    for number_, page in enumerate(pages):
        title = " ".join(" ".join(line) for line in page[:4])
        if number_ and "després de la ronda" in title and not through_round:
            break  # the overall table ended; the standings after each round follow
        for cells in page:
            if len(cells) >= 6 and (_is_int(cells[0]) or cells[0] == "—") and _is_int(
                    cells[1]):
                rows.append((cells, []))
            elif rows and "Pàgina" not in " ".join(cells):
                rows[-1][1].extend(cells)
    lines: list[StandingLine] = []
    for cells, wrapped in rows:
        if by_average:
            average, total, _boards, percentage = cells[-4:]
        else:
            total, _boards, average, percentage = cells[-4:]
        mark = _mark(" ".join(cells[2:-4] + wrapped))
        lines.append(StandingLine(_place(cells[0]), int(cells[1]), total, average, percentage,
                                  mark))
    return Read(lines, (int(progress.group(1)), int(progress.group(2))),
                "average" if by_average else "total")


# --------------------------------------------------------------------------- traveller


@dataclass(frozen=True)
class TravellerLine:
    """One table's result on the board: ``scores`` ``(ns, ew)`` as ``+9``/``-9``
    (``None``: no hand score), ``comparative`` ``(ns, ew)``."""

    table: int
    ns: int
    ew: int
    ns_points: int | None
    scores: tuple[Any, Any] | None
    comparative: tuple[Any, Any]


def traveller_page(client: Client, championship: Championship, board: int
                   ) -> list[TravellerLine]:
    response = client.get(reverse("traveller", args=[championship.slug, board]))
    assert response.status_code == 200
    out = []
    for row in html_tables(response.content.decode()).get("traveller", []):
        table, who, taken, scores, comparative = row.cells
        pairs = re.match(r"(\d+)–(\d+)", who)
        assert pairs is not None, who
        ns_score, ew_score = scores.split(" / ")
        ns_comp, ew_comp = comparative.split(" / ")
        out.append(TravellerLine(
            int(table), int(pairs.group(1)), int(pairs.group(2)),
            None if taken.startswith("—") else int(taken.split()[0]),
            None if ns_score == "—" else (ns_score, ew_score), (ns_comp, ew_comp),
        ))
    return out


def traveller_api(client: Client, championship: Championship, board: int
                  ) -> list[TravellerLine]:
    response = client.get(reverse("api_traveller", args=[championship.slug, board]))
    assert response.status_code == 200
    return [
        TravellerLine(
            r["table"], r["ns"], r["ew"], r["ns_points_taken"],
            None if r["ns_score"] is None else (r["ns_score"], r["ew_score"]),
            (r["ns_comparative"], r["ew_comparative"]),
        )
        for r in response.json()["results"]
    ]


def traveller_pdf(championship: Championship, board: int, round_number: int
                  ) -> list[TravellerLine]:
    """Board ``board``'s rows in the printed travellers of its round. A row's cells:
    table, NS, EW, trump, doubles, points NS and EW, hand scores NS and EW, comparative
    NS and EW, a note; empty cells print nothing, so the numbers are read by count."""
    data = render(build(championship, Kind.TRAVELLERS, round_number=round_number,
                        language="ca"))
    out = []
    for page in pdf_rows(data):
        title = " ".join(" ".join(line) for line in page[:2])
        if f"Tauler {board} ·" not in title:
            continue
        for cells in page:
            numbers = [c for c in cells if NUMBER.fullmatch(c)]
            if len(numbers) < 5 or not all(_is_int(c) for c in cells[:3]):
                continue
            scores = (numbers[5], numbers[6]) if len(numbers) == 9 else None
            out.append(TravellerLine(
                int(numbers[0]), int(numbers[1]), int(numbers[2]),
                int(numbers[3]) if len(numbers) >= 7 else None, scores,
                (numbers[-2], numbers[-1]),
            ))
    return out


# --------------------------------------------------------------------------- pair card


@dataclass(frozen=True)
class CardLine:
    board: int
    opponent: int
    score: Any
    comparative: Any


@dataclass(frozen=True)
class Card:
    total: Any
    rank: int | None
    lines: list[CardLine]


def card_page(client: Client, championship: Championship, pair: int) -> Card:
    response = client.get(reverse("pair_card", args=[championship.slug, pair]))
    assert response.status_code == 200
    html = response.content.decode()
    panel = re.search(r"<strong>Punts: ([^<]+)</strong> · Taulers: \d+(?: · Posició: (\d+|—))?",
                      html)
    assert panel is not None
    lines = []
    for row in html_tables(html).get("score-card", []):
        if row.header:
            continue  # a round's heading
        board, who, _result, score, comparative = row.cells
        opponent = re.search(r"vs (\d+)", who)
        assert opponent is not None, who
        lines.append(CardLine(int(board), int(opponent.group(1)),
                              None if score == "—" else score, comparative))
    return Card(panel.group(1), _place(panel.group(2)) if panel.group(2) else None, lines)


def card_api(client: Client, championship: Championship, pair: int) -> Card:
    response = client.get(reverse("api_score_card", args=[championship.slug, pair]))
    assert response.status_code == 200
    data = response.json()
    return Card(data["total"], data["rank"], [
        CardLine(r["board"], r["opponent"], r["score"], r["comparative"])
        for r in data["rows"]
    ])


def card_pdf(championship: Championship, pair: int) -> Card:
    """Pair ``pair``'s printed score card: rows of round, board, direction, opponent
    ("3: names"), result, hand score (blank when none), comparative and running total;
    then "Total" and the total. The printed card has no rank."""
    data = render(build(championship, Kind.SCORE_CARDS, language="ca"))
    lines: list[CardLine] = []
    total = None
    for page in pdf_rows(data):
        title = " ".join(page[0]) if page else ""
        if not re.search(rf"· Parella {pair}:", title):
            continue
        for at, cells in enumerate(page):
            if cells[:1] == ["Total"]:
                total = cells[-1]
            elif len(cells) >= 5 and _is_int(cells[0]) and _is_int(cells[1]):
                # The opponent's cell ("3: names") and the result's wrap onto lines of
                # their own when long: the opponent is then on a line above, after the
                # previous row.
                above: list[str] = []
                for before in reversed(page[:at]):
                    if len(before) >= 2 and _is_int(before[0]) and _is_int(before[1]):
                        break
                    above.extend(before)
                opponent = next((c for c in [*cells[2:], *above]
                                 if re.match(r"\d+:", c)), None)
                assert opponent is not None, cells
                numbers = [c for c in cells[3:] if NUMBER.fullmatch(c)]
                score = numbers[-3] if len(numbers) >= 3 else None
                lines.append(CardLine(int(cells[1]), int(opponent.split(":")[0]), score,
                                      numbers[-2]))
    return Card(total, None, lines)
