"""The locks a classic game's save takes before it reads its table: the championship's
and the round's rows ``FOR KEY SHARE``, as a board's result save takes them
(:mod:`tournaments.db.results`). Fixed SQL over the models' tables."""

from __future__ import annotations

from typing import Any

from django.db import connections

from tournaments.models import Championship, Round, Seating

#: What names the round: its id, the championship's slug and its number, or a seating.
_WHERE = {
    "round": "r.id = %s",
    "slug": "c.slug = %s AND r.number = %s",
    "seating": "r.id = (SELECT s.round_id FROM {seating} s WHERE s.id = %s)",
}


def _statement(by: str) -> str:
    where = _WHERE[by].format(seating=Seating._meta.db_table)
    return (
        f"SELECT 1 FROM {Championship._meta.db_table} c"  # noqa: S608
        f" JOIN {Round._meta.db_table} r ON r.championship_id = c.id"
        f" WHERE {where} FOR KEY SHARE OF c, r"
    )


def share_round(by: str, params: list[Any], *, using: str = "default") -> None:
    """Hold the championship's and the round's rows (``FOR KEY SHARE``, the lock of a
    foreign key's check) until the transaction ends. Whoever locks the championship's
    row ``FOR UPDATE`` first (a finish, a round's close, a rules change, a draw) then
    runs wholly before the save, whose later reads see what it wrote, or wholly after
    it; saves still run side by side. ``by``: ``round`` (``[round id]``), ``slug``
    (``[slug, round number]``) or ``seating`` (``[seating id]``). Only on PostgreSQL
    (elsewhere writes run one at a time)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(_statement(by), params)
