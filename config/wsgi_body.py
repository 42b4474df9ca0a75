"""A chunked request body made readable by Django.

A client may send a body with ``Transfer-Encoding: chunked`` and no ``Content-Length``
(curl with ``-H 'Transfer-Encoding: chunked'``, some HTTP libraries when streaming).
Django reads exactly ``CONTENT_LENGTH`` octets of ``wsgi.input``, so such a body reads as
empty and a result PUT would be refused for a missing trump, which is wrong and
misleading. gunicorn decodes the chunks and says so (``wsgi.input_terminated``: reading
to the end is safe); :class:`ChunkedBodyMiddleware` then reads the body into a spooled
file (memory up to ``DATA_UPLOAD_MAX_MEMORY_SIZE``, disk above) and sets
``CONTENT_LENGTH``, so every limit and error of Django and of the API applies as to any
other body (413 above the upload limit). A server that does not decode chunks (Django's
``runserver``) gets 411 Length Required: the body cannot be read there.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

#: Octets of a chunked body read at most; the rest is not read, the request is refused
#: with 413 (no page of this site takes a body this large).
CHUNKED_BODY_CEILING = 64 * 1024 * 1024
_BLOCK = 64 * 1024

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _refuse(start_response: StartResponse, status: str, message: str, *,
            close: bool) -> list[bytes]:
    """The refusal as the API's error body. ``close``: ask the server to close the
    connection (the body was left unread); only gunicorn is asked, since a hop-by-hop
    header is the server's to set (PEP 3333), and wsgiref (``runserver``) fails the
    whole answer on one."""
    code = status.split(" ", 1)[1].lower().replace(" ", "_")
    body = json.dumps({"detail": message, "code": code, "errors": []}).encode()
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    if close:
        headers.append(("Connection", "close"))
    start_response(status, headers)
    return [body]


class ChunkedBodyMiddleware:
    """WSGI middleware around the Django application (config.wsgi).

    ``app``: the WSGI application; ``memory_limit``: octets kept in memory before the
    spooled file goes to disk. Requests with a ``Content-Length``, or without a chunked
    body, pass through untouched.
    """

    def __init__(self, app: WSGIApp, memory_limit: int) -> None:
        self.app = app
        self.memory_limit = memory_limit

    def __call__(self, environ: dict[str, Any],
                 start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked or environ.get("CONTENT_LENGTH"):
            return self.app(environ, start_response)
        if not environ.get("wsgi.input_terminated"):
            return _refuse(start_response, "411 Length Required",
                           "Cal la capçalera Content-Length: aquest servidor no llegeix "
                           "cossos per trossos (Transfer-Encoding: chunked). "
                           "Send Content-Length.", close=False)
        spooled = tempfile.SpooledTemporaryFile(max_size=self.memory_limit)  # noqa: SIM115
        size = 0
        stream = environ["wsgi.input"]
        while True:
            block = stream.read(_BLOCK)
            if not block:
                break
            size += len(block)
            if size > CHUNKED_BODY_CEILING:
                spooled.close()
                return _refuse(start_response, "413 Request Entity Too Large",
                               "El cos de la petició és massa gran. "
                               "The request body is too large.", close=True)
            spooled.write(block)
        spooled.seek(0)
        environ["wsgi.input"] = spooled
        environ["CONTENT_LENGTH"] = str(size)
        return self.app(environ, start_response)
