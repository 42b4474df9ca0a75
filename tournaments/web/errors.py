"""The pages of two refusals Django answers itself, in the site's words and the request's
language: a 400 (``handler400``: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, too many
fields; else Django's bare "Bad Request (400)") and the CSRF failure
(``CSRF_FAILURE_VIEW``; else Django's English page)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _


def _size(n: int) -> str:
    """``2621440`` -> ``"2,5 MB"`` (the number as the reader's language writes it)."""
    return str(filesizeformat(n))


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        reason = _("El que heu enviat és massa gran: una pàgina n'accepta fins a %(size)s. "
                   "Si enganxeu una llista, enganxeu-la en parts més petites.") % {
            "size": _size(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
    elif isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        reason = _("El formulari enviat té massa camps: una pàgina n'accepta fins a "
                   "%(n)s.") % {"n": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
    else:
        reason = _("La petició no és vàlida: torneu a obrir la pàgina i repetiu-ho.")
    return render(request, "400.html", {"reason": reason}, status=400)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Django's own ``reason`` is English and technical: the log keeps it
    (``django.security.csrf``), the page says what to do."""
    return render(request, "403_csrf.html", status=403)
