"""The project stands alone: no tracked file points outside the repository.

Code, docstrings, help texts, templates and documents say the rule itself or point into
docs/ (rules.md, file-format.md, architecture.md, decisions.md); never to a folder shared
with other projects, to specification files kept elsewhere, to a style guide outside the
tree, to an issue number or to a task description. Test data (``tests/**/data/``), vendored
third-party files (``vendor/``) and this file are left out.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
THIS = Path(__file__).resolve()

#: (name, pattern) of every reference to something outside the repository.
OUTSIDE = [
    ("a shared folder", re.compile(r"\.\./shared|shared/")),
    ("a spec folder", re.compile(r"spec/")),
    ("an outside style guide", re.compile(r"STYLE")),
    ("an issue number", re.compile(r"\bissues? ?#\s?\d|\bissue \d", re.IGNORECASE)),
    # The noun, not the word in "briefly" or a function named brief().
    ("a task description",
     re.compile(r"\b(the|a|this|my|your|our|its)\s+brief\b|\bbrief[-_]?\w*\.md", re.IGNORECASE)),
    ("an outside spec file", re.compile(r"championship-json\.md|\bnotation\.md")),
]
#: ``rules.md`` is docs/rules.md: elsewhere than in docs/ it must be written so.
BARE_RULES_MD = re.compile(r"(?<![\w/.\[-])rules\.md")


def tracked_files() -> list[Path]:
    """Every file git tracks (or, without git, every file outside .git and .venv)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode("utf-8")
        paths = [ROOT / name for name in listed.split("\0") if name]
    except (OSError, subprocess.SubprocessError):
        skip = {".git", ".venv", "node_modules", "var"}
        paths = [
            p for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
        ]
    return [p for p in paths if p.is_file()]


def is_test_data(path: Path) -> bool:
    """Test data, and third-party files copied in as they are (``vendor/`` folders)."""
    parts = path.relative_to(ROOT).parts
    return (parts[0] == "tests" and "data" in parts[:-1]) or "vendor" in parts[:-1]


def outside_references(text: str, *, in_docs: bool = False) -> list[tuple[int, str, str]]:
    """(line, what, line text) of every reference to something outside the repository."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for what, pattern in OUTSIDE:
            if pattern.search(line):
                found.append((number, what, line.strip()))
        if not in_docs and BARE_RULES_MD.search(line):
            found.append((number, "rules.md outside docs/ (write docs/rules.md)", line.strip()))
    return found


def test_the_scan_finds_each_kind_of_outside_reference() -> None:
    lines = [
        # Built from pieces, so that this file itself holds no such reference.
        "Source: " + "/".join(["..", "shared", "spec", "rules.md"]),  # shared, spec, bare
        "house style (" + "STYLE" + ".md)",
        "as issue 4 says",
        "see issue #12",
        "the brief's range",
        'championship-json.md "Export adds"',
        'notation.md "Boards"',
        "rules.md \"Legal play\"",
        # none of these
        'docs/rules.md "Legal play"',
        "_brief(message) keeps messages short",
        "from scoring.text import brief, show",
        "a briefly unreachable broker",
        "docs/file-format.md",
    ]
    found = outside_references("\n".join(lines))
    assert sorted({line for line, _, _ in found}) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [what for line, what, _ in found if line == 1] == [
        "a shared folder", "a spec folder"
    ]
    assert outside_references("[rules](rules.md)", in_docs=True) == []
    assert outside_references("[rules.md](docs/rules.md)") == []


def test_the_scan_reads_the_tracked_files() -> None:
    names = {str(p.relative_to(ROOT)) for p in tracked_files()}
    assert {"README.md", "docs/rules.md", "engine/cards.py", "scoring/__init__.py"} <= names


def test_no_tracked_file_points_outside_the_repository() -> None:
    problems = []
    for path in tracked_files():
        if path.resolve() == THIS or is_test_data(path):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary: fonts, images, compiled catalogues
        relative = path.relative_to(ROOT)
        in_docs = relative.parts[0] == "docs"
        problems.extend(
            f"{relative}:{line}: {what}: {content[:120]}"
            for line, what, content in outside_references(text, in_docs=in_docs)
        )
    assert problems == []


DOC_REFERENCE = re.compile(r"\bdocs/([\w-]+\.md)")


def _lines() -> Iterator[tuple[Path, int, str]]:
    """``(path, line number, line)`` of every tracked text file but this one and test data."""
    for path in tracked_files():
        if path.resolve() == THIS or is_test_data(path):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            yield path, number, line


def test_every_document_of_docs_that_a_file_names_exists() -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{number}: docs/{name}"
        for path, number, line in _lines()
        for name in DOC_REFERENCE.findall(line)
        if not (ROOT / "docs" / name).is_file()
    ]
    assert missing == []


#: A bare upper-case document name (``README.md``, ``CONTRIBUTING.md``): it must be a
#: file of the repository, at its root or beside the file that names it.
BARE_DOCUMENT = re.compile(r"(?<![\w/.-])([A-Z][A-Z_-]+\.md)\b")


def test_every_bare_document_name_is_a_file_of_the_repository() -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{number}: {name}"
        for path, number, line in _lines()
        for name in BARE_DOCUMENT.findall(line)
        if not (ROOT / name).is_file() and not (path.parent / name).is_file()
    ]
    assert missing == []
