"""One exception handler for the whole API (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).

Every error body has the same shape, ``ErrorSerializer`` (``api/error_body.py``: the
views import it without this handler, which imports the results view for a 409)::

    {"detail": "<translated message>", "code": "<machine code>",
     "errors": [{"field": "adjusted.NS", "message": "..."}],   # 400 only
     "current": {...} | null}                         # 409 of a result or a game only

The services' refusals (``tournaments.services.errors``, ``ValueError`` subclasses split
by cause) map to: ``ResultError`` and any other bad input -> 400 with the field path;
``NotAllowedError`` -> 403; ``ResultConflict`` -> 409 with the stored result as the
caller may see it (``GameConflict``: with the stored game); ``ChampionshipStateError``
-> 409; a missing ``If-Match`` -> 428.
Messages are in the request's language (Catalan msgids, Django i18n).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments import services
from tournaments.api.games import current_game_body
from tournaments.api.results import current_result_body
from tournaments.reports import services as print_services


def _flatten(detail: Any, path: str = "") -> list[dict[str, Any]]:
    """DRF's nested validation detail as ``[{"field": "a.b", "message": ...}]``."""
    if isinstance(detail, dict):
        out: list[dict[str, Any]] = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "detail") else str(key)
            out += _flatten(value, f"{path}.{name}" if path and name else path or name)
        return out
    if isinstance(detail, list):
        out = []
        for index, value in enumerate(detail):
            nested = isinstance(value, dict | list)
            here = f"{path}.{index}" if nested and path else (str(index) if nested else path)
            out += _flatten(value, here)
        return out
    return [{"field": path or None, "message": str(detail)}]


def _utf8(value: Any) -> Any:
    """``value`` with every string UTF-8 can carry: a lone surrogate that a message
    echoes from the input is written ``\\ud800`` (else the JSON renderer fails: a 500)."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {key: _utf8(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_utf8(item) for item in value]
    return value


def _body(detail: str, code: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = _utf8({"detail": str(detail), "code": code, **extra})
    return body


def _conflict_body(exc: services.ResultConflict, context: dict[str, Any]) -> dict[str, Any]:
    return _body(exc.message, "conflict", current=current_result_body(exc.current, context))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map ``exc`` to a response in the shape above; ``None`` (a 500) only for a bug."""
    if isinstance(exc, services.ResultConflict):
        return Response(_conflict_body(exc, context), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, services.GameConflict):
        return Response(_body(exc.message, "conflict",
                              current=current_game_body(exc.current, context)),
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, services.NotAllowedError | print_services.PrintNotAllowed):
        return Response(_body(str(exc), "not_allowed"), status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, services.ChampionshipStateError):
        return Response(_body(str(exc), "state"), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, services.TournamentError | print_services.PrintJobError):
        problems = getattr(exc, "problems", None) or [(exc.field, str(exc))]
        errors = [{"field": field, "message": str(message)} for field, message in problems]
        return Response(_body(str(exc), "invalid", errors=errors),
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        first = errors[0]["message"] if errors else _("Dades no vàlides.")
        return Response(_body(first, "invalid", errors=errors),
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):  # else Django's bare HTML 400, and a traceback
        return Response(
            _body(_("El cos de la petició és massa gran: el servidor n'accepta fins a "
                    "%(n)s octets.") % {"n": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
                  "too_large", errors=[]),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, exceptions.ParseError):  # DRF's own words are English only
        return Response(
            _body(_("No s'ha pogut llegir el cos de la petició: envieu-hi JSON vàlid."),
                  "parse_error", errors=[]),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        if isinstance(exc, ValueError):  # any other refusal of bad input: never a 500
            return Response(_body(str(exc), "invalid", errors=[]),
                            status=status.HTTP_400_BAD_REQUEST)
        return None
    detail = getattr(exc, "detail", response.data)
    code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
    response.data = _body(
        detail if isinstance(detail, str) else str(response.data.get("detail", detail)),
        code if isinstance(code, str) else "error",
    )
    return response


#: Every error a request may meet, added to each operation of the schema that lacks it
#: (:func:`add_error_responses`).
ERROR_STATUSES = {
    "400": "Bad input: every problem with its field path.",
    "401": "No valid credentials (a token or the session).",
    "403": "The user lacks the role this needs in this championship.",
    "404": "No such championship, round, table, board, pair, result or job (or hidden).",
    "429": "Too many requests from this address or user.",
}
WRITE_STATUSES = {
    "413": "The request's body is larger than the server takes.",
    "409": "Another change came first, or the championship's state forbids this.",
    "428": "The resource exists: send If-Match with its ETag.",
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any,
                        public: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation documents every error
    status it may answer, all with the ``ErrorSerializer`` body (``api/error_body.py``)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", {
        "type": "object",
        "properties": {
            "detail": {"type": "string"},
            "code": {"type": "string"},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"field": {"type": "string", "nullable": True},
                                   "message": {"type": "string"}},
                    "required": ["field", "message"],
                },
            },
            "current": {"nullable": True},
        },
        "required": ["detail", "code"],
    })
    ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in ("get", "put", "post", "patch", "delete"):
                continue
            responses = operation.setdefault("responses", {})
            wanted = dict(ERROR_STATUSES)
            if method != "get":
                wanted.update(WRITE_STATUSES)
            for code, description in wanted.items():
                responses.setdefault(code, {"description": description, "content": ref})
    return result
