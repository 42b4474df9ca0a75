"""The layers of docs/architecture.md hold: who may import whom, and who writes.

- engine/ and scoring/ never import Django: tests/engine/test_purity.py.
- Models, selectors, services and the PDF renderers import only the layers below them;
  services send Celery tasks by name (``tournaments/enqueue.py``), never import them; a
  page of ``tournaments/web/`` imports ``web/common.py``, never another page.
- No module of ``tournaments`` imports itself through others (an import circle), even
  through an import inside a function; no module of the app imports another module's
  private name (``from x import _y``).
- Views, API views, Celery tasks, management commands, admin actions and the read
  modules (selectors, the reports' document builder) never write through the ORM
  themselves: every write goes through ``tournaments/services/`` (or, for print jobs,
  ``tournaments/reports/services.py``), where it is atomic and audited. An AST scan looks
  for ``.save()``, ``.delete()``, ``.create()``, ``.update()``, ``bulk_create``,
  ``bulk_update``, ``get_or_create``, ``update_or_create``, ``select_for_update`` and
  related-manager ``add``/``remove``/``set``/``clear`` on model managers, querysets and
  instances.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "tournaments"

# -- imports ---------------------------------------------------------------------------------


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def imported_modules(source: str, module: str = "") -> set[str]:
    """Full dotted names of every module ``source`` imports, relative imports resolved
    against ``module`` (the importing module's own dotted name). ``from a import b`` gives
    both ``a`` and ``a.b`` (``b`` may be a submodule)."""
    package = module.rsplit(".", 1)[0] if module else ""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def test_the_import_scan_resolves_relative_imports_and_from_imports() -> None:
    source = "import os\nfrom . import selectors\nfrom ..reports import build\nfrom a.b import c\n"
    names = imported_modules(source, "tournaments.services.results")
    assert {"os", "tournaments.services.selectors", "tournaments.reports.build"} <= names
    assert {"a.b", "a.b.c"} <= names


#: Models of other apps a lower layer may use although their package is forbidden to it
#: (an API token is a row like any other: services create and revoke them).
ALLOWED_MODELS = ("rest_framework.authtoken.models",)


def forbidden_hits(names: set[str], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        n for n in names
        if any(n == f or n.startswith(f + ".") for f in forbidden)
        and not any(n == a or n.startswith(a + ".") for a in ALLOWED_MODELS)
    )


#: The PDF renderers: plain dataclasses in, bytes out, never the ORM.
RENDERERS = (
    "documents.py", "pdf.py", "render.py", "board_sheets.py", "entry_forms.py",
    "standings.py", "travellers.py", "score_cards.py", "fonts.py", "fitting.py",
    "pages.py", "tables.py", "formats.py", "labels.py", "guide_cards.py", "sign_in_card.py",
    "table_cards.py", "round_pack.py", "pairings.py", "score_sheets.py",
    "classic_standings.py", "pair_cards.py", "group_tables.py", "bracket.py",
    "knockout_cards.py", "circuit_ranking.py",
)
UPPER = (
    "tournaments.views", "tournaments.web", "tournaments.api", "tournaments.forms",
    "tournaments.admin", "tournaments.management", "tournaments.urls", "rest_framework",
)
#: The pages, one module per concept (tournaments/web/); ``common.py`` holds what they share,
#: ``live_rows.py`` the live pages' long rows (``live.py`` alone imports it).
WEB_HELPERS = ("__init__", "common", "live_rows")
WEB_PAGES = sorted(p.stem for p in (APP / "web").glob("*.py") if p.stem not in WEB_HELPERS)
#: What no page imports: the other thin doors, the tasks (a page calls a service, which
#: enqueues), the fixed-SQL writes.
NOT_FOR_PAGES = (
    "tournaments.api", "tournaments.admin", "tournaments.management", "tournaments.urls",
    "tournaments.tasks", "tournaments.enqueue", "tournaments.db", "rest_framework",
)
#: (files, what they may not import) — docs/architecture.md "Who may import whom".
IMPORT_RULES: list[tuple[str, tuple[str, ...]]] = [
    *[
        (pattern, (*UPPER, "tournaments.selectors", "tournaments.services",
                   "tournaments.reports", "tournaments.tasks"))
        for pattern in ("tournaments/models.py", "tournaments/models/*.py")
    ],
    *[
        (pattern, (*UPPER, "tournaments.services", "tournaments.reports", "tournaments.tasks"))
        for pattern in ("tournaments/selectors.py", "tournaments/selectors/*.py")
    ],
    ("tournaments/permissions.py", (*UPPER, "tournaments.services", "tournaments.reports",
                                    "tournaments.tasks")),
    # Services send tasks by name through tournaments/enqueue.py: tasks.py imports them.
    ("tournaments/services/*.py", (*UPPER, "tournaments.tasks")),
    ("tournaments/services.py", (*UPPER, "tournaments.tasks")),
    ("tournaments/reports/services.py", (*UPPER, "tournaments.tasks")),
    ("tournaments/enqueue.py", (*UPPER, "tournaments.tasks", "tournaments.services",
                                "tournaments.reports", "tournaments.selectors",
                                "tournaments.models")),
    # The rules of the referee's form; its views are in web/referee.py.
    ("tournaments/referee_checks.py", (*UPPER, "tournaments.services", "tournaments.reports",
                                       "tournaments.tasks", "django.http")),
    # A page imports web/common.py, never another page; common.py imports no page.
    *[
        (f"tournaments/web/{page}.py",
         (*NOT_FOR_PAGES, *(f"tournaments.web.{other}" for other in WEB_PAGES if other != page)))
        for page in WEB_PAGES
    ],
    ("tournaments/web/common.py",
     (*NOT_FOR_PAGES, *(f"tournaments.web.{page}" for page in WEB_PAGES))),
    ("tournaments/web/live_rows.py",
     (*NOT_FOR_PAGES, *(f"tournaments.web.{page}" for page in WEB_PAGES))),
    # The fixed SQL of the hot paths: beside the models, below the permissions.
    *[
        (pattern, (*UPPER, "tournaments.selectors", "tournaments.services",
                   "tournaments.permissions", "tournaments.reports", "tournaments.tasks"))
        for pattern in ("tournaments/db/*.py",)
    ],
    ("tournaments/reports/build.py", (*UPPER, "tournaments.services",
                                      "tournaments.reports.services", "tournaments.tasks")),
    ("tournaments/reports/build_stages.py", (*UPPER, "tournaments.services",
                                             "tournaments.reports.services",
                                             "tournaments.reports.build", "tournaments.tasks")),
    *[
        (f"tournaments/reports/{name}", (
            "django.db", "tournaments.models", "tournaments.selectors",
            "tournaments.services", "tournaments.reports.build",
            "tournaments.reports.services", "tournaments.tasks", *UPPER,
        ))
        for name in RENDERERS
    ],
]


def import_cases() -> Iterator[tuple[str, tuple[str, ...]]]:
    for pattern, forbidden in IMPORT_RULES:
        for path in sorted(ROOT.glob(pattern)):
            yield str(path.relative_to(ROOT)), forbidden


#: Imports that break a rule today, by file: that file's test is an expected failure
#: (strict: it fails as soon as the file is clean, so this list must shrink).
KNOWN_IMPORTS: dict[str, str] = {}


def import_params() -> list[object]:
    return [
        pytest.param(path, forbidden, id=path,
                     marks=pytest.mark.xfail(reason=KNOWN_IMPORTS[path], strict=True))
        if path in KNOWN_IMPORTS
        else pytest.param(path, forbidden, id=path)
        for path, forbidden in import_cases()
    ]


def test_the_import_rules_reach_the_layers() -> None:
    # A renamed folder must not leave the rules checking nothing.
    checked = {path for path, _ in import_cases()}
    assert "tournaments/reports/pdf.py" in checked
    for package in ("models", "db", "selectors", "services", "web"):
        assert any(p.startswith(f"tournaments/{package}") for p in checked), package
    assert {"championships", "pairs", "rounds", "referee", "audit"} <= set(WEB_PAGES)
    assert "tournaments/web/common.py" in checked and "tournaments/enqueue.py" in checked
    assert any(p.startswith("tournaments/services") for p in checked)


@pytest.mark.parametrize(("path", "forbidden"), import_params())
def test_a_layer_imports_only_the_layers_below_it(path: str, forbidden: tuple[str, ...]) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    assert forbidden_hits(imported_modules(source, module_name(ROOT / path)), forbidden) == []


# -- ORM writes ------------------------------------------------------------------------------

#: Only the ORM has methods of these names.
ORM_ONLY = frozenset(
    {"bulk_create", "bulk_update", "get_or_create", "update_or_create", "select_for_update"}
)
#: Writes on a manager or queryset (``Model.objects.create``, ``qs.filter(...).update``).
MANAGER_WRITES = frozenset({"create", "update", "delete"})
#: Writes on a model instance (or a ModelForm, which saves one).
INSTANCE_WRITES = frozenset({"save", "delete"})
#: Writes on a related manager (``user.groups.add``, ``pair.result_set.clear``).
RELATED_WRITES = frozenset({"add", "remove", "set", "clear"})
RELATED_MANAGERS = frozenset({"user_permissions", "groups", "permissions"})
QUERYSET_METHODS = frozenset({
    "objects", "filter", "exclude", "all", "select_related", "prefetch_related", "order_by",
    "only", "defer", "annotate", "distinct", "using", "none",
})
#: Receivers of save/delete that are not the ORM: sessions, caches, file storage.
NOT_ORM = ("session", "cache", "storage", "file", "path", "messages")


def _chain(node: ast.expr) -> list[str]:
    """Attribute and call names from the receiver outwards: ``a.b.filter(x).c`` ->
    ``["c", "filter", "b", "a"]``."""
    names: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names
        else:
            return names


def orm_writes(source: str) -> list[tuple[int, str]]:
    """(line, call) of every ORM write the source makes itself."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method = node.func.attr
        receiver = _chain(node.func.value)
        text = ".".join(reversed(receiver)) + f".{method}()"
        querylike = bool(receiver) and (
            receiver[0] in QUERYSET_METHODS or "objects" in receiver
            or receiver[0].endswith("_set")
        )
        lowered = " ".join(receiver).lower()
        if (
            method in ORM_ONLY
            or (method in MANAGER_WRITES and querylike)
            or (method in INSTANCE_WRITES and not any(word in lowered for word in NOT_ORM))
            or (method in RELATED_WRITES and bool(receiver)
                and (receiver[0] in RELATED_MANAGERS or receiver[0].endswith("_set")))
        ):
            found.append((node.lineno, text))
    return sorted(found)


def test_the_write_scan_finds_every_kind_of_orm_write() -> None:
    source = (
        "Pair.objects.create(number=1)\n"                       # 1
        "Result.objects.filter(board=b).update(trump='O')\n"    # 2
        "pair.save()\n"                                         # 3
        "result.delete()\n"                                     # 4
        "Round.objects.bulk_create(rows)\n"                     # 5
        "User.objects.get_or_create(username='x')\n"            # 6
        "Pair.objects.update_or_create(number=1)\n"             # 7
        "Championship.objects.select_for_update().get(pk=1)\n"  # 8
        "user.user_permissions.add(p)\n"                        # 9
        "form.save()\n"                                         # 10
        "board.result_set.create(trump='O')\n"                  # 11
        "context.update(a=1)\n"                                 # not the ORM
        "request.session.save()\n"
        "cache.delete('k')\n"
        "default_storage.delete(name)\n"
        "seen.add(1)\n"
        "data.update({})\n"
    )
    assert [line for line, _ in orm_writes(source)] == list(range(1, 12))


#: The modules that must not write: views, API, tasks, commands, admin, and the reads.
THIN = (
    "tournaments/web/**/*.py",
    "tournaments/api/**/*.py",
    "tournaments/tasks.py", "tournaments/tasks/**/*.py",
    "tournaments/management/commands/*.py", "tournaments/admin.py",
    "tournaments/admin/**/*.py", "tournaments/reports/views.py",
    "tournaments/selectors.py", "tournaments/selectors/**/*.py",
    "tournaments/reports/build.py", "tournaments/reports/build_stages.py",
    "tournaments/lockouts.py", "tournaments/referee_checks.py",
)

#: Writes that remain in a thin module, by file: the test for that file is an expected
#: failure (strict: it fails as soon as the file is clean, so this list must shrink).
KNOWN_WRITES: dict[str, str] = {}


def thin_modules() -> list[str]:
    paths = {p for pattern in THIN for p in ROOT.glob(pattern) if p.name != "__init__.py"}
    return sorted(str(p.relative_to(ROOT)) for p in paths)


def thin_cases() -> list[object]:
    return [
        pytest.param(path, marks=pytest.mark.xfail(reason=KNOWN_WRITES[path], strict=True))
        if path in KNOWN_WRITES
        else path
        for path in thin_modules()
    ]


def test_the_write_scan_reaches_views_api_tasks_commands_and_admin() -> None:
    modules = thin_modules()
    for expected in ("web", "api", "tasks", "management/commands", "admin", "selectors"):
        assert any(f"tournaments/{expected}" in m for m in modules), expected


@pytest.mark.parametrize("path", thin_cases())
def test_views_api_tasks_commands_and_admin_never_write_through_the_orm(path: str) -> None:
    writes = orm_writes((ROOT / path).read_text(encoding="utf-8"))
    assert [f"{path}:{line}: {call}" for line, call in writes] == []


# -- import circles and private names ---------------------------------------------------------

#: The app's own packages: the private-name rule covers them all.
APP_PACKAGES = ("tournaments", "config", "engine", "scoring")


def package_modules(package: str) -> dict[str, Path]:
    """Dotted name -> file of every module of ``package`` (migrations left out: Django
    loads them by name, and each imports only the one before it)."""
    return {
        module_name(path): path
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.relative_to(ROOT).parts
    }


def _is_type_checking(node: ast.stmt) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_statements(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that can run: at module level, in a class, and inside functions (an
    import moved into a function only defers the circle to the first call, and both
    circles this test was written for hid there). Left out: ``if TYPE_CHECKING:``
    blocks, which never run and exist to name a type without importing at run time."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def resolved_base(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module a ``from ... import`` names (relative levels resolved)."""
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parent = ".".join(parts[: len(parts) - node.level + 1])
        base = f"{parent}.{base}" if base else parent
    return base


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """module -> the modules of ``modules`` it imports. ``import a.b`` and ``from a
    import b`` (``b`` a module) point at ``a.b``; ``from a.b import name`` at ``a.b``.
    A submodule's parent package is not an edge: Python runs it first in any case."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in import_statements(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in modules)
                continue
            base = resolved_base(node, name, is_package)
            if base in modules:
                edges.add(base)
            edges.update(f"{base}.{alias.name}" for alias in node.names
                         if f"{base}.{alias.name}" in modules)
        edges.discard(name)
        graph[name] = edges
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan), each sorted: every
    module of a group imports, through the others, itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(circles)


def test_the_circle_finder_finds_circles_and_only_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": set(),
             "f": {"g"}, "g": {"f"}}
    assert import_circles(graph) == [["a", "b", "c"], ["f", "g"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_sees_imports_inside_functions_and_relative_ones(
    tmp_path: Path,
) -> None:
    modules = {"p": tmp_path / "__init__.py", "p.a": tmp_path / "a.py",
               "p.b": tmp_path / "b.py", "p.c": tmp_path / "c.py"}
    modules["p"].write_text("")
    modules["p.a"].write_text("def f():\n    from p.b import thing\n")
    modules["p.b"].write_text("from . import c\nif TYPE_CHECKING:\n    from p import a\n")
    modules["p.c"].write_text("import p.a\n")
    assert import_graph(modules) == {"p": set(), "p.a": {"p.b"}, "p.b": {"p", "p.c"},
                                     "p.c": {"p.a"}}


def test_no_module_of_the_app_imports_itself_through_others() -> None:
    graph = import_graph(package_modules("tournaments"))
    assert len(graph) > 90  # the whole app, not an empty glob
    assert "tournaments.enqueue" in graph["tournaments.services.analysis"]
    assert import_circles(graph) == []


def private_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """``line: base:name`` of each ``from base import name`` in ``source`` (the text of
    ``module``) where ``base`` is a module of the app and ``name`` private: a helper kept
    to its module, used from another. Not counted: dunder names, aliases (``gettext as
    _`` imports ``gettext``), and a private module of the importer's own package
    (``engine/_ddcore``, the compiled solver, whose only door is ``engine/dd.py``)."""
    own_package = module if is_package else module.rsplit(".", 1)[0]
    found: list[str] = []
    for node in import_statements(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = resolved_base(node, module, is_package)
        if base.split(".")[0] not in APP_PACKAGES:
            continue
        for alias in node.names:
            name = alias.name
            if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
                continue
            if base == own_package and any(ROOT.joinpath(*base.split(".")).glob(f"{name}.*")):
                continue
            found.append(f"{node.lineno}: {base}:{name}")
    return sorted(found, key=lambda hit: int(hit.split(":")[0]))


def test_the_private_import_scan_sees_private_names_only() -> None:
    source = (
        "from tournaments.services.common import _lock, audit\n"   # 1
        "from django.utils.translation import gettext as _\n"
        "from tournaments.models import __all__\n"
        "from engine import _ddcore\n"                             # 4: not engine's own
        "from .web import _helper\n"                               # 5
        "def f():\n    from scoring.text import _clean\n"         # 7
        "from django.db import _private\n"                         # not the app
    )
    assert private_imports(source, "tournaments.probe") == [
        "1: tournaments.services.common:_lock", "4: engine:_ddcore",
        "5: tournaments.web:_helper", "7: scoring.text:_clean",
    ]
    # The engine's own compiled module, from inside the engine: allowed.
    dd = (ROOT / "engine" / "dd.py").read_text(encoding="utf-8")
    assert "from engine import _ddcore" in dd
    assert private_imports(dd, "engine.dd") == []


@pytest.mark.parametrize("package", APP_PACKAGES)
def test_no_module_imports_another_modules_private_names(package: str) -> None:
    modules = package_modules(package)
    assert modules, package
    assert [
        f"{path.relative_to(ROOT)}:{hit}"
        for name, path in modules.items()
        for hit in private_imports(path.read_text(encoding="utf-8"), name,
                                   path.name == "__init__.py")
    ] == []
