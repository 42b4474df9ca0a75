"""Every doctest in the repository runs: each file with a ``>>>`` example lies where
pytest's ``--doctest-modules`` (a ``.py`` under a test path) or ``--doctest-glob`` (a
Markdown file under a test path with a name the glob takes) collects it. An example in a
module outside the test paths had never run, and had gone stale unnoticed."""

from __future__ import annotations

import fnmatch
import shlex
import tomllib
from pathlib import Path

from tests.test_self_contained import ROOT, tracked_files

CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PYTEST = CONFIG["tool"]["pytest"]["ini_options"]


def collected(path: Path, testpaths: list[str], options: list[str]) -> bool:
    """Whether pytest, with these test paths and options, runs the doctests of ``path``."""
    relative = path.relative_to(ROOT)
    if not any(relative.is_relative_to(p) for p in testpaths):
        return False
    if path.suffix == ".py":
        return "--doctest-modules" in options
    globs = [o.split("=", 1)[1] for o in options if o.startswith("--doctest-glob=")]
    return any(fnmatch.fnmatch(path.name, g) for g in globs)


def test_every_file_with_a_doctest_is_collected():
    testpaths = PYTEST["testpaths"]
    options = shlex.split(PYTEST["addopts"])
    with_examples = [
        p for p in tracked_files()
        if p.suffix in (".py", ".md") and ">>> " in p.read_text(encoding="utf-8")
        and p.resolve() != Path(__file__).resolve()
    ]
    assert len(with_examples) > 20  # the engine's and the scorer's, at least
    missed = [str(p.relative_to(ROOT)) for p in with_examples
              if not collected(p, testpaths, options)]
    assert missed == []


def test_a_module_outside_the_test_paths_would_be_reported():
    assert not collected(ROOT / "benchmarks" / "bench_load.py", ["tests", "engine"],
                         ["--doctest-modules"])
    assert not collected(ROOT / "docs" / "performance.md", ["tests", "engine"],
                         ["--doctest-glob=README.md"])
    assert collected(ROOT / "engine" / "README.md", ["engine"], ["--doctest-glob=README.md"])
