"""config.wsgi_body: a chunked body (no Content-Length) reaches Django whole, as gunicorn
decodes it; refused clearly where it cannot be read or is too large."""

from __future__ import annotations

import io
import os
from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from django.core.handlers.wsgi import WSGIRequest

from config import wsgi_body
from config.wsgi_body import ChunkedBodyMiddleware


def body_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """Answers with the body as Django's request reads it."""
    body = WSGIRequest(environ).body
    start_response("200 OK", [("Content-Type", "application/octet-stream")])
    return [body]


def call(app: Any, body: bytes, **headers: Any) -> tuple[str, bytes]:
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "PUT", "PATH_INFO": "/api/v1/x/", "SERVER_NAME": "testserver",
        "SERVER_PORT": "80", "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http",
        **headers,
    }
    seen: list[str] = []
    out = b"".join(app(environ, lambda status, _headers: seen.append(status)))
    return seen[0], out


def test_a_chunked_body_decoded_by_the_server_reads_whole() -> None:
    app = ChunkedBodyMiddleware(body_app, memory_limit=1024)
    body = b'{"trump": "O", "ns_points_taken": 40}' * 100  # over the memory limit: disk
    status, out = call(app, body, HTTP_TRANSFER_ENCODING="chunked",
                       **{"wsgi.input_terminated": True})
    assert (status, out) == ("200 OK", body)


def test_without_the_middleware_django_reads_a_chunked_body_as_empty() -> None:
    """Why the middleware exists: the failure it mends."""
    status, out = call(body_app, b'{"trump": "O"}', HTTP_TRANSFER_ENCODING="chunked",
                       **{"wsgi.input_terminated": True})
    assert (status, out) == ("200 OK", b"")


def test_a_body_with_content_length_passes_untouched() -> None:
    app = ChunkedBodyMiddleware(body_app, memory_limit=1024)
    status, out = call(app, b"abcdef", CONTENT_LENGTH="3")
    assert (status, out) == ("200 OK", b"abc")


def test_a_server_that_does_not_decode_chunks_gets_411() -> None:
    app = ChunkedBodyMiddleware(body_app, memory_limit=1024)
    status, out = call(app, b"5\r\nhello\r\n0\r\n\r\n", HTTP_TRANSFER_ENCODING="chunked")
    assert status == "411 Length Required"
    assert b"Content-Length" in out and b'"code": "length_required"' in out


def test_the_411_is_a_valid_answer_under_runserver() -> None:
    """runserver (wsgiref) refuses an answer with a hop-by-hop header: the 411 was a
    bare 500 there."""
    from wsgiref.util import setup_testing_defaults
    from wsgiref.validate import validator

    app = validator(ChunkedBodyMiddleware(body_app, memory_limit=1024))
    environ: dict[str, Any] = {"REQUEST_METHOD": "PUT", "HTTP_TRANSFER_ENCODING": "chunked",
                               "QUERY_STRING": "",
                               "wsgi.input": io.BytesIO(b"5\r\nhello\r\n0\r\n\r\n")}
    setup_testing_defaults(environ)
    seen: list[tuple[str, list[tuple[str, str]]]] = []

    def start_response(status: str, headers: list[tuple[str, str]]) -> Any:
        seen.append((status, headers))
        return lambda _data: None

    result = app(environ, start_response)
    body = b"".join(result)
    result.close()
    assert seen[0][0] == "411 Length Required" and b"length_required" in body
    assert all(name.lower() != "connection" for name, _value in seen[0][1])


def test_a_chunked_body_over_the_ceiling_gets_413_without_reading_it_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wsgi_body, "CHUNKED_BODY_CEILING", 100_000)
    app = ChunkedBodyMiddleware(body_app, memory_limit=1024)
    stream = io.BytesIO(b"x" * 1_000_000)
    status, _out = call(app, b"", HTTP_TRANSFER_ENCODING="chunked",
                        **{"wsgi.input": stream, "wsgi.input_terminated": True})
    assert status == "413 Request Entity Too Large"
    assert stream.tell() < 200_000


def test_a_chunked_body_over_djangos_limit_is_djangos_413(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    app = ChunkedBodyMiddleware(body_app, memory_limit=10)
    with pytest.raises(RequestDataTooBig):  # the API's handler answers it with a 413
        call(app, b"x" * 11, HTTP_TRANSFER_ENCODING="chunked",
             **{"wsgi.input_terminated": True})


def test_the_wsgi_module_freezes_the_loaded_application_out_of_the_collectors_view(
) -> None:
    """config.wsgi moves the application's long-lived objects out of the garbage
    collector's full collections (``gc.freeze``), in its own process as gunicorn does."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import gc, config.wsgi; print(gc.get_freeze_count())"],
        capture_output=True, text=True, check=True, timeout=120,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert int(out.stdout.strip().splitlines()[-1]) > 10_000, out.stderr
