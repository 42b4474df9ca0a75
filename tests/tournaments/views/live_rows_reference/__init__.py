"""The standings' and traveller's rows as the templates wrote them before
tournaments/web/live_rows.py wrote them in Python: the loops inside ``<tbody>`` of
templates/tournaments/live/standings.html and traveller.html at 602f528^, in this
folder, reading the read models' texts (``total_text``, ``ns_comparative_text``...) and
marks (``dd_difference``) where the loops once formatted the numbers themselves. For
the test that both give the same markup (tests/tournaments/views/test_live_rows.py) and
for the benchmark that compares their cost (benchmarks/bench_live_pages.py ``--rows``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.template import engines

HERE = Path(__file__).resolve().parent
_compiled: dict[str, Any] = {}


def render(name: str, **context: Any) -> str:
    """The reference template ``name`` (``standings_rows.html`` with ``championship``
    and ``standings``; ``traveller_rows.html`` with ``championship`` and ``traveller``)
    rendered by the project's Django engine, compiled once."""
    template = _compiled.get(name)
    if template is None:
        source = (HERE / name).read_text(encoding="utf-8")
        template = _compiled[name] = engines["django"].from_string(source)
    return str(template.render(context))
