"""Printable documents: board sheets, entry forms, standings, travellers, score cards.

Layers (docs/architecture.md):

- ``documents``: plain frozen dataclasses, one per kind of document.
- ``board_sheets``, ``entry_forms``, ``standings``, ``travellers``, ``score_cards``:
  reportlab renderers from those dataclasses to PDF bytes; they never touch the ORM.
  ``render.render(document, on_page=...)`` picks the right one.
- ``build``: selectors turning ORM rows into documents.
- ``services``: print-job writes (request, reuse, progress, finish, fail, run).
- ``views``/``urls``: the organiser's and the public's pages.
"""
