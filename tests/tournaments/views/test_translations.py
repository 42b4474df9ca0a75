"""The Spanish and English catalogues translate every UI text, and the committed .mo
files match their .po sources (a newcomer's machine has no msgfmt to rebuild them)."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[3] / "locale"


def po_entries(path: Path) -> dict[str, list[str]]:
    """``{msgid: [msgstr, ...]}`` of a .po file (plural forms in order), header left out.
    An entry with a context is keyed ``context + "\x04" + msgid``, as in a .mo file."""
    entries: dict[str, list[str]] = {}
    msgid: str | None = None
    context = ""
    current: list[str] | None = None
    target = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgctxt "):
            context = ast.literal_eval(line[8:]) + "\x04"
        elif line.startswith("msgid "):
            msgid, target = context + ast.literal_eval(line[6:]), "id"
            context = ""
        elif line.startswith("msgid_plural "):
            target = "plural"
        elif line.startswith("msgstr"):
            current = [ast.literal_eval(line.split(" ", 1)[1])]
            if line.startswith("msgstr[") and not line.startswith("msgstr[0]") and msgid:
                entries[msgid].append(current[0])
            elif msgid:
                entries[msgid] = current
            target = "str"
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if target == "id" and msgid is not None:
                msgid += text
            elif target == "str" and msgid:
                entries[msgid][-1] += text
    return entries


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_ui_text_is_translated(language: str) -> None:
    entries = po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")
    assert len(entries) > 300
    # msgfmt leaves fuzzy entries out of the .mo: none may remain.
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    assert [msgid for msgid, texts in entries.items() if not all(texts)] == []


@pytest.mark.parametrize("language", ["ca", "es", "en"])
def test_compiled_catalogue_matches_its_source(language: str) -> None:
    folder = LOCALE / language / "LC_MESSAGES"
    entries = po_entries(folder / "django.po")
    with (folder / "django.mo").open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    for msgid, texts in entries.items():
        if texts[0] and len(texts) == 1:
            assert catalogue.gettext(msgid) == texts[0], msgid


def test_catalan_month_names_in_dates_carry_their_preposition() -> None:
    """Django's own Catalan catalogue gives the "alt. month" names bare ("novembre"), so
    DATE_FORMAT ("j E \\d\\e Y") wrote "29 novembre de 2026"; ours adds de/d'."""
    entries = po_entries(LOCALE / "ca" / "LC_MESSAGES" / "django.po")
    assert entries["alt. month\x04November"] == ["de novembre"]
    assert entries["alt. month\x04April"] == ["d'abril"]
    assert entries["alt. month\x04October"] == ["d'octubre"]


def test_spanish_says_dobles_and_contros_never_doblaje() -> None:
    entries = po_entries(LOCALE / "es" / "LC_MESSAGES" / "django.po")
    assert entries["Doblatge"] == ["Dobles"]
    assert entries["Delegat i doblatges"] == ["Delegación y contros"]
    assert not [m for m, texts in entries.items() if any("Dobla" in t for t in texts)]



@pytest.mark.parametrize("language", ["ca", "es", "en"])
def test_every_plural_entry_has_every_form_its_language_counts(language: str) -> None:
    """A plural entry short of a form falls back to the Catalan source for the numbers
    that form covers (Spanish counts three: 1, whole millions, the rest)."""
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    forms = int(text.split("nplurals=", 1)[1].split(";", 1)[0])
    plural = [entry for entry in text.split("\n\n") if "\nmsgid_plural " in entry]
    short = [entry.split("\nmsgid_plural", 1)[0] for entry in plural
             if entry.count("\nmsgstr[") != forms]
    assert plural and short == []

@pytest.mark.parametrize(("language", "expected"), [
    ("es", "24 parejas"), ("en", "24 pairs"), ("ca", "24 parelles"),
])
def test_a_plural_of_24_is_in_the_language_asked(language: str, expected: str) -> None:
    from django.utils import translation

    with translation.override(language):
        said = translation.ngettext("%(n)s parella", "%(n)s parelles", 24) % {"n": 24}
    assert said == expected
