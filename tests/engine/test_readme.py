"""engine/README.md's examples run and give what the page says."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "engine" / "README.md"


def test_engine_readme_examples_give_the_documented_output() -> None:
    # Failures are printed (pytest shows them with the captured output).
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.attempted >= 30  # the examples were found
    assert result.failed == 0
