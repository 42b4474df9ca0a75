"""The schema's word for the pages' session authentication: drf-spectacular's own
cookie scheme, named for our subclass (``api/authentication.py``), which it does not
match by itself (a warning, an error under ``check --deploy --fail-level WARNING``).
Imported by ``api/urls.py``, so it is registered before any schema is made."""

from __future__ import annotations

from drf_spectacular.authentication import SessionScheme


class PageSessionScheme(SessionScheme):  # type: ignore[no-untyped-call]  # registry untyped
    target_class = "tournaments.api.authentication.PageSessionAuthentication"
