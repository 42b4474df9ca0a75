"""While a round is half played, no public URL, API endpoint, header or PDF shows a card
or a result of a board that is not complete, to the public or to a plain referee.

Board 1 of round 1 is complete (public); board 2 has one of its two tables played
(hidden). Every public page and every GET path of the API schema is read before and
after that hidden result is entered: with the digits left out (progress counts move),
the bodies must not change, and no JSON body may hold the hidden deal's hands or a
result of board 2. The public PDFs are built in both states and compared the same way.
The one exception: a referee reads a table's own result at its resource (``.../result/``),
as the referee's sheet of the table shows it (docs/decisions.md 30).
"""

from __future__ import annotations

import difflib
import io
import itertools
import json
import re
from typing import Any

import pytest
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import Api
from tests.tournaments.views.helpers import record

pytestmark = pytest.mark.django_db

HIDDEN = 2  # board number
DIGITS = re.compile(r"[0-9]+")
#: "(en falten 2)" -> "(en falta 1)": how many tables still have to play moves.
MISSING = re.compile(r"\bfalten\b")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|csrftoken=[^;]*')
#: Bodies that legitimately change when a hidden result is entered: the print-job list
#: (jobs of the first state are there in the second) and the result resource itself
#: (checked on its own below).
CHANGING = ("/prints/", "/result/")


def _hands(api: Api) -> list[list[str]]:
    board = next(b for b in api.small.boards if b.number == HIDDEN)
    return [list(cards) for cards in board.get_deal().to_json().values()]


def _leaks(data: Any, hands: list[list[str]], path: str = "") -> list[str]:
    """Where a JSON body holds a hidden hand or a played result of the hidden board."""
    found: list[str] = []
    if isinstance(data, list):
        if data in hands:
            found.append(f"{path}: a hand of board {HIDDEN}")
        for i, item in enumerate(data):
            found += _leaks(item, hands, f"{path}[{i}]")
    elif isinstance(data, dict):
        if data.get("board") == HIDDEN:
            for key in ("values", "deal", "trump", "ns_points_taken", "score",
                        "ns_score", "comparative", "ns_comparative"):
                if data.get(key) is not None:
                    found.append(f"{path}.{key}: board {HIDDEN}")
            if data.get("results"):
                found.append(f"{path}.results: board {HIDDEN}")
        for key, value in data.items():
            found += _leaks(value, hands, f"{path}.{key}")
    return found


def _api_urls(client: APIClient, slug: str) -> list[str]:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    # A table's link (``{secret}``) shows that table's own results, hidden or not, to
    # whoever holds its secret (the players at it): read here without one.
    values = {"slug": [slug], "round": [1], "table": [1, 2], "board": [1, 2],
              "number": [1, 2, 3, 4], "secret": ["no-table-secret"]}
    urls: list[str] = []
    for path, item in schema["paths"].items():
        if "get" not in item or "{job_id}" in path:
            continue
        names = re.findall(r"{(\w+)}", path)
        for combo in itertools.product(*(values[n] for n in names)):
            url = path
            for name, value in zip(names, combo, strict=True):
                url = url.replace("{" + name + "}", str(value))
            urls.append(url)
    return urls


def _page_urls(slug: str) -> list[str]:
    c = f"/c/{slug}/"
    return ["/", c, c + "standings/", c + "standings/?round=1", c + "standings/?through=1",
            *[c + f"boards/{n}/" for n in (1, 2, 3, 4)],
            *[c + f"pairs/{n}/" for n in (1, 2, 3, 4)], c + "prints/"]


def _read(client: APIClient, urls: list[str], hands: list[list[str]],
          *, own_results: bool = False) -> dict[str, str]:
    """Each URL's body less what moves; ``own_results``: the reader is a referee, who may
    read a table's result at its resource (checked apart)."""
    bodies: dict[str, str] = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, url
        text = b"".join(response.streaming_content).decode() if response.streaming \
            else response.content.decode()
        if response.get("Content-Type", "").startswith("application/json"):
            problems = _leaks(json.loads(text), hands)
            if own_results and url.endswith("/result/"):
                problems = [p for p in problems if p != f".values: board {HIDDEN}"]
            assert not problems, (url, problems)
            text = json.dumps(_without(json.loads(text)), sort_keys=True)
        headers = " ".join(f"{k}={v}" for k, v in response.items()
                           if k not in ("Content-Length", "Date", "Set-Cookie", "Vary"))
        text = MISSING.sub("falta", CSRF.sub("", text + "\n" + headers))
        bodies[url] = DIGITS.sub("#", text)
    return bodies


