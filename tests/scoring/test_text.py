"""scoring.text: the rule for text that enters (NFC, control characters)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from scoring.text import MULTILINE_CONTROLS, control_characters, normalise, normalise_all

NURIA_NFD = "Nu\u0301ria"
NURIA = "N\u00faria"


def test_a_decomposed_name_is_composed() -> None:
    assert NURIA_NFD != NURIA
    assert normalise(NURIA_NFD) == NURIA and len(normalise(NURIA_NFD)) == 5
    assert normalise("Llu\u0131\u0301s") == "Llu\u0131\u0301s"  # nothing to compose: kept
    assert normalise("Cal\u00b7l\u00edgraf C\u0327") == "Cal\u00b7l\u00edgraf \u00c7"


@given(st.text())
def test_normalising_is_idempotent_and_gives_nfc(text: str) -> None:
    once = normalise(text)
    assert unicodedata.is_normalized("NFC", once) and normalise(once) == once


def test_control_characters_are_named_once_each_in_order() -> None:
    assert control_characters("a\x07b\x07\x00c\x85") == ["U+0007", "U+0000", "U+0085"]
    assert control_characters("a\tb") == ["U+0009"]
    assert control_characters("a\tb\r\nc", allowed=MULTILINE_CONTROLS) == []
    assert control_characters("a\x1bb", allowed=MULTILINE_CONTROLS) == ["U+001B"]
    assert control_characters(NURIA_NFD + " \u200b\u00b7") == []  # not category Cc


def test_every_text_of_a_json_value_is_composed_keys_too() -> None:
    value = {"pairs": [{"player1": NURIA_NFD, "number": 1, "ok": True}],
             "Jose\u0301": None, "x": 1.5}
    assert normalise_all(value) == {"pairs": [{"player1": NURIA, "number": 1, "ok": True}],
                                     "Jos\u00e9": None, "x": 1.5}
