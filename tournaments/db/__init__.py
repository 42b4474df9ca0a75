"""The app's data access in fixed SQL: the statements of the hot paths, each written once
from the models' own field lists, each function returning typed values (saved model
instances as a queryset builds them, or frozen dataclasses), never attributes added to
an instance.

- :mod:`tournaments.db.rows`: a row's columns into a saved instance, as a queryset does.
- :mod:`tournaments.db.results`: a result's save: its context (the seating with its
  round, championship, table and pairs, the board, the checks and the user's roles) in
  one locked read, the current result locked, a new result with its pair-board rows,
  audit row and version bump in one statement, the version bump alone.
- :mod:`tournaments.db.tokens`: a device's API token and its user.
- :mod:`tournaments.db.plans`: a kept connection's query plans made again as the
  results tables grow.

Django's building of these statements (joins, selected columns, the values of an
insert) cost a result's save more CPU than PostgreSQL spent answering them
(docs/performance.md "Result entry"); everything else uses the ORM. The tests in
tests/tournaments/db/ compare each read and write with the ORM's, field by field.
Like the models, this package imports no selector, service, permission or view.
"""
