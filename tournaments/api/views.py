"""Read-only API views: thin, one selector each, the same visibility as the pages."""

from __future__ import annotations

import re
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors
from tournaments.api.serializers import StandingsSerializer, TravellerSerializer
from tournaments.models import Board, Championship, Round
from tournaments.numbers import average_out, comparative_out

#: ASCII digits only: ``str.isdigit()`` accepts "²", which ``int()`` refuses (a 500).
_NUMBER = re.compile(r"[0-9]{1,6}")


def _int(value: str | None) -> int | None:
    """A query parameter as an int, or ``None`` when absent or malformed (ignored)."""
    value = (value or "").strip()
    return int(value) if _NUMBER.fullmatch(value) else None


class StandingsApi(APIView):
    """Standings of a championship: overall, ``?round=N`` or ``?through=N``, with totals
    over the boards public now, whoever asks (``selectors.standings`` ``for_public``)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="that round alone"),
            OpenApiParameter("through", int, description="after rounds 1..N"),
        ],
        responses=StandingsSerializer,
    )
    def get(self, request: Request, slug: str) -> Response:
        championship = get_object_or_404(Championship, slug=slug)
        round_only = _int(request.query_params.get("round"))
        through = None if round_only is not None else _int(request.query_params.get("through"))
        view = selectors.standings(
            championship, through_round=through, round_only=round_only,
            for_public=True,  # as the standings page: never a hidden board, whoever asks
        )
        asked = round_only if round_only is not None else through
        if asked is not None and asked not in view.rounds:  # a round it lacks: 404
            get_object_or_404(Round, championship=championship, number=asked)
        rules = championship.scoring_rules()
        data: dict[str, Any] = {
            "championship": championship.slug,
            "round": round_only,
            "through_round": through,
            "progress": {
                "results_in": view.progress.results_in,
                "results_expected": view.progress.results_expected,
            },
            "standings": [
                {
                    "rank": row.rank,
                    "pair": row.number,
                    "names": row.pair.names,
                    "total": comparative_out(row.total, rules),
                    "boards": row.boards,
                    "average": average_out(row.average),
                }
                for row in view.rows
            ],
        }
        return Response(StandingsSerializer(data).data)


class TravellerApi(APIView):
    """A board's traveller; hidden boards (some table still to play) come back with
    ``public: false``, no deal and no results unless the user is the championship's
    organiser or head referee (a plain referee sees what the public sees)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=TravellerSerializer)
    def get(self, request: Request, slug: str, number: int) -> Response:
        championship = get_object_or_404(Championship, slug=slug)
        board = get_object_or_404(Board, championship=championship, number=number)
        board.championship = championship
        insider = selectors.user_sees_hidden_boards(request.user, championship)
        sheet = selectors.traveller(board, for_public=not insider)
        rules = championship.scoring_rules()
        data = {
            "board": board.number,
            "dealer": sheet.dealer.value,
            "public": sheet.public,
            "deal": sheet.deal.to_json() if sheet.deal is not None else None,
            "tables_missing": sheet.tables_missing,
            "results": [
                {
                    "round": row.round,
                    "table": row.table,
                    "ns": row.ns_pair.number,
                    "ew": row.ew_pair.number,
                    "trump": row.result.trump,
                    "delegated": row.result.delegated,
                    "contro": row.result.contro,
                    "recontro": row.result.recontro,
                    "sant_vicenc": row.result.sant_vicenc,
                    "ns_points_taken": row.result.ns_points_taken,
                    "infraction": row.result.infraction,
                    "adjusted": (
                        {"NS": row.result.adjusted_ns, "EW": row.result.adjusted_ew}
                        if row.result.is_adjusted else None
                    ),
                    "ns_score": row.score.ns_score,
                    "ew_score": row.score.ew_score,
                    "ns_comparative": comparative_out(row.score.ns_comparative, rules),
                    "ew_comparative": comparative_out(row.score.ew_comparative, rules),
                }
                for row in sheet.rows
            ],
        }
        return Response(TravellerSerializer(data).data)
