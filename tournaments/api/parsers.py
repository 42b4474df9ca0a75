"""The API's JSON parser: DRF's, with a body nested too deeply for Python's decoder
(``[[[[...]]]]``: ``RecursionError``) refused as unreadable like any other bad JSON
(400 ``parse_error``), never a 500 with a traceback in the log; and a string holding a
lone surrogate (``"\\ud800"``: JSON may spell it, UTF-8 cannot) refused with a 400 naming
its field, before any serializer echoes it into a message no renderer can encode."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def surrogate_paths(value: Any, path: str = "") -> list[str]:
    """The dotted paths of the strings (keys included) in ``value`` that hold a lone
    surrogate; ``[]`` for data that UTF-8 can carry."""
    if isinstance(value, str):
        return [path] if _has_surrogate(value) else []
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            name = str(key).encode("utf-8", "backslashreplace").decode("utf-8")
            here = f"{path}.{name}" if path else name
            found += [here] if _has_surrogate(str(key)) else surrogate_paths(item, here)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += surrogate_paths(item, f"{path}.{index}" if path else str(index))
    return found


class JSONBodyParser(JSONParser):
    """``application/json`` bodies; raises ``ParseError`` (400) for anything unreadable
    and ``ValidationError`` (400, by field) for text with a lone surrogate."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON nested too deeply") from None
        paths = surrogate_paths(data)
        if paths:
            message = _("El text conté un caràcter que no existeix (un substitut UTF-16 "
                        "sol, com \\ud800): escriviu-lo de nou.")
            raise ValidationError({path or "non_field_errors": [message] for path in paths})
        return data
