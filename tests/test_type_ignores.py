"""Every ``type: ignore`` in the project's code names the error it silences and says why:
``# type: ignore[attr-defined]  # reportlab's own, not in its stubs``. A bare ignore
hides every error of its line, present and future, and one without a reason cannot be
judged when the stubs improve."""

from __future__ import annotations

import re

from tests.test_self_contained import ROOT, tracked_files

PACKAGES = ("engine", "scoring", "tournaments", "config")
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def problems(line: str) -> str | None:
    """What is wrong with the ``type: ignore`` on ``line`` (``None``: nothing, or none).

    >>> problems("x = 1  # type: ignore")
    'no error code'
    >>> problems("x = 1  # type: ignore[assignment]")
    'no reason'
    >>> problems("x = 1  # type: ignore[assignment]  # the stub is wrong") is None
    True
    """
    found = IGNORE.search(line)
    if found is None:
        return None
    if not found.group("codes"):
        return "no error code"
    rest = found.group("rest").strip()
    if not rest.startswith("#") or len(rest.lstrip("# ")) < 4:
        return "no reason"
    return None


def test_every_type_ignore_names_its_error_and_says_why():
    found = []
    for path in tracked_files():
        relative = path.relative_to(ROOT)
        if path.suffix != ".py" or relative.parts[0] not in PACKAGES:
            continue
        if "migrations" in relative.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            problem = problems(line)
            if problem:
                found.append(f"{relative}:{number}: {problem}")
    assert found == []
