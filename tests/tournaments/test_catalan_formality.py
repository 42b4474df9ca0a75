"""The Catalan texts speak to the user in the formal plural (vosaltres: "torneu a desar",
"confirmeu-lo"), never in "tu": a sentence that tells the user something or asks them to
do something. Button and link labels ("Entra", "Torna-ho a fer") are names, not sentences."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: "tu" forms that only a sentence addressed to the user uses.
TU = re.compile(r"\b(No tens|tens permís|Revisa'l|Revisa-ho|Comprova-ho|Escriu |Tria |"
                r"Torna a obrir|Torna a desar|pots |vols |has de )")


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
