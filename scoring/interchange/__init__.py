"""The championship interchange file, version 1: read, check and write it.

Source: docs/file-format.md. One module per concept: :mod:`.reader` (the JSON text,
guarded against hostile input), :mod:`.load` with :mod:`.checks` (the schema checks),
:mod:`.document` (the checked dataclasses), :mod:`.dump` (the writer and its number
formats), :mod:`.limits` (every size), :mod:`.public` (the boards the public sees),
:mod:`.classic` (what only a classic championship's file has: its games' rules, a
table's ``game``, the standings by games won), :mod:`.stages` (a championship in
stages: its groups, qualified pairs and bracket, and what its games give).

:func:`load` checks a whole document and returns frozen
dataclasses, or raises :class:`InterchangeError` listing every problem as "JSON path:
message". :func:`dump` writes the document back, with the fields "Export adds" when given
the scores. ``load(dump(doc)) == doc``, and dumping an import of an export gives the same
document.

>>> doc = load({"format": "botifarra-duplicate/1",
...             "championship": {"name": "Prova", "slug": "prova"},
...             "rounds": [{"number": 1, "tables": [{"number": 1, "ns": 1, "ew": 2}]}]})
Traceback (most recent call last):
...
scoring.errors.InterchangeError: rounds[0].tables[0].ns: pair 1 does not exist; \
rounds[0].tables[0].ew: pair 2 does not exist

Questions the spec leaves open, and the reading chosen here:
- Which keys are required? ``format``, ``championship.name`` and ``.slug``, and in each
  list item its ``number``/``id`` (a result: ``board``; a pair: ``players``). A played
  result also needs ``trump`` and ``ns_points_taken`` (the points may be left out at an
  infraction, where they do not count); every other key has the default
  the spec gives (``rules`` values, ``false`` doubles, ``null`` infraction/adjusted).
- With both ``deal_secret`` and ``deal_commitment``, the commitment must match and so must
  every board's deal (it is regenerated from the secret); a secret alone also checks deals.
- Pairs with no result are left out of ``standings`` (they have no average).
- Limits the spec does not give, chosen so every valid file fits the database and the
  program's memory (see the ``MAX_*`` constants): numbers of rounds, tables, boards and
  pairs 1..9999; names and venue at most 200 characters, player ids 50, slug 100; no
  control characters in text; scale values and ``infraction_score`` strictly between
  -10^6 and 10^6 with at most 4 decimals; at most 200,000 results and 50 MB of JSON; an
  object may not repeat a key (JSON allows it, but one of the two values would be lost
  silently).
"""

from __future__ import annotations

from scoring.interchange.document import (
    EXPORTED_RESULT_KEYS,
    FORMAT,
    BoardDoc,
    ChampionshipDoc,
    PairDoc,
    PlayDoc,
    PlayerDoc,
    RoundDoc,
    TableDoc,
)
from scoring.interchange.dump import dump, dumps, export_number, export_problems
from scoring.interchange.limits import (
    MAX_DEPTH,
    MAX_DOCUMENT_BYTES,
    MAX_DRAW_SEED,
    MAX_ID_LENGTH,
    MAX_INTEGER_DIGITS,
    MAX_NAME_LENGTH,
    MAX_NOTE_LENGTH,
    MAX_NUMBER,
    MAX_PROBLEMS,
    MAX_RESULTS,
    MAX_SCALE,
    MAX_SLUG_LENGTH,
    SCALE_PLACES,
)
from scoring.interchange.load import load
from scoring.interchange.reader import DocumentReadError, parse_json, read_json
from scoring.text import OversizedNumber

__all__ = [
    "EXPORTED_RESULT_KEYS",
    "FORMAT",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_DRAW_SEED",
    "MAX_ID_LENGTH",
    "MAX_INTEGER_DIGITS",
    "MAX_NAME_LENGTH",
    "MAX_NOTE_LENGTH",
    "MAX_NUMBER",
    "MAX_PROBLEMS",
    "MAX_RESULTS",
    "MAX_SCALE",
    "MAX_SLUG_LENGTH",
    "SCALE_PLACES",
    "BoardDoc",
    "ChampionshipDoc",
    "DocumentReadError",
    "OversizedNumber",
    "PairDoc",
    "PlayDoc",
    "PlayerDoc",
    "RoundDoc",
    "TableDoc",
    "dump",
    "dumps",
    "export_number",
    "export_problems",
    "load",
    "parse_json",
    "read_json",
]
