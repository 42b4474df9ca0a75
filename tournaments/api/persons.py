"""A championship's players and their persons through the API: the players not yet
linked, each with the persons proposed (``selectors.persons.unlinked_players``), and
linking many at once (``services.players_link_bulk``), as the "Persones dels jugadors"
page does. The organiser only (whoever registers pairs)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.api.permissions import ReadOrAuthenticated, championship_of, require
from tournaments.api.serializers import StrictInput
from tournaments.models import Person
from tournaments.permissions import Capability
from tournaments.selectors import persons as reads


class CandidateSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    licence = serializers.CharField()
    club = serializers.CharField()


class UnlinkedPlayerSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    pair = serializers.IntegerField()
    seat = serializers.IntegerField()
    name = serializers.CharField()
    licence = serializers.CharField()
    #: The persons proposed, the first one the proposal.
    candidates = CandidateSerializer(many=True)


#: The largest id a row may have (PostgreSQL's ``integer``).
ID_MAX = 2**31 - 1
#: At most this many links in one request (a championship of 1,000 pairs).
LINKS_MAX = 2000


class LinkSerializer(StrictInput):
    player = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    #: A person's number; null: a new person from the player.
    person = serializers.IntegerField(min_value=1, max_value=ID_MAX, allow_null=True)


class LinksInputSerializer(StrictInput):
    links = LinkSerializer(many=True, allow_empty=False)

    def validate_links(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(value) > LINKS_MAX:
            raise serializers.ValidationError(
                _("Com a molt %(n)s enllaços per petició.") % {"n": LINKS_MAX})
        return value


class LinkedSerializer(serializers.Serializer[Any]):
    linked = serializers.IntegerField()


def _candidate(person: Person) -> dict[str, Any]:
    return {"id": person.pk, "name": person.name, "licence": person.licence,
            "club": person.club}


class PlayerPersonsApi(APIView):
    """GET: the players with no person, by pair, with the persons proposed (the same
    licence first, then the same name, accents and case aside). POST ``{"links":
    [{"player": id, "person": id or null}]}``: link them (null registers a new person
    from the player), all or nothing; answers how many were linked."""

    permission_classes = [ReadOrAuthenticated]

    @extend_schema(responses=UnlinkedPlayerSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        require(request, championship, Capability.REGISTER_PAIRS)
        rows = [{"player": r.player_id, "pair": r.pair, "seat": r.seat, "name": r.name,
                 "licence": r.licence, "candidates": [_candidate(p) for p in r.candidates]}
                for r in reads.unlinked_players(championship)]
        return Response(UnlinkedPlayerSerializer(rows, many=True).data)

    @extend_schema(request=LinksInputSerializer, responses=LinkedSerializer)
    def post(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        incoming = LinksInputSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        choices = {link["player"]: link["person"] or services.NEW_PERSON
                   for link in incoming.validated_data["links"]}
        linked = services.players_link_bulk(championship=championship, choices=choices,
                                            acting_user=request.user)
        return Response(LinkedSerializer({"linked": linked}).data)
