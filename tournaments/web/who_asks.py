"""Answers that depend on who asks say so to every cache between: a referee's
API answer about a hidden board, a signed-in page, must never be stored by a shared cache
nor served to someone else.

- Every API answer varies on ``Authorization`` and ``Cookie`` (a token or the session
  may show more), and every page on ``Cookie``.
- An answer to a signed-in user (session or token) is ``Cache-Control: private``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers


class WhoAsksMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        api = request.path.startswith("/api/")
        patch_vary_headers(response, ["Authorization", "Cookie"] if api else ["Cookie"])
        user = getattr(request, "user", None)  # DRF sets it here for a token too
        signed_in = user is not None and user.is_authenticated
        if signed_in or (api and "HTTP_AUTHORIZATION" in request.META):
            patch_cache_control(response, private=True)
        return response