def _without(data: Any) -> Any:
    """The JSON body less what moves with any result entered: progress and the tables
    still to play (counts and numbers only, checked without digits anyway)."""
    if isinstance(data, dict):
        return {k: _without(v) for k, v in data.items()
                if k not in ("progress", "tables_missing")}
    if isinstance(data, list):
        return [_without(v) for v in data]
    return data


def _pdf_texts(client: APIClient, slug: str, on_commit: Any) -> dict[str, str]:
    texts: dict[str, str] = {}
    for kind, round_number in itertools.product(("standings", "travellers", "score-cards"),
                                                (0, 1)):
        with on_commit(execute=True):  # the job runs in-process once its row commits
            job = client.post(f"/api/v1/c/{slug}/prints/",
                              {"kind": kind, "round_number": round_number}, format="json")
        assert job.status_code in (200, 201), job.content
        status = client.get(f"/api/v1/c/{slug}/prints/{job.json()['id']}/").json()
        assert status["status"] == "done", status
        response = client.get(status["download"])
        assert response.status_code == 200
        data = b"".join(response.streaming_content)
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
        texts[f"{kind}-{round_number}"] = DIGITS.sub("#", text)
    return texts


@pytest.mark.slow
def test_nothing_of_a_hidden_board_shows_to_the_public_or_a_plain_referee(
    api: Api, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Slow by design: every public and plain-referee address of the site (pages, API,
    PDFs) is read and searched for a hidden board's deal and results."""
    settings.PRINT_JOBS_PER_MINUTE = 1000
    small, slug = api.small, api.small.championship.slug
    board1, board2 = small.boards
    record(small.seatings[0], board1, 50)
    record(small.seatings[1], board1, 30)  # board 1 complete: public
    hands = _hands(api)
    readers = {"public": APIClient(), "referee": api.token_client(small.referee)}
    referee_session = APIClient()
    referee_session.force_login(small.referee)
    readers["referee-session"] = referee_session
    urls = _api_urls(readers["public"], slug) + _page_urls(slug)
    assert len(urls) > 30

    before = {who: _read(c, urls, hands, own_results=who != "public")
              for who, c in readers.items()}
    pdfs_before = _pdf_texts(readers["public"], slug, django_capture_on_commit_callbacks)
    record(small.seatings[0], board2, 67, trump="B", contro=True)  # board 2: hidden
    after = {who: _read(c, urls, hands, own_results=who != "public")
             for who, c in readers.items()}
    pdfs_after = _pdf_texts(readers["public"], slug, django_capture_on_commit_callbacks)

    for who in readers:
        changed = [url for url in urls if before[who][url] != after[who][url]
                   and not any(part in url for part in CHANGING)]
        diffs = [
            "\n".join(difflib.unified_diff(before[who][u].splitlines(),
                                           after[who][u].splitlines(), lineterm="", n=0))
            for u in changed
        ]
        assert not changed, (who, changed, diffs)
    assert pdfs_after == pdfs_before

    hidden_result = f"/api/v1/c/{slug}/rounds/1/tables/1/boards/{HIDDEN}/result/"
    public = readers["public"].get(hidden_result)
    assert public.status_code == 404 and "ETag" not in public
    referee = readers["referee"].get(hidden_result)
    # A referee sees a table's result as the referee's sheet of the table shows it.
    assert referee.status_code == 200 and referee.json()["values"] is not None
    # Board sheets and entry forms (the deals) are not the public's nor a referee's.
    for who in ("public", "referee"):
        sheet = readers[who].post(f"/api/v1/c/{slug}/prints/",
                                  {"kind": "board-sheets", "round_number": 1}, format="json")
        assert sheet.status_code in (401, 403), (who, sheet.status_code)
