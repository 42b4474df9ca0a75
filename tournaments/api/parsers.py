"""The API's JSON parser: DRF's, with a body nested too deeply for Python's decoder
(``[[[[...]]]]``: ``RecursionError``) refused as unreadable like any other bad JSON
(400 ``parse_error``), never a 500 with a traceback in the log."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JSONBodyParser(JSONParser):
    """``application/json`` bodies; raises ``ParseError`` (400) for anything unreadable."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON nested too deeply") from None
