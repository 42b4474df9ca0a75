"""What the API answers for a circuit: its rules, its championships and its rankings
of players and pairs (``circuits/<slug>/``), from ``selectors.circuits``'s read model.
Its ETag names the ranking's state (the circuit's version, its championships' results
versions, the persons' merges and changes): a client naming it gets a 304 with no
body."""

from __future__ import annotations

from typing import Any

from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.circuits import PointsKind, Tiebreak
from tournaments import services
from tournaments.api.error_body import ErrorSerializer
from tournaments.models import Circuit
from tournaments.selectors import circuits as read


class RulesSerializer(serializers.Serializer[Any]):
    points = serializers.ChoiceField(
        choices=[k.value for k in PointsKind],
        help_text="place_table: points_by_place; field_formula: pairs ranked - place + 1; "
                  "percentage; wins (games won)")
    points_by_place = serializers.ListField(
        child=serializers.FloatField(),
        help_text="the points of the 1st, 2nd... place (place_table; beyond it 0)")
    best_of = serializers.IntegerField(allow_null=True,
                                       help_text="results that count; null: all")
    min_events = serializers.IntegerField(help_text="events needed to be ranked")
    tiebreaks = serializers.ListField(
        child=serializers.CharField(),
        help_text="equal points broken in this order, each one of: "
                  + ", ".join(t.value for t in Tiebreak))
    shared_places = serializers.CharField(
        help_text="pairs that share a place share the points of the places they cover: "
                  "average")
    text = serializers.CharField(help_text="the rules in a sentence, in the language asked")


class EventResultSerializer(serializers.Serializer[Any]):
    championship = serializers.CharField(help_text="the championship's slug")
    place = serializers.IntegerField()
    points = serializers.FloatField()
    counted = serializers.BooleanField(help_text="false: a better best_of result counted")
    provisional = serializers.BooleanField(help_text="the championship is still played")


class PlayerRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(allow_null=True,
                                    help_text="null: not ranked (fewer than min_events)")
    person = serializers.IntegerField()
    name = serializers.CharField(help_text="the public name")
    points = serializers.FloatField()
    events = EventResultSerializer(many=True, help_text="in date order")


class PairRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(allow_null=True,
                                    help_text="null: not ranked (fewer than min_events)")
    persons = serializers.ListField(child=serializers.IntegerField(), min_length=2,
                                    max_length=2)
    names = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2,
                                  help_text="the public names, in the order of persons")
    points = serializers.FloatField()
    events = EventResultSerializer(many=True, help_text="in date order")


class CircuitSerializer(serializers.Serializer[Any]):
    """A circuit's rules, its championships in date order and its rankings (ranked
    rows first, then the unranked)."""

    rules = RulesSerializer()
    events = serializers.ListField(child=serializers.CharField(),
                                   help_text="the championships' slugs in date order")
    players = PlayerRowSerializer(many=True)
    pairs = PairRowSerializer(many=True)


def _events(line: read.Line) -> list[dict[str, Any]]:
    return [{"championship": e.championship, "place": e.place,
             "points": read.points_out(e.points), "counted": e.counted,
             "provisional": e.provisional} for e in line.events]


def circuit_data(ranking: read.CircuitRanking) -> dict[str, Any]:
    """The circuit's answer (``selectors.circuits.circuit_ranking``)."""
    rules = ranking.rules
    return {
        "rules": {
            "points": rules.points.value,
            "points_by_place": [read.points_out(p) for p in read.table_points(rules)],
            "best_of": rules.best_of,
            "min_events": rules.min_events,
            "tiebreaks": [t.value for t in rules.tiebreaks],
            "shared_places": "average",
            "text": ranking.rules_text,
        },
        "events": [e.slug for e in ranking.events],
        "players": [{"rank": line.rank, "person": line.persons[0], "name": line.names[0],
                     "points": read.points_out(line.points), "events": _events(line)}
                    for line in ranking.players],
        "pairs": [{"rank": line.rank, "persons": list(line.persons),
                   "names": list(line.names), "points": read.points_out(line.points),
                   "events": _events(line)} for line in ranking.pairs],
    }


class CircuitApi(APIView):
    """A circuit's rules, championships and rankings of players and pairs. Public."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter(
            "If-None-Match", str, OpenApiParameter.HEADER, required=False,
            description="an ETag this endpoint sent: 304 while it is current")],
        responses={200: CircuitSerializer,
                   304: OpenApiResponse(description="not modified: the client's copy is "
                                                    "current (no body)"),
                   404: ErrorSerializer})
    def get(self, request: Request, slug: str) -> Response:
        circuit = Circuit.objects.filter(slug=slug).first()
        if circuit is None:
            raise NotFound(_("No hi ha cap circuit amb l'identificador «%(slug)s».")
                           % {"slug": slug})
        state = read.circuit_state(circuit)
        etag = quote_etag(f"circuit-{state}-{get_language()}")
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        held = request.META.get("HTTP_IF_NONE_MATCH")
        if held and (held.strip() == "*" or etag in {
                t.removeprefix("W/") for t in parse_etags(held)}):
            return Response(status=304, headers=headers)
        stale = read.stale_championships(circuit)
        if stale:
            services.final_standings_refresh(championship_ids=stale)
        ranking = read.circuit_ranking(circuit, state=state)
        return Response(CircuitSerializer(circuit_data(ranking)).data, headers=headers)
