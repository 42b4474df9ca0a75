"""scoring.text: the rule for text that enters (NFC, control characters)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.interchange.checks import Reader
from scoring.text import (
    MULTILINE_CONTROLS,
    control_character_positions,
    control_characters,
    is_control,
    normalise,
    normalise_all,
)

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


SEPARATORS_AND_BIDI = ["\u2028", "\u2029", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c",
                       "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]


@pytest.mark.parametrize("char", SEPARATORS_AND_BIDI)
def test_line_separators_and_bidirectional_controls_are_control_characters(char: str) -> None:
    code = f"U+{ord(char):04X}"
    assert is_control(char)
    assert control_characters(f"Anna{char}Puig") == [code]
    # Not even in a multi-line text (a note): a line end there is CR or LF.
    assert control_characters(f"a\n{char}b", allowed=MULTILINE_CONTROLS) == [code]
    assert control_character_positions(f"Pau{char}x{char}") == [(code, 4)]


def test_the_joiners_and_other_invisible_characters_stay_allowed() -> None:
    # ZWNJ and ZWJ (emoji sequences, Indic and Persian scripts), a zero-width space,
    # the characters next to the refused ranges.
    for text in ["\U0001f469\u200d\U0001f4bb", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
                 "a\u200bb", "\u2027\u202f\u2065\u206a"]:
        assert control_characters(text) == [] and control_character_positions(text) == []


def test_positions_count_from_one_and_name_each_character_once() -> None:
    assert control_character_positions("ab\u202ec\x07\u202e\u2028") == [
        ("U+202E", 3), ("U+0007", 5), ("U+2028", 7)]


@pytest.mark.parametrize("char", SEPARATORS_AND_BIDI)
def test_the_interchange_file_refuses_them_naming_the_character_and_its_position(
    char: str,
) -> None:
    reader = Reader()
    assert reader.text(f"Anna{char}Puig", "players[0].name") is None
    assert reader.problems == [
        f"players[0].name: holds the control character {char!r} at 5"]
    assert "\\u" in reader.problems[0]  # written as an escape, never the character itself
    assert Reader().text("\U0001f469\u200d\U0001f4bb a\u200cb", "x") is not None
