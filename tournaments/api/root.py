"""The root of API v1 (``/api/v1/``): what there is and where it is described, so the
address the README gives answers with a map instead of a 404."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

#: Resources under a championship, by the name of their URL; shown with ``{slug}``.
_PER_CHAMPIONSHIP = {
    "championship": "api_championship",
    "pairs": "api_pairs",
    "rounds": "api_rounds",
    "boards": "api_boards",
    "results": "api_results",
    "standings": "api_standings",
    "standings_progressive": "api_standings_progressive",
    "stages": "api_stages",
    "groups": "api_groups",
    "bracket": "api_bracket",
    "prints": "api_print_jobs",
}

_SLUG = "__slug__"


class ApiRootSerializer(serializers.Serializer[Any]):  # generic only in the stubs
    championships = serializers.URLField()
    token = serializers.URLField()
    per_championship = serializers.DictField(child=serializers.CharField())
    docs = serializers.URLField()
    redoc = serializers.URLField()
    schema = serializers.URLField()


class ApiRoot(APIView):
    """Links to the resources of API v1, to its documentation and to its OpenAPI schema.
    Addresses under a championship carry ``{slug}`` for the championship's slug."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ApiRootSerializer)
    def get(self, request: Request) -> Response:
        def url(name: str, **kwargs: str) -> str:
            return reverse(name, kwargs=kwargs or None, request=request)

        return Response({
            "championships": url("api_championships"),
            "token": url("api_token"),
            "per_championship": {
                key: url(name, slug=_SLUG).replace(_SLUG, "{slug}")
                for key, name in _PER_CHAMPIONSHIP.items()
            },
            "docs": url("api-docs"),
            "redoc": url("api-redoc"),
            "schema": url("schema"),
        })
