"""Every text of every PDF comes from the catalogues: a document in Spanish or English
shows no Catalan label, one in Catalan no Spanish or English label.

The word lists are the catalogues' own: the msgids used by the PDF modules
(``tournaments/reports/`` but its page and job modules) and their Spanish and English
translations, cut at their placeholders into phrases. A Catalan phrase whose language
writes it otherwise (``Tauler`` -> ``Tablero``, ``Board``) must not appear, as a whole
word, in that language's PDF; a Spanish or English phrase that is no Catalan one must
not appear in a Catalan PDF. Game words the same in every language (Contro, Oros...)
take no part. A label drawn with ``_()`` inside an f-string (never extracted, so never
translated) fails it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.factories import build_championship
from tests.tournaments.reports.pdfcheck import page_texts
from tournaments import services
from tournaments.models import Championship
from tournaments.reports.build import build
from tournaments.reports.documents import Kind
from tournaments.reports.render import render

LOCALE = Path(__file__).resolve().parents[3] / "locale"
#: Modules of tournaments/reports/ whose texts are on pages, not on paper.
NOT_ON_PAPER = ("tournaments/reports/views.py", "tournaments/reports/services.py")
#: Every kind, with the round it is asked for (0: every round).
KINDS = {
    Kind.BOARD_SHEETS: 1, Kind.ENTRY_FORMS: 1, Kind.TABLE_CARDS: 1, Kind.ROUND_PACK: 1,
    Kind.STANDINGS: 0, Kind.TRAVELLERS: 0, Kind.SCORE_CARDS: 0, Kind.GUIDE_CARDS: 0,
}


def _entries(language: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """``(msgid, translations, occurrences)`` of a catalogue, obsolete entries left out."""
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        where = [ref for line in lines if line.startswith("#:") for ref in line[2:].split()]
        fields: dict[str, str] = {}
        key = ""
        for line in lines:
            match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$', line)
            if match:
                key = match.group(1)
                fields[key] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and key:
                fields[key] += ast.literal_eval(line)
        if fields.get("msgid"):
            yield (fields["msgid"],
                   [value for name, value in fields.items() if name.startswith("msgstr")],
                   where)


def _phrases(text: str) -> set[str]:
    """``text`` cut at its placeholders and separators into phrases with letters: three
    at least, or two capitals (``EO``, ``EW``)."""
    out = set()
    for part in re.split(r"%\(\w+\)[sd]|%s|[·:\n]", text):
        phrase = part.strip(" .,;()[]/-–+=")
        letters = sum(ch.isalpha() for ch in phrase)
        if letters >= 3 or (letters == 2 and phrase.isupper()):
            out.add(phrase)
    return out


@cache
def word_lists() -> dict[str, frozenset[str]]:
    """Per language, the phrases a PDF in it must not show."""
    catalan: set[str] = set()
    translated: dict[str, set[str]] = {"es": set(), "en": set()}
    on_paper: dict[str, set[str]] = {"es": set(), "en": set()}
    for language in ("es", "en"):
        for msgid, translations, where in _entries(language):
            if not any(ref.startswith("tournaments/reports/") and not ref.startswith(NOT_ON_PAPER)
                       for ref in where):
                continue
            catalan |= _phrases(msgid)
            for translation in translations:
                on_paper[language] |= _phrases(translation)
                translated[language].add(translation)
    lists = {}
    for language in ("es", "en"):
        # A Catalan phrase its language writes the same somewhere (Ronda, Total) is fine.
        lists[language] = frozenset(
            phrase for phrase in catalan
            if not any(_contains(text, phrase) for text in translated[language]))
    lists["ca"] = frozenset((on_paper["es"] | on_paper["en"]) - catalan)
    return lists


def _contains(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def left_over(text: str, language: str) -> list[str]:
    """The phrases of another language found in ``text``, a PDF in ``language``."""
    flat = " ".join(text.split())
    return sorted(phrase for phrase in word_lists()[language] if _contains(flat, phrase))


@pytest.fixture(scope="module")
def championship(django_db_setup, django_db_blocker) -> Iterator[Championship]:  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        built = build_championship(pairs=6, rounds=2, boards_per_round=2, drawn_rounds=2,
                                   played_rounds=1)
        yield built
        services.championship_delete(championship=built, confirm_slug=built.slug,
                                     acting_user=None)


def test_the_word_lists_hold_the_labels_of_the_pdfs() -> None:
    lists = word_lists()
    assert {"Full de recorregut", "Tauler", "Reparteix", "Rètols de taula"} <= lists["es"]
    assert {"Full de recorregut", "Parella", "Comparatiu"} <= lists["en"]
    assert {"Traveller", "Board", "Hoja de recorrido", "Tablero"} <= lists["ca"]
    # Words every language writes alike are no evidence of anything.
    assert not {"Ronda", "Total", "Contro", "Oros"} & lists["es"]
    assert not {"Contro", "Oros", "Botifarra"} & (lists["en"] | lists["ca"])


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ca", "es", "en"])
@pytest.mark.parametrize("kind", list(KINDS), ids=[k.value for k in KINDS])
def test_every_document_is_all_in_its_language(
    championship: Championship, kind: Kind, language: str,
) -> None:
    document = build(championship, kind, round_number=KINDS[kind], copies=2,
                     language=language)
    text = "\n".join(page_texts(render(document)))
    assert len(text.split()) > 20  # a real document, not an empty page
    assert left_over(text, language) == []


def test_a_label_left_in_catalan_is_found() -> None:
    assert left_over("Traveller · Full de recorregut · Board 9", "en") == [
        "Full de recorregut"]
    assert left_over("Hoja de recorrido · Tablero 9 · Ronda 3", "es") == []
    assert left_over("Full de recorregut · Board 9 · Ronda 3", "ca") == ["Board"]


#: A classic championship's kinds, with the round each is asked for (0: every round).
CLASSIC_KINDS = {Kind.PAIRINGS: 1, Kind.TABLE_CARDS: 1, Kind.SCORE_SHEETS: 1,
                 Kind.ROUND_PACK: 1, Kind.STANDINGS: 0, Kind.SCORE_CARDS: 0}


@pytest.fixture(scope="module")
def classic(django_db_setup, django_db_blocker) -> Iterator[Championship]:  # type: ignore[no-untyped-def]
    from tests.tournaments.classic.conftest import make_classic
    from tournaments.models import Seating

    with django_db_blocker.unblock():
        made = make_classic(pairs=5, rounds=2, sant_vicenc=True)
        services.round_draw(round=made.rounds[0], seed=4, acting_user=made.organiser)
        for seating in Seating.objects.filter(round=made.rounds[0]):
            services.game_record(seating=seating, ns_points=101, ew_points=64, deals=9,
                                 ended_by="target", expected_version=None,
                                 acting_user=made.referee)
        yield made.championship
        services.championship_delete(championship=made.championship,
                                     confirm_slug=made.championship.slug, acting_user=None)
        made.organiser.delete()  # type: ignore[attr-defined]
        made.referee.delete()  # type: ignore[attr-defined]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ca", "es", "en"])
@pytest.mark.parametrize("kind", list(CLASSIC_KINDS), ids=[k.value for k in CLASSIC_KINDS])
def test_every_classic_document_is_all_in_its_language(
    classic: Championship, kind: Kind, language: str,
) -> None:
    if language != "ca" and not _has_classic_labels(language):
        pytest.skip("the catalogue does not hold the classic documents' labels yet")
    document = build(classic, kind, round_number=CLASSIC_KINDS[kind], language=language)
    text = "\n".join(page_texts(render(document)))
    assert len(text.split()) > 20
    assert left_over(text, language) == []


@cache
def _has_classic_labels(language: str) -> bool:
    """Whether ``language``'s catalogue translates the classic documents' own labels (a
    catalogue made before them would fail the check for want of them, not of a bug)."""
    return any(msgid == "Fulls d'anotació de la partida" and any(translations)
               for msgid, translations, _where in _entries(language))
