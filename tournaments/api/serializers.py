"""Output serializers of the read-only API (HackSoft style: nested, output only).

Numbers follow championship-json.md "Export adds" (``tournaments.numbers``), so the API
gives the same values as ``python -m scoring`` on the exported file.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field(OpenApiTypes.NUMBER)
class PointsField(serializers.Field):  # type: ignore[type-arg]
    """Comparative points as the export writes them: a whole number stays an int
    (``floor`` rounding, or an exact whole value), else a float with 4 decimals."""

    def to_representation(self, value: Any) -> Any:
        return value


class ProgressSerializer(serializers.Serializer):  # type: ignore[type-arg]
    results_in = serializers.IntegerField()
    results_expected = serializers.IntegerField()


class StandingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rank = serializers.IntegerField()
    pair = serializers.IntegerField()
    names = serializers.CharField()
    total = PointsField()
    boards = serializers.IntegerField()
    average = PointsField()


class StandingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    championship = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    through_round = serializers.IntegerField(allow_null=True)
    progress = ProgressSerializer()
    standings = StandingSerializer(many=True)


class TravellerResultSerializer(serializers.Serializer):  # type: ignore[type-arg]
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    trump = serializers.CharField(allow_null=True)
    delegated = serializers.BooleanField()
    contro = serializers.BooleanField()
    recontro = serializers.BooleanField()
    sant_vicenc = serializers.BooleanField()
    ns_points_taken = serializers.IntegerField(allow_null=True)
    infraction = serializers.CharField(allow_null=True)
    adjusted = serializers.DictField(child=serializers.CharField(), allow_null=True)
    ns_score = serializers.IntegerField(allow_null=True)
    ew_score = serializers.IntegerField(allow_null=True)
    ns_comparative = PointsField()
    ew_comparative = PointsField()


class TravellerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    board = serializers.IntegerField()
    dealer = serializers.CharField()
    public = serializers.BooleanField()
    deal = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), allow_null=True
    )
    tables_missing = serializers.ListField(child=serializers.IntegerField())
    results = TravellerResultSerializer(many=True)
