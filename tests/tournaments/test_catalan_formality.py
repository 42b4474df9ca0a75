"""The Catalan texts speak to the user in the formal plural (vosaltres: "torneu a desar",
"confirmeu-lo"), never in "tu": a sentence that tells the user something or asks them to
do something. Button and link labels ("Entra", "Torna-ho a fer") are names, not sentences."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: "tu" forms that only a sentence addressed to the user uses.
TU = re.compile(r"(: tria |\b(No tens|tens permís|Revisa'l|Revisa-ho|Comprova-ho|Escriu |Tria |"
                r"Torna a obrir|Torna a desar|pots |vols |has de ))")


def test_no_catalan_text_addresses_the_user_as_tu() -> None:
    found = []
    for folder, pattern in (("tournaments", "*.py"), ("templates", "*.html")):
        for path in (ROOT / folder).rglob(pattern):
            if "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if TU.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


#: Second-person singular forms ("tu") that are never a button's label: a verb in "tu"
#: other than the imperative (havies, vas desar, pots), and the pronoun and possessives.
TU_WORDS = re.compile(
    r"\b(tu|havies|has de|vas [a-zàèéíòóú]+r|tens|pots|vols|saps|estàs|ets|hauries|"
    r"podries|voldries|teu|teva|teus|teves)\b", re.IGNORECASE)


def _catalan_msgids() -> list[str]:
    """Every UI text in Catalan: the msgids (and plural msgids) of the Spanish catalogue,
    gathered from templates and Python, so no file is missed."""
    text = (ROOT / "locale/es/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    return [
        "".join(re.findall(r'"(.*)"', block))
        for block in re.findall(r'^msgid(?:_plural)? ((?:".*"\n)+)', text, re.MULTILINE)
    ]


def test_no_catalan_ui_text_uses_a_tu_form() -> None:
    found = [msgid for msgid in _catalan_msgids() if TU_WORDS.search(msgid)]
    assert found == []


def test_the_tu_check_catches_the_forms_it_names() -> None:
    assert TU_WORDS.search("Ja ho havies desat en una altra pestanya")
    assert TU_WORDS.search("Ho vas desar tu (versió 2):")
    assert not TU_WORDS.search("Ho vau desar vós (versió 2): torneu a desar")
    assert not TU_WORDS.search("Entra a partir de la ronda 2")
    assert len(_catalan_msgids()) > 500


def test_the_tu_check_of_the_sources_catches_a_heading_after_a_colon() -> None:
    assert TU.search("Ronda 1: tria la taula")
    assert not TU.search("Ronda 1: trieu la taula") and not TU.search("Punts de qui tria")
