"""engine/ and scoring/ are pure Python: they never import Django (docs/architecture.md).

Two checks: importing every module of both packages in a fresh interpreter leaves
``django`` out of ``sys.modules``, and no source file names Django (or a higher layer) in
an import statement, even one that only runs in a branch the first check misses.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = ("engine", "scoring")
#: What each pure package may not import: Django and the layers above it.
FORBIDDEN = {
    "engine": ("django", "rest_framework", "celery", "tournaments", "config", "scoring"),
    "scoring": ("django", "rest_framework", "celery", "tournaments", "config"),
}

IMPORT_ALL = """
import importlib, json, pkgutil, sys
names = []
for package_name in {packages!r}:
    package = importlib.import_module(package_name)
    names.append(package_name)
    for info in pkgutil.walk_packages(package.__path__, package_name + "."):
        if info.name.endswith(".__main__"):  # a script runs on import; the AST scan covers it
            continue
        importlib.import_module(info.name)
        names.append(info.name)
loaded = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print(json.dumps({{"imported": names, "django": loaded}}))
"""


def imported_in_fresh_interpreter(packages: tuple[str, ...]) -> dict[str, list[str]]:
    completed = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL.format(packages=packages)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result: dict[str, list[str]] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def test_importing_every_engine_and_scoring_module_never_loads_django() -> None:
    result = imported_in_fresh_interpreter(PURE_PACKAGES)
    # The walk must really have reached the modules, or the check would prove nothing.
    assert {"engine", "engine.cards", "engine.deal", "engine.generate", "scoring"} <= set(
        result["imported"]
    )
    expected = {str(path.relative_to(ROOT).with_suffix("")).replace("/", ".") for path in sources()}
    expected = {name.removesuffix(".__init__") for name in expected if "__main__" not in name}
    # A compiled extension (engine._ddcore, once built) has a C source, not a .py one.
    expected |= {
        f"{path.parent.relative_to(ROOT)}.{path.name.split('.')[0]}".replace("/", ".")
        for package in PURE_PACKAGES
        for path in (ROOT / package).rglob("*.so")
    }
    assert set(result["imported"]) == expected
    assert result["django"] == []


def test_the_fresh_interpreter_check_sees_django_when_it_is_loaded() -> None:
    # The same probe on a package that does import Django must report it.
    pytest.importorskip("django")
    result = imported_in_fresh_interpreter(("django.conf",))
    assert "django" in result["django"]


def sources() -> Iterator[Path]:
    for package in PURE_PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def imported_modules(source: str) -> set[str]:
    """Top-level names of every module that ``source`` imports (absolute imports only)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_import_scan_finds_django_imports_in_any_form() -> None:
    source = (
        "import os\n"
        "def late():\n"
        "    from django.db import models\n"
        "try:\n"
        "    import django.conf as conf\n"
        "except ImportError:\n"
        "    pass\n"
        "from . import cards\n"
    )
    assert imported_modules(source) == {"os", "django"}


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_no_pure_source_file_imports_django_or_a_higher_layer(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no source files found under {package}/"
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            imported_modules(path.read_text(encoding="utf-8")) & set(FORBIDDEN[package])
        )
        for path in files
    }
    assert {path: names for path, names in offenders.items() if names} == {}
